"""tf.linalg.cholesky, eigh, eigvalsh, qr and svd: values against numpy.linalg,
shapes, gradients, and TF's errors.

Eigenvectors and singular vectors are defined only up to sign, so their
gradients are checked through functions that do not care about the sign:
the values themselves, elementwise squares of the vectors, and
reconstructions such as V diag(e) V^T."""
import warnings

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


def spd_of(x):
    """X X^T + n I: symmetric positive definite, built in minitf so gradients see it."""
    n = x.shape[-1]
    return tf.matmul(x, x, transpose_b=True) + n * tf.eye(n, dtype=x.dtype)


def spd(shape, seed=0):
    return spd_of(tf.constant(arrays(shape, seed=seed))).numpy()


def distinct_spectrum(shape, seed=0):
    """A symmetric matrix whose eigenvalues are well separated (gradients divide by gaps)."""
    n = shape[-1]
    q, _ = np.linalg.qr(arrays(shape, seed=seed))
    e = np.arange(1.0, n + 1.0) * 1.5
    return q @ (e[:, None] * np.swapaxes(q, -1, -2))


# --- cholesky --------------------------------------------------------------------------------
@given(batch_shapes, sizes)
def test_cholesky(batch, n):
    a = spd(batch + (n, n))
    chol = tf.linalg.cholesky(a).numpy()
    np.testing.assert_allclose(chol, np.linalg.cholesky(a), rtol=1e-10)
    np.testing.assert_allclose(chol @ np.swapaxes(chol, -1, -2), a, rtol=1e-10)
    check_grads(lambda x: tf.linalg.cholesky(spd_of(x)), arrays(batch + (n, n), seed=1))


def test_cholesky_reads_only_the_lower_triangle_and_second_order():
    out = tf.linalg.cholesky(tf.constant([[4.0, 100.0], [1.0, 4.0]]))
    np.testing.assert_allclose(out.numpy(), [[2, 0], [0.5, np.sqrt(3.75)]], rtol=1e-6)
    check_grads(lambda x: tf.linalg.cholesky(spd_of(x)), arrays((3, 3), seed=2), order=2)


def test_cholesky_of_a_non_positive_definite_matrix_fills_nan_like_tf():
    batch = np.array([[[4.0, 0.0], [0.0, 1.0]], [[1.0, 2.0], [2.0, 1.0]]])
    with pytest.warns(RuntimeWarning, match="Cholesky decomposition was not successful"):
        out = tf.linalg.cholesky(batch).numpy()
    np.testing.assert_array_equal(out[0], [[2, 0], [0, 1]])  # the good matrix is unaffected
    assert np.isnan(out[1][np.tril_indices(2)]).all()


# --- eigh / eigvalsh ---------------------------------------------------------------------------
@given(batch_shapes, sizes)
def test_eigh_values_and_vectors(batch, n):
    a = distinct_spectrum(batch + (n, n))
    e, v = tf.linalg.eigh(a)
    np.testing.assert_allclose(e.numpy(), np.linalg.eigvalsh(a), rtol=1e-10, atol=1e-12)
    np.testing.assert_allclose(a @ v.numpy(), v.numpy() * e.numpy()[..., None, :], atol=1e-10)
    np.testing.assert_allclose(tf.linalg.eigvalsh(a).numpy(), e.numpy(), rtol=1e-12)
    check_grads(tf.linalg.eigvalsh, a)
    check_grads(lambda x: tf.linalg.eigh(x)[0] ** 2, a)


def test_eigh_reads_only_the_lower_triangle():
    e = tf.linalg.eigvalsh(tf.constant([[1.0, 100.0], [2.0, 1.0]]))
    np.testing.assert_allclose(e.numpy(), [-1.0, 3.0], rtol=1e-6)


def test_eigh_vector_gradients_through_sign_free_functions():
    a = distinct_spectrum((2, 3, 3), seed=4)
    check_grads(lambda x: tf.linalg.eigh(x)[1] ** 2, a)

    def reconstruct(x):
        e, v = tf.linalg.eigh(x)
        return tf.matmul(v * e[..., None, :] ** 2, v, transpose_b=True)  # = A^2 (sym part)

    check_grads(reconstruct, a, order=2)
    check_grads(lambda x: tf.reduce_sum(tf.linalg.eigvalsh(x) ** 2), a[0], order=2)


def test_eigh_complex_hermitian():
    a = np.array([[2.0, 1j], [-1j, 2.0]])
    e, v = tf.linalg.eigh(a)
    assert e.dtype is tf.complex128  # TF keeps the input dtype for the eigenvalues
    np.testing.assert_allclose(e.numpy(), [1.0, 3.0])
    np.testing.assert_allclose(a @ v.numpy(), v.numpy() * e.numpy(), atol=1e-12)


# --- qr ------------------------------------------------------------------------------------------
@given(batch_shapes, sizes, sizes)
def test_qr(batch, m, n):
    a = arrays(batch + (m, n), seed=5)
    q, r = tf.linalg.qr(a)
    nq, nr = np.linalg.qr(a)  # same LAPACK sign convention as TF's
    np.testing.assert_allclose(q.numpy(), nq, atol=1e-12)
    np.testing.assert_allclose(r.numpy(), nr, atol=1e-12)
    check_grads(lambda x: tf.linalg.qr(x).q, a)
    check_grads(lambda x: tf.linalg.qr(x).r, a)


