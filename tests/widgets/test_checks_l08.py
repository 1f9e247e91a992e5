"""Lesson 08's exercise checks: unattempted, typical wrong answers, right answers."""
import pytest

import minitf as tf
from widgets.exercises import NOT_ATTEMPTED
from widgets.lesson_checks import l08, reset


@pytest.fixture
def verdict(capsys):
    def run(check, answer):
        reset(l08.EXERCISES)
        assert check(answer) is None
        return capsys.readouterr().out
    return run


@pytest.mark.parametrize("check", [l08.check_ex1, l08.check_ex2, l08.check_ex3])
def test_unattempted(check, verdict):
    assert verdict(check, ...) == NOT_ATTEMPTED + "\n"


def test_ex1_watch(verdict):
    def watched(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = x * x * x
        return tape.gradient(y, x)

    def unwatched(x):
        with tf.GradientTape() as tape:
            y = x * x * x
        return tape.gradient(y, x)

    def no_return(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = x * x * x
        tape.gradient(y, x)

    assert "✓" in verdict(l08.check_ex1, watched)
    assert "tape.watch(x)" in verdict(l08.check_ex1, unwatched)
    assert "x³ itself" in verdict(l08.check_ex1, lambda x: x * x * x)
    assert "End the function with `return`" in verdict(l08.check_ex1, no_return)
    assert "✗" in verdict(l08.check_ex1, lambda x: tf.constant(12.0))


def gradients_of(reduce, inside=True):
    def mse_gradients(w, b, x_data, y_data):
        with tf.GradientTape() as tape:
            if inside:
                loss = reduce(tf.square(w * x_data + b - y_data))
        if not inside:
            loss = reduce(tf.square(w * x_data + b - y_data))
        return tape.gradient(loss, [w, b])
    return mse_gradients


def test_ex2_mse_gradients_on_unseen_data(verdict):
    assert "✓" in verdict(l08.check_ex2, gradients_of(tf.reduce_mean))
    assert "the mean divides" in verdict(l08.check_ex2, gradients_of(tf.reduce_sum))
    assert "inside the tape's `with` block" in verdict(
        l08.check_ex2, gradients_of(tf.reduce_mean, inside=False))
    assert "✗" in verdict(l08.check_ex2, lambda *a: [tf.constant(-28 / 3), tf.constant(-4.0)])


def test_ex3_persistent(verdict):
    def slopes(persistent):
        def two_slopes(x):
            with tf.GradientTape(persistent=persistent) as tape:
                square = x * x
                cube = square * x
            return [tape.gradient(square, x), tape.gradient(cube, x)]
        return two_slopes

    assert "✓" in verdict(l08.check_ex3, slopes(True))
    out = verdict(l08.check_ex3, slopes(False))
    assert "persistent=True" in out and "raised RuntimeError" in out
    assert "✗" in verdict(l08.check_ex3, lambda x: [tf.constant(6.0), tf.constant(27.0)])
