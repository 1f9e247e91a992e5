"""tf.linalg.banded_triangular_solve: lower/upper bands, adjoint, batches, vectors,
the invertibility error, gradients (finite differences and real TF's numbers)."""
import numpy as np
import pytest
from gradcheck import check_grads

import minitf as tf

LOWER = np.array([[2.0, 3.0, 4.0], [1.0, 2.0, 3.0]])  # diagonal, then the subdiagonal
UPPER = np.array([[2.0, 3.0, 4.0, 5.0], [-1.0, -2.0, -3.0, -4.0]])  # superdiagonal, diagonal


def test_lower_bands_equal_the_dense_solve():
    dense = tf.linalg.set_diag(tf.zeros([3, 3], tf.float64), LOWER, k=(-1, 0),
                               align="LEFT_RIGHT")
    rhs = np.arange(1.0, 7.0).reshape(3, 2)
    for adjoint in (False, True):
        np.testing.assert_allclose(
            tf.linalg.banded_triangular_solve(LOWER, rhs, adjoint=adjoint).numpy(),
            tf.linalg.triangular_solve(dense, rhs, adjoint=adjoint).numpy(), rtol=1e-12)


def test_numbers_from_real_tf():  # printed by TF 2.21 for these calls
    ones = tf.ones([3, 1], tf.float64)
    np.testing.assert_allclose(tf.linalg.banded_triangular_solve(LOWER, ones).numpy(),
                               [[0.5], [0.0], [0.25]])
    np.testing.assert_allclose(
        tf.linalg.banded_triangular_solve(LOWER, ones, adjoint=True).numpy(),
        [[0.4166666666], [0.0833333333], [0.25]], rtol=1e-9)
    out = tf.linalg.banded_triangular_solve(UPPER, tf.ones([4, 1], tf.float64), lower=False,
                                            adjoint=True)
    np.testing.assert_allclose(out.numpy(), [[-1.0], [-1.5], [-1.8333333333], [-2.0833333333]],
                               rtol=1e-9)
    x = tf.constant(LOWER)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.linalg.banded_triangular_solve(x, ones)
    np.testing.assert_allclose(tape.gradient(y, x).numpy(),
                               [[-0.20833333, 0.0, -0.0625], [0.0, -0.04166667, 0.0]], atol=1e-8)
    # More bands than the matrix has diagonals: the extra ones are ignored.
    np.testing.assert_allclose(
        tf.linalg.banded_triangular_solve(tf.ones([4, 3]), tf.ones([3, 1])).numpy(),
        [[1.0], [0.0], [0.0]])


def test_batches_vectors_gradients_and_graph():
    assert tf.linalg.banded_triangular_solve(LOWER, tf.ones([2, 3, 1], tf.float64)).shape == (
        2, 3, 1)
    vec = tf.linalg.banded_triangular_solve(LOWER, np.ones(3))
    np.testing.assert_allclose(vec.numpy(), [0.5, 0.0, 0.25])
    rhs = np.arange(1.0, 9.0).reshape(4, 2)
    check_grads(lambda b, r: tf.linalg.banded_triangular_solve(b, r, lower=False), UPPER, rhs)
    out = tf.function(tf.linalg.banded_triangular_solve)(tf.constant(LOWER),
                                                         tf.ones([3, 1], tf.float64))
    np.testing.assert_allclose(out.numpy(), [[0.5], [0.0], [0.25]])


def test_singular_matrix_error():
    with pytest.raises(tf.errors.InvalidArgumentError, match="Input matrix is not invertible"):
        tf.linalg.banded_triangular_solve(tf.constant([[0.0, 3.0, 4.0]]), tf.ones([3, 1]))
