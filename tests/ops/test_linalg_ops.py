"""Matrix products: matmul, matvec, tensordot, cross, matrix_transpose / adjoint.

Values against NumPy, dtypes, gradients (first and second order) over batch
shapes from hypothesis, and TF's error messages."""
import numpy as np
import pytest
from gradcheck import check_grads
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from strategies import arrays, broadcasting_pair

import minitf as tf

batch_shapes = hnp.array_shapes(min_dims=0, max_dims=2, min_side=1, max_side=2)
sizes = st.integers(1, 3)


# --- public names ------------------------------------------------------------------------
def test_public_names():
    assert tf.matmul is tf.linalg.matmul
    assert tf.tensordot is tf.linalg.tensordot
    assert callable(tf.linalg.matvec) and callable(tf.linalg.cross)
    assert callable(tf.linalg.matrix_transpose) and callable(tf.linalg.adjoint)


# --- matmul --------------------------------------------------------------------------------
@given(broadcasting_pair(), sizes, sizes, sizes)
def test_matmul_broadcasts_batch_axes_like_numpy(batches, m, k, n):
    a = arrays(batches[0] + (m, k), seed=1)
    b = arrays(batches[1] + (k, n), seed=2)
    np.testing.assert_allclose(tf.matmul(a, b).numpy(), np.matmul(a, b), rtol=1e-12)


@pytest.mark.parametrize("ta,tb", [(False, False), (True, False), (False, True), (True, True)])
def test_matmul_transposes(ta, tb):
    a, b = arrays((2, 3), seed=1), arrays((3, 2), seed=2)
    a_in = a.T if ta else a
    b_in = b.T if tb else b
    out = tf.matmul(a_in, b_in, transpose_a=ta, transpose_b=tb)
    np.testing.assert_allclose(out.numpy(), a @ b, rtol=1e-12)


def test_matmul_adjoint_conjugates():
    a = np.array([[1 + 2j, 3 - 1j], [0.5j, 2.0]])
    out = tf.matmul(a, a, adjoint_a=True, adjoint_b=True)
    np.testing.assert_allclose(out.numpy(), a.conj().T @ a.conj().T)


@pytest.mark.parametrize("dtype", [tf.float16, tf.float32, tf.float64, tf.int32, tf.int64,
                                   tf.complex64])
def test_matmul_keeps_dtype(dtype):
    a = tf.ones([2, 2], dtype=dtype)
    assert tf.matmul(a, a).dtype is dtype
    assert (a @ a).dtype is dtype


@given(broadcasting_pair(), sizes, sizes, sizes)
def test_matmul_gradient(batches, m, k, n):
    a = arrays(batches[0] + (m, k), seed=3)
    b = arrays(batches[1] + (k, n), seed=4)
    check_grads(tf.matmul, a, b)


@pytest.mark.parametrize("ta,tb", [(False, False), (True, False), (False, True), (True, True)])
def test_matmul_second_order(ta, tb):
    a = arrays((2, 3, 2) if ta else (2, 2, 3), seed=5)  # a (op) is 2x3
    b = arrays((4, 3) if tb else (3, 4), seed=6)  # b (op) is 3x4, broadcast over the batch
    check_grads(lambda x, y: tf.matmul(x, y, transpose_a=ta, transpose_b=tb), a, b, order=2)


def test_matmul_complex_gradient_uses_the_adjoint():
    # d/da sum(real(a @ b) * w) for complex a: TF's convention gives dy @ b^H.
    a = tf.constant([[1 + 1j, 2.0]])
    b = tf.constant([[1j], [3.0]])
    with tf.GradientTape() as tape:
        tape.watch(a)
        y = tf.matmul(a, b)
    np.testing.assert_allclose(tape.gradient(y, a).numpy(), np.conj(b.numpy()).T)


# --- matvec ----------------------------------------------------------------------------------
@given(batch_shapes, sizes, sizes)
def test_matvec_values_and_gradient(batch, m, n):
    a, x = arrays(batch + (m, n), seed=1), arrays(batch + (n,), seed=2)
    np.testing.assert_allclose(tf.linalg.matvec(a, x).numpy(),
                               np.einsum("...ij,...j->...i", a, x), rtol=1e-12)
    check_grads(tf.linalg.matvec, a, x)


