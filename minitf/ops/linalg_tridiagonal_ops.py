"""Tridiagonal matrices: tf.linalg.tridiagonal_matmul and tridiagonal_solve.

>>> import minitf as tf
>>> diagonals = tf.constant([[1.0, 2.0, 0.0],   # superdiagonal (last entry unused)
...                          [4.0, 5.0, 6.0],   # main diagonal
...                          [0.0, 7.0, 8.0]])  # subdiagonal (first entry unused)
>>> tf.linalg.tridiagonal_matmul(diagonals, tf.constant([[1.0], [2.0], [3.0]]))
<tf.Tensor: shape=(3, 1), dtype=float32, numpy=
array([[ 6.],
       [23.],
       [34.]], dtype=float32)>

Three layouts name the same matrix: 'compact' stacks [super, main, sub] as
[..., 3, M]; 'sequence' is a tuple of the three [..., M] tensors (super and
sub may also have length M - 1); 'matrix' is the dense [..., M, M] matrix
(entries off the three diagonals are ignored). The solve's forward is a dense
LAPACK solve per matrix (TF runs a tridiagonal elimination: the same numbers
up to rounding); a singular matrix gives NaN, as in TF. Its gradient is TF's:
with X = A^-1 B, dB = A^-H dX and each diagonal entry A_ij gets -dB_i conj(X_j).
"""
import numpy as np

from ..framework.op import Op, apply
from ..framework.tensor import convert_to_tensor
from ..framework.tf_export import tf_export
from .array_ops import concat, expand_dims, squeeze, stack
from .manipulation_ops import pad
from .creation_ops import zeros_like
from .linalg_ops import matrix_transpose
from .linalg_solve_ops import LINALG_TYPES
from .math_ops import conj
from .matrix_diag_ops import diag_part
from .reduction_ops import reduce_sum


def _to_compact(diagonals, diagonals_format):
    """[..., 3, M] (super, main, sub) from any of the three layouts, as TF's wrappers do."""
    if diagonals_format == "compact":
        return convert_to_tensor(diagonals)
    if diagonals_format == "sequence":
        if not isinstance(diagonals, (tuple, list)) or len(diagonals) != 3:
            raise ValueError("Expected diagonals to be a sequence of length 3.")
        superdiag, maindiag, subdiag = (convert_to_tensor(d) for d in diagonals)
        m = maindiag.shape[-1]

        def pad_if_necessary(t, name, padding):
            n = t.shape[-1]
            if not n or n == m:
                return t
            if n == m - 1:
                return pad(t, [[0, 0]] * (t.shape.rank - 1) + [padding])
            raise ValueError(f"Expected {name} to be have length {m} or {m - 1}, got {n}.")

        return stack([pad_if_necessary(superdiag, "superdiagonal", [0, 1]), maindiag,
                      pad_if_necessary(subdiag, "subdiagonal", [1, 0])], axis=-2)
    if diagonals_format == "matrix":
        diagonals = convert_to_tensor(diagonals)
        m1, m2 = diagonals.shape[-1], diagonals.shape[-2]
        if m1 and m2 and m1 != m2:
            raise ValueError(
                f"Expected last two dimensions of diagonals to be same, got {m1} and {m2}")
        return diag_part(diagonals, k=(-1, 1), padding_value=0.0, align="LEFT_RIGHT")
    raise ValueError(f"Unrecognized diagonals_format: {diagonals_format}")


@tf_export("linalg.tridiagonal_matmul")
def tridiagonal_matmul(diagonals, rhs, diagonals_format="compact", name=None):
    """A @ rhs for tridiagonal A: row i is super_i rhs_(i+1) + main_i rhs_i + sub_i rhs_(i-1)."""
    compact = _to_compact(diagonals, diagonals_format)
    rhs = convert_to_tensor(rhs, dtype=compact.dtype)
    superdiag, maindiag, subdiag = (expand_dims(compact[..., k, :], -1) for k in range(3))
    zero_row = zeros_like(rhs[..., :1, :])
    below = concat([rhs[..., 1:, :], zero_row], axis=-2)   # row i holds rhs_(i+1)
    above = concat([zero_row, rhs[..., :-1, :]], axis=-2)  # row i holds rhs_(i-1)
    return superdiag * below + maindiag * rhs + subdiag * above


# --- the solve --------------------------------------------------------------------------------
def _dense(compact):
    """The [..., M, M] matrices of compact diagonals (unused corner entries dropped)."""
    m = compact.shape[-1]
    dense = np.zeros(compact.shape[:-2] + (m, m), dtype=compact.dtype)
    i = np.arange(m)
    dense[..., i, i] = compact[..., 1, :]
    dense[..., i[:-1], i[1:]] = compact[..., 0, :-1]
    dense[..., i[1:], i[:-1]] = compact[..., 2, 1:]
    return dense


