"""Sort entries into groups and back, find places and count: tf.dynamic_partition,
tf.dynamic_stitch, tf.unique_with_counts, tf.searchsorted, tf.unravel_index,
tf.histogram_fixed_width and tf.histogram_fixed_width_bins.

>>> import minitf as tf
>>> evens, odds = tf.dynamic_partition([10, 11, 12, 13], [0, 1, 0, 1], num_partitions=2)
>>> tf.dynamic_stitch([[0, 2], [1, 3]], [evens, odds])
<tf.Tensor: shape=(4,), dtype=int32, numpy=array([10, 11, 12, 13], dtype=int32)>

The two are each other's gradient: partition's gradient stitches the pieces' gradients
back into place, stitch's gathers each piece's gradient from the result (a position
written twice still hands its gradient to both writers, as in TensorFlow).
"""
import collections

import numpy as np

from ..framework import dtypes, errors
from ..framework.op import Op, apply
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export
from .array_ops import reshape
from .clip_ops import clip_by_value
from .creation_ops import range as tf_range
from .gather_ops import gather
from .math_ops import cast, truediv
from .unary_ops import floor
from .shape_ops import shape as tf_shape
from .shape_rules import dims_text
from .sort_ops import _unique_forward, _unique_shape


def _error(op_name, message, hint):
    return errors.op_error(errors.InvalidArgumentError, op_name, message, hint)


def _check_int(op_name, attr, t, allowed=(dtypes.int32, dtypes.int64)):
    if t.dtype not in allowed:
        names = ", ".join(dtypes.tf_type_name(d) for d in allowed)
        raise _error(op_name, f"Value for attr '{attr}' of {dtypes.tf_type_name(t.dtype)} is "
                     f"not in the list of allowed values: {names}",
                     f"{attr} must be integers: tf.cast it first.")


# --- dynamic_partition -----------------------------------------------------------------------
def _partition_forward(data, partitions, num_partitions):
    if data.shape[:partitions.ndim] != partitions.shape:
        raise _error("DynamicPartition", "data.shape must start with partitions.shape, got "
                     f"data.shape = {dims_text(data.shape)}, partitions.shape = "
                     f"{dims_text(partitions.shape)}",
                     "Give one partition number per leading entry of data.")
    flat = partitions.reshape(-1)
    bad = np.flatnonzero((flat < 0) | (flat >= num_partitions))
    if bad.size:
        i = bad[0]
        raise _error("DynamicPartition", f"partitions[{i}] = {flat[i]} is not in [0, "
                     f"{num_partitions})", f"Each partition number must be below "
                     f"num_partitions={num_partitions}.")
    rows = data.reshape((flat.size,) + data.shape[partitions.ndim:])
    return tuple(rows[flat == p] for p in range(num_partitions))


def _partition_shape(data, partitions, num_partitions):
    rest = data.dims[partitions.rank:] if data.rank is not None and partitions.rank is not None \
        else None
    return tuple(TensorShape(None if rest is None else [None] + rest)
                 for _ in range(num_partitions))


DynamicPartition = Op("DynamicPartition", _partition_forward, typed=(), num_outputs=None,
                      shape=_partition_shape)


@DynamicPartition.def_grad
def _partition_grad(op, *dys):  # TF's _DynamicPartitionGrads: stitch the pieces back
    data, partitions = op.inputs
    count = tf_range(0, apply(_Size, [partitions]))
    positions = reshape(count, tf_shape(partitions))
    pieces = dynamic_partition(positions, partitions, op.attrs["num_partitions"])
    return reshape(dynamic_stitch(pieces, list(dys)), tf_shape(data)), None


_Size = Op("Size", lambda x: np.array(x.size, np.int32), typed=(), dtype=dtypes.int32,
           shape=lambda x: TensorShape([]))


@tf_export("dynamic_partition")
def dynamic_partition(data, partitions, num_partitions, name=None):
    """Split `data` into `num_partitions` tensors: entry i goes to output `partitions[i]`.

    `partitions` matches the leading axes of `data`; order is kept within each output.

    >>> [p.numpy().tolist() for p in tf.dynamic_partition([10, 20, 30, 40], [0, 1, 0, 2], 3)]
    [[10, 30], [20], [40]]
    """
    data, partitions = convert_to_tensor(data), convert_to_tensor(partitions)
    _check_int("DynamicPartition", "partitions", partitions, (dtypes.int32,))
    if not isinstance(num_partitions, (int, np.integer)) or num_partitions < 1:
        raise _error("DynamicPartition", f"Value for attr 'num_partitions' of {num_partitions}"
                     " must be at least minimum 1", "num_partitions is a positive Python int.")
    return list(apply(DynamicPartition, [data, partitions],
                      {"num_partitions": int(num_partitions)}))


