"""Lesson 11's exercise checks: unattempted, typical wrong answers, right answers."""
import numpy as np
import pytest

import minitf as tf
from widgets.exercises import NOT_ATTEMPTED
from widgets.lesson_checks import l11, reset


@pytest.fixture
def verdict(capsys):
    def run(check, answer):
        reset(l11.EXERCISES)
        assert check(answer) is None
        return capsys.readouterr().out
    return run


def adagrad_todo(w, accumulator, g, learning_rate):
    ...  # your code here: return (new_w, new_accumulator)


@pytest.mark.parametrize("check,answer", [(l11.check_ex1, ...), (l11.check_ex2, ...),
                                          (l11.check_ex2, adagrad_todo), (l11.check_ex3, ...)])
def test_unattempted(check, answer, verdict):
    assert verdict(check, answer) == NOT_ATTEMPTED + "\n"


def test_ex1_momentum_slot(verdict):
    assert "✓" in verdict(l11.check_ex1, -0.05)
    assert "✓" in verdict(l11.check_ex1, 0.5 * (0.5 * 0 - 0.1 * 2.0) - 0.1 * (-0.5))
    out = verdict(l11.check_ex1, -0.2)
    assert "after the first step" in out and "-0.05" not in out
    assert "Mind the sign" in verdict(l11.check_ex1, 0.05)
    assert "multiplied by the momentum" in verdict(l11.check_ex1, -0.15)


def test_ex2_adagrad_against_keras(verdict):
    def right(w, acc, g, lr):
        new = acc + g ** 2
        return w - lr * g / tf.sqrt(new + 1e-7), new

    def old_accumulator(w, acc, g, lr):
        return w - lr * g / tf.sqrt(acc + 1e-7), acc + g ** 2

    assert "✓" in verdict(l11.check_ex2, right)
    assert "divides by the new one" in verdict(l11.check_ex2, old_accumulator)
    assert "Return a pair" in verdict(l11.check_ex2, lambda w, acc, g, lr: right(w, acc, g, lr)[0])
    assert "raised" in verdict(l11.check_ex2, lambda w, acc, g: w)


def test_ex3_adam_first_step_accepts_tensor_list_and_array(verdict):
    start = tf.constant([-1.5, 2.0])
    gradient = tf.constant([-155.0, -50.0])
    for right in [start - 0.1 * tf.sign(gradient), [-1.4, 2.1], np.array([-1.4, 2.1])]:
        assert "✓" in verdict(l11.check_ex3, right)
    assert "plain gradient step" in verdict(l11.check_ex3, start - 0.1 * gradient)
    assert "against the gradient" in verdict(l11.check_ex3, start + 0.1 * tf.sign(gradient))
    assert "bias correction" in verdict(
        l11.check_ex3, start - 0.1 * 0.1 / np.sqrt(0.001) * tf.sign(gradient))
