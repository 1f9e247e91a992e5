"""`tf.io.SparseFeature` and `tf.io.RaggedFeature`: parse specs built from variable-length lists.

Both read int64/float/bytes lists of an Example, as `VarLenFeature` does, and
then shape them:

* `SparseFeature(index_key, value_key, dtype, size)` - a `tf.SparseTensor` whose
  entry `index[i]` holds `value[i]` (several index keys give several dimensions);
* `RaggedFeature(dtype, value_key, partitions)` - a `tf.RaggedTensor` (for one
  Example without partitions, a plain 1-D tensor), nested by row partitions
  (`RaggedFeature.RowLengths("key")`, `RowSplits`, `RowStarts`, `RowLimits`,
  `ValueRowIds`, `UniformRowLength(n)`), outermost first.

>>> import minitf as tf
>>> ex = tf.train.Example(features=tf.train.Features(feature={
...     "ix": tf.train.Feature(int64_list=tf.train.Int64List(value=[3, 1])),
...     "v": tf.train.Feature(float_list=tf.train.FloatList(value=[0.5, 0.25])),
...     "lens": tf.train.Feature(int64_list=tf.train.Int64List(value=[1, 1]))}))
>>> parsed = tf.io.parse_example([ex.SerializeToString()], {
...     "s": tf.io.SparseFeature("ix", "v", tf.float32, size=5),
...     "r": tf.io.RaggedFeature(tf.float32, value_key="v",
...                              partitions=[tf.io.RaggedFeature.RowLengths("lens")])})
>>> parsed["s"].indices.numpy().tolist(), parsed["s"].values.numpy().tolist()
([[0, 1], [0, 3]], [0.25, 0.5])
>>> parsed["r"]
<tf.RaggedTensor [[[0.5], [0.25]]]>

Where minitf differs: row partitions are always checked (TF 2.21 checks them only
with `validate=True` and otherwise can return a tensor that silently drops
values). A RaggedFeature is shaped by one op (`RaggedFeature`), so it parses
inside `tf.function` and `Dataset.map` too, giving a RaggedTensor whose row
partition is traced (minitf/ragged/ragged_graph.py).
"""
import collections

import numpy as np

from ..framework import dtypes, errors
from ..framework.op import Op, apply
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export


@tf_export("io.SparseFeature")
class SparseFeature(collections.namedtuple(
        "SparseFeature", ["index_key", "value_key", "dtype", "size", "already_sorted"])):
    """A SparseTensor from an index list (or several, one per dimension) and a value list.

    `size`: the dense shape (an int, or one int per index key). Entries are sorted by
    index unless `already_sorted=True` says the Example keeps them sorted.
    """

    def __new__(cls, index_key, value_key, dtype, size, already_sorted=False):
        return super().__new__(cls, index_key, value_key, dtypes.as_dtype(dtype), size,
                               already_sorted)


def _partition(name, field, doc):
    cls = collections.namedtuple(name, [field])
    cls.__doc__ = doc
    cls.__module__ = __name__
    return cls


@tf_export("io.RaggedFeature")
class RaggedFeature(collections.namedtuple(
        "RaggedFeature", ["dtype", "value_key", "partitions", "row_splits_dtype", "validate"])):
    """A RaggedTensor from a value list, nested by row partitions (outermost first).

    `value_key`: the Example key of the values (default: the feature's own name);
    `row_splits_dtype`: int32 (default) or int64, the dtype of the row partitions.
    """

    RowSplits = _partition("RowSplits", "key", "Row i holds values[splits[i]:splits[i+1]].")
    RowLengths = _partition("RowLengths", "key", "Row i holds lengths[i] values.")
    RowStarts = _partition("RowStarts", "key", "Row i starts at starts[i].")
    RowLimits = _partition("RowLimits", "key", "Row i ends before limits[i].")
    ValueRowIds = _partition("ValueRowIds", "key", "Value j belongs to row ids[j].")
    UniformRowLength = _partition("UniformRowLength", "length", "Every row holds `length`.")

    def __new__(cls, dtype, value_key=None, partitions=(), row_splits_dtype=dtypes.int32,
                validate=False):
        dtype = dtypes.as_dtype(dtype)
        if dtype not in (dtypes.int64, dtypes.float32, dtypes.string):
            raise ValueError(f"Argument `dtype` must be int64, float32, or bytes; got {dtype!r}")
        row_splits_dtype = dtypes.as_dtype(row_splits_dtype)
        if row_splits_dtype not in (dtypes.int32, dtypes.int64):
            raise ValueError(f"Argument `row_splits_dtype` must be int32 or int64; got "
                             f"{row_splits_dtype!r}")
        return super().__new__(cls, dtype, value_key, tuple(partitions), row_splits_dtype,
                               validate)


