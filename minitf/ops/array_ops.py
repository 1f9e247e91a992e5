"""Changing the shape of data: reshape, expand/squeeze, transpose, stack, concat, tile, ...

>>> import minitf as tf
>>> x = tf.reshape(tf.range(6), [2, 3])
>>> tf.transpose(x).shape, tf.stack([x, x]).shape, tf.concat([x, x], axis=1).shape
(TensorShape([3, 2]), TensorShape([2, 2, 3]), TensorShape([2, 6]))

Gradients of these ops only move numbers around, so each gradient is the
"inverse" move: reshape back, transpose by the inverse permutation, slice
the concatenation apart, sum the tiles. (split, pad, reverse live in
manipulation_ops.py; gather and scatter in gather_ops.py and scatter_ops.py.)
"""
import builtins

import numpy as np

from ..framework import dtypes, errors
from ..framework.context import executing_eagerly
from ..framework.op import Op, apply
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export
from . import shape_ops
from .shape_ops import rank, shape, size  # noqa: F401 - tf.shape & co. live in shape_ops.py
from .reduction_ops import reduce_sum
from .shape_rules import dims_text

_TYPE_NAMES = {"float32": "float", "float64": "double", "float16": "half"}


def attr_dtype_error(op_name, attr, dtype, allowed="int32, int64",
                     hint="This argument lists sizes or axes, so it must hold integers."):
    """TF's error for an integer-only argument (a shape, perm, axis list) of the wrong dtype."""
    return errors.op_error(
        errors.InvalidArgumentError, op_name,
        f"Value for attr '{attr}' of {_TYPE_NAMES.get(dtype.name, dtype.name)} is not in the "
        f"list of allowed values: {allowed}", hint)


def _shape_list(shape):
    """A shape argument (list, TensorShape or int tensor) as a list of Python ints."""
    if type(shape) in (list, tuple) and all(type(d) is int for d in shape):
        return list(shape)  # the common case, kept fast
    if hasattr(shape, "numpy"):
        shape = shape.numpy()
    if isinstance(shape, TensorShape):
        return shape.as_list()
    return [int(d) for d in np.reshape(shape, [-1])]


def _int_list(op_name, attr, value):
    """Like `_shape_list`, but a float list raises TF's attr error instead of truncating."""
    if isinstance(value, TensorShape):
        return value.as_list()
    if isinstance(value, (list, tuple)) and all(type(d) is int for d in value):
        return list(value)  # the common case, kept fast
    array = np.asarray(convert_to_tensor(value))
    if array.size and array.dtype.kind not in "iu":
        raise attr_dtype_error(op_name, attr, dtypes.from_numpy(array.dtype))
    return [int(d) for d in np.reshape(array, [-1])]


def _is_tensor(value):
    return isinstance(value, Tensor) or hasattr(value, "_is_variable")


def _matching(values):
    """Convert a list the way TF's eager kernels do: Python values take the first tensor's dtype."""
    first = next((v for v in values if _is_tensor(v)), None)
    hint = convert_to_tensor(first).dtype if first is not None else None
    return [convert_to_tensor(v, dtype_hint=hint) for v in values]


# --- reshape ----------------------------------------------------------------------
def _reshape_shape(input_shape, shape):
    new_shape, shape = list(shape), input_shape
    unknown = None
    for i, d in enumerate(new_shape):  # checked in order, as TF's kernel does
        if d == -1 and unknown is not None:
            raise errors.op_error(errors.InvalidArgumentError, "Reshape",
                                  f"Only one input size may be -1, not both {unknown} and {i}",
                                  "-1 means 'whatever size makes the total work', so only one "
                                  "axis can use it.")
        if d == -1:
            unknown = i
        elif d < 0:
            raise errors.op_error(errors.InvalidArgumentError, "Reshape",
                                  f"Size {i} must be non-negative, not {d}",
                                  "Sizes count values; only -1 has a special meaning.")
    known = [d for d in new_shape if d != -1]
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


