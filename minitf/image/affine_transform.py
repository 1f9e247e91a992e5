"""`affine_transform`: move every pixel by a 3x3 projective matrix (Keras's rotate/zoom/shift).

A transform is 8 numbers `[a0, a1, a2, b0, b1, b2, c0, c1]`. Output pixel
(x = column, y = row) is read from the input at

    k = c0 * x + c1 * y + 1
    x_in = (a0 * x + a1 * y + a2) / k,   y_in = (b0 * x + b1 * y + b2) / k

so the matrix maps *output* positions to *input* positions (the inverse of
"where does this pixel go"). A position outside the image is brought back by
`fill_mode`: "reflect" (d c b a | a b c d | d c b a), "wrap" (a b c d | a b c
d), "nearest" (a a a a | a b c d | d d d d) or "constant" (the `fill_value`).
"nearest" interpolation reads the closest pixel (halves round away from 0);
"bilinear" mixes the four around it, counting pixels outside as `fill_value`.

>>> import minitf as tf
>>> from minitf.image.affine_transform import affine_transform
>>> image = tf.reshape(tf.range(1.0, 5.0), [1, 4, 1])
>>> shift_right = [1.0, 0.0, -1.0, 0.0, 1.0, 0.0, 0.0, 0.0]   # x_in = x - 1
>>> affine_transform(image, shift_right, fill_mode="constant")[..., 0]
<tf.Tensor: shape=(1, 4), dtype=float32, numpy=array([[0., 1., 2., 3.]], dtype=float32)>
>>> affine_transform(image, shift_right, fill_mode="wrap")[..., 0].numpy()
array([[4., 1., 2., 3.]], dtype=float32)

TensorFlow runs this as the kernel `ImageProjectiveTransformV3`
(core/kernels/image/image_ops.h), which Keras 3 calls from
`keras.ops.image.affine_transform`; minitf computes it the same way, in
float32, and casts back to the image dtype (truncating for integers). Like
TF's, it has no gradient.
"""
import numpy as np

from ..framework import dtypes, errors
from ..framework.op import Op, apply
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape

F32 = np.float32
FILL_MODES = ("constant", "nearest", "wrap", "reflect")
INTERPOLATIONS = ("nearest", "bilinear")
TRANSFORM_TYPES = frozenset({dtypes.uint8, dtypes.int32, dtypes.int64, dtypes.float16,
                             dtypes.float32, dtypes.float64})


def _reflect(c, n):
    if n <= 1:
        return np.zeros_like(c)
    sz2 = F32(2 * n)
    low = c < 0
    neg = np.where(c < -sz2, sz2 * np.trunc(-c / sz2) + c, c)
    neg = np.where(neg < -n, neg + sz2, -neg - 1)
    pos = c - sz2 * np.trunc(c / sz2)
    pos = np.where(pos >= n, sz2 - pos - 1, pos)
    return np.where(low, neg, np.where(c > n - 1, pos, c)).astype(F32)


def _wrap(c, n):
    if n <= 1:
        return np.zeros_like(c)
    sz = F32(n - 1)
    neg = c + n * (np.trunc(-c / sz) + 1)
    pos = c - n * np.trunc(c / sz)
    return np.where(c < 0, neg, np.where(c > n - 1, pos, c)).astype(F32)


def map_coordinate(c, n, fill_mode):
    """Bring input coordinates `c` (float32) of an axis of length `n` inside it, as TF's kernel."""
    if fill_mode == "constant":
        return c
    if fill_mode == "reflect":
        c = _reflect(c, n)
    elif fill_mode == "wrap":
        c = _wrap(c, n)
    return np.clip(c, F32(0), F32(n - 1)).astype(F32)


def _read(images, b, y, x, fill):
    """Pixels at integer rows/cols (truncated toward zero, as C++ casts); outside -> fill."""
    rows, cols = np.trunc(y).astype(np.int64), np.trunc(x).astype(np.int64)
    height, width = images.shape[1:3]
    inside = (rows >= 0) & (rows < height) & (cols >= 0) & (cols < width)
    values = images[b, np.clip(rows, 0, height - 1), np.clip(cols, 0, width - 1)].astype(F32)
    return np.where(inside[..., None], values, fill)


def _round(c):
    """C++'s std::round: halves away from zero (NumPy's round goes to even)."""
    return np.sign(c) * np.floor(np.abs(c) + F32(0.5))


def _source_positions(transforms, batch, out_h, out_w):
    t = np.broadcast_to(transforms.astype(F32), (batch, 8))[:, :, None, None]
    y, x = np.meshgrid(np.arange(out_h, dtype=F32), np.arange(out_w, dtype=F32), indexing="ij")
    k = t[:, 6] * x + t[:, 7] * y + F32(1)
    with np.errstate(divide="ignore", invalid="ignore"):
        x_in = (t[:, 0] * x + t[:, 1] * y + t[:, 2]) / k
        y_in = (t[:, 3] * x + t[:, 4] * y + t[:, 5]) / k
    return x_in.astype(F32), y_in.astype(F32), k == 0