# --- turning the specs into VarLenFeatures and back ----------------------------------------
def expand(features, var_len_feature):
    """(plain features for ParseExampleV2, a function that builds the requested results).

    Each SparseFeature / RaggedFeature asks for its keys as VarLenFeatures."""
    wanted = {k: v for k, v in features.items() if isinstance(v, (SparseFeature, RaggedFeature))}
    if not wanted:
        return features, lambda result, batched: result
    plain = {k: v for k, v in features.items() if k not in wanted}
    helpers = {}
    for name, spec in wanted.items():
        for key, dtype in _keys(name, spec):
            old = plain.get(key, helpers.get(key))
            if old is not None and (type(old) is not var_len_feature or old.dtype != dtype):
                raise ValueError(f"Feature key {key!r} is read as {old} and, for {name!r}, as a "
                                 f"variable-length {dtype.name} list; a key can be read once.")
            helpers[key] = var_len_feature(dtype)
    plain.update({k: v for k, v in helpers.items() if k not in plain})

    def finish(result, batched):
        built = {name: _build(spec, name, result, batched) for name, spec in wanted.items()}
        for key in helpers:
            if key not in features:
                result.pop(key)
        result.update(built)
        return {k: result[k] for k in sorted(result)}

    return plain, finish


def _index_keys(spec):
    return [spec.index_key] if isinstance(spec.index_key, str) else list(spec.index_key)


def _keys(name, spec):
    if isinstance(spec, SparseFeature):
        return [(k, dtypes.int64) for k in _index_keys(spec)] + [(spec.value_key, spec.dtype)]
    keys = [(spec.value_key or name, spec.dtype)]
    return keys + [(p.key, dtypes.int64) for p in spec.partitions
                   if not isinstance(p, RaggedFeature.UniformRowLength)]


def _build(spec, name, result, batched):
    if isinstance(spec, SparseFeature):
        return _sparse(spec, result, batched)
    return _ragged(spec, name, result, batched)


# --- SparseFeature -------------------------------------------------------------------------
def _rows(indices, batch):
    return np.bincount(indices[:, 0], minlength=batch) if indices.shape[1] > 1 else \
        np.array([len(indices)])


def _sparse_feature(val_indices, val_values, val_shape, *index_parts, size, already_sorted):
    batched = val_indices.shape[1] > 1
    batch = int(val_shape[0]) if batched else 1
    counts = _rows(val_indices, batch)
    columns = []
    for idx_indices, idx_values in zip(index_parts[::2], index_parts[1::2]):
        if not np.array_equal(_rows(idx_indices, batch), counts):
            raise errors.op_error(
                errors.InvalidArgumentError, "ParseExampleV2",
                f"Dimensions {len(idx_values)} and {len(val_values)} are not compatible",
                "A SparseFeature needs one index per value in every Example.")
        columns.append(idx_values)
    indices = np.stack(([val_indices[:, 0]] if batched else []) + columns, axis=1).astype(
        np.int64).reshape(len(val_values), -1)
    values = val_values
    if not already_sorted and len(values):
        order = np.lexsort(indices.T[::-1])
        indices, values = indices[order], values[order]
    shape = np.array(([batch] if batched else []) + list(size), dtype=np.int64)
    return indices, values, shape


def _sparse_shapes(val_indices, val_values, val_shape, *parts, size, already_sorted):
    width = val_indices.as_list()[-1] if val_indices.rank == 2 else None
    rank = None if width is None else len(size) + width - 1
    return TensorShape([None, rank]), TensorShape([None]), TensorShape([rank])


SparseFeatureOp = Op("SparseFeature", _sparse_feature, typed=(), num_outputs=3,
                     shape=_sparse_shapes,
                     dtype=lambda i, v, s, *p, **a: (dtypes.int64, v, dtypes.int64))


def _sparse(spec, result, batched):
    from ..ops.sparse_tensor import SparseTensor

    size = [int(spec.size)] if np.ndim(spec.size) == 0 else [int(s) for s in spec.size]
    keys = _index_keys(spec)
    if len(size) != len(keys):
        raise ValueError(f"SparseFeature {spec} has {len(keys)} index keys but a size of "
                         f"{len(size)} dimensions; give one size per index key.")
    value = result[spec.value_key]
    for key in keys if not batched else ():
        counts = [getattr(t.values, "shape", None) for t in (result[key], value)]
        if None not in counts and not counts[0].is_compatible_with(counts[1]):
            raise ValueError(f"Dimensions {counts[0][0]} and {counts[1][0]} are not compatible"
                             f" (SparseFeature {spec.index_key!r}: one index per value).")
    inputs = [value.indices, value.values, value.dense_shape]
    for key in keys:
        inputs += [result[key].indices, result[key].values]
    indices, values, shape = apply(SparseFeatureOp, inputs, {
        "size": tuple(size), "already_sorted": bool(spec.already_sorted)})
    return SparseTensor(indices, values, shape)


