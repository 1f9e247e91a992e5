"""tf.edit_distance (Levenshtein distance of SparseTensor sequences) and tf.guarantee_const;
CASES run against real TF in test_top_level_real_tf.py.
"""
import numpy as np
import pytest

import minitf as tf
from minitf.ops.edit_distance_ops import levenshtein


def _sparse(rows):
    """Sequences (lists) as a SparseTensor of shape [len(rows), longest]."""
    indices = [[i, j] for i, row in enumerate(rows) for j in range(len(row))]
    values = [v for row in rows for v in row]
    longest = max(len(r) for r in rows)
    return tf.SparseTensor(np.array(indices, np.int64).reshape(-1, 2),
                           tf.constant(values, tf.int32), [len(rows), longest])


def test_levenshtein_by_hand():
    assert levenshtein("kitten", "sitting") == 3 and levenshtein("", "abc") == 3
    assert levenshtein([1, 2, 3], [1, 2, 3]) == 0 and levenshtein([1, 2], [2, 1]) == 2


def test_edit_distance_values_and_normalization():
    hyp, truth = _sparse([[1, 2, 3], [4, 4], [5]]), _sparse([[1, 3], [4, 4], [6, 7, 8, 9]])
    assert tf.edit_distance(hyp, truth, normalize=False).numpy().tolist() == [1.0, 0.0, 4.0]
    d = tf.edit_distance(hyp, truth)
    assert d.dtype == tf.float32 and np.allclose(d.numpy(), [0.5, 0.0, 1.0])
    empty = tf.SparseTensor(tf.zeros([0, 2], tf.int64), tf.constant([], tf.int32), [1, 0])
    assert tf.edit_distance(_sparse([[1]]), empty).numpy().tolist() == [np.inf]
    assert tf.edit_distance(empty, empty).numpy().tolist() == [0.0]
    traced = tf.function(lambda a, b: tf.edit_distance(a, b))
    assert np.allclose(traced(hyp, truth).numpy(), [0.5, 0.0, 1.0])


def test_errors_and_guarantee_const():
    with pytest.raises(TypeError, match="Hypothesis must be a SparseTensor"):
        tf.edit_distance(tf.constant([1]), _sparse([[1]]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="was expected to be a int32"):
        tf.edit_distance(_sparse([[1]]), tf.SparseTensor([[0, 0]], [1.0], [1, 1]))
    assert tf.guarantee_const([1.0, 2.0]).numpy().tolist() == [1.0, 2.0]
    x = tf.constant(2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.guarantee_const(x) * x
    with pytest.raises(LookupError, match="GuaranteeConst"):
        tape.gradient(y, x)


CASES = [
    "tf.edit_distance(h, t)", "tf.edit_distance(h, t, normalize=False)",
    "tf.edit_distance(h2, t2)", "tf.edit_distance(t2, h2)",
    "tf.edit_distance(e, t2)", "tf.edit_distance(t2, e)", "tf.edit_distance(e, e)",
    "tf.edit_distance(h2, tf.SparseTensor([[0, 0]], [1.], [1, 1]))",
    "tf.edit_distance(tf.constant([1]), t2)",
    "tf.edit_distance(tf.SparseTensor([[0]], [1], [1]), tf.SparseTensor([[0]], [1], [1]))",
    "tf.edit_distance(tf.SparseTensor([[0, 0], [0, 1]], ['ab', 'c'], [1, 2]), "
    "tf.SparseTensor([[0, 0]], ['c'], [1, 1]))",
    "tf.guarantee_const(tf.constant([1., 2.]))",
]
SETUP = """
h = tf.SparseTensor([[0, 0, 0], [1, 0, 0]], ['a', 'b'], [2, 1, 1])
t = tf.SparseTensor([[0, 1, 0], [1, 0, 0], [1, 0, 1], [1, 1, 0]], ['a', 'b', 'c', 'a'], [2, 2, 2])
h2 = tf.SparseTensor([[0, 0], [0, 1], [0, 2]], [1, 2, 3], [1, 3])
t2 = tf.SparseTensor([[0, 0], [0, 1]], [1, 3], [1, 2])
e = tf.SparseTensor(tf.zeros([0, 2], tf.int64), tf.constant([], tf.int32), [1, 0])
"""
