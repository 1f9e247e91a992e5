"""`keras.ops` NumPy functions for counting, searching and signals.

diff, isin, searchsorted, digitize, bincount, histogram, trapezoid, corrcoef,
correlate, unravel_index, argpartition, gcd/lcm, ldexp, nextafter, i0, angle,
the window functions (bartlett, blackman, hamming, hanning, kaiser) and
`vectorize`.

>>> import minitf as tf
>>> from minitf.keras import ops
>>> ops.diff(tf.constant([1, 4, 9, 16]))
<tf.Tensor: shape=(3,), dtype=int32, numpy=array([3, 5, 7], dtype=int32)>
>>> ops.bincount(tf.constant([0, 1, 1, 3]))
<tf.Tensor: shape=(4,), dtype=int32, numpy=array([1, 2, 0, 1], dtype=int32)>
"""
import functools
import math

import numpy as np

import minitf as tf

from ._export import keras_ops_export
from .. import ops  # noqa: F401 - the examples below call ops.*
from .dtype_rules import concrete, convert, promote, result_type


@keras_ops_export("numpy")
def diff(a, n=1, axis=-1):
    """Differences of neighbours along `axis`, `n` times (bool: "changed").

    >>> ops.diff(tf.constant([[1, 3, 6]]), n=2)
    <tf.Tensor: shape=(1, 1), dtype=int32, numpy=array([[1]], dtype=int32)>
    """
    a = convert(a)
    if n < 0:
        raise ValueError(f"Order `n` must be non-negative. Received n={n}")
    if a.shape.rank == 0:
        raise ValueError("`diff` requires input that is at least one dimensional. "
                         f"Received: a={a}")
    axis = axis % a.shape.rank
    later = tuple(slice(1, None) if k == axis else slice(None) for k in range(a.shape.rank))
    earlier = tuple(slice(None, -1) if k == axis else slice(None) for k in range(a.shape.rank))
    for _ in range(n):
        if a.dtype.name == "bool":
            a = tf.not_equal(a[later], a[earlier])
        else:
            a = a[later] - a[earlier]
    return a


@keras_ops_export("numpy")
def isin(x1, x2, assume_unique=False, invert=False):
    """True where an element of x1 occurs anywhere in x2.

    >>> ops.isin(tf.constant([1, 2, 3]), [2, 5])
    <tf.Tensor: shape=(3,), dtype=bool, numpy=array([False,  True, False])>
    """
    x1, x2 = promote(convert(x1), convert(x2))
    flat1, flat2 = tf.reshape(x1, [-1, 1]), tf.reshape(x2, [1, -1])
    found = tf.reduce_any(tf.equal(flat1, flat2), axis=1)
    if invert:
        found = tf.logical_not(found)
    return tf.reshape(found, tf.shape(x1))


@keras_ops_export("numpy")
def searchsorted(sorted_sequence, values, side="left"):
    """Where each value would be inserted into the 1-D sorted sequence to keep it sorted.

    >>> ops.searchsorted(tf.constant([1.0, 2.0, 3.0]), tf.constant([2.0, 2.5]), side="right")
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([2, 2], dtype=int32)>
    """
    sequence, values = convert(sorted_sequence), convert(values)
    if sequence.shape.rank != 1:
        raise ValueError("`searchsorted` only supports 1-D sorted sequences. You can use "
                         "`keras.ops.vectorized_map` to extend it to N-D sequences. Received: "
                         f"sorted_sequence.shape={sequence.shape}")
    if side not in ("left", "right"):
        raise ValueError(f"`side` must be 'left' or 'right'. Received: side={side}")
    compare = tf.less if side == "left" else tf.less_equal
    below = compare(tf.reshape(sequence, [1, -1]),
                    tf.cast(tf.reshape(values, [-1, 1]), sequence.dtype))
    counts = tf.reduce_sum(tf.cast(below, "int32"), axis=1)
    return tf.reshape(counts, tf.shape(values))


@keras_ops_export("numpy")
def digitize(x, bins):
    """The index of the bin each value falls in (bins[i-1] <= x < bins[i]).

    >>> ops.digitize(tf.constant([0.5, 1.0, 2.5]), [1.0, 2.0])
    <tf.Tensor: shape=(3,), dtype=int32, numpy=array([0, 1, 2], dtype=int32)>
    """
    x = convert(x)
    edges = tf.constant([float(b) for b in bins], "float64")
    return tf.reshape(searchsorted(edges, tf.cast(x, "float64"), side="right"), tf.shape(x))


