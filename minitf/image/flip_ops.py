"""Flips, rotations and random crops: `flip_left_right`, `flip_up_down`, `rot90`,
`transpose`, `random_flip_*`, `random_crop` and their `stateless_random_*` twins.

All of them only move pixels, so they are `tf.reverse`, `tf.transpose` and
`tf.slice` underneath and their gradients move the gradient back. The random ones
follow TF's recipe: one image flips when a uniform draw is below 0.5; in a batch
each image draws its own coin, and a crop's offset is a random integer modulo
the room left. Stateless ones give the same result for the same `seed` pair.

NB: minitf's random numbers are not TF's Philox stream, so a given seed flips or
crops other images than in TF - only the recipe is the same.

>>> import minitf as tf
>>> image = tf.reshape(tf.range(4), [2, 2, 1])
>>> tf.image.flip_left_right(image)[..., 0]
<tf.Tensor: shape=(2, 2), dtype=int32, numpy=
array([[1, 0],
       [3, 2]], dtype=int32)>
"""
import functools

import minitf as tf
from ..framework.tensor import convert_to_tensor
from ..framework.tf_export import tf_export
from .crop_ops import static_int


def _shape_text(shape):
    dims = ["None" if d is None else str(d) for d in shape.as_list()]
    return "(" + ", ".join(dims) + ("," if len(dims) == 1 else "") + ")"


def checked_image(image, space=" "):
    """`image` as a tensor of rank 3 or 4 with non-empty inner dims (TF's checks and words;
    TF's flips leave out the space before "must have", and so does minitf)."""
    image = convert_to_tensor(image, name="image")
    shape = image.shape
    if shape.rank is None or shape.rank < 3:
        raise ValueError(f"'image' (shape {_shape_text(shape)}) must be at least "
                         "three-dimensional.")
    if any(d is not None and d <= 0 for d in shape.as_list()[-3:]):
        raise ValueError(f"inner 3 dims of 'image.shape' must be > 0: {_shape_text(shape)}")
    if shape.rank > 4:
        raise ValueError(f"'image' (shape {_shape_text(shape)}){space}must have either 3 or 4 "
                         "dimensions.")
    return image


def _flip(image, axis):
    image = checked_image(image, space="")
    return tf.reverse(image, [axis + image.shape.rank - 3])


@tf_export("image.flip_left_right")
def flip_left_right(image):
    """Mirror the columns (the width axis) of an image or of every image of a batch.

    >>> tf.image.flip_left_right(tf.constant([[[1], [2], [3]]]))[0, :, 0]
    <tf.Tensor: shape=(3,), dtype=int32, numpy=array([3, 2, 1], dtype=int32)>
    """
    return _flip(image, 1)


@tf_export("image.flip_up_down")
def flip_up_down(image):
    """Mirror the rows (the height axis): the top row becomes the bottom one.

    >>> tf.image.flip_up_down(tf.constant([[[1]], [[2]]]))[:, 0, 0]
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([2, 1], dtype=int32)>
    """
    return _flip(image, 0)


@tf_export("image.transpose")
def transpose(image):
    """Swap height and width (a mirror along the main diagonal).

    >>> tf.image.transpose(tf.zeros([2, 5, 3])).shape
    TensorShape([5, 2, 3])
    """
    image = checked_image(image)
    return tf.transpose(image, [1, 0, 2] if image.shape.rank == 3 else [0, 2, 1, 3])


@tf_export("image.rot90")
def rot90(image, k=1, name=None):
    """Rotate by k * 90 degrees counter-clockwise (k may be negative; it is taken mod 4).

    rot90 = transpose after flipping left-right; rot180 = flip both; rot270 = flip
    left-right after transposing.

    >>> tf.image.rot90(tf.reshape(tf.range(4), [2, 2, 1]))[..., 0]
    <tf.Tensor: shape=(2, 2), dtype=int32, numpy=
    array([[1, 3],
           [0, 2]], dtype=int32)>
    """
    image = checked_image(image)
    k_tensor = convert_to_tensor(k, dtype=tf.int32, name="k")
    if k_tensor.shape.rank != 0:
        raise ValueError(f"Shape {_shape_text(k_tensor.shape)} must have rank 0")
    k = static_int(k_tensor, "k") % 4
    h, w = image.shape.rank - 3, image.shape.rank - 2
    perm = [1, 0, 2] if h == 0 else [0, 2, 1, 3]
    if k == 1:
        return tf.transpose(tf.reverse(image, [w]), perm)
    if k == 2:
        return tf.reverse(image, [h, w])
    if k == 3:
        return tf.reverse(tf.transpose(image, perm), [w])
    return image


