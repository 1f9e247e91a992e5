"""Math on RaggedTensors: element-wise ops and reductions over ragged axes.

Element-wise ops act on `flat_values` and keep the rows. A second operand
may be a RaggedTensor with the same rows, or a dense tensor that broadcasts:
a scalar, a vector along the uniform inner axes, or a tensor with size 1 on
every ragged axis (one value per row):

>>> import minitf as tf
>>> rt = tf.ragged.constant([[1.0, 2.0], [3.0], []])
>>> rt * 2 + tf.constant([[10.0], [20.0], [30.0]])
<tf.RaggedTensor [[12.0, 14.0], [26.0], []]>

A reduction over a ragged axis is a *segment* reduction: along axis 1 each
row is one segment; along axis 0 the values at column j of every row are
segment j. An empty segment gives the reduction's identity - 0 for a sum,
the lowest number for a max - as in TensorFlow (and a mean of nothing, 0/0,
is nan):

>>> tf.reduce_sum(rt, axis=1)
<tf.Tensor: shape=(3,), dtype=float32, numpy=array([3., 3., 0.], dtype=float32)>
>>> tf.reduce_max(rt, axis=0)
<tf.Tensor: shape=(2,), dtype=float32, numpy=array([3., 2.], dtype=float32)>

Each segment reduction gathers every segment's values into a padded block
(the padding is the identity) and reduces the block with the dense op, so
the gradient of the dense op flows back through the gather to the values.
Follows `ragged_math_ops.py` (`ragged_reduce_aggregate`) and
`ragged_tensor.py`'s broadcasting in TensorFlow.
"""
import numpy as np

from ..framework import dtypes, errors
from ..framework.tensor import convert_to_tensor
from ..ops import array_ops, math_ops, reduction_ops
from ..ops.gather_ops import gather
from ..framework.graph import SymbolicTensor
from . import ragged_graph
from .ragged_tensor import RaggedTensor, is_ragged


# --- element-wise ---------------------------------------------------------------------------
def _splits_error(x_splits, y_splits):
    return errors.InvalidArgumentError(
        None, None, "Condition x == y did not hold.\n"
                    f"First {len(x_splits)} elements of x:\n{x_splits}\nFirst {len(y_splits)} "
                    f"elements of y:\n{y_splits}\n(Ragged operands need the same rows: the "
                    "row_splits of both must agree.)")


def _same_rows(x, y):
    """y's flat_values, once x and y are known to share their rows (checked now, or - for
    a traced partition - when the graph runs, as TF's assert ops do)."""
    if x.ragged_rank != y.ragged_rank:
        raise ValueError(f"Ragged operands of ragged_rank {x.ragged_rank} and {y.ragged_rank} "
                         "cannot be combined element-wise in minitf (TensorFlow can broadcast "
                         "some such pairs).")
    values = y.flat_values
    for a, b in zip(x.nested_row_splits, y.nested_row_splits):
        if a is b:  # the same partition (as inside a traced function): nothing to check
            continue
        if isinstance(a, SymbolicTensor) or isinstance(b, SymbolicTensor):
            values = ragged_graph.checked_same_splits(values, a, b)
            continue
        a, b = a.numpy(), b.numpy()
        if not np.array_equal(a, b):
            raise _splits_error(a, b)
    return values


def _outer_row_of_values(rt):
    """For each row of flat_values, the index of the top-level row it belongs to."""
    splits = rt._splits().astype(np.int64)
    owner = np.repeat(np.arange(len(splits) - 1), np.diff(splits))
    values = rt.values
    while is_ragged(values):
        splits = values._splits().astype(np.int64)
        owner = owner[np.repeat(np.arange(len(splits) - 1), np.diff(splits))]
        values = values.values
    return owner


