"""`tf.keras.backend` element-wise math, comparisons and reductions (Keras 1/2's names).

Keras 3 keeps these legacy names as thin wrappers over `tf.*`
(keras/src/legacy/backend.py), so each is one line here too. What differs from
`tf.*`: reductions take `(x, axis=None, keepdims=False)` positionally, `mean`,
`std` and `var` of a bool tensor compute in floatx, `all`/`any` cast to bool
first, `sqrt` clips negatives to 0 instead of giving NaN, and `argmax` /
`argmin` default to the last axis.

>>> import minitf as tf
>>> K = tf.keras.backend
>>> K.mean(tf.constant([True, False, True, True]))
<tf.Tensor: shape=(), dtype=float32, numpy=0.75>
>>> K.sqrt(tf.constant([-4.0, 4.0]))
<tf.Tensor: shape=(2,), dtype=float32, numpy=array([0., 2.], dtype=float32)>
"""
import builtins

import numpy as np

import minitf as tf

from ...framework.tf_export import tf_export
from . import _SETTINGS


def _unary(name, fn, doc):
    """Export `keras.backend.<name>(x)` = fn(x)."""
    def op(x):
        return fn(x)
    op.__name__ = op.__qualname__ = name
    op.__doc__ = doc
    return tf_export(f"keras.backend.{name}")(op)


def _binary(name, fn, doc):
    """Export `keras.backend.<name>(x, y)` = fn(x, y)."""
    def op(x, y):
        return fn(x, y)
    op.__name__ = op.__qualname__ = name
    op.__doc__ = doc
    return tf_export(f"keras.backend.{name}")(op)


abs = _unary("abs", tf.abs, "|x| element-wise (tf.abs).")
cos = _unary("cos", tf.cos, "cos(x) element-wise.")
sin = _unary("sin", tf.sin, "sin(x) element-wise.")
exp = _unary("exp", tf.exp, "e**x element-wise.")
log = _unary("log", tf.math.log, "Natural logarithm element-wise.")
round = _unary("round", tf.round, "Round half to even (tf.round).")
sign = _unary("sign", tf.sign, "-1, 0 or 1 element-wise.")
square = _unary("square", tf.square, "x * x element-wise.")
tanh = _unary("tanh", tf.tanh, "tanh(x) element-wise.")
equal = _binary("equal", tf.equal, "x == y element-wise (bool).")
not_equal = _binary("not_equal", tf.not_equal, "x != y element-wise (bool).")
greater = _binary("greater", tf.greater, "x > y element-wise (bool).")
greater_equal = _binary("greater_equal", tf.greater_equal, "x >= y element-wise (bool).")
less = _binary("less", tf.less, "x < y element-wise (bool).")
less_equal = _binary("less_equal", tf.less_equal, "x <= y element-wise (bool).")
maximum = _binary("maximum", tf.maximum, "The larger of x and y element-wise.")
minimum = _binary("minimum", tf.minimum, "The smaller of x and y element-wise.")


@tf_export("keras.backend.pow")
def pow(x, a):
    """x ** a element-wise (tf.pow)."""
    return tf.pow(x, a)


@tf_export("keras.backend.sqrt")
def sqrt(x):
    """sqrt(max(x, 0)): negatives give 0, not NaN."""
    x = tf.convert_to_tensor(x)
    return tf.sqrt(tf.maximum(x, tf.convert_to_tensor(0.0, x.dtype)))


@tf_export("keras.backend.clip")
def clip(x, min_value, max_value):
    """Clip to [min_value, max_value]; None is unbounded, max < min means max = min."""
    numbers = (int, float)
    if isinstance(min_value, numbers) and isinstance(max_value, numbers):
        max_value = builtins.max(min_value, max_value)
    min_value = -np.inf if min_value is None else min_value
    max_value = np.inf if max_value is None else max_value
    return tf.clip_by_value(x, min_value, max_value)


@tf_export("keras.backend.argmax")
def argmax(x, axis=-1):
    """Index (int64) of the largest entry along `axis` (the last by default)."""
    return tf.argmax(x, axis)


@tf_export("keras.backend.argmin")
def argmin(x, axis=-1):
    """Index (int64) of the smallest entry along `axis` (the last by default)."""
    return tf.argmin(x, axis)


@tf_export("keras.backend.all")
def all(x, axis=None, keepdims=False):
    """Logical AND over `axis`, after casting x to bool."""
    return tf.reduce_all(tf.cast(x, tf.bool), axis, keepdims)


@tf_export("keras.backend.any")
def any(x, axis=None, keepdims=False):
    """Logical OR over `axis`, after casting x to bool."""
    return tf.reduce_any(tf.cast(x, tf.bool), axis, keepdims)


@tf_export("keras.backend.sum")
def sum(x, axis=None, keepdims=False):
    """Sum over `axis` (all axes when None)."""
    return tf.reduce_sum(x, axis, keepdims)


@tf_export("keras.backend.prod")
def prod(x, axis=None, keepdims=False):
    """Product over `axis` (all axes when None)."""
    return tf.reduce_prod(x, axis, keepdims)


@tf_export("keras.backend.max")
def max(x, axis=None, keepdims=False):
    """Maximum over `axis` (all axes when None)."""
    return tf.reduce_max(x, axis, keepdims)


@tf_export("keras.backend.min")
def min(x, axis=None, keepdims=False):
    """Minimum over `axis` (all axes when None)."""
    return tf.reduce_min(x, axis, keepdims)


def _floatx_if_bool(x):
    x = tf.convert_to_tensor(x)
    return tf.cast(x, _SETTINGS["floatx"]) if x.dtype == tf.bool else x


@tf_export("keras.backend.mean")
def mean(x, axis=None, keepdims=False):
    """Mean over `axis`; a bool tensor is averaged in floatx (the fraction of True)."""
    return tf.reduce_mean(_floatx_if_bool(x), axis, keepdims)


@tf_export("keras.backend.std")
def std(x, axis=None, keepdims=False):
    """Population standard deviation over `axis` (bool: in floatx)."""
    return tf.math.reduce_std(_floatx_if_bool(x), axis=axis, keepdims=keepdims)


@tf_export("keras.backend.var")
def var(x, axis=None, keepdims=False):
    """Population variance over `axis` (bool: in floatx)."""
    return tf.math.reduce_variance(_floatx_if_bool(x), axis=axis, keepdims=keepdims)


@tf_export("keras.backend.cumsum")
def cumsum(x, axis=0):
    """Running sum along `axis` (the first by default)."""
    return tf.cumsum(x, axis=axis)


@tf_export("keras.backend.cumprod")
def cumprod(x, axis=0):
    """Running product along `axis` (the first by default)."""
    return tf.math.cumprod(x, axis=axis)


del tf_export
