"""Reading at positions: gather, gather_nd, boolean_mask and 1-argument where.

>>> import minitf as tf
>>> params = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
>>> tf.gather(params, [2, 0])                     # whole rows
<tf.Tensor: shape=(2, 2), dtype=float32, numpy=
array([[5., 6.],
       [1., 2.]], dtype=float32)>
>>> tf.gather_nd(params, [[2, 1], [0, 0]])         # single elements by coordinates
<tf.Tensor: shape=(2,), dtype=float32, numpy=array([6., 1.], dtype=float32)>

A gather's gradient must send each output gradient back to the row it was
read from, adding when a row was read twice: that is a scatter-add, so
`gather`'s gradient is `unsorted_segment_sum` and `gather_nd`'s is
`scatter_nd` (TensorFlow returns an `IndexedSlices` instead; minitf keeps
gradients dense).
"""
import numpy as np

from ..framework import dtypes, errors
from ..framework.op import Op, apply
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export
from .array_ops import concat, expand_dims, reshape, squeeze, transpose
from .creation_ops import range as range_
from .scatter_ops import (bad_rows, check_index_dtype, check_policy, position, scatter_nd,
                          unsorted_segment_sum)
from .shape_rules import dims_text


# --- gather ----------------------------------------------------------------------------------
def _gather_shape(params, indices, axis, batch_dims):
    if params.rank is None or indices.rank is None:
        return TensorShape(None)
    if batch_dims >= params.rank:
        raise errors.op_error(
            errors.InvalidArgumentError, "GatherV2",
            f"batch_dims ({batch_dims}) must be less than rank(params) ({params.rank}).",
            "The batch axes are shared by params and indices, and params needs one more "
            "axis to gather from.")
    if batch_dims > axis:
        raise errors.op_error(
            errors.InvalidArgumentError, "GatherV2",
            f"batch_dims ({batch_dims}) must be less than or equal to axis ({axis}).",
            "The gathered axis comes after the batch axes.")
    for i in range(batch_dims):
        if params[i] is not None and indices[i] is not None and params[i] != indices[i]:
            raise errors.op_error(
                errors.InvalidArgumentError, "GatherV2",
                f"params.shape[{i}]: {params[i]} should be equal to indices.shape[{i}]: "
                f"{indices[i]}", "Batch axes pair example b of params with example b of indices.")
    p, i = params.dims, indices.dims
    return TensorShape(p[:axis] + i[batch_dims:] + p[axis + 1:])


def _gather_forward(params, indices, axis, batch_dims):
    _gather_shape(TensorShape(params.shape), TensorShape(indices.shape), axis, batch_dims)
    size = params.shape[axis]
    bad = (indices < 0) | (indices >= size)
    if bad.any():
        i = int(np.argmax(bad.reshape(-1)))
        raise errors.op_error(
            errors.InvalidArgumentError, "GatherV2",
            f"indices{position(i, indices.shape)} = {indices.reshape(-1)[i]} is not in "
            f"[0, {size})",
            f"Axis {axis} of params has size {size}, so indices must be in 0..{size - 1} "
            "(TensorFlow does not wrap negative indices).")
    if batch_dims == 0:
        return np.take(params, indices, axis=axis)
    # Flatten the batch axes to one, then pick params[b, ..., indices[b, ...], ...].
    batch = params.shape[:batch_dims]
    n = int(np.prod(batch))
    p = np.moveaxis(params.reshape((n,) + params.shape[batch_dims:]), axis - batch_dims + 1, 1)
    idx = indices.reshape((n,) + indices.shape[batch_dims:])
    b = np.arange(n).reshape((n,) + (1,) * (idx.ndim - 1))
    picked = p[b, idx]  # [n] + index dims + outer dims + inner dims
    index_dims, outer = idx.ndim - 1, axis - batch_dims
    picked = np.moveaxis(picked, list(range(1, 1 + index_dims)),
                         list(range(1 + outer, 1 + outer + index_dims)))
    return picked.reshape(batch + picked.shape[1:])


GatherV2 = Op("GatherV2", _gather_forward, typed=(0,), shape=_gather_shape)


