"""tf.sparse.concat, tf.sparse.split and tf.sparse.slice: cutting and joining SparseTensors.

As in sparse_reorder_ops.py, each kernel here works on the structure only: it
returns the new indices and dense_shape and, per new entry, the position of
the value it carries; `tf.gather` moves the values, so gradients reach them.

>>> import minitf as tf
>>> a = tf.SparseTensor([[0, 0], [1, 1]], [1, 2], [2, 2])
>>> b = tf.SparseTensor([[0, 0]], [3], [2, 1])
>>> tf.sparse.to_dense(tf.sparse.concat(1, [a, b])).numpy()
array([[1, 0, 3],
       [0, 2, 0]], dtype=int32)
>>> [s.dense_shape.numpy().tolist() for s in tf.sparse.split(sp_input=a, num_split=2, axis=0)]
[[1, 2], [1, 2]]

SparseConcat sorts its result into row-major order; SparseSplit and
SparseSlice keep the input's order. In TensorFlow these kernels return the
values too, and SparseSlice has a gradient kernel (SparseSliceGrad).
"""
import numpy as np

from ..framework import dtypes, errors
from ..framework.op import Op, apply, type_name
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export
from .sparse_tensor import SparseTensor, check_sparse, row_major_order

_I64 = dtypes.int64


def _fail(op_name, message, hint):
    raise errors.op_error(errors.InvalidArgumentError, op_name, message, hint)


def _gather(values, positions):
    from .gather_ops import gather
    return gather(values, positions)


# --- SparseConcat ----------------------------------------------------------------------------
_CONCAT_HINT = "Sparse inputs are joined along one axis; the other dimensions must agree."


def _concat_shape(shapes, axis, expand):
    rank = shapes[0].size
    for i, shape in enumerate(shapes[1:], 1):
        if shape.size != rank:
            _fail("SparseConcat", f"Ranks of all input tensors must match: expected {rank} "
                  f"but got {shape.size} at position {i}", _CONCAT_HINT)
    if not -rank <= axis < rank:
        _fail("SparseConcat", f"Concat dimension must be in range [{-rank}, {rank}), got "
              f"{axis}", _CONCAT_HINT)
    axis %= rank
    out = np.max(shapes, axis=0) if expand else shapes[0].copy()
    for i, shape in enumerate(shapes[1:], 1):
        for d in range(rank):
            if d != axis and not expand and shape[d] != out[d]:
                _fail("SparseConcat", f"Input shapes must match: expected {out[d]} for "
                      f"dimension {d} but got {shape[d]} at position {i}", _CONCAT_HINT)
    out[axis] = sum(int(s[axis]) for s in shapes)
    return out, axis


def _sparse_concat(*arrays, axis, expand_nonconcat_dims=False):
    n = len(arrays) // 2
    all_indices, shapes = arrays[:n], [np.asarray(s, np.int64) for s in arrays[n:]]
    out_shape, axis = _concat_shape(shapes, axis, expand_nonconcat_dims)
    pieces, offset = [], 0
    for indices, shape in zip(all_indices, shapes):
        moved = indices.copy()
        moved[:, axis] += offset
        pieces.append(moved)
        offset += int(shape[axis])
    joined = np.concatenate(pieces).reshape(-1, out_shape.size)
    order = row_major_order(joined)
    return joined[order], order.astype(np.int64), out_shape


def _concat_static(*shapes, axis, expand_nonconcat_dims=False):
    n = len(shapes) // 2
    return TensorShape([None, shapes[n][0]]), TensorShape([None]), shapes[n]


SparseConcat = Op("SparseConcat", _sparse_concat, num_outputs=3, typed=(),
                  shape=_concat_static, dtype=lambda *d, **a: (_I64, _I64, _I64))


@tf_export("sparse.concat")
def concat(axis, sp_inputs, expand_nonconcat_dims=False, name=None):
    """The SparseTensors `sp_inputs` joined along `axis`, entries in row-major order.

    With expand_nonconcat_dims=True the other dimensions may differ: each becomes
    the largest of the inputs'.

    >>> a = tf.SparseTensor([[0, 0]], [1.0], [1, 2])
    >>> b = tf.SparseTensor([[0, 1]], [2.0], [1, 2])
    >>> tf.sparse.concat(0, [a, b]).indices.numpy().tolist()
    [[0, 0], [1, 1]]
    """
    from .array_ops import concat as dense_concat
    sp_inputs = [check_sparse(s, "sp_inputs") for s in sp_inputs]
    if not sp_inputs:
        raise ValueError("sp_inputs must be a non-empty list of SparseTensors to concatenate.")
    first = sp_inputs[0].dtype
    for i, s in enumerate(sp_inputs[1:], 1):
        if s.dtype != first:
            _fail("SparseConcat", f"cannot compute SparseConcat as input #{len(sp_inputs) + i}"
                  f"(zero-based) was expected to be a {type_name(first)} tensor but is a "
                  f"{type_name(s.dtype)} tensor", "Concatenated SparseTensors share one dtype.")
    inputs = [s.indices for s in sp_inputs] + [s.dense_shape for s in sp_inputs]
    indices, order, shape = apply(SparseConcat, inputs, {
        "axis": int(axis), "expand_nonconcat_dims": bool(expand_nonconcat_dims)})
    values = dense_concat([s.values for s in sp_inputs], axis=0)
    return SparseTensor(indices, _gather(values, order), shape)


