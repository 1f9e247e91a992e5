"""Lesson 04's exercise checks: unattempted, typical wrong answers, right answers."""
import pytest

import minitf as tf
from widgets.exercises import NOT_ATTEMPTED
from widgets.lesson_checks import l04, reset


@pytest.fixture
def verdict(capsys):
    def run(check, answer):
        reset(l04.EXERCISES)
        assert check(answer) is None
        return capsys.readouterr().out
    return run


@pytest.mark.parametrize("check", [l04.check_ex1, l04.check_ex2, l04.check_ex3])
def test_unattempted(check, verdict):
    assert verdict(check, ...) == NOT_ATTEMPTED + "\n"


def test_ex1_flatten_runs_on_other_batches(verdict):
    assert "✓" in verdict(l04.check_ex1, lambda t: tf.reshape(t, [tf.shape(t)[0], -1]))
    assert "✓" in verdict(l04.check_ex1, lambda t: tf.reshape(t, [t.shape[0], -1]))
    for typed in ([2, 48], [2, -1], [-1, 48]):
        out = verdict(l04.check_ex1, lambda t, typed=typed: tf.reshape(t, typed))
        assert "a size is typed in" in out and "Traceback" not in out
    assert "keep the batch axis" in verdict(l04.check_ex1, lambda t: tf.reshape(t, [-1]))


def test_ex2_stack(verdict):
    xs = tf.constant([0.0, 1.0, 2.0, 3.0])
    ys = tf.constant([5.0, 6.0, 7.0, 8.0])
    zs = tf.constant([-1.0, -2.0, -3.0, -4.0])
    assert "✓" in verdict(l04.check_ex2, tf.stack([xs, ys, zs], axis=1))
    assert "✓" in verdict(l04.check_ex2, tf.stack([xs, ys, zs], axis=-1))
    assert "transpose" in verdict(l04.check_ex2, tf.stack([xs, ys, zs]))
    assert "tf.concat joins" in verdict(l04.check_ex2, tf.concat([xs, ys, zs], axis=0))


def test_ex3_pad(verdict):
    tile = tf.constant([[1, 2], [3, 4]])
    assert "✓" in verdict(l04.check_ex3, tf.pad(tile, [[1, 1], [1, 1]], constant_values=-1))
    assert "default" in verdict(l04.check_ex3, tf.pad(tile, [[1, 1], [1, 1]]))
    assert "one entry before and one after" in verdict(
        l04.check_ex3, tf.pad(tile, [[0, 1], [0, 1]], constant_values=-1))
