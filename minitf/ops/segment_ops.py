"""Segment reductions beyond the sums: max, min, prod and mean, sorted and unsorted.

>>> import minitf as tf
>>> tf.math.segment_max([1.0, 5.0, 3.0, 2.0], [0, 0, 2, 2])  # segment 1 is empty: 0
<tf.Tensor: shape=(3,), dtype=float32, numpy=array([5., 0., 3.], dtype=float32)>
>>> tf.math.unsorted_segment_max([1.0, 5.0, 3.0], [1, 1, -1], 2)  # empty: the lowest float
<tf.Tensor: shape=(2,), dtype=float32, numpy=array([-3.4028235e+38,  5.0000000e+00], dtype=float32)>

Sorted ops (SegmentMax, ...) take one sorted id per row of data and give empty
segments 0 (prod: 1); unsorted ops take ids of any order and shape, drop rows with
negative ids, and give empty segments the reduction's identity (max: the dtype's
lowest value, min: its highest, prod: 1). unsorted_segment_mean and _sqrt_n are
compositions in TF too: the sum divided by max(count, 1), or by its square root.
The checks and sums live in scatter_ops.py (segment_sum, unsorted_segment_sum).
"""
import numpy as np

from ..framework import dtypes
from ..framework.op import Op, apply
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export
from .gather_ops import gather
from .scatter_ops import (_check_sorted, _segment_sum_shape, _unsorted_segment_sum_shape,
                          check_index_dtype, check_unsorted_segments, gather_dropping_negatives,
                          segment_sum, unsorted_segment_sum)

_REDUCE = {"Max": np.maximum, "Min": np.minimum, "Prod": np.multiply}


def _identity(kind, dtype):
    if kind == "Prod":
        return 1
    info = np.finfo(dtype) if np.issubdtype(dtype, np.inexact) else np.iinfo(dtype)
    return info.min if kind == "Max" else info.max


def _sorted_forward(kind):
    op_name = "Segment" + kind

    def forward(data, segment_ids):
        _segment_sum_shape(TensorShape(data.shape), TensorShape(segment_ids.shape), op_name)
        rows = int(segment_ids[-1]) + 1 if segment_ids.size else 0
        if segment_ids.size:
            _check_sorted(segment_ids, op_name)
        counts = np.bincount(segment_ids, minlength=rows).reshape((rows,) + (1,) * (data.ndim - 1))
        if kind == "Mean":
            out = np.zeros((rows,) + data.shape[1:], dtype=data.dtype)
            np.add.at(out, segment_ids, data)
            divided = out / np.maximum(counts, 1)
            return (divided if data.dtype.kind in "fc" else np.trunc(divided)).astype(data.dtype)
        out = np.full((rows,) + data.shape[1:], _identity(kind, data.dtype), dtype=data.dtype)
        _REDUCE[kind].at(out, segment_ids, data)
        return np.where(counts > 0, out, 0 if kind != "Prod" else 1).astype(data.dtype)

    return forward


def _unsorted_forward(kind):
    op_name = "UnsortedSegment" + kind

    def forward(data, segment_ids, num_segments):
        ids = check_unsorted_segments(data, segment_ids, num_segments, op_name)
        rows = data.reshape((ids.size,) + data.shape[segment_ids.ndim:])
        out = np.full((num_segments,) + rows.shape[1:], _identity(kind, data.dtype),
                      dtype=data.dtype)
        keep = ids >= 0
        _REDUCE[kind].at(out, ids[keep], rows[keep])
        return out

    return forward


def _unsorted_shape(op_name):
    return lambda data, ids, num_segments: _unsorted_segment_sum_shape(data, ids, num_segments,
                                                                       op_name)


def _sorted_op(kind, allowed):
    return Op("Segment" + kind, _sorted_forward(kind), dtypes=allowed, typed=(0,),
              shape=lambda data, ids: _segment_sum_shape(data, ids, "Segment" + kind))


def _unsorted_op(kind, allowed):
    return Op("UnsortedSegment" + kind, _unsorted_forward(kind), dtypes=allowed, typed=(0,),
              shape=_unsorted_shape("UnsortedSegment" + kind))


SegmentMax, SegmentMin = _sorted_op("Max", dtypes.REAL), _sorted_op("Min", dtypes.REAL)
SegmentProd, SegmentMean = _sorted_op("Prod", dtypes.NUMERIC), _sorted_op("Mean", dtypes.NUMERIC)
UnsortedSegmentMax = _unsorted_op("Max", dtypes.REAL)
UnsortedSegmentMin = _unsorted_op("Min", dtypes.REAL)
UnsortedSegmentProd = _unsorted_op("Prod", dtypes.NUMERIC)