# NumPy's reshape also understands -1; when it refuses, `apply` asks the shape rule for TF's words.
Reshape = Op("Reshape", lambda x, shape: np.reshape(x, shape), typed=(), shape=_reshape_shape)


@Reshape.def_grad
def _reshape_grad(op, dy):
    return reshape(dy, shape_ops.shape_of(op.inputs[0]))  # a run-time shape if not all known


@tf_export("reshape")
def reshape(tensor, shape, name=None):
    """Same values in row-major order, new shape; one entry of `shape` may be -1.

    >>> tf.reshape(tf.range(6), [3, -1]).shape
    TensorShape([3, 2])
    """
    tensor = convert_to_tensor(tensor)
    if type(shape) in (list, tuple) and all(type(d) is int for d in shape):
        shape = tuple(shape)  # the common case, kept fast
    else:
        _check_sizes_vector(tensor, shape)
        shape, dynamic = shape_ops.shape_argument(shape, "Reshape")
        if dynamic is not None:  # known only when the graph runs
            return shape_ops.reshape_dynamic(tensor, dynamic)
    if shape and min(shape) < -1:  # NumPy would read any negative size as -1
        _reshape_shape(tensor.shape, shape)
    return apply(Reshape, [tensor], {"shape": shape})


def _check_sizes_vector(tensor, shape):
    """TF's Reshape takes its sizes as a vector (or one number), never as a nested list."""
    if _is_tensor(shape):
        dims = shape.shape.as_list() if shape.shape.rank is not None else None
    elif isinstance(shape, (list, tuple, np.ndarray)) and not any(_is_tensor(d) for d in shape):
        dims = list(np.shape(shape))
    else:
        return
    if dims is None or len(dims) <= 1:
        return
    hint = "Give the new shape as one flat list of sizes, e.g. [2, 3]."
    if executing_eagerly():
        raise errors.op_error(errors.InvalidArgumentError, "Reshape",
                              f"sizes input must be 1-D, not {dims_text(dims)}", hint)
    raise ValueError(f"Shape must be rank 1 but is rank {len(dims)} for '{{{{node Reshape}}}} = "
                     f"Reshape[T={_dt_name(tensor.dtype)}, Tshape=DT_INT32](Reshape/tensor, "
                     f"Reshape/shape)' with input shapes: {dims_text(tensor.shape)}, "
                     f"{dims_text(dims)}. {hint}")


def _dt_name(dtype):
    """TF's enum name of a dtype in NodeDef text: DT_FLOAT, DT_DOUBLE, DT_INT32."""
    return "DT_" + _TYPE_NAMES.get(dtype.name, dtype.name).upper()


# --- expand_dims / squeeze --------------------------------------------------------
@tf_export("expand_dims")
def expand_dims(input, axis, name=None):
    """Insert a size-1 axis at `axis` (in [-rank-1, rank]).

    >>> tf.expand_dims(tf.constant([1, 2]), -1).shape
    TensorShape([2, 1])
    """
    input = convert_to_tensor(input)
    rank = input.shape.rank
    axes = np.reshape(np.asarray(axis), [-1])
    if axes.size != 1:
        raise errors.op_error(errors.InvalidArgumentError, "ExpandDims",
                              "'dim' must be a tensor with a single value",
                              "expand_dims adds one axis; call it twice for two.")
    axis = int(axes[0])
    if not -rank - 1 <= axis <= rank:
        raise errors.op_error(
            errors.InvalidArgumentError, "ExpandDims",
            f"Tried to expand dim index {axis} for tensor with {rank} dimensions.",
            f"The new axis goes in one of {rank + 1} places: {-rank - 1}..{rank}.")
    axis = axis % (rank + 1)
    dims = _dims_for_reshape(input)
    return reshape(input, dims[:axis] + [1] + dims[axis:])


