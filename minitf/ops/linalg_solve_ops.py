"""Inverting and solving: tf.linalg.inv, det, slogdet, logdet, solve,
triangular_solve, cholesky_solve and lstsq. Every op works on the last two axes
of a batch of square matrices.

>>> import minitf as tf
>>> a = tf.constant([[2.0, 1.0], [1.0, 3.0]])
>>> tf.linalg.det(a)
<tf.Tensor: shape=(), dtype=float32, numpy=5.0>
>>> tf.linalg.solve(a, tf.constant([[3.0], [4.0]]))
<tf.Tensor: shape=(2, 1), dtype=float32, numpy=
array([[1.],
       [1.]], dtype=float32)>

The gradients are matrix identities (Giles 2008, as in TF's linalg_grad.py).
For C = A^-1: dA = -C^H dC C^H. For X = solve(A, B): dB = solve(A^H, dX) and
dA = -dB X^H. For d = det(A): dA = dd * d * A^-H.
"""
import numpy as np

from ..framework import dtypes, errors
from ..framework.op import Op, apply
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export
from .array_ops import reshape
from .linalg_ops import matmul
from .math_ops import binary_args
from .matrix_diag_ops import band_part
from .shape_rules import broadcast, dims_text
from .unbroadcast import unbroadcast

# The dtypes TF's CPU kernels accept (inv and qr also take float16).
LINALG_TYPES = frozenset({dtypes.float32, dtypes.float64, dtypes.complex64, dtypes.complex128})


# --- shared input checks (TF's LinearAlgebraOp) ---------------------------------------------
def check_matrix_inputs(op_name, *shapes):
    """Input 0 has rank >= 2; every other input has its rank and its batch axes."""
    first = shapes[0]
    if first.rank is None:
        return
    if first.rank < 2:
        raise errors.op_error(
            errors.InvalidArgumentError, op_name,
            f"Input tensor 0 must have rank >= 2, got {first.rank}",
            "This op works on matrices: the last two axes (any axes before them are a batch).")
    for other in shapes[1:]:
        if other.rank is not None and other.rank != first.rank:
            raise errors.op_error(
                errors.InvalidArgumentError, op_name,
                "All input tensors must have the same rank.",
                f"Got {dims_text(first)} and {dims_text(other)}; a right-hand side vector "
                "needs a trailing axis of size 1: b[..., tf.newaxis].")
        if other.rank is not None and not first[:-2].is_compatible_with(other[:-2]):
            raise errors.op_error(
                errors.InvalidArgumentError, op_name,
                "All input tensors must have the same outer dimensions.",
                f"Got {dims_text(first)} and {dims_text(other)}; this op does not broadcast "
                "batch axes (tf.linalg.triangular_solve does).")


def check_square(op_name, shape, message="Input matrix must be square."):
    check_matrix_inputs(op_name, shape)
    if shape.rank is not None and None not in (shape[-1], shape[-2]) and shape[-1] != shape[-2]:
        raise errors.op_error(errors.InvalidArgumentError, op_name, message,
                              f"Got a {shape[-2]}x{shape[-1]} matrix; this op needs n x n.")


def square_rule(op_name, output="same"):
    """Shape rule of a one-input op on square matrices: output `same` shape or `batch`."""

    def rule(shape, **attrs):
        check_square(op_name, shape)
        if shape.rank is None:
            return shape
        return shape if output == "same" else shape[:-2]

    return rule


def in_float32(function):
    """Run a NumPy linalg routine on float16 data in float32 (NumPy has no float16 linalg)."""

    def run(x, *args, **kwargs):
        if x.dtype != np.float16:
            return function(x, *args, **kwargs)
        out = function(x.astype(np.float32), *args, **kwargs)
        if isinstance(out, tuple):
            return tuple(o.astype(np.float16) for o in out)
        return out.astype(np.float16)

    return run


def _not_invertible(op_name, message):
    return errors.op_error(errors.InvalidArgumentError, op_name, message,
                           "The matrix is singular (its determinant is 0); check for repeated "
                           "or all-zero rows, or add a small multiple of the identity.")


# --- inv ----------------------------------------------------------------------------------
@in_float32
def _inverse_forward(x, adjoint):
    check_square("MatrixInverse", TensorShape(x.shape))
    if adjoint:
        x = np.conj(np.swapaxes(x, -1, -2))
    try:
        return np.linalg.inv(x)
    except np.linalg.LinAlgError:
        raise _not_invertible("MatrixInverse", "Input is not invertible.") from None


MatrixInverse = Op("MatrixInverse", _inverse_forward, dtypes=LINALG_TYPES | {dtypes.float16},
                   shape=square_rule("MatrixInverse"))


