"""`sample_distorted_bounding_box` and its stateless twin: a random crop that keeps
enough of an object - the augmentation of Inception-style training.

TF's recipe (sample_distorted_bounding_box_op.cc), up to `max_attempts` times:
draw an aspect ratio in `aspect_ratio_range`; draw a height whose box, at that
ratio, has between `area_range[0]` and `area_range[1]` of the image's area; put the
box at a random place; accept it when it covers at least `min_object_covered` of
one of `bounding_boxes` (given normalised, [y_min, x_min, y_max, x_max]). If no
attempt succeeds the whole image is the crop. The result feeds `tf.slice`:
(begin = [y, x, 0], size = [h, w, -1], the crop as a normalised box [1, 1, 4]).

NB: minitf's random numbers are not TF's Philox stream: a given seed picks other
boxes than in TF, with the same rules.

>>> import minitf as tf
>>> begin, size, box = tf.image.stateless_sample_distorted_bounding_box(
...     [40, 60, 3], [[[0.1, 0.2, 0.5, 0.9]]], seed=[1, 2])
>>> image = tf.zeros([40, 60, 3])
>>> tf.slice(image, begin, size).shape == (int(size[0]), int(size[1]), 3)
True
"""
import numpy as np

from ..framework import dtypes, errors
from ..framework.op import Op, apply
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export
from ..ops import random_ops

F32 = np.float32
SIZE_TYPES = frozenset({dtypes.uint8, dtypes.int8, dtypes.int16, dtypes.int32, dtypes.int64})


def random_crop_box(rng, width, height, min_area, max_area, aspect_ratio):
    """TF's GenerateRandomCrop: (x0, y0, x1, y1) in pixels, or None if the ratio cannot fit."""
    if max_area <= 0 or aspect_ratio <= 0 or min_area > max_area:
        return None
    min_area, max_area = F32(min_area * width * height), F32(max_area * width * height)
    h = int(np.rint(np.sqrt(min_area / aspect_ratio)))
    max_h = int(np.rint(np.sqrt(max_area / aspect_ratio)))
    if np.rint(max_h * aspect_ratio) > width:
        max_h = int((width + 0.5 - 1e-7) / aspect_ratio)
        if np.rint(max_h * aspect_ratio) > width:
            max_h -= 1
    max_h = min(max_h, height)
    h = min(h, max_h)
    if h < max_h:
        h += int(rng.integers(0, max_h - h + 1))
    w = int(np.rint(h * aspect_ratio))
    if w * h < min_area:  # rounding made it too small: one row more
        h += 1
        w = int(np.rint(h * aspect_ratio))
    if not (min_area <= w * h <= max_area and 0 < w <= width and 0 < h <= height):
        return None
    y = int(rng.integers(0, height - h)) if h < height else 0
    x = int(rng.integers(0, width - w)) if w < width else 0
    return x, y, x + w, y + h


def covers_an_object(crop, objects, min_object_covered):
    """TF's SatisfiesOverlapConstraints: the crop has pixels and covers enough of an object."""
    x0, y0, x1, y1 = crop
    if (x1 - x0) * (y1 - y0) < 1:
        return False
    for ox0, oy0, ox1, oy1 in objects:
        area = (ox1 - ox0) * (oy1 - oy0)
        if area < 1:
            continue
        inter = max(0, min(x1, ox1) - max(x0, ox0)) * max(0, min(y1, oy1) - max(y0, oy0))
        if inter / area >= min_object_covered:
            return True
    return False


def _error(op_name, message, hint=None):
    return errors.op_error(errors.InvalidArgumentError, op_name, message, hint)


def _object_boxes(op_name, boxes, height, width, use_image):
    if boxes.ndim != 3:
        raise _error(op_name, "input boxes must be 3-dimensional [batch, num_boxes, coords]: "
                     f"[{','.join(map(str, boxes.shape))}]")
    flat = boxes.reshape(-1, 4)
    for value in flat.reshape(-1):
        if not 0 <= value <= 1:
            raise _error(op_name, f"All bounding box coordinates must be in [0.0, 1.0]: {value:g}",
                         "Boxes are normalised: fractions of the image's height and width.")
    objects = [(int(b[1] * width), int(b[0] * height), int(b[3] * width), int(b[2] * height))
               for b in flat.astype(F32)]
    if not objects and not use_image:
        raise _error(op_name, "No bounding boxes provided as input. One must enable "
                     "use_image_if_no_bounding_boxes if you wish to not provide any bounding "
                     "boxes.")
    if not objects or use_image:
        objects.append((0, 0, width, height))
    return objects


def _check_attrs(op_name, area_range, aspect_ratio_range, max_attempts):
    if len(aspect_ratio_range) != 2:
        raise _error(op_name, "Aspect ratio range field must specify 2 dimensions")
    if len(area_range) != 2:
        raise _error(op_name, "Area range field must specify 2 dimensions")
    if area_range[0] > 1 or area_range[1] > 1:
        raise _error(op_name, "Area range must be less then or equal to 1.0: "
                     f"[{area_range[0]:g}, {area_range[1]:g}]")
    if max_attempts <= 0:
        raise _error(op_name, f"Max attempts must be non-negative: {max_attempts}")


