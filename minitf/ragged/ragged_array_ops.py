"""The `tf.ragged.*` functions, and `tf.concat`/`tf.stack`/`tf.gather` on RaggedTensors.

They all work the same way: compute the new row partition from the old
ones with NumPy (row bookkeeping, no gradient), and move the values with a
gather or concat - ops the tape records, so gradients reach the values.

>>> import minitf as tf
>>> tf.ragged.range([3, 0, 2])
<tf.RaggedTensor [[0, 1, 2], [], [0, 1]]>
>>> tf.ragged.stack([tf.ragged.constant([[1, 2], [3]]), tf.ragged.constant([[4]])])
<tf.RaggedTensor [[[1, 2], [3]], [[4]]]>
>>> tf.ragged.row_splits_to_segment_ids([0, 2, 2, 5])
<tf.Tensor: shape=(5,), dtype=int64, numpy=array([0, 0, 2, 2, 2])>
"""
import numpy as np

from ..framework import dtypes, errors, nest
from ..framework.tensor import convert_to_tensor
from ..framework.tf_export import tf_export
from ..ops import array_ops, gather_ops
from .ragged_getitem import take_rows, take_values
from .ragged_tensor import RaggedTensor, is_ragged

_splits = RaggedTensor._splits


def _int_tensor(splits, dtype=dtypes.int64):
    return convert_to_tensor(np.asarray(splits, dtype=dtypes.as_dtype(dtype).as_numpy_dtype))


def _as_ragged(value, ragged_rank):
    """`value` as a RaggedTensor with `ragged_rank` partitions (dense rows all full)."""
    if is_ragged(value):
        return value
    value = convert_to_tensor(value)
    return RaggedTensor.from_tensor(value, ragged_rank=ragged_rank)


def _incompatible(x, y):
    return errors.InvalidArgumentError(
        None, None, "Input tensors at index 0 (=x) and 1 (=y) have incompatible shapes.\n"
                    f"Condition x == y did not hold.\nFirst 1 elements of x:\n[{x}]\nFirst 1 "
                    f"elements of y:\n[{y}]\n(Joining rows side by side needs the same number "
                    "of rows in every input.)")


# --- merge_dims, concat, stack --------------------------------------------------------------
def merge_dims(value, outer_axis, inner_axis):
    """Join axes outer_axis..inner_axis of a ragged or dense tensor into one."""
    rank = value.shape.rank
    outer_axis, inner_axis = outer_axis % rank, inner_axis % rank
    if outer_axis > inner_axis:
        raise ValueError(f"Expected outer_axis ({outer_axis}) to be less than or equal to "
                         f"inner_axis ({inner_axis})")
    if outer_axis == inner_axis:
        return value
    if not is_ragged(value):
        dims = value.shape.as_list()
        return array_ops.reshape(value, dims[:outer_axis] + [-1] + dims[inner_axis + 1:])
    if outer_axis == 0:  # values' axis 0 already joins this tensor's axes 0 and 1
        return merge_dims(value.values, 0, inner_axis - 1)
    if outer_axis > 1:
        return value.with_values(merge_dims(value.values, outer_axis - 1, inner_axis - 1))
    values, splits = value.values, _splits(value).astype(np.int64)
    if is_ragged(values):  # row i of the result: the values of rows splits[i]..splits[i+1]
        joined = RaggedTensor.from_row_splits(
            values.values, _int_tensor(_splits(values)[splits], value.row_splits_dtype),
            validate=False)
        return merge_dims(joined, 1, inner_axis - 1)
    dims = values.shape.as_list()
    size = int(np.prod(dims[1:inner_axis]))
    flat = array_ops.reshape(values, [-1] + dims[inner_axis:])
    return RaggedTensor.from_row_splits(flat, _int_tensor(splits * size,
                                                          value.row_splits_dtype),
                                        validate=False)


def concat_rows(values):
    """Axis-0 concat of dense tensors or RaggedTensors (their rows one after another)."""
    if not any(is_ragged(v) for v in values):
        return array_ops.concat(list(values), 0)
    rank = max(v.ragged_rank for v in values if is_ragged(v))
    values = [_as_ragged(v, rank) for v in values]
    splits, offset = [np.zeros(1, np.int64)], 0
    for v in values:
        s = _splits(v).astype(np.int64)
        splits.append(s[1:] + offset)
        offset += s[-1]
    return RaggedTensor.from_row_splits(concat_rows([v.values for v in values]),
                                        _int_tensor(np.concatenate(splits)), validate=False)


