"""`tf.keras.utils.load_img`, `save_img`, `array_to_img`, `img_to_array`: images as
Pillow images and as float arrays (height, width, channels).

>>> import minitf as tf, numpy as np, os, tempfile
>>> path = os.path.join(tempfile.mkdtemp(), "ramp.png")
>>> tf.keras.utils.save_img(path, np.arange(12.0).reshape(2, 2, 3))  # scaled to 0..255
>>> image = tf.keras.utils.load_img(path)
>>> image.size, image.mode
((2, 2), 'RGB')
>>> tf.keras.utils.img_to_array(image)[0, 0].tolist()
[0.0, 23.0, 46.0]

They need Pillow (`pip install Pillow`, the `image` extra). In TensorFlow this is
`keras/src/utils/image_utils.py`; `tf.keras.preprocessing.image` has the same four.
"""
import io
import os
import pathlib
import warnings

import numpy as np

from ...framework.atomic_file import atomic_write
from ...framework.tf_export import tf_export
from .. import backend

_INTERPOLATIONS = ("nearest", "bilinear", "bicubic", "hamming", "box", "lanczos")


def _pil(function):
    try:
        from PIL import Image
    except ImportError:
        raise ImportError(f"Could not import PIL.Image. The use of `{function}` requires PIL "
                          "(`pip install Pillow`, or minitf's `image` extra).") from None
    return Image


def _data_format(data_format):
    data_format = data_format or backend.image_data_format()
    if data_format not in ("channels_first", "channels_last"):
        raise ValueError("The `data_format` argument must be one of {'channels_first', "
                         f"'channels_last'}}. Received: data_format={data_format}")
    return data_format


@tf_export("keras.utils.array_to_img", "keras.preprocessing.image.array_to_img")
def array_to_img(x, data_format=None, scale=True, dtype=None):
    """A Pillow image from a (height, width, channels) array; `scale` maps min..max to 0..255."""
    Image = _pil("array_to_img")
    data_format = _data_format(data_format)
    x = np.asarray(x, dtype=dtype or backend.floatx())
    if x.ndim != 3:
        raise ValueError(f"Expected image array to have rank 3 (single image). Got array with "
                         f"shape: {x.shape}")
    if data_format == "channels_first":
        x = x.transpose(1, 2, 0)
    if scale:
        x = x - np.min(x)
        x_max = np.max(x)
        if x_max != 0:
            x /= x_max
        x *= 255
    channels = x.shape[2]
    if channels in (3, 4):
        return Image.fromarray(x.astype("uint8"), "RGBA" if channels == 4 else "RGB")
    if channels == 1:
        if np.max(x) > 255:
            return Image.fromarray(x[:, :, 0].astype("int32"), "I")
        return Image.fromarray(x[:, :, 0].astype("uint8"), "L")
    raise ValueError(f"Unsupported channel number: {channels}")


@tf_export("keras.utils.img_to_array", "keras.preprocessing.image.img_to_array")
def img_to_array(img, data_format=None, dtype=None):
    """A float array (height, width, channels) from a Pillow image."""
    data_format = _data_format(data_format)
    x = np.asarray(img, dtype=dtype or backend.floatx())
    if x.ndim == 3:
        return x.transpose(2, 0, 1) if data_format == "channels_first" else x
    if x.ndim == 2:
        return x.reshape((1,) + x.shape if data_format == "channels_first" else x.shape + (1,))
    raise ValueError(f"Unsupported image shape: {x.shape}")


@tf_export("keras.utils.save_img", "keras.preprocessing.image.save_img")
def save_img(path, x, data_format=None, file_format=None, scale=True, **kwargs):
    """Write the array `x` as an image file (the format from the suffix; written atomically)."""
    if file_format is None and isinstance(path, (str, pathlib.Path)):
        file_format = pathlib.Path(path).suffix[1:].lower()
    if file_format and file_format.lower() == "jpg":
        file_format = "jpeg"
    img = array_to_img(x, data_format=data_format, scale=scale)
    if img.mode == "RGBA" and file_format == "jpeg":
        warnings.warn("The JPEG format does not support RGBA images, converting to RGB.")
        img = img.convert("RGB")
    if not isinstance(path, (str, pathlib.Path)):  # a file object
        img.save(path, format=file_format, **kwargs)
        return
    with atomic_write(path) as tmp:
        img.save(tmp, format=file_format or None, **kwargs)


def _crop_box(size, target):
    (width, height), (target_width, target_height) = size, target
    crop_height = min(height, (width * target_height) // target_width)
    crop_width = min(width, (height * target_width) // target_height)
    top, left = (height - crop_height) // 2, (width - crop_width) // 2
    return [left, top, left + crop_width, top + crop_height]


@tf_export("keras.utils.load_img", "keras.preprocessing.image.load_img")
def load_img(path, color_mode="rgb", target_size=None, interpolation="nearest",
             keep_aspect_ratio=False):
    """A Pillow image from a file (`color_mode` 'rgb', 'rgba' or 'grayscale'), resized to
    `target_size` = (height, width) if given (centre-cropped first with keep_aspect_ratio)."""
    Image = _pil("load_img")
    if isinstance(path, io.BytesIO):
        img = Image.open(path)
    elif isinstance(path, (pathlib.Path, bytes, str)):
        with open(os.fspath(path), "rb") as f:
            img = Image.open(io.BytesIO(f.read()))
    else:
        raise TypeError(f"path should be path-like or io.BytesIO, not {type(path)}")
    wanted = {"grayscale": ("L", ("L", "I;16", "I")), "rgba": ("RGBA", ("RGBA",)),
              "rgb": ("RGB", ("RGB",))}.get(color_mode)
    if wanted is None:
        raise ValueError('color_mode must be "grayscale", "rgb", or "rgba"')
    if img.mode not in wanted[1]:
        img = img.convert(wanted[0])
    if target_size is not None:
        size = (target_size[1], target_size[0])
        if img.size != size:
            if interpolation not in _INTERPOLATIONS:
                raise ValueError(f"Invalid interpolation method {interpolation} specified. "
                                 f"Supported methods are {', '.join(_INTERPOLATIONS)}")
            resample = getattr(Image.Resampling, interpolation.upper())
            box = _crop_box(img.size, size) if keep_aspect_ratio else None
            img = img.resize(size, resample, box=box)
    return img
