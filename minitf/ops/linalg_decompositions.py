"""Matrix decompositions: cholesky, eigh / eigvalsh, qr and svd, with TF's gradients.

>>> import minitf as tf
>>> a = tf.constant([[4.0, 2.0], [2.0, 3.0]])
>>> tf.linalg.cholesky(a)
<tf.Tensor: shape=(2, 2), dtype=float32, numpy=
array([[2.       , 0.       ],
       [1.       , 1.4142135]], dtype=float32)>
>>> e, v = tf.linalg.eigh(a)

The forwards are NumPy's LAPACK routines. Eigenvectors and singular vectors
are only defined up to sign (a column v may be replaced by -v), so their signs
can differ from TensorFlow's (which uses Eigen); values, and anything that does
not depend on the sign, agree. The gradients are TF's (linalg_grad.py): they
divide by differences of eigenvalues (or of squared singular values), so they
are infinite when two of them are equal - the vectors are not unique then.
"""
import warnings

import numpy as np

from ..framework import dtypes
from ..framework.op import Op, apply
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export
from .array_ops import concat, expand_dims
from .creation_ops import eye, zeros_like
from .linalg_ops import adjoint, matmul, matrix_transpose
from .linalg_solve_ops import (LINALG_TYPES, check_matrix_inputs, check_square, in_float32,
                               square_rule, triangular_solve)
from .math_ops import cast
from .matrix_diag_ops import band_part, diag, diag_part, set_diag

_CHOLESKY_FAILED = ("Cholesky decomposition was not successful. Eigen::LLT failed with error "
                    "code 1. Filling lower-triangular output with NaNs.")


def _safe_reciprocal(x, epsilon=1e-20):
    """1/x, but 0 instead of inf at x = 0 (TF's Lorentz broadening of 1/x)."""
    return x / (x * x + epsilon)


def _pairwise_reciprocal(values):
    """F[..., i, j] = 1 / (values_j - values_i) off the diagonal, 0 on it."""
    gaps = expand_dims(values, -2) - expand_dims(values, -1)
    return set_diag(_safe_reciprocal(gaps), zeros_like(values))


# --- cholesky ---------------------------------------------------------------------------------
def _cholesky_forward(x):
    check_square("Cholesky", TensorShape(x.shape))
    try:
        return np.linalg.cholesky(x)  # reads only the lower triangle, like TF
    except np.linalg.LinAlgError:
        pass
    # Like TF, a matrix that is not positive definite does not raise: its
    # factor is filled with NaN (and a warning is logged); the rest of the batch is fine.
    warnings.warn(_CHOLESKY_FAILED, RuntimeWarning, stacklevel=2)
    flat = x.reshape((-1,) + x.shape[-2:])
    out = np.zeros_like(flat)
    for i, matrix in enumerate(flat):
        try:
            out[i] = np.linalg.cholesky(matrix)
        except np.linalg.LinAlgError:
            out[i] = np.tril(np.full_like(matrix, np.nan))
    return out.reshape(x.shape)


Cholesky = Op("Cholesky", _cholesky_forward, dtypes=LINALG_TYPES, shape=square_rule("Cholesky"))


@Cholesky.def_grad
def _cholesky_grad(op, dy):
    # With A = L L^H: dA = L^-H Phi(L^H dL) L^-1, symmetrised, where Phi keeps
    # the lower triangle and halves the diagonal (Murray 2016; TF's _CholeskyGrad).
    chol = op.outputs[0]
    n, batch = chol.shape[-1], chol.shape[:-2].as_list()
    chol_inverse = triangular_solve(chol, eye(n, batch_shape=batch, dtype=chol.dtype))
    middle = matmul(chol, dy, adjoint_a=True)
    middle = band_part(set_diag(middle, 0.5 * diag_part(middle)), -1, 0)
    grad = matmul(matmul(chol_inverse, middle, adjoint_a=True), chol_inverse)
    return (grad + adjoint(grad)) * 0.5


@tf_export("linalg.cholesky")
def cholesky(input, name=None):
    """The lower-triangular L with L @ L^H = input, for Hermitian positive definite input.

    Only the lower triangle of `input` is read.
    """
    return apply(Cholesky, [convert_to_tensor(input)])


# --- eigh / eigvalsh --------------------------------------------------------------------------
def _eigh_forward(x, compute_v):
    check_square("SelfAdjointEigV2", TensorShape(x.shape))
    if compute_v:  # reads the lower triangle; eigenvalues ascending (in x's dtype, as TF)
        e, v = np.linalg.eigh(x)
        return e.astype(x.dtype), v
    return np.linalg.eigvalsh(x).astype(x.dtype), np.zeros([0], dtype=x.dtype)


def _eigh_shape(shape, compute_v):
    shape = square_rule("SelfAdjointEigV2")(shape)
    if shape.rank is None:
        return shape, shape
    return shape[:-1], (shape if compute_v else TensorShape([0]))


SelfAdjointEigV2 = Op("SelfAdjointEigV2", _eigh_forward, dtypes=LINALG_TYPES, shape=_eigh_shape,
                      num_outputs=2)