def _concat_within_rows(values):
    """Axis-1 concat: row i of the result is row i of each input, side by side."""
    values = [_as_ragged(v, 1) for v in values]
    nrows = [v.nrows_value() for v in values]
    for n in nrows[1:]:
        if n != nrows[0]:
            raise _incompatible(nrows[0], n)
    all_splits = [_splits(v).astype(np.int64) for v in values]
    offsets = np.cumsum([0] + [s[-1] for s in all_splits])
    pieces, lengths = [], np.zeros(nrows[0], np.int64)
    for i in range(nrows[0]):
        for s, off in zip(all_splits, offsets):
            pieces.append(np.arange(s[i], s[i + 1]) + off)
            lengths[i] += s[i + 1] - s[i]
    index = np.concatenate(pieces) if pieces else np.zeros(0, np.int64)
    joined = take_values(concat_rows([v.values for v in values]), index.astype(np.int64))
    return RaggedTensor.from_row_lengths(joined, _int_tensor(lengths), validate=False)


def ragged_concat(values, axis):
    """tf.concat when an input is ragged."""
    values = list(values)
    if not values:
        raise ValueError("rt_inputs may not be empty.")
    rank = max(v.shape.rank for v in values if is_ragged(v))
    axis = axis % rank if -rank <= axis < rank else axis
    if axis == 0:
        return concat_rows(values)
    if axis == 1:
        return _concat_within_rows(values)
    values = [_as_ragged(v, 1) for v in values]
    first = _splits(values[0])
    if not all(np.array_equal(_splits(v), first) for v in values[1:]):
        raise _incompatible(len(first) - 1, len(_splits(values[1])) - 1)
    return values[0].with_values(ragged_concat([v.values for v in values], axis - 1)
                                 if any(is_ragged(v.values) for v in values)
                                 else array_ops.concat([v.values for v in values], axis - 1))


def _expand_row(value):
    """value -> the same tensor as the single row of a new outer axis."""
    if is_ragged(value):
        return RaggedTensor.from_uniform_row_length(value, value.nrows_value(), nrows=1)
    value = convert_to_tensor(value)
    return RaggedTensor.from_uniform_row_length(value, int(value.shape[0]), nrows=1)


@tf_export("ragged.stack")
def stack(values, axis=0, name=None):
    """Stack ragged or dense tensors along a new axis; the result is ragged.

    >>> tf.ragged.stack([[1, 2], [3, 4, 5]])
    <tf.RaggedTensor [[1, 2], [3, 4, 5]]>
    """
    values = [v if is_ragged(v) else convert_to_tensor(v) for v in values]
    if not values:
        raise ValueError("rt_inputs may not be empty.")
    ranks = {v.shape.rank for v in values}
    if len(ranks) != 1:
        raise ValueError(f"Shape {values[-1].shape} must have rank {values[0].shape.rank} "
                         "(tf.ragged.stack needs inputs of one rank.)")
    rank = ranks.pop()
    axis = axis % (rank + 1) if -rank - 1 <= axis <= rank else axis
    if axis == 0:
        lengths = [v.nrows_value() if is_ragged(v) else int(v.shape[0]) for v in values]
        return RaggedTensor.from_row_lengths(concat_rows(values), _int_tensor(lengths),
                                             validate=False)
    expanded = [_as_ragged(v, 1)[(slice(None),) * axis + (None,)] for v in values]
    return ragged_concat(expanded, axis)


# --- gather ---------------------------------------------------------------------------------
def ragged_gather(params, indices, axis=0):
    """tf.gather with ragged params and/or ragged indices (axis 0)."""
    if axis not in (0, None):
        raise ValueError("minitf gathers from a RaggedTensor along axis 0 only (rows).")
    if is_ragged(indices):
        return indices.with_flat_values(ragged_gather(params, indices.flat_values))
    indices = convert_to_tensor(indices)
    if not is_ragged(params):
        return gather_ops.gather(params, indices)
    index = indices.numpy().astype(np.int64)
    n = params.nrows_value()
    bad = (index < 0) | (index >= n)
    if bad.any():
        i = int(np.argmax(bad.reshape(-1)))
        raise errors.InvalidArgumentError(
            None, "GatherV2", f"indices[{i}] = {int(index.reshape(-1)[i])} is not in [0, {n}) "
            "[Op:GatherV2] (each index names a row of the ragged tensor.)")
    result = take_rows(params, index.reshape(-1))
    for dim in reversed(index.shape[1:]):
        result = RaggedTensor.from_uniform_row_length(result, dim)
    return result


# --- boolean_mask ---------------------------------------------------------------------------
def _check_same_splits(data, mask):
    for d, m in zip(data.nested_row_splits, mask.nested_row_splits):
        if not np.array_equal(d.numpy(), m.numpy()):
            raise errors.InvalidArgumentError(
                None, None, "Inputs must have identical ragged splits\nCondition x == y did "
                f"not hold.\n(data splits {d.numpy().tolist()}, mask splits "
                f"{m.numpy().tolist()}: the mask needs one boolean per value of data.)")


