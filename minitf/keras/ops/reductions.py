"""`keras.ops` reductions, scans and sorting: sum, mean, max, argmax, cumsum, sort, ...

NumPy's conventions: `axis=None` reduces (or, for `cumsum`/`argmax`, first
flattens) everything. Keras's dtype rules: `sum` of int8/int16/bool is int32
(uint8/uint16: uint32) so small ints do not overflow; `mean`, `var`, `std` and
`median` of ints are float32; float16 is averaged in float32 and cast back.

>>> import minitf as tf
>>> from minitf.keras import ops
>>> ops.sum(tf.constant([100, 100], tf.int8))       # tf.reduce_sum would wrap to -56
<tf.Tensor: shape=(), dtype=int32, numpy=200>
>>> ops.mean(tf.constant([1, 2]))                   # tf.reduce_mean gives int32 1
<tf.Tensor: shape=(), dtype=float32, numpy=1.5>
"""

import numpy as np

import minitf as tf

from ._export import keras_ops_export
from .. import ops  # noqa: F401 - the examples below call ops.*
from .dtype_rules import convert, result_type


def _flat(x, axis):
    return (tf.reshape(x, [-1]), 0) if axis is None else (x, axis)


def _as_tuple(axis):
    return list(axis) if isinstance(axis, (list, tuple)) else axis


@keras_ops_export("numpy")
def sum(x, axis=None, keepdims=False):  # noqa: A001 - NumPy's name
    """The sum over `axis` (all axes if None).

    >>> ops.sum(tf.constant([[1, 2], [3, 4]]), axis=0)
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([4, 6], dtype=int32)>
    """
    x = convert(x)
    dtype = x.dtype.name
    dtype = {"bool": "int32", "int8": "int32", "int16": "int32",
             "uint8": "uint32", "uint16": "uint32"}.get(dtype, dtype)
    return tf.reduce_sum(tf.cast(x, dtype), axis=_as_tuple(axis), keepdims=keepdims)


@keras_ops_export("numpy")
def prod(x, axis=None, keepdims=False, dtype=None):
    """The product over `axis` (small ints and bool widened as in `sum`)."""
    x = convert(x)
    if dtype is None:
        dtype = x.dtype.name
        dtype = {"bool": "int32", "int8": "int32", "int16": "int32",
                 "uint8": "uint32", "uint16": "uint32"}.get(dtype, dtype)
    return tf.reduce_prod(tf.cast(x, dtype), axis=_as_tuple(axis), keepdims=keepdims)


def _float_reduce(reduce):
    """Reduce in float32 or wider, return result_type(x, float) (int -> float32)."""
    def op(x, axis=None, keepdims=False):
        x = convert(x)
        compute = result_type(x.dtype.name, "float32")
        result = result_type(x.dtype.name, float)
        return tf.cast(reduce(tf.cast(x, compute), axis=_as_tuple(axis), keepdims=keepdims),
                       result)

    return op


@keras_ops_export("numpy")
def mean(x, axis=None, keepdims=False):
    """The average over `axis`; float32 for int inputs.

    >>> ops.mean(tf.constant([[1.0, 2.0], [3.0, 5.0]]), axis=1)
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([1.5, 4. ], dtype=float32)>
    """
    return _float_reduce(tf.reduce_mean)(x, axis, keepdims)


@keras_ops_export("numpy")
def var(x, axis=None, keepdims=False):
    """The (population) variance over `axis`."""
    return _float_reduce(tf.math.reduce_variance)(x, axis, keepdims)


@keras_ops_export("numpy")
def std(x, axis=None, keepdims=False):
    """The (population) standard deviation over `axis`.

    >>> ops.std(tf.constant([1, 3]))
    <tf.Tensor: shape=(), dtype=float32, numpy=1.0>
    """
    return _float_reduce(tf.math.reduce_std)(x, axis, keepdims)


def _extreme(reduce, bool_reduce, pick):
    def op(x, axis=None, keepdims=False, initial=None):
        x = convert(x)
        axis = _as_tuple(axis)
        if x.dtype.name == "bool":
            out = bool_reduce(x, axis=axis, keepdims=keepdims)
            if initial is not None:
                out = tf.cast(pick(tf.cast(out, "int32"), tf.cast(initial, "int32")), "bool")
            return out
        out = reduce(x, axis=axis, keepdims=keepdims)
        return out if initial is None else pick(out, tf.cast(initial, out.dtype))

    return op


@keras_ops_export("numpy")
def max(x, axis=None, keepdims=False, initial=None):  # noqa: A001 - NumPy's name
    """The largest element over `axis` (and `initial`, if given).

    >>> ops.max(tf.constant([[1, 5], [3, 2]]), axis=1)
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([5, 3], dtype=int32)>
    """
    return _extreme(tf.reduce_max, tf.reduce_any, tf.maximum)(x, axis, keepdims, initial)


