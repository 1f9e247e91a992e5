"""`keras.ops` shape and indexing: reshape, stack, take, where, pad, ... (NumPy's names).

Each is a `tf.*` op or a few of them, so gradients flow as they do there:
`take` is `tf.gather` (after wrapping negative indices as NumPy does), `where`
is `tf.where` with both branches promoted to one dtype, `concatenate` is
`tf.concat` after promoting every input.

>>> import minitf as tf
>>> from minitf.keras import ops
>>> ops.take(tf.constant([10, 20, 30]), [-1, 0])
<tf.Tensor: shape=(2,), dtype=int32, numpy=array([30, 10], dtype=int32)>
>>> ops.concatenate([tf.constant([1, 2]), tf.constant([0.5])]).dtype
tf.float32
"""
import builtins

import numpy as np

import minitf as tf

from ._export import keras_ops_export
from .. import ops  # noqa: F401 - the examples below call ops.*
from .dtype_rules import convert, dtype_of, promote, result_type


def _promote_all(xs):
    """Convert a list of tensors, casting them to one `result_type` if they differ."""
    xs = [convert(x) for x in xs]
    if len({x.dtype.name for x in xs}) > 1:
        dtype = result_type(*(x.dtype.name for x in xs))
        xs = [tf.cast(x, dtype) for x in xs]
    return xs


def _axis(axis, rank):
    return axis + rank if axis < 0 else axis


@keras_ops_export("numpy")
def reshape(x, newshape):
    """`x` with a new shape (-1 once: inferred).

    >>> ops.reshape(tf.range(6), (2, -1)).shape
    TensorShape([2, 3])
    """
    return tf.reshape(x, newshape)


@keras_ops_export("numpy")
def ravel(x):
    """`x` flattened to 1-D."""
    return tf.reshape(x, [-1])


@keras_ops_export("numpy")
def transpose(x, axes=None):
    """Axes permuted (reversed by default)."""
    return tf.transpose(x, perm=axes)


@keras_ops_export("numpy")
def expand_dims(x, axis):
    """A new axis of size 1 at `axis` (or at each of several axes).

    >>> ops.expand_dims(tf.ones((2, 3)), (0, -1)).shape
    TensorShape([1, 2, 3, 1])
    """
    x = convert(x)
    axes = axis if isinstance(axis, (list, tuple)) else (axis,)
    out_rank = x.shape.rank + len(axes)
    for a in sorted(_axis(a, out_rank) for a in axes):
        x = tf.expand_dims(x, a)
    return x


@keras_ops_export("numpy")
def squeeze(x, axis=None):
    """Size-1 axes removed (all of them, or those named)."""
    if isinstance(axis, int):
        axis = [axis]
    return tf.squeeze(x, axis=axis)


@keras_ops_export("numpy")
def moveaxis(x, source, destination):
    """`x` with axes `source` moved to positions `destination`.

    >>> ops.moveaxis(tf.ones((2, 3, 4)), 0, -1).shape
    TensorShape([3, 4, 2])
    """
    x = convert(x)
    rank = x.shape.rank
    src = [_axis(a, rank) for a in (source if isinstance(source, (list, tuple)) else [source])]
    dst = [_axis(a, rank) for a in
           (destination if isinstance(destination, (list, tuple)) else [destination])]
    perm = [a for a in range(rank) if a not in src]
    for d, s in sorted(zip(dst, src)):
        perm.insert(d, s)
    return tf.transpose(x, perm)


@keras_ops_export("numpy")
def swapaxes(x, axis1, axis2):
    """`x` with two axes exchanged."""
    x = convert(x)
    perm = list(range(x.shape.rank))
    a, b = _axis(axis1, len(perm)), _axis(axis2, len(perm))
    perm[a], perm[b] = perm[b], perm[a]
    return tf.transpose(x, perm)


@keras_ops_export("numpy")
def broadcast_to(x, shape):
    """`x` repeated along size-1 axes to `shape`."""
    return tf.broadcast_to(x, shape)


@keras_ops_export("numpy")
def concatenate(xs, axis=0):
    """Tensors joined along an existing axis, in their common dtype.

    >>> ops.concatenate([tf.ones((1, 2)), tf.zeros((2, 2))], axis=0).shape
    TensorShape([3, 2])
    """
    return tf.concat(_promote_all(xs), axis=axis)


@keras_ops_export("numpy")
def append(x1, x2, axis=None):
    """x2 after x1 along `axis` (both flattened when axis is None)."""
    x1, x2 = _promote_all([x1, x2])
    if axis is None:
        return tf.concat([tf.reshape(x1, [-1]), tf.reshape(x2, [-1])], axis=0)
    return tf.concat([x1, x2], axis=axis)


