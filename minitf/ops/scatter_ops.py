"""Writing at positions: scatter_nd, tensor_scatter_nd_*, segment sums.

Scatters are the mirror image of gathers, and each one's gradient is the
other: `gather` reads rows, `unsorted_segment_sum` adds rows into places;
`gather_nd` reads at coordinates, `scatter_nd` adds at coordinates.

>>> import minitf as tf
>>> tf.scatter_nd([[0], [2], [0]], [1.0, 2.0, 3.0], shape=[4])  # repeated positions add up
<tf.Tensor: shape=(4,), dtype=float32, numpy=array([4., 0., 2., 0.], dtype=float32)>
>>> tf.math.unsorted_segment_sum([1.0, 2.0, 3.0], [1, 0, 1], num_segments=2)
<tf.Tensor: shape=(2,), dtype=float32, numpy=array([2., 4.], dtype=float32)>

In the `*_nd` ops the last axis of `indices` holds coordinates: indices of
shape [N..., K] name N... positions, each the first K coordinates of a
slice of shape `shape[K:]`; `updates` has shape [N...] + shape[K:].
"""
import numpy as np

from ..framework import dtypes, errors
from ..framework.op import Op, apply
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export
from .array_ops import attr_dtype_error
from .shape_rules import dims_text

_INDEX_DTYPES = (dtypes.int16, dtypes.int32, dtypes.int64)
_POLICIES = ("", "DEFAULT", "ERROR", "IGNORE")


# --- helpers shared with gather_ops.py -----------------------------------------------------
def check_index_dtype(op_name, indices, attr="Tindices", allowed=_INDEX_DTYPES):
    """TF's kernel check that an index input is an integer tensor of an allowed type."""
    if indices.dtype not in allowed:
        raise attr_dtype_error(op_name, attr, indices.dtype, ", ".join(d.name for d in allowed),
                               "Indices are positions, so they must be integers: tf.cast them "
                               "to tf.int32.")
    return indices


def position(flat_index, shape):
    """TF's way of naming the element at `flat_index` of a tensor of `shape`: "[1,0]" or ""."""
    if not shape:
        return ""
    return "[" + ",".join(str(int(i)) for i in np.unravel_index(flat_index, shape)) + "]"


def check_policy(op_name, policy):
    if policy not in _POLICIES:
        raise errors.op_error(
            errors.NotFoundError, op_name,
            f"Could not find device for node: {op_name}[bad_indices_policy=\"{policy}\"]",
            f"bad_indices_policy must be one of {', '.join(repr(p) for p in _POLICIES)}.")
    return policy


def bad_rows(flat, dims):
    """Which rows of an [N, K] coordinate array fall outside `dims` (a K-list of sizes)."""
    return np.any((flat < 0) | (flat >= np.asarray(dims, dtype=np.int64)), axis=1)


def _compatible(dims, other):
    """Equal lengths and sizes, where an unknown size (None, while tracing) matches anything."""
    return TensorShape(dims).is_compatible_with(TensorShape(list(other)))


def _nd_parts(indices):
    """indices [N..., K] -> (outer shape N..., K, the coordinates as an [N, K] array)."""
    outer, k = indices.shape[:-1], indices.shape[-1]
    return outer, k, indices.reshape(int(np.prod(outer)), k)


def _check_ranks(op_name, indices, updates):
    for what, s in (("Indices", indices), ("Updates", updates)):
        if s.rank == 0:
            raise errors.op_error(errors.InvalidArgumentError, op_name,
                                  f"{what} shape must have rank at least one. Found:[]",
                                  "Scatter ops write rows; wrap a single value in a list.")
    # TF's shape function reads rank-1 indices as one coordinate per update.
    if indices.rank == 1 and None not in (indices[0], updates[0]) and indices[0] != updates[0]:
        raise errors.op_error(
            errors.InvalidArgumentError, op_name,
            f"Dimensions [0,1) of indices[shape={dims_text(indices)}] = {indices[0]} must match "
            f"dimensions [0,1) of updates[shape={dims_text(updates)}] = {updates[0]}",
            "Give indices a last axis of coordinates, e.g. [[1], [3]] rather than [1, 3].")


