"""Lesson 03's exercise checks: unattempted, typical wrong answers, right answers."""
import pytest

import minitf as tf
from widgets.exercises import NOT_ATTEMPTED
from widgets.lesson_checks import l03, reset

SCORES = tf.constant([[71, 64, 90], [55, 80, 47], [88, 92, 95], [40, 58, 61]])


@pytest.fixture
def verdict(capsys):
    def run(check, answer):
        reset(l03.EXERCISES)
        assert check(answer) is None
        return capsys.readouterr().out
    return run


@pytest.mark.parametrize("check", [l03.check_ex1, l03.check_ex2, l03.check_ex3])
def test_unattempted(check, verdict):
    assert verdict(check, ...) == NOT_ATTEMPTED + "\n"


def test_ex1_last_column(verdict):
    assert "✓" in verdict(l03.check_ex1, SCORES[:, -1])
    assert "✓" in verdict(l03.check_ex1, SCORES[:, 2])
    assert "last row" in verdict(l03.check_ex1, SCORES[-1])
    assert "a slice keeps its axis" in verdict(l03.check_ex1, SCORES[:, -1:])


def test_ex2_gather(verdict):
    assert "✓" in verdict(l03.check_ex2, tf.gather(SCORES, [2, 0]))
    assert "✓" in verdict(l03.check_ex2, tf.stack([SCORES[2], SCORES[0]]))
    assert "wrong order" in verdict(l03.check_ex2, tf.gather(SCORES, [0, 2]))
    assert "columns 2 and 0" in verdict(l03.check_ex2, tf.gather(SCORES, [2, 0], axis=1))


def test_ex3_where(verdict):
    assert "✓" in verdict(l03.check_ex3, tf.where(SCORES < 50, 50, SCORES))
    assert "✓" in verdict(l03.check_ex3, tf.maximum(SCORES, 50))
    assert "swapped" in verdict(l03.check_ex3, tf.where(SCORES < 50, SCORES, 50))
    assert "boolean_mask" in verdict(l03.check_ex3, tf.boolean_mask(SCORES, SCORES < 50))