def _dims_for_reshape(x):
    """x's dims for a reshape that keeps them: ints, -1 for a single unknown one, else
    scalar tensors read from tf.shape(x) at run time."""
    dims = x.shape.as_list()
    unknown = [i for i, d in enumerate(dims) if d is None]
    if len(unknown) == 1:
        dims[unknown[0]] = -1
    elif unknown:
        dynamic = shape_ops.shape_of(x)
        dims = [dynamic[i] if d is None else d for i, d in enumerate(dims)]
    return dims


@tf_export("squeeze")
def squeeze(input, axis=None, name=None):
    """Remove size-1 axes (all of them, or those listed in `axis`).

    >>> tf.squeeze(tf.zeros([1, 2, 1]), axis=[0]).shape
    TensorShape([2, 1])
    """
    input = convert_to_tensor(input)
    dims = input.shape.as_list()
    if axis is None:
        if None in dims:
            raise ValueError(f"Cannot squeeze all size-1 axes of a tensor of shape "
                             f"{input.shape} inside tf.function: which axes have size 1 is "
                             "only known when the graph runs. Pass `axis`.")
        return reshape(input, [d for d in dims if d != 1])
    axes = [int(a) for a in np.reshape(np.asarray(axis), [-1])]
    for a in axes:
        if not -len(dims) <= a < len(dims):
            raise errors.op_error(
                errors.InvalidArgumentError, "Squeeze",
                f"Tried to squeeze dim index {a} for tensor with {len(dims)} dimensions.",
                f"A rank-{len(dims)} tensor has axes {-len(dims)}..{len(dims) - 1}.")
    axes = {a % len(dims) for a in axes}
    for a in sorted(axes):
        if dims[a] is not None and dims[a] != 1:
            raise errors.op_error(
                errors.InvalidArgumentError, "Squeeze",
                f"Can not squeeze dim[{a}], expected a dimension of 1, got {dims[a]}",
                "squeeze only removes axes of size 1.")
    kept = [d for i, d in enumerate(_dims_for_reshape(input)) if i not in axes]
    return reshape(input, [d for d in kept])


# --- transpose ----------------------------------------------------------------------
def _check_perm(perm, rank):
    """TF's Transpose checks, on the permutation as the user wrote it."""
    if len(perm) != rank:
        raise errors.op_error(
            errors.InvalidArgumentError, "Transpose",
            f"transpose expects a vector of size {rank}. But input(1) is a vector of size "
            f"{len(perm)}", "perm lists every axis of the input exactly once.")
    for p in perm:
        d = p + rank if p < 0 else p
        if not 0 <= d < rank:
            raise errors.op_error(errors.InvalidArgumentError, "Transpose",
                                  f"{d} is out of range [0 .. {rank})",
                                  f"perm entries name axes 0..{rank - 1}.")
    perm = [p % rank for p in perm]
    for i in range(rank):
        if i not in perm:
            raise errors.op_error(
                errors.InvalidArgumentError, "Transpose",
                f"{i} is missing from {{{','.join(str(p) for p in perm)}}}.",
                "perm must be a permutation of 0..rank-1.")


def _transpose_shape(shape, perm):
    if shape.rank is None:
        return TensorShape(None)
    _check_perm(perm, shape.rank)
    return TensorShape([shape[p] for p in perm])


Transpose = Op("Transpose", lambda x, perm: np.transpose(x, perm), typed=(),
               shape=_transpose_shape)


@Transpose.def_grad
def _transpose_grad(op, dy):
    return transpose(dy, [int(i) for i in np.argsort(op.attrs["perm"])])


@tf_export("transpose")
def transpose(a, perm=None, conjugate=False, name="transpose"):
    """Permute axes: output axis i is input axis perm[i] (default: reverse them).

    >>> tf.transpose(tf.zeros([2, 3, 4]), perm=[1, 2, 0]).shape
    TensorShape([3, 4, 2])
    """
    a = convert_to_tensor(a)
    rank = a.shape.rank
    perm = list(range(rank))[::-1] if perm is None else _int_list("Transpose", "Tperm", perm)
    _check_perm(perm, rank)
    out = apply(Transpose, [a], {"perm": tuple(p % rank for p in perm)})
    if conjugate and a.dtype.is_complex:
        from .math_ops import conj

        out = conj(out)
    return out


