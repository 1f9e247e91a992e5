"""`tf.image.crop_and_resize`: cut boxes out of images and resample each to one size.

A box is [y1, x1, y2, x2] in normalised coordinates (0 = first pixel, 1 = last). Crop
row `y` of `crop_height` samples the image at

    in_y = y1 * (H - 1) + y * (y2 - y1) * (H - 1) / (crop_height - 1)

(the box's centre when crop_height is 1), and likewise for columns; samples
outside the image get `extrapolation_value`. Bilinear mixes the four pixels around
a sample; nearest takes the closest one (rounding halves away from zero).

Gradients, as TF's: the image gradient sends each crop pixel's gradient back to the
pixels it was mixed from (CropAndResizeGradImage); the box gradient is the
derivative of the bilinear sample position (CropAndResizeGradBoxes) - TF uses
bilinear's even when method is "nearest", and so does minitf.

>>> import minitf as tf
>>> image = tf.reshape(tf.range(9.0), [1, 3, 3, 1])
>>> tf.image.crop_and_resize(image, [[0.0, 0.0, 0.5, 0.5]], [0], [2, 2])[0, ..., 0]
<tf.Tensor: shape=(2, 2), dtype=float32, numpy=
array([[0., 1.],
       [3., 4.]], dtype=float32)>
"""
import numpy as np

from ..framework import dtypes, errors
from ..framework.op import Op, apply
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export
from ..ops.math_ops import cast
from .resize_ops import static_size

F32 = np.float32
CROP_TYPES = frozenset({dtypes.uint8, dtypes.uint16, dtypes.int8, dtypes.int16, dtypes.int32,
                        dtypes.int64, dtypes.float16, dtypes.float32, dtypes.float64})


def _error(message, hint, cls=errors.InvalidArgumentError):
    return errors.op_error(cls, "CropAndResize", message, hint)


def _check(image_shape, boxes, box_index, crop_size):
    if len(image_shape) != 4:
        raise _error(f"input image must be 4-D[{','.join(map(str, image_shape))}]",
                     "crop_and_resize takes a batch [batch, height, width, channels].")
    if boxes.ndim != 2 or boxes.shape[1] != 4:
        raise _error("boxes must have 4 columns", "Each box is [y1, x1, y2, x2].")
    if box_index.shape != (boxes.shape[0],):
        raise _error("box_index has incompatible shape",
                     "Give one box_indices entry (which image) per box.")
    if min(crop_size) <= 0:
        raise _error("crop dimensions must be positive", "Ask for at least one pixel.")
    if box_index.size and (box_index.min() < 0 or box_index.max() >= image_shape[0]):
        raise _error("box_index has values outside [0, batch_size)",
                     "Each box_indices entry names an image of the batch.",
                     errors.OutOfRangeError)


def sample_positions(start, end, size, crop):
    """Where each of the `crop` samples falls, per box: (positions [boxes, crop], step)."""
    start, end = start.astype(F32)[:, None], end.astype(F32)[:, None]
    last = F32(size - 1)
    if crop > 1:
        step = (end - start) * last / F32(crop - 1)
        return start * last + np.arange(crop, dtype=F32) * step, F32(last / F32(crop - 1))
    return F32(0.5) * (start + end) * last + np.zeros(1, F32), F32(0)


class Sampling:
    """Sample positions, the pixels around them and the weights, for all boxes at once."""

    def __init__(self, image_shape, boxes, box_index, crop_size):
        _, height, width, _ = image_shape
        self.ys, self.y_ratio = sample_positions(boxes[:, 0], boxes[:, 2], height, crop_size[0])
        self.xs, self.x_ratio = sample_positions(boxes[:, 1], boxes[:, 3], width, crop_size[1])
        self.inside = ((self.ys >= 0) & (self.ys <= height - 1))[:, :, None] & \
            ((self.xs >= 0) & (self.xs <= width - 1))[:, None, :]          # [boxes, ch, cw]
        ys, xs = np.clip(self.ys, 0, height - 1), np.clip(self.xs, 0, width - 1)
        self.top, self.bottom = np.floor(ys).astype(np.int64), np.ceil(ys).astype(np.int64)
        self.left, self.right = np.floor(xs).astype(np.int64), np.ceil(xs).astype(np.int64)
        self.y_lerp = (ys - self.top)[:, :, None, None]
        self.x_lerp = (xs - self.left)[:, None, :, None]
        self.b = box_index.astype(np.int64)[:, None, None]

    def corners(self, image):
        """The four pixels around every sample: each [boxes, ch, cw, channels]."""
        b, t, bo = self.b, self.top[:, :, None], self.bottom[:, :, None]
        left, right = self.left[:, None, :], self.right[:, None, :]
        return image[b, t, left], image[b, t, right], image[b, bo, left], image[b, bo, right]

    def nearest(self):
        """Rows and columns of the closest pixels (C's round: halves away from zero)."""
        round_ = lambda v: np.floor(np.abs(v) + F32(0.5)) * np.sign(v)  # noqa: E731
        return (round_(self.top + self.y_lerp[:, :, 0, 0]).astype(np.int64),
                round_(self.left + self.x_lerp[:, 0, :, 0]).astype(np.int64))


def _crop_and_resize(image, boxes, box_index, crop_size, method, extrapolation_value):
    _check(image.shape, boxes, box_index, crop_size)
    s = Sampling(image.shape, boxes, box_index, crop_size)
    if method == "nearest":
        rows, cols = s.nearest()
        crops = image[s.b, rows[:, :, None], cols[:, None, :]].astype(F32)
    else:
        top_left, top_right, bottom_left, bottom_right = [c.astype(F32) for c in s.corners(image)]
        top = top_left + (top_right - top_left) * s.x_lerp
        bottom = bottom_left + (bottom_right - bottom_left) * s.x_lerp
        crops = top + (bottom - top) * s.y_lerp
    return np.where(s.inside[..., None], crops, F32(extrapolation_value)).astype(F32)