@MatrixInverse.def_grad
def _inverse_grad(op, dy):
    c = op.outputs[0]  # C = A^-1, so dC = -C dA C and dA = -C^H dy C^H
    adj = op.attrs["adjoint"]
    return -matmul(c, matmul(dy, c, adjoint_a=adj, adjoint_b=not adj), adjoint_a=not adj)


@tf_export("linalg.inv")
def inv(input, adjoint=False, name=None):
    """The inverse A^-1 of each innermost square matrix (of A^H if adjoint).

    >>> tf.linalg.inv(tf.constant([[2.0, 0.0], [0.0, 4.0]]))
    <tf.Tensor: shape=(2, 2), dtype=float32, numpy=
    array([[0.5 , 0.  ],
           [0.  , 0.25]], dtype=float32)>
    """
    return apply(MatrixInverse, [convert_to_tensor(input)], {"adjoint": bool(adjoint)})


# --- det, slogdet, logdet --------------------------------------------------------------------
def _det_forward(x):
    check_square("MatrixDeterminant", TensorShape(x.shape))
    return np.linalg.det(x).astype(x.dtype)


MatrixDeterminant = Op("MatrixDeterminant", _det_forward, dtypes=LINALG_TYPES,
                       shape=square_rule("MatrixDeterminant", output="batch"))


def _times_inverse_adjoint(scale, a):
    """scale[..., None, None] * A^-H: the gradient of det and of log|det|."""
    return reshape(scale, scale.shape.as_list() + [1, 1]) * inv(a, adjoint=True)


@MatrixDeterminant.def_grad
def _det_grad(op, dy):
    return _times_inverse_adjoint(dy * op.outputs[0], op.inputs[0])  # d det(A) = det(A) A^-T


@tf_export("linalg.det")
def det(input, name=None):
    """The determinant of each innermost square matrix.

    >>> tf.linalg.det(tf.constant([[1.0, 2.0], [3.0, 4.0]]))
    <tf.Tensor: shape=(), dtype=float32, numpy=-2.0>
    """
    return apply(MatrixDeterminant, [convert_to_tensor(input)])


def _slogdet_forward(x):
    check_square("LogMatrixDeterminant", TensorShape(x.shape))
    sign, log_abs = np.linalg.slogdet(x)
    return sign.astype(x.dtype), log_abs.astype(x.dtype)


def _slogdet_shape(shape):
    batch = square_rule("LogMatrixDeterminant", output="batch")(shape)
    return batch, batch


LogMatrixDeterminant = Op("LogMatrixDeterminant", _slogdet_forward, dtypes=LINALG_TYPES,
                          shape=_slogdet_shape, num_outputs=2)


@LogMatrixDeterminant.def_grad
def _slogdet_grad(op, d_sign, d_log_abs):
    # The sign is piecewise constant; d log|det A| = A^-T.
    return _times_inverse_adjoint(d_log_abs, op.inputs[0])


class SlogdetResult(tuple):
    """(sign, log_abs_determinant), also readable by name, like TF's namedtuple."""

    __slots__ = ()

    def __new__(cls, sign, log_abs_determinant):
        return super().__new__(cls, (sign, log_abs_determinant))

    sign = property(lambda self: self[0])
    log_abs_determinant = property(lambda self: self[1])

    def __repr__(self):
        return f"LogMatrixDeterminant(sign={self[0]!r}, log_abs_determinant={self[1]!r})"


@tf_export("linalg.slogdet")
def slogdet(input, name=None):
    """(sign, log|det|) of each square matrix: det = sign * exp(log|det|), without overflow.

    >>> sign, log_abs = tf.linalg.slogdet(tf.constant([[1.0, 2.0], [3.0, 4.0]]))
    >>> float(sign), round(float(log_abs), 4)
    (-1.0, 0.6931)
    """
    return SlogdetResult(*apply(LogMatrixDeterminant, [convert_to_tensor(input)]))


@tf_export("linalg.logdet")
def logdet(matrix, name=None):
    """log(det(A)) of a Hermitian positive definite A: 2 * sum(log(diag(cholesky(A)))).

    >>> round(float(tf.linalg.logdet(tf.constant([[2.0, 1.0], [1.0, 2.0]]))), 4)
    1.0986
    """
    from .linalg_decompositions import cholesky
    from .math_ops import log
    from .matrix_diag_ops import diag_part
    from .reduction_ops import reduce_sum

    return 2.0 * reduce_sum(log(diag_part(cholesky(matrix))), axis=-1)


# --- solve --------------------------------------------------------------------------------
def _solve_shape(matrix, rhs, adjoint):
    check_matrix_inputs("MatrixSolve", matrix, rhs)
    check_square("MatrixSolve", matrix, "First input (lhs) must be a square matrix.")
    if matrix.rank is None or rhs.rank is None:
        return TensorShape(None)
    if None not in (matrix[-1], rhs[-2]) and matrix[-1] != rhs[-2]:
        raise errors.op_error(
            errors.InvalidArgumentError, "MatrixSolve", "Input matrix and rhs are incompatible.",
            f"A {matrix[-2]}x{matrix[-1]} matrix needs a right-hand side with {matrix[-1]} "
            f"rows, got {dims_text(rhs)}.")
    return rhs


