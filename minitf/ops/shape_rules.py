"""Shape rules shared by many ops, and the one helper that undoes broadcasting.

A shape rule takes the input `TensorShape`s (and the op's attributes) and
returns the output shape, raising TF's error when the inputs cannot work.
Unknown dimensions (`None`, from `tf.function` signatures) stay unknown.
"""
from itertools import zip_longest

from ..framework import errors
from ..framework.tensor_shape import TensorShape


def same_shape(shape, *rest, **attrs):
    """Element-wise unary ops: the output has the input's shape."""
    return shape


def dims_text(shape):
    """TF writes shapes in errors as [2,3]."""
    return "[" + ",".join("?" if d is None else str(d) for d in shape) + "]"


def broadcast(op_name):
    """The NumPy/TF broadcasting rule, raising TF's 'Incompatible shapes' error.

    >>> broadcast("AddV2")(TensorShape([3, 1]), TensorShape([4]))
    TensorShape([3, 4])
    """

    def rule(*shapes, **attrs):
        if any(s.rank is None for s in shapes):
            return TensorShape(None)
        result = shapes[0]
        for other in shapes[1:]:
            result = _broadcast_pair(op_name, result, other)
        return result

    return rule


def _broadcast_pair(op_name, a, b):
    out = []
    for da, db in zip_longest(reversed(a.dims), reversed(b.dims), fillvalue=1):
        if da == 1:
            out.append(db)
        elif db == 1 or da == db:
            out.append(da)
        elif da is None or db is None:
            out.append(da if db is None else db)
        else:
            raise errors.op_error(
                errors.InvalidArgumentError, op_name,
                f"Incompatible shapes: {dims_text(a)} vs. {dims_text(b)}",
                "Broadcasting lines shapes up from the right; each pair of axes must be "
                "equal, or one of them 1.")
    return TensorShape(out[::-1])


def check_sizes(op_name, dims):
    """A shape's sizes must be >= 0 (TF's "Dimension -1 must be >= 0"), and their product
    must fit TF's int64 element count. Sizes are Python ints, so nothing wraps at 2**31."""
    count = 1
    for d in dims:
        if d < 0:
            raise errors.op_error(errors.InvalidArgumentError, op_name,
                                  f"Dimension {d} must be >= 0",
                                  "Every size in a shape counts elements, so it is 0 or more "
                                  "(-1, \"infer this one\", only works in tf.reshape).")
        count *= d
    if count > 2**63 - 1:
        raise errors.op_error(errors.InvalidArgumentError, op_name,
                              f"Shape {dims_text(dims)} would have more than 2**63 - 1 elements",
                              "TensorFlow counts elements in an int64; check the sizes.")
    return dims


def normalize_axis(op_name, axis, rank, what="dimension"):
    """An axis in [-rank, rank) as a non-negative int, or TF's error."""
    axis = int(axis)
    if not -rank <= axis < rank:
        raise errors.op_error(
            errors.InvalidArgumentError, op_name,
            f"Expected {what} in the range [{-rank}, {rank}), but got {axis}",
            f"A rank-{rank} tensor has axes 0..{rank - 1} (or -{rank}..-1 counting from the end).")
    return axis % rank if rank else 0


def broadcast_gradient_axes(grad_shape, shape):
    """The axes to sum a gradient over so it fits `shape` (TF's BroadcastGradientArgs)."""
    extra = len(grad_shape) - len(shape)
    axes = list(range(extra))
    axes += [extra + i for i, d in enumerate(shape) if d == 1 and grad_shape[extra + i] != 1]
    return axes