def test_qr_full_matrices_shapes_and_values():
    q, r = tf.linalg.qr(arrays((4, 3)), full_matrices=True)
    assert (q.shape, r.shape) == (tf.TensorShape([4, 4]), tf.TensorShape([4, 3]))
    np.testing.assert_allclose(q.numpy() @ r.numpy(), arrays((4, 3)), atol=1e-12)
    q, r = tf.linalg.qr(tf.ones([2, 3]))
    assert (q.shape, r.shape) == (tf.TensorShape([2, 2]), tf.TensorShape([2, 3]))
    assert "Qr(q=" in repr(tf.linalg.qr(tf.eye(2)))
    assert tf.linalg.qr(tf.eye(3, dtype=tf.float16)).q.dtype is tf.float16


def test_qr_second_order_and_full_gradient_error():
    check_grads(lambda x: tf.linalg.qr(x).r, arrays((3, 2), seed=6), order=2)
    x = tf.constant(arrays((3, 2)))
    with tf.GradientTape() as tape:
        tape.watch(x)
        q, r = tf.linalg.qr(x, full_matrices=True)
    with pytest.raises(NotImplementedError, match="nrows > ncols and full_matrices is true"):
        tape.gradient(r, x)


# --- svd -----------------------------------------------------------------------------------------
@given(batch_shapes, sizes, sizes)
def test_svd_values_and_reconstruction(batch, m, n):
    a = arrays(batch + (m, n), seed=7)
    s, u, v = tf.linalg.svd(a)  # TF's order: s first, and v (not v^H)
    np.testing.assert_allclose(s.numpy(), np.linalg.svd(a, compute_uv=False), rtol=1e-10)
    rebuilt = (u.numpy() * s.numpy()[..., None, :]) @ np.swapaxes(v.numpy(), -1, -2)
    np.testing.assert_allclose(rebuilt, a, atol=1e-10)
    k = min(m, n)
    assert u.shape[-2:] == tf.TensorShape([m, k]) and v.shape[-2:] == tf.TensorShape([n, k])
    np.testing.assert_allclose(tf.linalg.svd(a, compute_uv=False).numpy(), s.numpy())
    check_grads(lambda x: tf.linalg.svd(x, compute_uv=False), a)


@pytest.mark.parametrize("shape", [(3, 3), (4, 2), (2, 4), (2, 3, 2)])
def test_svd_gradients_through_sign_free_functions(shape):
    a = arrays(shape, seed=8)
    check_grads(lambda x: tf.linalg.svd(x)[0], a)
    check_grads(lambda x: tf.linalg.svd(x)[1] ** 2, a)
    check_grads(lambda x: tf.linalg.svd(x)[2] ** 2, a)

    def rebuild(x):
        s, u, v = tf.linalg.svd(x)
        return tf.matmul(u * s[..., None, :], v, adjoint_b=True)  # = x, via every output

    check_grads(rebuild, a)


@pytest.mark.parametrize("shape", [(3, 3), (3, 4), (4, 3)])
def test_svd_full_matrices(shape):
    a = arrays(shape, seed=9)
    s, u, v = tf.linalg.svd(a, full_matrices=True)
    assert u.shape == tf.TensorShape([shape[0]] * 2) and v.shape == tf.TensorShape([shape[1]] * 2)
    np.testing.assert_allclose(u.numpy().T @ u.numpy(), np.eye(shape[0]), atol=1e-12)

    def rebuild(x):
        s, u, v = tf.linalg.svd(x, full_matrices=True)
        k = min(shape)
        return tf.matmul(u[:, :k] * s, v[:, :k], adjoint_b=True)

    check_grads(rebuild, a)


def test_svd_second_order_of_singular_values():
    check_grads(lambda x: tf.linalg.svd(x, compute_uv=False), arrays((3, 2), seed=10), order=2)


def test_svd_float32_and_complex():
    s = tf.linalg.svd(tf.constant([[3.0, 0.0], [0.0, -4.0]]), compute_uv=False)
    assert s.dtype is tf.float32 and s.numpy().tolist() == [4.0, 3.0]
    c = np.array([[2.0, 1j], [-1j, 2.0]])
    s, u, v = tf.linalg.svd(c)
    np.testing.assert_allclose((u.numpy() * s.numpy()) @ v.numpy().conj().T, c, atol=1e-12)


# --- errors --------------------------------------------------------------------------------------
ERRORS = [
    (lambda: tf.linalg.cholesky(tf.ones([2, 3])), r"Input matrix must be square. \[Op:Cholesky\]"),
    (lambda: tf.linalg.cholesky(tf.ones([3])), "Input tensor 0 must have rank >= 2, got 1"),
    (lambda: tf.linalg.eigh(tf.ones([2, 3])),
     r"Input matrix must be square. \[Op:SelfAdjointEigV2\]"),
    (lambda: tf.linalg.eigh(tf.constant([[1, 2], [3, 4]])),
     "Value for attr 'T' of int32 is not in the list of allowed values"),
    (lambda: tf.linalg.eigvalsh(tf.ones([3])), "Input tensor 0 must have rank >= 2, got 1"),
    (lambda: tf.linalg.svd(tf.ones([3])), r"Input tensor 0 must have rank >= 2, got 1 \[Op:Svd\]"),
    (lambda: tf.linalg.qr(tf.ones([3])), r"Input tensor 0 must have rank >= 2, got 1 \[Op:Qr\]"),
    (lambda: tf.linalg.qr(tf.ones([3, 3], tf.int32)), "Value for attr 'T' of int32"),
]


@pytest.mark.parametrize("call,message", ERRORS)
def test_errors(call, message):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        with pytest.raises(tf.errors.InvalidArgumentError, match=message):
            call()