# --- dynamic_stitch --------------------------------------------------------------------------
def _stitch_forward(*arrays, N):
    indices, data = arrays[:N], arrays[N:]
    for i, (ix, d) in enumerate(zip(indices, data)):
        if d.shape[:ix.ndim] != ix.shape:
            raise _error("DynamicStitch", f"data[{i}].shape = {dims_text(d.shape)} does not "
                         f"start with indices[{i}].shape = {dims_text(ix.shape)}",
                         "Each data piece needs one row per index.")
    rest = data[0].shape[indices[0].ndim:]
    flat = np.concatenate([ix.reshape(-1) for ix in indices]).astype(np.int64)
    rows = np.concatenate([d.reshape((-1,) + rest) for d in data])
    if flat.size and flat.min() < 0:
        raise _error("DynamicStitch", f"indices[{int(np.argmax(flat < 0))}] is out of range",
                     "Indices name rows of the result: they cannot be negative.")
    out = np.zeros((int(flat.max()) + 1 if flat.size else 0,) + rest, dtype=rows.dtype)
    out[flat] = rows  # later pieces win where an index repeats, as in TF
    return out


def _stitch_shape(*shapes, N):
    first, piece = shapes[0], shapes[N]
    if first.rank is None or piece.rank is None:
        return TensorShape(None)
    return TensorShape([None] + piece.dims[first.rank:])


DynamicStitch = Op("DynamicStitch", _stitch_forward, typed=(), shape=_stitch_shape,
                   dtype=lambda *ds, N: ds[N])


@DynamicStitch.def_grad
def _stitch_grad(op, dy):  # each piece takes the gradient of the rows it wrote
    n = op.attrs["N"]
    indices = [cast(ix, dtypes.int32) for ix in op.inputs[:n]]
    return [None] * n + [gather(dy, ix) for ix in indices]


@tf_export("dynamic_stitch")
def dynamic_stitch(indices, data, name=None):
    """Interleave the pieces of `data` into one tensor: `result[indices[m][i]] = data[m][i]`.

    Where an index repeats, the later piece wins; rows no index names are zeros.

    >>> tf.dynamic_stitch([[0, 2], [1]], [[10, 30], [20]])
    <tf.Tensor: shape=(3,), dtype=int32, numpy=array([10, 20, 30], dtype=int32)>
    """
    indices = [convert_to_tensor(ix) for ix in indices]
    first = convert_to_tensor(data[0]) if data else None
    data = [convert_to_tensor(d, dtype_hint=first.dtype) for d in data]  # Python values: first's
    if len(indices) != len(data) or not indices:
        raise ValueError(f"List argument 'data' to 'DynamicStitch' Op with length {len(data)} "
                         f"must match length {len(indices)} of argument 'indices'.")
    for ix in indices:
        _check_int("DynamicStitch", "indices", ix, (dtypes.int32,))
    kinds = {d.dtype for d in data}
    if len(kinds) > 1:
        raise TypeError("Tensors in list passed to 'data' of 'DynamicStitch' Op have types "
                        f"[{', '.join(d.dtype.name for d in data)}] that don't all match.")
    return apply(DynamicStitch, indices + data, {"N": len(indices)})


# --- unique_with_counts ----------------------------------------------------------------------
UniqueWithCountsResult = collections.namedtuple("UniqueWithCounts", ["y", "idx", "count"])


def _unique_counts_forward(x, out_idx):
    y, idx = _unique_forward(x, out_idx)
    counts = np.bincount(idx, minlength=y.shape[0]).astype(out_idx.as_numpy_dtype)
    return y, idx, counts


def _unique_counts_dtype(x, out_idx):
    return x, out_idx, out_idx


UniqueWithCounts = Op(
    "UniqueWithCounts", _unique_counts_forward, typed=(), num_outputs=3,
    shape=lambda s, out_idx: _unique_shape(s, out_idx) + (TensorShape([None]),),
    dtype=_unique_counts_dtype)


@UniqueWithCounts.def_grad
def _unique_counts_grad(op, *dys):
    raise LookupError("gradient registry has no entry for: UniqueWithCounts (TensorFlow defines "
                      "no gradient for it; tf.gather(x, first positions) is differentiable)")


