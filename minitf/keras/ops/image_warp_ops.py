"""`keras.ops.image`: perspective_transform and map_coordinates.

`perspective_transform` moves four `start_points` (x, y) of the image to
four `end_points`: it solves the 8x8 system for the homography that maps
each end point back to its start point (output -> input, the direction of
`affine_transform`'s 8 numbers) and resamples through it.

`map_coordinates` is SciPy's `ndimage.map_coordinates` for order 0 or 1:
`coordinates[k]` holds, for every output element, its position along input
axis k; values between grid points mix their neighbours (order 1).

>>> import minitf as tf
>>> from minitf.keras import ops
>>> ops.image.map_coordinates(tf.constant([0.0, 10.0, 20.0]), [[0.5, 1.25]], order=1).numpy()
array([ 5. , 12.5], dtype=float32)
"""
import functools
import itertools
import operator

import minitf as tf

from ._export import keras_ops_export
from .dtype_rules import convert
from ..layers.conv_utils import standardize_data_format
from ...image import affine_transform as _affine

FILL_MODES = ("constant", "nearest", "wrap", "mirror", "reflect")


def _check_points(name, points):
    if points.shape.rank not in (2, 3) or tuple(points.shape[-2:]) != (4, 2):
        raise ValueError(f"Invalid {name} shape: expected (4,2) for a single image or (N,4,2) "
                         f"for a batch. Received shape: {points.shape}")


def homography(start_points, end_points):
    """[N, 8] transforms taking each end point to its start point."""
    rows, target = [], []
    for k in range(4):
        sx, sy = start_points[:, k, 0], start_points[:, k, 1]
        ex, ey = end_points[:, k, 0], end_points[:, k, 1]
        one, zero = tf.ones_like(ex), tf.zeros_like(ex)
        rows.append(tf.stack([ex, ey, one, zero, zero, zero, -sx * ex, -sx * ey], axis=-1))
        rows.append(tf.stack([zero, zero, zero, ex, ey, one, -sy * ex, -sy * ey], axis=-1))
        target += [sx, sy]
    matrix = tf.stack(rows, axis=1)
    solution = tf.linalg.solve(matrix, tf.expand_dims(tf.stack(target, axis=-1), -1))
    return tf.reshape(solution, [-1, 8])


@keras_ops_export("image")
def perspective_transform(images, start_points, end_points, interpolation="bilinear",
                          fill_value=0, data_format=None):
    """Warp so that the four `start_points` land on the four `end_points`.

    >>> import minitf as tf
    >>> from minitf.keras import ops
    >>> image = tf.reshape(tf.range(1.0, 5.0), (1, 4, 1))
    >>> corners = [[0.0, 0.0], [3.0, 0.0], [0.0, 1.0], [3.0, 1.0]]
    >>> moved = [[1.0, 0.0], [4.0, 0.0], [1.0, 1.0], [4.0, 1.0]]      # one pixel right
    >>> ops.image.perspective_transform(image, corners, moved)[..., 0].numpy().round(4)
    array([[0., 1., 2., 3.]], dtype=float32)
    """
    data_format = standardize_data_format(data_format)
    images = convert(images)
    start_points = tf.convert_to_tensor(start_points, dtype=tf.float32)
    end_points = tf.convert_to_tensor(end_points, dtype=tf.float32)
    if interpolation not in _affine.INTERPOLATIONS:
        raise ValueError("Invalid value for argument `interpolation`. Expected of one "
                         f"{_affine.INTERPOLATIONS}. Received: interpolation={interpolation}")
    if images.shape.rank not in (3, 4):
        raise ValueError("Invalid images rank: expected rank 3 (single image) or rank 4 "
                         "(batch of images). Received input with shape: "
                         f"images.shape={images.shape}")
    _check_points("start_points", start_points)
    _check_points("end_points", end_points)
    if start_points.shape != end_points.shape:
        raise ValueError("start_points and end_points must have the same shape. Received "
                         f"start_points.shape={start_points.shape}, "
                         f"end_points.shape={end_points.shape}")
    if start_points.shape.rank == 2:
        start_points, end_points = start_points[None], end_points[None]
    transform = homography(start_points, end_points)
    return _affine.affine_transform(images, transform, interpolation, "constant", fill_value,
                                    data_format)


