"""`tf.image.draw_bounding_boxes`: one-pixel outlines of boxes on a batch of images.

A box is [y_min, x_min, y_max, x_max] as fractions of the image (0 to 1); the
pixel row is the fraction times (height - 1), truncated. Each box takes the
next colour of `colors` (RGBA rows; only the first `channels` values are used)
or of TF's default table (yellow, blue, red, lime, purple, olive, maroon, navy,
aqua, fuchsia). An inverted box, or one wholly outside, is skipped; a box
partly outside loses the edges that fall outside.

>>> import minitf as tf
>>> out = tf.image.draw_bounding_boxes(tf.zeros([1, 4, 4, 1]), [[[0.0, 0.0, 1.0, 1.0]]],
...                                    colors=[[1.0, 0.0, 0.0, 1.0]])
>>> out[0, ..., 0].numpy()
array([[1., 1., 1., 1.],
       [1., 0., 0., 1.],
       [1., 0., 0., 1.],
       [1., 1., 1., 1.]], dtype=float32)
"""
import numpy as np

from ..framework import dtypes, errors
from ..framework.op import Op, apply
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.tf_export import tf_export

_DEFAULT_COLORS = [[1, 1, 0, 1], [0, 0, 1, 1], [1, 0, 0, 1], [0, 1, 0, 1], [0.5, 0, 0.5, 1],
                   [0.5, 0.5, 0, 1], [0.5, 0, 0, 1], [0, 0, 0.5, 1], [0, 1, 1, 1], [1, 0, 1, 1]]


def _fail(message, hint=None):
    return errors.op_error(errors.InvalidArgumentError, "DrawBoundingBoxesV2", message, hint)


def _color_table(colors, depth):
    if colors is None or colors.size == 0:
        table = np.array(_DEFAULT_COLORS, np.float32)
        if depth == 1:
            table[:, 0] = 1  # TF: on grey images every default box is white
        return table
    if colors.ndim != 2 or colors.shape[1] < depth:
        raise _fail("Color tensor must have at least as many columns as the image depth",
                    "Give one row per colour, RGBA: [[1.0, 0.0, 0.0, 1.0], ...].")
    return colors.astype(np.float32)


def _draw(images, boxes, colors=None):
    if images.ndim != 4:
        raise _fail("The rank of the images should be 4",
                    "Pass a batch [batch, height, width, depth]: tf.expand_dims(image, 0).")
    if boxes.ndim != 3 or boxes.shape[-1] != 4 or boxes.shape[0] != images.shape[0]:
        raise _fail(f"boxes must be [batch, num_boxes, 4], got shape {list(boxes.shape)}")
    canvas = images.copy()
    _, height, width, depth = images.shape
    table = _color_table(colors, depth)
    for b in range(images.shape[0]):
        for k, box in enumerate(boxes[b].astype(np.float32)):
            _outline(canvas[b], box, table[k % len(table)][:depth].astype(images.dtype),
                     height, width)
    return canvas


def _outline(canvas, box, color, height, width):
    """TF's kernel: truncated pixel edges, clamped spans, edges outside the image skipped."""
    top, left = int(box[0] * (height - 1)), int(box[1] * (width - 1))
    bottom, right = int(box[2] * (height - 1)), int(box[3] * (width - 1))
    if top > bottom or left > right:
        return  # inverted: not drawn
    if top >= height or bottom < 0 or left >= width or right < 0:
        return  # wholly outside: not drawn
    rows = slice(max(top, 0), min(bottom, height - 1) + 1)
    cols = slice(max(left, 0), min(right, width - 1) + 1)
    if top >= 0:
        canvas[top, cols] = color
    if bottom < height:
        canvas[bottom, cols] = color
    if left >= 0:
        canvas[rows, left] = color
    if right < width:
        canvas[rows, right] = color


DrawBoundingBoxesV2 = Op("DrawBoundingBoxesV2", _draw, dtypes={dtypes.float16, dtypes.float32},
                         typed=(0,), shape=lambda s, *rest: s)


@tf_export("image.draw_bounding_boxes")
def draw_bounding_boxes(images, boxes, colors, name=None):
    """Draw `boxes` [batch, num_boxes, 4] on float `images` [batch, height, width, depth].

    >>> img = tf.zeros([1, 3, 5, 3])
    >>> out = tf.image.draw_bounding_boxes(img, [[[0.0, 0.25, 1.0, 0.75]]], None)
    >>> out[0, 0].numpy()          # the top edge, in the first default colour (yellow)
    array([[0., 0., 0.],
           [1., 1., 0.],
           [1., 1., 0.],
           [1., 1., 0.],
           [0., 0., 0.]], dtype=float32)
    """
    if not isinstance(images, Tensor):  # like TF's op wrapper: plain arrays become float32
        images = convert_to_tensor(images, dtypes.float32)
    inputs = [images, convert_to_tensor(boxes, dtypes.float32)]
    if colors is not None:
        inputs.append(convert_to_tensor(colors, dtypes.float32))
    return apply(DrawBoundingBoxesV2, inputs)
