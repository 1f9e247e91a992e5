"""`keras.ops` binary element-wise ops: arithmetic, comparisons, logic and bits.

Each casts both inputs to Keras's `result_type` first (`dtype_rules.py`), so
mixed dtypes work where `tf.*` raises:

>>> import minitf as tf
>>> from minitf.keras import ops
>>> ops.add(tf.constant([1, 2]), tf.constant([0.5, 0.5]))
<tf.Tensor: shape=(2,), dtype=float32, numpy=array([1.5, 2.5], dtype=float32)>
>>> ops.add(tf.constant([1, 2], tf.int8), 300).dtype    # a Python int is weak: int8 stays
tf.int8
>>> ops.greater(tf.constant([1, 5]), 2.5)
<tf.Tensor: shape=(2,), dtype=bool, numpy=array([False,  True])>

In Keras these are in `keras/src/backend/tensorflow/numpy.py`.
"""
import math

import minitf as tf

from ._export import keras_ops_export
from .. import ops  # noqa: F401 - the examples below call ops.*
from .dtype_rules import convert, promote

_SMALL_INTS = ("int8", "int16", "int32", "uint8", "uint16", "uint32", "bool")


def _weak(x1, x2, extra=()):
    """Promote with Python numbers weak (add, multiply, maximum, ...)."""
    return promote(x1, x2, extra=extra)


def _strong(x1, x2, extra=()):
    """Promote with Python numbers made tensors first (int32/float32)."""
    return promote(convert(x1), convert(x2), extra=extra)


def _float_pair(x1, x2):
    """Promote, then ints compute in floatx (int64 in float64): hypot, heaviside."""
    x1, x2 = _strong(x1, x2)
    dtype = x1.dtype.name
    target = (tf.keras.backend.floatx() if dtype in _SMALL_INTS
              else "float64" if dtype == "int64" else dtype)
    return tf.cast(x1, target), tf.cast(x2, target)


def _binary(name, tf_op, promote_fn, doc):
    def op(x1, x2):
        return tf_op(*promote_fn(x1, x2))

    op.__name__ = op.__qualname__ = name
    op.__doc__ = doc
    globals()[name] = keras_ops_export("numpy")(op)


_binary("add", tf.add, _weak, "x1 + x2.")
_binary("subtract", tf.subtract, _weak, "x1 - x2.")
_binary("multiply", tf.multiply, _weak, "x1 * x2.")
_binary("maximum", tf.maximum, _weak, "The larger of x1 and x2, element by element.")
_binary("minimum", tf.minimum, _weak, "The smaller of x1 and x2, element by element.")
_binary("floor_divide", tf.math.floordiv, _weak, "floor(x1 / x2), in the common dtype.")
_binary("equal", tf.equal, _strong, "x1 == x2.")
_binary("not_equal", tf.not_equal, _strong, "x1 != x2.")
_binary("greater", tf.greater, _strong, "x1 > x2.")
_binary("greater_equal", tf.greater_equal, _strong, "x1 >= x2.")
_binary("less", tf.less, _strong, "x1 < x2.")
_binary("less_equal", tf.less_equal, _strong, "x1 <= x2.")


@keras_ops_export("numpy")
def divide(x1, x2):
    """x1 / x2, always a float: int / int is float32 (Keras), where `tf.divide` gives float64.

    >>> ops.divide(tf.constant([3, 4]), tf.constant([2, 8]))
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([1.5, 0.5], dtype=float32)>
    """
    return tf.divide(*_weak(x1, x2, extra=(float,)))


true_divide = keras_ops_export("numpy", "true_divide")(divide)


@keras_ops_export("numpy")
def divide_no_nan(x1, x2):
    """x1 / x2, and 0 where x2 is 0.

    >>> ops.divide_no_nan(tf.constant([1.0, 2.0]), tf.constant([0.0, 4.0]))
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([0. , 0.5], dtype=float32)>
    """
    return tf.math.divide_no_nan(*_weak(x1, x2, extra=(float,)))


@keras_ops_export("numpy")
def power(x1, x2):
    """x1 ** x2 in the common dtype (2 ** 0.5 with int tensors promotes to float).

    >>> ops.power(tf.constant([2, 3]), 2)
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([4, 9], dtype=int32)>
    """
    x1, x2 = _weak(x1, x2)
    dtype = x1.dtype.name
    if dtype.startswith("uint"):  # TF has no uint pow kernel: compute in int32
        return tf.cast(tf.pow(tf.cast(x1, "int32"), tf.cast(x2, "int32")), dtype)
    return tf.pow(x1, x2)


