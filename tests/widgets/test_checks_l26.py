"""Lesson 26's exercise checks: unattempted, typical wrong answers, right answers."""
import pytest

import minitf as tf
from widgets.exercises import NOT_ATTEMPTED
from widgets.lesson_checks import l26, reset


@pytest.fixture
def verdict(capsys):
    def run(check, answer):
        reset(l26.EXERCISES)
        assert check(answer) is None
        return capsys.readouterr().out
    return run


def todo(epoch, learning_rate):
    ...


class Unwritten(tf.keras.callbacks.Callback):
    ...


@pytest.mark.parametrize("check,answers", [(l26.check_ex1, [..., None, todo]),
                                           (l26.check_ex2, [..., None, Unwritten])])
def test_unattempted(check, answers, verdict):
    for answer in answers:
        assert verdict(check, answer) == NOT_ATTEMPTED + "\n"


# --- Exercise 1 ---------------------------------------------------------------------

def warm_then_decay(epoch, learning_rate):
    if epoch < 3:
        return learning_rate
    return learning_rate / 10


@pytest.mark.parametrize("answer", [
    warm_then_decay,
    lambda epoch, lr: lr if epoch < 3 else lr * 0.1,
    lambda epoch, lr: float(lr * 0.1 ** (epoch >= 3)),
])
def test_ex1_right_answers(answer, verdict):
    assert "✓" in verdict(l26.check_ex1, answer)


def forgot_return(epoch, learning_rate):
    new_rate = learning_rate if epoch < 3 else learning_rate / 10  # noqa: F841


@pytest.mark.parametrize("answer,hint", [
    (lambda epoch, lr: lr / 10, "divided from the start"),
    (lambda epoch, lr: lr if epoch <= 3 else lr / 10, "Epoch 3 is the fourth epoch"),
    (lambda epoch, lr: lr if epoch < 3 else lr * 10, "not multiply by 10"),
    (lambda epoch, lr: lr if epoch < 3 else 0.04, "does not depend on the rate passed in"),
    # The lesson's rate hard-coded: the check starts from rates of its own.
    (lambda epoch, lr: 0.3 if epoch < 3 else 0.03, "the check starts from rates of its own"),
    (forgot_return, "`return` missing"),
])
def test_ex1_wrong_answers_get_their_hint(answer, hint, verdict):
    out = verdict(l26.check_ex1, answer)
    assert "✗" in out and hint in out, out


def test_ex1_a_schedule_that_raises_is_reported(verdict):
    out = verdict(l26.check_ex1, lambda epoch, lr: 1 / 0)
    assert "✗" in out and "ZeroDivisionError" in out


# --- Exercise 2 ---------------------------------------------------------------------

class StopAtAccuracy(tf.keras.callbacks.Callback):
    def __init__(self, target):
        super().__init__()
        self.target = target

    def on_epoch_end(self, epoch, logs=None):
        if logs["accuracy"] >= self.target:
            self.model.stop_training = True


class StopWithGet(tf.keras.callbacks.Callback):
    def __init__(self, target):
        super().__init__()
        self.target = target

    def on_epoch_end(self, epoch, logs=None):
        self.model.stop_training = logs.get("accuracy", 0.0) >= self.target


def test_ex2_right_answers(verdict):
    assert "✓" in verdict(l26.check_ex2, StopAtAccuracy)
    assert "✓" in verdict(l26.check_ex2, StopWithGet)


def test_ex2_the_check_computes_the_epochs_for_two_targets():
    assert l26._expected_epochs(0.5) == 11
    assert l26._expected_epochs(0.85) == 16


class NeverStops(StopAtAccuracy):
    def on_epoch_end(self, epoch, logs=None):
        pass


class WatchesValidation(StopAtAccuracy):
    def on_epoch_end(self, epoch, logs=None):
        if logs["val_accuracy"] >= self.target:
            self.model.stop_training = True


class OnBatchEnd(StopAtAccuracy):
    def on_epoch_end(self, epoch, logs=None):
        pass

    def on_train_batch_end(self, batch, logs=None):
        if logs["accuracy"] >= self.target:
            self.model.stop_training = True


class HardCoded(StopAtAccuracy):
    """Stops after the 11 epochs the first target needs, whatever the target."""

    def on_epoch_end(self, epoch, logs=None):
        if epoch == 10:
            self.model.stop_training = True


class NoArgument(tf.keras.callbacks.Callback):
    def on_epoch_end(self, epoch, logs=None):
        self.model.stop_training = True


@pytest.mark.parametrize("answer,hint", [
    (NeverStops, "self.model.stop_training = True"),
    (WatchesValidation, "trains without validation data"),
    (OnBatchEnd, "checked at the end of each epoch"),
    (HardCoded, "With target=0.85"),
    (NoArgument, "takes the target as its one argument"),
    (42, "subclasses tf.keras.callbacks.Callback"),
    (dict, "subclasses tf.keras.callbacks.Callback"),
])
def test_ex2_wrong_answers_get_their_hint(answer, hint, verdict):
    out = verdict(l26.check_ex2, answer)
    assert "✗" in out and hint in out, out
