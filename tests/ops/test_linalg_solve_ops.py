"""tf.linalg.inv, det, slogdet, logdet, solve, triangular_solve, cholesky_solve
and lstsq: values against numpy.linalg, batching, gradients on well-conditioned
random matrices, and TF's errors."""
import numpy as np
import pytest
from gradcheck import check_grads
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from strategies import arrays

import minitf as tf

batch_shapes = hnp.array_shapes(min_dims=0, max_dims=2, min_side=1, max_side=2)
sizes = st.integers(1, 3)


def well_conditioned(shape, seed=0):
    """A random matrix plus n on the diagonal: far from singular."""
    n = shape[-1]
    return arrays(shape, -1.0, 1.0, seed) + n * np.eye(n)


def spd(shape, seed=0):
    """A random symmetric positive definite matrix: X X^T + n I."""
    x = arrays(shape, -1.0, 1.0, seed)
    return x @ np.swapaxes(x, -1, -2) + shape[-1] * np.eye(shape[-1])


def spd_of(x):
    """The same construction in minitf, so gradients see a symmetric input."""
    n = x.shape[-1]
    return tf.matmul(x, x, transpose_b=True) + n * tf.eye(n, dtype=x.dtype)


# --- inv ---------------------------------------------------------------------------------
@given(batch_shapes, sizes)
def test_inv(batch, n):
    a = well_conditioned(batch + (n, n))
    np.testing.assert_allclose(tf.linalg.inv(a).numpy(), np.linalg.inv(a), rtol=1e-10)
    np.testing.assert_allclose(tf.linalg.inv(a, adjoint=True).numpy(),
                               np.linalg.inv(np.swapaxes(a, -1, -2)), rtol=1e-10)
    check_grads(tf.linalg.inv, a)


@pytest.mark.parametrize("adjoint", [False, True])
def test_inv_second_order(adjoint):
    check_grads(lambda x: tf.linalg.inv(x, adjoint=adjoint), well_conditioned((2, 3, 3)),
                order=2)


@pytest.mark.parametrize("dtype", [tf.float16, tf.float32, tf.float64, tf.complex64])
def test_inv_dtypes(dtype):
    out = tf.linalg.inv(tf.constant([[2.0, 0.0], [0.0, 4.0]], dtype))
    assert out.dtype is dtype
    np.testing.assert_allclose(out.numpy(), [[0.5, 0], [0, 0.25]])


def test_inv_complex_adjoint():
    a = np.array([[2 + 1j, 1j], [0.5, 3 - 1j]])
    np.testing.assert_allclose(tf.linalg.inv(a, adjoint=True).numpy(),
                               np.linalg.inv(a.conj().T))


# --- det, slogdet, logdet ------------------------------------------------------------------
@given(batch_shapes, sizes)
def test_det(batch, n):
    a = well_conditioned(batch + (n, n))
    np.testing.assert_allclose(tf.linalg.det(a).numpy(), np.linalg.det(a), rtol=1e-10)
    check_grads(tf.linalg.det, a)


def test_det_second_order_and_float32():
    check_grads(tf.linalg.det, well_conditioned((2, 3, 3)), order=2)
    out = tf.linalg.det(tf.constant([[1.0, 2.0], [3.0, 4.0]]))
    assert out.dtype is tf.float32 and abs(float(out) + 2.0) < 1e-6
    assert float(tf.linalg.det(tf.ones([0, 0]))) == 1.0  # the empty product
    assert float(tf.linalg.det([[1.0, 2.0], [2.0, 4.0]])) == 0.0  # singular: no error


@given(batch_shapes, sizes)
def test_slogdet(batch, n):
    a = arrays(batch + (n, n), seed=3) + 0.5 * np.eye(n)
    sign, log_abs = tf.linalg.slogdet(a)
    expected_sign, expected_log = np.linalg.slogdet(a)
    np.testing.assert_allclose(sign.numpy(), expected_sign)
    np.testing.assert_allclose(log_abs.numpy(), expected_log, rtol=1e-10)
    assert tf.linalg.slogdet(a).log_abs_determinant is not None
    check_grads(lambda x: tf.linalg.slogdet(x)[1], well_conditioned(batch + (n, n)))


def test_slogdet_named_fields_and_singular():
    result = tf.linalg.slogdet(tf.constant([[1.0, 2.0], [3.0, 4.0]]))
    assert float(result.sign) == -1.0 and abs(float(result.log_abs_determinant) - np.log(2)) < 1e-6
    assert "LogMatrixDeterminant(sign=" in repr(result)
    sign, log_abs = tf.linalg.slogdet([[1.0, 2.0], [2.0, 4.0]])
    assert float(sign) == 0.0 and float(log_abs) == -np.inf
    check_grads(lambda x: tf.linalg.slogdet(x)[1], well_conditioned((3, 3)), order=2)


