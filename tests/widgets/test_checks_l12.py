"""Lesson 12's exercise checks: unattempted, typical wrong answers, right answers.

Exercise 3's targeted mistakes (a Python side effect, a variable made inside the function, a
local rebinding) are written as the learner would, with a module-level `running`.
"""
import pytest

import minitf as tf
from widgets.exercises import NOT_ATTEMPTED
from widgets.lesson_checks import l12, reset


@pytest.fixture
def verdict(capsys):
    def run(check, *answer):
        reset(l12.EXERCISES)
        assert check(*answer) is None
        return capsys.readouterr().out
    return run


@tf.function
def total_todo(x):
    ...  # your code here


@pytest.mark.parametrize("check,answer", [(l12.check_ex1, (...,)), (l12.check_ex2, (...,)),
                                          (l12.check_ex3, (total_todo, ...))])
def test_unattempted(check, answer, verdict):
    assert verdict(check, *answer) == NOT_ATTEMPTED + "\n"


def test_ex1_tracing_count(verdict):
    assert "✓" in verdict(l12.check_ex1, 3)
    out = verdict(l12.check_ex1, 5)
    assert "reuses the graph" in out and "3" not in out
    assert "by its value" in verdict(l12.check_ex1, 2)
    assert "repeats the one before" in verdict(l12.check_ex1, 4)


def test_ex2_signature_accepts_list_and_tuple(verdict):
    spec = tf.TensorSpec(shape=[None, 3], dtype=tf.float32)
    assert "✓" in verdict(l12.check_ex2, [spec])
    assert "✓" in verdict(l12.check_ex2, (tf.TensorSpec([None, 3]),))
    assert "in brackets" in verdict(l12.check_ex2, spec)
    assert "any number of columns" in verdict(l12.check_ex2, [tf.TensorSpec([None, None])])
    out = verdict(l12.check_ex2, [tf.TensorSpec([2, 3])])
    assert "varying dimension is None" in out and "Received args" not in out
    assert "The batches are float32" in verdict(l12.check_ex2,
                                                [tf.TensorSpec([None, 3], tf.int32)])


running = None  # the learner's global, as in the lesson


def test_ex3_right_answer(verdict):
    global running
    running = tf.Variable(10.0)  # the check adds on from wherever running stands

    @tf.function
    def total(x):
        running.assign_add(x)
        return running.read_value()

    assert "✓" in verdict(l12.check_ex3, total, running)


def test_ex3_python_side_effect_gets_a_hint_not_a_traceback(verdict):
    global running
    running = tf.Variable(0.0)
    variable = running

    @tf.function
    def total(x):
        global running
        running = running + x      # the exercise's targeted mistake
        return running

    out = verdict(l12.check_ex3, total, variable)
    assert "happens once, while tracing" in out and "Traceback" not in out


def test_ex3_other_mistakes(verdict):
    @tf.function
    def makes_a_variable(x):
        r = tf.Variable(0.0)
        r.assign_add(x)
        return r.read_value()

    @tf.function
    def rebinds_locally(x):
        running = running + x  # noqa: F821 - UnboundLocalError: the mistake under test
        return running

    assert "make it once, outside" in verdict(l12.check_ex3, makes_a_variable, tf.Variable(0.0))
    assert "Create running = tf.Variable(0.0)" in verdict(l12.check_ex3, makes_a_variable, 0.0)
    assert "makes a new local name" in verdict(l12.check_ex3, rebinds_locally, tf.Variable(0.0))
