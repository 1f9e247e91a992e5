"""`tf.keras.backend` shapes and arrays: reshape, concatenate, dot, batch_dot, padding, repeats.

Mostly `tf.*` under Keras 1/2 names. The ones with logic of their own:
`dot` of higher-rank tensors contracts x's last axis with y's second-to-last
(as Theano did), `batch_dot` multiplies per sample along `axes`, `repeat(x, n)`
turns (batch, dim) into (batch, n, dim), and `repeat_elements` repeats each
slice along an axis (as `np.repeat`).

>>> import minitf as tf
>>> K = tf.keras.backend
>>> K.batch_dot(tf.ones((2, 3)), tf.ones((2, 3))).numpy()
array([[3.],
       [3.]], dtype=float32)
>>> K.repeat_elements(tf.constant([[1, 2]]), 2, axis=1).numpy()
array([[1, 1, 2, 2]], dtype=int32)
"""
import minitf as tf

from ...framework.tf_export import tf_export
from . import _SETTINGS
from .state_ops import is_sparse, ndim, to_dense


def _data_format(data_format):
    data_format = _SETTINGS["image_data_format"] if data_format is None else data_format
    if data_format not in {"channels_first", "channels_last"}:
        raise ValueError(f"Unknown data_format: {data_format}")
    return data_format


@tf_export("keras.backend.arange")
def arange(start, stop=None, step=1, dtype="int32"):
    """tf.range(start, stop, step) cast to `dtype`; arange(-3) is empty."""
    if stop is None and start < 0:
        start = 0
    result = tf.range(start, limit=stop, delta=step, name="arange")
    return result if dtype == "int32" else tf.cast(result, dtype)


@tf_export("keras.backend.reshape")
def reshape(x, shape):
    """tf.reshape(x, shape)."""
    return tf.reshape(x, shape)


@tf_export("keras.backend.flatten")
def flatten(x):
    """x as one axis."""
    return tf.reshape(x, [-1])


@tf_export("keras.backend.batch_flatten")
def batch_flatten(x):
    """(batch, ...) -> (batch, everything else)."""
    return tf.reshape(x, tf.stack([-1, tf.reduce_prod(tf.shape(x)[1:])]))


@tf_export("keras.backend.expand_dims")
def expand_dims(x, axis=-1):
    """A new axis of length 1 at `axis` (the end by default)."""
    return tf.expand_dims(x, axis)


@tf_export("keras.backend.squeeze")
def squeeze(x, axis):
    """Remove the length-1 axis `axis`."""
    return tf.squeeze(x, [axis])


@tf_export("keras.backend.permute_dimensions")
def permute_dimensions(x, pattern):
    """tf.transpose(x, perm=pattern)."""
    return tf.transpose(x, perm=pattern)


@tf_export("keras.backend.transpose")
def transpose(x):
    """All axes reversed."""
    return tf.transpose(x)


@tf_export("keras.backend.reverse")
def reverse(x, axes):
    """x reversed along an axis or a list of axes."""
    return tf.reverse(x, [axes] if isinstance(axes, int) else axes)


@tf_export("keras.backend.tile")
def tile(x, n):
    """tf.tile; an int n tiles a 1-D x."""
    return tf.tile(x, [n] if isinstance(n, int) else n)


@tf_export("keras.backend.stack")
def stack(x, axis=0):
    """tf.stack(x, axis)."""
    return tf.stack(x, axis=axis)


@tf_export("keras.backend.concatenate")
def concatenate(tensors, axis=-1):
    """Join along `axis` (the last by default); sparse inputs give a sparse result."""
    if axis < 0:
        rank = ndim(tensors[0])
        axis = axis % rank if rank else 0
    if all(is_sparse(x) for x in tensors):
        return tf.sparse.concat(axis, tensors)
    return tf.concat([to_dense(x) for x in tensors], axis)


@tf_export("keras.backend.gather")
def gather(reference, indices):
    """The rows of `reference` at `indices` (tf.gather on axis 0)."""
    return tf.gather(reference, indices)


@tf_export("keras.backend.one_hot")
def one_hot(indices, num_classes):
    """A float32 one-hot axis of length num_classes appended."""
    return tf.one_hot(indices, depth=num_classes, axis=-1)


