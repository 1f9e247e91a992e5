"""Lesson 26 (callbacks): checks for the two exercises.

Each check trains a model of its own (other learning rates, other data, other
targets than the lesson's), so an answer that copies the lesson's numbers fails.

>>> check_ex1(...)
… Not attempted yet: replace the `...` with your answer and run the cell again.
>>> check_ex1(lambda epoch, learning_rate: learning_rate if epoch < 3 else learning_rate / 10)
✓ Exercise 1: correct.
"""
import numpy as np

import minitf as tf
from widgets.exercises import MISSING_RETURN, NOT_ATTEMPTED, Exercise, outcome, unattempted

# --- Exercise 1: a learning-rate schedule ------------------------------------------------

_EPOCHS = 6
_START_RATES = (0.4, 0.05)


def _schedule_model(learning_rate):
    model = tf.keras.Sequential([tf.keras.Input((1,)), tf.keras.layers.Dense(
        1, kernel_initializer="zeros", bias_initializer="zeros")])
    model.compile(optimizer=tf.keras.optimizers.SGD(learning_rate), loss="mse")
    return model


def _rates(schedule, start):
    """The learning rate at each epoch of a fit with LearningRateScheduler(schedule)."""
    x = np.linspace(-1, 1, 6, dtype="float32").reshape(-1, 1)
    history = _schedule_model(start).fit(
        x, 3 * x, epochs=_EPOCHS, batch_size=3, shuffle=False, verbose=0,
        callbacks=[tf.keras.callbacks.LearningRateScheduler(schedule)])
    return history.history["learning_rate"]


def _expected_rates(start):
    return [start * 0.1 ** max(0, epoch - 2) for epoch in range(_EPOCHS)]


def _close(a, b):
    try:
        return abs(float(a) - float(b)) <= 1e-6 * max(1.0, abs(float(b)))
    except Exception:  # noqa: BLE001 - a check never raises
        return False


ex1 = Exercise("Exercise 1", [
    "The callback calls your function at the start of every epoch, with the epoch "
    "number (from 0) and the rate the optimizer has now. Return the rate to use.",
    "Return learning_rate unchanged while epoch < 3; after that, learning_rate / 10.",
], mistakes=[
    (lambda f: not _close(f(0, 0.4), 0.4) and not _close(f(0, 0.4), 0.04),
     "At epoch 0 the result should be the learning_rate passed in, whatever it is: the "
     "check starts from rates of its own."),
    (lambda f: _close(f(0, 0.4), 0.04), "The rate should stay as it is for epochs 0, 1 and "
                                        "2: it is divided from the start here."),
    (lambda f: _close(f(3, 0.4), 0.4), "Epoch 3 is the fourth epoch: it already uses the "
                                       "divided rate (compare with epoch < 3)."),
    (lambda f: _close(f(3, 0.4), 4.0), "Divide by 10 (or multiply by 0.1), not multiply "
                                       "by 10."),
    (lambda f: _close(f(4, 0.4), f(4, 0.04)), "After epoch 3 the result does not depend on "
                                              "the rate passed in: use the learning_rate "
                                              "argument, so that each epoch divides the "
                                              "current rate again."),
])


def check_ex1(warm_then_decay):
    """warm_then_decay(epoch, learning_rate) -> the rate for that epoch; checked through
    a real fit with LearningRateScheduler, from two starting rates of the check's own."""
    if unattempted(warm_then_decay):
        print(NOT_ATTEMPTED)
        return
    if not callable(warm_then_decay):
        ex1.verdict(warm_then_decay, f"The answer is a {type(warm_then_decay).__name__}, "
                                     "but a function (epoch, learning_rate) is expected.")
        return
    if outcome(warm_then_decay, 0, 0.4) is None:
        ex1.verdict(warm_then_decay, "warm_then_decay(0, 0.4) returned None" + MISSING_RETURN)
        return
    for start in _START_RATES:
        rates = outcome(_rates, warm_then_decay, start)
        if isinstance(rates, Exception):
            ex1.verdict(warm_then_decay, "fit with LearningRateScheduler(warm_then_decay) "
                                         f"failed: {type(rates).__name__}: {rates}")
            return
        expected = _expected_rates(start)
        wrong = [e for e, (got, want) in enumerate(zip(rates, expected))
                 if not _close(got, want)]
        if wrong:
            epoch = wrong[0]
            ex1.verdict(warm_then_decay, f"Starting from {start}, the rate at epoch {epoch} "
                                         f"is {rates[epoch]:.6g}, but it should be "
                                         f"{expected[epoch]:.6g}.")
            return
    ex1.verdict(warm_then_decay, None)


