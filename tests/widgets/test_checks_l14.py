"""Lesson 14's exercise checks: unattempted, typical wrong answers, right answers."""
import pytest

import minitf as tf
from widgets.exercises import NOT_ATTEMPTED
from widgets.lesson_checks import l14, reset


@pytest.fixture
def verdict(capsys):
    def run(check, answer):
        reset(l14.EXERCISES)
        assert check(answer) is None
        return capsys.readouterr().out
    return run


@pytest.mark.parametrize("check", [l14.check_ex1, l14.check_ex2, l14.check_ex3])
def test_unattempted(check, verdict):
    assert verdict(check, ...) == NOT_ATTEMPTED + "\n"


def test_ex1_print_counts_accept_tuple_and_list(verdict):
    assert "✓" in verdict(l14.check_ex1, (1, 5))
    assert "✓" in verdict(l14.check_ex1, [1, 5])
    out = verdict(l14.check_ex1, (2, 5))
    assert "traced once" in out and "(1, 5)" not in out
    assert "runs while tracing" in verdict(l14.check_ex1, (5, 5))
    assert "every iteration of every call" in verdict(l14.check_ex1, (1, 2))


def test_ex2_cumulative_products(verdict):
    @tf.function
    def right(values):
        product = 1.0
        out = tf.TensorArray(tf.float32, size=tf.size(values))
        for i in tf.range(tf.size(values)):
            product = product * values[i]
            out = out.write(i, product)
        return out.stack()

    @tf.function
    def int_start(values):
        product = 1
        out = tf.TensorArray(tf.float32, size=tf.size(values))
        for i in tf.range(tf.size(values)):
            product = product * values[i]
            out = out.write(i, product)
        return out.stack()

    @tf.function
    def python_list(values):
        product = 1.0
        out = []
        for i in tf.range(tf.size(values)):
            product = product * values[i]
            out.append(product)
        return tf.stack(out)

    @tf.function
    def shortcut(values):
        return tf.math.cumprod(values)

    assert "✓" in verdict(l14.check_ex2, right)
    out = verdict(l14.check_ex2, int_start)
    assert "Rule 3" in out and "Traceback" not in out
    assert "Rule 5" in verdict(l14.check_ex2, python_list)
    assert "the loop written out" in verdict(l14.check_ex2, shortcut)


def counter_class(body):
    class StepCounter(tf.Module):
        def __init__(self):
            super().__init__()
            self.steps = None

        @tf.function
        def __call__(self):
            return body(self)
    return StepCounter


def guarded(self):
    if self.steps is None:
        self.steps = tf.Variable(0)
    self.steps.assign_add(1)
    return self.steps.read_value()


def unguarded(self):
    self.steps = tf.Variable(0)
    self.steps.assign_add(1)
    return self.steps.read_value()


def test_ex3_step_counter_never_raises(verdict):
    assert "✓" in verdict(l14.check_ex3, counter_class(guarded))
    out = verdict(l14.check_ex3, counter_class(unguarded))
    assert "Rule 4" in out and "Traceback" not in out
    assert "pass the class StepCounter itself" in verdict(l14.check_ex3,
                                                          counter_class(guarded)())
    assert "✗" in verdict(l14.check_ex3, counter_class(lambda self: tf.constant(3)))
