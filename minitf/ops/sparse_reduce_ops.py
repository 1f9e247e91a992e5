"""tf.sparse.reduce_sum, tf.sparse.reduce_max and tf.sparse.softmax.

A reduction groups the stored entries by the index they have on the axes that
stay, and sums (or takes the maximum of) each group. `reduce_max` looks at the
stored entries only: a row of negative entries has a negative maximum, though
its missing entries are zeros; a group with no entries at all gives 0.

>>> import minitf as tf
>>> st = tf.SparseTensor([[0, 0], [1, 1]], [-1.0, -3.0], [2, 3])
>>> tf.sparse.reduce_max(st, axis=1).numpy()
array([-1., -3.], dtype=float32)
>>> tf.sparse.reduce_max(st, axis=0).numpy()
array([-1., -3.,  0.], dtype=float32)
>>> tf.sparse.softmax(tf.SparseTensor([[0, 0], [0, 2]], [1.0, 2.0], [1, 3])).values.numpy()
array([0.2689414, 0.7310586], dtype=float32)

`softmax` works along the last axis, over the stored entries only (the missing
ones are not zeros that take a share: they stay missing). TF's kernel uses
Eigen's exp, so float32 results may differ from these in the last bit.
"""
import numpy as np

from ..framework import dtypes, errors
from ..framework.op import Op, apply
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export
from .sparse_tensor import SparseTensor, check_sparse

_I64 = dtypes.int64


def _axes(op_name, axes, rank):
    found = []
    for axis in np.reshape(axes, [-1]).tolist():
        if not -rank <= axis < rank:
            raise errors.op_error(
                errors.InvalidArgumentError, op_name, f"Invalid reduction dimension {axis}, "
                f"for input with {rank} dimensions.", "axis names dimensions of the "
                "SparseTensor: -rank <= axis < rank.")
        found.append(axis % rank)
    return sorted(set(found))


def _groups(op_name, indices, shape, axes, keep_dims):
    """Each entry's group (flat position among the kept axes) and the output shape."""
    axes = _axes(op_name, axes, shape.size)
    kept = [d for d in range(shape.size) if d not in axes]
    kept_shape = [int(shape[d]) for d in kept]
    group = np.zeros(indices.shape[0], np.int64)
    for d, size in zip(kept, kept_shape):
        group = group * size + indices[:, d]
    out_shape = [1 if d in axes else int(shape[d]) for d in range(shape.size)] if keep_dims \
        else kept_shape
    return group, int(np.prod(kept_shape, dtype=np.int64)), out_shape


def _reduce(kind, values, group, count):
    if kind == "sum":
        out = np.zeros(count, values.dtype)
        np.add.at(out, group, values)
        return out, np.bincount(group, minlength=count) > 0
    out = np.zeros(count, values.dtype)
    seen = np.zeros(count, bool)
    for g, v in zip(group.tolist(), values.tolist()):  # a group's first value starts it
        out[g] = v if not seen[g] else max(out[g], v)
        seen[g] = True
    return out, seen


def _dense_forward(kind, op_name):
    def forward(indices, values, shape, axes, keep_dims=False):
        group, count, out_shape = _groups(op_name, indices, shape, axes, keep_dims)
        out, _ = _reduce(kind, values, group, count)
        return out.reshape(out_shape)
    return forward


def _sparse_forward(kind, op_name):
    def forward(indices, values, shape, axes, keep_dims=False):
        group, count, out_shape = _groups(op_name, indices, shape, axes, keep_dims)
        out, seen = _reduce(kind, values, group, count)
        present = np.flatnonzero(seen)
        out_indices = np.stack(np.unravel_index(present, out_shape), axis=1) if out_shape \
            else np.zeros((present.size, 0), np.int64)
        return out_indices.astype(np.int64), out[present], np.array(out_shape, np.int64)
    return forward


def _dense_shape_rule(i, v, s, a, keep_dims=False):
    return TensorShape(None)


def _sparse_shape_rule(i, v, s, a, keep_dims=False):
    return TensorShape([None, None]), TensorShape([None]), TensorShape([None])


SparseReduceSum = Op("SparseReduceSum", _dense_forward("sum", "SparseReduceSum"), typed=(1,),
                     shape=_dense_shape_rule)
SparseReduceMax = Op("SparseReduceMax", _dense_forward("max", "SparseReduceMax"), typed=(1,),
                     shape=_dense_shape_rule)
SparseReduceSumSparse = Op(
    "SparseReduceSumSparse", _sparse_forward("sum", "SparseReduceSumSparse"), typed=(1,),
    num_outputs=3, shape=_sparse_shape_rule, dtype=lambda i, v, *r, **a: (_I64, v, _I64))
SparseReduceMaxSparse = Op(
    "SparseReduceMaxSparse", _sparse_forward("max", "SparseReduceMaxSparse"), typed=(1,),
    num_outputs=3, shape=_sparse_shape_rule, dtype=lambda i, v, *r, **a: (_I64, v, _I64))


