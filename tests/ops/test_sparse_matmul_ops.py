"""tf.sparse.sparse_dense_matmul, sampled_addmm, segment_sum/mean/sqrt_n, bincount, cross and
cross_hashed.

Hand-derived values (NumPy products), finite-difference gradients;
test_sparse_real_tf.py compares the same calls with real TF.
"""
import numpy as np
import pytest

import minitf as tf
from gradcheck import check_grads

INDICES = [[0, 0], [0, 2], [1, 1]]


def A(values=(1.0, -2.0, 3.0)):
    return tf.SparseTensor(INDICES, values, [2, 3])


def dense_a(values=(1.0, -2.0, 3.0)):
    out = np.zeros([2, 3])
    for (i, j), v in zip(INDICES, values):
        out[i, j] = v
    return out


def parts(st):
    return st.indices.numpy().tolist(), st.values.numpy().tolist(), st.dense_shape.numpy().tolist()


@pytest.mark.parametrize("adjoint_a, adjoint_b", [(False, False), (True, False), (False, True),
                                                  (True, True)])
def test_sparse_dense_matmul_equals_the_dense_product(adjoint_a, adjoint_b):
    a = dense_a().T if adjoint_a else dense_a()
    used = np.arange(6.0, dtype=np.float32).reshape(a.shape[1], -1)  # b after its adjoint
    b = used.T if adjoint_b else used
    expected = a @ used
    got = tf.sparse.sparse_dense_matmul(A(), b, adjoint_a=adjoint_a, adjoint_b=adjoint_b)
    np.testing.assert_allclose(got.numpy(), expected)


def test_dense_times_sparse():
    b = np.arange(4.0, dtype=np.float32).reshape(2, 2)
    np.testing.assert_allclose(tf.sparse.sparse_dense_matmul(b, A()).numpy(), b @ dense_a())


def test_sparse_dense_matmul_errors():
    with pytest.raises(tf.errors.InvalidArgumentError, match="inner dimension does not match"):
        tf.sparse.sparse_dense_matmul(A(), tf.ones([2, 2]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="input #3"):
        tf.sparse.sparse_dense_matmul(A(), tf.ones([3, 2], tf.float64))


@pytest.mark.parametrize("adjoint_a, adjoint_b", [(False, False), (True, True)])
def test_sparse_dense_matmul_gradients(adjoint_a, adjoint_b):
    used = np.arange(6.0).reshape((2, 3) if adjoint_a else (3, 2)) / 3
    b = used.T if adjoint_b else used
    check_grads(lambda v, m: tf.sparse.sparse_dense_matmul(A(v), m, adjoint_a, adjoint_b),
                np.array([1.0, -2.0, 3.0]), b)


def test_sampled_addmm():
    indices, values, shape = tf.sparse.sampled_addmm([[0, 0], [1, 1]], [1.0, 2.0], [2, 2],
                                                     tf.ones([2, 3]), tf.ones([3, 2]),
                                                     beta=0.5, alpha=2.0)
    assert values.numpy().tolist() == [6.5, 7.0] and shape.dtype == tf.int32
    with pytest.raises(ValueError, match="does not match output shape"):
        tf.sparse.sampled_addmm([[0, 0]], [1.0], [3, 2], tf.ones([2, 3]), tf.ones([3, 2]))


DATA = [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]


def test_segment_reductions():
    assert tf.sparse.segment_sum(tf.constant(DATA), [0, 1, 2], [0, 0, 1]).numpy().tolist() == \
        [[4, 6], [5, 6]]
    assert tf.sparse.segment_sum(tf.constant(DATA), [0, 2], [0, 2],
                                 num_segments=4).numpy().tolist() == \
        [[1, 2], [0, 0], [5, 6], [0, 0]]
    assert tf.sparse.segment_mean(tf.constant(DATA), [0, 1, 2], [0, 0, 2]).numpy().tolist() == \
        [[2, 3], [0, 0], [5, 6]]
    np.testing.assert_allclose(
        tf.sparse.segment_sqrt_n(tf.constant(DATA), [0, 1, 2], [0, 0, 1]).numpy(),
        [[4 / np.sqrt(2), 6 / np.sqrt(2)], [5, 6]], rtol=1e-6)


def test_segment_errors():
    with pytest.raises(tf.errors.InvalidArgumentError, match="not increasing"):
        tf.sparse.segment_sum(tf.constant(DATA), [0, 1, 2], [1, 0, 0])
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"indices\[2\] == 5 out of range"):
        tf.sparse.segment_sum(tf.constant(DATA), [0, 1, 5], [0, 0, 1])
    with pytest.raises(tf.errors.InvalidArgumentError, match="int32 is not in the list"):
        tf.sparse.segment_mean(tf.constant([1, 2, 3]), [0, 1, 2], [0, 0, 1])


