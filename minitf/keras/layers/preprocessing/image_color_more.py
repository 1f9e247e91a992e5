"""More colour layers: RandomInvert, RandomGrayscale, Solarization, AutoContrast,
RandomPosterization and RandomColorDegeneration.

* `RandomInvert(factor)` replaces an image by `high - image` (a photo
  negative) with a probability drawn from the factor range: a number p
  means [0, p], so on average p / 2 of the images (Keras 3.15's rule).
* `RandomGrayscale(factor)` turns an image grey (0.2989 R + 0.587 G +
  0.114 B, kept in 3 channels) with probability `factor`.
* `Solarization(addition_factor, threshold_factor)` brightens by a random
  amount, then inverts every pixel above a random threshold - the look of
  an over-exposed film. Both factors are fractions of 255, each a number `f`
  (range [0, f]) or a pair.
* `AutoContrast()` is not random: it stretches every channel to the full
  `value_range`, in training and at inference alike.

>>> import minitf as tf
>>> image = tf.constant([[[0.0], [100.0], [255.0]]])
>>> tf.keras.layers.RandomInvert(factor=(1.0, 1.0))(image)[..., 0].numpy()   # always
array([[255., 155.,   0.]], dtype=float32)
>>> tf.keras.layers.Solarization()(image)[..., 0].numpy()    # threshold 0: inverts all
array([[255., 155.,   0.]], dtype=float32)

The random three are identity at inference. The random numbers are minitf's, not
real Keras's. In Keras: `keras/src/layers/preprocessing/image_preprocessing/
{random_invert,random_grayscale,solarization,auto_contrast,
random_posterization,random_color_degeneration}.py`.
"""
import numbers

import minitf as tf

from ....framework.tf_export import tf_export
from ....image.dtype_conversion import saturate_cast
from .image_preprocessing import (BaseImagePreprocessingLayer, batch_size, factor_pair,
                                  make_generator, random_uniform)


def _check_value_range(value_range):
    if not isinstance(value_range, (tuple, list)) or len(value_range) != 2:
        raise ValueError("The `value_range` argument should be a list of two numbers. "
                         f"Received: value_range={value_range}")
    return sorted(value_range)


def _rescale(images, source, target):
    """Keras's `_transform_value_range`: map [source low, high] onto [target low, high]."""
    if tuple(source) == tuple(target):
        return images
    images = tf.cast(images, tf.float32)
    images = (images - source[0]) / (source[1] - source[0])
    return images * (target[1] - target[0]) + target[0]


def rgb_to_grayscale(images, data_format):
    """Keras's `ops.image.rgb_to_grayscale` of a batch: one channel (kept as is if only one)."""
    axis = 1 if data_format == "channels_first" else 3
    if images.shape[axis] not in (1, 3):
        raise ValueError("Invalid channel size: expected 3 (RGB) or 1 (Grayscale). Received "
                         f"input with shape: images.shape={images.shape}")
    if images.shape[axis] == 1:
        return images
    weights = tf.constant([0.2989, 0.5870, 0.1140], dtype=tf.float32)
    shape = [1, 3, 1, 1] if axis == 1 else [1, 1, 1, 3]
    grey = tf.reduce_sum(tf.cast(images, tf.float32) * tf.reshape(weights, shape), axis=axis,
                         keepdims=True)
    return tf.cast(grey, images.dtype)


