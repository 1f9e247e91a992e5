"""RaggedTensor <-> dense Tensor and SparseTensor.

`to_tensor` pads every row to the longest (or to `shape`) with a gather: each
position of the dense result names the value it shows, or one extra
`default_value` row appended after the values. Because it is a gather, the
gradient of the dense result flows back to the values (and to the default):

>>> import minitf as tf
>>> x = tf.constant([1.0, 2.0, 3.0])
>>> with tf.GradientTape() as tape:
...     tape.watch(x)
...     dense = tf.RaggedTensor.from_row_lengths(x, [2, 1]).to_tensor()
...     y = tf.reduce_sum(dense * [[1.0, 10.0], [100.0, 1000.0]])
>>> tape.gradient(y, x).numpy()
array([  1.,  10., 100.], dtype=float32)

`from_tensor` goes the other way, keeping each row up to its length (given,
or found by stripping trailing `padding`) with a boolean mask.
"""
import numpy as np

from ..framework import dtypes, errors
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..ops.array_ops import broadcast_to, concat, reshape
from ..ops.gather_ops import boolean_mask, gather
from ..ops.sparse_tensor import SparseTensor
from . import ragged_graph
from .ragged_tensor import RaggedTensor


# --- to a dense tensor ----------------------------------------------------------------------
def _default_tensor(rt, default_value):
    dtype = rt.dtype
    if default_value is None:
        default_value = b"" if dtype == dtypes.string else 0
    default = convert_to_tensor(default_value, dtype=dtype)
    inner_rank = rt.flat_values.shape.rank - 1
    if default.shape.rank > inner_rank:
        raise errors.InvalidArgumentError(
            None, "RaggedTensorToTensor",
            f"default_value.shape={default.shape.as_list()} and rt_input.flat_values.shape="
            f"{rt.flat_values.shape.as_list()} are incompatible: default_value.rank = "
            f"{default.shape.rank}  must be less than rt_input.flat_values.rank = "
            f"{inner_rank + 1} [Op:RaggedTensorToTensor] (default_value fills one missing "
            "entry, so its shape is at most the shape of one entry.)")
    return default


def _fit_dense(values, default, dims):
    """Crop or pad a dense `values` along its inner axes to `dims` (None keeps a size)."""
    for axis, want in enumerate(dims, start=1):
        have = values.shape[axis]
        if want is None or want == have:
            continue
        if want < have:
            index = [slice(None)] * values.shape.rank
            index[axis] = slice(0, want)
            values = values[tuple(index)]
        else:
            pad_shape = values.shape.as_list()
            pad_shape[axis] = want - have
            filler = broadcast_to(default, pad_shape[-default.shape.rank:] if default.shape.rank
                                  else [])
            values = concat([values, broadcast_to(filler, pad_shape)], axis)
    return values


def _dense(rt, default, dims):
    """The padded dense form of `rt`; `dims` holds a wanted size (or None) per axis."""
    values = rt.values
    inner = dims[2:]
    if isinstance(values, RaggedTensor):
        values = _dense(values, default, [None] + inner)
    else:
        values = _fit_dense(values, default, inner)
    splits = rt._splits().astype(np.int64)
    lengths = np.diff(splits)
    nrows = len(lengths) if dims[0] is None else dims[0]
    width = (int(lengths.max()) if lengths.size else 0) if dims[1] is None else dims[1]
    nvals = int(splits[-1])  # the number of values (also while a graph is traced)
    rows = np.arange(nrows)
    have = rows < len(lengths)
    starts = np.where(have, splits[np.minimum(rows, len(lengths) - 1)] if len(lengths) else 0, 0)
    row_len = np.where(have, lengths[np.minimum(rows, len(lengths) - 1)] if len(lengths) else 0,
                       0)
    cols = np.arange(width)
    index = np.where(cols < row_len[:, None], starts[:, None] + cols, nvals)
    pad_row = broadcast_to(default, [1] + values.shape.as_list()[1:])
    return gather(concat([values, pad_row], 0), index.astype(np.int64))


def to_tensor(rt, default_value=None, shape=None):
    """RaggedTensor.to_tensor: see the module docstring."""
    default = _default_tensor(rt, default_value)
    rank = rt.shape.rank
    dims = [None] * rank
    if shape is not None:
        shape = TensorShape(shape)
        if shape.rank is not None and shape.rank != rank:
            raise errors.InvalidArgumentError(
                None, "RaggedTensorToTensor",
                f"rt_input.shape and shape={shape.as_list()} are incompatible: rt_input.rank = "
                f"{rank} but shape.rank = {shape.rank} [Op:RaggedTensorToTensor] (shape "
                "names one size, or None, per axis of the ragged tensor.)")
        if shape.rank is not None:
            dims = shape.as_list()
    if ragged_graph.is_traced(rt):  # inside tf.function / Dataset.map
        return ragged_graph.to_tensor(rt, default, None if shape is None else dims)
    return _dense(rt, default, dims)


# --- from a dense tensor --------------------------------------------------------------------
def _lengths_from_padding(tensor, padding):
    padding = convert_to_tensor(padding, dtype=tensor.dtype).numpy()
    array = tensor.numpy()
    is_pad = array == padding
    if is_pad.ndim > 2:
        is_pad = is_pad.reshape(is_pad.shape[:2] + (-1,)).all(axis=2)
    keep = ~is_pad  # a row ends after its last entry that is not padding
    ncols = array.shape[1]
    last = np.where(keep.any(axis=1), ncols - np.argmax(keep[:, ::-1], axis=1), 0)
    return last