# --- scatter_nd -------------------------------------------------------------------------------
def _scatter_nd_shape(indices, updates, shape, bad_indices_policy=""):
    if any(d < 0 for d in shape):
        raise errors.op_error(errors.InvalidArgumentError, "ScatterNd",
                              f"Dimension {min(shape)} must be >= 0",
                              "The output shape lists sizes, which cannot be negative.")
    if indices.rank is None or updates.rank is None:
        return TensorShape(shape)
    _check_ranks("ScatterNd", indices, updates)
    outer, k = indices.rank - 1, indices[-1]
    if k is None:
        return TensorShape(shape)
    text = (dims_text(indices), dims_text(updates), dims_text(shape))
    if not _compatible(updates.dims[:outer], indices.dims[:outer]):
        raise errors.op_error(
            errors.InvalidArgumentError, "ScatterNd",
            f"Dimensions [0,{outer}) of indices[shape={text[0]}] must match dimensions "
            f"[0,{outer}) of updates[shape={text[1]}]",
            "updates needs one entry per coordinate row of indices.")
    if updates.rank - outer != len(shape) - k or not _compatible(updates.dims[outer:], shape[k:]):
        raise errors.op_error(
            errors.InvalidArgumentError, "ScatterNd",
            f"Dimensions [{k},{len(shape)}) of input[shape={text[2]}] must match dimensions "
            f"[{outer},{updates.rank}) of updates[shape={text[1]}]",
            f"Each coordinate row names a slice of shape {dims_text(shape[k:])}; updates "
            "must hold one such slice per row.")
    return TensorShape(shape)


def _check_rows(op_name, indices, dims, text, policy):
    """Raise TF's error for an out-of-range coordinate row (unless IGNORE); return rows, mask."""
    outer, k, flat = _nd_parts(indices)
    bad = bad_rows(flat, dims[:k])
    if bad.any() and policy != "IGNORE":
        i = int(np.flatnonzero(bad)[-1])  # TF's kernel reports the last bad row
        coords = ", ".join(str(c) for c in flat[i])
        raise errors.op_error(
            errors.InvalidArgumentError, op_name,
            f"indices{position(i, outer)} = [{coords}] does not index into {text}",
            f"Each coordinate must lie in [0, size) of its axis; the sizes are {dims_text(dims)}.")
    return flat, ~bad


def _scatter_add(out, indices, updates, policy, op_name, text, subtract=False):
    flat, good = _check_rows(op_name, indices, out.shape, text, policy)
    k = flat.shape[1]
    rows = updates.reshape((flat.shape[0],) + out.shape[k:])[good]
    rows = -rows if subtract else rows
    if k == 0:  # zero coordinates name the whole tensor: every row adds to all of it
        out += rows.sum(axis=0, dtype=out.dtype)
    else:
        np.add.at(out, tuple(flat[good].T), rows)  # unlike out[i] += u, repeats accumulate
    return out


def _scatter_nd_forward(indices, updates, shape, bad_indices_policy=""):
    _scatter_nd_shape(TensorShape(indices.shape), TensorShape(updates.shape), shape)
    out = np.zeros(shape, dtype=updates.dtype)
    if updates.dtype == object:
        out[...] = b""
    return _scatter_add(out, indices, updates, bad_indices_policy, "ScatterNd",
                        f"shape {dims_text(shape)}")


ScatterNd = Op("ScatterNd", _scatter_nd_forward, typed=(1,), shape=_scatter_nd_shape)


@ScatterNd.def_grad
def _scatter_nd_grad(op, dy):
    from .gather_ops import gather_nd

    indices = op.inputs[0]  # each update went to one place: read its gradient from there
    return None, gather_nd(dy, indices, bad_indices_policy=op.attrs["bad_indices_policy"])