# --- stack / unstack ------------------------------------------------------------------
def _pack_shape(*shapes, axis):
    first = shapes[0]
    for i, s in enumerate(shapes[1:], 1):
        if not s.is_compatible_with(first):
            raise errors.op_error(
                errors.InvalidArgumentError, "Pack",
                f"Shapes of all inputs must match: values[0].shape = {dims_text(first)} != "
                f"values[{i}].shape = {dims_text(s)}", "stack joins equal-shaped tensors.")
    if first.rank is None:
        return TensorShape(None)
    dims = first.as_list()
    return TensorShape(dims[:axis] + [len(shapes)] + dims[axis:])


Pack = Op("Pack", lambda *xs, axis: np.stack(xs, axis=axis), shape=_pack_shape)


@Pack.def_grad
def _pack_grad(op, dy):
    return unstack(dy, num=len(op.inputs), axis=op.attrs["axis"])


@tf_export("stack")
def stack(values, axis=0, name="stack"):
    """Join N tensors of the same shape along a new axis.

    >>> tf.stack([tf.constant([1, 2]), tf.constant([3, 4])], axis=1)
    <tf.Tensor: shape=(2, 2), dtype=int32, numpy=
    array([[1, 3],
           [2, 4]], dtype=int32)>
    """
    values = list(values)
    if axis == 0 and not any(_is_tensor(v) for v in values):
        return convert_to_tensor(values)  # TF's fast path: a nested list is already stacked
    values = _matching(values)
    rank = values[0].shape.rank + 1
    if not -rank <= axis < rank:
        raise ValueError(f"Argument `axis` = {axis} not in range [{-rank}, {rank})")
    return apply(Pack, values, {"axis": axis % rank})


def _unpack_shape(shape, num, axis):
    dims = shape.as_list()
    if dims[axis] is not None and dims[axis] != num:
        raise errors.op_error(
            errors.InvalidArgumentError, "Unpack",
            f"Input shape axis {axis} must equal {num}, got shape {dims_text(dims)}",
            f"num must be the length of axis {axis}.")
    return tuple(TensorShape(dims[:axis] + dims[axis + 1:]) for _ in range(num))


def _unpack_forward(x, num, axis):
    _unpack_shape(TensorShape(x.shape), num, axis)
    return tuple(np.take(x, i, axis=axis) for i in range(num))


# num_outputs=None: the forward returns a tuple whose length the `num` attribute sets.
Unpack = Op("Unpack", _unpack_forward, typed=(), shape=_unpack_shape, num_outputs=None)


@Unpack.def_grad
def _unpack_grad(op, *dys):
    return stack(list(dys), axis=op.attrs["axis"])


@tf_export("unstack")
def unstack(value, num=None, axis=0, name="unstack"):
    """Split along `axis` into a list of tensors with that axis removed.

    >>> [t.numpy() for t in tf.unstack(tf.constant([[1, 2], [3, 4]]), axis=1)]
    [array([1, 3], dtype=int32), array([2, 4], dtype=int32)]
    """
    value = convert_to_tensor(value)
    rank = value.shape.rank
    if not -rank <= axis < rank:
        if num is None:
            raise ValueError(f"Argument `axis` = {axis} not in range [{-rank}, {rank})")
        raise errors.op_error(errors.InvalidArgumentError, "Unpack",
                              f"axis = {axis} not in [{-rank}, {rank})",
                              f"A rank-{rank} tensor has axes {-rank}..{rank - 1}.")
    axis %= rank
    num = value.shape[axis] if num is None else int(num)
    if num is None:
        raise ValueError(f"Cannot infer argument `num` from shape {value.shape}: axis {axis} "
                         "is only known when the graph runs. Pass `num`, or use a "
                         "tf.TensorArray's unstack.")
    if num == 0:
        return []
    return list(apply(Unpack, [value], {"num": num, "axis": axis}))