def _check_from_tensor(tensor, lengths, padding, ragged_rank):
    if lengths is not None and padding is not None:
        raise ValueError("Specify argument `lengths` or `padding`, but not both.")
    if not isinstance(ragged_rank, int):
        raise TypeError(f"Argument `ragged_rank` must be an int. Received {ragged_rank}.")
    if ragged_rank <= 0:
        raise ValueError(f"Argument `ragged_rank` must be greater than 0. Received "
                         f"{ragged_rank}.")
    rank = tensor.shape.rank
    if rank <= 1:
        raise ValueError("The rank of a RaggedTensor must be greater than 1, i.e., a list of "
                         "scalars won't have ragged dimensions. Received argument `tensor` "
                         f"with rank {rank}.")
    if ragged_rank >= rank:
        raise ValueError(f"Shape {tensor.shape} must have rank at least {ragged_rank + 1}")


def from_tensor(tensor, lengths=None, padding=None, ragged_rank=1,
                row_splits_dtype=dtypes.int64):
    """RaggedTensor.from_tensor: see the module docstring."""
    tensor = convert_to_tensor(tensor)
    _check_from_tensor(tensor, lengths, padding, ragged_rank)
    dims = tensor.shape.as_list()
    if ragged_rank > 1:  # cut the merged leading axes, then add uniform partitions above
        merged = int(np.prod(dims[:ragged_rank]))
        result = from_tensor(reshape(tensor, [merged] + dims[ragged_rank:]), lengths, padding,
                             1, row_splits_dtype)
        for axis in range(ragged_rank - 1, 0, -1):
            result = RaggedTensor.from_uniform_row_length(
                result, dims[axis], nrows=int(np.prod(dims[:axis])), validate=False)
        return result
    nrows, ncols = dims[:2]
    if lengths is None and padding is None:
        return RaggedTensor.from_uniform_row_length(
            reshape(tensor, [nrows * ncols] + dims[2:]), ncols, nrows=nrows)
    if padding is not None:
        row_lengths = _lengths_from_padding(tensor, padding)
    else:
        row_lengths = np.minimum(np.asarray(convert_to_tensor(lengths).numpy()), ncols)
    mask = np.arange(ncols)[None, :] < row_lengths[:, None]
    values = boolean_mask(tensor, mask)
    lengths = convert_to_tensor(row_lengths.astype(row_splits_dtype.as_numpy_dtype))
    return RaggedTensor.from_row_lengths(values, lengths, validate=False)


# --- SparseTensor ---------------------------------------------------------------------------
def _value_positions(rt):
    """For each row of flat_values, its (row, column, ...) index in the ragged tensor."""
    splits = rt._splits().astype(np.int64)
    rowids = np.repeat(np.arange(len(splits) - 1), np.diff(splits))
    positions = np.stack([rowids, np.arange(splits[-1]) - splits[rowids]], axis=1)
    values = rt.values
    while isinstance(values, RaggedTensor):
        splits = values._splits().astype(np.int64)
        rowids = np.repeat(np.arange(len(splits) - 1), np.diff(splits))
        columns = (np.arange(splits[-1]) - splits[rowids])[:, None]
        positions = np.concatenate([positions[rowids], columns], axis=1)
        values = values.values
    return positions


def to_sparse(rt):
    """RaggedTensor.to_sparse: one entry per scalar value, at its position."""
    flat = rt.flat_values
    positions = _value_positions(rt)
    inner = flat.shape.as_list()[1:]
    if inner:  # each value row holds a block of scalars: list their inner indices too
        inner_index = np.indices(inner).reshape(len(inner), -1).T
        positions = np.concatenate([
            np.repeat(positions, len(inner_index), axis=0),
            np.tile(inner_index, (len(positions), 1))], axis=1)
    values = reshape(flat, [-1])
    return SparseTensor(positions.reshape(-1, rt.shape.rank).astype(np.int64), values,
                        rt.bounding_shape(out_type=dtypes.int64))


def from_sparse(st_input, row_splits_dtype=dtypes.int64):
    """RaggedTensor.from_sparse: rows of a 2-D SparseTensor packed to the left."""
    if not isinstance(st_input, SparseTensor):
        raise TypeError(f"st_input must be a SparseTensor, not {type(st_input).__name__}.")
    if st_input.indices.shape[1] != 2:
        raise ValueError("rank(st_input) must be 2.")
    indices = st_input.indices.numpy()
    rows, cols = indices[:, 0], indices[:, 1]
    starts = np.r_[True, rows[1:] != rows[:-1]] if len(rows) else np.zeros(0, bool)
    expected = np.arange(len(rows)) - np.maximum.accumulate(np.where(starts, np.arange(
        len(rows)), 0)) if len(rows) else cols
    if np.any(cols != expected) or np.any(np.diff(rows) < 0):
        shown = ", ".join(", ".join(str(v) for v in index) for index in indices)
        raise errors.InvalidArgumentError(
            None, None, "Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be true. "
            f"Summarized data: b'SparseTensor is not right-ragged'\nb'SparseTensor.indices ='\n"
            f"{shown}\n(Each row's entries must sit at columns 0, 1, 2, ... with no gap, "
            "sorted by row.)")
    nrows = int(st_input.dense_shape.numpy()[0])
    return RaggedTensor.from_value_rowids(
        st_input.values, rows.astype(row_splits_dtype.as_numpy_dtype), nrows=nrows,
        validate=False)
