"""Lesson 25's exercise checks: unattempted, typical wrong answers, right answers."""
import numpy as np
import pytest

import minitf as tf
from widgets.exercises import NOT_ATTEMPTED
from widgets.lesson_checks import l25, reset


@pytest.fixture
def verdict(capsys):
    def run(check, answer):
        reset(l25.EXERCISES)
        assert check(answer) is None
        return capsys.readouterr().out
    return run


def todo(*args):
    ...


class Unwritten(tf.keras.metrics.Metric):
    ...


@pytest.mark.parametrize("check,answers", [(l25.check_ex1, [..., None, todo]),
                                           (l25.check_ex2, [..., None, Unwritten]),
                                           (l25.check_ex3, [..., None, todo])])
def test_unattempted(check, answers, verdict):
    for answer in answers:
        assert verdict(check, answer) == NOT_ATTEMPTED + "\n"


# --- Exercise 1 ---------------------------------------------------------------------

def one_metric(batches):
    accuracy = tf.keras.metrics.BinaryAccuracy()
    for y_true, y_pred in batches:
        accuracy.update_state(y_true, y_pred)
    return accuracy.result()


def test_ex1_right_answers_as_tensor_or_float(verdict):
    assert "✓" in verdict(l25.check_ex1, one_metric)
    assert "✓" in verdict(l25.check_ex1, lambda batches: float(one_metric(batches)))


def mean_of_batch_results(batches):
    results = []
    for y_true, y_pred in batches:
        accuracy = tf.keras.metrics.BinaryAccuracy()
        accuracy.update_state(y_true, y_pred)
        results.append(float(accuracy.result()))
    return float(np.mean(results))


def made_inside_the_loop(batches):
    for y_true, y_pred in batches:
        accuracy = tf.keras.metrics.BinaryAccuracy()
        accuracy.update_state(y_true, y_pred)
    return accuracy.result()


@pytest.mark.parametrize("wrong,hint", [(mean_of_batch_results, "mean of the batch accuracies"),
                                        (made_inside_the_loop, "last batch's accuracy")])
def test_ex1_typical_mistakes_get_their_hint(wrong, hint, verdict):
    out = verdict(l25.check_ex1, wrong)
    assert out.startswith("✗") and hint in out


def test_ex1_hard_coded_missing_return_and_raising(verdict):
    out = verdict(l25.check_ex1, lambda batches: 0.75)
    assert out.startswith("✗") and "0.75" in out and "should be" not in out
    def forgot_return(batches):
        one_metric(batches)
    assert "`return`" in verdict(l25.check_ex1, forgot_return)
    out = verdict(l25.check_ex1, lambda batches: batches.numpy())
    assert out.startswith("✗") and "AttributeError" in out
    assert "function is expected" in verdict(l25.check_ex1, 0.5)


# --- Exercise 2 ---------------------------------------------------------------------

class RightMax(tf.keras.metrics.Metric):
    def __init__(self, name="max_absolute_error", **kwargs):
        super().__init__(name=name, **kwargs)
        self.largest = self.add_weight(name="largest", initializer="zeros")

    def update_state(self, y_true, y_pred, sample_weight=None):
        error = tf.reduce_max(tf.abs(tf.cast(y_true, "float32") - tf.cast(y_pred, "float32")))
        self.largest.assign(tf.maximum(self.largest, error))

    def result(self):
        return self.largest


class PerBatch(RightMax):
    def update_state(self, y_true, y_pred, sample_weight=None):
        self.largest.assign(tf.reduce_max(tf.abs(y_true - y_pred)))


class PythonState(tf.keras.metrics.Metric):
    def __init__(self, **kwargs):
        super().__init__(name="max_absolute_error", **kwargs)
        self.largest = 0.0

    def update_state(self, y_true, y_pred, sample_weight=None):
        self.largest = max(self.largest, float(tf.reduce_max(tf.abs(y_true - y_pred))))

    def result(self):
        return tf.constant(self.largest)


class NoResult(RightMax):
    def result(self):
        return super(RightMax, self).result()   # the base class's: NotImplementedError


def test_ex2_right_class(verdict):
    assert "✓" in verdict(l25.check_ex2, RightMax)


@pytest.mark.parametrize("wrong,expected", [
    (PerBatch, "combine it with the state"),
    (PythonState, "not a variable made with add_weight"),
    (NoResult, "NotImplementedError"),
])
def test_ex2_typical_mistakes(wrong, expected, verdict):
    out = verdict(l25.check_ex2, wrong)
    assert out.startswith("✗") and expected in out


def test_ex2_an_instance_or_a_constant_result_is_wrong(verdict):
    assert "the class itself" in verdict(l25.check_ex2, RightMax())

    class Constant(RightMax):
        def result(self):
            return tf.constant(2.5)        # the largest error of the check's batches, overall
    assert verdict(l25.check_ex2, Constant).startswith("✗")


# --- Exercise 3 ---------------------------------------------------------------------

def right_log(logdir, values):
    with tf.summary.create_file_writer(logdir).as_default():
        for step, value in enumerate(values):
            tf.summary.scalar("loss", value, step=step)


def right_log_with_default_step(logdir, values):
    writer = tf.summary.create_file_writer(logdir)
    for step, value in enumerate(values):
        with writer.as_default(step=step):
            tf.summary.scalar("loss", value)
    writer.close()


def test_ex3_right_answers(verdict):
    assert "✓" in verdict(l25.check_ex3, right_log)
    assert "✓" in verdict(l25.check_ex3, right_log_with_default_step)


def no_step(logdir, values):
    with tf.summary.create_file_writer(logdir).as_default():
        for value in values:
            tf.summary.scalar("loss", value)


def no_writer(logdir, values):
    tf.summary.create_file_writer(logdir)
    for step, value in enumerate(values):
        tf.summary.scalar("loss", value, step=step)


def from_one(logdir, values):
    with tf.summary.create_file_writer(logdir).as_default():
        for step, value in enumerate(values, start=1):
            tf.summary.scalar("loss", value, step=step)


def lesson_values(logdir, values):
    right_log(logdir, [0.6, 0.5, 0.45])


@pytest.mark.parametrize("wrong,hint", [(no_step, "needs a step"),
                                        (no_writer, "writer.as_default()"),
                                        (from_one, "counts from 0")])
def test_ex3_typical_mistakes_get_their_hint(wrong, hint, verdict):
    out = verdict(l25.check_ex3, wrong)
    assert out.startswith("✗") and hint in out


def test_ex3_hard_coded_values_and_other_tags_fail(verdict):
    assert verdict(l25.check_ex3, lesson_values).startswith("✗")

    def other_tag(logdir, values):
        with tf.summary.create_file_writer(logdir).as_default():
            for step, value in enumerate(values):
                tf.summary.scalar("error", value, step=step)
    assert "no 'loss'" in verdict(l25.check_ex3, other_tag)
    assert "function is expected" in verdict(l25.check_ex3, "logs")
