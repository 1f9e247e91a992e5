"""tf.sets: intersection, union, difference (SparseTensor results) and size.

Hand-checked sets need no TF; one module-scoped real-TF run compares every
expression in CASES (indices, values, dense_shape, or the error class).
"""
import numpy as np
import pytest

import minitf as tf
from tests.real_tf import run_tf_json

A = [[1, 2, 3], [4, 5, 6]]
B = [[1, 3, 7], [6, 6, 4]]


def _dense(sparse):
    return tf.sparse.to_dense(sparse).numpy().tolist()


def test_set_operations_per_row_sorted_and_padded():
    assert _dense(tf.sets.intersection(A, B)) == [[1, 3], [4, 6]]
    assert _dense(tf.sets.union(A, B)) == [[1, 2, 3, 7], [4, 5, 6, 0]]
    assert _dense(tf.sets.difference(A, B)) == [[2], [5]]
    assert _dense(tf.sets.difference(A, B, aminusb=False)) == [[7], [0]]
    result = tf.sets.union(A, B)
    assert isinstance(result, tf.SparseTensor)
    assert result.indices.dtype == tf.int64 and result.dense_shape.numpy().tolist() == [2, 4]


def test_repeats_count_once_and_empty_results():
    assert tf.sets.intersection([[2, 2, 1]], [[2, 2]]).values.numpy().tolist() == [2]
    empty = tf.sets.intersection([[5, 5]], [[6]])
    assert empty.dense_shape.numpy().tolist() == [1, 0] and empty.indices.shape == (0, 2)


def test_strings_and_higher_ranks():
    s = tf.sets.union(tf.constant([["b", "a"]]), tf.constant([["c", "a"]]))
    assert s.values.numpy().tolist() == [b"a", b"b", b"c"]
    r = tf.sets.union([[[1, 2]], [[3, 4]]], [[[2]], [[9]]])
    assert r.dense_shape.numpy().tolist() == [2, 1, 3]
    assert r.indices.numpy().tolist() == [[0, 0, 0], [0, 0, 1], [1, 0, 0], [1, 0, 1], [1, 0, 2]]


def test_sparse_operands_and_size():
    st = tf.SparseTensor([[0, 0], [0, 1], [1, 0]], [1, 2, 2], [2, 3])
    assert tf.sets.size(st).numpy().tolist() == [2, 1]
    assert _dense(tf.sets.intersection(A, st)) == [[1, 2], [0, 0]]
    assert _dense(tf.sets.intersection(st, A)) == [[1, 2], [0, 0]]
    assert _dense(tf.sets.difference(st, A)) == [[0], [2]]  # a sparse a: operands swapped inside
    assert _dense(tf.sets.union(st, tf.SparseTensor([[1, 0]], [7], [2, 1]))) == [[1, 2], [2, 7]]
    assert tf.sets.size(tf.sets.union(A, B)).numpy().tolist() == [4, 3]


def test_errors_teach():
    with pytest.raises(tf.errors.InvalidArgumentError, match="rank 1 < 2"):
        tf.sets.intersection([1, 2], [2])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Mismatched shapes"):
        tf.sets.intersection([[1, 2], [3, 4]], [[2]])
    with pytest.raises(TypeError, match="invalid dtype"):
        tf.sets.union([[1.0]], [[2.0]])
    with pytest.raises(TypeError, match="Types don't match"):
        tf.sets.union(tf.constant([[1]]), tf.constant([[1]], tf.int64))
    with pytest.raises(TypeError, match="Expected `SparseTensor`"):
        tf.sets.size(tf.constant([[1, 1]]))


def test_sets_in_a_tf_function():
    f = tf.function(lambda x, y: tf.sets.size(tf.sets.union(x, y)))
    assert f(tf.constant(A), tf.constant(B)).numpy().tolist() == [4, 3]


# --- against real TF (one subprocess for every case) --------------------------------------------
CASES = [
    "tf.sets.intersection(A, B)",
    "tf.sets.union(A, B)",
    "tf.sets.difference(A, B)",
    "tf.sets.difference(A, B, aminusb=False)",
    "tf.sets.union(tf.constant([[[1, 2]], [[3, 4]]]), tf.constant([[[2]], [[9]]]))",
    "tf.sets.intersection(tf.constant([['a', 'b']]), tf.constant([['b', 'c']]))",
    "tf.sets.intersection(tf.constant([[1, 2]], tf.uint8), tf.constant([[2]], tf.uint8))",
    "tf.sets.intersection(tf.constant([[5, 5]]), tf.constant([[6]]))",
    "tf.sets.difference(tf.constant([[]], tf.int32), tf.constant([[6]]))",
    "tf.sets.intersection(A, ST)",
    "tf.sets.intersection(ST, A)",
    "tf.sets.difference(ST, A)",
    "tf.sets.difference(A, ST, aminusb=False)",
    "tf.sets.union(ST, ST)",
    "tf.sets.size(ST)",
    "tf.sets.size(tf.sets.union(A, B))",
    "tf.sets.size(tf.constant([[1, 1, 2]]))",
    "tf.sets.intersection(tf.constant([1, 2]), tf.constant([2]))",
    "tf.sets.intersection(tf.constant([[1.0, 2.0]]), tf.constant([[2.0]]))",
    "tf.sets.intersection(tf.constant([[1, 2]]), tf.constant([[2]], tf.int64))",
    "tf.sets.intersection(tf.constant([[1, 2], [3, 4]]), tf.constant([[2]]))",
]

_EVAL = """
import json, numpy as np
def evaluate(tf, cases):
    A = tf.constant([[1, 2, 3], [4, 5, 6]])
    B = tf.constant([[1, 3, 7], [6, 6, 4]])
    ST = tf.SparseTensor([[0, 0], [0, 1], [1, 0]], [1, 2, 2], [2, 3])
    def plain(t):
        v = t.numpy()
        return [t.dtype.name, [x.decode() if isinstance(x, bytes) else x
                               for x in np.asarray(v).reshape(-1).tolist()], list(np.shape(v))]
    out = {}
    for case in cases:
        try:
            r = eval(case)
            if hasattr(r, "indices"):
                out[case] = [plain(r.indices), plain(r.values), plain(r.dense_shape)]
            else:
                out[case] = plain(r)
        except Exception as e:
            out[case] = type(e).__name__
    return out
"""


def _evaluate(cases):
    scope = {}
    exec(_EVAL, scope)
    return scope["evaluate"](tf, cases)


@pytest.fixture(scope="module")
def real_tf_results():
    return run_tf_json("import tensorflow as tf\n" + _EVAL
                       + f"\nprint(json.dumps(evaluate(tf, {CASES!r})))")


@pytest.mark.parametrize("case", CASES)
def test_against_real_tf(real_tf_results, case):
    assert _evaluate([case])[case] == real_tf_results[case], case
