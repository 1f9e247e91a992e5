"""`keras.ops` NaN-ignoring reductions: nansum, nanmean, nanmax, nanmedian, ...

Each treats NaN as missing: `nansum` and `nancumsum` count it as 0,
`nanprod` as 1, `nanmax`/`nanargmax` as -inf, `nanmean`/`nanvar` leave it out
of the count. Integer inputs have no NaN and go straight to the plain op.

>>> import minitf as tf
>>> from minitf.keras import ops
>>> x = tf.constant([1.0, float("nan"), 3.0])
>>> ops.nanmean(x), ops.mean(x)
(<tf.Tensor: shape=(), dtype=float32, numpy=2.0>, <tf.Tensor: shape=(), dtype=float32, numpy=nan>)
"""
import numpy as np

import minitf as tf

from . import reductions
from ._export import keras_ops_export
from .. import ops  # noqa: F401 - the examples below call ops.*
from .dtype_rules import convert, result_type


def _is_float(x):
    return "float" in x.dtype.name


def _fill_nan(x, value):
    return tf.where(tf.math.is_nan(x), tf.constant(value, x.dtype), x)


def _axes(axis):
    return list(axis) if isinstance(axis, (list, tuple)) else axis


@keras_ops_export("numpy")
def nansum(x, axis=None, keepdims=False):
    """The sum, NaN counted as 0."""
    x = convert(x)
    return reductions.sum(_fill_nan(x, 0) if _is_float(x) else x, axis, keepdims)


@keras_ops_export("numpy")
def nanprod(x, axis=None, keepdims=False):
    """The product, NaN counted as 1."""
    x = convert(x)
    return reductions.prod(_fill_nan(x, 1) if _is_float(x) else x, axis, keepdims)


def _count(x, axis, keepdims):
    valid = tf.cast(tf.logical_not(tf.math.is_nan(x)), x.dtype)
    return tf.reduce_sum(valid, axis=_axes(axis), keepdims=keepdims)


@keras_ops_export("numpy")
def nanmean(x, axis=None, keepdims=False):
    """The mean of the non-NaN elements (NaN where there are none).

    >>> ops.nanmean(tf.constant([[1.0, np.nan], [2.0, 4.0]]), axis=1)
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([1., 3.], dtype=float32)>
    """
    x = convert(x)
    if not _is_float(x):
        return reductions.mean(x, axis, keepdims)
    total = tf.reduce_sum(_fill_nan(x, 0), axis=_axes(axis), keepdims=keepdims)
    return total / _count(x, axis, keepdims)


@keras_ops_export("numpy")
def nanvar(x, axis=None, keepdims=False):
    """The variance of the non-NaN elements."""
    x = convert(x)
    if not _is_float(x):
        return reductions.var(x, axis, keepdims)
    mean = nanmean(x, axis, keepdims=True)
    # Fill NaN before subtracting, so no NaN reaches the gradient of the square.
    deviation = tf.where(tf.math.is_nan(x), tf.zeros_like(x), _fill_nan(x, 0) - mean)
    squares = tf.reduce_sum(tf.square(deviation), axis=_axes(axis), keepdims=keepdims)
    return squares / _count(x, axis, keepdims)


@keras_ops_export("numpy")
def nanstd(x, axis=None, keepdims=False):
    """The standard deviation of the non-NaN elements."""
    return tf.sqrt(nanvar(x, axis, keepdims))


def _nan_extreme(reduce, fill):
    def op(x, axis=None, keepdims=False):
        x = convert(x)
        if not _is_float(x):
            return reduce(x, axis, keepdims)
        out = reduce(_fill_nan(x, fill), axis, keepdims)
        all_nan = tf.equal(_count(x, axis, keepdims), 0)
        return tf.where(all_nan, tf.constant(np.nan, x.dtype), out)

    return op


@keras_ops_export("numpy")
def nanmax(x, axis=None, keepdims=False):
    """The largest non-NaN element (NaN if all are NaN)."""
    return _nan_extreme(reductions.max, -np.inf)(x, axis, keepdims)