@GatherV2.def_grad
def _gather_grad(op, dy):
    # dparams[b, o, indices[b, i], n] += dy[b, o, i, n]: move the index axes of dy
    # next to the batch axes, then add rows into place with a segment sum.
    params, indices = op.inputs
    axis, b = op.attrs["axis"], op.attrs["batch_dims"]
    if not (params.shape.is_fully_defined() and indices.shape.is_fully_defined()):
        from .shape_ops import shape_of  # sizes known only when the graph runs

        shape = convert_to_tensor(shape_of(params), dtype=dtypes.int32)
        return apply(GatherGrad, [dy, indices, shape],
                     {"axis": axis, "batch_dims": b, "_shape": params.shape}), None
    p = params.shape.as_list()
    n_index = indices.shape.rank - b
    perm = (list(range(b)) + list(range(axis, axis + n_index)) + list(range(b, axis))
            + list(range(axis + n_index, dy.shape.rank)))
    values = transpose(dy, perm) if perm != sorted(perm) else dy
    batch, count = int(np.prod(p[:b])), int(np.prod(indices.shape.as_list()[b:]))
    values = reshape(values, [batch * count] + p[b:axis] + p[axis + 1:])
    ids = reshape(indices, [batch, count])
    if b:  # batch row r owns segments r*N .. r*N+N-1
        ids = ids + reshape(range_(batch, dtype=indices.dtype) * p[axis], [batch, 1])
    summed = unsorted_segment_sum(values, reshape(ids, [-1]), batch * p[axis])
    summed = reshape(summed, p[:b] + [p[axis]] + p[b:axis] + p[axis + 1:])
    back = list(range(b)) + list(range(b + 1, axis + 1)) + [b] + list(range(axis + 1, len(p)))
    return (transpose(summed, back) if back != sorted(back) else summed), None


def _gather_grad_forward(dy, indices, shape, axis, batch_dims, _shape):
    """dparams: zeros of params' run-time shape, dy's rows added in at `indices` - the
    forward's index arithmetic run backwards (np.add.at sums repeated indices)."""
    shape = tuple(int(d) for d in shape)
    grad = np.zeros(shape, dtype=dy.dtype)
    n = int(np.prod(shape[:batch_dims]))
    p = np.moveaxis(grad.reshape((n,) + shape[batch_dims:]), axis - batch_dims + 1, 1)
    idx = indices.reshape((n,) + indices.shape[batch_dims:])
    rows = np.arange(n).reshape((n,) + (1,) * (idx.ndim - 1))
    index_dims, outer = idx.ndim - 1, axis - batch_dims
    picked = dy.reshape((n,) + dy.shape[batch_dims:])
    picked = np.moveaxis(picked, list(range(1 + outer, 1 + outer + index_dims)),
                         list(range(1, 1 + index_dims)))
    np.add.at(p, (rows, idx), picked)
    return grad


# The gradient of GatherV2 when shapes are known only at run time (inside tf.function
# with None sizes); TF returns IndexedSlices and densifies them with the same scatter.
GatherGrad = Op("GatherGrad", _gather_grad_forward, typed=(0,),
                shape=lambda dy, indices, shape, axis, batch_dims, _shape: _shape)


@GatherGrad.def_grad
def _gather_grad_grad(op, ddy):
    return gather(ddy, op.inputs[1], axis=op.attrs["axis"],
                  batch_dims=op.attrs["batch_dims"]), None, None


@tf_export("gather")
def gather(params, indices, validate_indices=None, axis=None, batch_dims=0, name=None):
    """Slices of `params` along `axis` at `indices`:
    output[p..., i..., n...] = params[p..., indices[i...], n...].

    With batch_dims=b the first b axes of params and indices are paired up
    (example k of indices reads from example k of params).

    >>> tf.gather([[1, 2, 3], [4, 5, 6]], [[2, 0], [1, 1]], axis=1, batch_dims=1)
    <tf.Tensor: shape=(2, 2), dtype=int32, numpy=
    array([[3, 1],
           [5, 5]], dtype=int32)>
    """
    params = convert_to_tensor(params)
    indices = check_index_dtype("GatherV2", convert_to_tensor(indices))
    batch_dims = int(batch_dims)
    axis = batch_dims if axis is None else int(axis)  # TF: axis defaults to batch_dims, as given
    if axis == 0:
        batch_dims = 0  # TF's Python wrapper drops batch_dims when axis is 0
    rank, rank_i = params.shape.rank, indices.shape.rank
    if not -rank <= axis < rank:
        raise errors.op_error(
            errors.InvalidArgumentError, "GatherV2",
            f"Shape must be at least rank {axis + 1 if axis >= 0 else -axis} but is rank {rank}",
            f"axis must name an axis of params: {-rank}..{rank - 1}.")
    if not -rank_i <= batch_dims <= rank_i:
        raise errors.op_error(errors.InvalidArgumentError, "GatherV2",
                              f"Expected batch_dims in the range [{-rank_i}, {rank_i}], but got "
                              f"{batch_dims}", "batch_dims counts leading axes of indices.")
    batch_dims += rank_i if batch_dims < 0 else 0
    return apply(GatherV2, [params, indices], {"axis": axis % rank, "batch_dims": batch_dims})


