"""`keras.ops.linalg`: det, inv, solve, cholesky, qr, svd, eigh, norm, lstsq, ...

Thin calls to `tf.linalg`; ints compute in float32 as elsewhere in Keras.

>>> import minitf as tf
>>> from minitf.keras import ops
>>> ops.linalg.det(tf.constant([[2.0, 0.0], [0.0, 3.0]]))
<tf.Tensor: shape=(), dtype=float32, numpy=6.0>
"""
import numpy as np

import minitf as tf

from ._export import keras_ops_export
from .. import ops  # noqa: F401 - the examples below call ops.*
from .dtype_rules import convert, float_dtype, promote


def _float(x):
    x = convert(x)
    dtype = float_dtype(x.dtype.name)
    return x if dtype == x.dtype.name else tf.cast(x, dtype)


@keras_ops_export("linalg")
def det(x):
    """The determinant of each square matrix."""
    return tf.linalg.det(_float(x))


@keras_ops_export("linalg")
def inv(x):
    """The inverse of each square matrix."""
    return tf.linalg.inv(_float(x))


@keras_ops_export("linalg")
def solve(a, b):
    """x with a @ x = b.

    >>> ops.solve(tf.constant([[2.0, 0.0], [0.0, 4.0]]), tf.constant([[2.0], [2.0]]))
    <tf.Tensor: shape=(2, 1), dtype=float32, numpy=
    array([[1. ],
           [0.5]], dtype=float32)>
    """
    a, b = promote(_float(a), _float(b))
    if b.shape.rank == a.shape.rank - 1:  # a vector right-hand side, as NumPy allows
        return tf.squeeze(tf.linalg.solve(a, tf.expand_dims(b, -1)), -1)
    return tf.linalg.solve(a, b)


@keras_ops_export("linalg")
def solve_triangular(a, b, lower=False):
    """x with a @ x = b for a triangular `a` (lower or upper)."""
    a, b = promote(_float(a), _float(b))
    squeeze = b.shape.rank == a.shape.rank - 1
    if squeeze:
        b = tf.expand_dims(b, -1)
    x = tf.linalg.triangular_solve(a, b, lower=lower)
    return tf.squeeze(x, -1) if squeeze else x


@keras_ops_export("linalg")
def cholesky(x, upper=False):
    """L with L @ L^T = x (or its transpose U if `upper`)."""
    lower = tf.linalg.cholesky(_float(x))
    return tf.linalg.adjoint(lower) if upper else lower


@keras_ops_export("linalg")
def cholesky_inverse(x, upper=False):
    """The inverse of A from its Cholesky factor (lower L, or upper U)."""
    factor = _float(x)
    lower = tf.linalg.adjoint(factor) if upper else factor
    eye = tf.eye(lower.shape[-1], batch_shape=lower.shape.as_list()[:-2], dtype=lower.dtype)
    return tf.linalg.cholesky_solve(lower, eye)


@keras_ops_export("linalg")
def qr(x, mode="reduced"):
    """(q, r) with x = q @ r; mode 'reduced' or 'complete'."""
    if mode not in ("reduced", "complete"):
        raise ValueError("`mode` argument value not supported. Expected one of "
                         f"{{'reduced', 'complete'}}. Received: mode={mode}")
    return tf.linalg.qr(_float(x), full_matrices=mode == "complete")


@keras_ops_export("linalg")
def svd(x, full_matrices=True, compute_uv=True):
    """(u, s, vh) with x = u @ diag(s) @ vh (NumPy's order, unlike tf.linalg.svd's (s, u, v))."""
    x = _float(x)
    if not compute_uv:
        return tf.linalg.svd(x, full_matrices=full_matrices, compute_uv=False)
    s, u, v = tf.linalg.svd(x, full_matrices=full_matrices)
    return u, s, tf.linalg.adjoint(v)


@keras_ops_export("linalg")
def eigh(x):
    """(eigenvalues ascending, eigenvectors as columns) of a symmetric matrix."""
    return tf.linalg.eigh(_float(x))


@keras_ops_export("linalg")
def norm(x, ord=None, axis=None, keepdims=False):  # noqa: A002 - NumPy's argument name
    """NumPy's norm: 2-norm of vectors, Frobenius of matrices by default.

    >>> ops.norm(tf.constant([3.0, 4.0]))
    <tf.Tensor: shape=(), dtype=float32, numpy=5.0>
    """
    x = _float(x)
    if axis is None:
        axis = tuple(range(x.shape.rank))
    axis = tuple(axis) if isinstance(axis, (list, tuple)) else (axis,)
    if len(axis) == 1:
        if ord is None or ord == 2:
            return tf.sqrt(tf.reduce_sum(tf.square(x), axis=axis, keepdims=keepdims))
        return tf.linalg.norm(x, ord=ord, axis=axis[0], keepdims=keepdims)
    if ord in (None, "fro"):
        return tf.sqrt(tf.reduce_sum(tf.square(x), axis=axis, keepdims=keepdims))
    return tf.linalg.norm(x, ord=ord, axis=axis, keepdims=keepdims)


@keras_ops_export("linalg")
def lstsq(a, b, rcond=None):
    """The least-squares x minimising |a @ x - b|."""
    a, b = promote(_float(a), _float(b))
    squeeze = b.shape.rank == 1
    if squeeze:
        b = tf.expand_dims(b, -1)
    x = tf.linalg.lstsq(a, b, fast=False)
    return tf.squeeze(x, -1) if squeeze else x


