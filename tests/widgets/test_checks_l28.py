"""Lesson 28's exercise checks: unattempted, typical wrong answers, right answers."""
import numpy as np
import pytest

import minitf as tf
from widgets.exercises import NOT_ATTEMPTED
from widgets.lesson_checks import l28, reset


@pytest.fixture
def verdict(capsys):
    def run(check, *answer):
        reset(l28.EXERCISES)
        assert check(*answer) is None
        return capsys.readouterr().out
    return run


def right_step(model, optimizer, loss_fn, x_batch, y_batch):
    with tf.GradientTape() as tape:
        loss = loss_fn(y_batch, model(x_batch, training=True))
    gradients = tape.gradient(loss, model.trainable_variables)
    optimizer.apply_gradients(zip(gradients, model.trainable_variables))
    return loss


@pytest.mark.parametrize("check", [l28.check_ex1, l28.check_ex2])
def test_unattempted(check, verdict):
    assert verdict(check, ...) == NOT_ATTEMPTED + "\n"
    assert verdict(check, None) == NOT_ATTEMPTED + "\n"

    def one_step(model, optimizer, loss_fn, x_batch, y_batch):
        ...
    assert verdict(l28.check_ex1, one_step) == NOT_ATTEMPTED + "\n"


def test_ex1_right_answers(verdict):
    assert "✓" in verdict(l28.check_ex1, right_step)

    def numpy_loss(model, optimizer, loss_fn, x_batch, y_batch):
        return float(right_step(model, optimizer, loss_fn, x_batch, y_batch))
    assert "✓" in verdict(l28.check_ex1, numpy_loss)

    def with_minimize(model, optimizer, loss_fn, x_batch, y_batch):
        with tf.GradientTape() as tape:
            loss = loss_fn(y_batch, model(x_batch))
        optimizer.minimize(loss, model.trainable_variables, tape=tape)
        return loss
    assert "✓" in verdict(l28.check_ex1, with_minimize)


def test_ex1_wrong_answers(verdict):
    def no_apply(model, optimizer, loss_fn, x_batch, y_batch):
        with tf.GradientTape() as tape:
            loss = loss_fn(y_batch, model(x_batch))
        tape.gradient(loss, model.trainable_variables)
        return loss
    assert "never applies them" in verdict(l28.check_ex1, no_apply)

    def ascent(model, optimizer, loss_fn, x_batch, y_batch):
        with tf.GradientTape() as tape:
            loss = loss_fn(y_batch, model(x_batch))
        gradients = tape.gradient(loss, model.trainable_variables)
        optimizer.apply_gradients(zip([-g for g in gradients], model.trainable_variables))
        return loss
    assert "not as train_on_batch" in verdict(l28.check_ex1, ascent)

    def no_return(model, optimizer, loss_fn, x_batch, y_batch):
        right_step(model, optimizer, loss_fn, x_batch, y_batch)
    assert "return the loss" in verdict(l28.check_ex1, no_return)

    def loss_after(model, optimizer, loss_fn, x_batch, y_batch):
        right_step(model, optimizer, loss_fn, x_batch, y_batch)
        return loss_fn(y_batch, model(x_batch))
    assert "before the update" in verdict(l28.check_ex1, loss_after)

    def raises(model, optimizer, loss_fn, x_batch, y_batch):
        return model.no_such_method()
    assert "raised AttributeError" in verdict(l28.check_ex1, raises)
    assert "function one_step" in verdict(l28.check_ex1, 3)


def test_ex1_a_hard_coded_loss_fails(verdict):
    # The check draws its own model and batch: a loss copied from one run does not fit.
    def fixed(model, optimizer, loss_fn, x_batch, y_batch):
        right_step(model, optimizer, loss_fn, x_batch, y_batch)
        return 1.234
    assert "before the update" in verdict(l28.check_ex1, fixed)


def test_ex2_counts_computed_from_the_model(verdict):
    assert l28._counts() == (8 * 3 + 3, 10 * 16 + 16 + 16 * 8 + 8)
    for right in [(27, 312), [27, 312], np.array([27, 312])]:
        assert "✓" in verdict(l28.check_ex2, right)
    assert "freezes the trunk" in verdict(l28.check_ex2, (339, 0))
    assert "trainable count comes first" in verdict(l28.check_ex2, (312, 27))
    assert "trunk's output" in verdict(l28.check_ex2, (33, 312))
    assert "bias" in verdict(l28.check_ex2, (24, 288))
    out = verdict(l28.check_ex2, (28, 312))
    assert "✗" in out and "27" not in out
    assert "pair" in verdict(l28.check_ex2, 339)
    assert "pair" in verdict(l28.check_ex2, (1, 2, 3))
