"""Lesson 29's exercise checks: unattempted, typical wrong answers, right answers."""
import numpy as np
import pytest

import minitf as tf
from widgets.exercises import NOT_ATTEMPTED
from widgets.lesson_checks import l29, reset

MATRIX = np.array([[5, 0, 2, 0], [1, 6, 0, 0], [0, 0, 7, 1], [0, 1, 0, 9]])   # worst: (0, 2)


@pytest.fixture
def verdict(capsys):
    def run(check, *answer):
        reset(l29.EXERCISES)
        assert check(*answer) is None
        return capsys.readouterr().out
    return run


def todo(*args):
    ...


def test_unattempted(verdict):
    assert verdict(l29.check_ex1, ..., MATRIX) == NOT_ATTEMPTED + "\n"
    for check in (l29.check_ex2, l29.check_ex3):
        assert verdict(check, ...) == NOT_ATTEMPTED + "\n"
        assert verdict(check, todo) == NOT_ATTEMPTED + "\n"


@pytest.mark.parametrize("right", [(0, 2), [0, 2], np.array([0, 2]), (np.int64(0), 2.0)])
def test_ex1_every_form_of_the_right_pair(right, verdict):
    assert "✓" in verdict(l29.check_ex1, right, MATRIX)
    assert "✓" in verdict(l29.check_ex1, right, tf.constant(MATRIX))


def test_ex1_the_answer_comes_from_the_matrix_given(verdict):
    other = MATRIX.T.copy()                      # the worst cell is now (2, 0)
    assert "✗" in verdict(l29.check_ex1, (0, 2), other)
    assert "✓" in verdict(l29.check_ex1, (2, 0), other)


def test_ex1_ties_accept_each_tied_cell(verdict):
    tied = np.array([[4, 2, 0], [0, 5, 2], [1, 0, 3]])
    assert "✓" in verdict(l29.check_ex1, (0, 1), tied)
    assert "✓" in verdict(l29.check_ex1, (1, 2), tied)


@pytest.mark.parametrize("wrong,hint", [
    ((2, 0), "wrong way round"),        # (predicted, true)
    ((3, 3), "got RIGHT"),              # the largest cell is on the diagonal
    ((1, 0), "Ignore the diagonal"),    # some other mistake: the ladder's first hint
])
def test_ex1_typical_mistakes(wrong, hint, verdict):
    out = verdict(l29.check_ex1, wrong, MATRIX)
    assert "✗" in out and hint in out
    assert "(0, 2)" not in out           # the answer is never shown


@pytest.mark.parametrize("answer", ["9 -> 8", 3, (1, 2, 3), ("a", "b")])
def test_ex1_not_a_pair(answer, verdict):
    assert "not a pair" in verdict(l29.check_ex1, answer, MATRIX)


def test_ex1_a_bad_matrix_argument_is_a_message_not_an_error(verdict):
    assert "confusion matrix `cm`" in verdict(l29.check_ex1, (0, 2), "cm")


def recall_numpy(matrix):
    matrix = np.asarray(matrix, dtype="float64")
    return np.diag(matrix) / matrix.sum(axis=1)


def recall_tf(matrix):
    matrix = tf.cast(matrix, "float64")
    return tf.linalg.diag_part(matrix) / tf.reduce_sum(matrix, axis=1)


def recall_list(matrix):
    return list(recall_numpy(matrix))


@pytest.mark.parametrize("right", [recall_numpy, recall_tf, recall_list])
def test_ex2_right(right, verdict):
    assert "✓" in verdict(l29.check_ex2, right)


@pytest.mark.parametrize("wrong,hint", [
    (lambda m: np.diag(np.asarray(m)) / np.asarray(m).sum(axis=0), "precision"),
    (lambda m: np.diag(np.asarray(m)), "counts of right answers"),
    (lambda m: np.diag(np.asarray(m)) / np.asarray(m).sum(), "whole matrix"),
    (lambda m: np.trace(np.asarray(m)) / np.asarray(m).sum(), "accuracy"),
])
def test_ex2_typical_mistakes(wrong, hint, verdict):
    out = verdict(l29.check_ex2, wrong)
    assert "✗" in out and hint in out


def test_ex2_hard_coding_the_lessons_recall_fails(verdict):
    assert "✗" in verdict(l29.check_ex2, lambda m: np.full(10, 0.97))


def test_ex2_errors_and_missing_return_are_messages(verdict):
    def no_return(matrix):
        np.diag(matrix)
    assert "return" in verdict(l29.check_ex2, no_return)
    assert "ZeroDivisionError" in verdict(l29.check_ex2, lambda m: 1 / 0)
    assert "function is expected" in verdict(l29.check_ex2, 0.5)


def confusion_add_at(labels, predictions, num_classes):
    matrix = np.zeros((num_classes, num_classes), dtype="int32")
    np.add.at(matrix, (np.asarray(labels), np.asarray(predictions)), 1)
    return matrix


def confusion_loop(labels, predictions, num_classes):
    matrix = [[0] * num_classes for _ in range(num_classes)]
    for label, prediction in zip(labels, predictions):
        matrix[label][prediction] += 1
    return matrix


def confusion_tf(labels, predictions, num_classes):
    return tf.math.confusion_matrix(labels, predictions, num_classes=num_classes)


@pytest.mark.parametrize("right", [confusion_add_at, confusion_loop, confusion_tf])
def test_ex3_right(right, verdict):
    assert "✓" in verdict(l29.check_ex3, right)


def test_ex3_transposed(verdict):
    out = verdict(l29.check_ex3, lambda l, p, n: confusion_add_at(p, l, n))
    assert "✗" in out and "transposed" in out


def test_ex3_fancy_index_assignment_counts_repeats_once(verdict):
    def assign(labels, predictions, num_classes):      # matrix[l, p] += 1 drops repeats
        matrix = np.zeros((num_classes, num_classes), dtype="int32")
        matrix[np.asarray(labels), np.asarray(predictions)] += 1
        return matrix
    out = verdict(l29.check_ex3, assign)
    assert "✗" in out and "Hint:" in out


def test_ex3_hard_coding_fails(verdict):
    assert "✗" in verdict(l29.check_ex3, lambda l, p, n: np.eye(3, dtype="int32"))


def test_checks_never_raise_on_odd_answers(verdict):
    for answer in [None, "text", object(), lambda *a: None, lambda *a: [[1]]]:
        verdict(l29.check_ex1, answer, MATRIX)
        verdict(l29.check_ex2, answer)
        verdict(l29.check_ex3, answer)