@keras_ops_export("numpy")
def stack(x, axis=0):
    """Tensors of one shape joined along a new axis.

    >>> ops.stack([tf.constant([1, 2]), tf.constant([3, 4])], axis=1)
    <tf.Tensor: shape=(2, 2), dtype=int32, numpy=
    array([[1, 3],
           [2, 4]], dtype=int32)>
    """
    dtypes = {dtype_of(a) if not isinstance(a, (list, tuple)) else "list" for a in x}
    if len(dtypes) > 1 and "list" not in dtypes:
        dtype = result_type(*dtypes)
        x = [convert(a, dtype) for a in x]
    return tf.stack(x, axis=axis)


def _atleast(x, rank):
    x = convert(x)
    if x.shape.rank == 0:
        x = tf.reshape(x, [1] * min(rank, 2) if rank < 3 else [1, 1, 1])
    if rank >= 2 and x.shape.rank == 1:
        x = tf.expand_dims(x, 0)
    if rank == 3 and x.shape.rank == 2:
        x = tf.expand_dims(x, -1)
    return x


@keras_ops_export("numpy")
def hstack(xs):
    """Joined along axis 1 (axis 0 for 1-D inputs)."""
    xs = _promote_all(xs)
    return tf.concat(xs, axis=0 if xs[0].shape.rank == 1 else 1)


@keras_ops_export("numpy")
def vstack(xs):
    """Joined along axis 0, 1-D inputs as rows."""
    return tf.concat(_promote_all([_atleast(x, 2) for x in xs]), axis=0)


@keras_ops_export("numpy")
def dstack(xs):
    """Joined along axis 2 (depth), lower-rank inputs padded as NumPy's atleast_3d."""
    xs = [convert(x) for x in xs]
    xs = [tf.reshape(x, [1, -1, 1]) if x.shape.rank == 1 else _atleast(x, 3) for x in xs]
    return tf.concat(_promote_all(xs), axis=2)


def _split_points(n, indices_or_sections):
    if isinstance(indices_or_sections, int):
        if n % indices_or_sections:
            raise ValueError(f"array split does not result in an equal division: {n} into "
                             f"{indices_or_sections} sections. Use `array_split` for uneven parts.")
        size = n // indices_or_sections
        return [size] * indices_or_sections
    points = [0, *[builtins.min(int(i), n) for i in indices_or_sections], n]
    return [builtins.max(b - a, 0) for a, b in zip(points[:-1], points[1:])]


@keras_ops_export("numpy")
def split(x, indices_or_sections, axis=0):
    """A list of parts: `n` equal ones, or cut before each index given.

    >>> [p.numpy().tolist() for p in ops.split(tf.range(5), [2, 3])]
    [[0, 1], [2], [3, 4]]
    """
    x = convert(x)
    sizes = _split_points(x.shape[axis], indices_or_sections)
    return tf.split(x, sizes, axis=axis)


