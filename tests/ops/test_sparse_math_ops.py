"""tf.sparse.add/maximum/minimum, reduce_sum/reduce_max, softmax, `st * dense`, `st / dense`
and the element-wise ops that accept a SparseTensor.

Hand-derived values and finite-difference gradients; test_sparse_real_tf.py compares the
same calls with real TF.
"""
import numpy as np
import pytest

import minitf as tf
from gradcheck import check_grads


def parts(st):
    return st.indices.numpy().tolist(), st.values.numpy().tolist(), st.dense_shape.numpy().tolist()


def A(values=(1.0, -2.0, 3.0)):
    return tf.SparseTensor([[0, 0], [0, 2], [1, 1]], values, [2, 3])


def B(values=(-1.0, 0.25, 4.0)):
    return tf.SparseTensor([[0, 0], [1, 0], [1, 1]], values, [2, 3])


def test_add_merges_and_thresholds():
    assert parts(tf.sparse.add(A(), B())) == ([[0, 0], [0, 2], [1, 0], [1, 1]],
                                              [0.0, -2.0, 0.25, 7.0], [2, 3])
    # only a matched pair's sum is compared with the threshold; 0.25 (b alone) stays
    assert parts(tf.sparse.add(A(), B(), threshold=0.5))[1] == [-2.0, 0.25, 7.0]


def test_add_walks_unsorted_inputs_as_tf_does():
    u = tf.SparseTensor([[1, 1], [0, 0]], [1.0, 2.0], [2, 3])
    assert parts(tf.sparse.add(u, A()))[:2] == ([[0, 0], [0, 2], [1, 1], [0, 0]],
                                                [1.0, -2.0, 4.0, 2.0])


def test_add_sparse_and_dense_gives_dense():
    expected = [[2.0, 1.0, -1.0], [1.0, 4.0, 1.0]]
    assert tf.sparse.add(A(), tf.ones([2, 3])).numpy().tolist() == expected
    assert tf.sparse.add(tf.ones([2, 3]), A()).numpy().tolist() == expected