# --- RaggedFeature -------------------------------------------------------------------------
def _splits_of(kind, part, inner, key):
    """One Example's row splits for a partition over `inner` items (validated)."""
    part = np.asarray(part, dtype=np.int64)
    if kind == "RowSplits":
        splits = part if len(part) else np.zeros([1], np.int64)
    elif kind == "RowLengths":
        splits = np.concatenate([[0], np.cumsum(part)])
    elif kind == "RowStarts":
        splits = np.concatenate([part, [inner]])
    elif kind == "RowLimits":
        splits = np.concatenate([[0], part])
    elif kind == "ValueRowIds":
        if len(part) != inner or np.any(np.diff(part) < 0) or np.any(part < 0):
            _bad_partition(key, "value row ids must be sorted, non-negative, one per value")
        splits = np.concatenate([[0], np.cumsum(np.bincount(part, minlength=(
            part[-1] + 1) if len(part) else 0))])
    else:  # UniformRowLength
        if part <= 0 or inner % int(part):
            _bad_partition(key, f"{inner} values do not split into rows of {int(part)}")
        splits = np.arange(0, inner + 1, int(part))
    if splits[0] != 0 or splits[-1] != inner or np.any(np.diff(splits) < 0):
        _bad_partition(key, f"its rows must cover the {inner} values below it in order")
    return splits


def _bad_partition(key, why):
    raise errors.op_error(errors.InvalidArgumentError, "ParseExampleV2",
                          f"Invalid RaggedFeature partition {key!r}: {why}.",
                          "Check the partition list of the Example.")


def _per_example(indices, values, batch, batched):
    if not batched:
        return [values]
    rows = indices[:, 0]
    return [values[rows == b] for b in range(batch)]


def _ragged_feature(indices, values, shape, *partition_parts, kinds, keys, lengths, batched,
                    splits_dtype):
    """NumPy: a RaggedFeature's flat values and its row splits, outermost first, from the
    VarLenFeature parts (indices, values) of its values and of each partition."""
    batch = int(shape[0]) if batched else 1
    flat_values = _per_example(indices, values, batch, batched)
    pairs = iter(zip(partition_parts[::2], partition_parts[1::2]))
    parts = [(kind, length if kind == "UniformRowLength" else
              _per_example(*next(pairs), batch, batched), key)
             for kind, key, length in zip(kinds, keys, lengths)]
    levels = [[] for _ in parts]  # per partition, per example: its splits
    outer_rows = []
    for b in range(batch):
        inner = len(flat_values[b])
        for depth in range(len(parts) - 1, -1, -1):
            kind, data, key = parts[depth]
            splits = _splits_of(kind, data if kind == "UniformRowLength" else data[b], inner,
                                key or kind)
            levels[depth].append(splits)
            inner = len(splits) - 1
        outer_rows.append(inner)
    nested = [_joined(level) for level in levels]
    if batched:
        nested.insert(0, np.concatenate([[0], np.cumsum(outer_rows)]))
    dtype = np.dtype(splits_dtype)
    values = np.concatenate(flat_values) if flat_values else values[:0]
    return (values.astype(values.dtype),) + tuple(s.astype(dtype) for s in nested)


def _ragged_feature_shapes(indices, values, shape, *parts, kinds, batched, **_):
    return (TensorShape([None]),) + (TensorShape([None]),) * (len(kinds) + bool(batched))


def _ragged_feature_dtypes(indices, values, shape, *parts, kinds, batched, splits_dtype, **_):
    return (values,) + (dtypes.as_dtype(splits_dtype),) * (len(kinds) + bool(batched))


# One op, so that parsing runs when the graph runs (inside tf.function and Dataset.map too)
RaggedFeatureOp = Op("RaggedFeature", _ragged_feature, typed=(), num_outputs=None,
                     shape=_ragged_feature_shapes, dtype=_ragged_feature_dtypes)


def _ragged(spec, name, result, batched):
    from ..ragged.ragged_tensor import RaggedTensor

    value = result[spec.value_key or name]
    if not spec.partitions and not batched:
        return value.values
    inputs = [value.indices, value.values, value.dense_shape]
    for p in spec.partitions:
        if type(p).__name__ != "UniformRowLength":
            inputs += [result[p.key].indices, result[p.key].values]
    outputs = apply(RaggedFeatureOp, inputs, {
        "kinds": tuple(type(p).__name__ for p in spec.partitions),
        "keys": tuple(getattr(p, "key", None) for p in spec.partitions),
        "lengths": tuple(int(getattr(p, "length", 0) or 0) for p in spec.partitions),
        "batched": bool(batched), "splits_dtype": spec.row_splits_dtype.name})
    outputs = list(outputs) if isinstance(outputs, (list, tuple)) else [outputs]
    return RaggedTensor.from_nested_row_splits(outputs[0], outputs[1:], validate=False)


def _joined(per_example):
    """Per-example splits as one splits vector (each offset by what came before)."""
    out, offset = [0], 0
    for splits in per_example:
        out.extend((splits[1:] + offset).tolist())
        offset += splits[-1]
    return np.array(out, dtype=np.int64)