# --- gather_nd ---------------------------------------------------------------------------------
def _gather_nd_shape(params, indices, bad_indices_policy=""):
    if indices.rank == 0:
        raise errors.op_error(errors.InvalidArgumentError, "GatherNd",
                              "indices must be at least a vector",
                              "The last axis of indices holds coordinates.")
    if params.rank is None or indices.rank is None or indices[-1] is None:
        return TensorShape(None)
    k = indices[-1]
    if k > params.rank:
        raise errors.op_error(
            errors.InvalidArgumentError, "GatherNd",
            f"index innermost dimension length must be <= params rank; saw: {k} vs. "
            f"{params.rank}", "Each coordinate row can name at most one index per axis.")
    return TensorShape(indices.dims[:-1] + params.dims[k:])


def _gather_nd_forward(params, indices, bad_indices_policy=""):
    _gather_nd_shape(TensorShape(params.shape), TensorShape(indices.shape))
    outer, k = indices.shape[:-1], indices.shape[-1]
    flat = indices.reshape(int(np.prod(outer)), k)
    bad = bad_rows(flat, params.shape[:k])
    if bad.any() and bad_indices_policy != "IGNORE":
        i = int(np.flatnonzero(bad)[-1])  # TF's kernel reports the last bad row
        coords = ", ".join(str(c) for c in flat[i])
        raise errors.op_error(
            errors.InvalidArgumentError, "GatherNd",
            f"indices{position(i, outer)} = [{coords}] does not index into param shape "
            f"{dims_text(params.shape)}, node name: GatherNd",
            "Each coordinate must lie in [0, size) of its axis.")
    rows = params[tuple(np.where(bad, 0, flat[:, j]) for j in range(k))] if k else \
        np.broadcast_to(params, (flat.shape[0],) + params.shape)
    rows = np.array(rows)
    rows[bad] = 0  # IGNORE policy: out-of-range rows read as zeros
    return rows.reshape(outer + params.shape[k:])


GatherNd = Op("GatherNd", _gather_nd_forward, typed=(0,), shape=_gather_nd_shape)


@GatherNd.def_grad
def _gather_nd_grad(op, dy):
    params, indices = op.inputs  # add each gradient back where its value was read
    if indices.shape.rank == 1:  # one coordinate row: give scatter_nd its row axis
        indices, dy = expand_dims(indices, 0), expand_dims(dy, 0)
    return scatter_nd(indices, dy, params.shape.as_list(),
                      bad_indices_policy=op.attrs["bad_indices_policy"]), None


def _batch_coordinates(params, indices, batch_dims):
    """indices [B..., I..., K] -> [B..., I..., b + K], with each batch position prepended."""
    b_shape = indices.shape.as_list()[:batch_dims]
    if params.shape.as_list()[:batch_dims] != b_shape:
        raise errors.op_error(
            errors.InvalidArgumentError, "GatherNd",
            f"batch dimensions of params {dims_text(params.shape[:batch_dims])} and indices "
            f"{dims_text(b_shape)} must be equal",
            "With batch_dims=b, the first b axes of params and indices must match.")
    inner = indices.shape.as_list()[batch_dims:-1]
    grid = np.stack(np.meshgrid(*[np.arange(d) for d in b_shape], indexing="ij"), axis=-1)
    grid = grid.reshape(b_shape + [1] * len(inner) + [batch_dims])
    grid = np.broadcast_to(grid, b_shape + inner + [batch_dims])
    coords = convert_to_tensor(grid.astype(indices.dtype.as_numpy_dtype))
    return concat([coords, indices], axis=-1)


