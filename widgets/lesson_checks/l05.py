"""Lesson 05 (math): checks for the three exercises.

>>> check_ex1(...)
… Not attempted yet: replace the `...` with your answer and run the cell again.
"""
import numpy as np

import minitf as tf
from widgets.exercises import Exercise, outcome, same


def _sales():
    """The lesson's table: 3 shops (rows) × 4 days (columns)."""
    return tf.constant([[3.0, 1.0, 4.0, 1.0], [5.0, 9.0, 2.0, 6.0], [5.0, 3.0, 5.0, 8.0]])


ex1 = Exercise("Exercise 1", [
    "One number per day: which axis runs over the shops and has to be averaged away?",
    "tf.reduce_mean(sales, axis=...) removes the axis you name; the shops are axis 0.",
], mistakes=[
    (lambda a: same(a, tf.reduce_mean(_sales(), axis=1)), "That is a mean per shop: the axis "
                                                          "you name is the one that disappears."),
    (lambda a: same(a, tf.reduce_sum(_sales(), axis=0)), "Those are totals per day; the "
                                                         "average divides by the number of shops."),
    (lambda a: a.shape.rank == 0, "One number for the whole table: name the axis to average "
                                  "over."),
])


def check_ex1(answer):
    """The mean sales per day (one number per column)."""
    ex1.check(answer, tf.reduce_mean(_sales(), axis=0))


def _logits():
    return tf.constant([[0.2, 2.5, -1.0], [3.1, 0.0, 0.4], [-0.5, -0.2, -0.1], [1.0, 1.5, 4.0]])


ex2 = Exercise("Exercise 2", [
    "The predicted class is the position of the largest score in each row.",
    "tf.argmax(x, axis=...) gives positions; rows are examples, so look along axis 1.",
], mistakes=[
    (lambda a: same(a, tf.argmax(_logits(), axis=0)), "That is, for each class, the example "
                                                      "that scores highest: look along each row "
                                                      "instead."),
    (lambda a: same(a, tf.reduce_max(_logits(), axis=1)), "Those are the largest scores; the "
                                                          "class is where each one sits."),
])


def check_ex2(answer):
    """The predicted class of each example (int64 from tf.argmax; int32 accepted too)."""
    expected = tf.argmax(_logits(), axis=1)
    if getattr(answer, "dtype", None) == tf.int32:
        expected = tf.cast(expected, tf.int32)  # tf.argmax(..., output_type=tf.int32)
    ex2.check(answer, expected)


def _tables():
    """Tables the lesson never showed (not square, so rows and columns cannot be confused)."""
    rng = np.random.default_rng(505)
    return [tf.constant(rng.uniform(1, 9, size=shape).astype(np.float32))
            for shape in [(3, 4), (2, 5), (5, 2)]]


def _no_keepdims(function):
    got = outcome(function, _tables()[0])
    return isinstance(got, Exception) and "Incompatible shapes" in str(got)


ex3 = Exercise("Exercise 3", [
    "Each entry is divided by its own row's total: first get the totals, one per row.",
    "tf.reduce_sum(table, axis=1, keepdims=True) has shape (rows, 1), which broadcasts "
    "against (rows, columns).",
], mistakes=[
    (_no_keepdims, "The row totals have shape (rows,), which lines up with the columns, not "
                   "the rows: keep the summed axis with keepdims=True."),
    (lambda f: same(f(_tables()[0]), _tables()[0] / tf.reduce_sum(_tables()[0], axis=0)),
     "Now each column sums to 1: the totals should be per row."),
])


def check_ex3(normalize_rows):
    """normalize_rows(table) on tables the lesson never showed."""
    ex3.check_function(normalize_rows,
                       lambda t: t / tf.reduce_sum(t, axis=1, keepdims=True), _tables())


EXERCISES = [ex1, ex2, ex3]