# --- concat --------------------------------------------------------------------------
def _concat_error(message, hint):
    return errors.op_error(errors.InvalidArgumentError, "ConcatV2", f"ConcatOp : {message}", hint)


def _concat_shape(*shapes, axis):
    if any(s.rank is None for s in shapes):
        return TensorShape(None)
    first = shapes[0].as_list()
    total = 0
    for i, s in enumerate(shapes):
        dims = s.as_list()
        if len(dims) != len(first):
            raise _concat_error(f"Ranks of all input tensors should match: shape[0] = "
                                f"{dims_text(first)} vs. shape[{i}] = {dims_text(dims)}",
                                "concat joins along an existing axis; use tf.stack for a new one.")
        for d in range(len(first)):
            if d != axis and None not in (dims[d], first[d]) and dims[d] != first[d]:
                raise _concat_error(f"Dimension {d} in both shapes must be equal: shape[0] = "
                                    f"{dims_text(first)} vs. shape[{i}] = {dims_text(dims)}",
                                    "All axes except the concatenation axis must have equal sizes.")
        total = None if total is None or dims[axis] is None else total + dims[axis]
    return TensorShape(first[:axis] + [total] + first[axis + 1:])


ConcatV2 = Op("ConcatV2", lambda *xs, axis: np.concatenate(xs, axis=axis), shape=_concat_shape)


@ConcatV2.def_grad
def _concat_grad(op, dy):
    from .slicing_ops import slice as slice_

    axis, grads, start = op.attrs["axis"], [], 0
    known = all(x.shape.rank is not None and x.shape[axis] is not None for x in op.inputs)
    for x in op.inputs:  # each input gets back the block of dy it filled
        if known and dy.shape.rank is not None:
            begin = [0] * dy.shape.rank
            begin[axis] = start
            size = [-1] * dy.shape.rank
            size[axis] = x.shape[axis]
            grads.append(slice_(dy, begin, size))
            start += x.shape[axis]
        else:  # sizes known only when the graph runs: slice with tensor bounds
            width = shape_ops.dim_of(x, axis)
            key = [builtins.slice(None)] * axis + [builtins.slice(start, start + width)]
            grads.append(dy[tuple(key)])
            start = start + width
    return grads


@tf_export("concat")
def concat(values, axis, name="concat"):
    """Join tensors along an existing axis; other axes must match.

    >>> tf.concat([tf.zeros([2, 3]), tf.ones([2, 1])], axis=1).shape
    TensorShape([2, 4])
    """
    if not isinstance(values, (list, tuple)):
        values = [values]  # one tensor, not a list: TF joins it with nothing
    values = _matching(list(values))
    if not values:
        raise _concat_error("Expected at least one tensor to concatenate",
                            "tf.concat needs a non-empty list of tensors.")
    if len(values) == 1:  # TF still checks that axis is one int32 number
        convert_to_tensor(axis, dtype=dtypes.int32).shape.assert_has_rank(0)
        return values[0]
    rank = values[0].shape.rank
    if rank == 0:
        raise _concat_error("Can't concatenate scalars (use tf.stack instead)",
                            "Scalars have no axis to join along.")
    axis = int(axis)
    if not -rank <= axis < rank:
        raise _concat_error(f"Expected concatenating dimensions in the range [{-rank}, {rank}), "
                            f"but got {axis}", f"A rank-{rank} tensor has axes "
                            f"{-rank}..{rank - 1}.")
    return apply(ConcatV2, values, {"axis": axis % rank})


