"""Lesson 02's exercise checks: unattempted, typical wrong answers, right answers."""
import numpy as np
import pytest

import minitf as tf
from widgets.exercises import NOT_ATTEMPTED
from widgets.lesson_checks import l02, reset


@pytest.fixture
def verdict(capsys):
    def run(check, answer):
        reset(l02.EXERCISES)
        assert check(answer) is None
        return capsys.readouterr().out
    return run


@pytest.mark.parametrize("check", [l02.check_ex1, l02.check_ex2, l02.check_ex3])
def test_unattempted(check, verdict):
    assert verdict(check, ...) == NOT_ATTEMPTED + "\n"


def test_ex1_sevens(verdict):
    assert "✓" in verdict(l02.check_ex1, tf.fill([3, 4], 7))
    assert "✓" in verdict(l02.check_ex1, tf.constant(7, shape=[3, 4]))
    assert "a Python int (7) gives int32" in verdict(l02.check_ex1, tf.fill([3, 4], 7.0))
    assert "rows first" in verdict(l02.check_ex1, tf.fill([4, 3], 7))
    assert "a tensor is expected" in verdict(l02.check_ex1, np.full((3, 4), 7))


def test_ex2_cast(verdict):
    counts, rates = tf.constant([3, 1, 4]), tf.constant([0.5, 2.0, 0.25])
    assert "✓" in verdict(l02.check_ex2, tf.cast(counts, tf.float32) * rates)
    assert "Convert counts instead" in verdict(l02.check_ex2, counts * tf.cast(rates, tf.int32))
    assert "float32, the dtype of rates" in verdict(
        l02.check_ex2, tf.cast(counts, tf.float64) * tf.cast(rates, tf.float64))


def test_ex3_strides_accepts_tuple_list_and_array(verdict):
    for right in [(48, 24, 8), [48, 24, 8], np.array([48, 24, 8])]:
        assert "✓" in verdict(l02.check_ex3, right)
    out = verdict(l02.check_ex3, (6, 3, 1))
    assert "count elements" in out and "48" not in out
    assert "last axis" in verdict(l02.check_ex3, (8, 24, 48))
    assert "float32 strides" in verdict(l02.check_ex3, (24, 12, 4))
    assert "✗" in verdict(l02.check_ex3, "48, 24, 8")
