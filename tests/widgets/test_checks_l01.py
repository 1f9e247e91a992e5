"""Lesson 01's exercise checks: unattempted, typical wrong answers, right answers."""
import pytest

import minitf as tf
from widgets.exercises import NOT_ATTEMPTED
from widgets.lesson_checks import l01, reset


@pytest.fixture
def verdict(capsys):
    """Run one check from a fresh ladder and return what it printed."""
    def run(check, answer):
        reset(l01.EXERCISES)
        assert check(answer) is None
        return capsys.readouterr().out
    return run


@pytest.mark.parametrize("check", [l01.check_ex1, l01.check_ex2, l01.check_ex3])
def test_unattempted(check, verdict):
    assert verdict(check, ...) == NOT_ATTEMPTED + "\n"


def test_ex1_length(verdict):
    assert "✓ Exercise 1" in verdict(l01.check_ex1, tf.sqrt(tf.reduce_sum(tf.square(
        tf.constant([3.0, 4.0])))))
    assert "square root" in verdict(l01.check_ex1, tf.constant(25.0))
    assert "square each entry first" in verdict(l01.check_ex1, tf.constant(7.0))
    assert "add them up" in verdict(l01.check_ex1, tf.constant([9.0, 16.0]))
    assert "a tensor is expected" in verdict(l01.check_ex1, 5.0)


def test_ex2_affine_is_called_on_fresh_inputs(verdict):
    assert "✓ Exercise 2" in verdict(l01.check_ex2, lambda x, w, b: tf.matmul(x, w) + b)
    assert "✓ Exercise 2" in verdict(l01.check_ex2, lambda x, w, b: x @ w + b)
    out = verdict(l01.check_ex2, lambda x, w, b: x * w + b)
    assert "raised InvalidArgumentError" in out and "multiplies entry by entry" in out
    assert "Mind the order" in verdict(l01.check_ex2, lambda x, w, b: w @ x + b)
    assert "bias b is missing" in verdict(l01.check_ex2, lambda x, w, b: x @ w)
    # the lesson's own example inputs, hard-coded, are not enough
    assert "✗" in verdict(l01.check_ex2, lambda x, w, b: tf.constant([[3.0, 1.0]]))


def test_ex3_source_path(verdict):
    assert "✓ Exercise 3" in verdict(l01.check_ex3, "minitf/ops/sort_ops.py")
    out = verdict(l01.check_ex3, "minitf/ops/math_ops.py")
    assert "example from the exercise text" in out and "sort_ops" not in out
    assert "dotted name" in verdict(l01.check_ex3, "minitf.ops.sort_ops")
    assert "top of the repository" in verdict(l01.check_ex3, "/home/me/minitf/ops/sort_ops.py")


def test_ladder_climbs_with_each_wrong_answer(capsys):
    reset(l01.EXERCISES)
    l01.check_ex1(tf.constant(1.0))
    first = capsys.readouterr().out
    l01.check_ex1(tf.constant(2.0))
    second = capsys.readouterr().out
    assert "three steps" in first and "tf.sqrt" not in first
    assert "tf.sqrt" in second


def test_no_check_raises_on_odd_answers(verdict):
    for check in (l01.check_ex1, l01.check_ex2, l01.check_ex3):
        for odd in (None, 3, "x", [1, 2], object(), lambda: 1):
            assert verdict(check, odd).startswith(("✗", "…"))