# --- tile / broadcast_to --------------------------------------------------------------
def _tile_shape(shape, multiples):
    if shape.rank is None:
        return TensorShape(None)
    if len(multiples) != shape.rank:
        raise errors.op_error(
            errors.InvalidArgumentError, "Tile",
            f"Expected multiples argument to be a vector of length {shape.rank} but got "
            f"length {len(multiples)}", "Give one repeat count per axis.")
    for i, m in enumerate(multiples):
        if m < 0:
            raise errors.op_error(errors.InvalidArgumentError, "Tile",
                                  f"Expected multiples[{i}] >= 0, but got {m}",
                                  "A repeat count cannot be negative.")
    return TensorShape([None if d is None else d * m for d, m in zip(shape, multiples)])


Tile = Op("Tile", lambda x, multiples: np.tile(x, multiples), typed=(), shape=_tile_shape)


@Tile.def_grad
def _tile_grad(op, dy):
    # Split each axis into (multiple, size) and sum over the multiples.
    return shape_ops.tile_grad(op.inputs[0], op.attrs["multiples"], dy)


@tf_export("tile")
def tile(input, multiples, name=None):
    """Repeat the tensor `multiples[i]` times along axis i.

    >>> tf.tile(tf.constant([[1, 2]]), [2, 2])
    <tf.Tensor: shape=(2, 4), dtype=int32, numpy=
    array([[1, 2, 1, 2],
           [1, 2, 1, 2]], dtype=int32)>
    """
    input = convert_to_tensor(input)
    if isinstance(multiples, Tensor) or isinstance(multiples, (list, tuple)) and any(
            isinstance(m, Tensor) for m in multiples):
        static, dynamic = shape_ops.shape_argument(multiples, "Tile")
        if dynamic is not None:  # known only when the graph runs
            return shape_ops.tile_dynamic(input, dynamic)
        multiples = static
    multiples = tuple(_int_list("Tile", "Tmultiples", multiples))
    _tile_shape(input.shape, multiples)  # np.tile would quietly accept too few multiples
    return apply(Tile, [input], {"multiples": multiples})


def _broadcast_to_shape(input_shape, shape):
    from .shape_rules import broadcast

    for d in shape:
        if d < 0:
            raise errors.op_error(errors.InvalidArgumentError, "BroadcastTo",
                                  f"Dimension {d} must be >= 0", "A shape lists sizes.")
    if input_shape.rank is not None and input_shape.rank > len(shape):
        raise errors.op_error(
            errors.InvalidArgumentError, "BroadcastTo",
            f"Rank of input ({input_shape.rank}) must be no greater than rank of output shape "
            f"({len(shape)}).", "Broadcasting can add axes but never remove them.")
    result = broadcast("BroadcastTo")(input_shape, TensorShape(shape))  # raises if incompatible
    if result.rank is not None and None not in result.dims and result.as_list() != list(shape):
        raise errors.op_error(
            errors.InvalidArgumentError, "BroadcastTo",
            f"Unable to broadcast tensor of shape {dims_text(input_shape)} to tensor of shape "
            f"{dims_text(shape)}", "broadcast_to can only stretch size-1 axes (and add leading "
            "ones); the target's sizes must already cover the input's.")
    return TensorShape(shape)


BroadcastTo = Op("BroadcastTo", lambda x, shape: np.array(np.broadcast_to(x, shape)), typed=(),
                 shape=_broadcast_to_shape)


@BroadcastTo.def_grad
def _broadcast_to_grad(op, dy):
    from .unbroadcast import unbroadcast

    return unbroadcast(dy, op.inputs[0])


