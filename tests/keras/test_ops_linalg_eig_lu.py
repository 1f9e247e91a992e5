"""keras.ops.eig / lu_factor (and keras.ops.linalg.*): Keras 3's TensorFlow backend."""
import numpy as np
import pytest

import minitf as tf
from minitf.keras import ops

A = np.array([[1.0, 2.0, 0.0], [3.0, 4.0, 1.0], [0.0, 1.0, 5.0]], np.float32)


def test_lu_factor_returns_inverted_pivots_like_keras():
    lu, pivots = ops.lu_factor(A)
    assert ops.linalg.lu_factor is ops.lu_factor
    # Values printed by Keras 3.15 (TF backend) for this matrix:
    np.testing.assert_allclose(lu.numpy(), [[3, 4, 1], [0, 1, 5], [1 / 3, 2 / 3, -11 / 3]],
                               rtol=1e-6, atol=1e-7)
    assert pivots.numpy().tolist() == [2, 0, 1]
    lower = np.tril(lu.numpy(), -1) + np.eye(3)
    np.testing.assert_allclose((lower @ np.triu(lu.numpy()))[pivots.numpy()], A, atol=1e-6)


def test_eig():
    e, v = ops.linalg.eig(A)
    assert ops.eig is ops.linalg.eig and e.dtype == tf.complex64
    np.testing.assert_allclose(A @ v.numpy(), v.numpy() * e.numpy(), atol=1e-5)


def test_errors():
    with pytest.raises(ValueError, match="LU decomposition failed: Expected a square matrix. "
                       r"Received non-square input with shape \(2, 3\). LU decomposition is "
                       "only supported for square matrices in Tensorflow."):
        ops.lu_factor(tf.zeros([2, 3]))
    with pytest.raises(ValueError, match="Expected a square matrix"):
        ops.eig(tf.zeros([2, 3]))
    with pytest.raises(ValueError, match="not enough values to unpack"):
        ops.eig(tf.zeros([3]))
