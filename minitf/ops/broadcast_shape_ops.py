"""The shape two shapes broadcast to: `tf.broadcast_static_shape` and `tf.broadcast_dynamic_shape`.

Broadcasting lines two shapes up from the right; each pair of sizes must be
equal, or one of them 1 (which stretches). The static version works on
`TensorShape`s while tracing - unknown sizes stay unknown unless the other
size says more. The dynamic version is an op (BroadcastArgs) on int32/int64
shape tensors, for shapes only known when the graph runs.

>>> tf.broadcast_static_shape(tf.TensorShape([1, 2, 3]), tf.TensorShape([5, 1, 3]))
TensorShape([5, 2, 3])
>>> tf.broadcast_dynamic_shape(tf.constant([1, 2, 3]), tf.constant([5, 1, 3]))
<tf.Tensor: shape=(3,), dtype=int32, numpy=array([5, 2, 3], dtype=int32)>
"""
from itertools import zip_longest

import numpy as np

from ..framework import dtypes
from ..framework.op import Op, apply
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape, as_shape
from ..framework.tf_export import tf_export
from .shape_rules import broadcast


def _broadcast_dims(x, y):
    """TF's `_broadcast_shape_helper`: the broadcast dims, or None if they do not fit.
    An unknown size becomes the other size if that one is > 1, else stays unknown."""
    dims = []
    for a, b in zip_longest(reversed(x.dims), reversed(y.dims), fillvalue=1):
        if a is None or b is None:
            known = [d for d in (a, b) if d is not None and d > 1]
            dims.append(known[0] if known else None)
        elif a == 1 or b == 1 or a == b:
            dims.append(b if a == 1 else a)
        else:
            return None
    return dims[::-1]


@tf_export("broadcast_static_shape")
def broadcast_static_shape(shape_x, shape_y):
    """The TensorShape that shapes `shape_x` and `shape_y` broadcast to (ValueError if none).

    >>> tf.broadcast_static_shape(tf.TensorShape([None, 1]), tf.TensorShape([4]))
    TensorShape([None, 4])
    """
    shape_x, shape_y = as_shape(shape_x), as_shape(shape_y)
    if shape_x.rank is None or shape_y.rank is None:
        return TensorShape(None)
    dims = _broadcast_dims(shape_x, shape_y)
    if dims is None:
        raise ValueError("Incompatible shapes for broadcasting. Two shapes are compatible if for "
                         "each dimension pair they are either equal or one of them is 1. "
                         f"Received: {shape_x} and {shape_y}.")
    return TensorShape(dims)


def _broadcast_args_forward(s0, s1):
    dims = broadcast("BroadcastArgs")(TensorShape(s0.tolist()), TensorShape(s1.tolist()))
    return np.array(dims.as_list(), dtype=s0.dtype)


def _broadcast_args_shape(s0, s1):
    if s0.rank is None or s1.rank is None or s0[0] is None or s1[0] is None:
        return TensorShape([None])
    return TensorShape([max(s0[0], s1[0])])


# Shapes are integers: there is no gradient to take.
BroadcastArgs = Op("BroadcastArgs", _broadcast_args_forward, dtypes={dtypes.int32, dtypes.int64},
                   shape=_broadcast_args_shape)


@tf_export("broadcast_dynamic_shape")
def broadcast_dynamic_shape(shape_x, shape_y):
    """The broadcast shape of two shape tensors (1-D int32 or int64), as a tensor.

    Fails with InvalidArgumentError "Incompatible shapes: [2] vs. [3]" when
    the shapes do not broadcast (when the graph runs, inside tf.function).

    >>> tf.broadcast_dynamic_shape([2, 1], [3])
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([2, 3], dtype=int32)>
    """
    shape_x = convert_to_tensor(shape_x)
    return apply(BroadcastArgs, [shape_x, convert_to_tensor(shape_y, dtype_hint=shape_x.dtype)])