@tf_export("scatter_nd")
def scatter_nd(indices, updates, shape, bad_indices_policy="", name=None):
    """Zeros of `shape`, then `output[indices[i]] += updates[i]` (repeats add up).

    >>> tf.scatter_nd([[1, 0]], [5.0], [2, 2])
    <tf.Tensor: shape=(2, 2), dtype=float32, numpy=
    array([[0., 0.],
           [5., 0.]], dtype=float32)>
    """
    indices = check_index_dtype("ScatterNd", convert_to_tensor(indices))
    updates = convert_to_tensor(updates)
    shape = tuple(int(d) for d in np.reshape(np.asarray(
        shape.numpy() if hasattr(shape, "numpy") else shape), [-1]))
    check_policy("ScatterNd", bad_indices_policy)
    return apply(ScatterNd, [indices, updates],
                 {"shape": shape, "bad_indices_policy": bad_indices_policy})


# --- tensor_scatter_nd_update / add / sub ------------------------------------------------------
def _tensor_scatter_rule(op_name):
    def rule(tensor, indices, updates):
        if tensor.rank is None or indices.rank is None or updates.rank is None:
            return tensor
        _check_ranks(op_name, indices, updates)
        outer, k = indices.rank - 1, indices[-1]
        if k is None:
            return tensor
        t, u = dims_text(tensor), dims_text(updates)
        if not _compatible(updates.dims[:outer], indices.dims[:outer]):
            raise errors.op_error(
                errors.InvalidArgumentError, op_name,
                f"Outer dimensions of indices and update must match. Indices shape: "
                f"{dims_text(indices)}, updates shape:{u}",
                "updates needs one entry per coordinate row of indices.")
        if updates.rank - outer != tensor.rank - k:
            raise errors.op_error(
                errors.InvalidArgumentError, op_name,
                f"Inner dimensions of output shape must match inner dimensions of updates "
                f"shape. Output: {t} updates: {u}",
                f"Each coordinate row names a slice of shape {dims_text(tensor[k:])}.")
        if not _compatible(updates.dims[outer:], tensor.dims[k:]):
            raise errors.op_error(
                errors.InvalidArgumentError, op_name,
                f"The inner {tensor.rank - k} dimensions of output.shape={t} must match the "
                f"inner {updates.rank - outer} dimensions of updates.shape={u}",
                f"Each coordinate row names a slice of shape {dims_text(tensor[k:])}.")
        return tensor

    return rule


def _tensor_scatter(op_name, mode):
    rule = _tensor_scatter_rule(op_name)

    def forward(tensor, indices, updates):
        rule(TensorShape(tensor.shape), TensorShape(indices.shape), TensorShape(updates.shape))
        out = tensor.copy()
        text = f"shape {dims_text(tensor.shape)}"
        if mode in ("add", "sub"):
            return _scatter_add(out, indices, updates, "", op_name, text, mode == "sub")
        flat, _ = _check_rows(op_name, indices, tensor.shape, text, "")
        if mode in ("max", "min"):
            rows = updates.reshape((flat.shape[0],) + tensor.shape[flat.shape[1]:])
            ufunc = np.maximum if mode == "max" else np.minimum
            ufunc.at(out, tuple(flat.T), rows)  # repeats: compared one after another
            return out
        rows = updates.reshape((flat.shape[0],) + tensor.shape[flat.shape[1]:])
        if len(rows):
            out[tuple(flat.T)] = rows if flat.shape[1] else rows[-1]  # repeats: the last wins
        return out

    return Op(op_name, forward, typed=(0, 2), shape=rule)


TensorScatterUpdate = _tensor_scatter("TensorScatterUpdate", "update")
TensorScatterAdd = _tensor_scatter("TensorScatterAdd", "add")
TensorScatterSub = _tensor_scatter("TensorScatterSub", "sub")
TensorScatterMax = _tensor_scatter("TensorScatterMax", "max")
TensorScatterMin = _tensor_scatter("TensorScatterMin", "min")


@TensorScatterUpdate.def_grad
def _tensor_scatter_update_grad(op, dy):
    from .gather_ops import gather_nd
    from ..framework.gradient_ops import zeros_like

    _, indices, updates = op.inputs  # overwritten positions lose their gradient
    return (tensor_scatter_nd_update(dy, indices, zeros_like(updates)), None,
            gather_nd(dy, indices))