def _random_flip(image, axis, uniform):
    """TF's `_random_flip`: one coin for an image, one coin per image for a batch."""
    image = checked_image(image)
    if image.shape.rank == 3:
        flip = tf.less(uniform(shape=[]), 0.5)
        return tf.cond(flip, lambda: tf.reverse(image, [axis]), lambda: image)
    batch = image.shape[0]
    if batch is None:  # TF draws tf.shape(image)[0] coins when the graph runs
        raise ValueError("minitf's random ops need their shape while tracing: give the "
                         "tf.function a batch size (input_signature or a concrete tensor) to "
                         "flip a batch at random.")
    coins = uniform(shape=[batch])
    flips = tf.cast(tf.round(tf.reshape(coins, [-1, 1, 1, 1])), image.dtype)
    return flips * tf.reverse(image, [axis + 1]) + (1 - flips) * image


def _uniform(seed):
    return functools.partial(tf.random.uniform, minval=0, maxval=1.0, seed=seed)


def _stateless_uniform(seed):
    return functools.partial(tf.random.stateless_uniform, minval=0, maxval=1.0, seed=seed)


@tf_export("image.random_flip_left_right")
def random_flip_left_right(image, seed=None):
    """Flip left-right with probability 1/2 (each image of a batch on its own).

    >>> tf.image.random_flip_left_right(tf.zeros([2, 2, 1]), seed=3).shape
    TensorShape([2, 2, 1])
    """
    return _random_flip(image, 1, _uniform(seed))


@tf_export("image.random_flip_up_down")
def random_flip_up_down(image, seed=None):
    """Flip up-down with probability 1/2 (each image of a batch on its own).

    >>> tf.image.random_flip_up_down(tf.zeros([2, 2, 1]), seed=3).shape
    TensorShape([2, 2, 1])
    """
    return _random_flip(image, 0, _uniform(seed))


@tf_export("image.stateless_random_flip_left_right")
def stateless_random_flip_left_right(image, seed):
    """Flip left-right or not, decided by `seed` (a pair of ints): the same seed, the
    same flips (but not the ones TF picks for that seed: minitf's random stream differs).

    >>> image = tf.reshape(tf.range(6), [1, 6, 1])
    >>> a = tf.image.stateless_random_flip_left_right(image, seed=(1, 2))
    >>> bool(tf.reduce_all(a == tf.image.stateless_random_flip_left_right(image, (1, 2))))
    True
    """
    return _random_flip(image, 1, _stateless_uniform(seed))


@tf_export("image.stateless_random_flip_up_down")
def stateless_random_flip_up_down(image, seed):
    """Flip up-down or not, decided by `seed` (a pair of ints): deterministic.

    >>> tf.image.stateless_random_flip_up_down(tf.zeros([3, 2, 1]), seed=(1, 2)).shape
    TensorShape([3, 2, 1])
    """
    return _random_flip(image, 0, _stateless_uniform(seed))


def _random_crop(value, size, draw):
    value = convert_to_tensor(value, name="value")
    size = convert_to_tensor(size, dtype=tf.int32, name="size")
    shape = tf.shape(value)
    tf.debugging.Assert(tf.reduce_all(shape >= size),
                        ["Need value.shape >= size, got ", shape, size], summarize=1000)
    offset = draw(tf.shape(shape)) % (shape - size + 1)
    # TF slices at `offset`; minitf's tf.slice needs `begin` while tracing, so the window
    # is gathered axis by axis (the same values, and gather's gradient scatters back).
    for axis in range(value.shape.rank):
        value = tf.gather(value, offset[axis] + tf.range(size[axis]), axis=axis)
    return value


@tf_export("image.random_crop")
def random_crop(value, size, seed=None, name=None):
    """A random window of shape `size` out of `value` (any rank: size has one entry per axis).

    >>> tf.image.random_crop(tf.zeros([5, 5, 3]), [2, 3, 3], seed=1).shape
    TensorShape([2, 3, 3])
    """
    return _random_crop(value, size, lambda shape: tf.random.uniform(
        shape, maxval=tf.int32.max, dtype=tf.int32, seed=seed))


@tf_export("image.stateless_random_crop")
def stateless_random_crop(value, size, seed, name=None):
    """A window of shape `size` out of `value` at an offset decided by `seed` (a pair of
    ints): deterministic, though not the offset TF picks for that seed.

    >>> a = tf.image.stateless_random_crop(tf.range(10), [3], seed=(4, 2))
    >>> bool(tf.reduce_all(a == tf.image.stateless_random_crop(tf.range(10), [3], (4, 2))))
    True
    """
    return _random_crop(value, size, lambda shape: tf.random.stateless_uniform(
        shape, seed=seed, maxval=tf.int32.max, dtype=tf.int32))
