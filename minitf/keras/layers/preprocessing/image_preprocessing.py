"""`BaseImagePreprocessingLayer`: what the image layers (Resizing, RandomFlip, ...) share.

An image layer takes one image `[height, width, channels]` or a batch
`[batch, height, width, channels]` ("channels_first" puts channels before
height), and returns the same rank. The random ones draw *one transformation
per image* (RandomCrop: one crop for the whole batch, as Keras does).

When augmentation happens (Keras 3's rule, which minitf follows): `call`
takes `training=True` **by default**. So

* called directly, `layer(images)` augments, and so does a
  `tf.data.Dataset.map(layer)` (it is called directly there);
* inside a model, `fit` passes `training=True` and `predict`/`evaluate` pass
  `training=False`, which turns the layer into the identity (only cast to
  the layer's float dtype);
* `model(images)` with no `training` argument augments too (nothing turned
  it off), as in Keras 3.

>>> import minitf as tf
>>> flip = tf.keras.layers.RandomFlip("horizontal", seed=0)
>>> image = tf.reshape(tf.range(3.0), [1, 3, 1])
>>> flip(image, training=False)[..., 0].numpy()           # inference: unchanged
array([[0., 1., 2.]], dtype=float32)

Random numbers come from a `tf.random.Generator` owned by the layer, seeded
from `seed` (or from `tf.random`'s global seed when `seed=None`): the same
seed gives the same augmentations in minitf, but not the numbers real Keras
draws (its SeedGenerator uses TF's Philox streams differently).

In Keras this is `keras/src/layers/preprocessing/image_preprocessing/
base_image_preprocessing_layer.py`; the bounding-box and segmentation-mask
inputs it also accepts (a dict with "images", "labels", "bounding_boxes",
"segmentation_masks") are not in minitf, except "images" with "labels"
passed through unchanged.
"""
import math
import random as _py_random

import numpy as np

import minitf as tf

from ....framework import dtypes
from ....framework.op import Op, apply
from ....framework.tensor_shape import TensorShape
from ....ops import random_ops
from ....ops.stateful_random_ops import Generator
from .data_layer import DataLayer


def standardize_data_format(data_format):
    """None -> "channels_last" (Keras's image_data_format default); anything else checked."""
    data_format = "channels_last" if data_format is None else str(data_format).lower()
    if data_format not in ("channels_first", "channels_last"):
        raise ValueError("The `data_format` argument must be one of {'channels_first', "
                         f"'channels_last'}}. Received: data_format={data_format}")
    return data_format


def make_generator(seed):
    """The layer's random stream: from `seed`, else from tf.random's global seed."""
    if seed is None:
        global_seed, op_seed = random_ops.get_seed(None)
        seed = (_py_random.randint(1, 2**31 - 1) if global_seed is None
                else global_seed * 1_000_003 + op_seed)
    return Generator.from_seed(seed)


def _uniform_forward(shape, seed, minval, maxval):
    rng = np.random.Generator(np.random.Philox(key=[int(k) % 2**64 for k in seed]))
    return rng.uniform(minval, maxval, size=tuple(int(d) for d in shape)).astype(np.float32)


# Uniform numbers of a shape known only when the graph runs (a batch of unknown size inside
# `fit` or `Dataset.map`): minitf's own kernel, fed the seed the layer's Generator hands out.
AugmentationUniform = Op("AugmentationUniform", _uniform_forward, typed=[], dtype=dtypes.float32,
                         shape=lambda shape, seed, **attrs: TensorShape([None] * (shape[0] or 0)))


def factor_pair(factor, name, message, check, from_zero=False):
    """Keras's `(lower, upper)` for a factor argument, each bound passed to `check` first.

    A pair is sorted; one number `f` means `(-|f|, |f|)`, or `(0, f)` when `from_zero`.

    >>> factor_pair(0.2, "factor", "", lambda v: None)
    (-0.2, 0.2)
    >>> factor_pair([0.3, 0.1], "factor", "", lambda v: None)
    (0.1, 0.3)
    """
    if isinstance(factor, (tuple, list)):
        if len(factor) != 2:
            raise ValueError(message + f"Received: {name}={factor}")
        for value in factor:
            check(value)
        return tuple(sorted(factor))
    if isinstance(factor, (int, float)) and not isinstance(factor, bool):
        check(factor)
        return (0, factor) if from_zero else (-abs(factor), abs(factor))
    raise ValueError(message + f"Received: {name}={factor}")


def batch_size(images):
    """The batch size: static when known, else a tensor read when the graph runs."""
    return images.shape[0] if images.shape[0] is not None else tf.shape(images)[0]


