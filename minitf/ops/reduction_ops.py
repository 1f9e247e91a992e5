"""Reductions: `reduce_sum`, `reduce_mean`, `reduce_max`, ... over axes.

>>> import minitf as tf
>>> x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
>>> tf.reduce_sum(x, axis=0)
<tf.Tensor: shape=(2,), dtype=float32, numpy=array([4., 6.], dtype=float32)>
>>> tf.reduce_mean(x, axis=1, keepdims=True).shape
TensorShape([2, 1])

Every reduction op takes `axis` as a tuple of non-negative ints (the Python
wrapper normalises `None`, negatives and tensors) and `keepdims`.
"""
import numpy as np

from ..framework import dtypes, errors
from ..framework.op import Op, apply
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export


def reduced_shape(shape, axis, keepdims):
    if shape.rank is None:
        return TensorShape(None)
    dims = shape.dims
    if keepdims:
        return TensorShape([1 if i in axis else d for i, d in enumerate(dims)])
    return TensorShape([d for i, d in enumerate(dims) if i not in axis])


def _reduction_rule(name):
    def rule(shape, axis, keepdims):
        return reduced_shape(shape, axis, keepdims)

    rule.__name__ = f"{name}_shape"
    return rule


def normalize_axes(op_name, x, axis):
    """`axis` (None, int, list, or tensor) -> a sorted tuple of non-negative axes."""
    rank = x.shape.rank
    if axis is None:
        return tuple(range(rank))
    if hasattr(axis, "numpy"):
        axis = axis.numpy().tolist()
    axes = [axis] if np.ndim(axis) == 0 else list(axis)
    out = []
    for a in axes:
        a = int(a)
        if not -rank <= a < rank:
            raise errors.op_error(
                errors.InvalidArgumentError, op_name,
                f"Invalid reduction dimension ({a} for input with {rank} dimension(s)",
                f"axis must be in [-{rank}, {rank}) for a rank-{rank} tensor.")
        out.append(a % rank)
    return tuple(sorted(set(out)))


def _reduce(op, x, axis, keepdims, dtype_hint=None):
    x = convert_to_tensor(x, dtype_hint=dtype_hint)
    axes = normalize_axes(op.name, x, axis)
    return apply(op, [x], {"axis": axes, "keepdims": bool(keepdims)})


def _restore_shape(dy, op):
    """Reshape a reduction's gradient so it broadcasts back over the reduced axes."""
    from .array_ops import reshape

    if op.attrs["keepdims"]:
        return dy
    shape = [1 if i in op.attrs["axis"] else d for i, d in enumerate(op.inputs[0].shape)]
    return reshape(dy, shape)


# --- sum --------------------------------------------------------------------------
Sum = Op("Sum", lambda x, axis, keepdims: np.sum(x, axis=axis, keepdims=keepdims, dtype=x.dtype),
         dtypes=dtypes.NUMERIC, shape=_reduction_rule("Sum"))


@Sum.def_grad
def _sum_grad(op, dy):
    from .array_ops import broadcast_to

    return broadcast_to(_restore_shape(dy, op), op.inputs[0].shape)


@tf_export("math.reduce_sum", "reduce_sum")
def reduce_sum(input_tensor, axis=None, keepdims=False, name=None):
    """Sum over `axis` (all axes when None): `sum_i x[..., i, ...]`."""
    return _reduce(Sum, input_tensor, axis, keepdims)


# --- mean -------------------------------------------------------------------------
def _mean_forward(x, axis, keepdims):
    if x.dtype.kind in "iu":  # TF's integer mean truncates toward zero
        total = np.sum(x, axis=axis, keepdims=keepdims, dtype=np.int64)
        count = int(np.prod([x.shape[a] for a in axis])) if axis else 1
        return np.trunc(total / max(count, 1)).astype(x.dtype) if count else \
            np.zeros_like(total, dtype=x.dtype)
    return np.mean(x, axis=axis, keepdims=keepdims, dtype=x.dtype) if x.size else \
        np.full(reduced_shape(TensorShape(x.shape), axis, keepdims).as_list(), np.nan, x.dtype)


Mean = Op("Mean", _mean_forward, dtypes=dtypes.NUMERIC, shape=_reduction_rule("Mean"))


@Mean.def_grad
def _mean_grad(op, dy):
    from .array_ops import broadcast_to

    count = 1
    for a in op.attrs["axis"]:
        count *= op.inputs[0].shape[a]
    return broadcast_to(_restore_shape(dy, op), op.inputs[0].shape) / count


@tf_export("math.reduce_mean", "reduce_mean")
def reduce_mean(input_tensor, axis=None, keepdims=False, name=None):
    """Mean over `axis`. Integer tensors give an integer (truncated) mean, as in TF."""
    return _reduce(Mean, input_tensor, axis, keepdims)
