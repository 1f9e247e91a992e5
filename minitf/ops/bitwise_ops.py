"""`tf.bitwise.left_shift` / `right_shift`: shift the bits of integer tensors.

TF's kernel first clamps the shift into [0, bits - 1], so a negative shift is 0
and a shift by the width or more is a shift by width - 1 (C++ leaves those
undefined; TF chose to define them). `right_shift` is arithmetic on signed
types (the sign bit is copied in), logical on unsigned ones:

>>> import minitf as tf
>>> x = tf.constant([1, -8, 5], dtype=tf.int8)
>>> tf.bitwise.left_shift(x, tf.constant([7, 1, 100], dtype=tf.int8)).numpy()
array([-128,  -16, -128], dtype=int8)
>>> tf.bitwise.right_shift(x, tf.constant([-1, 100, 1], dtype=tf.int8)).numpy()
array([ 1, -1,  2], dtype=int8)

Shifts are not differentiable: integer tensors have no gradient in TF.
"""
import numpy as np

from ..framework import dtypes
from ..framework.op import Op, apply
from ..framework.tf_export import tf_export
from .math_ops import binary_args
from .shape_rules import broadcast


def _clamped(x, y):
    bits = 8 * x.dtype.itemsize
    return np.clip(y, 0, bits - 1).astype(x.dtype)


def _left_shift(x, y):
    # Shift the unsigned view, so the bits that leave on the left simply vanish.
    unsigned = np.dtype(f"u{x.dtype.itemsize}")
    x, y = np.broadcast_arrays(x, _clamped(x, y))
    return np.left_shift(x.astype(unsigned), y.astype(unsigned)).astype(x.dtype)


def _right_shift(x, y):
    return np.right_shift(x, _clamped(x, y))


LeftShift = Op("LeftShift", _left_shift, dtypes=dtypes.INTEGER, shape=broadcast("LeftShift"))
RightShift = Op("RightShift", _right_shift, dtypes=dtypes.INTEGER,
                shape=broadcast("RightShift"))


@tf_export("bitwise.left_shift")
def left_shift(x, y, name=None):
    """x << y elementwise (the shift clamped into [0, bits - 1]), for same-dtype integers."""
    x, y = binary_args(x, y)
    return apply(LeftShift, [x, y])


@tf_export("bitwise.right_shift")
def right_shift(x, y, name=None):
    """x >> y elementwise (arithmetic for signed dtypes, shift clamped into [0, bits - 1])."""
    x, y = binary_args(x, y)
    return apply(RightShift, [x, y])