@SelfAdjointEigV2.def_grad
def _eigh_grad(op, grad_e, grad_v):
    e = op.outputs[0]
    if op.attrs["compute_v"]:
        # dA = V (diag(de) + F o (V^H dV)) V^H, with F_ij = 1 / (e_j - e_i).
        v = op.outputs[1]
        inner = diag(grad_e) + _pairwise_reciprocal(e) * matmul(v, grad_v, adjoint_a=True)
    else:
        _, v = eigh(op.inputs[0])
        inner = diag(grad_e)
    grad = matmul(v, matmul(inner, v, adjoint_b=True))
    # The forward read only the lower triangle: fold the gradient onto it.
    grad = band_part(grad + adjoint(grad), -1, 0)
    return set_diag(grad, 0.5 * diag_part(grad))


@tf_export("linalg.eigh")
def eigh(tensor, name=None):
    """Eigen-decomposition of Hermitian matrices: (e, v) with A v[:, i] = e[i] v[:, i].

    Eigenvalues come in ascending order; only the lower triangle of A is read.
    """
    e, v = apply(SelfAdjointEigV2, [convert_to_tensor(tensor)], {"compute_v": True})
    return e, v


@tf_export("linalg.eigvalsh")
def eigvalsh(tensor, name=None):
    """The eigenvalues (ascending) of Hermitian matrices, without the eigenvectors.

    >>> tf.linalg.eigvalsh(tf.constant([[2.0, 1.0], [1.0, 2.0]]))
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([1., 3.], dtype=float32)>
    """
    return apply(SelfAdjointEigV2, [convert_to_tensor(tensor)], {"compute_v": False})[0]


# --- qr ---------------------------------------------------------------------------------------
@in_float32
def _qr_forward(x, full_matrices):
    check_matrix_inputs("Qr", TensorShape(x.shape))
    return np.linalg.qr(x, mode="complete" if full_matrices else "reduced")


def _qr_shape(shape, full_matrices):
    check_matrix_inputs("Qr", shape)
    if shape.rank is None:
        return shape, shape
    batch, (m, n) = shape[:-2], shape[-2:].as_list()
    k = m if full_matrices or None in (m, n) else min(m, n)
    return batch.concatenate([m, k]), batch.concatenate([k, n])


class QrResult(tuple):
    """(q, r), also readable by name, like TF's namedtuple."""

    __slots__ = ()

    def __new__(cls, q, r):
        return super().__new__(cls, (q, r))

    q = property(lambda self: self[0])
    r = property(lambda self: self[1])

    def __repr__(self):
        return f"Qr(q={self[0]!r}, r={self[1]!r})"


Qr = Op("Qr", _qr_forward, dtypes=LINALG_TYPES | {dtypes.float16}, shape=_qr_shape,
        num_outputs=2)


def _solve_right_upper(x, r):
    """x @ inv(r)^H for upper-triangular r, by a triangular solve."""
    return adjoint(triangular_solve(r, adjoint(x), lower=False, adjoint=False))


def _qr_grad_tall(q, r, dq, dr):
    """QR gradient for m >= n, reduced (Liao et al. 2019, arXiv:2009.10071)."""
    qdq = matmul(q, dq, adjoint_a=True)
    rdr = matmul(r, dr, adjoint_b=True)
    tril = band_part(qdq - adjoint(qdq) + rdr - adjoint(rdr), -1, 0)
    grad_a = matmul(q, dr + _solve_right_upper(tril, r))
    return grad_a + _solve_right_upper(dq - matmul(q, qdq), r)


@Qr.def_grad
def _qr_grad(op, dq, dr):
    q, r = op.outputs
    m, n = op.inputs[0].shape[-2], op.inputs[0].shape[-1]
    if op.attrs["full_matrices"] and m > n:
        raise NotImplementedError("QrGrad not implemented when nrows > ncols and "
                                  f"full_matrices is true. Received r.shape={r.shape} with "
                                  f"nrows={m}and ncols={n}.")
    if m >= n:
        return _qr_grad_tall(q, r, dq, dr)
    # Wide matrix: split A = [X | Y] and R = [U | V]; X = Q U is a square QR.
    a = op.inputs[0]
    y, u = a[..., :, m:], r[..., :, :m]
    dv, du = dr[..., :, m:], dr[..., :, :m]
    dx = _qr_grad_tall(q, u, dq + matmul(y, dv, adjoint_b=True), du)
    return concat([dx, matmul(q, dv)], axis=-1)


@tf_export("linalg.qr")
def qr(input, full_matrices=False, name=None):
    """A = Q R with orthonormal columns in Q and upper-triangular R: returns (q, r).

    For an m x n input, reduced (default): q is m x k, r is k x n with k = min(m, n);
    full_matrices=True: q is m x m, r is m x n.

    >>> q, r = tf.linalg.qr(tf.constant([[3.0, 1.0], [4.0, 2.0]]))
    >>> r.shape
    TensorShape([2, 2])
    """
    q, r = apply(Qr, [convert_to_tensor(input)], {"full_matrices": bool(full_matrices)})
    return QrResult(q, r)