def _solve_forward(matrix, rhs, adjoint):
    _solve_shape(TensorShape(matrix.shape), TensorShape(rhs.shape), adjoint)
    if adjoint:
        matrix = np.conj(np.swapaxes(matrix, -1, -2))
    try:
        return np.linalg.solve(matrix, rhs)
    except np.linalg.LinAlgError:
        raise _not_invertible("MatrixSolve", "Input matrix is not invertible.") from None


MatrixSolve = Op("MatrixSolve", _solve_forward, dtypes=LINALG_TYPES, shape=_solve_shape)


@MatrixSolve.def_grad
def _solve_grad(op, dy):
    a, x, adj = op.inputs[0], op.outputs[0], op.attrs["adjoint"]
    db = solve(a, dy, adjoint=not adj)  # X = A^-1 B, so dB = A^-H dX
    da = -matmul(x, db, adjoint_b=True) if adj else -matmul(db, x, adjoint_b=True)
    return da, db


@tf_export("linalg.solve")
def solve(matrix, rhs, adjoint=False, name=None):
    """X with matrix @ X = rhs (matrix^H @ X = rhs if adjoint), for each batch entry.

    The batch axes of matrix and rhs must be equal; rhs is [..., n, k].
    """
    matrix, rhs = binary_args(matrix, rhs)
    return apply(MatrixSolve, [matrix, rhs], {"adjoint": bool(adjoint)})


# --- triangular_solve -------------------------------------------------------------------------
def _triangular_solve_shape(matrix, rhs, lower, adjoint):
    name = "MatrixTriangularSolve"
    for i, shape in enumerate((matrix, rhs)):
        if shape.rank is not None and shape.rank < 2:
            raise errors.op_error(errors.InvalidArgumentError, name,
                                  f"In[{i}] ndims must be >= 2: {shape.rank}",
                                  "Give rhs a trailing axis: b[..., tf.newaxis].")
    if matrix.rank is None or rhs.rank is None:
        return TensorShape(None)
    if None not in (matrix[-1], matrix[-2]) and matrix[-1] != matrix[-2]:
        raise errors.op_error(
            errors.InvalidArgumentError, name,
            f"In[0] matrices in the last dimensions must be square ({matrix[-1]} =/= "
            f"{matrix[-2]})", "A triangular system needs an n x n matrix.")
    try:
        batch = broadcast(name)(matrix[:-2], rhs[:-2])
    except errors.InvalidArgumentError:
        raise errors.op_error(
            errors.InvalidArgumentError, name,
            f"In[0] and In[1] must have compatible batch dimensions: {dims_text(matrix)} vs. "
            f"{dims_text(rhs)}", "The batch axes broadcast: equal, or one of them 1.") from None
    if None not in (matrix[-1], rhs[-2]) and matrix[-1] != rhs[-2]:
        raise errors.op_error(
            errors.InvalidArgumentError, name,
            f"In[0] mismatch In[1] shape: {matrix[-1]} vs. {rhs[-2]}: {dims_text(matrix)} "
            f"{dims_text(rhs)} {int(lower)} {int(adjoint)}",
            f"rhs needs {matrix[-1]} rows, one per row of the matrix.")
    return batch.concatenate(rhs[-2:])


def _triangular_solve_forward(matrix, rhs, lower, adjoint):
    shape = _triangular_solve_shape(TensorShape(matrix.shape), TensorShape(rhs.shape), lower,
                                    adjoint)
    a = np.broadcast_to(matrix, tuple(shape[:-2].as_list()) + matrix.shape[-2:])
    b = np.broadcast_to(rhs, tuple(shape.as_list()))
    if adjoint:  # A^H of a lower triangle is an upper triangle
        a, lower = np.conj(np.swapaxes(a, -1, -2)), not lower
    n = a.shape[-1]
    x = np.zeros(b.shape, dtype=b.dtype)
    # Forward substitution (back substitution for upper): each row of the
    # system has one new unknown once the rows before it are solved. A zero on
    # the diagonal gives inf/nan, as in TF.
    with np.errstate(divide="ignore", invalid="ignore"):
        for i in (range(n) if lower else reversed(range(n))):
            done = slice(0, i) if lower else slice(i + 1, n)
            known = np.matmul(a[..., i:i + 1, done], x[..., done, :])[..., 0, :]
            x[..., i, :] = (b[..., i, :] - known) / a[..., i, i][..., np.newaxis]
    return x


