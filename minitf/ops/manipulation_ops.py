"""More ways to rearrange data: split, pad, reverse, sequence_mask.

>>> import minitf as tf
>>> a, b = tf.split(tf.range(5), [2, -1])
>>> a.numpy(), b.numpy()
(array([0, 1], dtype=int32), array([2, 3, 4], dtype=int32))
>>> tf.pad(tf.constant([1, 2, 3]), [[1, 2]], mode="REFLECT")
<tf.Tensor: shape=(6,), dtype=int32, numpy=array([2, 1, 2, 3, 2, 1], dtype=int32)>

Each gradient undoes the move: split's is concat, constant padding's is a
slice, mirror padding's folds the mirrored border back onto the values it
copied (MirrorPadGrad), reverse's is reverse.
"""
import builtins

import numpy as np

from ..framework import dtypes, errors
from ..framework.op import Op, apply, type_name, usable_out
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export
from .array_ops import attr_dtype_error, concat, expand_dims
from .shape_rules import dims_text


def _int_array(value):
    """A Python list, NumPy array or tensor as a NumPy array, with TF's dtype inference."""
    return convert_to_tensor(value).numpy()


# --- split -----------------------------------------------------------------------------------
def _split_forward(value, size_splits, axis):
    if sum(size_splits) != value.shape[axis]:  # a size unknown while tracing, wrong now
        raise _split_error(
            "SplitV", "Determined shape must either match input shape along split_dim exactly if "
            "fully specified, or be less than the size of the input along split_dim if not fully "
            f"specified.  Got: {sum(size_splits)}", f"The sizes must add up to "
            f"{value.shape[axis]}, the length of axis {axis}.")
    return tuple(np.split(value, np.cumsum(size_splits)[:-1], axis=axis))


def _split_shape(value, size_splits, axis):
    if value.rank is None:
        return tuple(TensorShape(None) for _ in size_splits)
    dims = value.dims
    return tuple(TensorShape(dims[:axis] + [s] + dims[axis + 1:]) for s in size_splits)


# TF has two ops: Split (n equal parts) and SplitV (given sizes); both cut at the same places.
Split = Op("Split", _split_forward, typed=(), shape=_split_shape, num_outputs=None)
SplitV = Op("SplitV", _split_forward, typed=(), shape=_split_shape, num_outputs=None)


def _split_grad(op, *dys):
    return concat(list(dys), axis=op.attrs["axis"])  # the pieces, glued back together


Split.def_grad(_split_grad)
SplitV.def_grad(_split_grad)


def _split_error(op_name, message, hint):
    return errors.op_error(errors.InvalidArgumentError, op_name, message, hint)


def _split_axis(op_name, value, axis):
    rank = value.shape.rank
    axis = int(axis)
    if not -rank <= axis < rank or rank == 0:
        raise _split_error(op_name, f"-input rank(-{rank}) <= split_dim < input rank ({rank}), "
                           f"but got {axis}", f"axis must name one of the {rank} axes.")
    return axis % rank