# --- Exercise 2: a callback that stops training ------------------------------------------

_MAX_EPOCHS = 20
_TARGETS = (0.5, 0.85)


def _classifier():
    rng = np.random.default_rng(2626)
    x = rng.normal(size=(40, 2)).astype("float32")
    y = (x[:, :1] + 0.5 * x[:, 1:] > 0.8).astype("float32")
    # The bias starts high: every example is called positive, and accuracy climbs slowly.
    model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(
        1, activation="sigmoid", kernel_initializer="zeros",
        bias_initializer=tf.keras.initializers.Constant(3.0))])
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="binary_crossentropy",
                  metrics=["accuracy"])
    return model, x, y


def _fit_with(callback):
    model, x, y = _classifier()
    history = model.fit(x, y, epochs=_MAX_EPOCHS, batch_size=10, shuffle=False, verbose=0,
                        callbacks=[callback])
    return history.history["accuracy"]


def _expected_epochs(target):
    """Epochs an uninterrupted fit runs until (and including) the first at `target`."""
    accuracy = _fit_with(tf.keras.callbacks.Callback())
    reached = [e for e, value in enumerate(accuracy) if value >= target]
    return reached[0] + 1 if reached else _MAX_EPOCHS


def _is_todo_class(answer):
    return isinstance(answer, type) and not any(
        callable(value) for name, value in vars(answer).items() if not name.startswith("__")
    ) and "__init__" not in vars(answer)


ex2 = Exercise("Exercise 2", [
    "Which hook sees the epoch's accuracy? Then how does a callback ask fit to stop?",
    "Keep target in __init__ (after super().__init__()); in on_epoch_end, set "
    "self.model.stop_training = True when logs['accuracy'] >= self.target.",
])


def check_ex2(StopAtAccuracy):  # noqa: N803 - the exercise's class
    """StopAtAccuracy(target) must end fit after the first epoch whose accuracy reaches
    target; checked on a classifier and two targets of the check's own."""
    if unattempted(StopAtAccuracy) or _is_todo_class(StopAtAccuracy):
        print(NOT_ATTEMPTED)
        return
    if not (isinstance(StopAtAccuracy, type)
            and issubclass(StopAtAccuracy, tf.keras.callbacks.Callback)):
        ex2.verdict(StopAtAccuracy, "The answer should be a class that subclasses "
                                    "tf.keras.callbacks.Callback.")
        return
    for target in _TARGETS:
        problem = _stop_problem(StopAtAccuracy, target)
        if problem is not None:
            ex2.verdict(StopAtAccuracy, problem)
            return
    ex2.verdict(StopAtAccuracy, None)


def _stop_problem(cls, target):
    callback = outcome(cls, target)
    if isinstance(callback, Exception):
        return (f"StopAtAccuracy({target}) failed: {type(callback).__name__}: {callback}. "
                "It takes the target as its one argument.")
    accuracy = outcome(_fit_with, callback)
    if isinstance(accuracy, KeyError):
        return (f"fit failed: KeyError {accuracy}. The check trains without validation "
                "data and with metrics=['accuracy']: the epoch's logs hold 'loss' and "
                "'accuracy'.")
    if isinstance(accuracy, AttributeError) and "model" in str(accuracy):
        return (f"fit failed: AttributeError: {accuracy}. Call super().__init__() first in "
                "__init__, so the callback gets its model.")
    if isinstance(accuracy, Exception):
        return f"fit failed: {type(accuracy).__name__}: {accuracy}"
    expected = _expected_epochs(target)
    if len(accuracy) == _MAX_EPOCHS and expected < _MAX_EPOCHS:
        return (f"With target={target}, fit ran all {_MAX_EPOCHS} epochs; it should stop "
                f"after epoch {expected - 1} (from 0). Does the callback set "
                "self.model.stop_training = True?")
    if len(accuracy) != expected:
        return (f"With target={target}, fit ran {len(accuracy)} epochs, but it should run "
                f"{expected}: stop after the first epoch whose accuracy is >= target, "
                "checked at the end of each epoch (batch logs hold a running value).")
    return None


EXERCISES = [ex1, ex2]