def _fix(coords, size, fill_mode):
    """(index inside the input, is-it-really-inside) for integer indices along one axis."""
    everywhere = tf.ones_like(coords, dtype=tf.bool)
    if fill_mode == "constant":
        return tf.clip_by_value(coords, 0, size - 1), (coords >= 0) & (coords < size)
    if fill_mode == "nearest":
        return tf.clip_by_value(coords, 0, size - 1), everywhere
    if fill_mode == "wrap":
        return tf.math.floormod(coords, size), everywhere
    # mirror / reflect, as Keras's TensorFlow backend computes them
    coords = tf.abs(coords)
    mod = tf.math.floormod(coords, 2 * size)
    under = mod < size
    coords = tf.where(under, mod, 2 * size - mod)
    if fill_mode == "reflect":
        coords = tf.where(~under, coords - 1, coords)
    return coords, everywhere


def _nodes(coordinate, order):
    if order == 0:
        rounded = coordinate if coordinate.dtype.is_integer else tf.round(coordinate)
        return [(tf.cast(rounded, tf.int32), tf.constant(1, coordinate.dtype))]
    lower = tf.floor(coordinate)
    upper_weight = coordinate - lower
    index = tf.cast(lower, tf.int32)
    return [(index, 1 - upper_weight), (index + 1, upper_weight)]


@keras_ops_export("image")
def map_coordinates(inputs, coordinates, order, fill_mode="constant", fill_value=0):
    """Read `inputs` at fractional positions: order 0 nearest, order 1 linear.

    >>> import minitf as tf
    >>> from minitf.keras import ops
    >>> grid = tf.reshape(tf.range(9.0), (3, 3))
    >>> ops.image.map_coordinates(grid, [[0.5, 3.0], [0.5, 0.0]], order=1).numpy()
    array([2., 0.], dtype=float32)
    """
    inputs, coordinates = convert(inputs), convert(coordinates)
    if coordinates.shape.rank < 1 or coordinates.shape[0] != inputs.shape.rank:
        raise ValueError("First dim of `coordinates` must be the same as the rank of `inputs`. "
                         f"Received inputs with shape: {inputs.shape} and coordinate leading "
                         f"dim of {coordinates.shape[0] if coordinates.shape.rank else None}")
    if coordinates.shape.rank < 2:
        raise ValueError("Invalid coordinates rank: expected at least rank 2. Received input "
                         f"with shape: {coordinates.shape}")
    if fill_mode not in FILL_MODES:
        raise ValueError(f"Invalid value for argument `fill_mode`. Expected one of "
                         f"{set(FILL_MODES)}. Received: fill_mode={fill_mode}")
    if order not in (0, 1):
        raise NotImplementedError("map_coordinates currently requires order<=1")
    axes = []
    for coordinate, size in zip(tf.unstack(coordinates, axis=0), inputs.shape.as_list()):
        axes.append([(*_fix(index, size, fill_mode), weight)
                     for index, weight in _nodes(coordinate, order)])
    outputs = []
    for items in itertools.product(*axes):
        indices, validities, weights = zip(*items)
        gathered = tf.transpose(tf.gather_nd(inputs, tf.transpose(tf.stack(indices))))
        gathered = tf.cast(gathered, weights[0].dtype)
        if fill_mode == "constant":
            valid = functools.reduce(operator.and_, validities)
            gathered = tf.where(valid, gathered,
                                tf.cast(tf.cast(fill_value, inputs.dtype), gathered.dtype))
        outputs.append(functools.reduce(operator.mul, weights) * gathered)
    result = functools.reduce(operator.add, outputs)
    if inputs.dtype.is_integer:
        result = tf.round(result)
    return tf.cast(result, inputs.dtype)