def test_logdet():
    a = spd((2, 3, 3))
    np.testing.assert_allclose(tf.linalg.logdet(a).numpy(), np.linalg.slogdet(a)[1], rtol=1e-10)
    check_grads(lambda x: tf.linalg.logdet(spd_of(x)), arrays((3, 3)))


# --- solve ----------------------------------------------------------------------------------
@given(batch_shapes, sizes, sizes)
def test_solve(batch, n, k):
    a, b = well_conditioned(batch + (n, n), 1), arrays(batch + (n, k), seed=2)
    np.testing.assert_allclose(tf.linalg.solve(a, b).numpy(), np.linalg.solve(a, b), rtol=1e-10)
    at = np.swapaxes(a, -1, -2)
    np.testing.assert_allclose(tf.linalg.solve(a, b, adjoint=True).numpy(),
                               np.linalg.solve(at, b), rtol=1e-10)
    check_grads(tf.linalg.solve, a, b)
    check_grads(lambda x, y: tf.linalg.solve(x, y, adjoint=True), a, b)


def test_solve_second_order():
    check_grads(tf.linalg.solve, well_conditioned((2, 3, 3)), arrays((2, 3, 2)), order=2)


# --- triangular_solve -------------------------------------------------------------------------
@pytest.mark.parametrize("lower", [True, False])
@pytest.mark.parametrize("adjoint", [False, True])
def test_triangular_solve_reads_one_triangle(lower, adjoint):
    a, b = well_conditioned((2, 3, 3), 1), arrays((2, 3, 2), seed=2)
    tri = np.tril(a) if lower else np.triu(a)
    if adjoint:
        tri = np.swapaxes(tri, -1, -2)
    out = tf.linalg.triangular_solve(a, b, lower=lower, adjoint=adjoint)
    np.testing.assert_allclose(out.numpy(), np.linalg.solve(tri, b), rtol=1e-10)
    check_grads(lambda x, y: tf.linalg.triangular_solve(x, y, lower=lower, adjoint=adjoint),
                a, b, order=2)


@given(hnp.mutually_broadcastable_shapes(num_shapes=2, min_dims=0, max_dims=2, max_side=2),
       sizes)
def test_triangular_solve_broadcasts_batches(shapes, n):
    a = well_conditioned(shapes.input_shapes[0] + (n, n), 1)
    b = arrays(shapes.input_shapes[1] + (n, 2), seed=2)
    np.testing.assert_allclose(tf.linalg.triangular_solve(a, b).numpy(),
                               np.linalg.solve(np.tril(a), b), rtol=1e-10)
    check_grads(tf.linalg.triangular_solve, a, b)


def test_triangular_solve_zero_pivot_gives_inf_like_tf():
    out = tf.linalg.triangular_solve(tf.constant([[0.0, 0.0], [1.0, 1.0]]), tf.ones([2, 1]))
    assert out.numpy().ravel().tolist() == [np.inf, -np.inf]


def test_cholesky_solve():
    a, b = spd((2, 3, 3)), arrays((2, 3, 2))
    chol = np.linalg.cholesky(a)
    np.testing.assert_allclose(tf.linalg.cholesky_solve(chol, b).numpy(), np.linalg.solve(a, b),
                               rtol=1e-10)
    check_grads(tf.linalg.cholesky_solve, chol, b)


# --- lstsq ------------------------------------------------------------------------------------
@pytest.mark.parametrize("shape", [(4, 2), (2, 2), (2, 4), (3, 4, 2)])
def test_lstsq_matches_pseudo_inverse(shape):
    a, b = arrays(shape, seed=1), arrays(shape[:-1] + (2,), seed=2)
    expected = np.linalg.pinv(a) @ b
    np.testing.assert_allclose(tf.linalg.lstsq(a, b).numpy(), expected, rtol=1e-8, atol=1e-10)
    np.testing.assert_allclose(tf.linalg.lstsq(a, b, fast=False).numpy(), expected, rtol=1e-8,
                               atol=1e-10)
    check_grads(tf.linalg.lstsq, a, b)