@pytest.mark.parametrize("fn", [tf.sparse.segment_sum, tf.sparse.segment_mean,
                                tf.sparse.segment_sqrt_n])
def test_segment_gradients(fn):
    check_grads(lambda d: fn(d, [0, 2, 2, 1], [0, 0, 1, 3]), np.array(DATA))


def test_segment_mean_gradient_in_a_graph():
    @tf.function
    def grad(d):
        with tf.GradientTape() as tape:
            tape.watch(d)
            y = tf.reduce_sum(tf.sparse.segment_mean(d, [0, 1, 2], [0, 0, 1]))
        return tape.gradient(y, d)
    assert grad(tf.constant(DATA)).numpy().tolist() == [[0.5, 0.5], [0.5, 0.5], [1, 1]]


def test_bincount_dense_and_sparse():
    assert parts(tf.sparse.bincount(tf.constant([1, 1, 3]))) == ([[1], [3]], [2, 1], [4])
    assert parts(tf.sparse.bincount(tf.constant([[1, 1, 3], [2, 2, 0]]), axis=-1)) == (
        [[0, 1], [0, 3], [1, 0], [1, 2]], [2, 1, 1, 2], [2, 4])
    assert parts(tf.sparse.bincount(tf.constant([1, 1, 3]), weights=[0.5, 1.0, 2.0]))[1] == \
        [1.5, 2.0]
    assert parts(tf.sparse.bincount(tf.constant([1, 1, 3]), minlength=6))[2] == [6]
    assert parts(tf.sparse.bincount(tf.constant([1, 1, 3]), maxlength=2)) == ([[1]], [2], [2])
    assert parts(tf.sparse.bincount(tf.constant([1, 1, 3]), binary_output=True))[1] == [1, 1]
    st = tf.SparseTensor([[0, 0], [0, 1], [1, 1]], [2, 2, 5], [2, 3])
    assert parts(tf.sparse.bincount(st, axis=-1)) == ([[0, 2], [1, 5]], [2, 1], [2, 6])
    assert tf.sparse.bincount(tf.constant([1], tf.int64)).dtype == tf.int64
    assert parts(tf.sparse.bincount(tf.zeros([0], tf.int32))) == ([], [], [1])  # one empty bin


def test_bincount_errors():
    with pytest.raises(tf.errors.InvalidArgumentError, match="must all be non-negative"):
        tf.sparse.bincount(tf.constant([1, -1]))
    with pytest.raises(ValueError, match="Only 0 and -1"):
        tf.sparse.bincount(tf.constant([[1]]), axis=1)


def test_cross_puts_sparse_inputs_first():
    st = tf.SparseTensor([[0, 0], [1, 0], [1, 1]], ["x", "y", "z"], [2, 2])
    out = tf.sparse.cross([tf.constant([["a", "b"], ["c", "d"]]), st])
    assert parts(out) == ([[0, 0], [0, 1], [1, 0], [1, 1], [1, 2], [1, 3]],
                          [b"x_X_a", b"x_X_b", b"y_X_c", b"y_X_d", b"z_X_c", b"z_X_d"], [2, 4])
    assert parts(tf.sparse.cross([tf.constant([["a"]]), tf.constant([[1]])],
                                 separator="-"))[1] == [b"a-1"]


def test_cross_hashed_matches_ragged_cross_hashed():
    inputs = [tf.constant([["a", "b"], ["c", "d"]]), tf.constant([[1], [2]])]
    out = tf.sparse.cross_hashed(inputs, num_buckets=10)
    assert out.values.numpy().tolist() == \
        tf.ragged.cross_hashed(inputs, num_buckets=10).flat_values.numpy().tolist()
    assert out.dtype == tf.int64 and parts(out)[2] == [2, 2]


def test_graph_equals_eager_for_products_counts_and_gradients():
    def body(v, m):
        with tf.GradientTape() as tape:
            tape.watch([v, m])
            product = tf.sparse.sparse_dense_matmul(A(v), m)
            y = tf.reduce_sum(tf.sin(product))
        return [product, tf.sparse.segment_sqrt_n(m, [0, 1, 2], [0, 0, 1]),
                tf.sparse.bincount(tf.constant([1, 1, 3])).values] + tape.gradient(y, [v, m])
    v, m = tf.constant([1.0, -2.0, 3.0]), tf.reshape(tf.range(6.0), [3, 2])
    for graph, eager in zip(tf.function(body)(v, m), body(v, m)):
        np.testing.assert_allclose(graph.numpy(), eager.numpy(), rtol=1e-6)