# --- gradients (TF's math_grad.py) -----------------------------------------------------------
def _min_or_max_grad(op, dy, sorted_ids):
    """dy goes to the entries equal to their segment's result, shared among ties."""
    from ..framework.gradient_ops import zeros_like
    from .math_ops import cast, equal, where

    data, ids = op.inputs[0], op.inputs[1]
    take = (lambda t: gather(t, ids)) if sorted_ids else \
        (lambda t: gather_dropping_negatives(t, ids))
    is_selected = equal(data, take(op.outputs[0]))
    if not sorted_ids:
        from .math_ops import greater_equal, logical_and
        from .array_ops import reshape

        keep = reshape(greater_equal(ids, 0), ids.shape.as_list()
                       + [1] * (data.shape.rank - ids.shape.rank))
        is_selected = logical_and(is_selected, keep)
    selected = cast(is_selected, dy.dtype)
    counts = segment_sum(selected, ids) if sorted_ids else \
        unsorted_segment_sum(selected, ids, op.attrs["num_segments"])
    share = take(dy / where(equal(counts, 0), counts + 1, counts))
    return where(is_selected, share, zeros_like(share))


def _prod_grad(op, dy, sorted_ids):
    """y / x where x != 0; where x is a segment's only zero, the product of the others."""
    from .math_ops import cast, equal, greater, where
    from ..framework.gradient_ops import ones_like, zeros_like

    data, ids = op.inputs[0], op.inputs[1]
    if sorted_ids:
        take, seg_sum = (lambda t: gather(t, ids)), (lambda t: segment_sum(t, ids))
        seg_prod = lambda t: segment_prod(t, ids)  # noqa: E731
    else:
        n = op.attrs["num_segments"]
        take = lambda t: gather_dropping_negatives(t, ids)  # noqa: E731
        seg_sum = lambda t: unsorted_segment_sum(t, ids, n)  # noqa: E731
        seg_prod = lambda t: unsorted_segment_prod(t, ids, n)  # noqa: E731
    is_zero = equal(data, 0)
    num_zeros = seg_sum(cast(is_zero, dtypes.int32))
    dy = where(greater(num_zeros, 1), zeros_like(dy), dy)  # two zeros: every partial is 0
    non_zero_data = where(is_zero, ones_like(data), data)
    partial = where(is_zero, take(seg_prod(non_zero_data)), take(op.outputs[0]) / non_zero_data)
    return take(dy) * partial


@SegmentMax.def_grad
def _segment_max_grad(op, dy):
    return _min_or_max_grad(op, dy, True), None


SegmentMin.def_grad(_segment_max_grad)


@UnsortedSegmentMax.def_grad
def _unsorted_segment_max_grad(op, dy):
    return _min_or_max_grad(op, dy, False), None


UnsortedSegmentMin.def_grad(_unsorted_segment_max_grad)


@SegmentProd.def_grad
def _segment_prod_grad(op, dy):
    return _prod_grad(op, dy, True), None


@UnsortedSegmentProd.def_grad
def _unsorted_segment_prod_grad(op, dy):
    return _prod_grad(op, dy, False), None


@SegmentMean.def_grad
def _segment_mean_grad(op, dy):
    from ..framework.gradient_ops import ones_like
    from .math_ops import maximum

    ids = op.inputs[1]
    counts = segment_sum(ones_like(ids), ids)
    shape = [-1] + [1] * (op.inputs[0].shape.rank - 1)
    from .array_ops import reshape
    from .math_ops import cast

    scale = reshape(cast(maximum(counts, 1), dy.dtype), shape)
    return gather(dy / scale, ids), None


# --- the public functions ----------------------------------------------------------------------
def _sorted(op, data, segment_ids):
    data = convert_to_tensor(data)
    ids = check_index_dtype(op.name, convert_to_tensor(segment_ids))
    return apply(op, [data, ids])


def _unsorted(op, data, segment_ids, num_segments):
    data = convert_to_tensor(data)
    ids = check_index_dtype(op.name, convert_to_tensor(segment_ids))
    return apply(op, [data, ids], {"num_segments": int(num_segments)})


@tf_export("math.segment_max")
def segment_max(data, segment_ids, name=None):
    """output[j] = max of data[i] with segment_ids[i] == j; ids sorted; 0 for an empty segment.

    >>> tf.math.segment_max([[1, 9], [4, 2], [7, 7]], [0, 0, 1]).numpy()
    array([[4, 9],
           [7, 7]], dtype=int32)
    """
    return _sorted(SegmentMax, data, segment_ids)


