"""RaggedTensors whose row partition is traced: inside `tf.function` and `Dataset.map`.

Eagerly, minitf reads a RaggedTensor's `row_splits` with NumPy. Inside a traced
graph the splits are symbolic (a RaggedTensor argument of a `tf.function`, or
`from_row_lengths` of a traced tensor), so the row structure is only known when
the graph runs. The parts of the API that need it are built here from graph ops:

* `row_lengths`, `nrows`, `row_starts`, `row_limits` - slices and arithmetic on
  the splits;
* `value_rowids` - one small op, `RaggedValueRowIds`;
* `to_tensor` and reductions over axis 1 - one small op, `RaggedPaddedIndex`, computes from the splits (when the graph runs) the
  `[nrows, width]` matrix of value positions, with `nvals` where a row is
  shorter. A `gather` of the values (plus one padding row) through it gives
  the dense form, so gradients flow to the values as they do eagerly.

>>> import minitf as tf
>>> @tf.function
... def longest_row_sum(rt):
...     return tf.reduce_max(tf.reduce_sum(rt, axis=1))
>>> longest_row_sum(tf.ragged.constant([[1, 2], [3, 4, 5], []]))
<tf.Tensor: shape=(), dtype=int32, numpy=12>

The constructors check a traced partition when the graph runs
(`RaggedCheckSplits`), and so does element-wise math on two RaggedTensors whose
partitions are different tensors (`RaggedCheckSameSplits`), raising TF's
InvalidArgumentError, as TF's graph asserts do.
TensorFlow computes these with its own kernels (`RaggedTensorToTensor`,
`segment_id_ops.row_splits_to_segment_ids`); the results are the same.
"""
import numpy as np

from ..framework import dtypes, errors
from ..framework.graph import SymbolicTensor
from ..framework.op import Op, apply
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape


def is_traced(rt):
    """True when any row partition of `rt` is a symbolic (graph) tensor."""
    return any(isinstance(s, SymbolicTensor) for s in rt.nested_row_splits)


# --- RaggedCheckSplits: a traced partition is checked when the graph runs ----------------
def _check_splits(splits, nvals, constructor=""):
    if splits.size == 0 or splits[0] != 0 or np.any(np.diff(splits) < 0) or \
            (nvals >= 0 and splits[-1] != nvals):
        raise errors.InvalidArgumentError(
            None, "RaggedCheckSplits",
            f"Arguments to {constructor} do not form a valid RaggedTensor: row_splits="
            f"{splits.tolist()} for {nvals} values (row_splits must start at 0, never "
            "decrease, and end at the number of values.)")
    return splits


RaggedCheckSplits = Op("RaggedCheckSplits", _check_splits, typed=(),
                       shape=lambda s, n, **_: s, dtype=lambda s, n, **_: s)
RaggedCheckSplits.def_grad(lambda op, dy: (None, None))


def checked_splits(splits, nvals, constructor):
    """`splits`, checked against `nvals` (a scalar tensor, -1: unknown) when the graph runs."""
    return apply(RaggedCheckSplits, [splits, convert_to_tensor(nvals, dtype=dtypes.int64)],
                 {"constructor": constructor})


# --- RaggedCheckSameSplits: two traced partitions must agree when the graph runs ----------
def _check_same_splits(values, a, b):
    if a.shape != b.shape or np.any(a != b):
        raise errors.InvalidArgumentError(
            None, "RaggedCheckSameSplits",
            f"Condition x == y did not hold.\nrow_splits of x: {a.tolist()}\nrow_splits of "
            f"y: {b.tolist()}\n(Ragged operands need the same rows: the row_splits of both "
            "must agree.)")
    return values


RaggedCheckSameSplits = Op("RaggedCheckSameSplits", _check_same_splits, typed=(),
                           shape=lambda v, a, b, **_: v, dtype=lambda v, a, b, **_: v)
RaggedCheckSameSplits.def_grad(lambda op, dy: (dy, None, None))


def checked_same_splits(values, a, b):
    """`values`, passed on once the row_splits `a` and `b` are equal (checked at run time)."""
    return apply(RaggedCheckSameSplits, [values, a, b])


