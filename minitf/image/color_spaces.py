"""Colour spaces: RGB <-> HSV, YIQ, YUV and grayscale.

Images are float tensors whose last axis holds the 3 channels, values in [0, 1]:

>>> import minitf as tf
>>> tf.image.rgb_to_hsv(tf.constant([[1.0, 0.5, 0.0]])).numpy()   # orange: hue 30/360
array([[0.08333334, 1.        , 1.        ]], dtype=float32)

* HSV (hue, saturation, value): V = max(r, g, b), S = (V - min) / V, and H the
  angle around the colour wheel as a fraction of a turn, from the channel
  that is largest. `rgb_to_hsv` has a gradient (written out below, as TF's
  `_RGBToHSVGrad`); `hsv_to_rgb` has none in TensorFlow, nor here.
* YIQ and YUV are linear: one 3 x 3 matrix applied to the channel axis
  (`tensordot`), so their gradients come from the matrix product.
* grayscale is the weighted sum 0.2989 r + 0.5870 g + 0.1140 b (TF's weights),
  computed in float and converted back to the input's dtype.
"""
import numpy as np

from ..framework import dtypes, errors
from ..framework.op import Op, apply
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export
from ..ops.array_ops import expand_dims, stack, tile
from ..ops.linalg_ops import tensordot
from ..ops.math_ops import cast, equal, greater, greater_equal, less, less_equal, logical_and
from ..ops.shape_rules import same_shape
from .dtype_conversion import convert_image_dtype

HSV_DTYPES = {dtypes.float16, dtypes.float32, dtypes.float64}


def _three_channels(op_name, cls=errors.FailedPreconditionError, words="input only has"):
    """Shape rule: the last axis holds 3 channels (TF's class and words differ per kernel)."""
    def rule(shape, *rest, **attrs):
        if shape.rank is not None and (shape.rank == 0 or shape[-1] not in (None, 3)):
            got = 0 if shape.rank == 0 else shape[-1]
            raise errors.op_error(
                cls, op_name, f"input must have 3 channels but {words} {got} channels.",
                "The last axis of an RGB (or HSV) image holds its 3 channels.")
        return shape

    return rule


def _hsv(rgb):
    """NumPy RGB -> HSV with TF's tie rules (red wins, then green); grey pixels get H = 0."""
    r, g, b = rgb[..., 0], rgb[..., 1], rgb[..., 2]
    v = rgb.max(axis=-1)
    span = v - rgb.min(axis=-1)
    s = np.where(v > 0, span / np.where(v > 0, v, 1), 0)
    norm = 1 / (6 * np.where(span > 0, span, 1))
    h = np.where(r == v, norm * (g - b),
                 np.where(g == v, norm * (b - r) + 2 / 6, norm * (r - g) + 4 / 6))
    h = np.where(span > 0, h, 0)
    h = np.where(h < 0, h + 1, h)
    return np.stack([h, s, v], axis=-1).astype(rgb.dtype)


def _rgb(hsv):
    """NumPy HSV -> RGB: TF's piecewise-linear ramps of 6 * H for each channel."""
    h, s, v = hsv[..., 0], hsv[..., 1], hsv[..., 2]
    dh = h * 6
    ramps = [np.clip(np.abs(dh - 3) - 1, 0, 1),      # red
             np.clip(2 - np.abs(dh - 2), 0, 1),      # green
             np.clip(2 - np.abs(dh - 4), 0, 1)]      # blue
    return np.stack([(1 - s + s * c) * v for c in ramps], axis=-1).astype(hsv.dtype)


def checked(rule, kernel):
    """A forward that checks its input's shape with `rule` first (eager runs skip shape rules)."""
    def forward(array, *rest):
        rule(TensorShape(array.shape))
        return kernel(array, *rest)

    return forward


RGBToHSV = Op("RGBToHSV", checked(_three_channels("RGBToHSV"), _hsv), dtypes=HSV_DTYPES,
              shape=_three_channels("RGBToHSV"))
HSVToRGB = Op("HSVToRGB", checked(_three_channels("HSVToRGB"), _rgb), dtypes=HSV_DTYPES,
              shape=_three_channels("HSVToRGB"))