@keras_ops_export("numpy")
def array_split(x, indices_or_sections, axis=0):
    """`split` into `n` nearly equal parts (the first ones one longer)."""
    x = convert(x)
    n = x.shape[axis]
    k = indices_or_sections
    sizes = [n // k + 1] * (n % k) + [n // k] * (k - n % k)
    return tf.split(x, sizes, axis=axis)


def _named_split(name, axis, doc):
    def op(x, indices_or_sections):
        x = convert(x)
        return split(x, indices_or_sections, axis=0 if axis == 1 and x.shape.rank == 1 else axis)

    op.__name__ = op.__qualname__ = name
    op.__doc__ = doc
    return keras_ops_export("numpy", name)(op)


hsplit = _named_split("hsplit", 1, "`split` along axis 1 (axis 0 for 1-D x).")
vsplit = _named_split("vsplit", 0, "`split` along axis 0.")
dsplit = _named_split("dsplit", 2, "`split` along axis 2 (depth).")


@keras_ops_export("numpy")
def tile(x, repeats):
    """`x` repeated `repeats` times along each axis (NumPy pads either side with 1s).

    >>> ops.tile(tf.constant([1, 2]), 2)
    <tf.Tensor: shape=(4,), dtype=int32, numpy=array([1, 2, 1, 2], dtype=int32)>
    """
    x = convert(x)
    repeats = list(repeats) if isinstance(repeats, (list, tuple)) else [repeats]
    rank = builtins.max(x.shape.rank, len(repeats))
    x = tf.reshape(x, [1] * (rank - x.shape.rank) + x.shape.as_list())
    return tf.tile(x, [1] * (rank - len(repeats)) + repeats)


@keras_ops_export("numpy")
def repeat(x, repeats, axis=None):
    """Each element repeated `repeats` times (flattened when axis is None).

    >>> ops.repeat(tf.constant([1, 2]), 2)
    <tf.Tensor: shape=(4,), dtype=int32, numpy=array([1, 1, 2, 2], dtype=int32)>
    """
    x = convert(x)
    if axis is None:
        x, axis = tf.reshape(x, [-1]), 0
    axis = _axis(axis, x.shape.rank)
    n = x.shape[axis]
    counts = np.broadcast_to(np.asarray(convert_to_list(repeats)), (n,))
    index = np.repeat(np.arange(n), counts)
    return tf.gather(x, tf.constant(index, "int32"), axis=axis)


def convert_to_list(value):
    return value.numpy() if isinstance(value, tf.Tensor) else value


@keras_ops_export("numpy")
def pad(x, pad_width, mode="constant", constant_values=None):
    """`x` padded: `pad_width` is ((before, after), ...) per axis, or one pair for all.

    >>> ops.pad(tf.constant([1, 2]), (1, 2))
    <tf.Tensor: shape=(5,), dtype=int32, numpy=array([0, 1, 2, 0, 0], dtype=int32)>
    """
    x = convert(x)
    widths = np.broadcast_to(np.asarray(pad_width, dtype=np.int64), (x.shape.rank, 2))
    if mode not in ("constant", "reflect", "symmetric"):
        raise ValueError(f"`mode` must be 'constant', 'reflect' or 'symmetric' on the "
                         f"TensorFlow backend. Received: mode={mode}")
    if constant_values is not None and mode != "constant":
        raise ValueError("Argument `constant_values` can only be provided when `mode == "
                         f"'constant'`. Received: mode={mode}")
    return tf.pad(x, widths.tolist(), mode=mode.upper(),
                  constant_values=0 if constant_values is None else constant_values)


@keras_ops_export("numpy")
def take(x, indices, axis=None):
    """Elements at `indices` along `axis` (of the flattened x if None); -1 is the last.

    >>> ops.take(tf.constant([[1, 2], [3, 4]]), [1], axis=1)
    <tf.Tensor: shape=(2, 1), dtype=int32, numpy=
    array([[2],
           [4]], dtype=int32)>
    """
    x = convert(x)
    if axis is None:
        x, axis = tf.reshape(x, [-1]), 0
    indices = convert(indices)
    if "int" not in indices.dtype.name:
        indices = tf.cast(indices, "int32")
    size = tf.cast(tf.shape(x)[axis], indices.dtype)
    indices = tf.where(indices < 0, indices + size, indices)
    return tf.gather(x, indices, axis=axis)


@keras_ops_export("numpy")
def take_along_axis(x, indices, axis=None):
    """x[..., indices[i], ...] along `axis`: picks per position (argsort's partner).

    >>> ops.take_along_axis(tf.constant([[3, 1, 2]]), ops.argsort(tf.constant([[3, 1, 2]])), -1)
    <tf.Tensor: shape=(1, 3), dtype=int32, numpy=array([[1, 2, 3]], dtype=int32)>
    """
    x, indices = convert(x), convert(indices, "int64")
    if axis is None:
        if indices.shape.rank != 1:
            raise ValueError("`indices` must be 1D if axis=None. "
                             f"Received: indices.shape={indices.shape}")
        x, axis = tf.reshape(x, [-1]), 0
    rank = x.shape.rank
    axis = _axis(axis, rank)
    xs, ids = x.shape.as_list(), indices.shape.as_list()
    common = [builtins.max(a, b) for a, b in zip(xs, ids)]
    x = tf.broadcast_to(x, common[:axis] + [xs[axis]] + common[axis + 1:])
    indices = tf.broadcast_to(indices, common[:axis] + [ids[axis]] + common[axis + 1:])
    indices = tf.where(indices < 0, indices + xs[axis], indices)
    # Move `axis` last, gather with batch_dims over the leading axes, move it back.
    perm = [a for a in range(rank) if a != axis] + [axis]
    inverse = np.argsort(perm).tolist()
    out = tf.gather(tf.transpose(x, perm), tf.transpose(indices, perm), batch_dims=rank - 1)
    return tf.transpose(out, inverse)


@keras_ops_export("numpy")
def where(condition, x1=None, x2=None):
    """x1 where `condition`, else x2 (promoted to one dtype); indices of True if alone.

    >>> ops.where(tf.constant([True, False]), tf.constant([1, 2]), 0.5)
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([1. , 0.5], dtype=float32)>
    """
    condition = tf.cast(condition, "bool")
    if x1 is None and x2 is None:
        return nonzero(condition)
    if x1 is None or x2 is None:
        raise ValueError("`x1` and `x2` either both should be `None` or both should have "
                         "non-None value.")
    x1, x2 = promote(x1, x2)
    return tf.where(condition, x1, x2)


@keras_ops_export("numpy")
def nonzero(x):
    """A tuple of index tensors, one per axis, of the nonzero elements.

    >>> ops.nonzero(tf.constant([0, 3, 0, 5]))
    (<tf.Tensor: shape=(2,), dtype=int32, numpy=array([1, 3], dtype=int32)>,)
    """
    x = convert(x)
    found = tf.cast(tf.where(tf.not_equal(x, tf.zeros_like(x))), "int32")
    return tuple(tf.unstack(found, num=x.shape.rank, axis=1))


@keras_ops_export("numpy")
def select(condlist, choicelist, default=0):
    """choicelist[i] where condlist[i] holds first; `default` where none does.

    >>> ops.select([tf.constant([True, False]), tf.constant([True, True])],
    ...            [tf.constant([1, 1]), tf.constant([2, 2])])
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([1, 2], dtype=int32)>
    """
    choices = _promote_all(choicelist)
    out = tf.broadcast_to(tf.cast(default, choices[0].dtype), tf.shape(choices[0]))
    for cond, choice in reversed(list(zip(condlist, choices))):
        out = tf.where(tf.cast(cond, "bool"), choice, out)
    return out


@keras_ops_export("numpy")
def flip(x, axis=None):
    """`x` reversed along `axis` (all axes by default)."""
    x = convert(x)
    axes = range(x.shape.rank) if axis is None else (
        axis if isinstance(axis, (list, tuple)) else [axis])
    return tf.reverse(x, [_axis(a, x.shape.rank) for a in axes])


@keras_ops_export("numpy")
def fliplr(x):
    """Reversed along axis 1."""
    return flip(x, 1)


@keras_ops_export("numpy")
def flipud(x):
    """Reversed along axis 0."""
    return flip(x, 0)


@keras_ops_export("numpy")
def roll(x, shift, axis=None):
    """Elements shifted by `shift` along `axis`, wrapping around.

    >>> ops.roll(tf.constant([1, 2, 3, 4]), 1)
    <tf.Tensor: shape=(4,), dtype=int32, numpy=array([4, 1, 2, 3], dtype=int32)>
    """
    x = convert(x)
    flat = axis is None
    y = tf.reshape(x, [-1]) if flat else x
    shifts = shift if isinstance(shift, (list, tuple)) else [shift]
    axes = [0] if flat else (axis if isinstance(axis, (list, tuple)) else [axis])
    for s, a in zip(shifts, axes):
        n = y.shape[a]
        if n:
            index = (np.arange(n) - int(s)) % n
            y = tf.gather(y, tf.constant(index, "int32"), axis=a)
    return tf.reshape(y, tf.shape(x)) if flat else y


@keras_ops_export("numpy")
def rot90(array, k=1, axes=(0, 1)):
    """Rotated by 90 degrees `k` times in the plane of `axes`."""
    x = convert(array)
    if x.shape.rank < 2:
        raise ValueError("Input array must have at least 2 dimensions. "
                         f"Received: array.ndim={x.shape.rank}")
    a, b = (_axis(i, x.shape.rank) for i in axes)
    for _ in range(k % 4):
        x = swapaxes(flip(x, b), a, b)
    return x


@keras_ops_export("numpy")
def copy(x):
    """A tensor equal to `x` (tensors are immutable: `tf.identity`)."""
    return tf.identity(convert(x))


@keras_ops_export("numpy")
def ndim(x):
    """The number of axes."""
    return convert(x).shape.rank


@keras_ops_export("numpy")
def size(x):
    """The number of elements, as an int32 scalar tensor."""
    return tf.size(convert(x))


@keras_ops_export("numpy")
def get_item(x, key):
    """x[key], with NumPy's indexing (as `x[key]` on a tensor)."""
    return convert(x)[key]


@keras_ops_export("numpy")
def meshgrid(*x, indexing="xy"):
    """Coordinate grids from 1-D vectors ('xy': first two outputs' axes swapped)."""
    xs = [tf.reshape(convert(v), [-1]) for v in x]
    shape = [v.shape[0] for v in xs]
    if indexing == "xy" and len(xs) > 1:
        shape[0], shape[1] = shape[1], shape[0]
    grids = []
    for i, v in enumerate(xs):
        position = (1 - i if i < 2 else i) if indexing == "xy" and len(xs) > 1 else i
        view = [1] * len(xs)
        view[position] = -1
        grids.append(tf.broadcast_to(tf.reshape(v, view), shape))
    return grids