@keras_ops_export("numpy")
def min(x, axis=None, keepdims=False, initial=None):  # noqa: A001 - NumPy's name
    """The smallest element over `axis` (and `initial`, if given)."""
    return _extreme(tf.reduce_min, tf.reduce_all, tf.minimum)(x, axis, keepdims, initial)


amax = keras_ops_export("numpy", "amax")(max)
amin = keras_ops_export("numpy", "amin")(min)


@keras_ops_export("numpy")
def ptp(x, axis=None, keepdims=False):
    """max - min over `axis` ("peak to peak")."""
    return tf.subtract(max(x, axis, keepdims), min(x, axis, keepdims))


@keras_ops_export("numpy")
def all(x, axis=None, keepdims=False):  # noqa: A001 - NumPy's name
    """True if every element (read as bool) is True."""
    return tf.reduce_all(tf.cast(x, "bool"), axis=_as_tuple(axis), keepdims=keepdims)


@keras_ops_export("numpy")
def any(x, axis=None, keepdims=False):  # noqa: A001 - NumPy's name
    """True if some element (read as bool) is True."""
    return tf.reduce_any(tf.cast(x, "bool"), axis=_as_tuple(axis), keepdims=keepdims)


@keras_ops_export("numpy")
def count_nonzero(x, axis=None):
    """How many elements are not zero, as int32."""
    return tf.math.count_nonzero(convert(x), axis=_as_tuple(axis), dtype="int32")


@keras_ops_export()
def logsumexp(x, axis=None, keepdims=False):
    """log(sum(exp(x))) over `axis`, computed without overflow."""
    return tf.reduce_logsumexp(convert(x), axis=_as_tuple(axis), keepdims=keepdims)


@keras_ops_export("numpy")
def average(x, axis=None, weights=None):
    """The mean, weighted by `weights` (1-D weights along `axis`, or x's shape).

    >>> ops.average(tf.constant([1.0, 2.0, 3.0]), weights=tf.constant([3.0, 1.0, 0.0]))
    <tf.Tensor: shape=(), dtype=float32, numpy=1.25>
    """
    x = convert(x)
    if weights is None:
        return tf.reduce_mean(tf.cast(x, result_type(x.dtype.name, float)), axis=axis)
    weights = convert(weights)
    dtype = result_type(x.dtype.name, weights.dtype.name, float)
    x, weights = tf.cast(x, dtype), tf.cast(weights, dtype)
    if axis is None or x.shape.rank == weights.shape.rank:
        return tf.reduce_sum(x * weights, axis=axis) / tf.reduce_sum(weights, axis=axis)
    return tf.tensordot(x, weights, [[axis], [0]]) / tf.reduce_sum(weights)


def _arg(tf_arg, name):
    def op(x, axis=None, keepdims=False):
        x = convert(x)
        if "float" in x.dtype.name and x.shape.rank:  # -0.0 counts as below 0.0, as in NumPy
            negative_zero = tf.logical_and(tf.equal(x, 0.0), 1 / x < 0)
            x = tf.where(negative_zero, tf.constant(-np.finfo(x.dtype.name).tiny, x.dtype), x)
        flat, ax = _flat(x, axis)
        y = tf_arg(flat, axis=ax, output_type="int32")
        if keepdims:
            y = (tf.reshape(y, [1] * x.shape.rank) if axis is None
                 else tf.expand_dims(y, axis))
        return y

    op.__name__ = op.__qualname__ = name
    return op


@keras_ops_export("numpy")
def argmax(x, axis=None, keepdims=False):
    """The index of the largest element along `axis` (of the flattened x if None).

    >>> ops.argmax(tf.constant([[1, 9], [8, 2]]), axis=1)
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([1, 0], dtype=int32)>
    """
    return _arg(tf.argmax, "argmax")(x, axis, keepdims)


@keras_ops_export("numpy")
def argmin(x, axis=None, keepdims=False):
    """The index of the smallest element along `axis` (of the flattened x if None)."""
    return _arg(tf.argmin, "argmin")(x, axis, keepdims)


@keras_ops_export("numpy")
def cumsum(x, axis=None, dtype=None):
    """Running sums along `axis` (of the flattened x if None).

    >>> ops.cumsum(tf.constant([[1, 2], [3, 4]]))
    <tf.Tensor: shape=(4,), dtype=int32, numpy=array([ 1,  3,  6, 10], dtype=int32)>
    """
    x = convert(x, dtype)
    if x.dtype.name == "bool":
        x = tf.cast(x, "int32")
    return tf.math.cumsum(*_flat(x, axis))