def test_add_errors():
    with pytest.raises(tf.errors.InvalidArgumentError, match="got 2 and 3 for dimension 0"):
        tf.sparse.add(A(), tf.SparseTensor([[0, 0]], [1.0], [3, 3]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="input #4"):
        tf.sparse.add(A(), tf.SparseTensor([[0, 0]], [1], [2, 3]))
    with pytest.raises(TypeError, match="At least one input should be SparseTensor"):
        tf.sparse.add(tf.ones([2]), tf.ones([2]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="sparse side 2 vs dense side 3"):
        tf.sparse.add(A(), tf.ones([3, 3]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="different ranks; received: 2 and 1"):
        tf.sparse.add(A(), tf.ones([3]))
    with pytest.raises(TypeError, match="Input must be a SparseTensor"):
        tf.sparse.maximum(A(), tf.ones([2, 3]))


def test_maximum_minimum_count_missing_as_zero():
    assert parts(tf.sparse.maximum(A(), B()))[:2] == ([[0, 0], [0, 2], [1, 0], [1, 1]],
                                                      [1.0, 0.0, 0.25, 4.0])
    assert parts(tf.sparse.minimum(A(), B()))[1] == [-1.0, -2.0, 0.0, 3.0]


def test_reduce_sum_dense_keepdims_sparse():
    assert tf.sparse.reduce_sum(A()).numpy() == 2.0
    assert tf.sparse.reduce_sum(A(), 1).numpy().tolist() == [-1.0, 3.0]
    assert tf.sparse.reduce_sum(A(), 1, keepdims=True).numpy().tolist() == [[-1.0], [3.0]]
    assert parts(tf.sparse.reduce_sum(A(), 0, output_is_sparse=True)) == (
        [[0], [1], [2]], [1.0, 3.0, -2.0], [3])
    assert parts(tf.sparse.reduce_sum(A(), None, output_is_sparse=True)) == ([[]], [2.0], [])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Invalid reduction dimension 2"):
        tf.sparse.reduce_sum(A(), 2)


def test_reduce_max_looks_at_stored_entries_only():
    neg = tf.SparseTensor([[0, 0], [1, 1]], [-1.0, -3.0], [2, 3])
    assert tf.sparse.reduce_max(neg, 1).numpy().tolist() == [-1.0, -3.0]
    assert tf.sparse.reduce_max(neg, 0).numpy().tolist() == [-1.0, -3.0, 0.0]
    assert parts(tf.sparse.reduce_max(neg, 0, output_is_sparse=True)) == (
        [[0], [1]], [-1.0, -3.0], [3])
    assert tf.sparse.reduce_max(neg).numpy() == -1.0


def test_softmax_per_row_of_stored_entries():
    st = tf.SparseTensor([[0, 0], [0, 2], [1, 1], [1, 2]], [1.0, 2.0, 3.0, 3.0], [2, 3])
    e = np.exp([1.0, 2.0])
    np.testing.assert_allclose(tf.sparse.softmax(st).values.numpy(),
                               [e[0] / e.sum(), e[1] / e.sum(), 0.5, 0.5], rtol=1e-6)
    with pytest.raises(tf.errors.InvalidArgumentError, match="rank >= 2"):
        tf.sparse.softmax(tf.SparseTensor([[0]], [1.0], [3]))


def test_cwise_mul_div_broadcast_dense_to_sparse():
    assert parts(A() * tf.constant([[1.0], [2.0]]))[1] == [1.0, -2.0, 6.0]
    assert parts(A() / tf.constant([[1.0, 2.0, 4.0]]))[1] == [1.0, -0.5, 1.5]
    half = tf.SparseTensor([[0, 0]], [1], [2, 2]) / 2
    assert half.dtype == tf.float64 and half.values.numpy().tolist() == [0.5]
    with pytest.raises(tf.errors.InvalidArgumentError, match="broadcasts dense to sparse only"):
        A() * tf.constant([[[1.0]]])
    with pytest.raises(tf.errors.InvalidArgumentError, match="cannot divide by zero"):
        A() / tf.constant(0.0)
    with pytest.raises(TypeError):
        A() + A()  # noqa: B018 - TF has no + between SparseTensors: tf.sparse.add


def test_zero_preserving_ops_accept_sparse_and_others_refuse():
    assert parts(tf.abs(A()))[1] == [1.0, 2.0, 3.0]
    assert parts(tf.math.negative(A()))[1] == [-1.0, 2.0, -3.0]
    assert tf.cast(A(), tf.int32).dtype == tf.int32
    assert parts(tf.identity(A()))[1] == [1.0, -2.0, 3.0]
    assert tf.abs(tf.constant(-2.0)).numpy() == 2.0  # the dense path is unchanged
    with pytest.raises(ValueError, match="Attempt to convert"):
        tf.exp(A())  # exp(0) = 1: not zero-preserving, so TF refuses too


def test_add_gradients_sparse_sparse_and_dense():
    def f(a, b):
        return tf.sparse.add(A(a), B(b), threshold=0.1).values
    check_grads(f, np.array([1.0, -2.0, 3.0]), np.array([-1.0, 0.25, 4.0]))

    def g(a, dense):
        return tf.sparse.add(A(a), dense)
    check_grads(g, np.array([1.0, -2.0, 3.0]), np.ones([2, 3]))


@pytest.mark.parametrize("axis, keepdims", [(None, False), (1, False), (0, True), ([0, 1], True)])
def test_reduce_sum_gradient(axis, keepdims):
    check_grads(lambda v: tf.sparse.reduce_sum(A(v), axis, keepdims), np.array([1.0, -2.0, 3.0]))


def test_softmax_gradient_first_and_second_order():
    def f(v):
        st = tf.SparseTensor([[0, 0], [0, 2], [1, 1], [1, 2]], v, [2, 3])
        return tf.sparse.softmax(st).values
    check_grads(f, np.array([0.5, -1.0, 2.0, 0.3]), order=2)


def test_cwise_gradients():
    check_grads(lambda v, d: (A(v) * d).values, np.array([1.0, -2.0, 3.0]),
                np.array([[1.5], [2.0]]))
    check_grads(lambda v, d: (A(v) / d).values, np.array([1.0, -2.0, 3.0]),
                np.array([1.5, 2.0, 3.0]))


def test_math_inside_tf_function():
    @tf.function
    def f(v):
        s = tf.sparse.softmax(A(v))
        return tf.sparse.reduce_sum(tf.sparse.add(s, A(v)), 1)
    e = np.exp([1.0, -2.0])
    expected = [e[0] / e.sum() + e[1] / e.sum() + 1.0 - 2.0, 1.0 + 3.0]
    np.testing.assert_allclose(f(tf.constant([1.0, -2.0, 3.0])).numpy(), expected, rtol=1e-6)