def _mask_ragged(data, mask):
    """data and mask share mask.ragged_rank partitions; mask.flat_values picks values."""
    _check_same_splits(data, mask)
    keep = mask.flat_values.numpy().astype(bool)
    parts, level = [], data
    for _ in range(mask.ragged_rank):
        parts.append(level)
        level = level.values
    kept = take_values(level, np.flatnonzero(keep))
    inner = parts[-1]
    kept_before = np.concatenate([[0], np.cumsum(keep)])  # kept values before each position
    splits = _splits(inner).astype(np.int64)
    counts = kept_before[splits[1:]] - kept_before[splits[:-1]]
    result = RaggedTensor.from_row_lengths(kept, _int_tensor(counts), validate=False)
    for outer in reversed(parts[:-1]):
        result = RaggedTensor.from_row_splits(result, outer.row_splits, validate=False)
    return result


@tf_export("ragged.boolean_mask")
def boolean_mask(data, mask, name=None):
    """Keep the entries of `data` where `mask` is True; a mask of rank k > 1 gives ragged rows.

    >>> tf.ragged.boolean_mask([[1, 2, 3], [4, 5, 6]], [[True, False, True], [False, False, True]])
    <tf.RaggedTensor [[1, 3], [6]]>
    """
    if not is_ragged(mask):
        mask = convert_to_tensor(mask, dtype=dtypes.bool)
        if mask.shape.rank == 1:
            if is_ragged(data):
                return take_rows(data, np.flatnonzero(mask.numpy()))
            return gather_ops.boolean_mask(data, mask)
        mask = RaggedTensor.from_tensor(mask, ragged_rank=mask.shape.rank - 1)
    if mask.dtype != dtypes.bool:
        raise TypeError(f"mask must be a boolean tensor, not {mask.dtype.name}.")
    if not is_ragged(data):
        data = RaggedTensor.from_tensor(convert_to_tensor(data), ragged_rank=mask.ragged_rank)
    return _mask_ragged(data, mask)


# --- ranges and segment ids -----------------------------------------------------------------
@tf_export("ragged.range")
def ragged_range(starts, limits=None, deltas=1, dtype=None, name=None,
                 row_splits_dtype=dtypes.int64):
    """Row i is `tf.range(starts[i], limits[i], deltas[i])` (scalars are broadcast).

    >>> tf.ragged.range([1, 5], [4, 2], [1, -1])
    <tf.RaggedTensor [[1, 2, 3],
     [5, 4, 3]]>
    """
    if limits is None:
        starts, limits = 0, starts
    args = [convert_to_tensor(a, dtype=dtype) if dtype is not None else convert_to_tensor(a)
            for a in (starts, limits, deltas)]
    result_dtype = dtype or (dtypes.float32 if any(a.dtype.is_floating for a in args)
                             else args[0].dtype)
    arrays = [a.numpy() for a in args]
    shapes = {a.shape for a in arrays if a.ndim}
    if any(a.ndim > 1 for a in arrays) or len(shapes) > 1:
        raise errors.InvalidArgumentError(
            None, "RaggedRange", "starts, limits, and deltas must have the same shape "
            "[Op:RaggedRange] (give one number or one vector of the same length for each.)")
    starts, limits, deltas = np.broadcast_arrays(*arrays)
    starts, limits, deltas = starts.reshape(-1), limits.reshape(-1), deltas.reshape(-1)
    if np.any(deltas == 0):
        raise errors.InvalidArgumentError(None, "RaggedRange", "Requires delta != 0 "
                                          "[Op:RaggedRange] (a step of 0 never reaches limit.)")
    np_dtype = dtypes.as_dtype(result_dtype).as_numpy_dtype
    rows = [np.arange(s, l, d).astype(np_dtype) for s, l, d in zip(starts, limits, deltas)]
    values = np.concatenate(rows) if rows else np.zeros(0, np_dtype)
    lengths = [len(r) for r in rows]
    return RaggedTensor.from_row_lengths(convert_to_tensor(values),
                                         _int_tensor(lengths, row_splits_dtype), validate=False)


def _rank1(value, name):
    tensor = convert_to_tensor(value, dtype_hint=dtypes.int64)
    if tensor.shape.rank != 1:
        raise ValueError(f"Shape {tensor.shape} must have rank 1")
    return tensor