@TensorScatterAdd.def_grad
def _tensor_scatter_add_grad(op, dy):
    from .gather_ops import gather_nd

    return dy, None, gather_nd(dy, op.inputs[1])


@TensorScatterSub.def_grad
def _tensor_scatter_sub_grad(op, dy):
    from .gather_ops import gather_nd

    return dy, None, -gather_nd(dy, op.inputs[1])


@TensorScatterMax.def_grad
@TensorScatterMin.def_grad
def _tensor_scatter_max_min_grad(op, dy):
    """Each output position's gradient goes to whichever inputs equal it (shared
    equally on a tie), as TF's `_TensorScatterMinOrMaxGrad`."""
    from .gather_ops import gather_nd
    from .math_ops import cast, equal

    tensor, indices, updates = op.inputs
    output = op.outputs[0]
    from_tensor = cast(equal(tensor, output), dy.dtype)
    from_updates = cast(equal(updates, gather_nd(output, indices)), dy.dtype)
    share = from_tensor + scatter_nd(indices, from_updates, tensor.shape.as_list())
    return (dy * from_tensor / share, None,
            gather_nd(dy / share, indices) * from_updates)


def _tensor_scatter_args(op_name, tensor, indices, updates):
    """TF's eager conversion: the first of tensor/updates that is a Tensor sets the dtype."""
    def is_tensor(x):
        return isinstance(x, Tensor) or hasattr(x, "_is_variable")

    if is_tensor(tensor) or not is_tensor(updates):
        tensor = convert_to_tensor(tensor)
        updates = convert_to_tensor(updates, dtype=None if is_tensor(updates) else tensor.dtype)
    else:
        updates = convert_to_tensor(updates)
        tensor = convert_to_tensor(tensor, dtype=updates.dtype)
    indices = check_index_dtype(op_name, convert_to_tensor(indices))
    return [tensor, indices, updates]


@tf_export("tensor_scatter_nd_update")
def tensor_scatter_nd_update(tensor, indices, updates, name=None):
    """A copy of `tensor` with `tensor[indices[i]] = updates[i]`.

    With a repeated position the last update wins (as on TF's CPU); as in TF, every
    update still gets the gradient of its position.

    >>> tf.tensor_scatter_nd_update([1.0, 2.0, 3.0], [[1]], [9.0])
    <tf.Tensor: shape=(3,), dtype=float32, numpy=array([1., 9., 3.], dtype=float32)>
    """
    return apply(TensorScatterUpdate,
                 _tensor_scatter_args("TensorScatterUpdate", tensor, indices, updates))


@tf_export("tensor_scatter_nd_add")
def tensor_scatter_nd_add(tensor, indices, updates, name=None):
    """A copy of `tensor` with `tensor[indices[i]] += updates[i]` (repeats add up).

    >>> tf.tensor_scatter_nd_add([1.0, 2.0, 3.0], [[1], [1]], [10.0, 20.0])
    <tf.Tensor: shape=(3,), dtype=float32, numpy=array([ 1., 32.,  3.], dtype=float32)>
    """
    return apply(TensorScatterAdd,
                 _tensor_scatter_args("TensorScatterAdd", tensor, indices, updates))


@tf_export("tensor_scatter_nd_sub")
def tensor_scatter_nd_sub(tensor, indices, updates, name=None):
    """A copy of `tensor` with `tensor[indices[i]] -= updates[i]` (repeats add up).

    >>> tf.tensor_scatter_nd_sub([1.0, 2.0, 3.0], [[0]], [1.0])
    <tf.Tensor: shape=(3,), dtype=float32, numpy=array([0., 2., 3.], dtype=float32)>
    """
    return apply(TensorScatterSub,
                 _tensor_scatter_args("TensorScatterSub", tensor, indices, updates))


