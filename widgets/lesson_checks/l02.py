"""Lesson 02 (tensors): checks for the three exercises.

>>> import minitf as tf
>>> check_ex1(tf.fill([3, 4], 7))
✓ Exercise 1: correct.
"""
import minitf as tf
from widgets.exercises import Exercise, as_tuple, same

ex1 = Exercise("Exercise 1", [
    "tf.fill makes a tensor holding one value everywhere; which of its arguments is the shape?",
    "tf.fill(dims, value): dims lists rows then columns, and a Python int value gives int32.",
], mistakes=[
    (lambda a: a.dtype == tf.float32, "7.0 is a float, so the tensor is float32; a Python int "
                                      "(7) gives int32."),
    (lambda a: tuple(a.shape) == (4, 3), "That is 4 rows of 3; the shape lists rows first."),
])


def check_ex1(answer):
    """A 3×4 int32 tensor of sevens."""
    ex1.check(answer, tf.fill([3, 4], 7))


def _counts_rates():
    return tf.constant([3, 1, 4]), tf.constant([0.5, 2.0, 0.25])


ex2 = Exercise("Exercise 2", [
    "counts * rates fails on its own: TensorFlow never converts a dtype for you. Which of the "
    "two has to change, so that no fraction is lost?",
    "Convert counts to float32 with tf.cast before multiplying.",
], mistakes=[
    (lambda a: a.dtype.is_integer, "The result is whole numbers: converting rates to integers "
                                   "drops their fractions. Convert counts instead."),
    (lambda a: a.dtype == tf.float64, "float64 is twice the memory; the exercise asks for "
                                      "float32, the dtype of rates."),
])


def check_ex2(answer):
    """counts * rates as float32."""
    counts, rates = _counts_rates()
    ex2.check(answer, tf.cast(counts, tf.float32) * rates)


ex3 = Exercise("Exercise 3", [
    "A stride is how many bytes you move in memory to reach the next element along an axis.",
    "float64 takes 8 bytes. A step along the last axis moves one element; along the middle "
    "axis a whole row of 3; along the first axis a whole 2×3 block.",
], mistakes=[
    (lambda a: same(a, (6, 3, 1)), "Those count elements; strides count bytes."),
    (lambda a: same(a, (8, 24, 48)), "Row-major memory: the last axis is the one whose elements "
                                     "sit next to each other."),
    (lambda a: same(a, (24, 12, 4)), "Those are float32 strides; float64 takes 8 bytes."),
])


def check_ex3(answer):
    """The byte strides of a float64 tensor of shape (5, 2, 3), predicted."""
    strides = tf.zeros([5, 2, 3], tf.float64).numpy().strides
    ex3.check(as_tuple(answer), strides,
              show_expected=False)


EXERCISES = [ex1, ex2, ex3]
