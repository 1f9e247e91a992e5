"""Lesson 10's exercise checks: unattempted, typical wrong answers, right answers."""
import pytest

import minitf as tf
from widgets.exercises import NOT_ATTEMPTED
from widgets.lesson_checks import l10, reset


@pytest.fixture
def verdict(capsys):
    def run(check, answer):
        reset(l10.EXERCISES)
        assert check(answer) is None
        return capsys.readouterr().out
    return run


def todo(*args):
    ...


@pytest.mark.parametrize("check,answer", [(l10.check_ex1, ...), (l10.check_ex1, todo),
                                          (l10.check_ex2, ...), (l10.check_ex3, ...),
                                          (l10.check_ex3, todo)])
def test_unattempted(check, answer, verdict):
    assert verdict(check, answer) == NOT_ATTEMPTED + "\n"


def step_with(update):
    def descent_step(w, learning_rate):
        with tf.GradientTape() as tape:
            loss = w ** 4
        return update(w, learning_rate, tape.gradient(loss, w))
    return descent_step


def test_ex1_descent_step_on_fresh_variables(verdict):
    assert "✓" in verdict(l10.check_ex1, step_with(lambda w, lr, g: w.assign_sub(lr * g)))
    assert "uphill" in verdict(l10.check_ex1, step_with(lambda w, lr, g: w.assign_add(lr * g)))
    assert "w did not move" in verdict(l10.check_ex1, step_with(lambda w, lr, g: w - lr * g))
    assert "scale it by the learning rate" in verdict(
        l10.check_ex1, step_with(lambda w, lr, g: w.assign_sub(g)))
    assert "✗" in verdict(l10.check_ex1, lambda w, lr: w.assign(0.0))


def test_ex2_stability_limit(verdict):
    assert "✓" in verdict(l10.check_ex2, 0.2)
    assert "✓" in verdict(l10.check_ex2, tf.constant(0.2))
    out = verdict(l10.check_ex2, 0.1)
    assert "twice that" in out and "0.2" not in out
    assert "flat direction" in verdict(l10.check_ex2, 2.0)
    assert "curves by 10" in verdict(l10.check_ex2, 0.4)


def fit_with(first, second, transpose=True):
    def fit_line(x, y):
        X = tf.stack([first(x), second(x)], axis=1)
        Xt = tf.transpose(X) if transpose else X
        return tf.linalg.solve(Xt @ X, Xt @ y[:, tf.newaxis])[:, 0]
    return fit_line


def test_ex3_fit_line_on_fresh_points(verdict):
    assert "✓" in verdict(l10.check_ex3, fit_with(lambda x: x, tf.ones_like))
    assert "x first" in verdict(l10.check_ex3, fit_with(tf.ones_like, lambda x: x))
    out = verdict(l10.check_ex3, fit_with(lambda x: x, tf.ones_like, transpose=False))
    assert "use Xᵀ X" in out and "Traceback" not in out

    def column(x, y):
        X = tf.stack([x, tf.ones_like(x)], axis=1)
        return tf.linalg.solve(tf.transpose(X) @ X, tf.transpose(X) @ y[:, tf.newaxis])
    assert "shape (2,)" in verdict(l10.check_ex3, column)
    assert "✗" in verdict(l10.check_ex3, lambda x, y: tf.constant([1.98, 1.03]))
