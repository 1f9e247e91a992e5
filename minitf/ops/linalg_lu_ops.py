"""LU with partial pivoting: tf.linalg.lu and what reads its packed result
(lu_reconstruct, lu_solve, lu_matrix_inverse).

>>> import minitf as tf
>>> lower_upper, perm = tf.linalg.lu(tf.constant([[1.0, 2.0], [3.0, 4.0]]))
>>> perm
<tf.Tensor: shape=(2,), dtype=int32, numpy=array([1, 0], dtype=int32)>
>>> tf.linalg.lu_reconstruct(lower_upper, perm)
<tf.Tensor: shape=(2, 2), dtype=float32, numpy=
array([[1., 2.],
       [3., 4.]], dtype=float32)>

A[perm] = L U: row perm[i] of A is row i of L U. `lower_upper` packs both
factors in one matrix: L below the diagonal (its unit diagonal is not
stored), U on and above it. Pivoting picks, column by column, the row with
the largest |entry| (the first such row on ties), as Eigen's PartialPivLU
that TF runs. The three readers are compositions of ordinary ops (as TF
writes them in linalg_impl.py), so their gradients with respect to
`lower_upper` and `rhs` come from those ops; like TF, lu itself has none.
"""
import numpy as np

from ..framework import dtypes, errors
from ..framework.op import Op, apply
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export
from .gather_ops import gather
from .creation_ops import eye, ones_like
from .linalg_ops import adjoint, matmul
from .linalg_solve_ops import LINALG_TYPES, check_square, square_rule, triangular_solve
from .sort_ops import argsort
from .matrix_diag_ops import band_part, diag_part, set_diag


def _lu_one(matrix):
    """Doolittle elimination with row pivoting on one n x n matrix (a copy)."""
    a, n = matrix.copy(), matrix.shape[-1]
    perm = np.arange(n)
    for k in range(n):
        pivot = k + int(np.argmax(np.abs(a[k:, k])))
        if pivot != k:
            a[[k, pivot]] = a[[pivot, k]]
            perm[[k, pivot]] = perm[[pivot, k]]
        if a[k, k] != 0:
            a[k + 1:, k] /= a[k, k]
        a[k + 1:, k + 1:] -= np.outer(a[k + 1:, k], a[k, k + 1:])
    return a, perm


def _lu_forward(x, output_idx_type):
    check_square("Lu", TensorShape(x.shape))
    flat = x.reshape((-1,) + x.shape[-2:])
    lu, perm = np.empty_like(flat), np.empty(flat.shape[:-1], dtype=output_idx_type.as_numpy_dtype)
    for i, matrix in enumerate(flat):
        lu[i], perm[i] = _lu_one(matrix)
        if not np.diagonal(lu[i]).all():  # a zero pivot: U, hence A, is singular
            raise errors.op_error(errors.InvalidArgumentError, "Lu", "Input is not invertible.",
                                  "Every matrix of the batch must be nonsingular (a zero "
                                  "pivot appeared); tf.linalg.pinv or lstsq handle singular ones.")
    return lu.reshape(x.shape), perm.reshape(x.shape[:-1])


def _lu_shape(shape, output_idx_type):
    shape = square_rule("Lu")(shape)
    return shape, (shape if shape.rank is None else shape[:-1])


Lu = Op("Lu", _lu_forward, dtypes=LINALG_TYPES, shape=_lu_shape, num_outputs=2,
        dtype=lambda x, output_idx_type: (x, output_idx_type))


def _unpack(lower_upper):
    """(L with its unit diagonal, U) from the packed matrix."""
    lower = set_diag(band_part(lower_upper, -1, 0), ones_like(diag_part(lower_upper)))
    return lower, band_part(lower_upper, 0, -1)


@Lu.def_grad
def _lu_grad(op, grad, _):
    raise LookupError("gradient registry has no entry for: Lu (TensorFlow defines no gradient "
                      "for tf.linalg.lu; to differentiate a solve, use tf.linalg.solve, "
                      "whose gradient exists).")


def _unpermute_rows(x, perm):
    """The Y with Y[perm] = X: row i of X goes to row perm[i] (argsort inverts perm)."""
    return gather(x, argsort(perm, axis=-1), axis=-2, batch_dims=perm.shape.rank - 1)


class LuResult(tuple):
    """(lu, p), also readable by name, like TF's namedtuple `Lu`."""

    __slots__ = ()

    def __new__(cls, lu, p):
        return super().__new__(cls, (lu, p))

    lu = property(lambda self: self[0])
    p = property(lambda self: self[1])

    def __repr__(self):
        return f"Lu(lu={self[0]!r}, p={self[1]!r})"


@tf_export("linalg.lu")
def lu(input, output_idx_type=dtypes.int32, name=None):
    """LU decomposition with partial pivoting: returns (lu, p) with input[p] = L U.

    `lu` holds L strictly below its diagonal (L's diagonal is all ones) and U on
    and above it; `p` is the row permutation, of dtype `output_idx_type`.
    """
    out_type = dtypes.as_dtype(output_idx_type)
    lower_upper, perm = apply(Lu, [convert_to_tensor(input)], {"output_idx_type": out_type})
    return LuResult(lower_upper, perm)


def _batch_dims(perm):
    return perm.shape.rank - 1


@tf_export("linalg.lu_reconstruct")
def lu_reconstruct(lower_upper, perm, validate_args=False, name=None):
    """The matrix X with lu(X) = (lower_upper, perm): rows of L U put back in place."""
    lower_upper, perm = convert_to_tensor(lower_upper), convert_to_tensor(perm)
    lower, upper = _unpack(lower_upper)
    return _unpermute_rows(matmul(lower, upper), perm)


@tf_export("linalg.lu_solve")
def lu_solve(lower_upper, perm, rhs, validate_args=False, name=None):
    """Solves X with A X = rhs from A's factors: X = U^-1 L^-1 rhs[perm].

    >>> lower_upper, perm = tf.linalg.lu(tf.constant([[1.0, 2.0], [3.0, 4.0]]))
    >>> tf.linalg.lu_solve(lower_upper, perm, tf.constant([[1.0], [2.0]]))
    <tf.Tensor: shape=(2, 1), dtype=float32, numpy=
    array([[0. ],
           [0.5]], dtype=float32)>
    """
    lower_upper, perm = convert_to_tensor(lower_upper), convert_to_tensor(perm)
    rhs = convert_to_tensor(rhs, dtype=lower_upper.dtype)
    lower, upper = _unpack(lower_upper)
    permuted = gather(rhs, perm, axis=-2, batch_dims=_batch_dims(perm))
    y = triangular_solve(lower, permuted, lower=True)
    return triangular_solve(upper, y, lower=False)


@tf_export("linalg.lu_matrix_inverse")
def lu_matrix_inverse(lower_upper, perm, validate_args=False, name=None):
    """A^-1 from A's LU factors (lu_solve with the identity on the right)."""
    lower_upper = convert_to_tensor(lower_upper)
    n, batch = lower_upper.shape[-1], lower_upper.shape[:-2].as_list()
    return lu_solve(lower_upper, perm, eye(n, batch_shape=batch, dtype=lower_upper.dtype))
