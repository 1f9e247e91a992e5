"""Colour adjustments: brightness, contrast, gamma, hue, saturation, standardization.

Each `adjust_*` works the way TensorFlow's does: an integer image is first
converted to float32 in [0, 1] (`convert_image_dtype`), adjusted, and
converted back to its own dtype (clipping, so 250 + a lot stays 255):

>>> import minitf as tf
>>> tf.image.adjust_brightness(tf.constant([[[10, 250]]], tf.uint8), 0.1)
<tf.Tensor: shape=(1, 1, 2), dtype=uint8, numpy=array([[[ 35, 255]]], dtype=uint8)>

A float image is adjusted as it is, with no clipping: 0.9 + 0.2 is 1.1.
Brightness, gamma and `per_image_standardization` are made of ordinary ops
and have gradients; TensorFlow's AdjustContrastv2, AdjustHue and
AdjustSaturation kernels have none (TF raises LookupError; here the tape
simply records nothing for them, so the gradient is None).
"""
import numpy as np

from ..framework import dtypes, errors
from ..framework.op import Op, apply
from ..framework.tensor import EagerTensor, convert_to_tensor
from ..framework.tf_export import tf_export
from ..ops.math_ops import cast, maximum
from ..ops.reduction_ops import reduce_mean, reduce_prod, reduce_std
from ..ops.shape_ops import shape as shape_of
from ..ops.unary_ops import rsqrt
from ..ops.shape_rules import dims_text
from .color_spaces import _three_channels, checked
from .dtype_conversion import convert_image_dtype
from .hsv_kernels import scale_saturation, shift_hue

_KERNEL_DTYPES = {dtypes.float16, dtypes.float32}


def _to_float(image):
    """TF's first step: float16/float32 images stay, everything else becomes float32."""
    image = convert_to_tensor(image)
    if image.dtype in _KERNEL_DTYPES:
        return image, image.dtype
    return convert_image_dtype(image, dtypes.float32), image.dtype


def _at_least_3d(op_name):
    def rule(shape, *rest, **attrs):
        if shape.rank is not None and shape.rank < 3:
            raise errors.op_error(errors.InvalidArgumentError, op_name,
                                  f"input must be at least 3-D, got shape{dims_text(shape)}",
                                  "Images are [height, width, channels] (or a batch of them).")
        return shape

    return rule


def _contrast(images, factor):
    mean = images.astype(np.float32).mean(axis=(-3, -2), keepdims=True, dtype=np.float32)
    out = (images.astype(np.float32) - mean) * np.float32(factor) + mean
    return out.astype(images.dtype)


AdjustContrastv2 = Op("AdjustContrastv2", checked(_at_least_3d("AdjustContrastv2"), _contrast),
                      dtypes=_KERNEL_DTYPES, typed=(0,), shape=_at_least_3d("AdjustContrastv2"))


def _hsv_shape(op_name):
    at_least_3d = _at_least_3d(op_name)
    three = _three_channels(op_name, errors.InvalidArgumentError, "instead has")
    return lambda shape, *rest, **attrs: three(at_least_3d(shape))


def _hsv_kernel(op_name, kernel):
    return Op(op_name, checked(_hsv_shape(op_name),
                               lambda images, value: kernel(images, value).astype(images.dtype)),
              dtypes=_KERNEL_DTYPES, typed=(0,), shape=_hsv_shape(op_name))


AdjustHue = _hsv_kernel("AdjustHue", shift_hue)
AdjustSaturation = _hsv_kernel("AdjustSaturation", scale_saturation)


def _scalar(value):
    return convert_to_tensor(value, dtypes.float32)


@tf_export("image.adjust_brightness")
def adjust_brightness(image, delta):
    """Add `delta` to every channel (of the image in float, so delta is in [-1, 1] units).

    >>> tf.image.adjust_brightness([[[0.25, 0.5, 0.75]]], delta=0.1)
    <tf.Tensor: shape=(1, 1, 3), dtype=float32, numpy=array([[[0.35, 0.6 , 0.85]]], dtype=float32)>
    """
    flt, orig = _to_float(image)
    adjusted = flt + cast(delta, flt.dtype)
    return convert_image_dtype(adjusted, orig, saturate=True)


