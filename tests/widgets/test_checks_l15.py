"""Lesson 15's exercise checks: unattempted, typical wrong answers, right answers."""
import pytest

import minitf as tf
from widgets.exercises import NOT_ATTEMPTED
from widgets.lesson_checks import l15, reset

RIGHT = ["net/bias:0", "net/first/beta:0", "net/first/gamma:0", "net/second/beta:0",
         "net/second/gamma:0"]


@pytest.fixture
def verdict(capsys):
    def run(check, *answer):
        reset(l15.EXERCISES)
        assert check(*answer) is None
        return capsys.readouterr().out
    return run


class Standardize(tf.Module):
    def __init__(self, mean, std):
        super().__init__()
        self.mean = tf.Variable(mean, name="mean")
        self.std = tf.Variable(std, name="std")

    @tf.function
    def __call__(self, x):
        return (x - self.mean) / self.std


class Tiny(tf.Module):
    """A stand-in for the lesson's ServingMLP: random weights under name scopes."""

    def __init__(self):
        super().__init__(name="tiny")
        with self.name_scope:
            self.w = tf.Variable(tf.random.normal([3, 2]), name="w")
            self.b = tf.Variable(tf.random.normal([2]), name="b")

    def __call__(self, x):
        return tf.matmul(x, self.w) + self.b


@pytest.mark.parametrize("check,answer", [(l15.check_ex1, (...,)),
                                          (l15.check_ex2, (..., None)),
                                          (l15.check_ex3, (..., None))])
def test_unattempted(check, answer, verdict):
    assert verdict(check, *answer) == NOT_ATTEMPTED + "\n"


def test_ex1_names_accept_list_and_tuple(verdict):
    assert "✓" in verdict(l15.check_ex1, RIGHT)
    assert "✓" in verdict(l15.check_ex1, tuple(RIGHT))
    out = verdict(l15.check_ex1, list(reversed(RIGHT)))
    assert "in name order" in out and "net/bias:0'," not in out.split("Hint")[1]
    assert "trainable=False" in verdict(l15.check_ex1, RIGHT + ["net/first/mean:0"])
    assert "ends in :0" in verdict(l15.check_ex1, [n[:-2] for n in RIGHT])
    assert "net/..." in verdict(l15.check_ex1, [n[4:] for n in RIGHT])


def test_ex2_serving_must_be_concrete_with_open_rows(verdict):
    standardize = Standardize([1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 2.0, 4.0])
    call = standardize.__call__
    assert "✓" in verdict(l15.check_ex2, call.get_concrete_function(
        tf.TensorSpec([None, 4], tf.float32)), standardize)
    assert "from get_concrete_function" in verdict(l15.check_ex2, call, standardize)
    fresh = Standardize([1.0, 2.0, 3.0, 4.0], [1.0, 2.0, 2.0, 4.0])  # as in TF, `call` would
    # hand back its (None, 4) trace for tf.ones([2, 4]): it serves that shape too
    out = verdict(l15.check_ex2, fresh.__call__.get_concrete_function(tf.ones([2, 4])), fresh)
    assert "number of rows is None" in out and "Traceback" not in out


def test_ex3_restored_copy(verdict):
    tf.random.set_seed(3)
    trained = Tiny()
    state = {v.name: v.numpy() for v in trained.variables}
    restored = Tiny()
    assert "✗" in verdict(l15.check_ex3, restored, trained)  # still random weights
    for v in restored.variables:
        v.assign(state[v.name])
    assert "✓" in verdict(l15.check_ex3, restored, trained)
    assert "restored is trained itself" in verdict(l15.check_ex3, trained, trained)
    assert "make a new ServingMLP" in verdict(l15.check_ex3, state, trained)
