"""Lesson 20's exercise checks: unattempted, typical wrong answers, right answers."""
import numpy as np
import pytest

import minitf as tf
from widgets.exercises import NOT_ATTEMPTED
from widgets.lesson_checks import l20, reset


@pytest.fixture
def verdict(capsys):
    def run(check, *answer):
        reset(l20.EXERCISES)
        assert check(*answer) is None
        return capsys.readouterr().out
    return run


def test_unattempted(verdict):
    def derivative(f, x):
        ...

    def dead_fraction(layer, inputs):
        ...

    assert verdict(l20.check_ex1, ...) == NOT_ATTEMPTED + "\n"
    assert verdict(l20.check_ex1, derivative) == NOT_ATTEMPTED + "\n"
    assert verdict(l20.check_ex2, ...) == NOT_ATTEMPTED + "\n"
    assert verdict(l20.check_ex2, dead_fraction) == NOT_ATTEMPTED + "\n"
    assert verdict(l20.check_ex3, ..., ..., ...) == NOT_ATTEMPTED + "\n"
    assert verdict(l20.check_ex3, "linear", ..., "softmax") == NOT_ATTEMPTED + "\n"


# --- exercise 1 ----------------------------------------------------------------------------

def derivative(f, x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return tape.gradient(y, x)


def derivative_of_the_sum(f, x):
    with tf.GradientTape() as tape:
        tape.watch(x)
        total = tf.reduce_sum(f(x))
    return tape.gradient(total, x)


def derivative_via_variable(f, x):
    v = tf.Variable(x)
    with tf.GradientTape() as tape:
        y = f(v)
    return tape.gradient(y, v)


@pytest.mark.parametrize("function", [derivative, derivative_of_the_sum,
                                      derivative_via_variable])
def test_ex1_right_forms(function, verdict):
    assert "✓" in verdict(l20.check_ex1, function)


def test_ex1_forgot_watch(verdict):
    def unwatched(f, x):
        with tf.GradientTape() as tape:
            y = f(x)
        return tape.gradient(y, x)

    out = verdict(l20.check_ex1, unwatched)
    assert out.startswith("✗") and "tape.watch(x)" in out


def test_ex1_values_instead_of_derivative(verdict):
    def values(f, x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = f(x)
        return y

    out = verdict(l20.check_ex1, values)
    assert "values f(x)" in out and "Return tape.gradient" in out


def test_ex1_hard_coded_and_wrong_derivatives_fail(verdict):
    assert verdict(l20.check_ex1, lambda f, x: tf.nn.sigmoid(x)).startswith("✗")  # softplus'
    assert verdict(l20.check_ex1, lambda f, x: tf.ones_like(x)).startswith("✗")
    assert "raised" in verdict(l20.check_ex1, lambda f, x: 1 / 0)
    assert "not a tensor" in verdict(l20.check_ex1, lambda f, x: [1.0])


# --- exercise 2 ----------------------------------------------------------------------------

def dead_fraction(layer, inputs):
    dead = tf.reduce_all(layer(inputs) == 0, axis=0)
    return float(tf.reduce_mean(tf.cast(dead, tf.float32)))


def dead_fraction_as_tensor(layer, inputs):
    alive = tf.reduce_any(layer(inputs) > 0, axis=0)
    return 1.0 - tf.reduce_mean(tf.cast(alive, tf.float32))


@pytest.mark.parametrize("function", [dead_fraction, dead_fraction_as_tensor])
def test_ex2_right_forms(function, verdict):
    assert "✓" in verdict(l20.check_ex2, function)


@pytest.mark.parametrize("function,hint", [
    (lambda layer, x: float(tf.reduce_mean(tf.cast(layer(x) == 0, tf.float32))),
     "fraction of zero outputs"),
    (lambda layer, x: float(tf.reduce_sum(tf.cast(tf.reduce_all(layer(x) == 0, axis=0),
                                                  tf.float32))), "divide by the number"),
    (lambda layer, x: float(tf.reduce_mean(tf.cast(tf.reduce_all(layer(x) == 0, axis=1),
                                                   tf.float32))), "reduce over axis 0"),
    (lambda layer, x: 0.5, "which is not right"),  # a hard-coded fraction
    (lambda layer, x: "half", "not a number"),
])
def test_ex2_mistakes(function, hint, verdict):
    out = verdict(l20.check_ex2, function)
    assert out.startswith("✗") and hint in out, out


def test_ex2_cases_have_dead_and_live_units():
    fractions = [l20._dead(layer, x) for layer, x in l20._ex2_cases()]
    assert any(0 < f < 1 for f in fractions) and len(set(fractions)) == len(fractions)


# --- exercise 3 ----------------------------------------------------------------------------

@pytest.mark.parametrize("price", ["linear", None, "Linear", tf.keras.activations.linear])
def test_ex3_right_forms(price, verdict):
    assert "✓" in verdict(l20.check_ex3, price, "sigmoid", tf.keras.activations.softmax)


@pytest.mark.parametrize("answers,hint", [
    (("linear", "softmax", "softmax"), "tags compete"),
    (("linear", "sigmoid", "sigmoid"), "exactly one digit"),
    (("relu", "sigmoid", "softmax"), "regression output usually has none"),
    (("linear", "tanh", "softmax"), "what one output number means"),  # the ladder
])
def test_ex3_mistakes(answers, hint, verdict):
    out = verdict(l20.check_ex3, *answers)
    assert out.startswith("✗") and hint in out, out
    verdict_line = out.splitlines()[0]  # names what is wrong, never the right activation
    assert not any(word in verdict_line for word in ("linear", "sigmoid", "softmax"))


def test_ex3_odd_answers(verdict):
    assert verdict(l20.check_ex3, 3, np.zeros(2), object()).startswith("✗")