def _dense_as_flat(rt, dense):
    """A dense operand, arranged to broadcast against rt.flat_values."""
    inner_rank = rt.flat_values.shape.rank - 1
    if dense.shape.rank <= inner_rank:
        return dense  # it lines up with the uniform inner axes
    rank = rt.shape.rank
    if dense.shape.rank > rank:
        raise ValueError(f"A dense operand of rank {dense.shape.rank} cannot broadcast to a "
                         f"RaggedTensor of rank {rank}.")
    dims = [1] * (rank - dense.shape.rank) + dense.shape.as_list()
    dense = array_ops.reshape(dense, dims)
    lengths = [np.diff(p._splits()) for p in rt._partitions()]
    for axis in range(1, rt.ragged_rank + 1):
        if dims[axis] != 1:  # only a size shared by every row could broadcast here
            rows = lengths[axis - 1]
            bad = rows[rows != dims[axis]]
            if bad.size:
                raise _splits_error(np.arange(len(rows) + 1) * dims[axis],
                                    np.concatenate([[0], np.cumsum(rows)]))
            raise ValueError("minitf broadcasts a dense operand along a ragged axis only "
                             "when its size there is 1.")
    per_row = array_ops.reshape(dense, [dims[0]] + dims[rt.ragged_rank + 1:])
    if dims[0] == 1:
        return per_row
    if dims[0] != rt.nrows_value():
        raise _splits_error(np.arange(dims[0] + 1), np.arange(rt.nrows_value() + 1))
    return gather(per_row, _outer_row_of_values(rt))


def elementwise(op, x, y, **kwargs):
    """op(x, y) where one or both are RaggedTensors; the result has their rows."""
    if is_ragged(x) and is_ragged(y):
        return x.with_flat_values(op(x.flat_values, _same_rows(x, y), **kwargs))
    if is_ragged(x):
        y = convert_to_tensor(y, dtype_hint=x.dtype)
        return x.with_flat_values(op(x.flat_values, _dense_as_flat(x, y), **kwargs))
    x = convert_to_tensor(x, dtype_hint=y.dtype)
    return y.with_flat_values(op(_dense_as_flat(y, x), y.flat_values, **kwargs))


def unary(op, x, *args, **kwargs):
    """op applied to every value of x; the rows stay."""
    return x.with_flat_values(op(x.flat_values, *args, **kwargs))


# --- segment reductions ---------------------------------------------------------------------
def _identity(kind, dtype):
    if kind in ("sum", "any"):
        return False if kind == "any" else 0
    if kind in ("prod", "all"):
        return True if kind == "all" else 1
    info = np.finfo if dtype.is_floating else np.iinfo
    limits = info(dtype.as_numpy_dtype)
    return limits.min if kind == "max" else limits.max


_DENSE = {"sum": reduction_ops.reduce_sum, "prod": reduction_ops.reduce_prod,
          "max": reduction_ops.reduce_max, "min": reduction_ops.reduce_min,
          "all": reduction_ops.reduce_all, "any": reduction_ops.reduce_any}


def _dense_segment_reduce(kind, data, ids, num):
    """Reduce the rows of dense `data` that share a segment id: a padded gather, then the
    dense reduction over the padding axis."""
    counts = np.bincount(ids, minlength=num)[:num] if ids.size else np.zeros(num, np.int64)
    width = max(int(counts.max()) if counts.size else 0, 1)
    order = np.argsort(ids, kind="stable")
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]]).astype(np.int64)
    index = np.full((num, width), len(ids), dtype=np.int64)  # len(ids): data's rows
    sorted_ids = ids[order]
    index[sorted_ids, np.arange(len(ids)) - starts[sorted_ids]] = order
    fill = np.array(_identity(kind, data.dtype), dtype=data.dtype.as_numpy_dtype)
    pad = array_ops.broadcast_to(convert_to_tensor(fill), [1] + data.shape.as_list()[1:])
    block = gather(array_ops.concat([data, pad], 0), index)
    return _DENSE[kind](block, axis=1)


def segment_reduce(kind, data, ids, num):
    """Unsorted segment reduction of the rows of dense or ragged `data` (TF's algorithm:
    a ragged segment's row j reduces row j of every member)."""
    ids = np.asarray(ids, dtype=np.int64)
    if not is_ragged(data):
        return _dense_segment_reduce(kind, data, ids, num)
    lengths = np.diff(data._splits().astype(np.int64))
    out_lengths = np.zeros(num, np.int64)
    np.maximum.at(out_lengths, ids, lengths)
    out_splits = np.concatenate([[0], np.cumsum(out_lengths)])
    splits = data._splits().astype(np.int64)
    value_row = np.repeat(np.arange(len(lengths)), lengths)
    value_ids = np.arange(splits[-1]) - splits[value_row] + out_splits[ids[value_row]]
    values = segment_reduce(kind, data.values, value_ids, int(out_splits[-1]))
    return RaggedTensor.from_row_splits(values, convert_to_tensor(out_splits), validate=False)