# --- SparseSplit ----------------------------------------------------------------------------
def _split_sizes(size, num_split):
    return [size // num_split + (1 if i < size % num_split else 0) for i in range(num_split)]


def _sparse_split(indices, shape, axis, num_split):
    rank = shape.size
    if not -rank <= axis < rank:
        _fail("SparseSplit", f"Input axis should be in range [{-rank}, {rank}), got {axis}",
              "axis names one dimension of the SparseTensor.")
    axis %= rank
    size = int(shape[axis])
    if not 1 <= num_split <= size:
        _fail("SparseSplit", f"Input num_split should be between 1 and the splitting "
              f"dimension size ({size}), got {num_split}", "Each piece needs at least one "
              "slot along axis.")
    outputs, start = [], 0
    for width in _split_sizes(size, num_split):
        keep = np.flatnonzero((indices[:, axis] >= start) & (indices[:, axis] < start + width))
        piece = indices[keep].copy()
        piece[:, axis] -= start
        piece_shape = shape.copy()
        piece_shape[axis] = width
        outputs += [piece, keep.astype(np.int64), piece_shape]
        start += width
    return tuple(outputs)


def _split_static(indices, shape, axis, num_split):
    return (TensorShape([None, indices[1]]), TensorShape([None]), shape) * num_split


SparseSplit = Op("SparseSplit", _sparse_split, num_outputs=None, typed=(),
                 shape=_split_static, dtype=lambda i, s, axis, num_split: (_I64,) * 3 * num_split)


@tf_export("sparse.split")
def split(sp_input=None, num_split=None, axis=None, name=None):
    """`num_split` SparseTensors cut from `sp_input` along `axis` (the first pieces one wider
    when the size does not divide evenly).

    >>> st = tf.SparseTensor([[0, 0], [0, 4], [1, 2]], [1, 2, 3], [2, 5])
    >>> [int(p.dense_shape[1]) for p in tf.sparse.split(sp_input=st, num_split=3, axis=1)]
    [2, 2, 1]
    """
    if sp_input is None:
        raise ValueError("sp_input is required")
    if num_split is None:
        raise ValueError("num_split is required")
    if axis is None:
        raise ValueError("axis is required")
    sp_input = check_sparse(sp_input, "sp_input")
    if int(num_split) < 1:
        raise errors.InvalidArgumentError(
            None, "SparseSplit", f"Value for attr 'num_split' of {int(num_split)} must be at "
            "least minimum 1 (a split gives one or more pieces.)")
    outputs = apply(SparseSplit, [sp_input.indices, sp_input.dense_shape],
                    {"axis": int(axis), "num_split": int(num_split)})
    return [SparseTensor(outputs[i], _gather(sp_input.values, outputs[i + 1]), outputs[i + 2])
            for i in range(0, len(outputs), 3)]


# --- SparseSlice ----------------------------------------------------------------------------
def _sparse_slice(indices, shape, start, size):
    rank = shape.size
    for what, vector in (("start", start), ("size", size)):
        if vector.size != rank:
            _fail("SparseSlice", f"Expected {what} to be a vector of length {rank} but got "
                  f"length {vector.size}", "start and size give one number per dimension.")
    out_shape = np.maximum(np.where(start + size < shape, size, shape - start), 0)
    keep = np.all((indices >= start) & (indices < start + size), axis=1)
    keep = np.flatnonzero(keep)
    return (indices[keep] - start).reshape(-1, rank), keep.astype(np.int64), \
        out_shape.astype(np.int64)


SparseSlice = Op("SparseSlice", _sparse_slice, num_outputs=3, typed=(),
                 shape=lambda i, s, b, z: (TensorShape([None, i[1]]), TensorShape([None]), s),
                 dtype=lambda *d: (_I64, _I64, _I64))


@tf_export("sparse.slice")
def slice(sp_input, start, size, name=None):  # noqa: A001 - TF's name
    """The entries with start <= index < start + size, moved so `start` becomes the origin.

    The result's shape is `size`, cut short where it would pass the end.

    >>> st = tf.SparseTensor([[0, 0], [0, 2], [1, 1]], [1, 2, 3], [2, 3])
    >>> piece = tf.sparse.slice(st, [0, 1], [2, 2])
    >>> piece.indices.numpy().tolist(), piece.values.numpy().tolist()
    ([[0, 1], [1, 0]], [2, 3])
    """
    sp_input = check_sparse(sp_input)
    indices, keep, shape = apply(SparseSlice, [
        sp_input.indices, sp_input.dense_shape, convert_to_tensor(start, dtype=_I64),
        convert_to_tensor(size, dtype=_I64)])
    return SparseTensor(indices, _gather(sp_input.values, keep), shape)