# --- svd --------------------------------------------------------------------------------------
def _svd_forward(x, compute_uv, full_matrices):
    check_matrix_inputs("Svd", TensorShape(x.shape))
    real = np.finfo(x.dtype).dtype  # singular values are real
    if not compute_uv:
        empty = np.zeros([0], dtype=x.dtype)
        return np.linalg.svd(x, compute_uv=False).astype(real), empty, empty
    u, s, vh = np.linalg.svd(x, full_matrices=full_matrices)
    return s.astype(real), u, np.conj(np.swapaxes(vh, -1, -2))  # TF returns V, not V^H


def _svd_shape(shape, compute_uv, full_matrices):
    check_matrix_inputs("Svd", shape)
    if shape.rank is None:
        return shape, shape, shape
    batch, (m, n) = shape[:-2], shape[-2:].as_list()
    k = None if None in (m, n) else min(m, n)
    s = batch.concatenate([k])
    if not compute_uv:
        return s, TensorShape([0]), TensorShape([0])
    if full_matrices:
        return s, batch.concatenate([m, m]), batch.concatenate([n, n])
    return s, batch.concatenate([m, k]), batch.concatenate([n, k])


Svd = Op("Svd", _svd_forward, dtypes=LINALG_TYPES, shape=_svd_shape, num_outputs=3,
          dtype=lambda x, **attrs: (x.real_dtype, x, x))  # singular values are real


@Svd.def_grad
def _svd_grad(op, grad_s, grad_u, grad_v):
    a = op.inputs[0]
    grad_s = cast(grad_s, a.dtype)
    if not op.attrs["compute_uv"]:  # ds_i = u_i^H dA v_i, so dA = U diag(ds) V^H
        _, u, v = svd(a, compute_uv=True)
        return matmul(u, matmul(diag(grad_s), v, adjoint_b=True))
    m, n = a.shape[-2], a.shape[-1]
    s, u, v = cast(op.outputs[0], a.dtype), op.outputs[1], op.outputs[2]
    use_adjoint = m > n  # work with the wide matrix A^H = V S U^H, transpose at the end
    if use_adjoint:
        m, n, u, v, grad_u, grad_v = n, m, v, u, grad_v, grad_u
    if op.attrs["full_matrices"] and abs(m - n) > 1:
        raise NotImplementedError(
            "svd gradient is not implemented for abs(m - n) > 1 when full_matrices is "
            f"True. Received: m={m} and n={n}.")
    grad = _svd_grad_wide(s, u, v, grad_s, grad_u, grad_v, m, n, op.attrs["full_matrices"])
    return matrix_transpose(grad, conjugate=True) if use_adjoint else grad


def _svd_grad_wide(s, u, v, grad_s, grad_u, grad_v, m, n, full_matrices):
    """TF's _SvdGrad for m <= n (Townsend 2016, "Differentiating the SVD")."""
    s_mat = diag(s)
    f = _pairwise_reciprocal(s * s)  # 1 / (s_j^2 - s_i^2)
    v1, grad_v1 = v[..., :, :m], grad_v[..., :, :m]
    f_u = f * matmul(u, grad_u, adjoint_a=True)
    v_gv = matmul(v1, grad_v1, adjoint_a=True)
    f_v = f * v_gv
    middle = (diag(grad_s) + matmul(f_u + adjoint(f_u), s_mat)
              + matmul(s_mat, f_v + adjoint(f_v)))
    if s.dtype.is_complex:  # the phase of each singular-vector pair is free: one more term
        phase = diag(diag_part(v_gv))
        middle += 0.5 * matmul(diag(_safe_reciprocal(s)), adjoint(phase) - phase)
    grad = matmul(u, matmul(middle, v1, adjoint_b=True))
    if m == n:
        return grad
    # A wide matrix: V's columns beyond m are not pinned down by A's rows.
    gv1t = matrix_transpose(grad_v1, conjugate=True)
    term = gv1t - matmul(matmul(gv1t, v1), v1, adjoint_b=True)
    if full_matrices:
        v2, grad_v2 = v[..., :, m:n], grad_v[..., :, m:n]
        term -= matmul(matmul(v1, grad_v2, adjoint_a=True), v2, adjoint_b=True)
    u_s_inv = matmul(u, diag(_safe_reciprocal(s)))
    return grad + matmul(u_s_inv, term)


@tf_export("linalg.svd")
def svd(tensor, full_matrices=False, compute_uv=True, name=None):
    """Singular values (descending) and vectors: A = U diag(s) V^H. Returns (s, u, v).

    Note TF's order (s first) and that it returns V itself, not V^H as NumPy does.
    With compute_uv=False only s is returned.

    >>> s = tf.linalg.svd(tf.constant([[3.0, 0.0], [0.0, -4.0]]), compute_uv=False)
    >>> s
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([4., 3.], dtype=float32)>
    """
    s, u, v = apply(Svd, [convert_to_tensor(tensor)],
                    {"compute_uv": bool(compute_uv), "full_matrices": bool(full_matrices)})
    return (s, u, v) if compute_uv else s