@tf_export("image.adjust_contrast")
def adjust_contrast(images, contrast_factor):
    """Per image and channel: (x - mean) * contrast_factor + mean, the mean over height and width.

    >>> tf.image.adjust_contrast([[[1.0], [2.0]], [[3.0], [4.0]]], 2.0)[..., 0]
    <tf.Tensor: shape=(2, 2), dtype=float32, numpy=
    array([[-0.5,  1.5],
           [ 3.5,  5.5]], dtype=float32)>
    """
    flt, orig = _to_float(images)
    adjusted = apply(AdjustContrastv2, [flt, _scalar(contrast_factor)])
    return convert_image_dtype(adjusted, orig, saturate=True)


@tf_export("image.adjust_gamma")
def adjust_gamma(image, gamma=1, gain=1):
    """Gamma correction: gain * image ** gamma (gamma < 1 brightens, > 1 darkens).

    >>> tf.image.adjust_gamma(tf.constant([[[0.25, 1.0]]]), gamma=0.5)
    <tf.Tensor: shape=(1, 1, 2), dtype=float32, numpy=array([[[0.5, 1. ]]], dtype=float32)>
    """
    flt, orig = _to_float(image)
    gamma_t = convert_to_tensor(gamma)
    if isinstance(gamma_t, EagerTensor) and np.any(gamma_t.numpy() < 0):
        raise ValueError("Gamma should be a non-negative real number.")
    adjusted = cast(gain, flt.dtype) * flt ** cast(gamma_t, flt.dtype)
    return convert_image_dtype(adjusted, orig, saturate=True)


@tf_export("image.adjust_hue")
def adjust_hue(image, delta, name=None):
    """Turn the hue of RGB images by `delta` turns of the colour wheel (delta in [-1, 1]).

    >>> tf.image.adjust_hue([[[1.0, 0.0, 0.0]]], 1 / 3)   # red -> green
    <tf.Tensor: shape=(1, 1, 3), dtype=float32, numpy=array([[[0., 1., 0.]]], dtype=float32)>
    """
    delta_t = _scalar(delta)
    if isinstance(delta_t, EagerTensor) and not -1 <= float(delta_t.numpy()) <= 1:
        raise ValueError("delta must be in the interval [-1, 1]")
    flt, orig = _to_float(image)
    return convert_image_dtype(apply(AdjustHue, [flt, delta_t]), orig)


@tf_export("image.adjust_saturation")
def adjust_saturation(image, saturation_factor, name=None):
    """Scale the saturation (S of HSV) of RGB images by `saturation_factor`, clipped to [0, 1].

    >>> tf.image.adjust_saturation([[[0.2, 0.4, 0.6]]], 0.0)   # no colour left: grey
    <tf.Tensor: shape=(1, 1, 3), dtype=float32, numpy=array([[[0.6, 0.6, 0.6]]], dtype=float32)>
    """
    flt, orig = _to_float(image)
    adjusted = apply(AdjustSaturation, [flt, _scalar(saturation_factor)])
    return convert_image_dtype(adjusted, orig)


@tf_export("image.per_image_standardization")
def per_image_standardization(image):
    """(x - mean) / max(stddev, 1/sqrt(N)) for each image; N = height * width * channels.

    The floor on the standard deviation keeps a flat image from dividing by 0.

    >>> tf.image.per_image_standardization(tf.constant([[[1], [3]]]))[..., 0]
    <tf.Tensor: shape=(1, 2), dtype=float32, numpy=array([[-1.,  1.]], dtype=float32)>
    """
    image = convert_to_tensor(image)
    if image.shape.rank is not None and image.shape.rank < 3:
        raise ValueError(f"'image' (shape {image.shape}) must be at least three-dimensional.")
    image = cast(image, dtypes.float32)
    num_pixels = reduce_prod(shape_of(image)[-3:])
    mean = reduce_mean(image, axis=[-1, -2, -3], keepdims=True)
    stddev = reduce_std(image, axis=[-1, -2, -3], keepdims=True)
    adjusted_stddev = maximum(stddev, rsqrt(cast(num_pixels, dtypes.float32)))
    return (image - mean) / adjusted_stddev