@tf_export("keras.backend.repeat")
def repeat(x, n):
    """(batch, dim) -> (batch, n, dim): each row repeated n times."""
    if ndim(x) != 2:
        raise ValueError(f"Expected input `x` to have rank 2. Received: rank(x)={ndim(x)}")
    return tf.tile(tf.expand_dims(x, 1), tf.stack([1, n, 1]))


@tf_export("keras.backend.repeat_elements")
def repeat_elements(x, rep, axis):
    """Each slice along `axis` repeated `rep` times, in place (np.repeat)."""
    splits = tf.split(x, num_or_size_splits=x.shape.as_list()[axis], axis=axis)
    return concatenate([s for s in splits for _ in range(rep)], axis)


@tf_export("keras.backend.dot")
def dot(x, y):
    """Matrix product; for rank > 2, x's last axis with y's second-to-last (like np.dot)."""
    if ndim(x) > 2 or ndim(y) > 2:
        x_shape, y_shape = tuple(x.shape.as_list()), tuple(y.shape.as_list())
        y_perm = list(range(ndim(y)))
        y_perm = [y_perm.pop(-2)] + y_perm
        xt = tf.reshape(x, [-1, x_shape[-1]])
        yt = tf.reshape(tf.transpose(y, perm=y_perm), [y_shape[-2], -1])
        return tf.reshape(tf.matmul(xt, yt), x_shape[:-1] + y_shape[:-2] + y_shape[-1:])
    if is_sparse(x):
        return tf.sparse.sparse_dense_matmul(x, y)
    return tf.matmul(x, y)


def _batch_dot_axes(x_shape, y_shape, axes):
    """Keras's checks and defaults for batch_dot's `axes`, as non-negative ints."""
    x_ndim, y_ndim = len(x_shape), len(y_shape)
    if x_ndim < 2 or y_ndim < 2:
        raise ValueError("Cannot do batch_dot on inputs with rank < 2. "
                         f"Received inputs with tf.shapes {x_shape} and {y_shape}.")
    if x_shape[0] is not None and y_shape[0] is not None and x_shape[0] != y_shape[0]:
        raise ValueError("Cannot do batch_dot on inputs with different batch sizes. "
                         f"Received inputs with tf.shapes {x_shape} and {y_shape}.")
    if isinstance(axes, int):
        axes = [axes, axes]
    if axes is None:
        axes = [x_ndim - 1, y_ndim - 1] if y_ndim == 2 else [x_ndim - 1, y_ndim - 2]
    if any(isinstance(a, (list, tuple)) for a in axes):
        raise ValueError("Multiple target dimensions are not supported. "
                         f"Expected: None, int, (int, int), Provided: {axes}")
    axes = [axes[0] % x_ndim, axes[1] % y_ndim]
    if 0 in axes:
        raise ValueError("Cannot perform batch_dot over axis 0. If your inputs are not "
                         "batched, add a dummy batch dimension to your inputs using "
                         "K.expand_dims(x, 0)")
    d1, d2 = x_shape[axes[0]], y_shape[axes[1]]
    if d1 is not None and d2 is not None and d1 != d2:
        raise ValueError(f"Cannot do batch_dot on inputs with tf.shapes {x_shape} and "
                         f"{y_shape} with axes={axes}. x.shape[{axes[0]}] != "
                         f"y.shape[{axes[1]}] ({d1} != {d2}).")
    return axes


@tf_export("keras.backend.batch_dot")
def batch_dot(x, y, axes=None):
    """Per-sample dot product of x and y over x's axis axes[0] and y's axis axes[1].

    The result keeps the batch axis, then x's other axes, then y's other axes; two
    rank-2 inputs give (batch, 1).
    """
    a0, a1 = _batch_dot_axes(tuple(x.shape.as_list()), tuple(y.shape.as_list()), axes)
    x_rest = [i for i in range(1, ndim(x)) if i != a0]
    y_rest = [i for i in range(1, ndim(y)) if i != a1]
    xt = tf.transpose(x, [0] + x_rest + [a0])                  # (b, x_rest..., k)
    yt = tf.transpose(y, [0, a1] + y_rest)                     # (b, k, y_rest...)
    x_dims = [x.shape[i] for i in x_rest]
    y_dims = [y.shape[i] for i in y_rest]
    k = x.shape[a0]
    out = tf.matmul(tf.reshape(xt, [-1, _prod(x_dims), k]),
                    tf.reshape(yt, [-1, k, _prod(y_dims)]))
    if ndim(x) == 2 and ndim(y) == 2:
        return tf.reshape(out, [-1, 1])
    return tf.reshape(out, [-1] + x_dims + y_dims)


