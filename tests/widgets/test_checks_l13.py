"""Lesson 13's exercise checks: unattempted, typical wrong answers, right answers."""
import pytest

import minitf as tf
from widgets.exercises import NOT_ATTEMPTED
from widgets.lesson_checks import l13, reset


@pytest.fixture
def verdict(capsys):
    def run(check, answer):
        reset(l13.EXERCISES)
        assert check(answer) is None
        return capsys.readouterr().out
    return run


@pytest.mark.parametrize("check", [l13.check_ex1, l13.check_ex2, l13.check_ex3])
def test_unattempted(check, verdict):
    assert verdict(check, ...) == NOT_ATTEMPTED + "\n"


def test_ex1_mul_count(verdict):
    assert "✓" in verdict(l13.check_ex1, 4)
    out = verdict(l13.check_ex1, 8)
    assert "one While node" in out and "4" not in out
    assert "body graph" in verdict(l13.check_ex1, 5)
    assert "each of its iterations adds a node" in verdict(l13.check_ex1, 1)


def capped(start, stop_at_ten=True, decorate=True):
    def capped_sum(x):
        total = start
        for v in x:
            total += v
            if (total >= 10.0) if stop_at_ten else (total > 10.0):
                break
        return total
    return tf.function(capped_sum) if decorate else capped_sum


def test_ex2_capped_sum(verdict):
    assert "✓" in verdict(l13.check_ex2, capped(0.0))
    out = verdict(l13.check_ex2, capped(0))
    assert "Start from 0.0" in out and "Traceback" not in out
    assert "10 or more" in verdict(l13.check_ex2, capped(0.0, stop_at_ten=False))
    assert "decorate it with @tf.function" in verdict(l13.check_ex2, capped(0.0, decorate=False))


def test_ex3_fibonacci(verdict):
    @tf.function
    def right(n):
        ta = tf.TensorArray(tf.int32, size=n)
        a, b = tf.constant(0), tf.constant(1)
        for i in tf.range(n):
            ta = ta.write(i, a)
            a, b = b, a + b
        return ta.stack()

    @tf.function
    def python_list(n):
        out = []
        a, b = tf.constant(0), tf.constant(1)
        for i in tf.range(n):
            out.append(a)
            a, b = b, a + b
        return tf.stack(out)

    @tf.function
    def write_dropped(n):
        ta = tf.TensorArray(tf.int32, size=n)
        a, b = tf.constant(0), tf.constant(1)
        for i in tf.range(n):
            ta.write(i, a)
            a, b = b, a + b
        return ta.stack()

    @tf.function
    def starts_at_one(n):
        ta = tf.TensorArray(tf.int32, size=n)
        a, b = tf.constant(1), tf.constant(1)
        for i in tf.range(n):
            ta = ta.write(i, a)
            a, b = b, a + b
        return ta.stack()

    assert "✓" in verdict(l13.check_ex3, right)
    out = verdict(l13.check_ex3, python_list)
    assert "use a tf.TensorArray" in out and "Traceback" not in out
    assert "ta = ta.write(i, a)" in verdict(l13.check_ex3, write_dropped)
    assert "starts 0, 1, 1, 2" in verdict(l13.check_ex3, starts_at_one)
    @tf.function
    def hard_coded(n):
        return tf.constant([0, 1, 1, 2, 3, 5, 8, 13, 21, 34])

    assert "✗" in verdict(l13.check_ex3, hard_coded)
