"""General (non-Hermitian) eigenproblems: tf.linalg.eig and eigvals (also tf.eig, tf.eigvals).

>>> import minitf as tf
>>> e = tf.linalg.eigvals(tf.constant([[0.0, -1.0], [1.0, 0.0]], tf.float64))  # a rotation
>>> e.dtype, e.numpy().round(6)
(tf.complex128, array([0.+1.j, 0.-1.j]))

A real matrix can have complex eigenvalues, so the outputs are always complex
(complex64 for float32 and complex64 input, complex128 for float64 and
complex128). Each eigenvector has norm 1. The forward is NumPy's LAPACK
routine, TF's is Eigen's ComplexEigenSolver: the eigenvalues are the same but
may come in another order, and an eigenvector (defined only up to a factor
e^(i phi)) may have another phase; A v = v e holds either way. The gradient is TF's _EigGrad: with F_ij = 1 / conj(e_j - e_i),
dA = V^-H (diag(de) + F o (V^H dV - V^H V diag(Re(V^H dV)))) V^H.
"""
import numpy as np

from ..framework import dtypes
from ..framework.op import Op, apply
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export
from .array_ops import expand_dims
from .complex_ops import real
from .creation_ops import zeros_like
from .linalg_ops import adjoint, matmul
from .linalg_solve_ops import LINALG_TYPES, check_square, solve, square_rule
from .math_ops import cast, conj
from .unary_ops import reciprocal
from .matrix_diag_ops import diag, diag_part, set_diag

_COMPLEX_OF = {dtypes.float32: dtypes.complex64, dtypes.complex64: dtypes.complex64,
               dtypes.float64: dtypes.complex128, dtypes.complex128: dtypes.complex128}


def _eig_forward(x, compute_v):
    check_square("Eig", TensorShape(x.shape))
    out = _COMPLEX_OF[dtypes.as_dtype(x.dtype)].as_numpy_dtype
    e, v = np.linalg.eig(x.astype(out))
    return e.astype(out), (v.astype(out) if compute_v else np.zeros([0], out))


def _eig_shape(shape, compute_v):
    shape = square_rule("Eig")(shape)
    if shape.rank is None:
        return shape, shape
    return shape[:-1], (shape if compute_v else TensorShape([0]))


def _eig_dtype(x, compute_v):
    out = _COMPLEX_OF[x]
    return out, out


Eig = Op("Eig", _eig_forward, dtypes=LINALG_TYPES, shape=_eig_shape, num_outputs=2,
         dtype=_eig_dtype)


@Eig.def_grad
def _eig_grad(op, grad_e, grad_v):
    a = op.inputs[0]
    e = op.outputs[0]
    v = op.outputs[1] if op.attrs["compute_v"] else eig(a)[1]
    vt = adjoint(v)
    f = conj(set_diag(reciprocal(expand_dims(e, -2) - expand_dims(e, -1)), zeros_like(e)))
    middle = diag(grad_e)
    if op.attrs["compute_v"]:
        vgv = matmul(vt, grad_v)
        diag_real = diag(cast(real(diag_part(vgv)), vgv.dtype))
        middle += f * (vgv - matmul(matmul(vt, v), diag_real))
    grad_a = solve(vt, matmul(middle, vt))
    return grad_a if a.dtype.is_complex else real(grad_a)


@tf_export("linalg.eig", "eig")
def eig(tensor, name=None):
    """Eigenvalues and eigenvectors of square matrices: (e, v) with A v[:, i] = e[i] v[:, i].

    >>> e, v = tf.linalg.eig(tf.constant([[2.0, 0.0], [0.0, 1.0]]))
    >>> e
    <tf.Tensor: shape=(2,), dtype=complex64, numpy=array([2.+0.j, 1.+0.j], dtype=complex64)>
    """
    e, v = apply(Eig, [convert_to_tensor(tensor)], {"compute_v": True})
    return e, v


@tf_export("linalg.eigvals", "eigvals")
def eigvals(tensor, name=None):
    """The (complex) eigenvalues of square matrices, without the eigenvectors."""
    return apply(Eig, [convert_to_tensor(tensor)], {"compute_v": False})[0]
