"""Lesson 12 (tf.function): checks for the three exercises.

>>> import minitf as tf
>>> check_ex2([tf.TensorSpec(shape=[None, 3], dtype=tf.float32)])
✓ Exercise 2: correct.
"""
import numpy as np

import minitf as tf
from widgets.exercises import NOT_ATTEMPTED, Exercise, outcome, same, unattempted


def _tracing_count():
    """Make the exercise's five calls on a fresh `power` and count its traces."""
    @tf.function
    def power(x, n):
        return x ** n

    power(tf.constant(2.0), 2)
    power(tf.constant(3.0), 2)
    power(tf.constant([2.0, 3.0]), 2)
    power(tf.constant(2.0), 3)
    power(tf.constant(2.0), 3)
    return power.experimental_get_tracing_count()


ex1 = Exercise("Exercise 1", [
    "A call traces again only when its trace key is new. What goes into the key: a tensor's "
    "value, or its shape and dtype? And a Python number?",
    "Tensors count by shape and dtype; Python arguments by their value. Go through the calls "
    "one by one and ask: has this key been seen?",
], mistakes=[
    (lambda a: a == 5, "Not every call traces: a call whose trace key was seen before reuses "
                       "the graph."),
    (lambda a: a == 2, "A Python argument is part of the trace key by its value: n = 3 after "
                       "n = 2 is a new key."),
    (lambda a: a == 4, "The last call repeats the one before it exactly."),
    (lambda a: a == 1, "A new shape is a new trace key."),
])


def check_ex1(answer):
    """The predicted tracing count of `power` after the exercise's calls."""
    ex1.check(answer, _tracing_count(), show_expected=False)


def _row_sums(signature):
    """Wrap a row-sum function in tf.function with the learner's signature; calls with 2, 5
    and 7 rows. Returns (results, tracing count)."""
    @tf.function(input_signature=signature)
    def row_sums(batch):
        return tf.reduce_sum(batch, axis=1)

    results = [row_sums(tf.ones([rows, 3])) for rows in (2, 5, 7)]
    return results, row_sums.experimental_get_tracing_count()


def _spec(signature):
    return list(signature)[0]


ex2 = Exercise("Exercise 2", [
    "input_signature is a list with one tf.TensorSpec per argument. Which dimension varies, "
    "and which one is always the same?",
    "A dimension that varies is None in the TensorSpec's shape; one that does not is its "
    "number. The dtype is float32.",
], mistakes=[
    (lambda s: not isinstance(s, (list, tuple)), "input_signature is a list: one TensorSpec "
                                                 "per argument, in brackets."),
    (lambda s: _spec(s).shape.as_list() == [None, None], "That accepts any number of columns "
                                                         "too; every batch has 3."),
    (lambda s: None not in _spec(s).shape.as_list(), "A fixed number of rows: calls with "
                                                     "other batch sizes are refused. The "
                                                     "varying dimension is None."),
    (lambda s: _spec(s).dtype != tf.float32, "The batches are float32."),
])


def check_ex2(signature):
    """The signature must let batches of 2, 5 and 7 rows of 3 float32 columns share one
    trace, and say that the columns are 3."""
    if unattempted(signature):
        print(NOT_ATTEMPTED)
        return
    want = [tf.TensorSpec(shape=[None, 3], dtype=tf.float32)]
    problem = None
    got = outcome(_row_sums, signature)
    if isinstance(got, Exception):
        message = str(got).split(" Received args")[0]
        problem = (f"With this input_signature, calls with 2, 5 and 7 rows fail: "
                   f"{type(got).__name__}: {message}")
    elif got[1] != 1:
        problem = f"Calls with 2, 5 and 7 rows made {got[1]} traces, not one."
    elif not (isinstance(signature, (list, tuple)) and len(signature) == 1
              and _spec(signature) == want[0]):
        problem = f"The signature {signature!r} accepts more than batches of 3 float32 columns."
    ex2.verdict(signature, problem)


_VALUES = [0.5, 2.0, -1.0]  # what the check adds up: not the lesson's 1, 2, 3


def _running_problem(total, running):
    """Call total on fresh values; a sentence on what went wrong, or None."""
    if not isinstance(running, tf.Variable):
        return (f"running is a {type(running).__name__}, not a tf.Variable: the sum must live "
                "in a variable created outside the function.")
    start = float(running.numpy())
    expected = start
    for value in _VALUES:
        expected += value
        try:
            result = total(tf.constant(value))
        except Exception as exc:  # noqa: BLE001 - a check never raises
            return f"total(...) raised {type(exc).__name__}: {exc}"
        if not same(result, tf.constant(expected)):
            shown = np.asarray(getattr(result, "numpy", lambda: result)())
            return (f"After adding {_VALUES[:_VALUES.index(value) + 1]} to {start}, total "
                    f"returned {shown}, not {expected}.")
    if not np.isclose(float(running.numpy()), expected):
        return f"The calls returned the right sums, but running holds {running.numpy()}."
    return None


def _singleton(answer):
    return "singleton" in _last_problem[0]


_last_problem = [""]

ex3 = Exercise("Exercise 3", [
    "A Python assignment inside a tf.function runs once, while tracing. What kind of object "
    "can change on every call?",
    "Keep the sum in running = tf.Variable(0.0), made outside the function; inside, change "
    "it with an op (assign_add) and return its value.",
], mistakes=[
    (lambda a: "not a tf.Variable" in _last_problem[0], "Create running = tf.Variable(0.0) "
                                                        "outside the function."),
    (lambda a: "UnboundLocalError" in _last_problem[0], "Inside the function, "
                                                         "`running = ...` makes a new local "
                                                         "name. Leave the name alone and "
                                                         "change the variable with an op."),
    (_singleton, "The function creates a new variable when it traces: make it once, outside."),
    (lambda a: "returned" in _last_problem[0] and "not" in _last_problem[0],
     "The result does not add up across calls: `running = running + x` is a Python "
     "assignment that happens once, while tracing. Change the variable with an op."),
])


def check_ex3(total, running):
    """Call the learner's total three times on fresh values; the sums must accumulate in
    the variable running."""
    if unattempted(total) or unattempted(running):
        print(NOT_ATTEMPTED)
        return
    _last_problem[0] = _running_problem(total, running) or ""
    ex3.verdict(total, _last_problem[0] or None)


EXERCISES = [ex1, ex2, ex3]