@tf_export("ragged.row_splits_to_segment_ids")
def row_splits_to_segment_ids(splits, name=None, out_type=None):
    """The row id of each value, from row_splits.

    >>> tf.ragged.row_splits_to_segment_ids([0, 1, 1, 3])
    <tf.Tensor: shape=(3,), dtype=int64, numpy=array([0, 2, 2])>
    """
    splits = _rank1(splits, "splits")
    array = splits.numpy().astype(np.int64)
    ids = np.repeat(np.arange(max(len(array) - 1, 0)), np.diff(array))
    return _int_tensor(ids, out_type or splits.dtype)


@tf_export("ragged.segment_ids_to_row_splits")
def segment_ids_to_row_splits(segment_ids, num_segments=None, out_type=None, name=None):
    """row_splits from sorted segment ids (`num_segments` rows, empty ones included).

    >>> tf.ragged.segment_ids_to_row_splits([0, 0, 2], num_segments=4)
    <tf.Tensor: shape=(5,), dtype=int64, numpy=array([0, 2, 2, 3, 3])>
    """
    ids = _rank1(segment_ids, "segment_ids")
    array = ids.numpy().astype(np.int64)
    count = (int(array.max()) + 1 if array.size else 0) if num_segments is None \
        else int(convert_to_tensor(num_segments).numpy())
    lengths = np.bincount(array, minlength=count)[:count]
    return _int_tensor(np.concatenate([[0], np.cumsum(lengths)]), out_type or ids.dtype)


# --- map_flat_values and stack_dynamic_partitions -------------------------------------------
@tf_export("ragged.map_flat_values")
def map_flat_values(op, *args, **kwargs):
    """`op` applied to the flat_values of the ragged arguments; the rows stay.

    >>> tf.ragged.map_flat_values(tf.ones_like, tf.ragged.constant([[1, 2], [3]]))
    <tf.RaggedTensor [[1, 1], [1]]>
    """
    leaves = [x for x in nest.flatten([list(args), kwargs]) if is_ragged(x)]
    if not leaves:
        return op(*args, **kwargs)
    template = leaves[0]
    for other in leaves[1:]:
        for a, b in zip(template.nested_row_splits, other.nested_row_splits):
            if not np.array_equal(a.numpy(), b.numpy()):
                raise errors.InvalidArgumentError(
                    None, None, "RowPartition._merge_precomputed_encodings: partitions have "
                    "incompatible row_splits\nCondition x == y did not hold.\n(Every ragged "
                    "argument must have the same rows.)")
    flat = nest.map_structure(lambda x: x.flat_values if is_ragged(x) else x,
                              [list(args), kwargs])
    result = op(*flat[0], **flat[1])
    nvals = template.flat_values.shape[0]
    outer = result.shape[0] if getattr(result, "shape", None) is not None and \
        result.shape.rank else None
    if outer != nvals:
        raise ValueError("tf.ragged.map_flat_values requires that the output of `op` have the "
                         "same outer-dimension size as flat_values of any ragged inputs. "
                         f"(output shape: {tuple(result.shape.as_list())}; expected outer "
                         f"dimension size: {nvals})")
    return template.with_flat_values(result)


@tf_export("ragged.stack_dynamic_partitions")
def stack_dynamic_partitions(data, partitions, num_partitions, name=None):
    """Row p holds, in order, the rows of `data` whose partition is p.

    >>> tf.ragged.stack_dynamic_partitions([1, 2, 3, 4, 5], [2, 0, 2, 1, 0], 3)
    <tf.RaggedTensor [[2, 5], [4], [1, 3]]>
    """
    parts = convert_to_tensor(partitions)
    if parts.dtype not in (dtypes.int32, dtypes.int64):
        raise ValueError("value_rowids must have dtype int32 or int64 (the partition ids "
                         f"are integers; these are {parts.dtype.name}).")
    array = parts.numpy().astype(np.int64).reshape(-1)
    count = int(convert_to_tensor(num_partitions).numpy())
    if np.any(array < 0):
        shown = ", ".join(f"'{p}'" for p in array)
        raise errors.InvalidArgumentError(
            None, None, "partitions must be non-negative..  \nCondition x >= 0 did not hold "
            f"element-wise:\nx (shape={array.shape} dtype={parts.dtype.name}) = \n[{shown}]")
    if array.size and array.max() >= count:
        raise errors.InvalidArgumentError(
            None, None, "partitions must be less than num_partitions\nCondition x < y did not "
            f"hold.\nFirst 1 elements of x:\n[{array.max()}]\nFirst 1 elements of y:\n[{count}]"
            f"\n(num_partitions={count} allows partition ids 0..{count - 1}.)")
    order = np.argsort(array, kind="stable")
    data = data if is_ragged(data) else convert_to_tensor(data)
    lengths = np.bincount(array, minlength=count)
    return RaggedTensor.from_row_lengths(take_values(data, order), _int_tensor(lengths),
                                         validate=False)