def random_uniform(generator, shape, minval=0.0, maxval=1.0, dtype=tf.float32):
    """`shape` (a list of ints or int tensors) of uniform values in [minval, maxval)."""
    static = [d if isinstance(d, int) else -1 for d in shape]
    shape = tf.cast(tf.stack(shape), tf.int32) if shape else tf.zeros([0], tf.int32)
    values = apply(AugmentationUniform, [shape, generator._next_seed()],
                   {"minval": float(minval), "maxval": float(maxval)})
    if static.count(-1) <= 1:   # give the graph the sizes known now
        values = tf.reshape(values, static)
    return tf.cast(values, dtype)


class BaseImagePreprocessingLayer(DataLayer):
    """An image layer: images (3-D or 4-D) in, images out; `training=True` by default."""

    _USE_BASE_FACTOR = True
    _FACTOR_BOUNDS = (-1, 1)
    _autocast = True   # float inputs become the layer's dtype (Keras: not RandomCrop, RandomFlip)

    def __init__(self, factor=None, data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.data_format = standardize_data_format(data_format)
        if self._USE_BASE_FACTOR:
            self._set_factor(factor or 0.0)
        elif factor is not None:
            raise ValueError(f"Layer {type(self).__name__} does not take a `factor` argument. "
                             f"Received: factor={factor}")

    def _set_factor(self, factor):
        low, high = self._FACTOR_BOUNDS
        message = ("The `factor` argument should be a number (or a list of two numbers) in the "
                   f"range [{low}, {high}]. Received: factor={factor}")
        if isinstance(factor, (tuple, list)):
            if len(factor) != 2 or factor[0] > high or factor[1] < low:
                raise ValueError(message)
            lower, upper = sorted(factor)
        elif isinstance(factor, (int, float)) and not isinstance(factor, bool):
            if factor < low or factor > high:
                raise ValueError(message)
            factor = abs(factor)
            lower, upper = max(-factor, low), factor
        else:
            raise ValueError(message)
        self.factor = (lower, upper)

    def _hw_axes(self):
        """(height axis, width axis) of a 4-D batch."""
        return (2, 3) if self.data_format == "channels_first" else (1, 2)

    def call(self, data, training=True):
        if isinstance(data, dict):
            return self._call_dict(data, training)
        images = tf.convert_to_tensor(data)
        rank = images.shape.rank
        if rank not in (3, 4):
            raise ValueError("Expected image tensor to have rank 3 (single image) or 4 (batch of "
                             f"images). Received: data.shape={tuple(images.shape.as_list())}")
        if self._autocast and images.dtype.is_floating:   # Keras's input autocast
            images = tf.cast(images, self.compute_dtype)
        if rank == 3:
            images = tf.expand_dims(images, 0)
        transformation = self.get_random_transformation(images, training=training)
        out = self.transform_images(images, transformation, training=training)
        return tf.squeeze(out, [0]) if rank == 3 else out

    def _call_dict(self, data, training):
        unknown = sorted(set(data) - {"images", "labels"})
        if unknown or "images" not in data:
            raise NotImplementedError(
                f"{type(self).__name__} in minitf takes images, or a dict of 'images' (and "
                f"'labels', passed through); it does not transform {unknown or 'a dict without images'}"
                " (Keras also transforms bounding boxes and segmentation masks).")
        out = dict(data)
        out["images"] = self.call(data["images"], training=training)
        return out

    def get_random_transformation(self, images, training=True):
        """The random draw for this call (None: no randomness, or not training)."""
        return None

    def transform_images(self, images, transformation, training=True):
        raise NotImplementedError(f"{type(self).__name__} must define transform_images.")

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        config = super().get_config()
        config["data_format"] = self.data_format
        return config


def affine_matrix(angle, translate_x, translate_y, scale, height, width):
    """Keras's rotation-about-the-centre matrices, [batch, 8], angle in degrees.

    Output pixel (x, y) reads input (a0 x + a1 y + a2, b0 x + b1 y + b2): a
    rotation by `angle` about the image centre ((width-1)/2, (height-1)/2),
    scaled, then shifted (Keras's `_compute_affine_matrix` without shear).
    """
    angle = angle * (math.pi / 180.0)
    cx = 0.5 * (tf.cast(width, angle.dtype) - 1)
    cy = 0.5 * (tf.cast(height, angle.dtype) - 1)
    cos, sin = tf.cos(angle), tf.sin(angle)
    a0, a1 = scale * cos, scale * -sin
    b0, b1 = scale * sin, scale * cos
    a2 = translate_x + cx - cx * a0 - cy * a1
    b2 = translate_y + cy - cx * b0 - cy * b1
    zeros = tf.zeros_like(angle)
    return tf.stack([a0, a1, a2, b0, b1, b2, zeros, zeros], axis=1)
