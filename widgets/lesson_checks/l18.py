"""Lesson 18 (tf.data II): checks for the three exercises.

>>> check_ex1(...)
… Not attempted yet: replace the `...` with your answer and run the cell again.
>>> check_ex1([3, 3, 1, 3, 3, 1])
✓ Exercise 1: correct.
"""
import numpy as np

import minitf as tf
from widgets.exercises import NOT_ATTEMPTED, Exercise, as_tuple, outcome, unattempted


def _batch_sizes(dataset):
    return tuple(int(tf.shape(batch)[0]) for batch in dataset)


def _ex1_pipeline():
    return tf.data.Dataset.range(7).batch(3).repeat(2)


def _sizes(answer):
    return tuple(int(n) for n in as_tuple(answer))


ex1 = Exercise("Exercise 1", [
    "Read the chain from left to right: what does batch(3) make of 7 elements, and what "
    "does repeat(2) then do with those batches?",
    "batch(3) gives 3 batches, the last one short; repeat(2) plays those 3 batches twice.",
], mistakes=[
    (lambda a: _sizes(a) == _batch_sizes(tf.data.Dataset.range(7).repeat(2).batch(3)),
     "Those are the sizes of repeat(2).batch(3): here batch comes first, so every epoch "
     "ends with its own short batch."),
    (lambda a: _sizes(a) == _batch_sizes(
        tf.data.Dataset.range(7).batch(3, drop_remainder=True).repeat(2)),
     "batch keeps the short last batch unless you pass drop_remainder=True."),
    (lambda a: _sizes(a) == _batch_sizes(tf.data.Dataset.range(7).batch(3)),
     "That is one pass; repeat(2) plays the batches twice."),
])


def check_ex1(answer):
    """The predicted batch sizes of range(7).batch(3).repeat(2) (a list or a tuple)."""
    if unattempted(answer):
        print(NOT_ATTEMPTED)
        return
    ex1.check(as_tuple(answer), _batch_sizes(_ex1_pipeline()), show_expected=False)


# --- exercise 2: (window, next value) pairs ------------------------------------------------


def _reference_pairs(series, size):
    values = np.asarray(series)
    return [(values[i:i + size], values[i + size]) for i in range(len(values) - size)]


def _ex2_cases():
    rng = np.random.default_rng(1818)
    return [(tf.constant(rng.normal(size=length).astype(np.float32)), size)
            for length, size in ((9, 3), (12, 4), (6, 5))]


def _as_pairs(dataset):
    pairs = []
    for element in dataset:
        inputs, target = element  # a non-pair raises: reported as a problem
        pairs.append((np.asarray(inputs.numpy()), np.asarray(target.numpy())))
    return pairs


def _pairs_problem(got, want, size):
    lengths = {inputs.shape[0] if inputs.ndim else None for inputs, _ in got}
    if len(lengths) == 1 and lengths != {size}:
        return (f"the inputs hold {lengths.pop()} values each, but {size} were expected "
                f"(size={size} values, without the target).")
    if len(got) != len(want):
        extra = " Some windows are shorter than `size`: drop them (drop_remainder=True)." \
            if len(lengths) > 1 else ""
        return f"it yields {len(got)} pairs, but {len(want)} were expected.{extra}"
    for i, ((inputs, target), (w_inputs, w_target)) in enumerate(zip(got, want)):
        if inputs.shape != w_inputs.shape:
            return (f"pair {i}: the inputs have shape {inputs.shape}, but {w_inputs.shape} "
                    f"was expected (size={size} values, without the target).")
        if target.shape != ():
            return f"pair {i}: the target has shape {target.shape}; one value is expected."
        if not (np.allclose(inputs, w_inputs) and np.allclose(target, w_target)):
            return f"pair {i} holds other values than the series at that position."
    return None


