"""Lesson 24's exercise checks: unattempted, typical wrong answers, right answers."""
import numpy as np
import pytest

import minitf as tf
from widgets.exercises import NOT_ATTEMPTED
from widgets.lesson_checks import l24, reset


@pytest.fixture
def verdict(capsys):
    def run(check, *answer):
        reset(l24.EXERCISES)
        assert check(*answer) is None
        return capsys.readouterr().out
    return run


@pytest.mark.parametrize("check", [l24.check_ex1, l24.check_ex2, l24.check_ex3])
def test_unattempted(check, verdict):
    assert verdict(check, ...) == NOT_ATTEMPTED + "\n"
    assert verdict(check, None) == NOT_ATTEMPTED + "\n"

    def todo(*args):
        ...
    assert verdict(check, todo) == NOT_ATTEMPTED + "\n"


def test_ex1_reference_is_keras_reduction():
    losses, weights = l24._reduction_cases()[0]
    by_hand = float(np.sum(losses.numpy() * weights.numpy()) / losses.shape[0])
    keras = float(l24._reduce(tf.keras.losses.MeanSquaredError(), losses, weights))
    assert keras == pytest.approx(by_hand, rel=1e-6)


@pytest.mark.parametrize("right", [
    lambda l, w: tf.reduce_sum(l * w) / tf.cast(tf.size(l), l.dtype),
    lambda l, w: tf.reduce_mean(l * w),
    lambda l, w: float(np.mean(np.asarray(l) * np.asarray(w))),
    lambda l, w: np.sum(np.asarray(l) * np.asarray(w)) / len(np.asarray(l)),
])
def test_ex1_right_forms(right, verdict):
    assert "✓" in verdict(l24.check_ex1, right)


@pytest.mark.parametrize("wrong, hint", [
    (lambda l, w: tf.reduce_sum(l * w) / tf.reduce_sum(w), "sum of the weights"),
    (lambda l, w: tf.reduce_mean(l), "weights are missing"),
    (lambda l, w: tf.reduce_sum(l * w), "'sum' reduction"),
    (lambda l, w: tf.reduce_sum(l) / tf.reduce_sum(w), "Weight each loss"),
    (lambda l, w: 0.5124, "Two steps"),                 # a hard-coded number: the ladder
    (lambda l, w: 1 / 0, "ZeroDivisionError"),
])
def test_ex1_wrong(wrong, hint, verdict):
    out = verdict(l24.check_ex1, wrong)
    assert "✗" in out and hint in out


def stable(y, z):
    return tf.maximum(z, 0.0) - z * y + tf.math.log(1.0 + tf.exp(-tf.abs(z)))


@pytest.mark.parametrize("right", [
    stable,
    lambda y, z: tf.nn.relu(z) - z * y + tf.math.softplus(-tf.abs(z)),
    lambda y, z: (np.maximum(np.asarray(z), 0) - np.asarray(z) * np.asarray(y)
                  + np.log1p(np.exp(-np.abs(np.asarray(z))))),
])
def test_ex2_right_forms(right, verdict):
    assert "✓" in verdict(l24.check_ex2, right)


def naive(y, z):
    p = tf.sigmoid(z)
    return -(y * tf.math.log(p) + (1 - y) * tf.math.log(1 - p))


def clipped(y, z):
    p = tf.clip_by_value(tf.sigmoid(z), 1e-7, 1 - 1e-7)
    return -(y * tf.math.log(p) + (1 - y) * tf.math.log(1 - p))


@pytest.mark.parametrize("wrong, hint", [
    (naive, "inf or nan"),
    (clipped, "clipped probability path"),
    (lambda y, z: stable(y, -z), "sign is flipped"),
    (lambda y, z: -z * y + tf.math.log(1.0 + tf.exp(-tf.abs(z))), "max(z, 0) term"),
    (lambda y, z: tf.zeros_like(z), "keep every exp's argument"),
])
def test_ex2_wrong(wrong, hint, verdict):
    out = verdict(l24.check_ex2, wrong)
    assert "✗" in out and hint in out


def right_total(model, x, y):
    predictions = model(x)
    return tf.keras.losses.MeanSquaredError()(y, predictions) + tf.add_n(model.losses)


def test_ex3_reference_is_what_fit_reports():
    model, x, y = l24._model_cases()[0]
    model.compile(optimizer="sgd", loss="mse")
    assert model.evaluate(x, y, verbose=0) == pytest.approx(float(l24._total(model, x, y)),
                                                            rel=1e-5)
    assert len(model.losses) == 3  # the activity penalty and two kernel penalties


@pytest.mark.parametrize("right", [
    right_total,
    lambda m, x, y: float(tf.reduce_mean(tf.square(y - m(x))) + sum(m.losses)),
    lambda m, x, y: tf.keras.losses.mse(tf.reshape(y, [-1]), tf.reshape(m(x), [-1]))
    + tf.add_n(m.losses),
])
def test_ex3_right_forms(right, verdict):
    assert "✓" in verdict(l24.check_ex3, right)


def stale(model, x, y):
    penalties = tf.add_n(model.losses)
    return tf.keras.losses.MeanSquaredError()(y, model(x)) + penalties


@pytest.mark.parametrize("wrong, hint", [
    (lambda m, x, y: tf.keras.losses.MeanSquaredError()(y, m(x)), "data loss only"),
    (stale, "before calling the model"),
    (lambda m, x, y: tf.reduce_sum(tf.square(y - m(x))) + tf.add_n(m.losses), "not a sum"),
    (lambda m, x, y: (m(x), tf.add_n(m.losses))[1], "Only the penalties"),
    (lambda m, x, y: 2.69, "Two parts"),                 # a hard-coded number: the ladder
])
def test_ex3_wrong(wrong, hint, verdict):
    out = verdict(l24.check_ex3, wrong)
    assert "✗" in out and hint in out


@pytest.mark.parametrize("answer", [42, "text", [1, 2], lambda *a: "x", lambda: 1])
def test_checks_never_raise(answer, verdict):
    for check in (l24.check_ex1, l24.check_ex2, l24.check_ex3):
        assert "✗" in verdict(check, answer)