def _crop_shape(image, boxes, box_index, crop_size, **attrs):
    return TensorShape([boxes[0], crop_size[0], crop_size[1], image[3]])


CropAndResize = Op("CropAndResize", _crop_and_resize, dtypes=CROP_TYPES, typed=[0],
                   shape=_crop_shape, dtype=dtypes.float32)


def _grad_image(grads, boxes, box_index, image, method):
    """Each crop pixel's gradient, added to the pixels it was read from (TF passes the
    image's shape; minitf passes the image, whose shape is known when the op runs)."""
    image_shape = image.shape
    s = Sampling(image_shape, boxes, box_index, grads.shape[1:3])
    out = np.zeros(image_shape, grads.dtype)
    g = np.where(s.inside[..., None], grads, 0)
    if method == "nearest":
        rows, cols = s.nearest()
        np.add.at(out, (s.b, rows[:, :, None], cols[:, None, :]), g)
        return out
    t, bo = s.top[:, :, None], s.bottom[:, :, None]
    left, right = s.left[:, None, :], s.right[:, None, :]
    for rows, cols, weight in [(t, left, (1 - s.y_lerp) * (1 - s.x_lerp)),
                               (t, right, (1 - s.y_lerp) * s.x_lerp),
                               (bo, left, s.y_lerp * (1 - s.x_lerp)),
                               (bo, right, s.y_lerp * s.x_lerp)]:
        np.add.at(out, (s.b, rows, cols), g * weight)
    return out


def _grad_boxes(grads, image, boxes, box_index):
    """d crop / d box: the image's slope at each sample times how the sample moves."""
    _, height, width, _ = image.shape
    s = Sampling(image.shape, boxes, box_index, grads.shape[1:3])
    top_left, top_right, bottom_left, bottom_right = [c.astype(F32) for c in s.corners(image)]
    g = np.where(s.inside[..., None], grads.astype(F32), 0)
    x_lerp, y_lerp = s.x_lerp, s.y_lerp
    slope_y = ((1 - x_lerp) * (bottom_left - top_left) + x_lerp * (bottom_right - top_right)) * g
    slope_x = ((1 - y_lerp) * (top_right - top_left) + y_lerp * (bottom_right - bottom_left)) * g
    slope_y, slope_x = slope_y.sum(axis=(2, 3)), slope_x.sum(axis=(1, 3))  # [boxes, ch / cw]
    out = np.zeros(boxes.shape, F32)
    axes = [(0, slope_y, height, s.y_ratio), (1, slope_x, width, s.x_ratio)]
    for column, slope, size, ratio in axes:
        steps = np.arange(slope.shape[1], dtype=F32) * ratio
        if slope.shape[1] > 1:
            out[:, column] = (slope * (F32(size - 1) - steps)).sum(axis=1)
            out[:, column + 2] = (slope * steps).sum(axis=1)
        else:
            out[:, column] = out[:, column + 2] = slope[:, 0] * F32(0.5) * F32(size - 1)
    return out


CropAndResizeGradImage = Op("CropAndResizeGradImage", _grad_image, typed=[0],
                            shape=lambda grads, boxes, box_index, image, method: image)
CropAndResizeGradBoxes = Op("CropAndResizeGradBoxes", _grad_boxes, typed=[], dtype=dtypes.float32,
                            shape=lambda grads, image, boxes, box_index: boxes)


@CropAndResize.def_grad
def _crop_and_resize_grad(op, dy):
    image, boxes, box_index = op.inputs
    grad_image = None
    if image.dtype.is_floating:
        grad_image = apply(CropAndResizeGradImage, [dy, boxes, box_index, image],
                           {"method": op.attrs["method"]})
        if grad_image.dtype != image.dtype:
            grad_image = cast(grad_image, image.dtype)
    return grad_image, apply(CropAndResizeGradBoxes, [dy, image, boxes, box_index]), None


@tf_export("image.crop_and_resize")
def crop_and_resize(image, boxes, box_indices, crop_size, method="bilinear",
                    extrapolation_value=0.0, name=None):
    """Crop box `i` out of image `box_indices[i]` and resample it to `crop_size`.

    image: [batch, height, width, channels]; boxes: [num_boxes, 4] float32 rows
    [y1, x1, y2, x2] (normalised: 0..1 spans the image; y1 > y2 flips the crop);
    box_indices: [num_boxes] int32. The result is float32 [num_boxes, h, w, channels].

    >>> image = tf.reshape(tf.range(16.0), [1, 4, 4, 1])
    >>> tf.image.crop_and_resize(image, [[0.0, 0.0, 1.0, 1.0]], [0], [2, 2])[0, ..., 0]
    <tf.Tensor: shape=(2, 2), dtype=float32, numpy=
    array([[ 0.,  3.],
           [12., 15.]], dtype=float32)>
    """
    image = convert_to_tensor(image, name="image")
    boxes = convert_to_tensor(boxes, dtype=dtypes.float32, name="boxes")
    box_indices = convert_to_tensor(box_indices, dtype=dtypes.int32, name="box_indices")
    if method not in ("bilinear", "nearest"):
        raise errors.InvalidArgumentError(
            None, "CropAndResize",
            f"Value for attr 'method' of \"{method}\" is not in the list of allowed values: "
            "\"bilinear\", \"nearest\" crop_and_resize samples with bilinear or nearest only.")
    return apply(CropAndResize, [image, boxes, box_indices],
                 {"crop_size": static_size(crop_size, "crop_size"), "method": method,
                  "extrapolation_value": float(extrapolation_value)})
