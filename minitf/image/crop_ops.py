"""Crops and pads: `central_crop`, `crop_to_bounding_box`, `pad_to_bounding_box`,
`resize_with_crop_or_pad`, `resize_with_pad`.

These are slicing and `tf.pad` underneath, so their gradients are slicing's and
padding's. TF checks the offsets and sizes against the image's static shape and
raises ValueError with the words used here; minitf needs the height and width
known while tracing (TF would also accept them unknown and check when the graph runs).

>>> import minitf as tf
>>> image = tf.reshape(tf.range(12), [3, 4, 1])
>>> tf.image.crop_to_bounding_box(image, 1, 1, 2, 2)[..., 0]
<tf.Tensor: shape=(2, 2), dtype=int32, numpy=
array([[ 5,  6],
       [ 9, 10]], dtype=int32)>
"""
import numpy as np

from ..framework.tensor import convert_to_tensor
from ..framework.tf_export import tf_export
from ..ops.array_ops import expand_dims, squeeze
from ..ops.manipulation_ops import pad
from ..ops.shape_ops import constant_value
from .resize_ops import ResizeMethod, resize


def batch_of_images(image, what="image"):
    """(4-D batch, was it a batch): TF's `_CheckAtLeast3DImage` on static shapes."""
    image = convert_to_tensor(image, name=what)
    shape = image.shape
    if shape.rank not in (3, 4):
        raise ValueError(f"'{what}' (shape {_shape_text(shape)}) must have either 3 or 4 "
                         "dimensions.")
    batch = image if shape.rank == 4 else expand_dims(image, 0)
    dims = batch.shape.as_list()
    if any(d is not None and d <= 0 for d in dims[1:]):
        raise ValueError(f"inner 3 dims of '{what}.shape' must be > 0: {_shape_text(batch.shape)}")
    if dims[1] is None or dims[2] is None:
        raise ValueError("minitf needs the image's height and width while tracing: give the "
                         "tf.function an input_signature with them, or call it on a tensor.")
    return batch, shape.rank == 4


def _shape_text(shape):
    dims = shape.as_list()
    return "(" + ", ".join("None" if d is None else str(d) for d in dims) + \
        ("," if len(dims) == 1 else "") + ")"


def _unbatch(images, is_batch):
    return images if is_batch else squeeze(images, axis=[0])


def static_int(value, what):
    """A Python int from an int, NumPy scalar or tensor whose value is known while tracing."""
    known = constant_value(convert_to_tensor(value))
    if known is None:
        raise ValueError(f"minitf needs '{what}' while tracing: pass a Python int.")
    return int(known)


def _ints(offset_height, offset_width, target_height, target_width):
    return (static_int(offset_height, "offset_height"), static_int(offset_width, "offset_width"),
            static_int(target_height, "target_height"), static_int(target_width, "target_width"))


def _require(condition, message):
    if not condition:
        raise ValueError(message)


@tf_export("image.crop_to_bounding_box")
def crop_to_bounding_box(image, offset_height, offset_width, target_height, target_width):
    """The `target_height` x `target_width` window whose top-left pixel is
    (`offset_height`, `offset_width`): image[offset_h : offset_h + h, offset_w : offset_w + w].

    >>> tf.image.crop_to_bounding_box(tf.ones([4, 4, 3]), 1, 0, 2, 3).shape
    TensorShape([2, 3, 3])
    """
    images, is_batch = batch_of_images(image)
    _, height, width, _ = images.shape.as_list()
    offset_height, offset_width, target_height, target_width = _ints(
        offset_height, offset_width, target_height, target_width)
    _require(offset_width >= 0, "offset_width must be >= 0.")
    _require(offset_height >= 0, "offset_height must be >= 0.")
    _require(target_width > 0, "target_width must be > 0.")
    _require(target_height > 0, "target_height must be > 0.")
    _require(width >= target_width + offset_width, "width must be >= target + offset.")
    _require(height >= target_height + offset_height, "height must be >= target + offset.")
    cropped = images[:, offset_height:offset_height + target_height,
                     offset_width:offset_width + target_width, :]
    return _unbatch(cropped, is_batch)


