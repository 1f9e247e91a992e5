"""Lesson 01 (eager execution): checks for the three exercises.

>>> check_ex1(...)
… Not attempted yet: replace the `...` with your answer and run the cell again.
"""
import numpy as np

import minitf as tf
from widgets.exercises import Exercise, outcome, same

_RNG_SEED = 1701  # fresh inputs for the learner's function: fixed, but never shown

ex1 = Exercise("Exercise 1", [
    "The length has three steps: square each entry, add the squares up, take the square root.",
    "Each step is one minitf op: tf.square, tf.reduce_sum, tf.sqrt.",
], mistakes=[
    (lambda a: same(a, tf.constant(25.0)), "That is the sum of the squares; the length is its "
                                           "square root."),
    (lambda a: same(a, tf.constant(7.0)), "That adds the entries up; square each entry first."),
    (lambda a: same(a, tf.constant([9.0, 16.0])), "Those are the squares, one per entry; add them "
                                                  "up into one number."),
])


def check_ex1(answer):
    """The length of v = [3, 4], as a scalar float32 tensor."""
    v = tf.constant([3.0, 4.0])
    ex1.check(answer, tf.sqrt(tf.reduce_sum(v * v)))


def _affine_cases():
    rng = np.random.default_rng(_RNG_SEED)
    cases = []
    for rows in (1, 4):
        x = tf.constant(rng.normal(size=(rows, 3)).astype(np.float32))
        w = tf.constant(rng.normal(size=(3, 2)).astype(np.float32))
        b = tf.constant(rng.normal(size=(2,)).astype(np.float32))
        cases.append((x, w, b))
    return cases


def _raises(function, message):
    x, w, b = _affine_cases()[1]
    got = outcome(function, x, w, b)
    return isinstance(got, Exception) and message in str(got)


def _forgot_bias(function):
    x, w, b = _affine_cases()[1]
    return same(function(x, w, b), tf.matmul(x, w))


ex2 = Exercise("Exercise 2", [
    "A placeholder becomes an argument of the function, and sess.run(y, ...) becomes a call "
    "that returns y.",
    "Return the same expression the TF1 program builds: tf.matmul(x, w) + b.",
], mistakes=[
    (lambda f: _raises(f, "Incompatible shapes"), "`*` multiplies entry by entry; the TF1 "
                                                  "program multiplies matrices (tf.matmul or @)."),
    (lambda f: _raises(f, "Matrix size-incompatible"), "Mind the order: x (rows × 3) times "
                                                       "w (3 × 2)."),
    (_forgot_bias, "The product is right; the bias b is missing."),
])


def check_ex2(affine):
    """Call the learner's affine(x, w, b) on fresh inputs; compare with x @ w + b."""
    ex2.check_function(affine, lambda x, w, b: tf.matmul(x, w) + b, _affine_cases())


def _expected_path():
    return tf.argmax.__module__.replace(".", "/") + ".py"


ex3 = Exercise("Exercise 3", [
    "Let minitf tell you: show_source(tf.argmax) prints the file in its first line.",
    "tf.argmax.__module__ names the module with dots; the path uses / and ends in .py.",
], mistakes=[
    (lambda a: a == "minitf/ops/math_ops.py", "That is the example from the exercise text; "
                                              "ask minitf where tf.argmax really lives."),
    (lambda a: a == tf.argmax.__module__, "That is the module's dotted name; write it as a "
                                          "path: / between the parts and .py at the end."),
    (lambda a: isinstance(a, str) and a.endswith("/" + _expected_path()),
     "Give the path from the top of the repository, starting with minitf/."),
])


def check_ex3(answer):
    """The file, relative to the repository, that defines tf.argmax."""
    ex3.check(answer, _expected_path(), show_expected=False)


EXERCISES = [ex1, ex2, ex3]