def _fmaxmin(pick):
    def op(x1, x2):
        x1, x2 = _weak(x1, x2)
        result = pick(x1, x2)
        if "float" not in x1.dtype.name:
            return result
        nan1, nan2 = tf.math.is_nan(x1), tf.math.is_nan(x2)
        result = tf.where(tf.logical_and(nan1, tf.logical_not(nan2)), x2, result)
        return tf.where(tf.logical_and(nan2, tf.logical_not(nan1)), x1, result)

    return op


@keras_ops_export("numpy")
def fmax(x1, x2):
    """maximum that ignores a NaN on one side.

    >>> ops.fmax(tf.constant([np.nan, 1.0]), tf.constant([2.0, np.nan]))
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([2., 1.], dtype=float32)>
    """
    return _fmaxmin(tf.maximum)(x1, x2)


@keras_ops_export("numpy")
def fmin(x1, x2):
    """minimum that ignores a NaN on one side."""
    return _fmaxmin(tf.minimum)(x1, x2)


@keras_ops_export("numpy")
def mod(x1, x2):
    """x1 mod x2 with the sign of x2 (Python's %); bool counts as int32.

    >>> ops.mod(tf.constant([-7, 7]), 3)
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([2, 1], dtype=int32)>
    """
    x1, x2 = _strong(x1, x2)
    if x1.dtype.name == "bool":
        x1, x2 = tf.cast(x1, "int32"), tf.cast(x2, "int32")
    return tf.math.floormod(x1, x2)


@keras_ops_export("numpy")
def fmod(x1, x2):
    """x1 mod x2 with the sign of x1 (C's fmod).

    >>> ops.fmod(tf.constant([-7, 7]), 3)
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([-1,  1], dtype=int32)>
    """
    x1, x2 = _strong(x1, x2)
    dtype = "int32" if x1.dtype.name == "bool" else x1.dtype.name
    x1, x2 = tf.cast(x1, dtype), tf.cast(x2, dtype)
    return tf.sign(x1) * tf.math.floormod(tf.abs(x1), tf.abs(x2))


@keras_ops_export("numpy")
def arctan2(x1, x2):
    """The angle of the point (x2, x1), in (-pi, pi].

    >>> ops.arctan2(tf.constant([1.0, 1.0, -1.0]), tf.constant([1.0, -1.0, -1.0]))
    <tf.Tensor: shape=(3,), dtype=float32, numpy=array([ 0.7853982,  2.3561945, -2.3561945], dtype=float32)>
    """
    return tf.math.atan2(*_strong(x1, x2, extra=(float,)))


@keras_ops_export("numpy")
def hypot(x1, x2):
    """sqrt(x1**2 + x2**2), without overflow for large inputs.

    >>> ops.hypot(tf.constant([3.0]), tf.constant([4.0]))
    <tf.Tensor: shape=(1,), dtype=float32, numpy=array([5.], dtype=float32)>
    """
    x1, x2 = _float_pair(x1, x2)
    big, small = tf.maximum(tf.abs(x1), tf.abs(x2)), tf.minimum(tf.abs(x1), tf.abs(x2))
    return big * tf.sqrt(1.0 + tf.square(tf.math.divide_no_nan(small, big)))


@keras_ops_export("numpy")
def logaddexp(x1, x2):
    """log(exp(x1) + exp(x2)), computed without overflow.

    >>> ops.logaddexp(tf.constant([1000.0]), tf.constant([1000.0]))
    <tf.Tensor: shape=(1,), dtype=float32, numpy=array([1000.6932], dtype=float32)>
    """
    x1, x2 = _strong(x1, x2, extra=(float,))
    delta = x1 - x2
    return tf.where(tf.math.is_nan(delta), x1 + x2,
                    tf.maximum(x1, x2) + tf.math.log1p(tf.exp(-tf.abs(delta))))