@keras_ops_export("numpy")
def cumprod(x, axis=None, dtype=None):
    """Running products along `axis` (of the flattened x if None)."""
    x = convert(x, dtype)
    if x.dtype.name == "bool":
        x = tf.cast(x, "int32")
    return tf.math.cumprod(*_flat(x, axis))


@keras_ops_export("numpy")
def sort(x, axis=-1):
    """The values sorted ascending along `axis` (flattened if None).

    >>> ops.sort(tf.constant([3, 1, 2]))
    <tf.Tensor: shape=(3,), dtype=int32, numpy=array([1, 2, 3], dtype=int32)>
    """
    x = convert(x)
    x, axis = _flat(x, axis)
    if x.dtype.name == "bool":
        return tf.cast(tf.sort(tf.cast(x, "int8"), axis=axis), "bool")
    return tf.sort(x, axis=axis)


@keras_ops_export("numpy")
def argsort(x, axis=-1):
    """The indices that sort `x` along `axis` (int32)."""
    x = convert(x)
    if x.dtype.name == "bool":
        x = tf.cast(x, "uint8")
    if x.shape.rank == 0:
        return tf.constant([0], "int32")
    return tf.argsort(*_flat(x, axis), stable=True)


@keras_ops_export("numpy")
def quantile(x, q, axis=None, method="linear", keepdims=False):
    """The q-th quantiles (q in [0, 1]) over `axis`, interpolating as NumPy's `method`.

    >>> ops.quantile(tf.constant([1.0, 2.0, 3.0, 4.0]), 0.5)
    <tf.Tensor: shape=(), dtype=float32, numpy=2.5>
    """
    x = convert(x)
    x = tf.cast(x, result_type(x.dtype.name, float))
    rank = x.shape.rank
    axes = list(range(rank)) if axis is None else [
        a % rank for a in (axis if isinstance(axis, (list, tuple)) else [axis])]
    keep = [a for a in range(rank) if a not in axes]
    moved = tf.transpose(x, keep + axes)
    moved = tf.reshape(moved, [x.shape[a] for a in keep] + [-1])
    ordered = tf.sort(moved, axis=-1)
    n = ordered.shape[-1]
    qs = np.asarray(q.numpy() if isinstance(q, tf.Tensor) else q, dtype=np.float64)
    picks = [_interpolate(ordered, float(p) * (n - 1), method) for p in qs.reshape(-1)]
    out = tf.stack(picks, axis=0)
    out = tf.reshape(out, list(qs.shape) + out.shape.as_list()[1:])
    if keepdims:
        for a in sorted(axes):
            out = tf.expand_dims(out, a + qs.ndim)
    return out


def _interpolate(ordered, position, method):
    below, above = int(np.floor(position)), int(np.ceil(position))
    lo, hi = ordered[..., below], ordered[..., above]
    if method == "lower":
        return lo
    if method == "higher":
        return hi
    if method == "nearest":
        return ordered[..., int(np.round(position))]
    if method == "midpoint":
        return (lo + hi) / 2
    if method == "linear":
        return lo + (hi - lo) * tf.cast(position - below, lo.dtype)
    raise ValueError("Invalid value of `method`: expected one of 'linear', 'lower', "
                     f"'higher', 'midpoint', 'nearest'. Received: method={method}")


@keras_ops_export("numpy")
def percentile(x, q, axis=None, method="linear", keepdims=False):
    """The q-th percentiles (q in [0, 100]); `quantile` of q / 100."""
    q = np.asarray(q.numpy() if isinstance(q, tf.Tensor) else q, dtype=np.float64) / 100
    return quantile(x, q, axis=axis, method=method, keepdims=keepdims)


@keras_ops_export("numpy")
def median(x, axis=None, keepdims=False):
    """The middle value over `axis` (the mean of the two middle ones for even counts).

    >>> ops.median(tf.constant([3, 1, 4, 2]))
    <tf.Tensor: shape=(), dtype=float32, numpy=2.5>
    """
    return quantile(x, 0.5, axis=axis, keepdims=keepdims)


@keras_ops_export()
def top_k(x, k, sorted=True):  # noqa: A002 - TF's argument name
    """The k largest values along the last axis and their indices (`tf.math.top_k`)."""
    return tf.math.top_k(convert(x), k=k, sorted=sorted)


@keras_ops_export()
def in_top_k(targets, predictions, k):
    """True where the target class is among the k largest predictions of its row."""
    predictions = convert(predictions)
    targets = convert(targets)
    target_values = tf.gather(predictions, tf.cast(targets, "int32"), batch_dims=1)
    larger = tf.reduce_sum(tf.cast(predictions > tf.expand_dims(target_values, -1), "int32"),
                           axis=-1)
    return tf.logical_and(larger < k, tf.math.is_finite(target_values))