@tf_export("gather_nd")
def gather_nd(params, indices, batch_dims=0, name=None, bad_indices_policy=""):
    """output[i...] = params[indices[i..., 0], ..., indices[i..., K-1]] (a slice if K < rank).

    >>> tf.gather_nd([[1, 2], [3, 4]], [[1], [0]])
    <tf.Tensor: shape=(2, 2), dtype=int32, numpy=
    array([[3, 4],
           [1, 2]], dtype=int32)>
    """
    params = convert_to_tensor(params)
    indices = check_index_dtype("GatherNd", convert_to_tensor(indices))
    check_policy("GatherNd", bad_indices_policy)
    batch_dims = int(batch_dims)
    if batch_dims:
        if batch_dims >= indices.shape.rank:
            raise ValueError(f"Argument `batch_dims` = {batch_dims} must be less than "
                             f"rank(`indices`) = {indices.shape.rank}")
        if batch_dims >= params.shape.rank:
            raise ValueError(f"Argument `batch_dims` = {batch_dims} must be less than "
                             f"rank(`params`) = {params.shape.rank}")
        indices = _batch_coordinates(params, indices, batch_dims)
    return apply(GatherNd, [params, indices], {"bad_indices_policy": bad_indices_policy})


# --- where (coordinates of True) and boolean_mask ------------------------------------------
def _where_shape(condition):
    if condition.rank == 0:
        raise errors.op_error(errors.InvalidArgumentError, "Where",
                              "WhereOp : Unhandled input dimensions: 0",
                              "A scalar has no coordinates; compare a tensor with an axis.")
    return TensorShape([None, condition.rank])  # how many are True is known only at run time


def _where_forward(condition):
    _where_shape(TensorShape(condition.shape))
    return np.argwhere(condition).astype(np.int64)


Where = Op("Where", _where_forward, dtypes=dtypes.NUMERIC | {dtypes.bool},
           shape=_where_shape, dtype=dtypes.int64)  # coordinates are not differentiable


@tf_export("where")
def where(condition, x=None, y=None, name=None):
    """With x and y: elements of x where condition is True, else of y (broadcasting).
    Alone: the coordinates of the True (non-zero) elements, an int64 [count, rank] tensor.

    >>> tf.where([[True, False], [False, True]])
    <tf.Tensor: shape=(2, 2), dtype=int64, numpy=
    array([[0, 0],
           [1, 1]])>
    >>> tf.where([True, False], [1, 2], [10, 20])
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([ 1, 20], dtype=int32)>
    """
    if x is None and y is None:
        return apply(Where, [convert_to_tensor(condition)])
    if x is None or y is None:
        raise ValueError("x and y must both be non-None or both be None.")
    from . import math_ops

    return math_ops.where(condition, x, y)


@tf_export("boolean_mask")
def boolean_mask(tensor, mask, axis=None, name="boolean_mask"):
    """The entries of `tensor` where `mask` is True; mask covers axes axis..axis+k-1,
    which are flattened into one.

    Built as TF builds it: reshape, `tf.where(mask)` for the positions, `tf.gather`
    (whose gradient is why boolean_mask is differentiable).

    >>> tf.boolean_mask([[1, 2], [3, 4], [5, 6]], [True, False, True])
    <tf.Tensor: shape=(2, 2), dtype=int32, numpy=
    array([[1, 2],
           [5, 6]], dtype=int32)>
    """
    tensor, mask = convert_to_tensor(tensor), convert_to_tensor(mask)
    k = mask.shape.rank
    if k == 0:
        raise ValueError("mask cannot be scalar.")
    axis = 0 if axis is None else int(axis)
    dims = tensor.shape.as_list()
    TensorShape(dims[axis:axis + k]).assert_is_compatible_with(mask.shape)
    flat = reshape(tensor, dims[:axis] + [int(np.prod(dims[axis:axis + k]))] + dims[axis + k:])
    positions = squeeze(where(reshape(mask, [-1])), axis=[1])
    return gather(flat, positions, axis=axis)