def _even_sizes(value, num, axis):
    if num < 1:
        raise _split_error("Split", f"Value for attr 'num_split' of {num} must be at least "
                           "minimum 1", "Split into at least one piece.")
    axis = _split_axis("Split", value, axis)
    size = value.shape[axis]
    if size is None:
        raise ValueError(f"Cannot split axis {axis} of a tensor of shape {value.shape} into "
                         f"{num} pieces inside tf.function: its size is only known when the "
                         "graph runs. Give the sizes as a list, or trace with a known size.")
    if size % num:
        raise _split_error(
            "Split", "Number of ways to split should evenly divide the split dimension, but got "
            f"split_dim {axis} (size = {size}) and num_split {num}",
            "Give a list of sizes instead to split unevenly.")
    return [size // num] * num, axis


def _given_sizes(value, sizes, axis, num):
    if sizes.dtype.kind not in "iu":
        raise attr_dtype_error("SplitV", "Tlen", dtypes.from_numpy(sizes.dtype),
                               "int8, int32, int64")
    count = num if num is not None else (sizes.shape[0] if sizes.ndim else 1)
    if sizes.ndim != 1 or sizes.size != count:
        raise _split_error(
            "SplitV", "size of the split_tensor must be 1-D and have the same elements as outputs "
            f"got {sizes.ndim} -D and {sizes.size} elements", "Give one size per output.")
    axis = _split_axis("SplitV", value, axis)
    total, sizes = value.shape[axis], [int(s) for s in sizes]
    if len(sizes) == 1 and total is not None and sizes[0] != total:
        raise _split_error("SplitV", "If there is only one output, it must have the same size as "
                           f"the input. Input size: {total} output size: {sizes[0]}",
                           "A single piece is the whole tensor.")
    if sizes.count(-1) > 1:
        raise _split_error("SplitV", "There can only be one -1 in the input.",
                           "-1 means 'the rest', so only one piece can use it.")
    if total is None:  # inside tf.function: checked when the graph runs
        if -1 in sizes:
            raise ValueError(f"Cannot use a -1 size to split axis {axis} of a tensor of shape "
                             f"{value.shape} inside tf.function: its size is only known when "
                             "the graph runs. List every size.")
        return sizes, axis
    known = sum(s for s in sizes if s != -1)
    if (-1 not in sizes and known != total) or known > total:
        raise _split_error(
            "SplitV", "Determined shape must either match input shape along split_dim exactly if "
            "fully specified, or be less than the size of the input along split_dim if not fully "
            f"specified.  Got: {known}", f"The sizes must add up to {total}, the length of "
            f"axis {axis}.")
    sizes = [total - known if s == -1 else s for s in sizes]
    for i, s in enumerate(sizes):
        if s < 0:
            raise _split_error("SplitV", f"Split size at index {i} must be >= 0. Got: {s}",
                               "Sizes cannot be negative (only a single -1 is special).")
    return sizes, axis


@tf_export("split")
def split(value, num_or_size_splits, axis=0, num=None, name="split"):
    """Cut `value` along `axis` into `num_or_size_splits` equal pieces, or pieces of the
    listed sizes (one size may be -1: whatever is left).

    >>> [t.shape for t in tf.split(tf.zeros([6, 2]), 3)]
    [TensorShape([2, 2]), TensorShape([2, 2]), TensorShape([2, 2])]
    """
    value = convert_to_tensor(value)
    if isinstance(num_or_size_splits, (int, np.integer)) and not isinstance(
            num_or_size_splits, bool):
        sizes, axis = _even_sizes(value, int(num_or_size_splits), axis)
        op = Split
    else:
        sizes = _int_array(num_or_size_splits)
        if np.ndim(sizes) == 0:
            raise ValueError("Rank-0 tensors are not supported as the num_or_size_splits "
                             f"argument to split. Argument provided: {num_or_size_splits!s}")
        sizes, axis = _given_sizes(value, sizes, axis, num)
        op = SplitV
    return list(apply(op, [value], {"size_splits": tuple(sizes), "axis": axis}))


# --- pad -------------------------------------------------------------------------------------
def _check_paddings(op_name, shape, paddings, mode="CONSTANT"):
    p = np.asarray(paddings) if len(paddings) else np.zeros([0, 2], np.int32)
    if p.ndim != 2 or p.shape[1] != 2:
        raise errors.op_error(errors.InvalidArgumentError, op_name,
                              f"paddings must be a matrix with 2 columns: {dims_text(p.shape)}",
                              "paddings has one [before, after] row per axis.")
    if shape.rank is not None and p.shape[0] != shape.rank:
        raise errors.op_error(
            errors.InvalidArgumentError, op_name,
            f"The first dimension of paddings must be the rank of inputs{dims_text(p.shape)} "
            f"{dims_text(shape)}", f"Give {shape.rank} rows, one [before, after] per axis.")
    for axis, (before, after) in enumerate(paddings):
        if before < 0 or after < 0:
            word = "Paddings" if op_name != "MirrorPad" else "paddings"
            raise errors.op_error(errors.InvalidArgumentError, op_name,
                                  f"{word} must be non-negative: {before} {after}",
                                  "You can only add values; use tf.slice to remove some.")
        d = None if shape.rank is None else shape[axis]
        if mode == "REFLECT" and d is not None and (before >= d or after >= d):
            raise errors.op_error(
                errors.InvalidArgumentError, op_name, "paddings must be less than the dimension "
                f"size: {before}, {after} not less than {d}",
                "REFLECT mirrors around the edge value, so it can copy at most size-1 values.")
        if mode == "SYMMETRIC" and d is not None and (before > d or after > d):
            raise errors.op_error(
                errors.InvalidArgumentError, op_name, "paddings must be no greater than the "
                f"dimension size: {before}, {after} greater than {d}",
                "SYMMETRIC mirrors including the edge, so it can copy at most size values.")


def _padded_shape(shape, paddings):
    if shape.rank is None:
        return TensorShape(None)
    return TensorShape([None if d is None else d + b + a for d, (b, a) in zip(shape, paddings)])


def _pad_rule(op_name):
    def rule(shape, *rest, paddings, mode="CONSTANT"):
        _check_paddings(op_name, shape, paddings, mode)
        return _padded_shape(shape, paddings)

    return rule


def _pad_constant(x, paddings, value, out=None):
    """A block of `value` of the padded shape, with x copied into the middle (written
    into `out`, an earlier result of the same graph node, when it fits)."""
    shape = tuple(d + b + a for d, (b, a) in zip(x.shape, paddings))
    out = usable_out(out, shape, x.dtype)
    if out is None:
        out = np.full(shape, value, dtype=x.dtype)
    else:
        out.fill(value)
    out[tuple(slice(b, b + d) for d, (b, _) in zip(x.shape, paddings))] = x
    return out


def _pad_forward(x, paddings, out=None):
    _check_paddings("Pad", TensorShape(x.shape), paddings)
    # (strings pad with b"")
    return _pad_constant(x, paddings, b"" if x.dtype == object else 0, out=out)


def _pad_v2_forward(x, constant_values, paddings):
    _check_paddings("PadV2", TensorShape(x.shape), paddings)
    return _pad_constant(x, paddings, constant_values)


def _mirror_pad_forward(x, paddings, mode):
    _check_paddings("MirrorPad", TensorShape(x.shape), paddings, mode)
    return np.pad(x, paddings, mode=mode.lower())


Pad = Op("Pad", _pad_forward, typed=(), shape=_pad_rule("Pad"), accepts_out=True)
PadV2 = Op("PadV2", _pad_v2_forward, typed=(0, 1), shape=_pad_rule("PadV2"))
MirrorPad = Op("MirrorPad", _mirror_pad_forward, typed=(), shape=_pad_rule("MirrorPad"))


def _unpad(op, dy):
    # dy[before:-after] on every axis: the padding had no inputs (works for None sizes too)
    return dy[tuple(builtins.slice(b, -a if a else None) for b, a in op.attrs["paddings"])]


@Pad.def_grad
def _pad_grad(op, dy):
    return _unpad(op, dy)


@PadV2.def_grad
def _pad_v2_grad(op, dy):
    return _unpad(op, dy), None  # TF gives constant_values no gradient


def _mirror_pad_grad_forward(dy, paddings, mode):
    """Fold each mirrored border back onto the value it copied, one axis at a time."""
    out = dy
    for axis, (before, after) in enumerate(paddings):
        size = out.shape[axis] - before - after
        source = np.pad(np.arange(size), (before, after), mode=mode.lower())  # padded -> original
        folded = np.zeros(out.shape[:axis] + (size,) + out.shape[axis + 1:], dtype=dy.dtype)
        np.add.at(folded, (slice(None),) * axis + (source,), out)
        out = folded
    return out


def _mirror_pad_grad_shape(dy, paddings, mode):
    if dy.rank is None:
        return TensorShape(None)
    return TensorShape([None if d is None else d - b - a for d, (b, a) in zip(dy, paddings)])


MirrorPadGrad = Op("MirrorPadGrad", _mirror_pad_grad_forward, typed=(),
                   shape=_mirror_pad_grad_shape)


@MirrorPad.def_grad
def _mirror_pad_grad(op, dy):
    return apply(MirrorPadGrad, [dy], op.attrs)


@MirrorPadGrad.def_grad
def _mirror_pad_grad_grad(op, ddy):
    return apply(MirrorPad, [ddy], op.attrs)  # folding is linear; its adjoint is mirroring


@tf_export("pad")
def pad(tensor, paddings, mode="CONSTANT", constant_values=0, name=None):
    """Add `paddings[i][0]` values before and `paddings[i][1]` after axis i.

    CONSTANT fills with `constant_values`; REFLECT mirrors around the edge value
    (excluding it), SYMMETRIC mirrors including it. `mode` is case-insensitive.

    >>> tf.pad(tf.constant([[1, 2]]), [[1, 0], [0, 1]])
    <tf.Tensor: shape=(2, 3), dtype=int32, numpy=
    array([[0, 0, 0],
           [1, 2, 0]], dtype=int32)>
    """
    tensor = convert_to_tensor(tensor)
    mode = str(mode).upper()
    if mode not in ("CONSTANT", "REFLECT", "SYMMETRIC"):
        raise ValueError('Value of argument `mode` expected to be one of "CONSTANT", "REFLECT", '
                         f'or "SYMMETRIC". Received `mode` = {mode}')
    p = _int_array(paddings)
    op_name = "Pad" if mode == "CONSTANT" else "MirrorPad"
    if p.dtype.kind not in "iu":
        raise attr_dtype_error(op_name, "Tpaddings", dtypes.from_numpy(p.dtype), "int32, int64")
    _check_paddings(op_name, tensor.shape, p, mode)
    paddings = tuple((int(b), int(a)) for b, a in p)
    if mode != "CONSTANT":
        return apply(MirrorPad, [tensor], {"paddings": paddings, "mode": mode})
    if not isinstance(constant_values, Tensor) and np.all(np.asarray(constant_values) == 0):
        return apply(Pad, [tensor], {"paddings": paddings})
    if not isinstance(constant_values, Tensor):
        constant_values = convert_to_tensor(constant_values, dtype=tensor.dtype)
    constant_values = convert_to_tensor(constant_values)
    if constant_values.dtype is not tensor.dtype:  # TF's input #2: paddings is input #1 there
        raise errors.op_error(
            errors.InvalidArgumentError, "PadV2",
            f"cannot compute PadV2 as input #2(zero-based) was expected to be a "
            f"{type_name(tensor.dtype)} tensor but is a {type_name(constant_values.dtype)} tensor",
            "constant_values must have the tensor's dtype: tf.cast one of them.")
    return apply(PadV2, [tensor, constant_values], {"paddings": paddings})


# --- reverse ---------------------------------------------------------------------------------
def _reverse_shape(shape, axis):
    return shape


ReverseV2 = Op("ReverseV2", lambda tensor, axis: np.flip(tensor, axis), typed=(),
               shape=_reverse_shape)


@ReverseV2.def_grad
def _reverse_grad(op, dy):
    return reverse(dy, list(op.attrs["axis"]))  # reversing twice is the identity


@tf_export("reverse")
def reverse(tensor, axis, name=None):
    """Reverse the order of the entries along each axis in `axis` (a list).

    >>> tf.reverse(tf.constant([[1, 2, 3], [4, 5, 6]]), [1])
    <tf.Tensor: shape=(2, 3), dtype=int32, numpy=
    array([[3, 2, 1],
           [6, 5, 4]], dtype=int32)>
    """
    tensor = convert_to_tensor(tensor)
    axes = _int_array(axis)
    if axes.ndim != 1:
        raise errors.op_error(errors.InvalidArgumentError, "ReverseV2",
                              f"'dims' must be 1-dimension, not {axes.ndim}",
                              "axis is a list of axes, e.g. [0] rather than 0.")
    if axes.size and axes.dtype.kind not in "iu":
        raise attr_dtype_error("ReverseV2", "Tidx", dtypes.from_numpy(axes.dtype), "int32, int64")
    rank, seen = tensor.shape.rank, []
    for i, a in enumerate(int(a) for a in axes):
        if not -rank <= a < rank:
            raise errors.op_error(errors.InvalidArgumentError, "ReverseV2",
                                  f"'axis'[{i}] = {a} is out of valid range [0, {rank - 1}",
                                  f"A rank-{rank} tensor has axes {-rank}..{rank - 1}.")
        if a % rank in seen:
            raise errors.op_error(errors.InvalidArgumentError, "ReverseV2",
                                  f"axis {a % rank} specified more than once.",
                                  "Reversing an axis twice would undo it; list it once.")
        seen.append(a % rank)
    return apply(ReverseV2, [tensor], {"axis": tuple(seen)})


# --- sequence_mask ---------------------------------------------------------------------------
@tf_export("sequence_mask")
def sequence_mask(lengths, maxlen=None, dtype=dtypes.bool, name=None):
    """mask[i..., j] = j < lengths[i...], for j in 0..maxlen-1 (default: max(lengths)).

    A composition of range, expand_dims and less, as in TF (so no gradient).

    >>> tf.sequence_mask([1, 3], 4)
    <tf.Tensor: shape=(2, 4), dtype=bool, numpy=
    array([[ True, False, False, False],
           [ True,  True,  True, False]])>
    """
    from .creation_ops import range as range_
    from .math_ops import cast, less, maximum
    from .reduction_ops import reduce_max

    lengths = convert_to_tensor(lengths)
    if maxlen is None:
        maxlen = maximum(0, reduce_max(lengths))  # all-negative lengths give 0 columns
    maxlen = convert_to_tensor(maxlen)
    if maxlen.shape.rank != 0:
        raise ValueError("Argument `maxlen` must be scalar for sequence_mask, received `maxlen` "
                         f"= {maxlen.numpy()} with shape '{tuple(maxlen.shape)}' instead")
    row = range_(maxlen)
    mask = less(row, cast(expand_dims(lengths, -1), row.dtype))
    dtype = dtypes.as_dtype(dtype)
    return mask if dtype is dtypes.bool else cast(mask, dtype)
