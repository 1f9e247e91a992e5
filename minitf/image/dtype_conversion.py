"""`tf.image.convert_image_dtype`: change an image's dtype *and* its scale.

A float image holds values in [0, 1]; an integer image holds values in
[0, MAX], MAX being the dtype's largest value (255 for uint8). Converting
rescales, so the picture stays the same picture:

>>> import minitf as tf
>>> tf.image.convert_image_dtype(tf.constant([0, 128, 255], tf.uint8), tf.float32).numpy()
array([0.       , 0.5019608, 1.       ], dtype=float32)

TensorFlow's rules, followed exactly here:

* int -> float: cast, then multiply by 1 / MAX_in;
* float -> int: multiply by MAX_out + 0.5, then cast (which truncates), so
  1.0 becomes MAX_out and each integer gets an equal share of [0, 1]
  (0.5 * 255.5 = 127.75 becomes 127);
* int -> wider int: cast, then multiply by (MAX_out + 1) // (MAX_in + 1)
  (uint8 255 -> int16 255 * 128 = 32640, not 32767; converting back gives 255);
* int -> narrower int: floor-divide by (MAX_in + 1) // (MAX_out + 1), then cast;
* float -> float: a plain cast.

`saturate=True` clips to the output dtype's range before a cast that could
wrap around (float -> int, signed -> unsigned); without it, 1.5 as uint8 wraps
like a C cast. The arithmetic is made of ordinary ops, so the float -> float
and float -> int paths pass gradients where TensorFlow's do.
"""
import numpy as np

from ..framework import dtypes
from ..framework.tensor import convert_to_tensor
from ..framework.tf_export import tf_export
from ..ops.clip_ops import clip_by_value
from ..ops.creation_ops import identity
from ..ops.math_ops import cast, floordiv, multiply


def _saturate_limits(in_dtype, out_dtype):
    """The clip range, in the input dtype, that makes a cast to `out_dtype` safe.

    As TF's `saturate_cast`: the overlap of both ranges, stepped one float towards 0
    where the input dtype cannot hold the output's bound exactly (float32(2**31 - 1)
    is 2**31, which would overflow int32)."""
    np_in = in_dtype.as_numpy_dtype
    try:
        wide = np.promote_types(np_in, out_dtype.as_numpy_dtype)
    except TypeError:
        wide = np.float64
    low = np_in(np.maximum(in_dtype.min, out_dtype.min))
    pair = np.array([low, out_dtype.min], dtype=wide)
    if pair[0] < pair[1]:
        low = np.nextafter(low, np_in(0), dtype=np_in)
    high = np_in(np.minimum(float(in_dtype.max), float(out_dtype.max)))
    pair = np.array([high, out_dtype.max], dtype=wide)
    if pair[0] > pair[1]:
        high = np.nextafter(high, np_in(0), dtype=np_in)
    return low, high


def saturate_cast(value, dtype):
    """Cast after clipping to `dtype`'s range (TF's `tf.dtypes.saturate_cast`).

    >>> saturate_cast(tf.constant([-3.0, 300.0]), tf.uint8)
    <tf.Tensor: shape=(2,), dtype=uint8, numpy=array([  0, 255], dtype=uint8)>
    """
    value = convert_to_tensor(value)
    in_dtype = value.dtype
    if in_dtype.min < dtype.min or in_dtype.max > dtype.max:
        low, high = _saturate_limits(in_dtype, dtype)
        value = clip_by_value(value, convert_to_tensor(low, in_dtype),
                              convert_to_tensor(high, in_dtype))
    return cast(value, dtype)


def _int_to_int(image, dtype, saturate):
    scale_in, scale_out = image.dtype.max, dtype.max
    if scale_in > scale_out:  # narrower: divide first, so MAX_in lands just below MAX_out + 1
        scale = (scale_in + 1) // (scale_out + 1)
        scaled = floordiv(image, convert_to_tensor(scale, image.dtype))
        return saturate_cast(scaled, dtype) if saturate else cast(scaled, dtype)
    converted = saturate_cast(image, dtype) if saturate else cast(image, dtype)
    scale = (scale_out + 1) // (scale_in + 1)  # wider: cast first, then scale up
    return multiply(converted, convert_to_tensor(scale, dtype))


@tf_export("image.convert_image_dtype")
def convert_image_dtype(image, dtype, saturate=False, name=None):
    """Convert `image` to `dtype`, scaling its values (see the module notes for the rules).

    >>> x = tf.constant([[[0.0], [0.5]], [[0.25], [1.0]]])
    >>> tf.image.convert_image_dtype(x, tf.uint8)[..., 0]
    <tf.Tensor: shape=(2, 2), dtype=uint8, numpy=
    array([[  0, 127],
           [ 63, 255]], dtype=uint8)>
    >>> tf.image.convert_image_dtype(tf.constant([2.0]), tf.uint8, saturate=True)
    <tf.Tensor: shape=(1,), dtype=uint8, numpy=array([255], dtype=uint8)>
    """
    image = convert_to_tensor(image)
    dtype = dtypes.as_dtype(dtype)
    if not (dtype.is_floating or dtype.is_integer):
        raise AttributeError("dtype must be either floating point or integer")
    if not (image.dtype.is_floating or image.dtype.is_integer):
        raise AttributeError("image dtype must be either floating point or integer")
    if dtype == image.dtype:
        return identity(image)
    if image.dtype.is_integer and dtype.is_integer:
        return _int_to_int(image, dtype, saturate)
    if image.dtype.is_floating and dtype.is_floating:
        return cast(image, dtype)
    if image.dtype.is_integer:  # to float: cast, then scale into [0, 1]
        return multiply(cast(image, dtype), convert_to_tensor(1.0 / image.dtype.max, dtype))
    scaled = multiply(image, convert_to_tensor(dtype.max + 0.5, image.dtype))  # +0.5: 1.0 -> MAX
    return saturate_cast(scaled, dtype) if saturate else cast(scaled, dtype)
