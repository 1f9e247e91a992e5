"""Lesson 29 (end to end): checks for the three exercises.

>>> check_ex1(..., np.eye(3))
… Not attempted yet: replace the `...` with your answer and run the cell again.
>>> matrix = np.array([[5, 0, 2], [1, 6, 0], [0, 0, 7]])
>>> check_ex1((0, 2), matrix)
✓ Exercise 1: correct.
>>> check_ex2(lambda m: np.diag(np.asarray(m)) / np.asarray(m).sum(axis=1))
✓ Exercise 2: correct.
"""
import numpy as np

import minitf as tf
from widgets.exercises import NOT_ATTEMPTED, Exercise, as_tuple, outcome, unattempted


def _matrix(matrix):
    return np.asarray(matrix.numpy() if hasattr(matrix, "numpy") else matrix)


def _largest_confusions(matrix):
    """Every (true, predicted) cell off the diagonal holding the largest count."""
    off = _matrix(matrix).astype("int64").copy()
    np.fill_diagonal(off, -1)
    return {(int(r), int(c)) for r, c in zip(*np.nonzero(off == off.max()))}


def _pair(answer):
    pair = as_tuple(answer)
    if isinstance(pair, tuple) and len(pair) == 2:
        try:
            if all(float(v) == int(v) for v in pair):
                return int(pair[0]), int(pair[1])
        except (TypeError, ValueError):
            return None
    return None


_seen = {"best": set(), "size": 0}   # the matrix of the current check, for the hints


ex1 = Exercise("Exercise 1", [
    "Ignore the diagonal (those are right answers) and find the largest number elsewhere.",
    "Rows are the true digits, columns the predictions: the cell in row i, column j counts "
    "digit i taken for j.",
], mistakes=[
    (lambda pair: pair[::-1] in _seen["best"],
     "Rows are the true digits and columns the predictions; the answer is (row, column) - "
     "yours is the wrong way round."),
    (lambda pair: pair[0] == pair[1],
     "A cell on the diagonal counts the images the model got RIGHT; look off the diagonal."),
])


def check_ex1(answer, matrix):
    """`answer`: (true digit, predicted digit) of the most frequent confusion in `matrix`."""
    if unattempted(answer):
        print(NOT_ATTEMPTED)
        return
    try:
        _seen["best"] = _largest_confusions(matrix)
    except Exception as exc:  # noqa: BLE001 - a check never raises
        ex1.verdict(None, f"The second argument should be the confusion matrix `cm` "
                          f"({type(exc).__name__}: {exc}).")
        return
    pair = _pair(answer)
    if pair is None:
        ex1.verdict(None, f"The answer {answer!r} is not a pair (true digit, predicted "
                          "digit) of two integers.")
    elif pair in _seen["best"]:
        ex1.verdict(pair, None)
    else:
        ex1.verdict(pair, f"The answer {pair} is not the cell with the most mistakes.")


def _recall(matrix):
    matrix = np.asarray(matrix, dtype="float64")
    return np.diag(matrix) / matrix.sum(axis=1)


RECALL_CASES = [
    (np.array([[8, 1, 1], [2, 6, 2], [0, 3, 7]]),),
    (np.array([[4, 0, 0, 1], [1, 9, 0, 0], [0, 2, 5, 3], [2, 0, 0, 6]]),),
    (tf.constant([[3, 2], [5, 10]]),),
]


def _matches(function, formula):
    """True when `function` agrees with `formula` on every case (never raises)."""
    for (case,) in RECALL_CASES:
        got = outcome(function, case)
        try:
            got = np.asarray(got.numpy() if hasattr(got, "numpy") else got, dtype="float64")
            if got.shape != np.shape(formula(_matrix(case))) or \
                    not np.allclose(got, formula(_matrix(case))):
                return False
        except Exception:  # noqa: BLE001
            return False
    return True


ex2 = Exercise("Exercise 2", [
    "Recall of class i: right answers for class i over all the examples that truly are i.",
    "The examples that truly are i are row i; its right answers are the diagonal cell.",
], mistakes=[
    (lambda f: _matches(f, lambda m: np.diag(m) / m.sum(axis=0)),
     "That divides by the column sums - how often the model SAID each class. That is "
     "precision; recall divides by the row sums."),
    (lambda f: _matches(f, lambda m: np.diag(m)),
     "Those are the counts of right answers; divide each by its row's total."),
    (lambda f: _matches(f, lambda m: np.diag(m) / m.sum()),
     "Dividing by the sum of the whole matrix mixes in the other classes; divide by the "
     "row's sum."),
    (lambda f: _matches(f, lambda m: np.trace(m) / m.sum()),
     "That is the accuracy, one number; recall is one number per class."),
])


def check_ex2(function):
    """recall_per_class(matrix) against the diagonal over the row sums, on the check's
    own matrices."""
    if unattempted(function):
        print(NOT_ATTEMPTED)
        return
    ex2.check_function(function, _recall, RECALL_CASES)


def _reference_confusion(labels, predictions, num_classes):
    return tf.math.confusion_matrix(labels, predictions, num_classes=num_classes).numpy()


_rng = np.random.RandomState(29)
CONFUSION_CASES = [
    (np.array([0, 1, 2, 2, 1, 0, 2]), np.array([0, 2, 2, 1, 1, 0, 0]), 3),
    (_rng.randint(0, 5, 40), _rng.randint(0, 5, 40), 5),
    (np.array([3, 3, 0]), np.array([1, 3, 0]), 4),
]


def _transposed(function):
    for labels, predictions, n in CONFUSION_CASES:
        got = outcome(function, labels, predictions, n)
        if not np.array_equal(np.asarray(got), _reference_confusion(labels, predictions, n).T):
            return False
    return True


ex3 = Exercise("Exercise 3", [
    "Start from a num_classes x num_classes array of zeros and add 1 for each "
    "(label, prediction) pair.",
    "Row = label, column = prediction: matrix[label, prediction] += 1 for each pair (a loop, "
    "or np.add.at(matrix, (labels, predictions), 1)).",
], mistakes=[
    (_transposed, "The counts are right but transposed: rows must be the true labels and "
                  "columns the predictions."),
])


def check_ex3(function):
    """confusion(labels, predictions, num_classes) against tf.math.confusion_matrix on the
    check's own labels."""
    ex3.check_function(function, _reference_confusion, CONFUSION_CASES)


EXERCISES = [ex1, ex2, ex3]