def sample_box(op_name, rng, image_size, boxes, min_object_covered, aspect_ratio_range,
               area_range, max_attempts, use_image_if_no_bounding_boxes):
    """(begin, size, normalised box) of TF's SampleDistortedBoundingBoxV2."""
    _check_attrs(op_name, area_range, aspect_ratio_range, max_attempts)
    if image_size.shape != (3,):
        raise _error(op_name, f"image_size must contain 3 elements[{image_size.size}]")
    height, width = int(image_size[0]), int(image_size[1])
    objects = _object_boxes(op_name, boxes, height, width, use_image_if_no_bounding_boxes)
    crop = (0, 0, width, height)
    low, high = F32(aspect_ratio_range[0]), F32(aspect_ratio_range[1])
    for _ in range(max_attempts):
        ratio = F32(rng.random(dtype=F32) * (high - low) + low)
        box = random_crop_box(rng, width, height, area_range[0], area_range[1], ratio)
        if box is not None and covers_an_object(box, objects, min_object_covered):
            crop = box
            break
    x0, y0, x1, y1 = crop
    dtype = image_size.dtype
    normalised = np.array([[[y0 / height, x0 / width, y1 / height, x1 / width]]], F32)
    return (np.array([y0, x0, 0], dtype), np.array([y1 - y0, x1 - x0, -1], dtype), normalised)


def _stateless_forward(image_size, bounding_boxes, min_object_covered, seed, **attrs):
    rng = random_ops.numpy_generator("StatelessSampleDistortedBoundingBox", int(seed[0]),
                                     int(seed[1]))
    return sample_box("StatelessSampleDistortedBoundingBox", rng, image_size, bounding_boxes,
                      float(min_object_covered), **attrs)


def _stateful_forward(image_size, bounding_boxes, min_object_covered, seed, seed2, kernel,
                      **attrs):
    rng = random_ops._kernel_generator("SampleDistortedBoundingBoxV2", None, seed, seed2, kernel)
    return sample_box("SampleDistortedBoundingBoxV2", rng, image_size, bounding_boxes,
                      float(min_object_covered), **attrs)


def _box_shapes(image_size, *rest, **attrs):
    return TensorShape([3]), TensorShape([3]), TensorShape([1, 1, 4])


def _box_dtypes(size_dtype, *rest, **attrs):
    return size_dtype, size_dtype, dtypes.float32


StatelessSampleDistortedBoundingBox = Op(
    "StatelessSampleDistortedBoundingBox", _stateless_forward, dtypes=SIZE_TYPES, typed=[0],
    num_outputs=3, shape=_box_shapes, dtype=_box_dtypes)
SampleDistortedBoundingBoxV2 = Op(
    "SampleDistortedBoundingBoxV2", _stateful_forward, dtypes=SIZE_TYPES, typed=[0],
    num_outputs=3, shape=_box_shapes, dtype=_box_dtypes, stateful=True)


def _inputs_and_attrs(image_size, bounding_boxes, min_object_covered, aspect_ratio_range,
                      area_range, max_attempts, use_image_if_no_bounding_boxes):
    inputs = [convert_to_tensor(image_size, name="image_size"),
              convert_to_tensor(bounding_boxes, dtype=dtypes.float32, name="bounding_boxes"),
              convert_to_tensor(min_object_covered, dtype=dtypes.float32)]
    attrs = {"aspect_ratio_range": tuple(float(v) for v in (aspect_ratio_range or (0.75, 1.33))),
             "area_range": tuple(float(v) for v in (area_range or (0.05, 1.0))),
             "max_attempts": 100 if max_attempts is None else int(max_attempts),
             "use_image_if_no_bounding_boxes": bool(use_image_if_no_bounding_boxes)}
    return inputs, attrs


@tf_export("image.sample_distorted_bounding_box")
def sample_distorted_bounding_box(image_size, bounding_boxes, seed=0, min_object_covered=0.1,
                                  aspect_ratio_range=None, area_range=None, max_attempts=None,
                                  use_image_if_no_bounding_boxes=None, name=None):
    """(begin, size, bbox_for_draw): a random crop of an image of `image_size` = [h, w, c]
    covering at least `min_object_covered` of one of `bounding_boxes` ([batch, n, 4],
    normalised). Defaults as TF: aspect ratios 0.75..1.33, areas 5%..100%, 100 attempts.

    >>> begin, size, _ = tf.image.sample_distorted_bounding_box(
    ...     [40, 60, 3], [[[0.0, 0.0, 1.0, 1.0]]], seed=4, area_range=[0.3, 0.3])
    >>> int(size[0]) * int(size[1]) >= 0.3 * 40 * 60
    True
    """
    inputs, attrs = _inputs_and_attrs(image_size, bounding_boxes, min_object_covered,
                                      aspect_ratio_range, area_range, max_attempts,
                                      use_image_if_no_bounding_boxes)
    attrs.update(random_ops._seed_attrs(seed or None))
    return apply(SampleDistortedBoundingBoxV2, inputs, attrs)


@tf_export("image.stateless_sample_distorted_bounding_box")
def stateless_sample_distorted_bounding_box(image_size, bounding_boxes, seed,
                                            min_object_covered=0.1, aspect_ratio_range=None,
                                            area_range=None, max_attempts=None,
                                            use_image_if_no_bounding_boxes=None, name=None):
    """`sample_distorted_bounding_box` decided by `seed` (a pair of ints): the same seed
    always gives the same crop.

    >>> a = tf.image.stateless_sample_distorted_bounding_box([40, 60, 3], [[[0.1, 0.2, 0.5,
    ...                                                       0.9]]], seed=[3, 4])[0]
    >>> b = tf.image.stateless_sample_distorted_bounding_box([40, 60, 3], [[[0.1, 0.2, 0.5,
    ...                                                       0.9]]], seed=[3, 4])[0]
    >>> bool(tf.reduce_all(a == b))
    True
    """
    inputs, attrs = _inputs_and_attrs(image_size, bounding_boxes, min_object_covered,
                                      aspect_ratio_range, area_range, max_attempts,
                                      use_image_if_no_bounding_boxes)
    inputs.append(random_ops.stateless_seed(seed))
    return apply(StatelessSampleDistortedBoundingBox, inputs, attrs)
