"""`keras.ops.image.resize`: `tf.image.resize` with Keras's aspect-ratio options.

`crop_to_aspect_ratio=True` first cuts the largest centred box with the
target's aspect ratio (nothing is stretched, the edges are lost);
`pad_to_aspect_ratio=True` instead adds bands of `fill_value` on both sides
(nothing is lost). Integer images are resized in float, rounded and
saturated back to their dtype. Keras: `keras/src/ops/image.py` and
`keras/src/backend/tensorflow/image.py`.

>>> import minitf as tf
>>> from minitf.keras import ops
>>> ops.image.resize(tf.ones((2, 4, 6, 3)), (2, 3)).shape
TensorShape([2, 2, 3, 3])
"""
import minitf as tf

from ._export import keras_ops_export
from .dtype_rules import convert
from ..layers.conv_utils import standardize_data_format

INTERPOLATIONS = ("bilinear", "nearest", "lanczos3", "lanczos5", "bicubic", "area")


def _check(images, size, interpolation, crop, pad, fill_mode):
    if len(size) != 2:
        raise ValueError(f"Expected `size` to be a tuple of 2 integers. Received: size={size}")
    if size[0] <= 0 or size[1] <= 0:
        raise ValueError(f"`size` must have positive height and width. Received: size={size}")
    if images.shape.rank not in (3, 4):
        raise ValueError("Invalid images rank: expected rank 3 (single image) or rank 4 "
                         "(batch of images). Received input with shape: "
                         f"images.shape={images.shape}")
    if pad and crop:
        raise ValueError("Only one of `pad_to_aspect_ratio` & `crop_to_aspect_ratio` can be "
                         "`True`.")
    if interpolation not in INTERPOLATIONS:
        raise ValueError("Invalid value for argument `interpolation`. Expected of one "
                         f"{INTERPOLATIONS}. Received: interpolation={interpolation}")
    if fill_mode != "constant":
        raise ValueError("Invalid value for argument `fill_mode`. Only `'constant'` is "
                         f"supported. Received: fill_mode={fill_mode}")


def _crop_box(images, size):
    height, width = images.shape[-3], images.shape[-2]
    crop_h = max(min(height, int(width * size[0] / size[1])), 1)
    crop_w = max(min(width, int(height * size[1] / size[0])), 1)
    top, left = int((height - crop_h) / 2), int((width - crop_w) / 2)
    return images[..., top:top + crop_h, left:left + crop_w, :]


def _pad_box(images, size, fill_value):
    # Keras puts the same band (half the missing rows, rounded down) on both sides
    height, width = images.shape[-3], images.shape[-2]
    top = int((max(height, int(width * size[0] / size[1])) - height) / 2)
    left = int((max(width, int(height * size[1] / size[0])) - width) / 2)
    pads = [[top, top], [left, left], [0, 0]]
    if images.shape.rank == 4:
        pads = [[0, 0]] + pads
    return tf.pad(images, pads, constant_values=tf.cast(fill_value, images.dtype))


@keras_ops_export("image")
def resize(images, size, interpolation="bilinear", antialias=False, crop_to_aspect_ratio=False,
           pad_to_aspect_ratio=False, fill_mode="constant", fill_value=0.0, data_format=None):
    """Resize (h, w, c) or (batch, h, w, c) images to `size` = (height, width).

    >>> import minitf as tf
    >>> from minitf.keras import ops
    >>> image = tf.reshape(tf.range(8.0), (2, 4, 1))
    >>> ops.image.resize(image, (2, 2), crop_to_aspect_ratio=True)[..., 0].numpy()  # centre 2x2
    array([[1., 2.],
           [5., 6.]], dtype=float32)
    """
    images = convert(images)
    _check(images, size, interpolation, crop_to_aspect_ratio, pad_to_aspect_ratio, fill_mode)
    data_format = standardize_data_format(data_format)
    original = images.dtype
    rank = images.shape.rank
    if data_format == "channels_first":
        images = tf.transpose(images, (0, 2, 3, 1) if rank == 4 else (1, 2, 0))
    if crop_to_aspect_ratio:
        images = _crop_box(images, size)
    elif pad_to_aspect_ratio:
        images = _pad_box(images, size, fill_value)
    resized = tf.image.resize(images, tuple(size), method=interpolation, antialias=antialias)
    if data_format == "channels_first":
        resized = tf.transpose(resized, (0, 3, 1, 2) if rank == 4 else (2, 0, 1))
    if resized.dtype == original:
        return resized
    if original.is_integer:
        resized = tf.round(resized)
    return tf.saturate_cast(resized, original)
