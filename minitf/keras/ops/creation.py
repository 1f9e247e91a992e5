"""`keras.ops` tensor creation and matrix structure: arange, linspace, zeros, eye, tril, ...

Defaults follow Keras, not NumPy: `ops.zeros`, `ops.eye` and `ops.full`
are `floatx()` (float32), and `arange`'s dtype comes from its arguments by
`result_type` (Python ints give int32, not NumPy's int64).

>>> import minitf as tf
>>> from minitf.keras import ops
>>> ops.arange(0, 1, 0.25)
<tf.Tensor: shape=(4,), dtype=float32, numpy=array([0.  , 0.25, 0.5 , 0.75], dtype=float32)>
>>> ops.eye(2, 3, k=1)
<tf.Tensor: shape=(2, 3), dtype=float32, numpy=
array([[0., 1., 0.],
       [0., 0., 1.]], dtype=float32)>
"""
import numpy as np

import minitf as tf

from ._export import keras_ops_export
from .. import ops  # noqa: F401 - the examples below call ops.*
from .dtype_rules import convert, dtype_of, result_type, standardize_dtype


def _floatx_or(dtype):
    return standardize_dtype(dtype or tf.keras.backend.floatx())


@keras_ops_export("numpy")
def arange(start, stop=None, step=None, dtype=None):
    """start, start + step, ... up to (not including) stop; one argument is `stop`.

    >>> ops.arange(4)
    <tf.Tensor: shape=(4,), dtype=int32, numpy=array([0, 1, 2, 3], dtype=int32)>
    """
    if dtype is None:
        dtype = result_type(*(dtype_of(v) for v in (start, stop, step) if v is not None))
    dtype = standardize_dtype(dtype)
    return tf.range(start, stop, delta=1 if step is None else step, dtype=dtype)


@keras_ops_export("numpy")
def linspace(start, stop, num=50, endpoint=True, retstep=False, dtype=None, axis=0):
    """`num` evenly spaced values from start to stop (stop left out if not endpoint).

    >>> ops.linspace(0, 1, 5)
    <tf.Tensor: shape=(5,), dtype=float32, numpy=array([0.  , 0.25, 0.5 , 0.75, 1.  ], dtype=float32)>
    """
    if num < 0:
        raise ValueError(f"`num` must be a non-negative integer. Received: num={num}")
    dtype = standardize_dtype(dtype) if dtype is not None else result_type(
        dtype_of(start), dtype_of(stop), float)
    compute = dtype if "float" in dtype else tf.keras.backend.floatx()
    start, stop = convert(start, compute), convert(stop, compute)
    divisions = (num - 1) if endpoint else num
    step = (stop - start) / divisions if divisions > 0 else tf.constant(np.nan, compute)
    index = tf.cast(tf.range(num), compute)
    shape = [num] + [1] * start.shape.rank
    result = start + tf.reshape(index, shape) * step
    if endpoint and num > 1:  # the last value is exactly `stop`
        result = tf.concat([result[:-1], tf.expand_dims(stop, 0)], axis=0)
    if axis != 0:
        result = _move_first(result, axis)
    result = tf.cast(result, dtype)
    return (result, step) if retstep else result


def _move_first(x, axis):
    rank = x.shape.rank
    axis = axis % rank
    perm = list(range(1, axis + 1)) + [0] + list(range(axis + 1, rank))
    return tf.transpose(x, perm)


@keras_ops_export("numpy")
def logspace(start, stop, num=50, endpoint=True, base=10, dtype=None, axis=0):
    """base ** linspace(start, stop, num).

    >>> ops.logspace(0, 2, 3)
    <tf.Tensor: shape=(3,), dtype=float32, numpy=array([  1.,  10., 100.], dtype=float32)>
    """
    result = linspace(start, stop, num, endpoint=endpoint, dtype=dtype, axis=axis)
    return tf.pow(tf.cast(base, result.dtype), result)


@keras_ops_export("numpy")
def geomspace(start, stop, num=50, endpoint=True, dtype=None, axis=0):
    """`num` values from start to stop, evenly spaced on a log scale."""
    dtype = standardize_dtype(dtype) if dtype is not None else result_type(
        dtype_of(start), dtype_of(stop), float)
    start, stop = convert(start, dtype), convert(stop, dtype)
    logs = linspace(tf.math.log(start), tf.math.log(stop), num, endpoint=endpoint, axis=axis)
    return tf.cast(tf.exp(logs), dtype)


@keras_ops_export("numpy")
def zeros(shape, dtype=None):
    """A tensor of zeros (float32 by default)."""
    return tf.zeros(shape, dtype=_floatx_or(dtype))


@keras_ops_export("numpy")
def ones(shape, dtype=None):
    """A tensor of ones (float32 by default)."""
    return tf.ones(shape, dtype=_floatx_or(dtype))


@keras_ops_export("numpy")
def empty(shape, dtype=None):
    """A tensor of `shape` (zeros: tensors cannot be uninitialised)."""
    return tf.zeros(shape, dtype=_floatx_or(dtype))


@keras_ops_export("numpy")
def full(shape, fill_value, dtype=None):
    """A tensor of `shape` filled with `fill_value` (float32 by default).

    >>> ops.full((2,), 7)
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([7., 7.], dtype=float32)>
    """
    return tf.broadcast_to(convert(fill_value, _floatx_or(dtype)), shape)