# --- RaggedPaddedIndex: where each entry of the padded dense form comes from --------------
def _padded_index(splits, min_width=0):
    """Row i, column j: the position of value j of row i, or nvals past the row's end."""
    splits = splits.astype(np.int64)
    lengths = np.diff(splits)
    width = max(int(lengths.max()) if lengths.size else 0, min_width)
    cols = np.arange(width)
    return np.where(cols < lengths[:, None], splits[:-1, None] + cols, splits[-1])


def _padded_index_shape(splits, min_width=0):
    nrows = splits[0] - 1 if splits.rank == 1 and splits[0] is not None else None
    return TensorShape([nrows, None])


RaggedPaddedIndex = Op("RaggedPaddedIndex", _padded_index, typed=(),
                       shape=_padded_index_shape, dtype=dtypes.int64)
RaggedPaddedIndex.def_grad(lambda op, dy: (None,))


def padded(rt, fill, min_width=0):
    """The values of a ragged_rank-1 `rt` as a dense `[nrows, width, ...]` block, rows
    padded with `fill` (a gather, so the gradient reaches the values)."""
    from ..ops.array_ops import broadcast_to, concat
    from ..ops.gather_ops import gather
    values = rt.values
    if isinstance(values, type(rt)):
        raise ValueError(
            "minitf turns a RaggedTensor whose row partition is traced into a dense block "
            "only for ragged_rank 1 (this one has ragged_rank "
            f"{rt.ragged_rank}); reduce or densify its inner ragged axes first, or do this "
            "outside tf.function.")
    fill = convert_to_tensor(fill, dtype=values.dtype)
    pad = broadcast_to(fill, [1] + values.shape.as_list()[1:])
    index = apply(RaggedPaddedIndex, [rt.row_splits], {"min_width": min_width})
    return gather(concat([values, pad], 0), index)


# --- the row partition's other forms, from graph ops -------------------------------------
def row_lengths(rt):
    splits = rt.row_splits
    return splits[1:] - splits[:-1]


def nrows(rt, dtype):
    from ..ops.math_ops import cast
    from ..ops.shape_ops import size
    return cast(size(rt.row_splits, out_type=dtypes.int64) - 1, dtype)


def _value_rowids(splits):
    return np.repeat(np.arange(len(splits) - 1), np.diff(splits)).astype(splits.dtype)


RaggedValueRowIds = Op("RaggedValueRowIds", _value_rowids, typed=(),
                       shape=lambda s, **_: TensorShape([None]), dtype=lambda s, **_: s)
RaggedValueRowIds.def_grad(lambda op, dy: (None,))


def value_rowids(rt):
    """The row each value belongs to (TF: segment_id_ops.row_splits_to_segment_ids)."""
    return apply(RaggedValueRowIds, [rt.row_splits])


def bounding_shape(rt, axis, dtype):
    """[nrows, longest row, inner sizes...] of a traced ragged_rank-1 tensor."""
    from ..ops.array_ops import concat, stack
    from ..ops.math_ops import cast
    from ..ops.reduction_ops import reduce_max
    from ..ops.shape_ops import shape
    if rt.ragged_rank != 1:
        padded(rt, 0)  # its error: ragged_rank 1 only
    lengths = cast(row_lengths(rt), dtype)
    longest = reduce_max(concat([lengths, convert_to_tensor([0], dtype=dtype)], 0))
    dims = concat([stack([nrows(rt, dtype), longest]),
                   cast(shape(rt.values, out_type=dtypes.int64)[1:], dtype)], 0)
    return dims if axis is None else dims[axis]


def splits_from_lengths(lengths):
    """`[0, l0, l0 + l1, ...]`: the splits of traced row lengths."""
    from ..ops.array_ops import concat
    from ..ops.creation_ops import zeros
    from ..ops.scan_ops import cumsum
    return concat([zeros([1], lengths.dtype), cumsum(lengths)], 0)


def to_tensor(rt, default, shape):
    """RaggedTensor.to_tensor of a traced ragged_rank-1 tensor (`shape`: sizes or None)."""
    if shape is not None and any(d is not None for d in shape):
        raise ValueError(
            f"minitf pads a RaggedTensor whose row partition is traced to its longest row "
            f"only: to_tensor(shape={shape}) needs shape=None there (or call it outside "
            "tf.function); slice or pad the dense result instead.")
    return padded(rt, default)


def reduce_rows(kind, rt, identity, reduce_dense):
    """A reduction over axis 1 of a traced ragged_rank-1 `rt`: pad, then reduce."""
    return reduce_dense(padded(rt, identity, min_width=1), axis=1)