@tf_export("image.pad_to_bounding_box")
def pad_to_bounding_box(image, offset_height, offset_width, target_height, target_width):
    """Put `image` on a `target_height` x `target_width` canvas of zeros, its top-left
    pixel at (`offset_height`, `offset_width`).

    >>> tf.image.pad_to_bounding_box(tf.ones([1, 1, 1]), 1, 0, 2, 2)[..., 0]
    <tf.Tensor: shape=(2, 2), dtype=float32, numpy=
    array([[0., 0.],
           [1., 0.]], dtype=float32)>
    """
    images, is_batch = batch_of_images(image)
    _, height, width, _ = images.shape.as_list()
    offset_height, offset_width, target_height, target_width = _ints(
        offset_height, offset_width, target_height, target_width)
    after_h = target_height - offset_height - height
    after_w = target_width - offset_width - width
    _require(offset_height >= 0, "offset_height must be >= 0")
    _require(offset_width >= 0, "offset_width must be >= 0")
    _require(after_h >= 0, "height must be <= target - offset")
    _require(after_w >= 0, "width must be <= target - offset")
    padded = pad(images, [[0, 0], [offset_height, after_h], [offset_width, after_w], [0, 0]])
    return _unbatch(padded, is_batch)


@tf_export("image.central_crop")
def central_crop(image, central_fraction):
    """Keep the central `central_fraction` of the height and the width (0 < fraction <= 1).

    The border removed on each side is int((size - size * fraction) / 2) pixels.

    >>> tf.image.central_crop(tf.ones([4, 6, 3]), 0.5).shape
    TensorShape([2, 4, 3])
    """
    image = convert_to_tensor(image, name="image")
    if central_fraction <= 0.0 or central_fraction > 1.0:
        raise ValueError("central_fraction must be within (0, 1]")
    if central_fraction == 1.0:
        return image
    if image.shape.rank is not None and image.shape.rank < 3:
        raise ValueError(f"'image' (shape {_shape_text(image.shape)}) must be at least "
                         "three-dimensional.")
    images, is_batch = batch_of_images(image)
    _, height, width, _ = images.shape.as_list()
    top = int((float(height) - float(height) * central_fraction) / 2)
    left = int((float(width) - float(width) * central_fraction) / 2)
    return _unbatch(images[:, top:height - top, left:width - left, :], is_batch)


@tf_export("image.resize_with_crop_or_pad")
def resize_with_crop_or_pad(image, target_height, target_width):
    """Crop (centrally) or pad (with zeros, evenly) to `target_height` x `target_width`;
    nothing is rescaled.

    >>> tf.image.resize_with_crop_or_pad(tf.ones([2, 4, 1]), 4, 2)[..., 0]
    <tf.Tensor: shape=(4, 2), dtype=float32, numpy=
    array([[0., 0.],
           [1., 1.],
           [1., 1.],
           [0., 0.]], dtype=float32)>
    """
    images, is_batch = batch_of_images(image)
    target_height = static_int(target_height, "target_height")
    target_width = static_int(target_width, "target_width")
    _require(target_width > 0, "target_width must be > 0.")
    _require(target_height > 0, "target_height must be > 0.")
    _, height, width, _ = images.shape.as_list()
    height_diff, width_diff = target_height - height, target_width - width
    cropped = crop_to_bounding_box(images, max(-height_diff // 2, 0), max(-width_diff // 2, 0),
                                   min(target_height, height), min(target_width, width))
    padded = pad_to_bounding_box(cropped, max(height_diff // 2, 0), max(width_diff // 2, 0),
                                 target_height, target_width)
    return _unbatch(padded, is_batch)


@tf_export("image.resize_with_pad")
def resize_with_pad(image, target_height, target_width, method=ResizeMethod.BILINEAR,
                    antialias=False):
    """Resize keeping the aspect ratio, then pad with zeros to the target size
    (as in TF, sizes are worked out in float32 and the padding split evenly).

    >>> tf.image.resize_with_pad(tf.ones([2, 4, 1]), 4, 4)[..., 0]
    <tf.Tensor: shape=(4, 4), dtype=float32, numpy=
    array([[0., 0., 0., 0.],
           [1., 1., 1., 1.],
           [1., 1., 1., 1.],
           [0., 0., 0., 0.]], dtype=float32)>
    """
    images, is_batch = batch_of_images(image)
    target_height = static_int(target_height, "target_height")
    target_width = static_int(target_width, "target_width")
    _require(target_width > 0, "target_width must be > 0.")
    _require(target_height > 0, "target_height must be > 0.")
    f32 = np.float32
    _, height, width, _ = images.shape.as_list()
    ratio = max(f32(width) / f32(target_width), f32(height) / f32(target_height))
    new_height, new_width = f32(height) / ratio, f32(width) / ratio
    pad_top = max(0, int(np.floor((f32(target_height) - new_height) / f32(2))))
    pad_left = max(0, int(np.floor((f32(target_width) - new_width) / f32(2))))
    resized = resize(images, [int(np.floor(new_height)), int(np.floor(new_width))], method,
                     antialias=antialias)
    padded = pad_to_bounding_box(resized, pad_top, pad_left, target_height, target_width)
    return _unbatch(padded, is_batch)
