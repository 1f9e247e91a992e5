"""Lesson 11 (the optimizer zoo): checks for the three exercises.

>>> check_ex1(-0.05)
✓ Exercise 1: correct.
"""
import numpy as np

import minitf as tf
from widgets.exercises import Exercise, same
from widgets.surfaces import get_surface

K = tf.keras.optimizers


def _momentum_after_two_steps():
    w = tf.Variable(0.0, name="w")
    opt = K.SGD(learning_rate=0.1, momentum=0.5)
    for gradient in [2.0, -0.5]:
        opt.apply_gradients([(tf.constant(gradient), w)])
    return float(_slot(opt, "momentum").numpy())


def _slot(optimizer, name):
    """The optimizer's state variable for the one model variable, found by its name, as in
    Keras 3 (which has no get_slot): "w_0_momentum", "Variable_0_accumulator", ..."""
    return next(v for v in optimizer.variables if v.name.split(":")[0].endswith("_" + name))


ex1 = Exercise("Exercise 1", [
    "Write the slot's rule down and apply it twice, starting from a slot of 0.",
    "Keras' SGD keeps m = momentum · m - learning_rate · g, and then adds m to the variable.",
], mistakes=[
    (lambda a: np.isclose(float(a), -0.2), "That is the slot after the first step; the second "
                                           "gradient updates it again."),
    (lambda a: np.isclose(float(a), 0.05), "Mind the sign: Keras' slot holds the step itself, "
                                           "m = momentum · m - learning_rate · g."),
    (lambda a: np.isclose(float(a), -0.15), "The old slot is multiplied by the momentum, 0.5, "
                                            "before the new gradient is added."),
])


def check_ex1(answer):
    """The predicted "momentum" slot after gradients 2.0 and -0.5."""
    ex1.check(answer, _momentum_after_two_steps(), show_expected=False)


def _keras_adagrad(w, accumulator, g, learning_rate):
    variable = tf.Variable(w)
    opt = K.Adagrad(learning_rate=learning_rate)
    opt.build([variable])
    _slot(opt, "accumulator").assign(accumulator)
    opt.apply_gradients([(g, variable)])
    return tf.identity(variable), tf.identity(_slot(opt, "accumulator"))


def _adagrad_cases():
    rng = np.random.default_rng(1111)
    cases = []
    for n, lr in [(3, 0.05), (1, 0.5)]:
        w = tf.constant(rng.normal(size=n).astype(np.float32))
        acc = tf.constant(rng.uniform(0.05, 2.0, n).astype(np.float32))
        g = tf.constant(rng.normal(size=n).astype(np.float32))
        cases.append((w, acc, g, lr))
    return cases


def _old_accumulator(step):
    w, acc, g, lr = _adagrad_cases()[0]
    got = step(w, acc, g, lr)
    return same(got[0], w - lr * g / tf.sqrt(acc + 1e-7), rtol=1e-4)


ex2 = Exercise("Exercise 2", [
    "Adagrad keeps a running sum of squared gradients and divides each step by its square "
    "root. Which comes first: adding g², or dividing?",
    "new_accumulator = accumulator + g²; the step is learning_rate · g / sqrt(new_accumulator "
    "+ ε), subtracted from w. Return both, as a pair.",
], mistakes=[
    (_old_accumulator, "The step divides by the old accumulator; Keras adds g² first and "
                       "divides by the new one."),
    (lambda step: not isinstance(step(*_adagrad_cases()[0]), (tuple, list)),
     "Return a pair: (new_w, new_accumulator)."),
])


def check_ex2(adagrad_step):
    """adagrad_step(w, accumulator, g, learning_rate), compared with Keras' Adagrad on
    inputs the lesson never showed."""
    ex2.check_function(adagrad_step, _keras_adagrad, _adagrad_cases(), rtol=1e-4, atol=1e-6)


def _adam_step():
    rosenbrock = get_surface("rosenbrock")
    point = tf.Variable(rosenbrock.start)
    with tf.GradientTape() as tape:
        loss = rosenbrock(point)
    gradient = tape.gradient(loss, point)
    K.Adam(learning_rate=0.1).apply_gradients([(gradient, point)])
    return tf.identity(point), tf.constant(rosenbrock.start), gradient


def _sgd_like(answer):
    _, start, gradient = _adam_step()
    return same(answer, start - 0.1 * gradient)


def _uphill(answer):
    _, start, gradient = _adam_step()
    return same(answer, start + 0.1 * tf.sign(gradient), atol=1e-5)


def _uncorrected(answer):
    _, start, gradient = _adam_step()
    return same(answer, start - 0.1 * (1 - 0.9) / np.sqrt(1 - 0.999) * tf.sign(gradient),
                atol=1e-3)


ex3 = Exercise("Exercise 3", [
    "After one step Adam's m and v each hold a single gradient. What is m / sqrt(v) then, "
    "after bias correction?",
    "Bias-corrected, m / sqrt(v) is g / |g|: each coordinate moves by the learning rate, "
    "against the sign of its gradient.",
], mistakes=[
    (_sgd_like, "That is a plain gradient step, far too big: Adam divides by sqrt(v)."),
    (_uphill, "Each coordinate moves by the learning rate, but against the gradient."),
    (_uncorrected, "Without bias correction m and v are too small after one step; Adam "
                   "divides m by (1 - β1) and v by (1 - β2)."),
])


def check_ex3(answer):
    """The predicted point after one Adam(0.1) step from the Rosenbrock start."""
    if isinstance(answer, (list, tuple, np.ndarray)):
        answer = tf.constant(np.asarray(answer, np.float32))  # every form of the two numbers
    ex3.check(answer, _adam_step()[0], atol=1e-5, show_expected=False)


EXERCISES = [ex1, ex2, ex3]