def _solve_forward(diagonals, rhs, partial_pivoting, perturb_singular):
    dense = _dense(diagonals)
    flat_a = dense.reshape((-1,) + dense.shape[-2:])
    flat_b = np.broadcast_to(rhs, dense.shape[:-2] + rhs.shape[-2:]).reshape(
        (-1,) + rhs.shape[-2:])
    out = np.empty(flat_b.shape, dtype=np.result_type(dense, rhs))
    for i, (a, b) in enumerate(zip(flat_a, flat_b)):
        try:
            out[i] = np.linalg.solve(a, b) if a.size else b
        except np.linalg.LinAlgError:
            out[i] = np.nan  # a singular matrix: NaN, as TF returns
    return out.reshape(dense.shape[:-2] + rhs.shape[-2:])


TridiagonalSolve = Op("TridiagonalSolve", _solve_forward, dtypes=LINALG_TYPES,
                      shape=lambda d, rhs, **attrs: rhs)


def _transposed(compact):
    """A^T in compact form: super'_i = sub_(i+1), sub'_i = super_(i-1)."""
    superdiag, maindiag, subdiag = compact[..., 0, :], compact[..., 1, :], compact[..., 2, :]
    zero = zeros_like(maindiag[..., :1])
    return stack([concat([subdiag[..., 1:], zero], -1), maindiag,
                  concat([zero, superdiag[..., :-1]], -1)], axis=-2)


@TridiagonalSolve.def_grad
def _solve_grad(op, dx):
    diagonals, x = op.inputs[0], op.outputs[0]
    grad_rhs = apply(TridiagonalSolve, [conj(_transposed(diagonals)), dx], op.attrs)
    x = conj(x)
    zero = zeros_like(grad_rhs[..., :1, :])
    grad_super = -reduce_sum(grad_rhs * concat([x[..., 1:, :], zero], -2), -1)
    grad_main = -reduce_sum(grad_rhs * x, -1)
    grad_sub = -reduce_sum(grad_rhs * concat([zero, x[..., :-1, :]], -2), -1)
    return stack([grad_super, grad_main, grad_sub], axis=-2), grad_rhs


def _check_compact(diagonals, rhs):
    d_rank, r_rank = diagonals.shape.rank, rhs.shape.rank
    if d_rank < 2:
        raise ValueError(f"Expected diagonals to have rank at least 2, got {d_rank}")
    if r_rank != d_rank and r_rank != d_rank - 1:
        raise ValueError(f"Expected the rank of rhs to be {d_rank - 1} or {d_rank}, got {r_rank}")
    if not diagonals.shape[:-2].is_compatible_with(rhs.shape[:d_rank - 2]):
        raise ValueError(f"Batch shapes {diagonals.shape[:-2]} and {rhs.shape[:d_rank - 2]} "
                         "are incompatible")
    if diagonals.shape[-2] and diagonals.shape[-2] != 3:
        raise ValueError(f"Expected 3 diagonals got {diagonals.shape[-2]}")


@tf_export("linalg.tridiagonal_solve")
def tridiagonal_solve(diagonals, rhs, diagonals_format="compact", transpose_rhs=False,
                      conjugate_rhs=False, name=None, partial_pivoting=True,
                      perturb_singular=False):
    """X with A X = rhs for tridiagonal A ([..., M, K] rhs, or [..., M] for one vector).

    >>> diagonals = tf.constant([[1.0, 0.0], [2.0, 4.0], [0.0, 0.0]])  # [[2, 1], [0, 4]]
    >>> tf.linalg.tridiagonal_solve(diagonals, tf.constant([4.0, 8.0]))
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([1., 2.], dtype=float32)>
    """
    if perturb_singular and not partial_pivoting:
        raise ValueError("partial_pivoting must be True if perturb_singular is.")
    if perturb_singular:
        raise NotImplementedError(
            "minitf does not implement perturb_singular=True (TF's perturbation of zero "
            "pivots); use perturb_singular=False, where a singular matrix gives NaN.")
    compact = _to_compact(diagonals, diagonals_format)
    rhs = convert_to_tensor(rhs, dtype=compact.dtype)
    _check_compact(compact, rhs)
    vector = rhs.shape.rank == compact.shape.rank - 1
    if vector:  # transpose_rhs is ignored for a vector, as in TF
        rhs = expand_dims(conj(rhs) if conjugate_rhs else rhs, -1)
    elif transpose_rhs:
        rhs = matrix_transpose(rhs, conjugate=conjugate_rhs)
    elif conjugate_rhs:
        rhs = conj(rhs)
    m, n = compact.shape[-1], rhs.shape[-2]
    if m and n and m != n:
        raise ValueError("Expected number of left-hand sided and right-hand sides to be "
                         f"equal, got {m} and {n}")
    out = apply(TridiagonalSolve, [compact, rhs], {"partial_pivoting": bool(partial_pivoting),
                                                   "perturb_singular": False})
    return squeeze(out, -1) if vector else out
