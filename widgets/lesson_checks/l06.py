"""Lesson 06 (broadcasting): checks for the three exercises.

>>> check_ex1([5, 3, 4])
✓ Exercise 1: correct.
"""
import numpy as np

import minitf as tf
from widgets.exercises import Exercise, outcome, same

ex1 = Exercise("Exercise 1", [
    "Line the shapes up from the right, padding the shorter one with 1s; then compare axis by "
    "axis.",
    "(3, 1) becomes (1, 3, 1). On each axis the sizes must be equal, or one of them 1, and the "
    "result takes the larger.",
], mistakes=[
    (lambda a: same(a, tf.TensorShape([5, 1, 4])), "An axis of size 1 stretches to the other "
                                                   "size; it does not win."),
    (lambda a: same(a, tf.TensorShape([3, 5, 4])) or same(a, tf.TensorShape([5, 3, 1])),
     "Shapes line up from the right: the last axes meet first."),
    (lambda a: isinstance(a, str), "These shapes do broadcast: give the result's shape as a "
                                   "tuple."),
])


def check_ex1(answer):
    """The predicted shape of tf.zeros([5, 1, 4]) + tf.zeros([3, 1]) (tuple, list or
    TensorShape)."""
    expected = (tf.zeros([5, 1, 4]) + tf.zeros([3, 1])).shape
    ex1.check(answer, expected, show_expected=False)


def _fresh(shape, seed):
    rng = np.random.default_rng(seed)
    return tf.constant(rng.uniform(-5, 5, size=shape).astype(np.float32))


def _datas():
    return [_fresh((4, 3), 61), _fresh((2, 5), 62)]


def _row_means(function):
    got = outcome(function, _datas()[0])
    data = _datas()[0]
    return (isinstance(got, Exception) and "Incompatible shapes" in str(got)) or same(
        got, data - tf.reduce_mean(data, axis=1, keepdims=True))


ex2 = Exercise("Exercise 2", [
    "First the column means, one number per column; then one subtraction that broadcasts.",
    "tf.reduce_mean(data, axis=0) has shape (columns,), which lines up with the last axis of "
    "data.",
], mistakes=[
    (_row_means, "axis=1 averages each row; each column needs its own mean."),
    (lambda f: same(f(_datas()[0]), _datas()[0] - tf.reduce_mean(_datas()[0])),
     "That subtracts one mean of the whole table; each column needs its own."),
])


def check_ex2(centre_columns):
    """centre_columns(data) on tables the lesson never showed."""
    ex2.check_function(centre_columns, lambda d: d - tf.reduce_mean(d, axis=0), _datas())


def _pairs():
    return [(_fresh((4,), 63), _fresh((3,), 64)), (_fresh((2,), 65), _fresh((5,), 66))]


def _no_new_axis(function):
    got = outcome(function, *_pairs()[0])
    return isinstance(got, Exception) and "Incompatible shapes" in str(got)


def _transposed(function):
    points, centres = _pairs()[0]
    return tuple(function(points, centres).shape) == (3, 4)


def _no_abs(function):
    points, centres = _pairs()[0]
    return same(function(points, centres), points[:, tf.newaxis] - centres)


ex3 = Exercise("Exercise 3", [
    "A (points, centres) table from two vectors: one of them has to become a column.",
    "points[:, tf.newaxis] has shape (points, 1); (points, 1) - (centres,) broadcasts to "
    "(points, centres).",
], mistakes=[
    (_no_new_axis, "Two vectors of different lengths do not line up: give points an axis of "
                   "size 1."),
    (_transposed, "One row per centre: that is the transpose. Rows are points."),
    (_no_abs, "Some distances are negative: a distance is |points[i] - centres[j]|."),
])


def check_ex3(distances):
    """distances(points, centres) on vectors the lesson never showed."""
    ex3.check_function(distances, lambda p, c: tf.abs(p[:, tf.newaxis] - c), _pairs())


EXERCISES = [ex1, ex2, ex3]