_unique_counts_grad.not_registered = True  # tf.RegisterGradient may still give it one


@tf_export("unique_with_counts")
def unique_with_counts(x, out_idx=dtypes.int32, name=None):
    """tf.unique plus how often each distinct value occurs: `count[j]` = number of
    entries equal to `y[j]`.

    >>> tf.unique_with_counts([1, 1, 2, 4, 4, 4]).count
    <tf.Tensor: shape=(3,), dtype=int32, numpy=array([2, 1, 3], dtype=int32)>
    """
    x = convert_to_tensor(x)
    out_idx = dtypes.as_dtype(out_idx)
    if out_idx not in (dtypes.int32, dtypes.int64):
        raise TypeError(f"Value passed to parameter 'out_idx' has DataType {out_idx.name} not "
                        "in list of allowed values: int32, int64")
    if x.shape.rank is not None and x.shape.rank != 1:
        raise _error("UniqueWithCounts", "unique expects a 1D vector.",
                     "Flatten it with tf.reshape(x, [-1]) first.")
    return UniqueWithCountsResult(*apply(UniqueWithCounts, [x], {"out_idx": out_idx}))


# --- searchsorted ----------------------------------------------------------------------------
def _bound_forward(side):
    def forward(sorted_inputs, values, out_type):
        if sorted_inputs.shape[0] != values.shape[0]:
            raise _error("LowerBound" if side == "left" else "UpperBound",
                         "Leading dim_size of both tensors must match.",
                         "Give one row of values per row of the sorted sequence.")
        out = np.empty(values.shape, out_type.as_numpy_dtype)
        for row in range(values.shape[0]):
            out[row] = np.searchsorted(sorted_inputs[row], values[row], side=side)
        return out
    return forward


LowerBound = Op("LowerBound", _bound_forward("left"), shape=lambda s, v, out_type: v,
                dtype=lambda s, v, out_type: out_type)
UpperBound = Op("UpperBound", _bound_forward("right"), shape=lambda s, v, out_type: v,
                dtype=lambda s, v, out_type: out_type)


@tf_export("searchsorted")
def searchsorted(sorted_sequence, values, side="left", out_type=dtypes.int32, name=None):
    """Where each value would go in the (innermost, ascending) `sorted_sequence` to keep
    it sorted: side="left" gives the first such place, "right" the last.

    >>> tf.searchsorted([1.0, 2.0, 3.0], [2.0, 2.5], side="right")
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([2, 2], dtype=int32)>
    """
    if side not in ("left", "right"):
        raise ValueError("Argument `side` must be either 'right' or 'left'. Received: `side` "
                         f"= '{side}'.")
    sequence, values = convert_to_tensor(sorted_sequence), convert_to_tensor(values)
    op = LowerBound if side == "left" else UpperBound
    flat_seq = reshape(sequence, [-1, _last_dim(sequence)])  # rows of the innermost axis
    flat_values = reshape(values, [-1, _last_dim(values)])
    result = apply(op, [flat_seq, flat_values], {"out_type": dtypes.as_dtype(out_type)})
    known = values.shape.is_fully_defined()
    return reshape(result, values.shape.as_list() if known else tf_shape(values))


def _last_dim(t):
    known = t.shape[-1] if t.shape.rank else None
    return known if known is not None else tf_shape(t)[-1]


# --- unravel_index ---------------------------------------------------------------------------
def _unravel_forward(indices, dims):
    size = int(np.prod(dims))
    if np.any((indices < 0) | (indices >= size)):
        raise _error("UnravelIndex", "index is out of bound as with dims",
                     f"Flat indices must lie in 0..{size - 1} for dims {dims.tolist()}.")
    return np.array(np.unravel_index(indices, tuple(int(d) for d in dims)), dtype=dims.dtype)


UnravelIndex = Op("UnravelIndex", _unravel_forward, dtypes={dtypes.int32, dtypes.int64},
                  shape=lambda i, d: TensorShape(d.dims + i.dims)
                  if i.rank is not None and d.rank == 1 else TensorShape(None))