MatrixTriangularSolve = Op("MatrixTriangularSolve", _triangular_solve_forward,
                           dtypes=LINALG_TYPES, shape=_triangular_solve_shape)


@MatrixTriangularSolve.def_grad
def _triangular_solve_grad(op, dy):
    (a, b), x = op.inputs, op.outputs[0]
    lower, adj = op.attrs["lower"], op.attrs["adjoint"]
    db = triangular_solve(a, dy, lower=lower, adjoint=not adj)
    da = -matmul(x, db, adjoint_b=True) if adj else -matmul(db, x, adjoint_b=True)
    da = band_part(da, -1, 0) if lower else band_part(da, 0, -1)  # only the triangle was read
    return unbroadcast(da, a), unbroadcast(db, b)


@tf_export("linalg.triangular_solve")
def triangular_solve(matrix, rhs, lower=True, adjoint=False, name=None):
    """X with L @ X = rhs, reading only the lower (or upper) triangle of `matrix`.

    Batch axes broadcast. Solved by substitution: O(n^2) per column, no inverse.

    >>> lower = tf.constant([[2.0, 0.0], [1.0, 1.0]])
    >>> tf.linalg.triangular_solve(lower, tf.constant([[2.0], [3.0]]))
    <tf.Tensor: shape=(2, 1), dtype=float32, numpy=
    array([[1.],
           [2.]], dtype=float32)>
    """
    matrix, rhs = binary_args(matrix, rhs)
    return apply(MatrixTriangularSolve, [matrix, rhs],
                 {"lower": bool(lower), "adjoint": bool(adjoint)})


@tf_export("linalg.cholesky_solve")
def cholesky_solve(chol, rhs, name=None):
    """X with A @ X = rhs, given chol = cholesky(A): two triangular solves, L y = rhs, L^H x = y."""
    y = triangular_solve(chol, rhs, lower=True, adjoint=False)
    return triangular_solve(chol, y, lower=True, adjoint=True)


# --- lstsq ---------------------------------------------------------------------------------
def _pinv_solve(matrix, rhs):
    _lstsq_shape(TensorShape(matrix.shape), TensorShape(rhs.shape))
    return np.matmul(np.linalg.pinv(matrix), rhs).astype(rhs.dtype)


def _lstsq_shape(matrix, rhs):
    check_matrix_inputs("MatrixSolveLs", matrix, rhs)
    if matrix.rank is None or rhs.rank is None:
        return TensorShape(None)
    if None not in (matrix[-2], rhs[-2]) and matrix[-2] != rhs[-2]:
        raise errors.op_error(
            errors.InvalidArgumentError, "MatrixSolveLs",
            "Input matrix and rhs are incompatible.",
            f"matrix {dims_text(matrix)} and rhs {dims_text(rhs)} need the same number of rows.")
    return matrix[:-2].concatenate([matrix[-1], rhs[-1]])


# fast=False: the minimum-norm least-squares solution; like TF, it has no gradient.
MatrixSolveLs = Op("MatrixSolveLs", _pinv_solve, dtypes=LINALG_TYPES, shape=_lstsq_shape)


@tf_export("linalg.lstsq")
def lstsq(matrix, rhs, l2_regularizer=0.0, fast=True, name=None):
    """The least-squares X minimising ||matrix @ X - rhs||^2 + l2_regularizer * ||X||^2.

    fast=True (the default) solves the normal equations with a Cholesky
    factorisation, exactly as TF does - (A^H A + l2 I)^-1 A^H rhs for tall
    matrices, A^H (A A^H + l2 I)^-1 rhs for wide ones - so its gradient is
    assembled from matmul, cholesky and triangular_solve. fast=False uses the
    pseudo-inverse (robust for rank-deficient matrices, no gradient; like TF it
    ignores l2_regularizer).

    >>> a = tf.constant([[1.0, 0.0], [0.0, 1.0], [1.0, 1.0]])
    >>> tf.linalg.lstsq(a, tf.constant([[1.0], [2.0], [3.0]])).shape
    TensorShape([2, 1])
    """
    from .creation_ops import eye
    from .linalg_decompositions import cholesky

    matrix, rhs = binary_args(matrix, rhs)
    if not fast:
        return apply(MatrixSolveLs, [matrix, rhs])
    rows, cols = matrix.shape[-2], matrix.shape[-1]
    tall = rows >= cols
    gramian = matmul(matrix, matrix, adjoint_a=tall, adjoint_b=not tall)
    if l2_regularizer != 0:
        small = cols if tall else rows
        gramian += l2_regularizer * eye(small, batch_shape=matrix.shape[:-2].as_list(),
                                        dtype=matrix.dtype)
    chol = cholesky(gramian)
    if tall:
        return cholesky_solve(chol, matmul(matrix, rhs, adjoint_a=True))
    return matmul(matrix, cholesky_solve(chol, rhs), adjoint_a=True)
