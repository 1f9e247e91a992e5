"""Changing the shape of data: reshape, expand/squeeze, transpose, stack, concat, tile, ...

>>> import minitf as tf
>>> x = tf.reshape(tf.range(6), [2, 3])
>>> tf.transpose(x).shape, tf.stack([x, x]).shape, tf.concat([x, x], axis=1).shape
(TensorShape([3, 2]), TensorShape([2, 2, 3]), TensorShape([2, 6]))

Gradients of these ops only move numbers around, so each gradient is the
"inverse" move: reshape back, transpose by the inverse permutation, slice
the concatenation apart, sum the tiles.
"""
import numpy as np

from ..framework import dtypes, errors
from ..framework.op import Op, apply
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export
from .reduction_ops import reduce_sum
from .shape_rules import dims_text, normalize_axis


def _shape_list(shape):
    """A shape argument (list, TensorShape or int tensor) as a list of Python ints."""
    if hasattr(shape, "numpy"):
        shape = shape.numpy()
    if isinstance(shape, TensorShape):
        return shape.as_list()
    return [int(d) for d in np.reshape(shape, [-1])]


# --- reshape ----------------------------------------------------------------------
def _reshape_shape(input_shape, shape):
    new_shape, shape = list(shape), input_shape
    known = [d for d in new_shape if d != -1]
    if new_shape.count(-1) > 1:
        raise errors.op_error(errors.InvalidArgumentError, "Reshape",
                              f"Only one input size may be -1, not both {new_shape.index(-1)} "
                              f"and {len(new_shape) - 1 - new_shape[::-1].index(-1)}",
                              "-1 means 'whatever size makes the total work', so only one "
                              "axis can use it.")
    if not shape.is_fully_defined():
        return TensorShape([None if d == -1 else d for d in new_shape])
    size = shape.num_elements()
    product = int(np.prod(known)) if known else 1
    if -1 in new_shape:
        if product == 0 or size % product:
            raise errors.op_error(
                errors.InvalidArgumentError, "Reshape",
                f"Input to reshape is a tensor with {size} values, but the requested shape "
                f"requires a multiple of {product}",
                "The sizes you give must divide the number of values evenly.")
        return TensorShape([size // product if d == -1 else d for d in new_shape])
    if product != size:
        raise errors.op_error(
            errors.InvalidArgumentError, "Reshape",
            f"Input to reshape is a tensor with {size} values, but the requested shape has "
            f"{product}", "reshape keeps every value: the new shape must hold exactly as many.")
    return TensorShape(new_shape)


Reshape = Op("Reshape", lambda x, shape: np.reshape(x, shape), typed=(), shape=_reshape_shape)


@Reshape.def_grad
def _reshape_grad(op, dy):
    return reshape(dy, op.inputs[0].shape.as_list())


@tf_export("reshape", "reshape")
def reshape(tensor, shape, name=None):
    """Same values in row-major order, new shape; one entry of `shape` may be -1."""
    tensor = convert_to_tensor(tensor)
    return apply(Reshape, [tensor], {"shape": tuple(_shape_list(shape))})


# --- expand_dims / squeeze --------------------------------------------------------
@tf_export("expand_dims")
def expand_dims(input, axis, name=None):
    """Insert a size-1 axis at `axis` (in [-rank-1, rank])."""
    input = convert_to_tensor(input)
    rank = input.shape.rank
    axis = int(axis)
    if not -rank - 1 <= axis <= rank:
        raise errors.op_error(
            errors.InvalidArgumentError, "ExpandDims",
            f"Tried to expand dim index {axis} for tensor with {rank} dimensions.",
            f"The new axis goes in one of {rank + 1} places: {-rank - 1}..{rank}.")
    axis = axis % (rank + 1)
    dims = input.shape.as_list()
    return reshape(input, dims[:axis] + [1] + dims[axis:])


@tf_export("squeeze")
def squeeze(input, axis=None, name=None):
    """Remove size-1 axes (all of them, or those listed in `axis`)."""
    input = convert_to_tensor(input)
    dims = input.shape.as_list()
    if axis is None:
        return reshape(input, [d for d in dims if d != 1])
    axes = [axis] if np.ndim(axis) == 0 else list(axis)
    axes = {normalize_axis("Squeeze", a, len(dims)) for a in axes}
    for a in sorted(axes):
        if dims[a] != 1:
            raise errors.op_error(
                errors.InvalidArgumentError, "Squeeze",
                f"Can not squeeze dim[{a}], expected a dimension of 1, got {dims[a]}",
                "squeeze only removes axes of size 1.")
    return reshape(input, [d for i, d in enumerate(dims) if i not in axes])


# --- transpose ----------------------------------------------------------------------
def _transpose_shape(shape, perm):
    rank = shape.rank
    if rank is not None:
        if len(perm) != rank:
            raise errors.op_error(
                errors.InvalidArgumentError, "Transpose",
                f"transpose expects a vector of size {rank}. But input(1) is a vector of size "
                f"{len(perm)}", "perm lists every axis of the input exactly once.")
        for i in range(rank):
            if i not in perm:
                raise errors.op_error(
                    errors.InvalidArgumentError, "Transpose",
                    f"{i} is missing from {{{','.join(str(p) for p in perm)}}}.",
                    "perm must be a permutation of 0..rank-1.")
        return TensorShape([shape[p] for p in perm])
    return TensorShape(None)


Transpose = Op("Transpose", lambda x, perm: np.transpose(x, perm), typed=(),
               shape=_transpose_shape)


@Transpose.def_grad
def _transpose_grad(op, dy):
    return transpose(dy, list(np.argsort(op.attrs["perm"])))


@tf_export("transpose")
def transpose(a, perm=None, conjugate=False, name="transpose"):
    """Permute axes: output axis i is input axis perm[i] (default: reverse them)."""
    a = convert_to_tensor(a)
    rank = a.shape.rank
    perm = list(range(rank))[::-1] if perm is None else _shape_list(perm)
    perm = tuple(p % rank if -rank <= p < rank else p for p in perm)
    out = apply(Transpose, [a], {"perm": perm})
    if conjugate and a.dtype.is_complex:
        from .math_ops import conj

        out = conj(out)
    return out


# --- stack / unstack / concat ---------------------------------------------------------
def _pack_shape(*shapes, axis):
    first = shapes[0]
    for i, s in enumerate(shapes[1:], 1):
        if s != first:
            raise errors.op_error(
                errors.InvalidArgumentError, "Pack",
                f"Shapes of all inputs must match: values[0].shape = {dims_text(first)} != "
                f"values[{i}].shape = {dims_text(s)}", "stack joins equal-shaped tensors.")
    dims = first.as_list()
    return TensorShape(dims[:axis] + [len(shapes)] + dims[axis:])


Pack = Op("Pack", lambda *xs, axis: np.stack(xs, axis=axis), shape=_pack_shape)


@Pack.def_grad
def _pack_grad(op, dy):
    return unstack(dy, num=len(op.inputs), axis=op.attrs["axis"])


@tf_export("stack")
def stack(values, axis=0, name="stack"):
    """Join N tensors of the same shape along a new axis."""
    values = [convert_to_tensor(v) for v in values]
    if not values:
        raise ValueError("tf.stack needs at least one tensor to stack.")
    axis = normalize_axis("Pack", axis, values[0].shape.rank + 1)
    return apply(Pack, values, {"axis": axis})


def _unpack_forward(x, num, axis):
    return tuple(np.take(x, i, axis=axis) for i in range(num))


def _unpack_shape(shape, num, axis):
    dims = shape.as_list()
    return tuple(TensorShape(dims[:axis] + dims[axis + 1:]) for _ in range(num))


# num_outputs=None: the forward returns a tuple whose length the `num` attribute sets.
Unpack = Op("Unpack", _unpack_forward, typed=(), shape=_unpack_shape, num_outputs=None)


@Unpack.def_grad
def _unpack_grad(op, *dys):
    return stack(list(dys), axis=op.attrs["axis"])


@tf_export("unstack")
def unstack(value, num=None, axis=0, name="unstack"):
    """Split along `axis` into a list of tensors with that axis removed."""
    value = convert_to_tensor(value)
    axis = normalize_axis("Unpack", axis, value.shape.rank)
    size = value.shape[axis]
    if num is not None and num != size:
        raise ValueError(f"Cannot unstack {size} values into num={num} tensors along axis {axis}.")
    num = size if num is None else num
    if num == 0:
        return []
    return list(apply(Unpack, [value], {"num": num, "axis": axis}))


def _concat_shape(*shapes, axis):
    first = shapes[0].as_list()
    total = 0
    for i, s in enumerate(shapes):
        dims = s.as_list()
        if len(dims) != len(first):
            raise errors.op_error(
                errors.InvalidArgumentError, "ConcatV2",
                f"ConcatOp : Ranks of all input tensors should match: shape[0] = "
                f"{dims_text(first)} vs. shape[{i}] = {dims_text(dims)}",
                "concat joins along an existing axis; use tf.stack for a new one.")
        for d in range(len(first)):
            if d != axis and dims[d] != first[d]:
                raise errors.op_error(
                    errors.InvalidArgumentError, "ConcatV2",
                    f"ConcatOp : Dimension {d} in both shapes must be equal: shape[0] = "
                    f"{dims_text(first)} vs. shape[{i}] = {dims_text(dims)}",
                    "All axes except the concatenation axis must have equal sizes.")
        total += dims[axis]
    return TensorShape(first[:axis] + [total] + first[axis + 1:])


ConcatV2 = Op("ConcatV2", lambda *xs, axis: np.concatenate(xs, axis=axis), shape=_concat_shape)


@ConcatV2.def_grad
def _concat_grad(op, dy):
    from .slicing_ops import slice as slice_

    axis, grads, start = op.attrs["axis"], [], 0
    for x in op.inputs:
        begin = [0] * dy.shape.rank
        begin[axis] = start
        size = dy.shape.as_list()
        size[axis] = x.shape[axis]
        grads.append(slice_(dy, begin, size))
        start += x.shape[axis]
    return grads


@tf_export("concat")
def concat(values, axis, name="concat"):
    """Join tensors along an existing axis; other axes must match."""
    values = [convert_to_tensor(v) for v in values]
    if len(values) == 1:
        return values[0]
    rank = values[0].shape.rank
    if rank == 0:
        raise errors.op_error(errors.InvalidArgumentError, "ConcatV2",
                              "Can't concatenate scalars (use tf.stack instead)",
                              "Scalars have no axis to join along.")
    axis = normalize_axis("ConcatV2", axis, rank)
    return apply(ConcatV2, values, {"axis": axis})


# --- tile / broadcast_to --------------------------------------------------------------
def _tile_shape(shape, multiples):
    if len(multiples) != shape.rank:
        raise errors.op_error(
            errors.InvalidArgumentError, "Tile",
            f"Expected multiples argument to be a vector of length {shape.rank} but got "
            f"length {len(multiples)}", "Give one repeat count per axis.")
    return TensorShape([None if d is None else d * m for d, m in zip(shape, multiples)])


Tile = Op("Tile", lambda x, multiples: np.tile(x, multiples), typed=(), shape=_tile_shape)


@Tile.def_grad
def _tile_grad(op, dy):
    # Split each axis into (multiple, size) and sum over the multiples.
    dims = op.inputs[0].shape.as_list()
    split = []
    for m, d in zip(op.attrs["multiples"], dims):
        split += [m, d]
    summed = reduce_sum(reshape(dy, split), axis=list(range(0, 2 * len(dims), 2)))
    return reshape(summed, dims)


@tf_export("tile")
def tile(input, multiples, name=None):
    """Repeat the tensor `multiples[i]` times along axis i."""
    input = convert_to_tensor(input)
    return apply(Tile, [input], {"multiples": tuple(_shape_list(multiples))})


def _broadcast_to_shape(input_shape, shape):
    from .shape_rules import broadcast

    shape, target = input_shape, shape
    result = broadcast("BroadcastTo")(shape, TensorShape(target))
    if result.as_list() != list(target):
        raise errors.op_error(
            errors.InvalidArgumentError, "BroadcastTo",
            f"Incompatible shapes: {dims_text(shape)} vs. {dims_text(target)}",
            "broadcast_to can only stretch size-1 axes (and add leading ones).")
    return result


BroadcastTo = Op("BroadcastTo", lambda x, shape: np.array(np.broadcast_to(x, shape)), typed=(),
                 shape=_broadcast_to_shape)


@BroadcastTo.def_grad
def _broadcast_to_grad(op, dy):
    from .unbroadcast import unbroadcast

    return unbroadcast(dy, op.inputs[0].shape)


@tf_export("broadcast_to")
def broadcast_to(input, shape, name=None):
    """Stretch size-1 axes (and prepend axes) to reach `shape`, as broadcasting does."""
    input = convert_to_tensor(input)
    shape = tuple(_shape_list(shape))
    if tuple(input.shape.as_list()) == shape:
        return input
    return apply(BroadcastTo, [input], {"shape": shape})


# --- one_hot ---------------------------------------------------------------------------
def _one_hot_forward(indices, on_value, off_value, depth, axis):
    hot = np.expand_dims(indices, -1) == np.arange(depth)
    out = np.where(hot, on_value, off_value)
    if axis != -1 and axis != indices.ndim:
        out = np.moveaxis(out, -1, axis)
    return out


def _one_hot_shape(indices, on_value, off_value, depth, axis):
    dims = indices.as_list()
    axis = len(dims) if axis == -1 else axis
    return TensorShape(dims[:axis] + [depth] + dims[axis:])


OneHot = Op("OneHot", _one_hot_forward, dtypes=dtypes.INTEGER, typed=(0,),
            shape=_one_hot_shape)


@tf_export("one_hot")
def one_hot(indices, depth, on_value=None, off_value=None, axis=None, dtype=None, name=None):
    """A 1 (`on_value`) at each index along a new axis of size `depth`; -1 or out of
    range gives all `off_value`. dtype defaults to float32."""
    indices = convert_to_tensor(indices)
    dtype = dtypes.as_dtype(dtype) if dtype is not None else (
        convert_to_tensor(on_value).dtype if on_value is not None else dtypes.float32)
    on = convert_to_tensor(1 if on_value is None else on_value, dtype=dtype)
    off = convert_to_tensor(0 if off_value is None else off_value, dtype=dtype)
    axis = -1 if axis is None else int(axis)
    return apply(OneHot, [indices, on, off], {"depth": int(depth), "axis": axis})


# --- shape, rank, size ------------------------------------------------------------------
@tf_export("shape")
def shape(input, out_type=dtypes.int32, name=None):
    """The dynamic shape as an int32 tensor (use `x.shape` for the static TensorShape)."""
    input = convert_to_tensor(input)
    return convert_to_tensor(np.array(input.shape.as_list(), dtype=out_type.as_numpy_dtype))


@tf_export("rank")
def rank(input, name=None):
    """The number of axes, as an int32 scalar tensor."""
    return convert_to_tensor(np.int32(convert_to_tensor(input).shape.rank))


@tf_export("size")
def size(input, out_type=dtypes.int32, name=None):
    """The number of elements, as a scalar tensor."""
    n = convert_to_tensor(input).shape.num_elements()
    return convert_to_tensor(np.array(n, dtype=dtypes.as_dtype(out_type).as_numpy_dtype))

