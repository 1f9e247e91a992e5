"""Lesson 09's exercise checks: unattempted, typical wrong answers, right answers."""
import pytest

import minitf as tf
from widgets.exercises import NOT_ATTEMPTED
from widgets.lesson_checks import l09, reset


@pytest.fixture
def verdict(capsys):
    def run(check, answer):
        reset(l09.EXERCISES)
        assert check(answer) is None
        return capsys.readouterr().out
    return run


@pytest.mark.parametrize("check", [l09.check_ex1, l09.check_ex2, l09.check_ex3])
def test_unattempted(check, verdict):
    assert verdict(check, ...) == NOT_ATTEMPTED + "\n"


def test_ex1_nested_tapes(verdict):
    def nested(x):
        with tf.GradientTape() as outer:
            with tf.GradientTape() as inner:
                y = tf.tanh(x)
            dy = inner.gradient(y, x)
        return outer.gradient(dy, x)

    def inner_outside(x):
        with tf.GradientTape() as outer:
            with tf.GradientTape() as inner:
                y = tf.tanh(x)
        dy = inner.gradient(y, x)
        return outer.gradient(dy, x)

    def first_only(x):
        with tf.GradientTape() as tape:
            y = tf.tanh(x)
        return tape.gradient(y, x)

    assert "✓" in verdict(l09.check_ex1, nested)
    assert "outside its `with` block" in verdict(l09.check_ex1, inner_outside)
    assert "first derivative" in verdict(l09.check_ex1, first_only)


def jacobian_by(method, watch=True):
    def layer_jacobian(W, x):
        with tf.GradientTape() as tape:
            if watch:
                tape.watch(x)
            y = tf.tanh(tf.linalg.matvec(W, x))
        return getattr(tape, method)(y, x)
    return layer_jacobian


def test_ex2_layer_jacobian(verdict):
    assert "✓" in verdict(l09.check_ex2, jacobian_by("jacobian"))
    assert "tape.gradient sums over" in verdict(l09.check_ex2, jacobian_by("gradient"))
    assert "tanh scales each row" in verdict(l09.check_ex2, lambda W, x: W)
    assert "must be watched" in verdict(l09.check_ex2, jacobian_by("jacobian", watch=False))


def test_ex3_gradient_through_broadcasting(verdict):
    assert "✓" in verdict(l09.check_ex3, lambda b: tf.reduce_sum(b, axis=0, keepdims=True))
    assert "keep the summed axis" in verdict(l09.check_ex3, lambda b: tf.reduce_sum(b, axis=0))
    assert "adds them up" in verdict(l09.check_ex3, lambda b: b)
    assert "each entry of scale meets a column" in verdict(
        l09.check_ex3, lambda b: tf.reduce_sum(b, axis=1, keepdims=True))
