"""Lesson 06's exercise checks: unattempted, typical wrong answers, right answers."""
import numpy as np
import pytest

import minitf as tf
from widgets.exercises import NOT_ATTEMPTED
from widgets.lesson_checks import l06, reset


@pytest.fixture
def verdict(capsys):
    def run(check, answer):
        reset(l06.EXERCISES)
        assert check(answer) is None
        return capsys.readouterr().out
    return run


@pytest.mark.parametrize("check", [l06.check_ex1, l06.check_ex2, l06.check_ex3])
def test_unattempted(check, verdict):
    assert verdict(check, ...) == NOT_ATTEMPTED + "\n"


def test_ex1_every_form_of_the_shape_is_accepted(verdict):
    for right in [(5, 3, 4), [5, 3, 4], tf.TensorShape([5, 3, 4]), np.array([5, 3, 4])]:
        assert "✓" in verdict(l06.check_ex1, right)
    out = verdict(l06.check_ex1, (5, 1, 4))
    assert "stretches" in out and "(5, 3, 4)" not in out
    assert "from the right" in verdict(l06.check_ex1, (3, 5, 4))
    assert "do broadcast" in verdict(l06.check_ex1, "error")


def test_ex2_centre_columns(verdict):
    assert "✓" in verdict(l06.check_ex2, lambda d: d - tf.reduce_mean(d, axis=0))
    assert "✓" in verdict(l06.check_ex2,
                          lambda d: d - tf.reduce_mean(d, axis=0, keepdims=True))
    for rows in (lambda d: d - tf.reduce_mean(d, axis=1),
                 lambda d: d - tf.reduce_mean(d, axis=1, keepdims=True)):
        assert "each column needs its own mean" in verdict(l06.check_ex2, rows)
    assert "whole table" in verdict(l06.check_ex2, lambda d: d - tf.reduce_mean(d))


def test_ex3_distances(verdict):
    assert "✓" in verdict(l06.check_ex3, lambda p, c: tf.abs(p[:, tf.newaxis] - c))
    assert "✓" in verdict(l06.check_ex3, lambda p, c: tf.abs(tf.expand_dims(p, 1) - c))
    out = verdict(l06.check_ex3, lambda p, c: tf.abs(p - c))
    assert "axis of size 1" in out and "Traceback" not in out
    assert "transpose" in verdict(l06.check_ex3, lambda p, c: tf.abs(c[:, tf.newaxis] - p))
    assert "negative" in verdict(l06.check_ex3, lambda p, c: p[:, tf.newaxis] - c)