@tf_export("math.segment_min")
def segment_min(data, segment_ids, name=None):
    """output[j] = min of data[i] with segment_ids[i] == j; ids sorted; 0 for an empty segment.

    >>> tf.math.segment_min([3.0, 1.0, 2.0], [0, 0, 1]).numpy()
    array([1., 2.], dtype=float32)
    """
    return _sorted(SegmentMin, data, segment_ids)


@tf_export("math.segment_prod")
def segment_prod(data, segment_ids, name=None):
    """output[j] = product of data[i] with segment_ids[i] == j; ids sorted; 1 if empty.

    >>> tf.math.segment_prod([2, 3, 4], [0, 0, 2]).numpy()
    array([6, 1, 4], dtype=int32)
    """
    return _sorted(SegmentProd, data, segment_ids)


@tf_export("math.segment_mean")
def segment_mean(data, segment_ids, name=None):
    """output[j] = mean of data[i] with segment_ids[i] == j; ids sorted; 0 if empty.

    Integer data divide as integers (5 / 2 -> 2), as TF's kernel does.

    >>> tf.math.segment_mean([1.0, 5.0, 3.0], [0, 0, 1]).numpy()
    array([3., 3.], dtype=float32)
    """
    return _sorted(SegmentMean, data, segment_ids)


@tf_export("math.unsorted_segment_max")
def unsorted_segment_max(data, segment_ids, num_segments, name=None):
    """output[j] = max of data[i...] with segment_ids[i...] == j (the dtype's lowest if none).

    >>> tf.math.unsorted_segment_max([1, 5, 3], [1, 0, 1], 2).numpy()
    array([5, 3], dtype=int32)
    """
    return _unsorted(UnsortedSegmentMax, data, segment_ids, num_segments)


@tf_export("math.unsorted_segment_min")
def unsorted_segment_min(data, segment_ids, num_segments, name=None):
    """output[j] = min of data[i...] with segment_ids[i...] == j (the dtype's highest if none).

    >>> tf.math.unsorted_segment_min([1, 5, 3], [1, 0, 1], 2).numpy()
    array([5, 1], dtype=int32)
    """
    return _unsorted(UnsortedSegmentMin, data, segment_ids, num_segments)


@tf_export("math.unsorted_segment_prod")
def unsorted_segment_prod(data, segment_ids, num_segments, name=None):
    """output[j] = product of data[i...] with segment_ids[i...] == j (1 if none).

    >>> tf.math.unsorted_segment_prod([2, 5, 3], [1, 0, 1], 3).numpy()
    array([5, 6, 1], dtype=int32)
    """
    return _unsorted(UnsortedSegmentProd, data, segment_ids, num_segments)


def _segment_counts(data, segment_ids, num_segments):
    """max(count, 1) per segment, shaped to broadcast against the segment sums (TF's _N)."""
    from .array_ops import reshape
    from .creation_ops import ones
    from .math_ops import maximum

    data, ids = convert_to_tensor(data), convert_to_tensor(segment_ids)
    n = unsorted_segment_sum(ones(ids.shape, dtype=data.dtype), ids, num_segments)
    n = reshape(n, [int(num_segments)] + [1] * (data.shape.rank - ids.shape.rank))
    return maximum(n, convert_to_tensor(1, dtype=data.dtype))


@tf_export("math.unsorted_segment_mean")
def unsorted_segment_mean(data, segment_ids, num_segments, name=None):
    """The segment's sum / max(count, 1): 0 for an empty segment (int data give float64).

    >>> tf.math.unsorted_segment_mean([1.0, 5.0, 3.0], [1, 0, 1], 3).numpy()
    array([5., 2., 0.], dtype=float32)
    """
    counts = _segment_counts(data, segment_ids, num_segments)
    return unsorted_segment_sum(data, segment_ids, num_segments) / counts


@tf_export("math.unsorted_segment_sqrt_n")
def unsorted_segment_sqrt_n(data, segment_ids, num_segments, name=None):
    """The segment's sum / sqrt(max(count, 1)) (float data only, as sqrt needs).

    >>> tf.math.unsorted_segment_sqrt_n([1.0, 5.0, 3.0], [1, 0, 1], 2).numpy()
    array([5.      , 2.828427], dtype=float32)
    """
    from .unary_ops import sqrt

    counts = _segment_counts(data, segment_ids, num_segments)
    return unsorted_segment_sum(data, segment_ids, num_segments) / sqrt(counts)
