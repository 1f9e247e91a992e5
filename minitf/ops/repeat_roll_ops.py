"""Repeat, roll, mesh grids and per-row reversal: tf.repeat, tf.roll, tf.meshgrid,
tf.reverse_sequence.

>>> import minitf as tf
>>> tf.repeat([1, 2, 3], 2)
<tf.Tensor: shape=(6,), dtype=int32, numpy=array([1, 1, 2, 2, 3, 3], dtype=int32)>
>>> tf.roll([1, 2, 3, 4, 5], shift=2, axis=0)
<tf.Tensor: shape=(5,), dtype=int32, numpy=array([4, 5, 1, 2, 3], dtype=int32)>

Each move is undone by its gradient: repeat's sums the copies of each entry back
together (RepeatGrad), roll's rolls back, reverse_sequence's reverses again.
meshgrid is composed of reshape and multiply, as TensorFlow writes it.
"""
import numpy as np

from ..framework import dtypes, errors
from ..framework.op import Op, apply
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export
from .array_ops import reshape
from .creation_ops import ones
from .shape_ops import constant_value, size


def _int_input(value, op_name, attr):
    t = convert_to_tensor(value)
    if t.dtype not in (dtypes.int32, dtypes.int64):
        raise errors.op_error(
            errors.InvalidArgumentError, op_name,
            f"Value for attr '{attr}' of {dtypes.tf_type_name(t.dtype)} is not in the list of "
            "allowed values: int32, int64", f"{attr} must be integers: tf.cast it first.")
    return t


# --- repeat ----------------------------------------------------------------------------------
# TF composes repeat from Tile/Reshape (one count) or SequenceMask/BooleanMask (one count per
# entry); minitf gives it one op, whose gradient adds up the copies of each entry.
def _repeat_counts(repeats, length):
    counts = np.reshape(repeats, [-1]).astype(np.int64)
    if counts.size == 1 and counts[0] < 0:
        raise errors.op_error(errors.InvalidArgumentError, "Tile",
                              f"Expected multiples[1] >= 0, but got {counts[0]}",
                              "A repeat count cannot be negative.")
    return np.broadcast_to(np.maximum(counts, 0), [length])


def _repeat_forward(x, repeats, axis, _static):
    return np.repeat(x, _repeat_counts(repeats, x.shape[axis]), axis=axis)


def _repeat_shape(x, repeats, axis, _static):
    if x.rank is None:
        return TensorShape(None)
    dims = list(x.dims)
    total = None
    if _static is not None and dims[axis] is not None:
        total = int(np.sum(_repeat_counts(np.array(_static), dims[axis])))
    dims[axis] = total
    return TensorShape(dims)


Repeat = Op("Repeat", _repeat_forward, typed=(), shape=_repeat_shape)


def _repeat_grad_forward(dy, repeats, axis, size):
    ids = np.repeat(np.arange(size), _repeat_counts(repeats, size))
    moved = np.moveaxis(dy, axis, 0)
    total = np.zeros((size,) + moved.shape[1:], dtype=dy.dtype)
    np.add.at(total, ids, moved)  # every copy of entry i adds its gradient to entry i
    return np.moveaxis(total, 0, axis)


def _repeat_grad_shape(dy, repeats, axis, size):
    if dy.rank is None:
        return TensorShape(None)
    dims = list(dy.dims)
    dims[axis] = size
    return TensorShape(dims)


RepeatGrad = Op("RepeatGrad", _repeat_grad_forward, typed=(), shape=_repeat_grad_shape)


@Repeat.def_grad
def _repeat_grad(op, dy):
    x, repeats = op.inputs
    axis = op.attrs["axis"]
    return apply(RepeatGrad, [dy, repeats], {"axis": axis, "size": x.shape[axis]}), None


@RepeatGrad.def_grad
def _repeat_grad_grad(op, ddx):  # summing copies is linear: its gradient copies again
    return apply(Repeat, [ddx, op.inputs[1]], {"axis": op.attrs["axis"], "_static": None}), None


