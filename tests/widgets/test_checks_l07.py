"""Lesson 07's exercise checks: unattempted, typical wrong answers, right answers."""
import pytest

import minitf as tf
from widgets.exercises import NOT_ATTEMPTED
from widgets.lesson_checks import l07, reset


@pytest.fixture
def verdict(capsys):
    def run(check, answer):
        reset(l07.EXERCISES)
        assert check(answer) is None
        return capsys.readouterr().out
    return run


@pytest.mark.parametrize("check", [l07.check_ex1, l07.check_ex2, l07.check_ex3])
def test_unattempted(check, verdict):
    assert verdict(check, ...) == NOT_ATTEMPTED + "\n"


def counter_with(start, step, n):
    counter = tf.Variable(start)
    for _ in range(n):
        counter.assign_add(step)
    return counter


def test_ex1_count_to_cannot_be_hard_coded(verdict):
    assert "✓" in verdict(l07.check_ex1, lambda n: counter_with(0, 1, n))
    assert "a Python int (0) gives int32" in verdict(l07.check_ex1,
                                                     lambda n: counter_with(0.0, 1.0, n))
    assert "count n times" in verdict(l07.check_ex1, lambda n: tf.Variable(5))

    def rebinding(n):
        counter = tf.constant(0)
        for _ in range(n):
            counter = counter + 1
        return counter
    assert "not a tf.Variable" in verdict(l07.check_ex1, rebinding)
    shared = tf.Variable(0)

    def one_variable_for_all_calls(n):
        for _ in range(n):
            shared.assign_add(1)
        return shared
    assert "new variable on every call" in verdict(l07.check_ex1, one_variable_for_all_calls)


def test_ex2_halve_in_place(verdict):
    def fixed(variable):
        variable.assign(variable / 2)

    def handed_out(variable):
        variable = variable / 2      # fix this line

    def rebinds(variable):
        variable = variable * 0.5

    def hard_coded(variable):
        variable.assign(4.0)

    assert "✓" in verdict(l07.check_ex2, fixed)
    assert "✓" in verdict(l07.check_ex2, lambda v: v.assign_sub(v / 2))
    assert verdict(l07.check_ex2, handed_out) == l07.HANDED_OUT + "\n"
    assert "only rebinds a local name" in verdict(l07.check_ex2, rebinds)
    assert "A variable holding -3.0 holds 4.0" in verdict(l07.check_ex2, hard_coded)
    assert "raised ZeroDivisionError" in verdict(l07.check_ex2, lambda v: 1 / 0)


def test_ex3_count_parameters(verdict):
    assert "✓" in verdict(l07.check_ex3, lambda layer: sum(int(tf.size(v))
                                                           for v in layer.variables))
    assert "counts the variables" in verdict(l07.check_ex3, lambda layer: len(layer.variables))
    assert "not 6 + 3" in verdict(l07.check_ex3,
                                  lambda layer: sum(sum(v.shape) for v in layer.variables))
    assert "The bias counts too" in verdict(l07.check_ex3,
                                            lambda layer: int(tf.size(layer.variables[0])))
    assert "✗" in verdict(l07.check_ex3, lambda layer: 24)