@tf_export("unravel_index")
def unravel_index(indices, dims, name=None):
    """Flat indices into coordinates of a tensor of shape `dims`: column k holds the
    coordinates of `indices[k]` (NumPy's unravel_index, stacked).

    >>> tf.unravel_index([5, 7], dims=[3, 4])
    <tf.Tensor: shape=(2, 2), dtype=int32, numpy=
    array([[1, 1],
           [1, 3]], dtype=int32)>
    """
    indices = convert_to_tensor(indices)
    dims = convert_to_tensor(dims, dtype=indices.dtype if indices.dtype.is_integer else None)
    if indices.dtype not in (dtypes.int32, dtypes.int64):
        raise _error("UnravelIndex", f"Value for attr 'Tidx' of "
                     f"{dtypes.tf_type_name(indices.dtype)} is not in the list of allowed "
                     "values: int32, int64", "Flat indices are integers: tf.cast them first.")
    return apply(UnravelIndex, [indices, dims])


# --- histograms ------------------------------------------------------------------------------
def _histogram_forward(values, value_range, nbins, dtype):
    low, high = float(value_range[0]), float(value_range[1])
    if not low < high:
        raise _error("HistogramFixedWidth", "value_range should satisfy value_range[0] < "
                     f"value_range[1], but got '[{value_range[0]:g}, {value_range[1]:g}]'",
                     "The range runs from its low end to its high end.")
    if nbins <= 0:
        raise _error("HistogramFixedWidth", f"nbins should be a positive number, but got "
                     f"'{int(nbins)}'", "Ask for at least one bin.")
    flat = values.reshape(-1).astype(np.float64)
    if np.isnan(flat).any():
        raise _error("HistogramFixedWidth", "Histogram values must not contain NaN",
                     "Remove NaNs first (tf.boolean_mask with tf.math.is_nan).")
    step = (high - low) / float(nbins)
    bins = np.minimum((np.maximum(flat, low) - low) / step, nbins - 1).astype(np.int64)
    return np.bincount(bins, minlength=int(nbins)).astype(dtype.as_numpy_dtype)


HistogramFixedWidth = Op("HistogramFixedWidth", _histogram_forward, typed=(0, 1),
                         dtypes=dtypes.REAL, dtype=lambda *_, dtype: dtype,
                         shape=lambda *_, dtype: TensorShape([None]))


@tf_export("histogram_fixed_width")
def histogram_fixed_width(values, value_range, nbins=100, dtype=dtypes.int32, name=None):
    """Count `values` in `nbins` equal bins spanning `value_range` = [low, high]; values
    below low count in the first bin, values at or above high in the last.

    >>> tf.histogram_fixed_width([-1.0, 0.0, 1.5, 2.0, 5.0, 15], [0.0, 5.0], nbins=5)
    <tf.Tensor: shape=(5,), dtype=int32, numpy=array([2, 1, 1, 0, 2], dtype=int32)>
    """
    values = convert_to_tensor(values)
    value_range = convert_to_tensor(value_range, dtype=values.dtype)
    nbins = convert_to_tensor(nbins, dtype=dtypes.int32)
    return apply(HistogramFixedWidth, [values, value_range, nbins],
                 {"dtype": dtypes.as_dtype(dtype)})


@tf_export("histogram_fixed_width_bins")
def histogram_fixed_width_bins(values, value_range, nbins=100, dtype=dtypes.int32, name=None):
    """The bin of each entry of `values` (shape kept), with the bins of
    tf.histogram_fixed_width: floor(nbins * (v - low) / (high - low)), clipped to
    0..nbins-1. Composed of ordinary ops, as TensorFlow writes it.

    >>> tf.histogram_fixed_width_bins([-1.0, 0.0, 1.5, 2.0, 5.0, 15], [0.0, 5.0], nbins=5)
    <tf.Tensor: shape=(6,), dtype=int32, numpy=array([0, 0, 1, 2, 4, 4], dtype=int32)>
    """
    values = convert_to_tensor(values)
    shape = tf_shape(values)
    values = reshape(values, [-1])
    value_range = convert_to_tensor(value_range)
    nbins_value = np.asarray(convert_to_tensor(nbins, dtype=dtypes.int32)._value) \
        if not hasattr(nbins, "graph") else None
    if nbins_value is not None and nbins_value <= 0:
        raise _error("Assert", f"assertion failed: [nbins {nbins} must > 0]",
                     "Ask for at least one bin.")
    nbins_float = cast(convert_to_tensor(nbins, dtype=dtypes.int32), values.dtype)
    scaled = truediv(values - value_range[0], value_range[1] - value_range[0])
    indices = floor(nbins_float * scaled)
    indices = cast(clip_by_value(indices, 0, nbins_float - 1), dtypes.int32)
    return reshape(indices, shape)