@tf_export("tensor_scatter_nd_max")
def tensor_scatter_nd_max(tensor, indices, updates, name=None):
    """A copy of `tensor` with `tensor[indices[i]] = max(tensor[indices[i]], updates[i])`.

    >>> tf.tensor_scatter_nd_max([1.0, 5.0, 3.0], [[0], [1]], [4.0, 2.0])
    <tf.Tensor: shape=(3,), dtype=float32, numpy=array([4., 5., 3.], dtype=float32)>
    """
    return apply(TensorScatterMax,
                 _tensor_scatter_args("TensorScatterMax", tensor, indices, updates))


@tf_export("tensor_scatter_nd_min")
def tensor_scatter_nd_min(tensor, indices, updates, name=None):
    """A copy of `tensor` with `tensor[indices[i]] = min(tensor[indices[i]], updates[i])`.

    >>> tf.tensor_scatter_nd_min([1.0, 5.0, 3.0], [[0], [1]], [4.0, 2.0])
    <tf.Tensor: shape=(3,), dtype=float32, numpy=array([1., 2., 3.], dtype=float32)>
    """
    return apply(TensorScatterMin,
                 _tensor_scatter_args("TensorScatterMin", tensor, indices, updates))


# --- segment sums ------------------------------------------------------------------------
def _unsorted_segment_sum_shape(data, segment_ids, num_segments, op_name="UnsortedSegmentSum"):
    if num_segments < 0:
        raise errors.op_error(errors.InvalidArgumentError, op_name,
                              f"Input num_segments == {num_segments} must not be negative.",
                              "num_segments is the number of output rows.")
    if data.rank is None or segment_ids.rank is None:
        return TensorShape(None)
    n = segment_ids.rank
    if not TensorShape(data.dims[:n]).is_compatible_with(segment_ids) or data.rank < n:
        raise errors.op_error(
            errors.InvalidArgumentError, op_name,
            f"data.shape = {dims_text(data)} does not start with segment_ids.shape = "
            f"{dims_text(segment_ids)}", "There must be one segment id per leading entry of data.")
    return TensorShape([num_segments] + data.dims[n:])


def check_unsorted_segments(data, segment_ids, num_segments, op_name="UnsortedSegmentSum"):
    """TF's checks of an unsorted segment op; the flat ids."""
    _unsorted_segment_sum_shape(TensorShape(data.shape), TensorShape(segment_ids.shape),
                                num_segments, op_name)
    ids = segment_ids.reshape(-1)
    too_big = ids >= num_segments
    if too_big.any():
        i = int(np.argmax(too_big))
        raise errors.op_error(
            errors.InvalidArgumentError, op_name,
            f"segment_ids{position(i, segment_ids.shape)} = {ids[i]} is out of range "
            f"[0, {num_segments})", "Segment ids name output rows: 0..num_segments-1 "
            "(negative ids are dropped).")
    return ids


def _unsorted_segment_sum_forward(data, segment_ids, num_segments):
    ids = check_unsorted_segments(data, segment_ids, num_segments)
    rows = data.reshape((ids.size,) + data.shape[segment_ids.ndim:])
    out = np.zeros((num_segments,) + rows.shape[1:], dtype=data.dtype)
    keep = ids >= 0  # TF drops rows whose id is negative
    np.add.at(out, ids[keep], rows[keep])
    return out


UnsortedSegmentSum = Op("UnsortedSegmentSum", _unsorted_segment_sum_forward,
                        dtypes=dtypes.NUMERIC, typed=(0,), shape=_unsorted_segment_sum_shape)


def gather_dropping_negatives(dy, ids):
    """dy[ids] along axis 0, with zeros where an id is negative (those rows were dropped)."""
    from .array_ops import reshape
    from .gather_ops import gather
    from .math_ops import greater_equal, maximum, where
    from ..framework.gradient_ops import zeros_like

    rows = gather(dy, maximum(ids, 0))
    keep = reshape(greater_equal(ids, 0), ids.shape.as_list() + [1] * (dy.shape.rank - 1))
    return where(keep, rows, zeros_like(rows))