@keras_ops_export()
def logdet(x):
    """log(det(x)) of a symmetric positive-definite matrix."""
    return tf.linalg.logdet(_float(x))


@keras_ops_export("numpy")
def slogdet(x):
    """(sign, log|det|) of each square matrix: the determinant without overflow."""
    return tuple(tf.linalg.slogdet(_float(x)))


@keras_ops_export("linalg")
def pinv(x, rcond=None):
    """The Moore-Penrose pseudo-inverse, from the SVD (singular values <= rcond * max dropped).

    >>> ops.pinv(tf.constant([[2.0, 0.0], [0.0, 0.0]]))
    <tf.Tensor: shape=(2, 2), dtype=float32, numpy=
    array([[0.5, 0. ],
           [0. , 0. ]], dtype=float32)>
    """
    x = _float(x)
    m, n = x.shape.as_list()[-2:]
    if rcond is None:
        rcond = 10.0 * max(m, n) * np.finfo(x.dtype.name).eps
    s, u, v = tf.linalg.svd(x, full_matrices=False)
    cutoff = rcond * tf.reduce_max(s, axis=-1, keepdims=True)
    inverse_s = tf.where(s > cutoff, 1.0 / tf.where(s > cutoff, s, tf.ones_like(s)),
                         tf.zeros_like(s))
    return tf.matmul(v * tf.expand_dims(inverse_s, -2), u, adjoint_b=True)


@keras_ops_export("linalg")
def matrix_rank(x, tol=None):
    """The number of singular values above `tol` (default: max(s) * max(m, n) * eps)."""
    x = _float(x)
    s = tf.linalg.svd(x, compute_uv=False)
    if tol is None:
        tol = tf.reduce_max(s, axis=-1, keepdims=True) * max(x.shape.as_list()[-2:]) \
            * np.finfo(x.dtype.name).eps
    return tf.reduce_sum(tf.cast(s > tol, "int32"), axis=-1)


@keras_ops_export("linalg")
def jvp(fun, primals, tangents, has_aux=False):
    """(fun(*primals), J @ tangents): a Jacobian-vector product, by two reverse passes.

    Forward mode here is the "double vjp" trick: g(u) = u^T J is linear in u, so
    the gradient of g(u) . tangents with respect to u is J @ tangents. (Keras on
    TensorFlow uses `tf.autodiff.ForwardAccumulator`; the numbers are the same.)

    >>> ops.jvp(lambda x: x * x, (tf.constant([1.0, 3.0]),), (tf.constant([1.0, 1.0]),))[1]
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([2., 6.], dtype=float32)>
    """
    primals = [convert(p) for p in primals]
    tangents = [tf.cast(convert(t), p.dtype) for t, p in zip(tf.nest.flatten(tangents), primals)]
    with tf.GradientTape(persistent=True) as outer:
        with tf.GradientTape(persistent=True) as inner:
            for p in primals:
                inner.watch(p)
            result = fun(*primals)
            outputs, aux = result if has_aux else (result, None)
        flat_out = tf.nest.flatten(outputs)
        dummies = [tf.zeros_like(o) for o in flat_out]
        for u in dummies:
            outer.watch(u)
        vjps = inner.gradient(flat_out, primals, output_gradients=dummies,
                              unconnected_gradients="zero")
        total = tf.add_n([tf.reduce_sum(g * t) for g, t in zip(vjps, tangents)])
    jvps = outer.gradient(total, dummies, unconnected_gradients="zero")
    tangents_out = tf.nest.pack_sequence_as(outputs, jvps)
    return (outputs, tangents_out, aux) if has_aux else (outputs, tangents_out)


def _assert_2d(x):
    if x.shape.rank < 2:
        raise ValueError(f"Expected input to have rank >= 2. Received input with shape {x.shape}.")


def _assert_square(x):
    m, n = x.shape[-2:]  # a vector fails here, with Python's unpacking error, as in Keras
    if m != n:
        raise ValueError(
            f"Expected a square matrix. Received non-square input with shape {x.shape}")


@keras_ops_export("linalg")
def eig(x):
    """(eigenvalues, eigenvectors as columns) of a square matrix; complex, as tf.linalg.eig."""
    x = convert(x)
    _assert_square(x)
    _assert_2d(x)
    return tf.linalg.eig(x)


@keras_ops_export("linalg")
def lu_factor(x):
    """(packed LU factors, pivots) of a square matrix, as Keras' TensorFlow backend.

    The pivots are tf.linalg.lu's permutation inverted: x = P L U with row i of
    L U at row pivots[i] (for one matrix; the inversion takes a 1-D permutation).

    >>> lu, pivots = ops.lu_factor(tf.constant([[1.0, 2.0], [3.0, 4.0]]))
    >>> pivots
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([1, 0], dtype=int32)>
    """
    x = convert(x)
    _assert_2d(x)
    try:
        _assert_square(x)
    except ValueError as e:
        raise ValueError(f"LU decomposition failed: {e}. LU decomposition is only "
                         "supported for square matrices in Tensorflow.") from None
    lu, p = tf.linalg.lu(x)
    return lu, tf.math.invert_permutation(p)
