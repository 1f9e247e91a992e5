"""Matrix products and linear algebra: matmul, tensordot, einsum, tf.linalg.*.

>>> import minitf as tf
>>> a = tf.constant([[1.0, 2.0]])
>>> tf.matmul(a, a, transpose_b=True)
<tf.Tensor: shape=(1, 1), dtype=float32, numpy=array([[5.]], dtype=float32)>
"""
import numpy as np

from ..framework import dtypes, errors
from ..framework.op import Op, apply
from ..framework.tensor import convert_to_tensor

from ..framework.tf_export import tf_export
from .shape_rules import broadcast, dims_text
from .unbroadcast import unbroadcast

_MATMUL_TYPES = dtypes.FLOATING | dtypes.COMPLEX | {dtypes.int32, dtypes.int64}


def _matmul_forward(a, b, transpose_a, transpose_b):
    if transpose_a:
        a = np.swapaxes(a, -1, -2)
    if transpose_b:
        b = np.swapaxes(b, -1, -2)
    return np.matmul(a, b)


def _matmul_shape(a, b, transpose_a, transpose_b):
    name = "MatMul" if a.rank == 2 and b.rank == 2 else "BatchMatMulV2"
    if a.rank is not None and b.rank is not None and (a.rank < 2 or b.rank < 2):
        raise errors.op_error(
            errors.InvalidArgumentError, name,
            f"In[0] and In[1] ndims must be == 2: {min(a.rank, b.rank)}" if name == "MatMul"
            else f"In[0] and In[1] has different ndims: {dims_text(a)} vs. {dims_text(b)}",
            "matmul multiplies matrices (rank >= 2); for vectors use tf.tensordot or "
            "reshape to [1, n] / [n, 1] first.")
    a_rows, a_cols = (a[-1], a[-2]) if transpose_a else (a[-2], a[-1])
    b_rows, b_cols = (b[-1], b[-2]) if transpose_b else (b[-2], b[-1])
    if a_cols is not None and b_rows is not None and a_cols != b_rows:
        raise errors.op_error(
            errors.InvalidArgumentError, name,
            f"Matrix size-incompatible: In[0]: {dims_text(a)}, In[1]: {dims_text(b)}",
            f"The columns of the first matrix ({a_cols}) must equal the rows of the second "
            f"({b_rows}).")
    batch = broadcast(name)(a[:-2], b[:-2])
    return batch.concatenate([a_rows, b_cols])


MatMul = Op("MatMul", _matmul_forward, dtypes=_MATMUL_TYPES, shape=_matmul_shape)


@MatMul.def_grad
def _matmul_grad(op, dy):
    a, b = op.inputs
    ta, tb = op.attrs["transpose_a"], op.attrs["transpose_b"]
    if not ta and not tb:
        da, db = matmul(dy, b, transpose_b=True), matmul(a, dy, transpose_a=True)
    elif ta and not tb:
        da, db = matmul(b, dy, transpose_b=True), matmul(a, dy)
    elif not ta and tb:
        da, db = matmul(dy, b), matmul(dy, a, transpose_a=True)
    else:
        da, db = matmul(b, dy, transpose_a=True, transpose_b=True), \
            matmul(dy, a, transpose_a=True, transpose_b=True)
    return unbroadcast(da, a.shape), unbroadcast(db, b.shape)


@tf_export("linalg.matmul", "matmul")
def matmul(a, b, transpose_a=False, transpose_b=False, adjoint_a=False, adjoint_b=False,
           a_is_sparse=False, b_is_sparse=False, output_type=None, grad_a=False, grad_b=False,
           name=None):
    """The matrix product a @ b over the last two axes; leading (batch) axes broadcast.

    transpose_a/b transpose a matrix first; adjoint_a/b also conjugate it.
    """
    from .math_ops import binary_args, conj

    a, b = binary_args(a, b)
    if adjoint_a:
        a, transpose_a = conj(a), True
    if adjoint_b:
        b, transpose_b = conj(b), True
    if a.shape.rank < 2 or b.shape.rank < 2:
        _matmul_shape(a.shape, b.shape, transpose_a, transpose_b)
    return apply(MatMul, [a, b], {"transpose_a": bool(transpose_a),
                                  "transpose_b": bool(transpose_b)})



