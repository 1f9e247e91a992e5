"""Lesson 08 (GradientTape): checks for the three exercises.

>>> import minitf as tf
>>> def cube_slope(x):
...     with tf.GradientTape() as tape:
...         tape.watch(x)
...         y = x * x * x
...     return tape.gradient(y, x)
>>> check_ex1(cube_slope)
✓ Exercise 1: correct.
"""
import numpy as np

import minitf as tf
from widgets.exercises import Exercise, outcome, same


def _constants():
    return [tf.constant(-1.5), tf.constant(0.5), tf.constant(3.0)]


ex1 = Exercise("Exercise 1", [
    "A tape records what it watches. Does it watch a constant on its own?",
    "Call tape.watch(x) inside the `with` block, before computing x³; then tape.gradient(y, x).",
], mistakes=[
    (lambda f: f(tf.constant(2.0)) is None, "The tape returned None: it only records "
                                            "constants it was told to watch (tape.watch(x))."),
    (lambda f: same(f(tf.constant(2.0)), tf.constant(8.0)), "That is x³ itself; the exercise "
                                                            "asks for its slope."),
])


def check_ex1(cube_slope):
    """cube_slope(x) = d(x³)/dx for constants the lesson never showed."""
    ex1.check_function(cube_slope, lambda x: 3.0 * x * x, _constants())


def _mse_cases():
    rng = np.random.default_rng(808)
    cases = []
    for n in (4, 6):
        x = tf.constant(rng.uniform(-2, 2, n).astype(np.float32))
        y = tf.constant(rng.uniform(-2, 2, n).astype(np.float32))
        cases.append((tf.Variable(float(rng.normal())), tf.Variable(float(rng.normal())), x, y))
    return cases


def _mse_reference(w, b, x_data, y_data):
    error = w * x_data + b - y_data
    n = float(x_data.shape[0])
    return [tf.reduce_sum(2.0 * error * x_data) / n, tf.reduce_sum(2.0 * error) / n]


def _summed(function):
    w, b, x, y = _mse_cases()[0]
    got, want = function(w, b, x, y), _mse_reference(w, b, x, y)
    return same(list(got), [g * float(x.shape[0]) for g in want])


def _has_none(function):
    return any(g is None for g in function(*_mse_cases()[0]))


ex2 = Exercise("Exercise 2", [
    "Compute the loss under the tape, then ask the tape for the gradient with respect to "
    "both variables at once.",
    "loss = tf.reduce_mean(tf.square(w * x_data + b - y_data)) inside the `with`; "
    "tape.gradient(loss, [w, b]) gives the list.",
], mistakes=[
    (_has_none, "A gradient is None: the loss must be computed inside the tape's `with` block, "
                "from the variables themselves."),
    (_summed, "Those are the gradients of the summed error; the mean divides by the number "
              "of points."),
])


def check_ex2(mse_gradients):
    """mse_gradients(w, b, x_data, y_data) -> [dloss/dw, dloss/db] on unseen data."""
    ex2.check_function(mse_gradients, _mse_reference, _mse_cases(), rtol=1e-4, atol=1e-5)


def _used_twice(function):
    got = outcome(function, tf.Variable(2.0))
    return isinstance(got, RuntimeError) and "persistent" in str(got)


ex3 = Exercise("Exercise 3", [
    "A tape forgets its records after one gradient call, unless you ask it to keep them.",
    "tf.GradientTape(persistent=True) can be asked for gradients more than once.",
], mistakes=[
    (_used_twice, "A tape gives gradients once; the second call raised. Keep its records with "
                  "tf.GradientTape(persistent=True)."),
])


def check_ex3(two_slopes):
    """two_slopes(x) -> [d(x²)/dx, d(x³)/dx] for variables the lesson never showed."""
    ex3.check_function(two_slopes, lambda x: [2.0 * x.read_value(), 3.0 * x * x],
                       [tf.Variable(-2.0), tf.Variable(0.5)])


EXERCISES = [ex1, ex2, ex3]