@keras_ops_export("numpy")
def zeros_like(x, dtype=None):
    """Zeros with x's shape (and dtype, unless given)."""
    x = convert(x)
    return tf.zeros_like(x, dtype=standardize_dtype(dtype) if dtype else None)


@keras_ops_export("numpy")
def ones_like(x, dtype=None):
    """Ones with x's shape (and dtype, unless given)."""
    x = convert(x)
    return tf.ones_like(x, dtype=standardize_dtype(dtype) if dtype else None)


@keras_ops_export("numpy")
def empty_like(x, dtype=None):
    """A tensor like x (zeros)."""
    return zeros_like(x, dtype)


@keras_ops_export("numpy")
def full_like(x, fill_value, dtype=None):
    """x's shape filled with `fill_value`, in x's dtype unless given."""
    x = convert(x)
    dtype = standardize_dtype(dtype or x.dtype)
    return tf.broadcast_to(convert(fill_value, dtype), tf.shape(x))


@keras_ops_export("numpy")
def array(x, dtype=None):
    """A tensor of x (Keras's `convert_to_tensor`)."""
    return convert(x, dtype)


@keras_ops_export("numpy")
def eye(N, M=None, k=0, dtype=None):
    """Ones on the k-th diagonal of an N x M matrix (float32 by default)."""
    M = N if M is None else M
    rows, cols = np.indices((N, M))
    return tf.constant((cols - rows == k).astype(_floatx_or(dtype)))


@keras_ops_export("numpy")
def identity(n, dtype=None):
    """The n x n identity matrix (float32 by default)."""
    return eye(n, n, dtype=dtype)


@keras_ops_export("numpy")
def tri(N, M=None, k=0, dtype=None):
    """Ones at and below the k-th diagonal of an N x M matrix.

    >>> ops.tri(3, dtype="int32")
    <tf.Tensor: shape=(3, 3), dtype=int32, numpy=
    array([[1, 0, 0],
           [1, 1, 0],
           [1, 1, 1]], dtype=int32)>
    """
    M = N if M is None else M
    rows, cols = np.indices((N, M))
    return tf.constant((cols - rows <= k).astype(_floatx_or(dtype)))


def _band_mask(x, k, lower):
    rows, cols = np.indices(x.shape.as_list()[-2:])
    keep = (cols - rows <= k) if lower else (cols - rows >= k)
    return tf.where(tf.constant(keep), x, tf.zeros_like(x))


@keras_ops_export("numpy")
def tril(x, k=0):
    """x with everything above the k-th diagonal set to 0 (last two axes)."""
    return _band_mask(convert(x), k, lower=True)


@keras_ops_export("numpy")
def triu(x, k=0):
    """x with everything below the k-th diagonal set to 0 (last two axes)."""
    return _band_mask(convert(x), k, lower=False)


@keras_ops_export("numpy")
def diagonal(x, offset=0, axis1=0, axis2=1):
    """The `offset` diagonal of the planes (axis1, axis2), as the last axis.

    >>> ops.diagonal(tf.reshape(tf.range(9), (3, 3)), offset=1)
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([1, 5], dtype=int32)>
    """
    x = convert(x)
    rank = x.shape.rank
    a, b = axis1 % rank, axis2 % rank
    perm = [i for i in range(rank) if i not in (a, b)] + [a, b]
    x = tf.transpose(x, perm)
    n, m = x.shape.as_list()[-2:]
    rows = np.arange(max(0, -offset), min(n, m - offset))
    if rows.size == 0:
        return tf.zeros(x.shape.as_list()[:-2] + [0], x.dtype)
    pairs = np.stack([rows, rows + offset], axis=-1)
    moved = tf.transpose(x, [rank - 2, rank - 1] + list(range(rank - 2)))
    picked = tf.gather_nd(moved, tf.constant(pairs, "int32"))
    return tf.transpose(picked, list(range(1, rank - 1)) + [0])


@keras_ops_export("numpy")
def trace(x, offset=0, axis1=0, axis2=1):
    """The sum along the `offset` diagonal (small ints widened as in `sum`)."""
    x = convert(x)
    dtype = {"bool": "int32", "int8": "int32", "int16": "int32",
             "uint8": "uint32", "uint16": "uint32"}.get(x.dtype.name, x.dtype.name)
    return tf.reduce_sum(diagonal(tf.cast(x, dtype), offset, axis1, axis2), axis=-1)


@keras_ops_export("numpy")
def diag(x, k=0):
    """1-D x: a matrix with x on the k-th diagonal; 2-D x: its k-th diagonal."""
    x = convert(x)
    if x.shape.rank == 2:
        return diagonal(x, offset=k)
    if x.shape.rank != 1:
        raise ValueError(f"`x` must be 1d or 2d. Received: x.shape={x.shape}")
    n = x.shape[0] + abs(k)
    rows = np.arange(x.shape[0]) + max(0, -k)
    index = np.stack([rows, rows + k], axis=-1)
    return tf.scatter_nd(tf.constant(index, "int32"), x, [n, n])


@keras_ops_export("numpy")
def diagflat(x, k=0):
    """`diag` of x flattened."""
    return diag(tf.reshape(convert(x), [-1]), k)


@keras_ops_export("numpy")
def vander(x, N=None, increasing=False):
    """Columns of powers of x (highest first unless `increasing`)."""
    x = convert(x)
    N = x.shape[0] if N is None else N
    powers = np.arange(N) if increasing else np.arange(N - 1, -1, -1)
    return tf.pow(tf.expand_dims(x, -1), tf.constant(powers, x.dtype))