@tf_export("repeat")
def repeat(input, repeats, axis=None, name=None):  # noqa: A002 - TF's argument name
    """Repeat each entry along `axis` (flattened first if axis is None) `repeats` times.

    repeats: one count for every entry, or one count per entry along `axis`.

    >>> tf.repeat([[1, 2], [3, 4]], repeats=[1, 2], axis=0)
    <tf.Tensor: shape=(3, 2), dtype=int32, numpy=
    array([[1, 2],
           [3, 4],
           [3, 4]], dtype=int32)>
    """
    x = convert_to_tensor(input)
    if axis is None:
        x, axis = reshape(x, [-1]), 0
    repeats = _int_input(repeats, "Repeat", "T")
    rank = x.shape.rank
    if rank is not None:
        if not -rank <= axis < rank:
            raise ValueError(f"axis={axis} out of bounds: expected {-rank}<=axis<{rank}")
        axis %= rank
    length = x.shape[axis] if rank is not None else None
    count = repeats.shape.num_elements()
    if repeats.shape.rank is not None and repeats.shape.rank > 1:
        raise ValueError(f"Shape must be rank 1 but is rank {repeats.shape.rank}: give "
                         "one count, or one count per entry along axis.")
    if count not in (None, 1) and length is not None and count != length:
        raise ValueError(f"Dimensions {length} and {count} are not compatible")
    static = constant_value(repeats)
    static = None if static is None else tuple(np.reshape(static, [-1]).tolist())
    return apply(Repeat, [x, repeats], {"axis": axis, "_static": static})


# --- roll ------------------------------------------------------------------------------------
def _roll_forward(x, shift, axis):
    shift, axis = np.reshape(shift, [-1]), np.reshape(axis, [-1])
    if shift.size != axis.size:
        raise errors.op_error(errors.InvalidArgumentError, "Roll",
                              "shift and axis must have the same size",
                              "Give one shift per axis.")
    for a in axis:
        if not -x.ndim <= a < x.ndim:
            raise errors.op_error(errors.InvalidArgumentError, "Roll",
                                  f"axis {a} is out of range",
                                  f"A rank-{x.ndim} tensor has axes {-x.ndim}..{x.ndim - 1}.")
    return np.roll(x, tuple(int(s) for s in shift), tuple(int(a) for a in axis))


Roll = Op("Roll", _roll_forward, typed=(), shape=lambda x, shift, axis: x)


@Roll.def_grad
def _roll_grad(op, dy):
    _, shift, axis = op.inputs
    return roll(dy, -shift, axis), None, None  # rolling back undoes the move


@tf_export("roll")
def roll(input, shift, axis, name=None):  # noqa: A002
    """Shift entries along `axis` by `shift` places; what falls off one end comes back
    at the other. Several axes: `shift` and `axis` are lists of the same length (a
    repeated axis adds its shifts).

    >>> tf.roll([[1, 2], [3, 4]], shift=[1, -1], axis=[0, 1])
    <tf.Tensor: shape=(2, 2), dtype=int32, numpy=
    array([[4, 3],
           [2, 1]], dtype=int32)>
    """
    x = convert_to_tensor(input)
    return apply(Roll, [x, _int_input(shift, "Roll", "Tshift"), _int_input(axis, "Roll", "Taxis")])


# --- meshgrid --------------------------------------------------------------------------------
@tf_export("meshgrid")
def meshgrid(*args, **kwargs):
    """Coordinate grids from 1-D coordinate vectors: output k holds args[k] along its axis.

    indexing="xy" (default, Cartesian) swaps the first two axes of the result, as
    NumPy's meshgrid; "ij" (matrix indexing) does not.

    >>> x, y = tf.meshgrid([1, 2, 3], [4, 5])
    >>> x.numpy().tolist(), y.numpy().tolist()
    ([[1, 2, 3], [1, 2, 3]], [[4, 4, 4], [5, 5, 5]])
    """
    indexing = kwargs.pop("indexing", "xy")
    kwargs.pop("name", None)
    if kwargs:
        key = list(kwargs)[0]
        raise TypeError(f"'{key}' is an invalid keyword argument for this function")
    if indexing not in ("xy", "ij"):
        raise ValueError("Argument `indexing` parameter must be either 'xy' or 'ij', "
                         f"got '{indexing}'")
    ndim = len(args)
    if not ndim:
        return []
    ones_shape = (1,) * ndim
    output = [reshape(convert_to_tensor(x), ones_shape[:i] + (-1,) + ones_shape[i + 1:])
              for i, x in enumerate(args)]
    shapes = [size(x) for x in args]
    if indexing == "xy" and ndim > 1:
        output[0] = reshape(output[0], (1, -1) + (1,) * (ndim - 2))
        output[1] = reshape(output[1], (-1, 1) + (1,) * (ndim - 2))
        shapes[0], shapes[1] = shapes[1], shapes[0]
    from .array_ops import stack

    grid_ones = ones(stack(shapes), convert_to_tensor(args[0]).dtype)
    return [x * grid_ones for x in output]  # broadcasting does the copying