def _transform(images, transforms, output_shape, interpolation, fill_mode, fill_value):
    batch, height, width, _ = images.shape
    if transforms.shape[0] not in (1, batch):
        raise errors.op_error(errors.InvalidArgumentError, "ImageProjectiveTransformV3",
                              "Input transform should be num_images x 8 or 1 x 8",
                              "Give one transform for the batch or one per image.")
    x_in, y_in, infinite = _source_positions(transforms, batch, *output_shape)
    x = map_coordinate(x_in, width, fill_mode)
    y = map_coordinate(y_in, height, fill_mode)
    fill = F32(images.dtype.type(fill_value)) if images.dtype.kind in "iu" else F32(fill_value)
    b = np.arange(batch)[:, None, None]
    if interpolation == "nearest":
        out = _read(images, b, _round(y), _round(x), fill)
    else:
        x0, y0 = np.floor(x), np.floor(y)
        x1, y1 = x0 + 1, y0 + 1
        top = ((x1 - x)[..., None] * _read(images, b, y0, x0, fill)
               + (x - x0)[..., None] * _read(images, b, y0, x1, fill))
        bottom = ((x1 - x)[..., None] * _read(images, b, y1, x0, fill)
                  + (x - x0)[..., None] * _read(images, b, y1, x1, fill))
        out = (y1 - y)[..., None] * top + (y - y0)[..., None] * bottom
    out = np.where(infinite[..., None], fill, out)
    if images.dtype.kind in "iu":
        out = np.trunc(out)
    return out.astype(images.dtype)


def _transform_shape(images, transforms, output_shape, **attrs):
    return TensorShape([images[0], output_shape[0], output_shape[1], images[3]])


ImageProjectiveTransformV3 = Op("ImageProjectiveTransformV3", _transform, dtypes=TRANSFORM_TYPES,
                                typed=[0], shape=_transform_shape)


def _check_args(images, transform, interpolation, fill_mode):
    if interpolation not in INTERPOLATIONS:
        raise ValueError("Invalid value for argument `interpolation`. Expected of one "
                         f"{INTERPOLATIONS}. Received: interpolation={interpolation}")
    if fill_mode not in FILL_MODES:
        raise ValueError("Invalid value for argument `fill_mode`. Expected of one "
                         f"{FILL_MODES}. Received: fill_mode={fill_mode}")
    if images.shape.rank not in (3, 4):
        raise ValueError("Invalid images rank: expected rank 3 (single image) or rank 4 (batch "
                         f"of images). Received input with shape: images.shape={images.shape}")
    if transform.shape.rank not in (1, 2) or transform.shape[-1] not in (8, None):
        raise ValueError("Invalid transform rank: expected rank 1 (single transform) or rank 2 "
                         "(batch of transforms) of 8 numbers [a0, a1, a2, b0, b1, b2, c0, c1]. "
                         f"Received input with shape: transform.shape={transform.shape}")


def affine_transform(images, transform, interpolation="bilinear", fill_mode="constant",
                     fill_value=0, data_format=None):
    """Keras 3's `keras.ops.image.affine_transform`: resample images through 8-number transforms.

    images: [h, w, c] or [batch, h, w, c] ("channels_first" puts c first);
    transform: [8] or [batch, 8] (see the module docstring). Same shape and dtype out.

    >>> image = tf.reshape(tf.range(4.0), [2, 2, 1])
    >>> flip_lr = [-1.0, 0.0, 1.0, 0.0, 1.0, 0.0, 0.0, 0.0]      # x_in = 1 - x
    >>> affine_transform(image, flip_lr)[..., 0].numpy()
    array([[1., 0.],
           [3., 2.]], dtype=float32)
    """
    from ..ops import array_ops
    images = convert_to_tensor(images, name="images")
    transform = convert_to_tensor(transform, dtype=dtypes.float32, name="transform")
    _check_args(images, transform, interpolation, fill_mode)
    unbatched = images.shape.rank == 3
    if unbatched:
        images = array_ops.expand_dims(images, 0)
    if transform.shape.rank == 1:
        transform = array_ops.expand_dims(transform, 0)
    if data_format == "channels_first":
        images = array_ops.transpose(images, (0, 2, 3, 1))
    out_size = images.shape.as_list()[1:3]
    if None in out_size:
        raise ValueError("affine_transform needs the image height and width known when traced; "
                         f"received images.shape={images.shape}.")
    out = apply(ImageProjectiveTransformV3, [images, transform],
                {"output_shape": tuple(out_size), "interpolation": interpolation,
                 "fill_mode": fill_mode, "fill_value": float(fill_value)})
    if data_format == "channels_first":
        out = array_ops.transpose(out, (0, 3, 1, 2))
    return array_ops.squeeze(out, [0]) if unbatched else out