@keras_ops_export("numpy")
def logaddexp2(x1, x2):
    """log2(2**x1 + 2**x2), computed without overflow."""
    x1, x2 = _strong(x1, x2, extra=(float,))
    delta, ln2 = x1 - x2, tf.constant(math.log(2.0), x1.dtype)
    return tf.where(tf.math.is_nan(delta), x1 + x2,
                    tf.maximum(x1, x2) + tf.math.log1p(tf.exp(-tf.abs(delta) * ln2)) / ln2)


@keras_ops_export("numpy")
def heaviside(x1, x2):
    """0 where x1 < 0, 1 where x1 > 0, x2 where x1 == 0.

    >>> ops.heaviside(tf.constant([-1.0, 0.0, 2.0]), 0.5)
    <tf.Tensor: shape=(3,), dtype=float32, numpy=array([0. , 0.5, 1. ], dtype=float32)>
    """
    x1, x2 = _float_pair(x1, x2)
    return tf.where(x1 < 0, tf.zeros_like(x1), tf.where(x1 > 0, tf.ones_like(x1), x2 + 0 * x1))


@keras_ops_export("numpy")
def isclose(x1, x2, rtol=1e-5, atol=1e-8, equal_nan=False):
    """|x1 - x2| <= atol + rtol * |x2| (exact equality for ints).

    >>> ops.isclose(tf.constant([1.0, 1.1]), tf.constant([1.0 + 1e-7, 1.0]))
    <tf.Tensor: shape=(2,), dtype=bool, numpy=array([ True, False])>
    """
    x1, x2 = _strong(x1, x2)
    if "float" not in x1.dtype.name:
        return tf.equal(x1, x2)
    result = tf.abs(x1 - x2) <= (atol + rtol * tf.abs(x2))
    if equal_nan:
        result = tf.logical_or(result, tf.logical_and(tf.math.is_nan(x1), tf.math.is_nan(x2)))
    return result


@keras_ops_export("numpy")
def allclose(x1, x2, rtol=1e-5, atol=1e-8, equal_nan=False):
    """True if `isclose` holds everywhere.

    >>> ops.allclose(tf.constant([1.0, 2.0]), tf.constant([1.0, 2.0 + 1e-6]))
    <tf.Tensor: shape=(), dtype=bool, numpy=True>
    """
    return tf.reduce_all(isclose(x1, x2, rtol, atol, equal_nan))


# --- logic and bits ------------------------------------------------------------------------

def _logical(name, tf_op):
    def op(x1, x2):
        return tf_op(tf.cast(x1, "bool"), tf.cast(x2, "bool"))

    op.__name__ = op.__qualname__ = name
    op.__doc__ = f"`{name}` of x1 and x2 read as bools (nonzero is True)."
    globals()[name] = keras_ops_export("numpy")(op)


_logical("logical_and", tf.logical_and)
_logical("logical_or", tf.logical_or)
_logical("logical_xor", tf.math.logical_xor)


@keras_ops_export("numpy")
def logical_not(x):
    """not x, with x read as bool.

    >>> ops.logical_not(tf.constant([0, 3]))
    <tf.Tensor: shape=(2,), dtype=bool, numpy=array([ True, False])>
    """
    return tf.logical_not(tf.cast(x, "bool"))


def _bitwise(name, tf_op, aliases=()):
    def op(x, y):
        return tf_op(*_strong(x, y))

    op.__name__ = op.__qualname__ = name
    op.__doc__ = f"`{name}` of integer tensors in their common dtype."
    for public in (name, *aliases):
        globals()[public] = keras_ops_export("numpy", public)(op)


_bitwise("bitwise_and", tf.bitwise.bitwise_and)
_bitwise("bitwise_or", tf.bitwise.bitwise_or)
_bitwise("bitwise_xor", tf.bitwise.bitwise_xor)
_bitwise("bitwise_left_shift",
         lambda x, y: tf.cast(x * tf.pow(tf.cast(2, x.dtype), y), x.dtype), ("left_shift",))
_bitwise("bitwise_right_shift", lambda x, y: tf.math.floordiv(x, tf.pow(tf.cast(2, x.dtype), y)),
         ("right_shift",))


@keras_ops_export("numpy")
def bitwise_invert(x):
    """~x: every bit flipped (-x - 1 for signed ints).

    >>> ops.bitwise_invert(tf.constant([0, 5]))
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([-1, -6], dtype=int32)>
    """
    return tf.bitwise.invert(convert(x))


bitwise_not = keras_ops_export("numpy", "bitwise_not")(bitwise_invert)
