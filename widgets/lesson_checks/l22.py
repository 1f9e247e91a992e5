"""Lesson 22 (convolution and pooling): checks for the three exercises.

>>> check_ex1(...)
… Not attempted yet: replace the `...` with your answer and run the cell again.
>>> check_ex1((None, 6, 6, 16))
✓ Exercise 1: correct.
"""
import numpy as np

import minitf as tf
from widgets.exercises import NOT_ATTEMPTED, Exercise, as_tuple, unattempted


def _exercise_shape():
    """The output shape of exercise 1's model, from Keras itself."""
    model = tf.keras.Sequential([
        tf.keras.Input(shape=(28, 28, 3)),
        tf.keras.layers.Conv2D(8, 5),
        tf.keras.layers.MaxPooling2D(2),
        tf.keras.layers.Conv2D(16, 3, strides=2, padding="same"),
    ])
    return tuple(model.output_shape)


def _shape(answer):
    """The answer as a tuple with the batch axis (None) in front, or None."""
    shape = as_tuple(answer)
    if not isinstance(shape, tuple):
        return None
    return (None,) + shape if len(shape) == 3 else shape


def _spatial(answer):
    shape = _shape(answer)
    return shape[1:3] if shape is not None and len(shape) == 4 else None


ex1 = Exercise("Exercise 1", [
    "Follow the height (or width) through the three layers, one at a time. Which layers "
    "pad, which stride?",
    "valid: ceil((n - k + 1) / s); same: ceil(n / s); MaxPooling2D(2): n // 2. The channels "
    "are the last convolution's filters.",
], mistakes=[
    (lambda a: _spatial(a) == (7, 7), "The first Conv2D has the default padding, 'valid': "
                                      "the 5x5 kernel fits 28 - 5 + 1 times."),
    (lambda a: _spatial(a) == (5, 5), "The last Conv2D pads ('same'): with stride 2 it gives "
                                      "ceil(n / 2)."),
    (lambda a: _spatial(a) == (12, 12), "Do not forget MaxPooling2D(2): it halves height and "
                                        "width."),
    (lambda a: _spatial(a) == (6, 6), "Height and width are right; the channels are the "
                                      "number of filters of the last layer."),
    (lambda a: _shape(a) is not None and len(_shape(a)) != 4,
     "A Conv2D output has four axes: (batch, height, width, channels)."),
])


def check_ex1(answer):
    """The predicted output shape: a tuple, list or TensorShape, with or without the
    batch axis."""
    if unattempted(answer):
        print(NOT_ATTEMPTED)
        return
    shape = _shape(answer)
    if shape is None:
        ex1.verdict(answer, f"The answer is a {type(answer).__name__}, but a shape is expected "
                            "(a tuple, a list or a TensorShape).")
        return
    ex1.check(shape, _exercise_shape(), show_expected=False)


def _separable_count(kernel_size, in_channels, filters):
    layer = tf.keras.layers.SeparableConv2D(filters, kernel_size)
    layer.build((None, 2 * kernel_size + 3, 2 * kernel_size + 3, in_channels))
    return layer.count_params()


SEPARABLE_CASES = [(3, 5, 7), (5, 2, 9), (1, 4, 3), (3, 16, 32)]


def _agrees(function, formula):
    """True when `function` matches `formula` on every case (never raises)."""
    try:
        return all(int(function(*case)) == formula(*case) for case in SEPARABLE_CASES)
    except Exception:  # noqa: BLE001 - an answer that cannot be compared does not match
        return False


ex2 = Exercise("Exercise 2", [
    "Two kernels and one bias vector: list each weight's shape, then multiply out.",
    "depthwise (k, k, c_in, 1), pointwise (1, 1, c_in, filters), bias (filters,).",
], mistakes=[
    (lambda f: _agrees(f, lambda k, c, n: k * k * c * n + n),
     "That is a plain Conv2D's count. A separable layer has a k x k filter per input channel, "
     "then a 1 x 1 mix of channels."),
    (lambda f: _agrees(f, lambda k, c, n: k * k * c + c * n),
     "Add the bias: one per filter."),
    (lambda f: _agrees(f, lambda k, c, n: k * k * c + c + c * n + n),
     "SeparableConv2D has a single bias, after the pointwise step; the depthwise step has "
     "none."),
    (lambda f: _agrees(f, lambda k, c, n: k * c + c * n + n),
     "The window is kernel_size x kernel_size: k squared weights per channel."),
])


def check_ex2(function):
    """separable_params(k, c_in, filters) against count_params() of real layers, on cases
    the lesson never showed."""
    if unattempted(function):
        print(NOT_ATTEMPTED)
        return
    ex2.check_function(function, _separable_count, SEPARABLE_CASES)


TRANSPOSE_CASES = [(4, 3, 2, "valid"), (5, 5, 3, "valid"), (3, 4, 2, "valid"),
                   (4, 3, 2, "same"), (6, 2, 3, "same"), (7, 3, 1, "valid"), (3, 1, 1, "same"), (4, 1, 2, "valid")]


def _transpose_length(n, kernel_size, strides, padding):
    layer = tf.keras.layers.Conv2DTranspose(1, kernel_size, strides=strides, padding=padding)
    return int(layer(tf.zeros([1, n, n, 1])).shape[1])


def _transpose_agrees(function, formula):
    try:
        return all(int(function(*case)) == formula(*case) for case in TRANSPOSE_CASES)
    except Exception:  # noqa: BLE001
        return False


def _forward(n, k, s, padding):
    return -(-(n - k + 1) // s) if padding == "valid" else -(-n // s)


ex3 = Exercise("Exercise 3", [
    "A transposed convolution grows the input: each input pixel stamps the kernel onto the "
    "output, strides pixels apart. How long is the row of stamps?",
    "'same': n * strides. 'valid': n * strides, plus what the last stamp sticks out: "
    "max(kernel_size - strides, 0).",
], mistakes=[
    (lambda f: _transpose_agrees(f, _forward),
     "That is the forward convolution's formula, which shrinks; the transpose grows."),
    (lambda f: _transpose_agrees(f, lambda n, k, s, p: n * s),
     "Right for 'same'; with 'valid' the last stamp sticks out by max(k - s, 0)."),
    (lambda f: _transpose_agrees(f, lambda n, k, s, p: n * s + max(k - s, 0)),
     "Right for 'valid'; 'same' padding trims the output to exactly n * strides."),
    (lambda f: _transpose_agrees(f, lambda n, k, s, p: (n - 1) * s + k if p == "valid"
                                 else n * s),
     "Almost: (n - 1) * strides + kernel_size is right while the kernel is at least the "
     "stride. Keras writes n * strides + max(kernel_size - strides, 0), which also covers "
     "a kernel smaller than the stride."),
])


def check_ex3(function):
    """transpose_length(n, k, s, padding) against Conv2DTranspose, on cases the lesson never
    showed (kernel sizes at least the stride, and one below)."""
    if unattempted(function):
        print(NOT_ATTEMPTED)
        return
    ex3.check_function(function, _transpose_length, TRANSPOSE_CASES)


EXERCISES = [ex1, ex2, ex3]