def test_matvec_transpose_and_broadcast():
    a, x = arrays((2, 3), seed=1), arrays((5, 2), seed=2)
    out = tf.linalg.matvec(a, x, transpose_a=True)
    np.testing.assert_allclose(out.numpy(), x @ a, rtol=1e-12)
    assert out.shape == tf.TensorShape([5, 3])


# --- tensordot -------------------------------------------------------------------------------
@pytest.mark.parametrize("a_shape,b_shape,axes", [
    ((2, 3), (3, 4), 1),
    ((2, 3), (3, 4), 0),
    ((2, 3), (2, 3), 2),
    ((3,), (3,), 1),
    ((), (3,), 0),
    ((2, 3, 4), (4, 3, 5), [[1, 2], [1, 0]]),
    ((2, 3), (3, 4), [1, 0]),
    ((2, 3), (4, 3), [[-1], [-1]]),
    ((2, 3), (3, 4), np.array([[1], [0]])),
])
def test_tensordot_matches_numpy(a_shape, b_shape, axes):
    a, b = arrays(a_shape, seed=1), arrays(b_shape, seed=2)
    np_axes = axes.tolist() if isinstance(axes, np.ndarray) else axes
    expected = np.tensordot(a, b, axes=np_axes)
    np.testing.assert_allclose(tf.tensordot(a, b, axes).numpy(), expected, rtol=1e-12)
    check_grads(lambda x, y: tf.tensordot(x, y, axes), a, b, order=2)


def test_tensordot_int_dtype():
    out = tf.tensordot(tf.ones([2, 3], tf.int32), tf.ones([3], tf.int32), 1)
    assert out.dtype is tf.int32
    np.testing.assert_array_equal(out.numpy(), [3, 3])


# --- cross -----------------------------------------------------------------------------------
@given(batch_shapes)
def test_cross_values_and_gradient(batch):
    a, b = arrays(batch + (3,), seed=1), arrays(batch + (3,), seed=2)
    np.testing.assert_allclose(tf.linalg.cross(a, b).numpy(), np.cross(a, b), rtol=1e-12)
    check_grads(tf.linalg.cross, a, b)


def test_cross_second_order_and_int():
    check_grads(tf.linalg.cross, arrays((2, 3), seed=1), arrays((2, 3), seed=2), order=2)
    out = tf.linalg.cross(tf.constant([1, 0, 0]), tf.constant([0, 1, 0]))
    assert out.dtype is tf.int32 and out.numpy().tolist() == [0, 0, 1]


# --- matrix_transpose / adjoint ---------------------------------------------------------------
@given(batch_shapes, sizes, sizes)
def test_matrix_transpose(batch, m, n):
    a = arrays(batch + (m, n))
    np.testing.assert_array_equal(tf.linalg.matrix_transpose(a).numpy(), np.swapaxes(a, -1, -2))
    check_grads(tf.linalg.matrix_transpose, a)


def test_adjoint_conjugates_complex_and_transposes_real():
    c = np.array([[1 + 2j, 3j]])
    np.testing.assert_array_equal(tf.linalg.adjoint(c).numpy(), c.conj().T)
    assert tf.linalg.adjoint(tf.ones([2, 3], tf.int32)).shape == tf.TensorShape([3, 2])
    out = tf.linalg.matrix_transpose(c, conjugate=True)
    np.testing.assert_array_equal(out.numpy(), c.conj().T)


