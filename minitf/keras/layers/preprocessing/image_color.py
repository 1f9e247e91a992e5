"""Colour augmentation: RandomContrast and RandomBrightness.

Both draw one number per image while training and clip the result to
`value_range` (default (0, 255): images as loaded from files; use (0, 1)
after `Rescaling(1/255)`). At inference they return the images unchanged.

* `RandomBrightness(factor)` adds `delta * (high - low)` to every pixel,
  `delta` uniform in the factor range (0.2 -> [-0.2, 0.2]).
* `RandomContrast(factor)` moves each pixel away from (or towards) its
  image's per-channel mean: `(x - mean) * c + mean`, `c` uniform in
  [1 - lower, 1 + upper]. As in Keras 3.15, a single number `f` gives the
  range (0, f), so c is in [1, 1 + f]: contrast only grows. Pass a pair,
  e.g. (0.5, 0.5), for [0.5, 1.5].

>>> import minitf as tf
>>> image = tf.constant([[[10.0], [20.0]]])
>>> tf.keras.layers.RandomBrightness((0.1, 0.1))(image)[..., 0].numpy()
array([[35.5, 45.5]], dtype=float32)
>>> tf.keras.layers.RandomContrast((0.0, 1.0), seed=1)(image, training=False)[..., 0].numpy()
array([[10., 20.]], dtype=float32)

The random numbers are minitf's (same seed, same draws), not real Keras's.
In Keras these are `keras/src/layers/preprocessing/image_preprocessing/
random_{contrast,brightness}.py`.
"""
import minitf as tf

from ....framework.tf_export import tf_export
from .image_preprocessing import (BaseImagePreprocessingLayer, batch_size, make_generator,
                                  random_uniform)


def _per_image_shape(images):
    return [batch_size(images), 1, 1, 1]


class _ColorLayer(BaseImagePreprocessingLayer):
    """A colour layer: factor, value_range, seed; float inputs in the layer's dtype."""

    def _set_common(self, value_range, seed):
        self.value_range, self.seed = value_range, seed
        self.generator = make_generator(seed)

    def get_config(self):
        config = super().get_config()
        config.update({"factor": self.factor, "value_range": self.value_range, "seed": self.seed})
        return config


@tf_export("keras.layers.RandomContrast")
class RandomContrast(_ColorLayer):
    """Scale each image's deviation from its mean by a random factor while training.

    >>> layer = tf.keras.layers.RandomContrast(0.5)
    >>> layer.factor
    (0, 0.5)
    """

    _FACTOR_BOUNDS = (0, 1)

    def __init__(self, factor, value_range=(0, 255), seed=None, **kwargs):
        super().__init__(factor=factor, **kwargs)
        self._set_common(value_range, seed)

    def get_random_transformation(self, images, training=True):
        if not training:
            return None
        return random_uniform(self.generator, _per_image_shape(images), 1.0 - self.factor[0],
                              1.0 + self.factor[1], dtype=self.compute_dtype)

    def transform_images(self, images, transformation, training=True):
        if not training:
            return images
        if not images.dtype.is_floating:
            raise tf.errors.InvalidArgumentError(
                None, None, f"RandomContrast needs float images; received {images.dtype.name}. "
                "Cast them first, e.g. tf.cast(images, tf.float32) (Keras raises too).")
        height_axis, width_axis = self._hw_axes()
        mean = tf.reduce_mean(images, axis=[height_axis, width_axis], keepdims=True)
        out = (images - mean) * tf.cast(transformation, images.dtype) + mean
        return tf.clip_by_value(out, self.value_range[0], self.value_range[1])


@tf_export("keras.layers.RandomBrightness")
class RandomBrightness(_ColorLayer):
    """Add a random fraction of `value_range`'s width to each image while training.

    >>> tf.keras.layers.RandomBrightness(0.2, value_range=(0, 1)).factor
    (-0.2, 0.2)
    """

    def __init__(self, factor, value_range=(0, 255), seed=None, **kwargs):
        super().__init__(factor=factor, **kwargs)
        if not isinstance(value_range, (tuple, list)) or len(value_range) != 2:
            raise ValueError("The `value_range` argument should be a list of two numbers. "
                             f"Received: value_range={value_range}")
        self._set_common(sorted(value_range), seed)

    def get_random_transformation(self, images, training=True):
        if not training:
            return None
        delta = random_uniform(self.generator, _per_image_shape(images), *self.factor)
        return delta * float(self.value_range[1] - self.value_range[0])

    def transform_images(self, images, transformation, training=True):
        if not training:
            return images
        out = images + tf.cast(transformation, images.dtype)
        low, high = (tf.cast(v, images.dtype) for v in self.value_range)
        return tf.clip_by_value(out, low, high)