@tf_export("keras.layers.RandomInvert")
class RandomInvert(BaseImagePreprocessingLayer):
    """Invert images (`value_range[1] - x`) at random while training.

    factor: a number p (each image inverted with a probability drawn in
    [0, p]: 1.0 inverts half of them), or a pair (lo, hi): (1.0, 1.0) inverts all.

    >>> tf.keras.layers.RandomInvert(0.5).factor
    (0, 0.5)
    """

    _USE_BASE_FACTOR = False
    _FACTOR_BOUNDS = (0, 1)

    def __init__(self, factor=1.0, value_range=(0, 255), seed=None, data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self._set_factor(factor)
        self.value_range, self.seed = value_range, seed
        self.generator = make_generator(seed)

    def get_random_transformation(self, images, training=True):
        if not training:
            return None
        batch = batch_size(images)
        probability = random_uniform(self.generator, [batch], self.factor[0], self.factor[1])
        return random_uniform(self.generator, [batch]) < probability

    def transform_images(self, images, transformation, training=True):
        if not training:
            return images
        images = tf.cast(images, self.compute_dtype)
        flip = tf.reshape(transformation, [-1, 1, 1, 1])
        return tf.where(flip, tf.cast(self.value_range[1], images.dtype) - images, images)

    def get_config(self):
        config = super().get_config()
        config.update({"factor": self.factor, "value_range": self.value_range, "seed": self.seed})
        return config


@tf_export("keras.layers.RandomGrayscale")
class RandomGrayscale(BaseImagePreprocessingLayer):
    """Turn each image grey with probability `factor` while training (3 channels kept).

    >>> tf.keras.layers.RandomGrayscale(1.0)(tf.constant([[[255.0, 0.0, 0.0]]])).numpy()
    array([[[76.219505, 76.219505, 76.219505]]], dtype=float32)
    """

    def __init__(self, factor=0.5, data_format=None, seed=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        if not isinstance(factor, numbers.Real) or factor < 0 or factor > 1:
            raise ValueError(f"`factor` should be between 0 and 1. Received: factor={factor}")
        self.factor, self.seed = factor, seed
        self.generator = make_generator(seed)

    def get_random_transformation(self, images, training=True):
        draws = random_uniform(self.generator, [batch_size(images)])
        return tf.reshape(draws < self.factor, [-1, 1, 1, 1])

    def transform_images(self, images, transformation, training=True):
        if not training:
            return images
        if images.dtype.is_floating:
            images = tf.cast(images, self.compute_dtype)
        return tf.where(transformation, rgb_to_grayscale(images, self.data_format), images)

    def get_config(self):
        config = super().get_config()
        config["factor"] = self.factor
        return config


@tf_export("keras.layers.Solarization")
class Solarization(BaseImagePreprocessingLayer):
    """Add a random amount, then invert pixels above a random threshold, while training.

    >>> tf.keras.layers.Solarization(0.2, 0.5).threshold_factor
    (0, 0.5)
    """

    _USE_BASE_FACTOR = False
    _FACTOR_MESSAGE = ("The `addition_factor` and `threshold_factor` arguments should be a number "
                       "(or a list of two numbers) in the range [0, 1]. ")

    def __init__(self, addition_factor=0.0, threshold_factor=0.0, value_range=(0, 255), seed=None,
                 **kwargs):
        super().__init__(**kwargs)
        self.seed = seed
        self.generator = make_generator(seed)
        self.addition_factor = self._factor(addition_factor, "addition_factor")
        self.threshold_factor = self._factor(threshold_factor, "threshold_factor")
        self.value_range = _check_value_range(value_range)

    def _factor(self, factor, name):
        return factor_pair(factor, name, self._FACTOR_MESSAGE, self._check, from_zero=True)

    def _check(self, value):
        if value > 1.0 or value < 0:
            raise ValueError(self._FACTOR_MESSAGE + f"Received: input_number={value}")

    def get_random_transformation(self, images, training=True):
        if not training:
            return None
        shape = [batch_size(images), 1, 1, 1]
        # As Keras 3.15: the low end of each range is NOT scaled by 255, the high end is.
        additions = random_uniform(self.generator, shape, self.addition_factor[0],
                                   self.addition_factor[1] * 255, self.compute_dtype)
        thresholds = random_uniform(self.generator, shape, self.threshold_factor[0],
                                    self.threshold_factor[1] * 255, self.compute_dtype)
        return additions, thresholds

    def transform_images(self, images, transformation, training=True):
        images = tf.cast(images, self.compute_dtype)
        if not training or transformation is None:
            return images
        additions, thresholds = transformation
        out = tf.clip_by_value(_rescale(images, self.value_range, (0, 255)) + additions, 0, 255)
        out = tf.where(out < thresholds, out, 255 - out)
        out = tf.cast(_rescale(out, (0, 255), self.value_range), self.compute_dtype)
        return out if out.dtype == images.dtype else saturate_cast(out, images.dtype)

    def get_config(self):
        config = super().get_config()
        config.update({"value_range": self.value_range, "addition_factor": self.addition_factor,
                       "threshold_factor": self.threshold_factor, "seed": self.seed})
        return config


@tf_export("keras.layers.AutoContrast")
class AutoContrast(BaseImagePreprocessingLayer):
    """Stretch each channel of each image to fill `value_range` - always, training or not.

    The darkest value becomes the low end, the brightest the high end; a flat
    channel (nothing to stretch) is left as it was.

    >>> tf.keras.layers.AutoContrast()(tf.constant([[[50.0], [100.0], [150.0]]]))[..., 0].numpy()
    array([[  0. , 127.5, 255. ]], dtype=float32)
    """

    _USE_BASE_FACTOR = False

    def __init__(self, value_range=(0, 255), **kwargs):
        super().__init__(**kwargs)
        self.value_range = _check_value_range(value_range)

    def transform_images(self, images, transformation=None, training=True):
        original = images
        images = tf.cast(_rescale(images, self.value_range, (0, 255)), self.compute_dtype)
        low = tf.reduce_min(images, axis=[1, 2], keepdims=True)
        high = tf.reduce_max(images, axis=[1, 2], keepdims=True)
        with_range = high > low
        scale = tf.where(with_range, 255.0 / tf.where(with_range, high - low, 1.0), 1.0)
        out = tf.clip_by_value(images * scale - low * scale, 0.0, 255.0)
        out = tf.cast(_rescale(out, (0, 255), self.value_range), self.compute_dtype)
        return tf.where(tf.broadcast_to(with_range, tf.shape(out)), out,
                        tf.cast(original, out.dtype))

    def get_config(self):
        config = super().get_config()
        config["value_range"] = self.value_range
        return config


@tf_export("keras.layers.RandomPosterization")
class RandomPosterization(BaseImagePreprocessingLayer):
    """Keep only the top `bits` bits of each 0..255 value while training (fewer colour levels).

    factor: bits kept, a number f (drawn from 1 .. f-1) or a pair (lo, hi)
    (drawn from lo .. hi-1; lo == hi keeps exactly lo bits). Bounds 1..8.

    >>> layer = tf.keras.layers.RandomPosterization((2, 2))          # 4 levels
    >>> layer(tf.constant([[[10.0], [100.0], [200.0]]]))[..., 0].numpy()
    array([[  0.,  64., 192.]], dtype=float32)
    """

    _USE_BASE_FACTOR = False
    _FACTOR_BOUNDS = (1, 8)

    def __init__(self, factor, value_range=(0, 255), data_format=None, seed=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self._set_factor(factor)
        self.value_range = _check_value_range(value_range)
        self.seed = seed
        self.generator = make_generator(seed)

    def get_random_transformation(self, images, training=True):
        low, high = self.factor
        draws = random_uniform(self.generator, [batch_size(images), 1, 1, 1])
        bits = low + tf.floor(draws * (high - low)) if low != high else draws * 0 + low
        return tf.cast(8 - bits, tf.uint8)

    def transform_images(self, images, transformation, training=True):
        if not training:
            return images
        levels = tf.cast(_rescale(images, self.value_range, (0, 255)), tf.uint8)
        scale = tf.pow(2.0, tf.cast(transformation, tf.float32))   # (x >> s) << s
        kept = tf.floor(tf.cast(levels, tf.float32) / scale) * scale
        return tf.cast(_rescale(kept, (0, 255), self.value_range), self.compute_dtype)

    def get_config(self):
        config = super().get_config()
        config.update({"factor": self.factor, "value_range": self.value_range, "seed": self.seed})
        return config


@tf_export("keras.layers.RandomColorDegeneration")
class RandomColorDegeneration(BaseImagePreprocessingLayer):
    """Move each image towards (or away from) its grey version by a random amount while training.

    factor f draws a in [-f, f] and returns x + a * (grey(x) - x), clipped to
    `value_range`: a = 1 is fully grey, negative a saturates the colours.

    >>> layer = tf.keras.layers.RandomColorDegeneration((1.0, 1.0))
    >>> layer(tf.constant([[[255.0, 0.0, 0.0]]])).numpy()
    array([[[76.21951 , 76.219505, 76.219505]]], dtype=float32)
    """

    def __init__(self, factor, value_range=(0, 255), data_format=None, seed=None, **kwargs):
        super().__init__(factor=factor, data_format=data_format, **kwargs)
        self.value_range = _check_value_range(value_range)
        self.seed = seed
        self.generator = make_generator(seed)

    def get_random_transformation(self, images, training=True):
        return random_uniform(self.generator, [batch_size(images), 1, 1, 1], *self.factor)

    def transform_images(self, images, transformation, training=True):
        if not training:
            return images
        images = tf.cast(images, self.compute_dtype)
        grey = rgb_to_grayscale(images, self.data_format)
        out = images + tf.cast(transformation, images.dtype) * (grey - images)
        return tf.clip_by_value(out, self.value_range[0], self.value_range[1])

    def get_config(self):
        config = super().get_config()
        config.update({"factor": self.factor, "value_range": self.value_range, "seed": self.seed})
        return config