@tf_export("broadcast_to")
def broadcast_to(input, shape, name=None):
    """Stretch size-1 axes (and prepend axes) to reach `shape`, as broadcasting does.

    >>> tf.broadcast_to(tf.constant([1, 2]), [2, 2])
    <tf.Tensor: shape=(2, 2), dtype=int32, numpy=
    array([[1, 2],
           [1, 2]], dtype=int32)>
    """
    input = convert_to_tensor(input)
    if isinstance(shape, Tensor) or isinstance(shape, (list, tuple)) and any(
            isinstance(d, Tensor) for d in shape):
        static, dynamic = shape_ops.shape_argument(shape, "BroadcastTo")
        if dynamic is not None:  # known only when the graph runs
            return shape_ops.broadcast_to_dynamic(input, dynamic)
        shape = static
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
    if indices.rank is None:
        return TensorShape(None)
    dims = indices.as_list()
    if not (axis == -1 or 0 <= axis <= len(dims)):
        raise errors.op_error(
            errors.InvalidArgumentError, "OneHot",
            f"Expected axis to be -1 or between [0, {len(dims) + 1}).  But received: {axis}",
            "axis is where the new one-hot axis goes.")
    axis = len(dims) if axis == -1 else axis
    return TensorShape(dims[:axis] + [depth] + dims[axis:])


_ONE_HOT_INDEX = (dtypes.uint8, dtypes.int8, dtypes.int32, dtypes.int64)
OneHot = Op("OneHot", _one_hot_forward, typed=(1, 2), shape=_one_hot_shape)  # no gradient


def _one_hot_dtype(on_value, off_value, dtype):
    """TF's rules: an explicit dtype must match the given values; else they set it."""
    dtype = None if dtype is None else dtypes.as_dtype(dtype)
    on = None if on_value is None else convert_to_tensor(on_value, dtype_hint=dtype)
    off = None if off_value is None else convert_to_tensor(off_value, dtype_hint=dtype)
    for value, what in ((on, "on_value"), (off, "off_value")):
        if value is not None and dtype is not None and value.dtype is not dtype:
            raise TypeError(f"dtype {value.dtype} of {what} does not match dtype parameter "
                            f"{dtype}")
    if on is not None and off is not None and on.dtype is not off.dtype:
        raise TypeError(f"dtype {on.dtype} of on_value does not match dtype {off.dtype} of "
                        "off_value")
    dtype = dtype or (on.dtype if on is not None else off.dtype if off is not None
                      else dtypes.float32)
    on = on if on is not None else convert_to_tensor(1, dtype=dtype)
    off = off if off is not None else convert_to_tensor(0, dtype=dtype)
    return on, off


@tf_export("one_hot")
def one_hot(indices, depth, on_value=None, off_value=None, axis=None, dtype=None, name=None):
    """output[..., j] = on_value if indices[...] == j else off_value, j in 0..depth-1.

    The new axis goes last (or at `axis`); -1 and out-of-range indices give a
    row of off_value. dtype defaults to float32. Not differentiable.

    >>> tf.one_hot([0, 2, -1], 3)
    <tf.Tensor: shape=(3, 3), dtype=float32, numpy=
    array([[1., 0., 0.],
           [0., 0., 1.],
           [0., 0., 0.]], dtype=float32)>
    """
    indices = convert_to_tensor(indices)
    if indices.dtype not in _ONE_HOT_INDEX:
        raise attr_dtype_error("OneHot", "TI", indices.dtype, "uint8, int8, int32, int64",
                               "one_hot's indices are class numbers: tf.cast them to int32.")
    on, off = _one_hot_dtype(on_value, off_value, dtype)
    axis = -1 if axis is None else int(axis)
    depth = _one_hot_depth(indices, depth)
    return apply(OneHot, [indices, on, off], {"depth": depth, "axis": axis})


def _one_hot_depth(indices, depth):
    """depth as TF's int32 input (a Python int wraps around, as TF converts it), >= 0."""
    depth = (int(depth) + 2**31) % 2**32 - 2**31
    if depth >= 0:
        return depth
    hint = "depth is the number of classes, so it is 0 or more."
    if executing_eagerly():
        raise errors.op_error(errors.InvalidArgumentError, "OneHot",
                              f"depth must be non-negative, got: {depth}", hint)
    raise ValueError(f"Dimension size, given by scalar input 1, must be non-negative but is "
                     f"{depth} for '{{{{node one_hot}}}} = OneHot[...]' with input shapes: "
                     f"{dims_text(indices.shape)}, [], [], []. {hint}")