def _pairs_verdict(function):
    for series, size in _ex2_cases():
        result = outcome(function, series, size)
        where = f"Called with a series of {int(series.shape[0])} values and size={size}"
        if isinstance(result, Exception):
            return f"{where}, your function raised {type(result).__name__}: {result}"[:400]
        if unattempted(result):
            return f"{where}, your function returned {result!r}: is its `return` missing?"
        if not isinstance(result, tf.data.Dataset):
            return f"{where}, your function returned a {type(result).__name__}, not a dataset."
        got = outcome(_as_pairs, result)
        if isinstance(got, Exception):
            return (f"{where}: its elements are not (inputs, target) pairs of tensors "
                    f"({type(got).__name__}).")
        problem = _pairs_problem(got, _reference_pairs(series.numpy(), size), size)
        if problem:
            return f"{where}: {problem}"
    return None


ex2 = Exercise("Exercise 2", [
    "Each pair needs size + 1 consecutive values: the inputs and the target after them.",
    "window(size + 1, shift=1, drop_remainder=True), then flat_map(lambda w: w.batch(size + 1)) "
    "gives tensors of size + 1 values; a map splits each into s[:-1] and s[-1].",
], mistakes=[
    (lambda f: "shorter than `size`" in (_pairs_verdict(f) or ""),
     "window keeps the short windows at the end unless drop_remainder=True."),
    (lambda f: "were expected (size=" in (_pairs_verdict(f) or ""),
     "The inputs hold `size` values; the window has to be one longer, so that the target "
     "fits after them."),
])


def check_ex2(function):
    """next_value_pairs(series, size) is called on three series the lesson never showed."""
    ex2.check_callable(function, _pairs_verdict)


# --- exercise 3: batch, then map ----------------------------------------------------------


def _brighten(image):
    return tf.minimum(tf.cast(image, tf.float32) * 1.5, 255.0)


def _ex3_cases():
    rng = np.random.default_rng(1819)
    return [rng.integers(0, 256, size=(rows, 6)).astype(np.uint8) for rows in (70, 40)]


def _stages(dataset):
    """Stage names from the source on, e.g. ['TensorSlice', 'Batch', 'Map']."""
    from widgets.pipeline import pipeline_stages

    return [s for s in pipeline_stages(dataset) if not s.endswith("/fn")]


def _values_problem(got, images):
    want = [b.numpy() for b in tf.data.Dataset.from_tensor_slices(images).map(_brighten)
            .batch(32)]
    got = [np.asarray(b.numpy()) for b in got]
    if [b.shape for b in got] != [b.shape for b in want]:
        return (f"the batches have shapes {[b.shape for b in got]}, but "
                f"{[b.shape for b in want]} were expected.")
    if any(b.dtype != w.dtype or not np.allclose(b, w) for b, w in zip(got, want)):
        return "the batches hold other values (or dtypes) than slow_pipeline's."
    return None


def _ex3_verdict(function):
    for images in _ex3_cases():
        where = f"Called with {images.shape[0]} images"
        result = outcome(function, images)
        if isinstance(result, Exception):
            return f"{where}, your function raised {type(result).__name__}: {result}"[:400]
        if unattempted(result):
            return f"{where}, your function returned {result!r}: is its `return` missing?"
        if not isinstance(result, tf.data.Dataset):
            return f"{where}, your function returned a {type(result).__name__}, not a dataset."
        problem = outcome(_values_problem, result, images)
        if isinstance(problem, Exception):
            return f"{where}: its batches could not be compared ({type(problem).__name__})."
        if problem:
            return f"{where}: {problem}"
        stages = outcome(_stages, result)
        if isinstance(stages, list) and "Map" in stages and "Batch" in stages and \
                stages.index("Map") < stages.index("Batch"):
            return ("the batches are right, but brighten still runs once per image: map "
                    "comes before batch.")
    return None


ex3 = Exercise("Exercise 3", [
    "brighten uses element-wise ops only, so it gives the same numbers on a whole batch.",
    "Swap two steps of slow_pipeline.",
], mistakes=[
    (lambda f: "map comes before batch" in (_ex3_verdict(f) or ""),
     "Batch first, then map: the map's function then sees a whole batch per call."),
])


def check_ex3(function):
    """fast_pipeline(images) must give slow_pipeline's batches, with batch before map."""
    ex3.check_callable(function, _ex3_verdict)


EXERCISES = [ex1, ex2, ex3]