def _mask(condition, dtype):
    return cast(condition, dtype)


@RGBToHSV.def_grad
def _rgb_to_hsv_grad(op, dy):
    """Chain rule through V = max, m = min, S = (V - m)/V, H = (a - b)/(6 (V - m)) + const.

    Which channel is the max (first wins) and the min (last wins) are fixed masks,
    as in TF; a and b are the two channels the hue formula subtracts."""
    x = op.inputs[0]
    r, g, b = x[..., 0], x[..., 1], x[..., 2]
    dt = x.dtype
    is_max = [_mask(logical_and(greater_equal(r, g), greater_equal(r, b)), dt),
              _mask(logical_and(greater(g, r), greater_equal(g, b)), dt),
              _mask(logical_and(greater(b, r), greater(b, g)), dt)]
    is_min = [_mask(logical_and(less(r, g), less(r, b)), dt),
              _mask(logical_and(less_equal(g, r), less(g, b)), dt),
              _mask(logical_and(less_equal(b, r), less_equal(b, g)), dt)]
    h_out, s_out, v = op.outputs[0][..., 0], op.outputs[0][..., 1], op.outputs[0][..., 2]
    low = v - s_out * v  # the min channel, recovered from the outputs
    span = v - low
    live_v = _mask(greater(v, 0), dt)
    live_span = _mask(greater(span, 0), dt)
    safe_v = v + (1 - live_v)
    safe_span = span + (1 - live_span)
    dh, ds, dv = dy[..., 0], dy[..., 1], dy[..., 2]
    # S = 1 - m/V: dS/dV = m/V^2, dS/dm = -1/V
    grad_v = dv + ds * live_v * low / (safe_v * safe_v)
    grad_m = -ds * live_v / safe_v
    # H = (a - b) / (6 span): the pair (a, b) is (g, b), (b, r) or (r, g) for max r, g, b
    diff = (is_max[0] * (g - b) + is_max[1] * (b - r) + is_max[2] * (r - g))
    dh = dh * live_span / (6 * safe_span)
    grad_v -= dh * diff / safe_span
    grad_m += dh * diff / safe_span
    grad_a = [is_max[1] * -dh + is_max[2] * dh,      # red is a or b
              is_max[0] * dh + is_max[2] * -dh,      # green
              is_max[0] * -dh + is_max[1] * dh]      # blue
    grads = [grad_a[i] + is_max[i] * grad_v + is_min[i] * grad_m for i in range(3)]
    return stack(grads, axis=-1)


@tf_export("image.rgb_to_hsv")
def rgb_to_hsv(images, name=None):
    """RGB -> HSV; the last axis is (r, g, b) in [0, 1], the output (h, s, v) in [0, 1].

    >>> tf.image.rgb_to_hsv(tf.constant([[0.2, 0.4, 0.4], [0.5, 0.5, 0.5]]))
    <tf.Tensor: shape=(2, 3), dtype=float32, numpy=
    array([[0.5, 0.5, 0.4],
           [0. , 0. , 0.5]], dtype=float32)>
    """
    return apply(RGBToHSV, [convert_to_tensor(images)])


@tf_export("image.hsv_to_rgb")
def hsv_to_rgb(images, name=None):
    """HSV -> RGB, the inverse of `rgb_to_hsv` (TF defines no gradient for it).

    >>> tf.image.hsv_to_rgb(tf.constant([[0.5, 0.5, 0.4]]))
    <tf.Tensor: shape=(1, 3), dtype=float32, numpy=array([[0.2, 0.4, 0.4]], dtype=float32)>
    """
    return apply(HSVToRGB, [convert_to_tensor(images)])


# TensorFlow's matrices (image_ops_impl.py), applied as images @ kernel on the channel axis.
_RGB_TO_YIQ = [[0.299, 0.59590059, 0.2115],
               [0.587, -0.27455667, -0.52273617],
               [0.114, -0.32134392, 0.31119955]]
_YIQ_TO_RGB = [[1, 1, 1], [0.95598634, -0.27201283, -1.10674021],
               [0.6208248, -0.64720424, 1.70423049]]
