"""Lesson 27's exercise checks: unattempted, typical wrong answers, right answers."""
import numpy as np
import pytest

import minitf as tf
from widgets.exercises import NOT_ATTEMPTED
from widgets.lesson_checks import l27, reset


@pytest.fixture
def verdict(capsys):
    def run(check, *answer):
        reset(l27.EXERCISES)
        assert check(*answer) is None
        return capsys.readouterr().out
    return run


def functional_maker(hidden_activation="tanh", hidden_units=5, dropout=True):
    def make_functional():
        inputs = tf.keras.Input(shape=(6,))
        x = tf.keras.layers.Dense(hidden_units, activation=hidden_activation)(inputs)
        if dropout:
            x = tf.keras.layers.Dropout(0.2)(x)
        outputs = tf.keras.layers.Dense(2, activation="softmax")(x)
        return tf.keras.Model(inputs, outputs)
    return make_functional


def residual_class(body):
    """The exercise's ResidualMLP with `body` as the return expression of call."""
    namespace = {"tf": tf}
    exec(
        "class ResidualMLP(tf.keras.Model):\n"
        "    def __init__(self, units, **kwargs):\n"
        "        super().__init__(**kwargs)\n"
        "        self.first = tf.keras.layers.Dense(units, activation='relu')\n"
        "        self.second = tf.keras.layers.Dense(units)\n"
        "    def call(self, x):\n"
        f"        {body}\n", namespace)
    return namespace["ResidualMLP"]


@pytest.mark.parametrize("check", [l27.check_ex1, l27.check_ex2, l27.check_ex3])
def test_unattempted(check, verdict):
    assert verdict(check, ...) == NOT_ATTEMPTED + "\n"
    assert verdict(check, None) == NOT_ATTEMPTED + "\n"


def test_ex1_unattempted_function_and_unfinished_class(verdict):
    def make_functional():
        ...
    assert verdict(l27.check_ex1, make_functional) == NOT_ATTEMPTED + "\n"
    assert verdict(l27.check_ex3, residual_class("...")) == NOT_ATTEMPTED + "\n"


def test_ex1_right_answers(verdict):
    assert "✓" in verdict(l27.check_ex1, functional_maker())
    # Dropout holds no weights and is the identity at inference: leaving it out computes
    # the same function, which the check accepts (it compares what the model computes).
    assert "✓" in verdict(l27.check_ex1, functional_maker(dropout=False))


def test_ex1_wrong_answers(verdict):
    out = verdict(l27.check_ex1, functional_maker(hidden_activation="relu"))
    assert "✗" in out and "outputs differ" in out and "tanh" in out
    out = verdict(l27.check_ex1, functional_maker(hidden_units=6))
    assert "✗" in out and "parameters" in out
    sequential = lambda: tf.keras.Sequential([  # noqa: E731
        tf.keras.Input(shape=(6,)), tf.keras.layers.Dense(5, activation="tanh"),
        tf.keras.layers.Dense(2, activation="softmax")])
    assert "Sequential model" in verdict(l27.check_ex1, sequential)
    def no_return():
        tf.keras.Input(shape=(6,))
    assert "return` missing" in verdict(l27.check_ex1, no_return)
    assert "not a model" in verdict(l27.check_ex1, lambda: 3)
    assert "raised ZeroDivisionError" in verdict(l27.check_ex1, lambda: 1 / 0)
    assert "function" in verdict(l27.check_ex1, 42)


def test_ex1_compares_on_fresh_weights_so_a_fixed_model_fails(verdict):
    # The check sets the weights itself; a model that ignores its weights cannot pass.
    def constant_model():
        inputs = tf.keras.Input(shape=(6,))
        x = tf.keras.layers.Dense(5, activation="tanh")(inputs)
        x = tf.keras.layers.Dense(2, activation="softmax")(x)
        outputs = tf.keras.layers.Lambda(lambda t: t * 0.0 + 0.5)(x)
        return tf.keras.Model(inputs, outputs)
    assert "outputs differ" in verdict(l27.check_ex1, constant_model)


def test_ex2_count_computed_from_the_model(verdict):
    assert l27._count() == 5 * 4 + 4 + 7 * 2 + 2
    for right in (40, np.int64(40), 40.0):
        assert "✓" in verdict(l27.check_ex2, right)
    assert "Concatenate joins" in verdict(l27.check_ex2, 5 * 4 + 4 + 8 * 2 + 2)
    assert "bias" in verdict(l27.check_ex2, 34)
    assert "last layer only" in verdict(l27.check_ex2, 16)
    assert "all the joined features" in verdict(l27.check_ex2, 32)
    out = verdict(l27.check_ex2, 41)
    assert "✗" in out and "40" not in out
    assert "whole number" in verdict(l27.check_ex2, "40")
    assert "whole number" in verdict(l27.check_ex2, True)


def test_ex3_right_answers(verdict):
    for body in ("return tf.nn.relu(x + self.second(self.first(x)))",
                 "return tf.keras.activations.relu(self.second(self.first(x)) + x)",
                 "return tf.maximum(x + self.second(self.first(x)), 0.0)"):
        assert "✓" in verdict(l27.check_ex3, residual_class(body)), body


def test_ex3_wrong_answers(verdict):
    assert "adds `x`" in verdict(l27.check_ex3, residual_class(
        "return tf.nn.relu(self.second(self.first(x)))"))
    assert "applies ReLU" in verdict(l27.check_ex3, residual_class(
        "return x + self.second(self.first(x))"))
    assert "after the addition" in verdict(l27.check_ex3, residual_class(
        "return x + tf.nn.relu(self.second(self.first(x)))"))
    out = verdict(l27.check_ex3, residual_class("return x * 2.0"))
    assert "✗" in out and "Hint" in out
    assert "raised" in verdict(l27.check_ex3, residual_class("return 1 / 0"))
    assert "class ResidualMLP itself" in verdict(l27.check_ex3, 5)
    assert "class ResidualMLP itself" in verdict(
        l27.check_ex3, residual_class("return x")(4))


def test_ex3_hard_coded_width_fails(verdict):
    # The check builds the model with widths of its own: a block written for 4 features
    # only (slicing the input) does not pass.
    out = verdict(l27.check_ex3, residual_class(
        "return tf.nn.relu(x[:, :4] + self.second(self.first(x))[:, :4])"))
    assert "✗" in out