# --- reverse_sequence ------------------------------------------------------------------------
def _reverse_sequence_forward(x, seq_lengths, seq_axis, batch_axis):
    if seq_axis == batch_axis:
        raise errors.op_error(errors.InvalidArgumentError, "ReverseSequence",
                              f"batch_dim == seq_dim == {seq_axis}",
                              "The batch axis and the sequence axis must differ.")
    if seq_lengths.shape[0] != x.shape[batch_axis]:
        raise errors.op_error(
            errors.InvalidArgumentError, "ReverseSequence",
            f"Length of seq_lengths != input.dims({batch_axis}), ({seq_lengths.shape[0]} vs. "
            f"{x.shape[batch_axis]})", "Give one length per row of the batch axis.")
    out = np.array(x, copy=True)
    for b, length in enumerate(seq_lengths):
        if length > x.shape[seq_axis] or length < 0:
            raise errors.op_error(
                errors.InvalidArgumentError, "ReverseSequence",
                f"seq_lens({b}) > input.dims({seq_axis})" if length > 0 else
                f"seq_lens({b}) < 0", "Each length must fit the sequence axis.")
        index = [slice(None)] * x.ndim
        index[batch_axis] = b
        index[seq_axis] = slice(0, int(length))
        out[tuple(index)] = np.flip(x[tuple(index)], axis=seq_axis - (batch_axis < seq_axis))
    return out


ReverseSequence = Op("ReverseSequence", _reverse_sequence_forward, typed=(),
                     shape=lambda x, lengths, seq_axis, batch_axis: x)


@ReverseSequence.def_grad
def _reverse_sequence_grad(op, dy):  # reversing the same prefixes again undoes the move
    return apply(ReverseSequence, [dy, op.inputs[1]], op.attrs), None


@tf_export("reverse_sequence")
def reverse_sequence(input, seq_lengths, seq_axis=None, batch_axis=None, name=None):  # noqa: A002
    """Reverse the first `seq_lengths[b]` entries along `seq_axis` of each slice b of
    `batch_axis` (padded sequences: only the real part is reversed).

    >>> tf.reverse_sequence([[1, 2, 3, 4], [5, 6, 7, 8]], [2, 3], seq_axis=1, batch_axis=0)
    <tf.Tensor: shape=(2, 4), dtype=int32, numpy=
    array([[2, 1, 3, 4],
           [7, 6, 5, 8]], dtype=int32)>
    """
    x = convert_to_tensor(input)
    lengths = _int_input(seq_lengths, "ReverseSequence", "Tlen")
    seq_axis = 0 if seq_axis is None else int(seq_axis)
    batch_axis = 0 if batch_axis is None else int(batch_axis)
    rank = x.shape.rank
    if rank is not None:
        for what, a in (("seq_dim", seq_axis), ("batch_dim", batch_axis)):
            if not 0 <= a < rank:
                raise errors.op_error(
                    errors.InvalidArgumentError, "ReverseSequence",
                    f"Invalid {what} {a}" if a >= 0 else f"Invalid {what} {a}",
                    f"Give an axis in 0..{rank - 1} (negative axes are not allowed).")
    return apply(ReverseSequence, [x, lengths], {"seq_axis": seq_axis, "batch_axis": batch_axis})