# --- errors ----------------------------------------------------------------------------------
ERRORS = [
    (lambda: tf.matmul(tf.ones([2, 3]), tf.ones([2, 3])), tf.errors.InvalidArgumentError,
     r"Matrix size-incompatible: In\[0\]: \[2,3\], In\[1\]: \[2,3\] \[Op:MatMul\]"),
    (lambda: tf.matmul(tf.ones([4, 2, 3]), tf.ones([4, 2, 3])), tf.errors.InvalidArgumentError,
     r"Matrix size-incompatible: In\[0\]: \[4,2,3\], In\[1\]: \[4,2,3\] \[Op:BatchMatMulV2\]"),
    (lambda: tf.matmul(tf.ones([2, 2, 3]), tf.ones([3, 3, 3])), tf.errors.InvalidArgumentError,
     r"must have compatible batch dimensions: \[2,2,3\] vs. \[3,3,3\]"),
    (lambda: tf.matmul(tf.ones([3]), tf.ones([3])), tf.errors.InvalidArgumentError,
     r"In\[0\] and In\[1\] ndims must be == 2: 1"),
    (lambda: tf.matmul(tf.ones([3, 3]), tf.ones([3])), tf.errors.InvalidArgumentError,
     r"In\[0\] and In\[1\] has different ndims: \[3,3\] vs. \[3\]"),
    (lambda: tf.matmul(tf.ones([2, 3, 3]), tf.ones([3])), tf.errors.InvalidArgumentError,
     r"In\[1\] ndims must be >= 2: 1"),
    (lambda: tf.matmul(tf.ones([3, 3]), tf.ones([3, 2], tf.float64)),
     tf.errors.InvalidArgumentError, "expected to be a float tensor but is a double tensor"),
    (lambda: tf.matmul(tf.ones([3, 3], tf.bool), tf.ones([3, 3], tf.bool)),
     tf.errors.InvalidArgumentError, "Value for attr 'T' of bool is not in the list"),
    (lambda: tf.linalg.matvec(tf.ones([2, 3]), tf.ones([2])), tf.errors.InvalidArgumentError,
     r"Matrix size-incompatible: In\[0\]: \[2,3\], In\[1\]: \[2,1\]"),
    (lambda: tf.tensordot(tf.ones([2, 3]), tf.ones([2, 3]), 1), tf.errors.InvalidArgumentError,
     r"Matrix size-incompatible: In\[0\]: \[2,3\], In\[1\]: \[2,3\]"),
    (lambda: tf.tensordot(tf.ones([2, 3]), tf.ones([3, 4]), 3), ValueError,
     r"must not be larger than the number of dimensions[\s\S]*Received 3, vs tensor dimensions 2"),
    (lambda: tf.tensordot(tf.ones([2, 3]), tf.ones([3, 4]), -1), ValueError,
     r"`axes` must be at least 0. Received: -1"),
    (lambda: tf.tensordot(tf.ones([2, 3]), tf.ones([3, 4]), [[1], [0, 1]]), ValueError,
     r"Different number of contraction axes `a` and `b`, 1 != 2"),
    (lambda: tf.tensordot(tf.ones([2, 3]), tf.ones([3, 4]), [[1], [0], [0]]), ValueError,
     r"`axes` must be an integer or have length 2"),
    (lambda: tf.tensordot(tf.ones([2, 3]), tf.ones([3]), [[5], [0]]), IndexError,
     r"axis 5 is out of range for a tensor of rank 2"),
    (lambda: tf.linalg.cross([1.0, 0.0], [0.0, 1.0]), tf.errors.FailedPreconditionError,
     "Cross-products are only defined for 3-element vectors"),
    (lambda: tf.linalg.cross(tf.ones([2, 3]), tf.ones([3, 3])), tf.errors.InvalidArgumentError,
     r"Both inputs must be of same shape: \[2,3\] vs. \[3,3\]"),
    (lambda: tf.linalg.cross(1.0, 2.0), tf.errors.InvalidArgumentError,
     r"Input must be at least 1D\[\]"),
    (lambda: tf.linalg.cross(tf.ones([3], tf.complex64), tf.ones([3], tf.complex64)),
     tf.errors.InvalidArgumentError, "Value for attr 'T' of complex64 is not in the list"),
    (lambda: tf.linalg.matrix_transpose(tf.ones([3])), ValueError,
     r"should be a \(batch\) matrix with rank >= 2"),
]


@pytest.mark.parametrize("call,error,message", ERRORS)
def test_errors(call, error, message):
    with pytest.raises(error, match=message):
        call()
