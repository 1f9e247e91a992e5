"""Lesson 22's exercise checks: unattempted, typical wrong answers, right answers."""
import pytest

import minitf as tf
from widgets.exercises import NOT_ATTEMPTED
from widgets.lesson_checks import l22, reset


@pytest.fixture
def verdict(capsys):
    def run(check, *answer):
        reset(l22.EXERCISES)
        assert check(*answer) is None
        return capsys.readouterr().out
    return run


@pytest.mark.parametrize("check", [l22.check_ex1, l22.check_ex2, l22.check_ex3])
def test_unattempted(check, verdict):
    assert verdict(check, ...) == NOT_ATTEMPTED + "\n"

    def todo(*args):
        ...
    if check is not l22.check_ex1:
        assert verdict(check, todo) == NOT_ATTEMPTED + "\n"


def test_ex1_expected_shape_comes_from_keras():
    assert l22._exercise_shape() == (None, 6, 6, 16)


@pytest.mark.parametrize("right", [(None, 6, 6, 16), [None, 6, 6, 16], (6, 6, 16),
                                   tf.TensorShape([None, 6, 6, 16])])
def test_ex1_every_form_of_the_right_shape(right, verdict):
    assert "✓" in verdict(l22.check_ex1, right)


@pytest.mark.parametrize("wrong,hint", [
    ((None, 7, 7, 16), "'valid'"),            # first conv taken as 'same'
    ((None, 5, 5, 16), "pads ('same')"),      # last conv taken as 'valid'
    ((None, 12, 12, 16), "MaxPooling2D(2)"),  # pooling forgotten
    ((None, 6, 6, 8), "number of filters"),   # channels of the first conv
    ((6, 6), "four axes"),
])
def test_ex1_typical_mistakes(wrong, hint, verdict):
    out = verdict(l22.check_ex1, wrong)
    assert "✗" in out and hint in out
    assert "(None, 6, 6, 16)" not in out      # the answer is never shown


def test_ex1_not_a_shape(verdict):
    assert "a shape is expected" in verdict(l22.check_ex1, "6x6x16")


def right_separable(kernel_size, in_channels, filters):
    return kernel_size ** 2 * in_channels + in_channels * filters + filters


def test_ex2_right(verdict):
    assert "✓" in verdict(l22.check_ex2, right_separable)
    assert "✓" in verdict(l22.check_ex2, lambda k, c, f: float(right_separable(k, c, f)))


@pytest.mark.parametrize("wrong,hint", [
    (lambda k, c, f: k * k * c * f + f, "plain Conv2D"),
    (lambda k, c, f: k * k * c + c * f, "bias"),
    (lambda k, c, f: k * k * c + c + c * f + f, "single bias"),
    (lambda k, c, f: k * c + c * f + f, "k squared"),
])
def test_ex2_typical_mistakes(wrong, hint, verdict):
    out = verdict(l22.check_ex2, wrong)
    assert "✗" in out and hint in out


def test_ex2_hard_coding_the_lesson_example_fails(verdict):
    assert "✗" in verdict(l22.check_ex2, lambda k, c, f: 688)


def test_ex2_a_function_that_raises_gets_a_verdict(verdict):
    out = verdict(l22.check_ex2, lambda k, c, f: 1 / 0)
    assert "ZeroDivisionError" in out and "Traceback" not in out


def right_transpose(n, kernel_size, strides, padding):
    return n * strides if padding == "same" else n * strides + max(kernel_size - strides, 0)


def test_ex3_right(verdict):
    assert "✓" in verdict(l22.check_ex3, right_transpose)


@pytest.mark.parametrize("wrong,hint", [
    (lambda n, k, s, p: -(-(n - k + 1) // s) if p == "valid" else -(-n // s), "shrinks"),
    (lambda n, k, s, p: n * s, "sticks out"),
    (lambda n, k, s, p: n * s + max(k - s, 0), "trims"),
    (lambda n, k, s, p: (n - 1) * s + k if p == "valid" else n * s, "smaller than the stride"),
])
def test_ex3_typical_mistakes(wrong, hint, verdict):
    out = verdict(l22.check_ex3, wrong)
    assert "✗" in out and hint in out


def test_ex3_hard_coding_fails(verdict):
    assert "✗" in verdict(l22.check_ex3, lambda n, k, s, p: 8)
