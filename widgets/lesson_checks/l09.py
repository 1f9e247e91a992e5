"""Lesson 09 (inside the tape): checks for the three exercises.

>>> check_ex3(lambda batch: tf.reduce_sum(batch, axis=0, keepdims=True))
✓ Exercise 3: correct.
"""
import numpy as np

import minitf as tf
from widgets.exercises import Exercise, same


def _tanh_second(x):
    t = tf.tanh(x)
    return -2.0 * t * (1.0 - t * t)


ex1 = Exercise("Exercise 1", [
    "The outer tape must watch the inner tape's work: where does the inner gradient have to "
    "be computed?",
    "Call inner.gradient(tf.tanh(x), x) inside the outer `with` block, then take "
    "outer.gradient of that result.",
], mistakes=[
    (lambda f: same(f(tf.Variable(0.3)), 1.0 - tf.tanh(0.3) ** 2), "That is the first "
                                                                   "derivative: differentiate "
                                                                   "it once more."),
    (lambda f: f(tf.Variable(0.3)) is None, "The outer tape returned None: it saw no "
                                            "computation from x, so the inner gradient was "
                                            "computed outside its `with` block."),
])


def check_ex1(second_derivative):
    """second_derivative(x) = d²tanh/dx² for variables the lesson never showed."""
    ex1.check_function(second_derivative, lambda x: _tanh_second(x.read_value()),
                       [tf.Variable(0.3), tf.Variable(-1.2), tf.Variable(2.0)])


def _layer_cases():
    rng = np.random.default_rng(909)
    return [(tf.constant(rng.normal(size=(2, 3)).astype(np.float32)),
             tf.constant(rng.normal(size=3).astype(np.float32))),
            (tf.constant(rng.normal(size=(4, 2)).astype(np.float32)),
             tf.constant(rng.normal(size=2).astype(np.float32)))]


def _jacobian(W, x):
    y = tf.tanh(tf.linalg.matvec(W, x))
    return (1.0 - y * y)[:, tf.newaxis] * W


ex2 = Exercise("Exercise 2", [
    "One row per output, one column per input: which tape method keeps the outputs apart?",
    "Watch x, record y = tf.tanh(tf.linalg.matvec(W, x)), then tape.jacobian(y, x).",
], mistakes=[
    (lambda f: same(f(*_layer_cases()[0]), _layer_cases()[0][0]), "That is W, the Jacobian of "
                                                                   "W x alone; tanh scales "
                                                                   "each row by its slope."),
    (lambda f: f(*_layer_cases()[0]).shape.rank == 1, "One vector: tape.gradient sums over "
                                                      "the outputs. The Jacobian keeps one "
                                                      "row per output."),
    (lambda f: f(*_layer_cases()[0]) is None, "The tape returned None: x is a constant, so it "
                                              "must be watched."),
])


def check_ex2(layer_jacobian):
    """layer_jacobian(W, x) = d tanh(W x) / dx on matrices the lesson never showed."""
    ex2.check_function(layer_jacobian, _jacobian, _layer_cases())


def _batches():
    return [tf.reshape(tf.range(8, dtype=tf.float32), [4, 2]) - 3.0,
            tf.constant(np.random.default_rng(99).normal(size=(3, 5)).astype(np.float32))]


ex3 = Exercise("Exercise 3", [
    "Each entry of scale multiplies a whole column of the batch. How many products does it "
    "take part in?",
    "The gradient has the shape of scale, (1, columns): add the batch up over the axis "
    "that broadcasting stretched, keeping it (keepdims=True).",
], mistakes=[
    (lambda f: f(_batches()[0]).shape.rank == 1, "The right numbers, but the gradient has the "
                                                 "shape of scale, (1, columns): keep the "
                                                 "summed axis."),
    (lambda f: same(f(_batches()[0]), _batches()[0]), "That is one gradient per product; "
                                                      "scale was broadcast over the rows, so "
                                                      "its gradient adds them up."),
    (lambda f: tuple(f(_batches()[0]).shape) == (4, 1), "That sums each row; each entry of "
                                                        "scale meets a column."),
])


def check_ex3(scale_gradient):
    """scale_gradient(batch) = d reduce_sum(batch * scale) / d scale, on unseen batches."""
    ex3.check_function(scale_gradient, _tape_gradient, _batches())


def _tape_gradient(batch):
    """The reference: the tape's gradient, for a scale of the batch's width."""
    scale = tf.Variable(tf.ones([1, batch.shape[1]]))
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(batch * scale)
    return tape.gradient(loss, scale)


EXERCISES = [ex1, ex2, ex3]
