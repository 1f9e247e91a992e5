"""Lesson 05's exercise checks: unattempted, typical wrong answers, right answers."""
import pytest

import minitf as tf
from widgets.exercises import NOT_ATTEMPTED
from widgets.lesson_checks import l05, reset

SALES = tf.constant([[3.0, 1.0, 4.0, 1.0], [5.0, 9.0, 2.0, 6.0], [5.0, 3.0, 5.0, 8.0]])
LOGITS = tf.constant([[0.2, 2.5, -1.0], [3.1, 0.0, 0.4], [-0.5, -0.2, -0.1], [1.0, 1.5, 4.0]])


@pytest.fixture
def verdict(capsys):
    def run(check, answer):
        reset(l05.EXERCISES)
        assert check(answer) is None
        return capsys.readouterr().out
    return run


@pytest.mark.parametrize("check", [l05.check_ex1, l05.check_ex2, l05.check_ex3])
def test_unattempted(check, verdict):
    assert verdict(check, ...) == NOT_ATTEMPTED + "\n"


def test_ex1_mean_per_day(verdict):
    assert "✓" in verdict(l05.check_ex1, tf.reduce_mean(SALES, axis=0))
    assert "mean per shop" in verdict(l05.check_ex1, tf.reduce_mean(SALES, axis=1))
    assert "totals per day" in verdict(l05.check_ex1, tf.reduce_sum(SALES, axis=0))
    assert "whole table" in verdict(l05.check_ex1, tf.reduce_mean(SALES))


def test_ex2_argmax_accepts_int64_and_int32(verdict):
    assert "✓" in verdict(l05.check_ex2, tf.argmax(LOGITS, axis=1))
    assert "✓" in verdict(l05.check_ex2, tf.argmax(LOGITS, axis=1, output_type=tf.int32))
    assert "look along each row" in verdict(l05.check_ex2, tf.argmax(LOGITS, axis=0))
    assert "largest scores" in verdict(l05.check_ex2, tf.reduce_max(LOGITS, axis=1))


def test_ex3_normalize_rows_on_fresh_tables(verdict):
    assert "✓" in verdict(l05.check_ex3, lambda t: t / tf.reduce_sum(t, axis=1, keepdims=True))
    out = verdict(l05.check_ex3, lambda t: t / tf.reduce_sum(t, axis=1))
    assert "keepdims=True" in out and "Traceback" not in out
    assert "each column sums to 1" in verdict(l05.check_ex3,
                                              lambda t: t / tf.reduce_sum(t, axis=0))
    hard_coded = SALES / tf.constant([[9.0], [22.0], [21.0]])
    assert "✗" in verdict(l05.check_ex3, lambda t: hard_coded)