@UnsortedSegmentSum.def_grad
def _unsorted_segment_sum_grad(op, dy):
    return gather_dropping_negatives(dy, op.inputs[1]), None  # each row fed one output row


@tf_export("math.unsorted_segment_sum")
def unsorted_segment_sum(data, segment_ids, num_segments, name=None):
    """output[j] = sum of data[i...] over all i... with segment_ids[i...] == j (any order).

    >>> tf.math.unsorted_segment_sum([[1, 2], [3, 4], [5, 6]], [1, 0, 1], 2)
    <tf.Tensor: shape=(2, 2), dtype=int32, numpy=
    array([[3, 4],
           [6, 8]], dtype=int32)>
    """
    data = convert_to_tensor(data)
    segment_ids = check_index_dtype("UnsortedSegmentSum", convert_to_tensor(segment_ids))
    return apply(UnsortedSegmentSum, [data, segment_ids], {"num_segments": int(num_segments)})


def _segment_sum_shape(data, segment_ids, op_name="SegmentSum"):
    def fail(message):
        raise errors.op_error(errors.InvalidArgumentError, op_name, message,
                              "segment_sum needs one sorted segment id per row of data.")

    if data.rank == 0:
        fail("input must be at least rank 1")
    if segment_ids.rank is not None and segment_ids.rank != 1:
        fail("segment_ids should be a vector.")
    if data.rank is not None and segment_ids.rank is not None and not (
            data[0] is None or segment_ids[0] is None or data[0] == segment_ids[0]):
        fail("segment_ids should be the same size as dimension 0 of input.")
    return TensorShape(None) if data.rank is None else TensorShape([None] + data.dims[1:])


def _check_sorted(ids, op_name="SegmentSum"):
    """TF's kernel walks runs of equal ids: they must increase and start at >= 0."""
    if ids[-1] < 0:
        raise errors.op_error(errors.InvalidArgumentError, op_name,
                              "segment ids must be >= 0", "Segment ids name output rows.")
    first_change = np.flatnonzero(ids != ids[0])
    if ids[0] < 0 and (first_change.size == 0 or ids[first_change[0]] > ids[0]):
        raise errors.op_error(
            errors.InvalidArgumentError, op_name,
            f"Segment id {ids[0]} out of range [0, {max(ids[-1] + 1, 0)}), possibly because "
            "'segment_ids' input is not sorted.", "Segment ids name output rows, from 0 up.")
    if np.any(np.diff(ids) < 0):
        raise errors.op_error(errors.InvalidArgumentError, op_name,
                              "segment ids are not increasing",
                              "segment_sum needs sorted ids; use tf.math.unsorted_segment_sum "
                              "for ids in any order.")


def _segment_sum_forward(data, segment_ids):
    _segment_sum_shape(TensorShape(data.shape), TensorShape(segment_ids.shape))
    rows = int(segment_ids[-1]) + 1 if segment_ids.size else 0
    if segment_ids.size:
        _check_sorted(segment_ids)
    out = np.zeros((rows,) + data.shape[1:], dtype=data.dtype)
    np.add.at(out, segment_ids, data)
    return out


SegmentSum = Op("SegmentSum", _segment_sum_forward, dtypes=dtypes.NUMERIC, typed=(0,),
                shape=_segment_sum_shape)


@SegmentSum.def_grad
def _segment_sum_grad(op, dy):
    from .gather_ops import gather

    return gather(dy, op.inputs[1]), None


@tf_export("math.segment_sum")
def segment_sum(data, segment_ids, name=None):
    """output[j] = sum of data[i] with segment_ids[i] == j; ids sorted, one per row of data.

    >>> tf.math.segment_sum([1.0, 2.0, 3.0, 4.0], [0, 0, 1, 3])
    <tf.Tensor: shape=(4,), dtype=float32, numpy=array([3., 3., 0., 4.], dtype=float32)>
    """
    data = convert_to_tensor(data)
    segment_ids = check_index_dtype("SegmentSum", convert_to_tensor(segment_ids))
    return apply(SegmentSum, [data, segment_ids])