def test_lstsq_l2_regularizer():
    a = np.array([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    b = np.array([[1.0], [2.0], [3.0]])
    out = tf.linalg.lstsq(a, b, l2_regularizer=0.5)
    expected = np.linalg.solve(a.T @ a + 0.5 * np.eye(2), a.T @ b)  # TF: [[0.952], [1.619]]
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-10)
    check_grads(lambda x, y: tf.linalg.lstsq(x, y, l2_regularizer=0.5), a, b)


# --- errors -------------------------------------------------------------------------------------
ERRORS = [
    (lambda: tf.linalg.inv([[1.0, 2.0], [2.0, 4.0]]),
     r"Input is not invertible. \[Op:MatrixInverse\]"),
    (lambda: tf.linalg.inv(tf.ones([2, 3])), r"Input matrix must be square. \[Op:MatrixInverse\]"),
    (lambda: tf.linalg.inv(tf.ones([3])), "Input tensor 0 must have rank >= 2, got 1"),
    (lambda: tf.linalg.inv(tf.constant([[1, 2], [3, 4]])),
     "Value for attr 'T' of int32 is not in the list of allowed values"),
    (lambda: tf.linalg.det(tf.ones([2, 3])),
     r"Input matrix must be square. \[Op:MatrixDeterminant\]"),
    (lambda: tf.linalg.det(tf.ones([3])), "Input tensor 0 must have rank >= 2, got 1"),
    (lambda: tf.linalg.det(tf.ones([3, 3], tf.int32)), "Value for attr 'T' of int32"),
    (lambda: tf.linalg.slogdet(tf.ones([2, 3])),
     r"Input matrix must be square. \[Op:LogMatrixDeterminant\]"),
    (lambda: tf.linalg.solve([[1.0, 2.0], [2.0, 4.0]], tf.ones([2, 1])),
     "Input matrix is not invertible"),
    (lambda: tf.linalg.solve(tf.eye(2), tf.ones([3, 1])), "Input matrix and rhs are incompatible"),
    (lambda: tf.linalg.solve(tf.ones([2, 3]), tf.ones([2, 1])),
     r"First input \(lhs\) must be a square matrix"),
    (lambda: tf.linalg.solve(tf.eye(2, batch_shape=[3]), tf.ones([2, 1])),
     "All input tensors must have the same rank"),
    (lambda: tf.linalg.solve(tf.eye(2), tf.ones([2])), "All input tensors must have the same rank"),
    (lambda: tf.linalg.solve(tf.eye(2, batch_shape=[3]), tf.ones([1, 2, 1])),
     "All input tensors must have the same outer dimensions"),
    (lambda: tf.linalg.solve(tf.ones([2]), tf.ones([2, 1])),
     "Input tensor 0 must have rank >= 2, got 1"),
    (lambda: tf.linalg.solve(tf.eye(3), tf.ones([3, 1], tf.float64)),
     "expected to be a float tensor but is a double tensor"),
    (lambda: tf.linalg.triangular_solve(tf.eye(2), tf.ones([3, 1])),
     r"In\[0\] mismatch In\[1\] shape: 2 vs. 3: \[2,2\] \[3,1\] 1 0"),
    (lambda: tf.linalg.triangular_solve(tf.eye(2), tf.ones([3, 1]), lower=False, adjoint=True),
     r"In\[0\] mismatch In\[1\] shape: 2 vs. 3: \[2,2\] \[3,1\] 0 1"),
    (lambda: tf.linalg.triangular_solve(tf.eye(2, batch_shape=[3]), tf.ones([4, 2, 1])),
     r"must have compatible batch dimensions: \[3,2,2\] vs. \[4,2,1\]"),
    (lambda: tf.linalg.triangular_solve(tf.ones([2, 3]), tf.ones([2, 1])),
     r"In\[0\] matrices in the last dimensions must be square \(3 =/= 2\)"),
    (lambda: tf.linalg.triangular_solve(tf.eye(2), tf.ones([2])), r"In\[1\] ndims must be >= 2: 1"),
    (lambda: tf.linalg.triangular_solve(tf.ones([2]), tf.ones([2, 1])),
     r"In\[0\] ndims must be >= 2: 1"),
    (lambda: tf.linalg.triangular_solve(tf.eye(2, dtype=tf.int32), tf.ones([2, 1], tf.int32)),
     "Value for attr 'T' of int32"),
    (lambda: tf.linalg.lstsq([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]], tf.ones([2, 1])),
     r"Matrix size-incompatible: In\[0\]: \[3,2\], In\[1\]: \[2,1\]"),
    (lambda: tf.linalg.lstsq(tf.ones([3, 2]), tf.ones([2, 1]), fast=False),
     r"Input matrix and rhs are incompatible. \[Op:MatrixSolveLs\]"),
    (lambda: tf.linalg.lstsq(tf.ones([3, 2]), tf.ones([3]), fast=False),
     "All input tensors must have the same rank"),
]


@pytest.mark.parametrize("call,message", ERRORS)
def test_errors(call, message):
    with pytest.raises(tf.errors.InvalidArgumentError, match=message):
        call()