def _reduce_axis(kind, rt, axis):
    if not is_ragged(rt):
        return _DENSE[kind](rt, axis=axis)
    if axis == 0:
        lengths = np.diff(rt._splits().astype(np.int64))
        columns = np.concatenate([np.arange(n) for n in lengths]) if lengths.size else \
            np.zeros(0, np.int64)
        return segment_reduce(kind, rt.values, columns, int(lengths.max()) if lengths.size
                              else 0)
    if axis == 1 and ragged_graph.is_traced(rt):  # inside tf.function / Dataset.map
        fill = np.array(_identity(kind, rt.dtype), dtype=rt.dtype.as_numpy_dtype)
        return ragged_graph.reduce_rows(kind, rt, fill, _DENSE[kind])
    if axis == 1:
        return segment_reduce(kind, rt.values, rt.value_rowids().numpy(), rt.nrows_value())
    values = _reduce_axis(kind, rt.values, axis - 1)
    return rt.with_values(values)


def _axes(rt, axis):
    rank = rt.shape.rank
    axes = [axis] if isinstance(axis, (int, np.integer)) else list(
        convert_to_tensor(axis).numpy().reshape(-1))
    for a in axes:
        if not -rank <= a < rank:
            raise ValueError(f"axis={a} out of bounds: expected {-rank}<=axis<{rank}")
    return sorted({int(a) % rank for a in axes}, reverse=True)


def reduce(kind, rt, axis=None, keepdims=False):
    """tf.reduce_<kind> of a RaggedTensor."""
    if axis is None:
        result = _DENSE[kind](rt.flat_values)
        if keepdims:
            result = array_ops.reshape(result, [1] * rt.shape.rank)
        return result
    axes = _axes(rt, axis)
    result = rt
    for a in axes:
        result = _reduce_axis(kind, result, a)
    if keepdims:
        for a in sorted(axes):
            result = expand_dims(result, a)
    return result


def reduce_mean(rt, axis=None, keepdims=False):
    """Sum over count (TF's ragged reduce_mean; integers give float64, as TF's `/` does)."""
    total = reduce("sum", rt, axis, keepdims)
    count = reduce("sum", rt.with_flat_values(_ones(rt.flat_values)), axis, keepdims)
    if is_ragged(total):  # reduced over an inner ragged axis: the rows stay
        return elementwise(math_ops.truediv, total, count)
    return math_ops.truediv(total, count)


def _ones(values):
    from ..ops.creation_ops import ones_like
    return ones_like(values)


def reduce_variance(rt, axis=None, keepdims=False):
    mean = reduce_mean(rt, axis, keepdims=True)
    deviations = elementwise(math_ops.subtract, rt, mean)
    return reduce_mean(elementwise(math_ops.multiply, deviations, deviations), axis, keepdims)


def reduce_std(rt, axis=None, keepdims=False):
    from ..ops.unary_ops import sqrt
    variance = reduce_variance(rt, axis, keepdims)
    return unary(sqrt, variance) if is_ragged(variance) else sqrt(variance)


# --- shape helpers --------------------------------------------------------------------------
def expand_dims(value, axis):
    """tf.expand_dims for a RaggedTensor: a new axis of size 1 at `axis`."""
    if not is_ragged(value):
        return array_ops.expand_dims(value, axis)
    rank = value.shape.rank
    if not -rank - 1 <= axis <= rank:
        raise ValueError(f"axis={axis} out of bounds: expected {-rank - 1}<=axis<={rank}")
    axis = axis % (rank + 1)
    if axis == 0:
        return RaggedTensor.from_uniform_row_length(value, value.nrows_value(), nrows=1)
    if axis == 1:
        return RaggedTensor.from_uniform_row_length(value, 1, nrows=value.nrows_value())
    return value.with_values(expand_dims(value.values, axis - 1))


def size(rt, out_type=dtypes.int32):
    """How many scalars a RaggedTensor holds."""
    count = int(np.prod(rt.flat_values.shape.as_list()))
    return convert_to_tensor(np.array(count, dtypes.as_dtype(out_type).as_numpy_dtype))
