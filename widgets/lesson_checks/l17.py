"""Lesson 17 (tf.data I): checks for the three exercises.

>>> check_ex1(...)
… Not attempted yet: replace the `...` with your answer and run the cell again.
>>> check_ex1((28, 28))
✓ Exercise 1: correct.
"""
import numpy as np

import minitf as tf
from widgets.exercises import NOT_ATTEMPTED, Exercise, as_tuple, outcome, same, unattempted

# --- exercise 1: the shape of one element of from_tensor_slices ----------------------------


def _ex1_images():
    return np.zeros((6, 28, 28), np.float32)


def _element_shape(dataset):
    return tuple(dataset.element_spec.shape.as_list())


def _shape(answer):
    """A tuple of ints for every form of a shape; any other answer unchanged."""
    answer = as_tuple(answer)
    try:
        return tuple(int(n) for n in answer) if isinstance(answer, tuple) else answer
    except (TypeError, ValueError):
        return answer


ex1 = Exercise("Exercise 1", [
    "from_tensor_slices cuts its input along one axis. Which one, and what is left of "
    "each piece?",
    "The first axis (6 images) becomes the elements; an element is what remains.",
], mistakes=[
    (lambda a: _shape(a) == _element_shape(tf.data.Dataset.from_tensors(_ex1_images())),
     "That is the shape of from_tensors' single element: from_tensor_slices takes the "
     "array apart along its first axis."),
    (lambda a: _shape(a) == (6,),
     "6 is how many elements there are, not the shape of one of them."),
    (lambda a: _shape(a) in ((28,), (6, 28)),
     "Only the first axis is sliced off; the other two stay in every element."),
])


def check_ex1(answer):
    """The shape of one element of from_tensor_slices(images), images of shape (6, 28, 28)."""
    if unattempted(answer):
        print(NOT_ATTEMPTED)
        return
    expected = tf.TensorShape(_element_shape(
        tf.data.Dataset.from_tensor_slices(_ex1_images())))
    ex1.check(_shape(answer), expected, show_expected=False)


# --- exercise 2: an output_signature for a generator of ragged rows ------------------------


def _ex2_rows():
    """Rows of different lengths, as a sensor log might give them."""
    rng = np.random.default_rng(1717)
    return [rng.integers(0, 100, size=n).tolist() for n in (3, 1, 4, 2)]


def _ex2_values(signature):
    rows = _ex2_rows()
    dataset = tf.data.Dataset.from_generator(lambda: iter(rows), output_signature=signature)
    return [np.asarray(row).tolist() for row in dataset]


def _spec_parts(answer):
    """(shape as a list or None, dtype) of a TensorSpec answer."""
    return answer.shape.as_list() if answer.shape.rank is not None else None, answer.dtype


def _ex2_problem(answer):
    if not isinstance(answer, tf.TensorSpec):
        return (f"The answer is a {type(answer).__name__}; output_signature wants a "
                "tf.TensorSpec(shape, dtype).")
    shape, dtype = _spec_parts(answer)
    if not dtype.is_integer:
        return f"The dtype is {dtype.name}, but the rows hold whole numbers."
    if shape != [None]:
        return f"The shape {answer.shape} does not fit every row."
    got = outcome(_ex2_values, answer)
    if isinstance(got, Exception) or got != _ex2_rows():
        return "The dataset does not give back the generator's rows."
    return None


ex2 = Exercise("Exercise 2", [
    "Look at what one yield produces: how many axes, and is its length always the same?",
    "One axis, whose length changes from row to row: TensorFlow writes an unknown length "
    "as None.",
], mistakes=[
    (lambda a: a.shape.rank == 0,
     "Shape [] is a single number; every yield here is a whole row (one axis)."),
    (lambda a: a.shape.rank == 1 and a.shape[0] is not None,
     "A fixed length fails as soon as a row of another length comes: the rows differ in "
     "length, so leave it unknown (None)."),
    (lambda a: a.shape.rank is None,
     "shape=None accepts anything, but tells the pipeline nothing; say how many axes "
     "there are."),
    (lambda a: not a.dtype.is_integer,
     "The rows hold integers: give an integer dtype (tf.int32 or tf.int64)."),
])


def check_ex2(answer):
    """A tf.TensorSpec that lets from_generator yield rows of different lengths."""
    if unattempted(answer):
        print(NOT_ATTEMPTED)
        return
    ex2.verdict(answer, _ex2_problem(answer))


# --- exercise 3: parse a tf.train.Example ---------------------------------------------------


def _ex3_records():
    rng = np.random.default_rng(1718)
    records = []
    for _ in range(4):
        point = rng.normal(size=2).astype(np.float32)
        label = int(rng.integers(0, 3))
        example = tf.train.Example(features=tf.train.Features(feature={
            "point": tf.train.Feature(float_list=tf.train.FloatList(value=point.tolist())),
            "label": tf.train.Feature(int64_list=tf.train.Int64List(value=[label])),
        }))
        records.append((example.SerializeToString(), point, label))
    return records


def _ex3_problem(function):
    for serialized, point, label in _ex3_records():
        result = outcome(function, tf.constant(serialized))
        if isinstance(result, Exception):
            return (f"Called on a record of its own, your function raised "
                    f"{type(result).__name__}: {result}")[:400]
        if unattempted(result):
            return "Your function returned None: is its `return` missing?"
        if isinstance(result, dict):
            return "Your function returned the dict of features, not a (point, label) pair."
        if not isinstance(result, tuple) or len(result) != 2:
            return f"Your function returned a {type(result).__name__}, not a (point, label) pair."
        got_point, got_label = result
        if not same(got_point, tf.constant(point)):
            return "The point is not the record's point (shape [2], float32)."
        if not same(got_label, tf.constant(label, tf.int64)):
            return "The label is not the record's label (a scalar int64)."
    return None


def _raises_with(function, words):
    result = outcome(function, tf.constant(_ex3_records()[0][0]))
    return isinstance(result, Exception) and any(w in str(result) for w in words)


ex3 = Exercise("Exercise 3", [
    "Describe each feature with tf.io.FixedLenFeature(shape, dtype) in a dict, and hand "
    "the record and the dict to tf.io.parse_single_example.",
    "The point has 2 floats: FixedLenFeature([2], tf.float32); the label is one integer: "
    "FixedLenFeature([], tf.int64). Then return the two values of the parsed dict.",
], mistakes=[
    (lambda f: _raises_with(f, ("Key: point", "Name: point", "float_list", "Key: label")),
     "The feature spec does not match the record: a FixedLenFeature's shape is the number "
     "of values per record ([2] for the point, [] for one label), and its dtype the list "
     "kind (float_list -> tf.float32, int64_list -> tf.int64)."),
    (lambda f: isinstance(f(tf.constant(_ex3_records()[0][0])), dict),
     "parse_single_example gives a dict; return (parsed['point'], parsed['label'])."),
])


def check_ex3(function):
    """parse_record(serialized) is called on four records the lesson never showed."""
    ex3.check_callable(function, _ex3_problem)


EXERCISES = [ex1, ex2, ex3]