def _prod(dims):
    out = 1
    for d in dims:
        out *= d
    return out


@tf_export("keras.backend.temporal_padding")
def temporal_padding(x, padding=(1, 1)):
    """Zeros before and after axis 1 of a (batch, steps, features) tensor."""
    if len(padding) != 2:
        raise ValueError("Expected `padding` to be a tuple of 2 integers. "
                         f"Received: padding={padding}")
    return tf.pad(x, [[0, 0], [padding[0], padding[1]], [0, 0]])


@tf_export("keras.backend.spatial_2d_padding")
def spatial_2d_padding(x, padding=((1, 1), (1, 1)), data_format=None):
    """Zeros around the rows and columns of a 4-D image batch."""
    if len(padding) != 2 or len(padding[0]) != 2 or len(padding[1]) != 2:
        raise ValueError("Expected `padding` to be a tuple of 2 tuples of 2 integers. "
                         f"Received: padding={padding}")
    spatial = [list(p) for p in padding]
    if _data_format(data_format) == "channels_first":
        return tf.pad(x, [[0, 0], [0, 0]] + spatial)
    return tf.pad(x, [[0, 0]] + spatial + [[0, 0]])


@tf_export("keras.backend.spatial_3d_padding")
def spatial_3d_padding(x, padding=((1, 1), (1, 1), (1, 1)), data_format=None):
    """Zeros around the three spatial axes of a 5-D volume batch."""
    if len(padding) != 3 or any(len(p) != 2 for p in padding):
        raise ValueError("Expected `padding` to be a tuple of 3 tuples of 2 integers. "
                         f"Received: padding={padding}")
    spatial = [list(p) for p in padding]
    if _data_format(data_format) == "channels_first":
        return tf.pad(x, [[0, 0], [0, 0]] + spatial)
    return tf.pad(x, [[0, 0]] + spatial + [[0, 0]])


_INTERPOLATIONS = ("area", "bicubic", "bilinear", "gaussian", "lanczos3", "lanczos5",
                   "mitchellcubic", "nearest")


@tf_export("keras.backend.resize_images")
def resize_images(x, height_factor, width_factor, data_format, interpolation="nearest"):
    """Images made height_factor x taller and width_factor x wider (tf.image.resize)."""
    if data_format not in ("channels_first", "channels_last"):
        raise ValueError(f"Invalid `data_format` argument: {data_format}")
    if interpolation not in _INTERPOLATIONS:
        names = '"' + '", "'.join(_INTERPOLATIONS) + '"'
        raise ValueError(f"`interpolation` argument should be one of: {names}. "
                         f'Received: "{interpolation}".')
    if data_format == "channels_first":
        x = tf.transpose(x, [0, 2, 3, 1])
    size = [x.shape[1] * height_factor, x.shape[2] * width_factor]
    x = tf.image.resize(x, size, method=interpolation)
    return tf.transpose(x, [0, 3, 1, 2]) if data_format == "channels_first" else x


@tf_export("keras.backend.resize_volumes")
def resize_volumes(x, depth_factor, height_factor, width_factor, data_format):
    """Each voxel repeated depth x height x width times (repeat_elements per axis)."""
    if data_format not in ("channels_first", "channels_last"):
        raise ValueError(f"Invalid data_format: {data_format}")
    first = 2 if data_format == "channels_first" else 1
    for offset, factor in enumerate((depth_factor, height_factor, width_factor)):
        x = repeat_elements(x, factor, axis=first + offset)
    return x


@tf_export("keras.backend.stop_gradient")
def stop_gradient(variables):
    """tf.stop_gradient; a list or tuple gives a lazy `map` over it (as Keras)."""
    if isinstance(variables, (list, tuple)):
        return map(tf.stop_gradient, variables)
    return tf.stop_gradient(variables)


del tf_export
