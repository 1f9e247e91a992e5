"""`keras.ops.image.scale_and_translate`: JAX's `jax.image.scale_and_translate`.

Along each axis in `spatial_dims`, output sample i reads the input around

    x_in = (i + 0.5 - translation) / scale - 0.5

through a kernel ("linear" triangle, Keys "cubic", "lanczos3", "lanczos5")
widened by 1/scale when shrinking with `antialias`. Each axis is one matrix
product with a (input size, output size) weight matrix whose columns sum to
1; samples that fall outside the input get weight 0. Integer images are
rounded and clipped to the input's range. Keras: `keras/src/ops/image.py`,
`keras/src/backend/tensorflow/image.py`.

>>> import minitf as tf
>>> from minitf.keras import ops
>>> image = tf.reshape(tf.range(9.0), (3, 3))
>>> ops.image.scale_and_translate(image, (5, 5), [2.0, 2.0], [-0.5, -0.5], (0, 1),
...                               "linear")[0].numpy()
array([0. , 0.5, 1. , 1.5, 2. ], dtype=float32)
"""
import math

import numpy as np

import minitf as tf

from ._export import keras_ops_export
from .dtype_rules import convert, result_type

METHODS = {"linear", "bilinear", "trilinear", "cubic", "bicubic", "tricubic", "lanczos3",
           "lanczos5"}


def _triangle(x):
    return tf.maximum(tf.zeros_like(x), 1 - tf.abs(x))


def _keys_cubic(x):
    out = ((1.5 * x - 2.5) * x) * x + 1.0
    out = tf.where(x >= 1.0, ((-0.5 * x + 2.5) * x - 4.0) * x + 2.0, out)
    return tf.where(x >= 2.0, tf.zeros_like(x), out)


def _lanczos(radius, x):
    y = radius * tf.sin(math.pi * x) * tf.sin(math.pi * x / radius)
    safe = tf.where(x != 0, math.pi ** 2 * x ** 2, tf.ones_like(x))
    out = tf.where(x > 1e-3, y / safe, tf.ones_like(x))
    return tf.where(x > radius, tf.zeros_like(x), out)


KERNELS = {"linear": _triangle, "cubic": _keys_cubic,
           "lanczos3": lambda x: _lanczos(3.0, x), "lanczos5": lambda x: _lanczos(5.0, x)}


def _weights(in_size, out_size, scale, translation, kernel, antialias):
    inv_scale = 1.0 / scale
    kernel_scale = tf.maximum(inv_scale, 1.0) if antialias else 1.0
    dtype = scale.dtype
    sample = (tf.range(out_size, dtype=dtype) + 0.5) * inv_scale - translation * inv_scale - 0.5
    x = tf.abs(sample[None, :] - tf.range(in_size, dtype=dtype)[:, None]) / kernel_scale
    weights = kernel(x)
    total = tf.reduce_sum(weights, axis=0, keepdims=True)
    normalised = weights / tf.where(total != 0, total, tf.ones_like(total))
    weights = tf.where(tf.abs(total) > 1000.0 * float(np.finfo(np.float32).eps), normalised,
                       tf.zeros_like(weights))
    inside = (sample >= -0.5) & (sample <= in_size - 0.5)
    return tf.where(inside[None, :], weights, tf.zeros_like(weights))


@keras_ops_export("image")
def scale_and_translate(images, output_shape, scale, translation, spatial_dims, method,
                        antialias=True):
    """Resample `spatial_dims` of `images` to `output_shape` with a scale and a shift.

    >>> import minitf as tf
    >>> from minitf.keras import ops
    >>> ops.image.scale_and_translate(tf.ones((4, 4)), (2, 2), [0.5, 0.5], [0.0, 0.0],
    ...                               (0, 1), "cubic").numpy()
    array([[1., 1.],
           [1., 1.]], dtype=float32)
    """
    if method not in METHODS:
        raise ValueError("Invalid value for argument `method`. Expected of one "
                         f"{METHODS}. Received: method={method}")
    if method in ("linear", "bilinear", "trilinear", "triangle"):
        method = "linear"
    elif method in ("cubic", "bicubic", "tricubic"):
        method = "cubic"
    images, scale, translation = convert(images), convert(scale), convert(translation)
    dtype = tf.as_dtype(result_type(scale.dtype, translation.dtype))
    scale, translation = tf.cast(scale, dtype), tf.cast(translation, dtype)
    if len(spatial_dims) == 0:
        return images
    rounding = images.dtype.is_integer
    output = tf.cast(images, tf.float32) if rounding else images
    rank = images.shape.rank
    for i, d in enumerate(spatial_dims):
        d = d % rank
        w = _weights(images.shape[d], output_shape[d], scale[i], translation[i],
                     KERNELS[method], antialias)
        output = tf.tensordot(output, tf.cast(w, output.dtype), axes=[[d], [0]])
        output = tf.keras.ops.moveaxis(output, -1, d)
    if rounding:
        output = tf.clip_by_value(tf.round(output), tf.cast(tf.reduce_min(images), tf.float32),
                                  tf.cast(tf.reduce_max(images), tf.float32))
        output = tf.cast(output, images.dtype)
    return output