_RGB_TO_YUV = [[0.299, -0.14714119, 0.61497538],
               [0.587, -0.28886916, -0.51496512],
               [0.114, 0.43601035, -0.10001026]]
_YUV_TO_RGB = [[1, 1, 1], [0, -0.394642334, 2.03206185],
               [1.13988303, -0.58062185, 0]]


def _linear(images, kernel):
    images = convert_to_tensor(images)
    if images.shape.rank is not None and images.shape.rank > 0 and \
            images.shape[-1] not in (None, 3):
        raise ValueError(f"Dimensions must be equal, but are {images.shape[-1]} and 3: the "
                         "last axis of the image must hold 3 colour channels.")
    kernel = convert_to_tensor(np.array(kernel), images.dtype)
    return tensordot(images, kernel, axes=[[images.shape.rank - 1], [0]])


@tf_export("image.rgb_to_yiq")
def rgb_to_yiq(images):
    """RGB -> YIQ (luma, in-phase, quadrature): one matrix on the channel axis.

    >>> tf.image.rgb_to_yiq(tf.constant([[[1.0, 2.0, 3.0]]])).numpy()
    array([[[ 1.815     , -0.91724455,  0.09962624]]], dtype=float32)
    """
    return _linear(images, _RGB_TO_YIQ)


@tf_export("image.yiq_to_rgb")
def yiq_to_rgb(images):
    """YIQ -> RGB, the inverse matrix of `rgb_to_yiq`.

    >>> tf.image.yiq_to_rgb(tf.constant([[1.0, 0.0, 0.0]]))
    <tf.Tensor: shape=(1, 3), dtype=float32, numpy=array([[1., 1., 1.]], dtype=float32)>
    """
    return _linear(images, _YIQ_TO_RGB)


@tf_export("image.rgb_to_yuv")
def rgb_to_yuv(images):
    """RGB -> YUV (luma and two colour differences): one matrix on the channel axis.

    >>> tf.image.rgb_to_yuv(tf.constant([[1.0, 0.0, 0.0]])).numpy()
    array([[ 0.299     , -0.14714119,  0.6149754 ]], dtype=float32)
    """
    return _linear(images, _RGB_TO_YUV)


@tf_export("image.yuv_to_rgb")
def yuv_to_rgb(images):
    """YUV -> RGB, the inverse matrix of `rgb_to_yuv`.

    >>> tf.image.yuv_to_rgb(tf.constant([[0.5, 0.0, 0.0]]))
    <tf.Tensor: shape=(1, 3), dtype=float32, numpy=array([[0.5, 0.5, 0.5]], dtype=float32)>
    """
    return _linear(images, _YUV_TO_RGB)


@tf_export("image.rgb_to_grayscale")
def rgb_to_grayscale(images, name=None):
    """One channel, 0.2989 r + 0.5870 g + 0.1140 b, in the input's dtype.

    >>> tf.image.rgb_to_grayscale(tf.constant([[[255, 0, 0]]], tf.uint8))
    <tf.Tensor: shape=(1, 1, 1), dtype=uint8, numpy=array([[[76]]], dtype=uint8)>
    """
    images = convert_to_tensor(images)
    flt = convert_image_dtype(images, dtypes.float32)
    weights = convert_to_tensor([0.2989, 0.5870, 0.1140], dtypes.float32)
    gray = expand_dims(tensordot(flt, weights, axes=[[-1], [-1]]), -1)
    return convert_image_dtype(gray, images.dtype)


@tf_export("image.grayscale_to_rgb")
def grayscale_to_rgb(images, name=None):
    """Repeat the single channel three times: shape [..., 1] -> [..., 3].

    >>> tf.image.grayscale_to_rgb(tf.constant([[[0.5]]]))
    <tf.Tensor: shape=(1, 1, 3), dtype=float32, numpy=array([[[0.5, 0.5, 0.5]]], dtype=float32)>
    """
    images = convert_to_tensor(images)
    rank = images.shape.rank
    if rank is not None and rank < 2:
        raise ValueError("A grayscale image (shape) must be at least two-dimensional.")
    if rank is not None and images.shape[-1] not in (None, 1):
        raise ValueError("Last dimension of a grayscale image should be size 1.")
    return tile(images, [1] * (rank - 1) + [3])
