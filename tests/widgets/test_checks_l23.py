"""Lesson 23's exercise checks: unattempted, typical wrong answers, right answers."""
import numpy as np
import pytest

import minitf as tf
from widgets.exercises import NOT_ATTEMPTED
from widgets.lesson_checks import l23, reset


@pytest.fixture
def verdict(capsys):
    def run(check, answer):
        reset(l23.EXERCISES)
        assert check(answer) is None
        return capsys.readouterr().out
    return run


def todo(*args):
    ...


@pytest.mark.parametrize("check", [l23.check_ex1, l23.check_ex2, l23.check_ex3])
@pytest.mark.parametrize("answer", [..., None, todo])
def test_unattempted(check, answer, verdict):
    assert verdict(check, answer) == NOT_ATTEMPTED + "\n"


# --- Exercise 1 ---------------------------------------------------------------------

def test_ex1_right_formula_in_any_spelling(verdict):
    assert "✓" in verdict(l23.check_ex1, lambda u, f: 3 * (f * u + u * u + 2 * u))
    assert "✓" in verdict(l23.check_ex1, lambda u, f: float(3 * u * (f + u + 2)))
    assert "✓" in verdict(l23.check_ex1, lambda u, f: tf.constant(3 * u * (f + u + 2)))


@pytest.mark.parametrize("wrong,hint", [
    (lambda u, f: 3 * (f * u + u * u + u), "reset_after=True"),
    (lambda u, f: 4 * (f * u + u * u + u), "LSTM's count"),
    (lambda u, f: 3 * (f * u + 2 * u), "recurrent kernel"),
    (lambda u, f: f * u + u * u + 2 * u, "one block"),
])
def test_ex1_typical_mistakes_get_their_hint(wrong, hint, verdict):
    out = verdict(l23.check_ex1, wrong)
    assert out.startswith("✗") and hint in out


def test_ex1_the_lessons_number_hard_coded_fails(verdict):
    out = verdict(l23.check_ex1, lambda units, features: 336)   # GRU(8) on 4 features
    assert out.startswith("✗") and "Hint" in out
    assert "✗" in verdict(l23.check_ex1, 1344)     # a number, not a function


def test_ex1_a_function_that_raises_is_reported(verdict):
    out = verdict(l23.check_ex1, lambda u, f: u / 0)
    assert out.startswith("✗") and "ZeroDivisionError" in out


# --- Exercise 2 ---------------------------------------------------------------------

def right_last_state(x, kernel, recurrent_kernel, bias):
    h = tf.zeros([x.shape[0], kernel.shape[1]])
    for t in range(x.shape[1]):
        h = tf.tanh(tf.matmul(x[:, t], kernel) + tf.matmul(h, recurrent_kernel) + bias)
    return h


def test_ex2_right_loops(verdict):
    assert "✓" in verdict(l23.check_ex2, right_last_state)

    def with_unstack(x, kernel, recurrent_kernel, bias):
        h = tf.zeros([tf.shape(x)[0], kernel.shape[-1]])
        for x_t in tf.unstack(x, axis=1):
            h = tf.tanh(x_t @ kernel + h @ recurrent_kernel + bias)
        return h
    assert "✓" in verdict(l23.check_ex2, with_unstack)


def every_step(x, kernel, recurrent_kernel, bias):
    h, outputs = tf.zeros([x.shape[0], kernel.shape[1]]), []
    for t in range(x.shape[1]):
        h = tf.tanh(tf.matmul(x[:, t], kernel) + tf.matmul(h, recurrent_kernel) + bias)
        outputs.append(h)
    return tf.stack(outputs, axis=1)


def no_tanh(x, kernel, recurrent_kernel, bias):
    h = tf.zeros([x.shape[0], kernel.shape[1]])
    for t in range(x.shape[1]):
        h = tf.matmul(x[:, t], kernel) + tf.matmul(h, recurrent_kernel) + bias
    return h


def backwards(x, kernel, recurrent_kernel, bias):
    return right_last_state(x[:, ::-1], kernel, recurrent_kernel, bias)


def first_step_only(x, kernel, recurrent_kernel, bias):
    return tf.tanh(tf.matmul(x[:, 0], kernel) + bias)


@pytest.mark.parametrize("wrong,hint", [(every_step, "not every step"),
                                        (no_tanh, "tanh is missing"),
                                        (backwards, "backwards"),
                                        (first_step_only, "first step")])
def test_ex2_typical_mistakes_get_their_hint(wrong, hint, verdict):
    out = verdict(l23.check_ex2, wrong)
    assert out.startswith("✗") and hint in out


def test_ex2_the_lessons_tensor_hard_coded_fails(verdict):
    lesson_result = tf.constant([[-0.06198211, -0.58082575, -0.67064863],
                                 [0.99480975, 0.49822262, -0.04546332]])
    assert verdict(l23.check_ex2, lambda *args: lesson_result).startswith("✗")


def test_ex2_a_forgotten_return_is_named(verdict):
    def forgot(x, kernel, recurrent_kernel, bias):
        right_last_state(x, kernel, recurrent_kernel, bias)
    assert "`return`" in verdict(l23.check_ex2, forgot)


# --- Exercise 3 ---------------------------------------------------------------------

def right_weights(query, key):
    scores = tf.matmul(query, key, transpose_b=True) / np.sqrt(query.shape[-1])
    return tf.nn.softmax(scores, axis=-1)


def test_ex3_right_forms(verdict):
    assert "✓" in verdict(l23.check_ex3, right_weights)
    assert "✓" in verdict(l23.check_ex3, lambda q, k: tf.nn.softmax(
        tf.einsum("bqd,bkd->bqk", q, k) * (1.0 / float(q.shape[-1]) ** 0.5)))


@pytest.mark.parametrize("wrong,hint", [
    (lambda q, k: tf.nn.softmax(tf.matmul(q, k, transpose_b=True)), "scaling is missing"),
    (lambda q, k: tf.nn.softmax(tf.matmul(q, k, transpose_b=True) / q.shape[-1]),
     "square root of d"),
    (lambda q, k: tf.nn.softmax(tf.matmul(q, k, transpose_b=True) / np.sqrt(q.shape[-1]),
                                axis=-2), "over the queries"),
    (lambda q, k: tf.nn.softmax(tf.matmul(q, k, transpose_b=True) * np.sqrt(q.shape[-1])),
     "divide instead"),
])
def test_ex3_typical_mistakes_get_their_hint(wrong, hint, verdict):
    out = verdict(l23.check_ex3, wrong)
    assert out.startswith("✗") and hint in out


def test_ex3_a_constant_answer_fails_and_numpy_is_not_a_tensor(verdict):
    assert verdict(l23.check_ex3, lambda q, k: tf.ones([1, 3, 6]) / 6).startswith("✗")
    out = verdict(l23.check_ex3, lambda q, k: right_weights(q, k).numpy())
    assert out.startswith("✗") and "tensor is expected" in out


def test_hints_climb_the_ladder(capsys):
    reset(l23.EXERCISES)
    for _ in range(3):
        l23.check_ex1(lambda u, f: 7)
    out = capsys.readouterr().out.split("✗")[1:]
    assert l23.ex1.hints[0] in out[0] and l23.ex1.hints[1] in out[1] and l23.ex1.hints[1] in out[2]
    reset(l23.EXERCISES)
