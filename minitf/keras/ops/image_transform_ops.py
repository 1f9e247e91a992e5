"""`keras.ops.image`: affine_transform and patch extraction (2-D and 3-D).

`affine_transform` is TF's `ImageProjectiveTransformV3` kernel
(`minitf/image/affine_transform.py` explains the 8 numbers) with Keras's
argument checks. `extract_patches` cuts (h, w) windows and lays each one
flat along the channel axis, as Keras does: a convolution with an identity
kernel, so window pixel (i, j), channel c lands at (i * w + j) * C + c.

>>> import minitf as tf
>>> from minitf.keras import ops
>>> ops.image.extract_patches(tf.ones((2, 6, 6, 3)), 3).shape
TensorShape([2, 2, 2, 27])
"""
import numpy as np

import minitf as tf

from ._export import keras_ops_export
from .dtype_rules import convert
from ..layers.conv_utils import standardize_data_format
from ...image import affine_transform as _affine

INTERPOLATIONS = ("nearest", "bilinear")
FILL_MODES = ("constant", "nearest", "wrap", "reflect")  # no "mirror": TF has none


def check_image_args(images, interpolation, fill_mode):
    """Keras's checks of an image op's interpolation, fill mode and image rank."""
    if interpolation not in INTERPOLATIONS:
        raise ValueError("Invalid value for argument `interpolation`. Expected of one "
                         f"{INTERPOLATIONS}. Received: interpolation={interpolation}")
    if fill_mode not in FILL_MODES:
        raise ValueError("Invalid value for argument `fill_mode`. Expected of one "
                         f"{FILL_MODES}. Received: fill_mode={fill_mode}")
    if images.shape.rank not in (3, 4):
        raise ValueError("Invalid images rank: expected rank 3 (single image) or rank 4 "
                         "(batch of images). Received input with shape: "
                         f"images.shape={images.shape}")


def _check_transform_args(images, transform, interpolation, fill_mode):
    check_image_args(images, interpolation, fill_mode)
    if transform.shape.rank not in (1, 2):
        raise ValueError("Invalid transform rank: expected rank 1 (single transform) or rank 2 "
                         "(batch of transforms). Received input with shape: "
                         f"transform.shape={transform.shape}")


@keras_ops_export("image")
def affine_transform(images, transform, interpolation="bilinear", fill_mode="constant",
                     fill_value=0, data_format=None):
    """Resample images through [a0, a1, a2, b0, b1, b2, c0, c1] (output -> input) transforms.

    >>> import minitf as tf
    >>> from minitf.keras import ops
    >>> image = tf.reshape(tf.range(1.0, 5.0), (1, 4, 1))
    >>> shift_right = [1.0, 0.0, -1.0, 0.0, 1.0, 0.0, 0.0, 0.0]   # x_in = x - 1
    >>> ops.image.affine_transform(image, shift_right)[..., 0].numpy()
    array([[0., 1., 2., 3.]], dtype=float32)
    """
    data_format = standardize_data_format(data_format)
    images, transform = convert(images), convert(transform)
    _check_transform_args(images, transform, interpolation, fill_mode)
    return _affine.affine_transform(images, transform, interpolation, fill_mode, fill_value,
                                    data_format)


def _patches(images, size, strides, dilation_rate, padding, data_format, n):
    data_format = standardize_data_format(data_format)
    channels = images.shape[-1] if data_format == "channels_last" else images.shape[-1 - n]
    out_dim = int(np.prod(size)) * channels
    kernel = tf.reshape(tf.eye(out_dim, dtype=images.dtype), (*size, channels, out_dim))
    unbatched = images.shape.rank == n + 1
    if unbatched:
        images = tf.expand_dims(images, 0)
    patches = tf.keras.ops.conv(images, kernel, strides=strides, padding=padding,
                                data_format=data_format, dilation_rate=dilation_rate)
    return tf.squeeze(patches, 0) if unbatched else patches


@keras_ops_export("image")
def extract_patches(images, size, strides=None, dilation_rate=1, padding="valid",
                    data_format=None):
    """Windows of `size` (int or (h, w); a 3-tuple means `extract_patches_3d`), flattened.

    `strides` defaults to `size` (windows side by side, no overlap).

    >>> import minitf as tf
    >>> from minitf.keras import ops
    >>> image = tf.reshape(tf.range(16.0), (4, 4, 1))
    >>> ops.image.extract_patches(image, 2)[0, 0].numpy()
    array([0., 1., 4., 5.], dtype=float32)
    """
    if not isinstance(size, int):
        if not isinstance(size, (tuple, list)):
            raise TypeError("Invalid `size` argument. Expected an int or a tuple. "
                            f"Received: size={size} of type {type(size).__name__}")
        if len(size) not in (2, 3):
            raise ValueError("Invalid `size` argument. Expected a tuple of length 2 or 3. "
                             f"Received: size={size} with length {len(size)}")
        if len(size) == 3:
            return extract_patches_3d(images, size, strides, dilation_rate, padding,
                                      data_format)
    images = convert(images)
    size = (size, size) if isinstance(size, int) else tuple(size)
    return _patches(images, size, strides or size, dilation_rate, padding, data_format, 2)


@keras_ops_export("image")
def extract_patches_3d(volumes, size, strides=None, dilation_rate=1, padding="valid",
                       data_format=None):
    """(d, h, w) windows of volumes ([batch,] d, h, w, c), each flattened along channels.

    >>> import minitf as tf
    >>> from minitf.keras import ops
    >>> ops.image.extract_patches_3d(tf.ones((6, 6, 6, 2)), (3, 3, 3)).shape
    TensorShape([2, 2, 2, 54])
    """
    if isinstance(size, int):
        size = (size, size, size)
    if len(size) != 3:
        raise TypeError("Invalid `size` argument. Expected an int or a tuple of length 3. "
                        f"Received: size={size}")
    strides = size if strides is None else strides
    if isinstance(strides, int):
        strides = (strides, strides, strides)
    if len(strides) != 3:
        raise ValueError(f"Invalid `strides` argument. Got: {strides}")
    return _patches(convert(volumes), tuple(size), strides, dilation_rate, padding,
                    data_format, 3)
