"""Lesson 16's exercise checks: unattempted, typical wrong answers, right answers."""
import numpy as np
import pytest

import minitf as tf
from widgets.exercises import NOT_ATTEMPTED
from widgets.lesson_checks import l16, reset


@pytest.fixture
def verdict(capsys):
    def run(check, *answer):
        reset(l16.EXERCISES)
        assert check(*answer) is None
        return capsys.readouterr().out
    return run


@pytest.fixture(scope="module")
def score_graph():
    """A graph like the lesson's `score`: a constant-only statistic, a dead op, a MatMul with
    a bias and an activation, and an element-wise tail."""
    rng = np.random.default_rng(0)
    reference = rng.normal(size=(8, 8)).astype(np.float32)
    w = tf.Variable(rng.normal(size=(8, 4)).astype(np.float32), name="w")
    b = tf.Variable(np.zeros(4, np.float32), name="b")

    @tf.function
    def score(batch):
        stats = tf.constant(reference)
        mean = tf.reduce_mean(stats, axis=0)
        spread = tf.reduce_max(batch) - tf.reduce_min(batch)  # noqa: F841 - dead
        hidden = tf.nn.relu(tf.matmul(batch - mean, w) + b)
        return tf.sigmoid(hidden) * 2.0 - 1.0

    return score.get_concrete_function(tf.zeros([4, 8])).graph


@pytest.mark.parametrize("check,answer", [(l16.check_ex1, (...,)), (l16.check_ex2, (..., None)),
                                          (l16.check_ex3, (...,))])
def test_unattempted(check, answer, verdict):
    assert verdict(check, *answer) == NOT_ATTEMPTED + "\n"


def test_ex1_passes_in_any_order(verdict):
    right = ["constant_folding", "elementwise_fusion", "pruning"]
    assert "✓" in verdict(l16.check_ex1, right)
    assert "✓" in verdict(l16.check_ex1, set(right))
    out = verdict(l16.check_ex1, ["constant_folding", "pruning"])
    assert "element-wise ops" in out and "3" not in out.split("Hint")[0]
    assert "no MatMul" in verdict(l16.check_ex1, right + ["remapping"])
    assert "never returned" in verdict(l16.check_ex1, ["constant_folding", "elementwise_fusion"])


def test_ex2_options_run_the_optimizer(verdict, score_graph):
    assert "✓" in verdict(l16.check_ex2, {"remapping": False, "elementwise_fusion": False},
                          score_graph)
    assert "remapping: switch it off" in verdict(l16.check_ex2, {"elementwise_fusion": False},
                                                 score_graph)
    assert "elementwise_fusion: switch it off" in verdict(l16.check_ex2, {"remapping": False},
                                                          score_graph)
    assert "leave them on" in verdict(l16.check_ex2, {"remapping": False,
                                                      "elementwise_fusion": False,
                                                      "constant_folding": False}, score_graph)
    assert "a dict of option names" in verdict(l16.check_ex2, ["remapping"], score_graph)


def scale_by(axis, decorate=True):
    def fixed_scale_columns(batch):
        low = tf.reduce_min(batch, axis=axis, keepdims=True)
        high = tf.reduce_max(batch, axis=axis, keepdims=True)
        return (batch - low) / (high - low)
    return tf.function(fixed_scale_columns) if decorate else fixed_scale_columns


def test_ex3_fixed_scale_columns(verdict):
    assert "✓" in verdict(l16.check_ex3, scale_by(0))
    assert "axis=1 reduces each row" in verdict(l16.check_ex3, scale_by(1))
    assert "decorate it with @tf.function" in verdict(l16.check_ex3, scale_by(0, decorate=False))


def test_ex2_switching_pruning_off_is_a_mistake_too(verdict, score_graph):
    assert "leave them on" in verdict(l16.check_ex2, {"remapping": False,
                                                      "elementwise_fusion": False,
                                                      "disable_model_pruning": True},
                                      score_graph)
