"""`tf.image.extract_glimpse`: a window of fixed size from each image, at an offset.

offsets[i] = (y, x) places the window for image i. With `normalized` the numbers
are fractions of the image size; with `centered` they count from the image's
centre (normalized and centered: -1..1 spans the image, and the window is centred
there; otherwise (y, x) is the window's top-left corner). The position is truncated
to whole pixels. Where the window leaves the image it is filled with `noise`:
"zero", "uniform" (between the image's min and max) or "gaussian" (each channel's
mean and standard deviation) - random, and not TF's random numbers.

TF registers no gradient for it (ExtractGlimpseV2): asking for one raises LookupError,
in minitf as in TF.

>>> import minitf as tf
>>> image = tf.reshape(tf.range(16.0), [1, 4, 4, 1])
>>> tf.image.extract_glimpse(image, [2, 2], [[0.0, 0.0]], noise="zero")[0, ..., 0]
<tf.Tensor: shape=(2, 2), dtype=float32, numpy=
array([[ 5.,  6.],
       [ 9., 10.]], dtype=float32)>
"""
import numpy as np

from ..framework import dtypes, errors
from ..framework.op import Op, apply
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export

F32 = np.float32
_rng = np.random.default_rng()


def _error(message, hint=None):
    return errors.op_error(errors.InvalidArgumentError, "ExtractGlimpseV2", message, hint)


def _dims(shape):
    return "[" + ",".join(str(d) for d in shape) + "]"


def _check(images, size, offsets, noise):
    if images.ndim != 4:
        raise _error("input must be 4-dimensional (batch_size, height, width, depth)"
                     f"{_dims(images.shape)}")
    if size.shape != (2,):
        raise _error(f"input must be a vector of size 2 (height, width){_dims(size.shape)}")
    if offsets.ndim != 2 or offsets.shape[0] != images.shape[0]:
        raise _error(f"first dimension should be batch{_dims(offsets.shape)}",
                     "Give one (y, x) offset per image.")
    if offsets.shape[1] != 2:
        raise _error(f"second dimension should be of size 2 (y,x){_dims(offsets.shape)}")
    if noise not in ("uniform", "gaussian", "zero"):
        raise _error(f"The noise could only be uniform, gaussian, or zero, got{noise}")


def window_start(offset, size, window, normalized, centered):
    """The first pixel of the window along one axis (TF's Eigen ExtractGlimpses, version 2)."""
    pos = F32(offset)
    if normalized:
        pos = pos * F32(size)
        if centered:
            pos = pos / F32(2) + F32(size) / F32(2) - F32(window) / F32(2)
    elif centered:
        pos = pos + F32(size) / F32(2)
    return int(pos)  # C++'s cast truncates toward zero


def _overlap(start, size, window):
    """(source start, destination start, length) of the part of the window on the image."""
    if start < 0:
        length = max(0, window + start)
        return 0, window - length, min(size, length)
    if start + window >= size:
        return start, 0, min(size, max(0, size - start))
    return start, 0, window


def _noise(image, shape, noise):
    if noise == "uniform":
        low = image.min()
        return low + (_rng.random(shape, dtype=F32) * F32(image.max() - low))
    if noise == "gaussian":
        mean, sigma = image.mean(axis=(0, 1)), image.std(axis=(0, 1))
        return mean + _rng.standard_normal(shape, dtype=F32) * sigma
    return np.zeros(shape, F32)


def _extract_glimpse(images, size, offsets, centered, normalized, noise):
    _check(images, size, offsets, noise)
    n, height, width, channels = images.shape
    h, w = int(size[0]), int(size[1])
    out = np.zeros((n, h, w, channels), images.dtype)
    for i in range(n):
        top = window_start(offsets[i, 0], height, h, normalized, centered)
        left = window_start(offsets[i, 1], width, w, normalized, centered)
        sy, dy, ly = _overlap(top, height, h)
        sx, dx, lx = _overlap(left, width, w)
        if (ly, lx) != (h, w) or top + h >= height or left + w >= width:
            out[i] = _noise(images[i], (h, w, channels), noise)
        out[i, dy:dy + ly, dx:dx + lx] = images[i, sy:sy + ly, sx:sx + lx]
    return out


ExtractGlimpseV2 = Op("ExtractGlimpseV2", _extract_glimpse, dtypes=frozenset({dtypes.float32}),
                      typed=[0], stateful=True,
                      shape=lambda images, size, offsets, **attrs: TensorShape(
                          [images[0], None, None, images[3]]))


@ExtractGlimpseV2.def_grad
def _extract_glimpse_grad(op, dy):  # TF registers no gradient, and says so when asked
    raise LookupError("gradient registry has no entry for: ExtractGlimpseV2 (TensorFlow "
                      "defines no gradient for extract_glimpse; tf.image.crop_and_resize has "
                      "one)")


@tf_export("image.extract_glimpse")
def extract_glimpse(input, size, offsets, centered=True, normalized=True, noise="uniform",
                    name=None):
    """A `size` = (height, width) window from each image of a float32 batch, placed by
    offsets[i] = (y, x); see the module docstring for how the offsets are read.

    >>> image = tf.reshape(tf.range(16.0), [1, 4, 4, 1])
    >>> tf.image.extract_glimpse(image, [2, 2], [[3.0, 3.0]], centered=False,
    ...                          normalized=False, noise="zero")[0, ..., 0]
    <tf.Tensor: shape=(2, 2), dtype=float32, numpy=
    array([[15.,  0.],
           [ 0.,  0.]], dtype=float32)>
    """
    images = convert_to_tensor(input, dtype=dtypes.float32, name="input")
    inputs = [images, convert_to_tensor(size, dtype=dtypes.int32),
              convert_to_tensor(offsets, dtype=dtypes.float32)]
    return apply(ExtractGlimpseV2, inputs, {"centered": bool(centered),
                                            "normalized": bool(normalized), "noise": noise})
