"""Lesson 21's exercise checks: unattempted, typical wrong answers, right answers."""
import numpy as np
import pytest

import minitf as tf
from widgets.exercises import NOT_ATTEMPTED
from widgets.lesson_checks import l21, reset


@pytest.fixture
def verdict(capsys):
    def run(check, *answer):
        reset(l21.EXERCISES)
        assert check(*answer) is None
        return capsys.readouterr().out
    return run


def clip_class(body):
    """The exercise's Clip layer with `body` as its get_config."""
    namespace = {"tf": tf}
    exec(
        "@tf.keras.utils.register_keras_serializable(package='test_l21')\n"
        "class Clip(tf.keras.layers.Layer):\n"
        "    def __init__(self, limit=1.0, **kwargs):\n"
        "        super().__init__(**kwargs)\n"
        "        self.limit = limit\n"
        "    def call(self, inputs):\n"
        "        return tf.clip_by_value(inputs, -self.limit, self.limit)\n"
        "    def get_config(self):\n"
        + "".join(f"        {line}\n" for line in body.splitlines()), namespace)
    return namespace["Clip"]


@pytest.mark.parametrize("check", [l21.check_ex1, l21.check_ex2, l21.check_ex3,
                                   l21.check_ex4])
def test_unattempted(check, verdict):
    assert verdict(check, ...) == NOT_ATTEMPTED + "\n"
    assert verdict(check, None) == NOT_ATTEMPTED + "\n"


def test_ex1_counts_computed_from_the_model(verdict):
    assert l21._counts() == (20 * 64 + 64 + 2 * 64 + 64 * 10 + 10, 2 * 64)
    for right in [(2122, 128), [2122, 128], np.array([2122, 128])]:
        assert "✓" in verdict(l21.check_ex1, right)
    assert "not trainable" in verdict(l21.check_ex1, (2250, 0))
    assert "bias" in verdict(l21.check_ex1, (2048, 128))
    assert "trainable count comes first" in verdict(l21.check_ex1, (128, 2122))
    assert "no weights" in verdict(l21.check_ex1, (2126, 128))
    out = verdict(l21.check_ex1, 2250)
    assert "a pair" in out and "2122" not in out
    assert "2122" not in verdict(l21.check_ex1, (1, 2))     # the answer is never shown


def right_bn(layer, x):
    return layer.gamma * (x - layer.moving_mean) / tf.sqrt(
        layer.moving_variance + layer.epsilon) + layer.beta


def test_ex2_right_forms(verdict):
    assert "✓" in verdict(l21.check_ex2, right_bn)

    def with_nn(layer, x):
        return tf.nn.batch_normalization(x, layer.moving_mean, layer.moving_variance,
                                         layer.beta, layer.gamma, layer.epsilon)
    assert "✓" in verdict(l21.check_ex2, with_nn)


def test_ex2_typical_mistakes(verdict):
    out = verdict(l21.check_ex2, lambda layer, x: layer(x, training=False))
    assert "calls the layer" in out
    assert "training mode" in verdict(l21.check_ex2, lambda layer, x: layer(x, training=True))
    no_eps = verdict(l21.check_ex2, lambda layer, x: layer.gamma * (x - layer.moving_mean)
                     / tf.sqrt(layer.moving_variance) + layer.beta)
    assert "epsilon" in no_eps
    no_sqrt = verdict(l21.check_ex2, lambda layer, x: layer.gamma * (x - layer.moving_mean)
                      / (layer.moving_variance + layer.epsilon) + layer.beta)
    assert "square root" in no_sqrt
    plain = verdict(l21.check_ex2, lambda layer, x: (x - layer.moving_mean)
                    / tf.sqrt(layer.moving_variance + layer.epsilon))
    assert "gamma" in plain.split("Hint")[1]

    def forgot_return(layer, x):
        right_bn(layer, x)
    assert "return" in verdict(l21.check_ex2, forgot_return)


def test_ex2_a_hard_coded_result_fails(verdict):
    layer, x = l21._trained_layer(2121, 3)
    stored = right_bn(layer, x)
    assert "✗" in verdict(l21.check_ex2, lambda layer, x: stored)


def test_ex3_right_forms(verdict):
    body = "config = super().get_config()\nconfig.update({'limit': self.limit})\nreturn config"
    assert "✓" in verdict(l21.check_ex3, clip_class(body))
    assert "✓" in verdict(l21.check_ex3,
                          clip_class("return {**super().get_config(), 'limit': self.limit}"))


def test_ex3_typical_mistakes(verdict):
    assert verdict(l21.check_ex3, clip_class("...")) == NOT_ATTEMPTED + "\n"
    out = verdict(l21.check_ex3, clip_class("return super().get_config()"))
    assert "limit=1.0" in out and "Add it" in out
    out = verdict(l21.check_ex3, clip_class("return {'limit': self.limit}"))
    assert "base layer" in out and "super().get_config()" in out
    out = verdict(l21.check_ex3, clip_class(
        "config = super().get_config()\nconfig.update({'limit': self.limit})"))
    assert "return config" in out
    out = verdict(l21.check_ex3, clip_class(
        "return {**super().get_config(), 'clip_limit': self.limit}"))
    assert "raised" in out and "Traceback" not in out


def test_ex3_a_hard_coded_limit_fails(verdict):
    out = verdict(l21.check_ex3, clip_class("return {**super().get_config(), 'limit': 0.25}"))
    assert "✗" in out and "not a fixed number" in out


def test_ex4_right_forms(verdict):
    assert "✓" in verdict(l21.check_ex4, lambda x, keep_mask, rate: x * keep_mask / (1 - rate))
    assert "✓" in verdict(l21.check_ex4, lambda x, keep_mask, rate: tf.where(
        keep_mask > 0, x / (1 - rate), tf.zeros_like(x)))

    def todo(x, keep_mask, rate):
        ...
    assert verdict(l21.check_ex4, todo) == NOT_ATTEMPTED + "\n"


@pytest.mark.parametrize("wrong,hint", [
    (lambda x, m, r: x * m, "not scaled up"),
    (lambda x, m, r: x * m * (1 - r), "scales the survivors down"),
    (lambda x, m, r: x * m / r, "not by rate"),
    (lambda x, m, r: x * (1 - m) / (1 - r), "multiply by it as it is"),
    (lambda x, m, r: tf.nn.dropout(x, r), "expected value"),  # ignores the mask: ladder
])
def test_ex4_typical_mistakes(wrong, hint, verdict):
    out = verdict(l21.check_ex4, wrong)
    assert "✗" in out and hint in out


def test_ex4_the_lesson_example_hard_coded_fails(verdict):
    assert "✗" in verdict(l21.check_ex4, lambda x, m, r: tf.fill(x.shape, 2.0))