@keras_ops_export("numpy")
def bincount(x, weights=None, minlength=0, sparse=False):
    """How often each non-negative int occurs (summing `weights` instead, if given).

    On a 2-D x each row is counted separately.
    """
    if sparse:
        raise NotImplementedError("minitf's bincount has no sparse=True output.")
    x = tf.cast(convert(x), "int32")
    values = concrete(x, "bincount", "(The output's length is the largest "
                      "value + 1.) Call it outside tf.function, or use "
                      "ops.one_hot(x, depth) summed over axis -2 with a fixed depth.")
    length = max(int(values.max()) + 1 if values.size else 0, minlength)
    encoded = tf.one_hot(x, length, dtype="int32")
    if weights is None:
        return tf.reduce_sum(encoded, axis=-2)
    weights = convert(weights)
    dtype = result_type(x.dtype.name, weights.dtype.name)
    weighted = tf.cast(encoded, dtype) * tf.expand_dims(tf.cast(weights, dtype), -1)
    return tf.reduce_sum(weighted, axis=-2)


@keras_ops_export("numpy")
def histogram(x, bins=10, range=None):  # noqa: A002 - NumPy's argument name
    """(counts, bin edges) of the values of a 1-D x in `bins` equal bins."""
    x = convert(x)
    low, high = (tf.reduce_min(x), tf.reduce_max(x)) if range is None else (
        tf.constant(range[0], x.dtype), tf.constant(range[1], x.dtype))
    inside = tf.boolean_mask(x, tf.logical_and(x >= low, x <= high))
    compute = "float64" if x.dtype.name == "float64" else "float32"
    low, high = tf.cast(low, compute), tf.cast(high, compute)
    step = (high - low) / bins  # as tf.linspace: start + k * step
    edges = tf.cast(low + tf.constant(np.arange(bins + 1), compute) * step, x.dtype)
    index = searchsorted(edges[1:-1], inside, side="right")
    counts = tf.reduce_sum(tf.one_hot(index, bins, dtype=x.dtype), axis=0)
    return counts, edges


@keras_ops_export("numpy")
def trapezoid(y, x=None, dx=1.0, axis=-1):
    """The trapezoid-rule integral of y along `axis` (spacing x's differences, or dx).

    >>> ops.trapezoid(tf.constant([1.0, 2.0, 3.0]))
    <tf.Tensor: shape=(), dtype=float32, numpy=4.0>
    """
    y = convert(y)
    y = tf.cast(y, result_type(y.dtype.name, float))
    steps = tf.cast(dx, y.dtype) if x is None else diff(convert(x, y.dtype), axis=axis)
    later = tuple(slice(1, None) if k == axis % y.shape.rank else slice(None)
                  for k in range(y.shape.rank))
    earlier = tuple(slice(None, -1) if k == axis % y.shape.rank else slice(None)
                    for k in range(y.shape.rank))
    return tf.reduce_sum(0.5 * (y[later] + y[earlier]) * steps, axis=axis)


@keras_ops_export("numpy")
def corrcoef(x):
    """The Pearson correlation matrix of the rows of x.

    >>> ops.corrcoef(tf.constant([[1.0, 2.0, 3.0], [3.0, 2.0, 1.0]]))
    <tf.Tensor: shape=(2, 2), dtype=float32, numpy=
    array([[ 1., -1.],
           [-1.,  1.]], dtype=float32)>
    """
    x = convert(x)
    dtype = x.dtype.name
    if dtype in ("bool", "int8", "int16", "int32", "uint8", "uint16", "uint32"):
        x = tf.cast(x, tf.keras.backend.floatx())
    centered = x - tf.reduce_mean(x, axis=-1, keepdims=True)
    n = tf.cast(tf.shape(x)[-1], x.dtype)
    cov = tf.matmul(centered, centered, transpose_b=True) / (n - 1)
    std = tf.sqrt(tf.linalg.diag_part(cov))
    return tf.clip_by_value(cov / (tf.expand_dims(std, 1) * tf.expand_dims(std, 0)), -1.0, 1.0)