@keras_ops_export("numpy")
def nanmin(x, axis=None, keepdims=False):
    """The smallest non-NaN element (NaN if all are NaN)."""
    return _nan_extreme(reductions.min, np.inf)(x, axis, keepdims)


@keras_ops_export("numpy")
def nanargmax(x, axis=None, keepdims=False):
    """The index of the largest non-NaN element."""
    x = convert(x)
    return reductions.argmax(_fill_nan(x, -np.inf) if _is_float(x) else x, axis, keepdims)


@keras_ops_export("numpy")
def nanargmin(x, axis=None, keepdims=False):
    """The index of the smallest non-NaN element."""
    x = convert(x)
    return reductions.argmin(_fill_nan(x, np.inf) if _is_float(x) else x, axis, keepdims)


@keras_ops_export("numpy")
def nancumsum(x, axis=None, dtype=None):
    """Running sums, NaN counted as 0."""
    x = convert(x, dtype)
    return reductions.cumsum(_fill_nan(x, 0) if _is_float(x) else x, axis)


@keras_ops_export("numpy")
def nancumprod(x, axis=None, dtype=None):
    """Running products, NaN counted as 1."""
    x = convert(x, dtype)
    return reductions.cumprod(_fill_nan(x, 1) if _is_float(x) else x, axis)


@keras_ops_export("numpy")
def nanquantile(x, q, axis=None, method="linear", keepdims=False):
    """`quantile` of the non-NaN elements of each slice (linear interpolation).

    >>> ops.nanquantile(tf.constant([1.0, np.nan, 3.0, 2.0]), 0.5)
    <tf.Tensor: shape=(), dtype=float32, numpy=2.0>
    """
    x = convert(x)
    x = tf.cast(x, result_type(x.dtype.name, float))
    if method != "linear":
        raise ValueError(f"minitf's nanquantile interpolates linearly. Received: method={method}")
    rank = x.shape.rank
    axes = list(range(rank)) if axis is None else [
        a % rank for a in (axis if isinstance(axis, (list, tuple)) else [axis])]
    keep = [a for a in range(rank) if a not in axes]
    moved = tf.reshape(tf.transpose(x, keep + axes), [x.shape[a] for a in keep] + [-1])
    ordered = tf.sort(_fill_nan(moved, np.inf), axis=-1)  # NaN last
    valid = tf.reduce_sum(tf.cast(tf.logical_not(tf.math.is_nan(moved)), x.dtype), axis=-1,
                          keepdims=True)
    qs = np.asarray(q.numpy() if isinstance(q, tf.Tensor) else q, dtype=np.float64)
    picks = []
    for p in qs.reshape(-1):
        position = tf.constant(p, x.dtype) * (valid - 1)
        below = tf.floor(position)
        lo = tf.gather(ordered, tf.cast(tf.maximum(below, 0), "int32"), batch_dims=len(keep))
        hi = tf.gather(ordered, tf.cast(tf.maximum(tf.math.ceil(position), 0), "int32"),
                       batch_dims=len(keep))
        value = lo + tf.where(tf.equal(lo, hi), tf.zeros_like(lo), (hi - lo) * (position - below))
        picks.append(tf.where(valid > 0, value, tf.constant(np.nan, x.dtype))[..., 0])
    out = tf.reshape(tf.stack(picks, axis=0), list(qs.shape) + [x.shape[a] for a in keep])
    if keepdims:
        for a in sorted(axes):
            out = tf.expand_dims(out, a + qs.ndim)
    return out


@keras_ops_export("numpy")
def nanpercentile(x, q, axis=None, method="linear", keepdims=False):
    """`nanquantile` of q / 100."""
    q = np.asarray(q.numpy() if isinstance(q, tf.Tensor) else q, dtype=np.float64) / 100
    return nanquantile(x, q, axis=axis, method=method, keepdims=keepdims)


@keras_ops_export("numpy")
def nanmedian(x, axis=None, keepdims=False):
    """The median of the non-NaN elements."""
    return nanquantile(x, 0.5, axis=axis, keepdims=keepdims)