def read_back(dy, indices, dense_shape, axes):
    """dy (the reduced result) read at each entry's group: the gradient of a sum.

    TF's `_SparseReduceSumGrad`: reshape dy with 1s on the reduced axes, then
    gather_nd at the indices with those axes set to 0.
    """
    from .array_ops import reshape
    from .gather_ops import gather_nd
    from .math_ops import where
    rank = dense_shape.shape[0]
    reduced = np.zeros(rank, bool)
    reduced[_axes("SparseReduceSum", axes, rank)] = True
    kept_shape = where(convert_to_tensor(reduced), convert_to_tensor(1, dtype=_I64),
                       dense_shape)
    zeroed = indices * convert_to_tensor((~reduced).astype(np.int64))
    return gather_nd(reshape(dy, kept_shape), zeroed)


@SparseReduceSum.def_grad
def _sparse_reduce_sum_grad(op, dy):
    indices, _, dense_shape, axes = op.inputs
    from .shape_ops import constant_value
    return None, read_back(dy, indices, dense_shape, constant_value(axes)), None, None


def _reduce_call(dense_op, sparse_op, sp_input, axis, keepdims, output_is_sparse):
    sp_input = check_sparse(sp_input, "sp_input")
    rank = sp_input.dense_shape.shape[0]
    axes = list(range(rank)) if axis is None else axis
    axes = convert_to_tensor(axes, dtype=dtypes.int32)
    inputs = [sp_input.indices, sp_input.values, sp_input.dense_shape, axes]
    attrs = {"keep_dims": bool(keepdims)}
    if output_is_sparse:
        return SparseTensor(*apply(sparse_op, inputs, attrs))
    return apply(dense_op, inputs, attrs)


@tf_export("sparse.reduce_sum")
def reduce_sum(sp_input, axis=None, keepdims=None, output_is_sparse=False, name=None):
    """The sum of the stored entries over `axis` (all axes if None): a dense Tensor, or a
    SparseTensor of the non-empty groups with output_is_sparse=True.

    >>> st = tf.SparseTensor([[0, 0], [0, 2], [1, 1]], [1.0, -2.0, 3.0], [2, 3])
    >>> tf.sparse.reduce_sum(st, axis=1, keepdims=True).numpy()
    array([[-1.],
           [ 3.]], dtype=float32)
    """
    return _reduce_call(SparseReduceSum, SparseReduceSumSparse, sp_input, axis, keepdims,
                        output_is_sparse)


@tf_export("sparse.reduce_max")
def reduce_max(sp_input, axis=None, keepdims=None, output_is_sparse=False, name=None):
    """The maximum of the stored entries over `axis` (0 where a group has none); dense, or a
    SparseTensor of the non-empty groups with output_is_sparse=True.

    >>> st = tf.SparseTensor([[0, 0], [1, 1]], [-1.0, -3.0], [2, 3])
    >>> tf.sparse.reduce_max(st, 0, output_is_sparse=True).values.numpy()
    array([-1., -3.], dtype=float32)
    """
    return _reduce_call(SparseReduceMax, SparseReduceMaxSparse, sp_input, axis, keepdims,
                        output_is_sparse)


# --- SparseSoftmax ---------------------------------------------------------------------------
def _sparse_softmax(indices, values, shape):
    if shape.size < 2:
        raise errors.op_error(
            errors.InvalidArgumentError, "SparseSoftmax", f"Input should have rank >= 2, but "
            f"received shape: {shape.tolist()[0] if shape.size else shape.tolist()}",
            "softmax runs along the last axis within each row, so a row axis is needed.")
    group = np.zeros(indices.shape[0], np.int64)
    for d in range(shape.size - 1):
        group = group * int(shape[d]) + indices[:, d]
    top = np.full(group.max(initial=-1) + 1, -np.inf, values.dtype)
    np.maximum.at(top, group, values)
    e = np.exp(values - top[group])
    total = np.zeros_like(top)
    np.add.at(total, group, e)
    return (e / total[group]).astype(values.dtype)


SparseSoftmax = Op("SparseSoftmax", _sparse_softmax, typed=(1,),
                   dtypes={dtypes.float16, dtypes.float32, dtypes.float64},
                   shape=lambda i, v, s: v)


@SparseSoftmax.def_grad
def _sparse_softmax_grad(op, dy):
    """d values = (dy - sum over the row of dy * y) * y, y the softmax (TF's formula)."""
    indices, _, dense_shape = op.inputs
    y = op.outputs[0]
    row_sums = apply(SparseReduceSum, [indices, dy * y, dense_shape,
                                       convert_to_tensor([-1])], {"keep_dims": True})
    return None, (dy - read_back(row_sums, indices, dense_shape, [-1])) * y, None


@tf_export("sparse.softmax")
def softmax(sp_input, name=None):
    """Softmax along the last axis over the stored entries of each row; same indices.

    >>> st = tf.SparseTensor([[0, 0], [0, 2], [1, 1]], [1.0, 1.0, 5.0], [2, 3])
    >>> tf.sparse.softmax(st).values.numpy()
    array([0.5, 0.5, 1. ], dtype=float32)
    """
    sp_input = check_sparse(sp_input, "sp_input")
    values = apply(SparseSoftmax, [sp_input.indices, sp_input.values, sp_input.dense_shape])
    return SparseTensor(sp_input.indices, values, sp_input.dense_shape)