@keras_ops_export("numpy")
def correlate(x1, x2, mode="valid"):
    """sum_k x1[n + k] * x2[k] of two 1-D signals ('valid', 'same' or 'full' length)."""
    x1, x2 = convert(x1), convert(x2)
    dtype = result_type(x1.dtype.name, x2.dtype.name)
    dtype = "float64" if dtype == "int64" else (
        dtype if dtype in ("float16", "float64") else "float32")
    x1, x2 = tf.cast(x1, dtype), tf.cast(x2, dtype)
    n, m = x1.shape[0], x2.shape[0]
    if mode == "valid" and n < m:
        raise ValueError("minitf's correlate in mode 'valid' needs len(x1) >= len(x2).")
    pad = {"valid": (0, 0), "full": (m - 1, m - 1), "same": (m // 2, m - 1 - m // 2)}
    if mode not in pad:
        raise ValueError(f"Invalid mode: '{mode}'. Mode must be one of: 'full', 'same', "
                         "'valid'.")
    padded = tf.pad(x1, [pad[mode]])
    out = tf.nn.convolution(tf.reshape(padded, [1, -1, 1]), tf.reshape(x2, [m, 1, 1]),
                            padding="VALID")
    return tf.reshape(out, [-1])


@keras_ops_export("numpy")
def unravel_index(indices, shape):
    """Flat indices to a tuple of coordinate tensors for an array of `shape`.

    >>> ops.unravel_index(tf.constant([5, 7]), (2, 4))
    (<tf.Tensor: shape=(2,), dtype=int32, numpy=array([1, 1], dtype=int32)>, <tf.Tensor: shape=(2,), dtype=int32, numpy=array([1, 3], dtype=int32)>)
    """
    if None in shape:
        raise ValueError(f"`shape` argument cannot contain `None`. Received: shape={shape}")
    indices = convert(indices)
    coords = []
    for dim in reversed(shape):
        coords.append(tf.math.floormod(indices, dim))
        indices = tf.math.floordiv(indices, dim)
    return tuple(reversed(coords))


@keras_ops_export("numpy")
def argpartition(x, kth, axis=-1):
    """Indices that put the kth smallest element in place, smaller ones before it.

    minitf returns a full argsort (stable), one valid partition among many.
    """
    x = convert(x)
    if axis is None:
        x, axis = tf.reshape(x, [-1]), 0
    return tf.argsort(x, axis=axis, stable=True)


def _integer_pair(x1, x2, name):
    x1, x2 = promote(convert(x1), convert(x2))
    if "int" not in x1.dtype.name:
        raise TypeError(f"Arguments to {name} must be integers.")
    shape = tf.broadcast_static_shape(x1.shape, x2.shape)
    return tf.broadcast_to(x1, shape), tf.broadcast_to(x2, shape)


@keras_ops_export("numpy")
def gcd(x1, x2):
    """The greatest common divisor, element by element (Euclid's algorithm in a while_loop).

    >>> ops.gcd(tf.constant([12, 7]), tf.constant([18, 0]))
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([6, 7], dtype=int32)>
    """
    a, b = _integer_pair(x1, x2, "gcd")

    def body(a, b):
        safe = tf.where(tf.equal(b, 0), tf.ones_like(b), b)
        return tf.where(tf.equal(b, 0), a, b), tf.where(tf.equal(b, 0), b,
                                                      tf.math.floormod(a, safe))

    a, _ = tf.while_loop(lambda a, b: tf.reduce_any(tf.not_equal(b, 0)), body, (a, b))
    return tf.abs(a)


@keras_ops_export("numpy")
def lcm(x1, x2):
    """The least common multiple, element by element (0 if either is 0)."""
    a, b = _integer_pair(x1, x2, "lcm")
    divisor = gcd(a, b)
    safe = tf.where(tf.equal(divisor, 0), tf.ones_like(divisor), divisor)
    return tf.abs(tf.where(tf.equal(divisor, 0), tf.zeros_like(a), a // safe * b))


@keras_ops_export("numpy")
def ldexp(x1, x2):
    """x1 * 2 ** x2, for an integer exponent x2.

    >>> ops.ldexp(tf.constant([1.5, 3.0]), tf.constant([2, -1]))
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([6. , 1.5], dtype=float32)>
    """
    x1, x2 = convert(x1), convert(x2)
    if "int" not in x2.dtype.name:
        raise TypeError(f"ldexp exponent must be an integer type. Received: x2 dtype={x2.dtype}")
    dtype = result_type(x1.dtype.name, x2.dtype.name, float)
    x1 = tf.cast(x1, dtype)
    result = x1 * tf.pow(tf.constant(2.0, dtype), tf.cast(x2, dtype))
    return tf.where(tf.logical_or(tf.math.is_inf(x1), tf.equal(x1, 0)), x1, result)


@keras_ops_export("numpy")
def nextafter(x1, x2):
    """The next representable float after x1 towards x2 (computed in float64, as Keras)."""
    x1, x2 = convert(x1), convert(x2)
    dtype = result_type(x1.dtype.name, x2.dtype.name, float)
    hint = "(minitf steps to the next float with NumPy.) Call it outside tf.function."
    x1 = concrete(tf.cast(x1, "float64"), "nextafter", hint)
    x2 = concrete(tf.cast(x2, "float64"), "nextafter", hint)
    return tf.cast(tf.constant(np.nextafter(x1, x2)), dtype)


@keras_ops_export("numpy")
def i0(x):
    """The modified Bessel function of the first kind, order 0 (power series).

    >>> ops.i0(tf.constant([0.0, 1.0])).numpy().round(4)
    array([1.    , 1.2661], dtype=float32)
    """
    x = convert(x)
    dtype = "float64" if x.dtype.name in ("int64", "float64") else (
        x.dtype.name if x.dtype.name == "float16" else tf.keras.backend.floatx())
    x = tf.cast(x, "float64")
    quarter = tf.square(x) / 4
    term, total = tf.ones_like(x), tf.ones_like(x)
    for k in range(1, 60):  # converges for |x| < ~30 in float64
        term = term * quarter / (k * k)
        total = total + term
    return tf.cast(total, dtype)


@keras_ops_export("numpy")
def angle(x):
    """The complex argument (0 or pi for real numbers)."""
    x = convert(x)
    if "complex" in x.dtype.name:
        return tf.math.atan2(tf.math.imag(x), tf.math.real(x))
    dtype = "float64" if x.dtype.name == "float64" else (
        "float16" if x.dtype.name == "float16" else tf.keras.backend.floatx())
    x = tf.cast(x, dtype)
    return tf.where(x < 0, tf.constant(math.pi, dtype), tf.zeros_like(x))


def _window(name, formula):
    def op(x):
        n = int(convert(x).numpy())
        k = np.arange(n, dtype=np.float64)
        values = np.ones(n) if n == 1 else formula(k, n)
        return tf.constant(values.astype(tf.keras.backend.floatx()))

    op.__name__ = op.__qualname__ = name
    op.__doc__ = f"NumPy's `{name}` window of x points, as float32."
    globals()[name] = keras_ops_export("numpy")(op)


_window("bartlett", lambda k, n: 1 - np.abs(2 * k / (n - 1) - 1))
_window("hamming", lambda k, n: 0.54 - 0.46 * np.cos(2 * np.pi * k / (n - 1)))
_window("hanning", lambda k, n: 0.5 - 0.5 * np.cos(2 * np.pi * k / (n - 1)))
_window("blackman", lambda k, n: 0.42 - 0.5 * np.cos(2 * np.pi * k / (n - 1))
        + 0.08 * np.cos(4 * np.pi * k / (n - 1)))


@keras_ops_export("numpy")
def kaiser(x, beta):
    """NumPy's Kaiser window of x points with shape parameter `beta`."""
    n = int(convert(x).numpy())
    if n == 1:
        return tf.ones([1], tf.keras.backend.floatx())
    k = np.arange(n, dtype=np.float64)
    ratio = 2 * k / (n - 1) - 1
    values = np.i0(beta * np.sqrt(1 - ratio ** 2)) / np.i0(float(beta))
    return tf.constant(values.astype(tf.keras.backend.floatx()))


@keras_ops_export("numpy")
def vectorize(pyfunc, *, excluded=None, signature=None):
    """`pyfunc` applied to each element of its (broadcast) tensor arguments.

    >>> ops.vectorize(lambda a, b: a * b + 1)(tf.constant([1, 2]), tf.constant([3, 4]))
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([4, 9], dtype=int32)>
    """
    if excluded or signature:
        raise NotImplementedError("minitf's vectorize maps element by element; `excluded` and "
                                  "`signature` are not supported (use ops.vectorized_map).")

    @functools.wraps(pyfunc)
    def wrapped(*args):
        tensors = [convert(a) for a in args]
        shape = functools.reduce(tf.broadcast_static_shape, [t.shape for t in tensors])
        flat = [tf.reshape(tf.broadcast_to(t, shape), [-1]) for t in tensors]
        results = [convert(pyfunc(*(f[k] for f in flat))) for k in range(shape.num_elements())]
        return tf.reshape(tf.stack(results), shape)  # one call per element, unrolled

    return wrapped
