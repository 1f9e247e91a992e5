"""RandomColorJitter (brightness, contrast, saturation and hue in one layer) and Equalization.

* `RandomColorJitter(value_range, brightness_factor, contrast_factor,
  saturation_factor, hue_factor)` runs, in this order, the RandomBrightness,
  RandomContrast, RandomSaturation and RandomHue layers built from the
  factors that are not None (each with the jitter's value_range and seed).
* `Equalization(value_range, bins)` is not random: it spreads each channel's
  values over the whole range through the channel's cumulative histogram
  (histogram equalization). As in Keras 3.15 the histogram counts the whole
  *batch* for each channel, it runs only when `training` (the default) and
  a channel with one value (one histogram bin) is left as it was.

>>> import minitf as tf
>>> image = tf.constant([[[10.0], [20.0], [20.0], [30.0]]])
>>> tf.keras.layers.Equalization()(image)[..., 0].numpy()
array([[  0., 170., 170., 255.]], dtype=float32)
>>> jitter = tf.keras.layers.RandomColorJitter(brightness_factor=(0.1, 0.1))
>>> jitter(image)[..., 0].numpy()
array([[35.5, 45.5, 45.5, 55.5]], dtype=float32)

In Keras: `keras/src/layers/preprocessing/image_preprocessing/
{random_color_jitter,equalization}.py`.
"""
import minitf as tf

from ....framework.tf_export import tf_export
from .image_color import RandomBrightness, RandomContrast
from .image_color_hsv import RandomHue, RandomSaturation
from .image_color_more import _check_value_range
from .image_preprocessing import BaseImagePreprocessingLayer, make_generator


@tf_export("keras.layers.RandomColorJitter")
class RandomColorJitter(BaseImagePreprocessingLayer):
    """Brightness, then contrast, then saturation, then hue - each only if its factor is given.

    >>> tf.keras.layers.RandomColorJitter(hue_factor=0.2).random_hue.factor
    (0, 0.2)
    """

    _USE_BASE_FACTOR = False

    def __init__(self, value_range=(0, 255), brightness_factor=None, contrast_factor=None,
                 saturation_factor=None, hue_factor=None, seed=None, data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.value_range, self.seed = value_range, seed
        self.brightness_factor, self.contrast_factor = brightness_factor, contrast_factor
        self.saturation_factor, self.hue_factor = saturation_factor, hue_factor
        self.generator = make_generator(seed)

        def sub(layer_type, factor):
            if factor is None:
                return None
            return layer_type(factor=factor, value_range=value_range, seed=seed,
                              data_format=self.data_format)

        self.random_brightness = sub(RandomBrightness, brightness_factor)
        self.random_contrast = sub(RandomContrast, contrast_factor)
        self.random_saturation = sub(RandomSaturation, saturation_factor)
        self.random_hue = sub(RandomHue, hue_factor)

    def transform_images(self, images, transformation, training=True):
        if not training:
            return images
        images = tf.cast(images, self.compute_dtype)
        for layer in (self.random_brightness, self.random_contrast, self.random_saturation,
                      self.random_hue):
            if layer is not None:
                draw = layer.get_random_transformation(images, training=True)
                images = tf.cast(layer.transform_images(images, draw), self.compute_dtype)
        return images

    def get_config(self):
        config = super().get_config()
        config.update({"value_range": self.value_range, "brightness_factor": self.brightness_factor,
                       "contrast_factor": self.contrast_factor,
                       "saturation_factor": self.saturation_factor,
                       "hue_factor": self.hue_factor, "seed": self.seed})
        return config


@tf_export("keras.layers.Equalization")
class Equalization(BaseImagePreprocessingLayer):
    """Histogram-equalize each channel (over the whole batch) to fill `value_range`.

    >>> tf.keras.layers.Equalization(bins=128).bins
    128
    """

    _USE_BASE_FACTOR = False

    def __init__(self, value_range=(0, 255), bins=256, data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.bins = bins
        self.value_range = _check_value_range(value_range)

    def _bin_of(self, channel):
        """Keras's bin index: int(v * (bins - 1) / 255), clipped to [0, bins - 1]."""
        return tf.clip_by_value(tf.cast(channel * ((self.bins - 1) / 255.0), tf.int32),
                                0, self.bins - 1)

    def _equalize_channel(self, channel):
        low, high = (float(v) for v in self.value_range)
        channel = channel * (255.0 / (high - low)) - low * (255.0 / (high - low))
        flat = tf.reshape(self._bin_of(tf.cast(channel, tf.float32)), [-1])
        hist = tf.math.unsorted_segment_sum(tf.ones_like(flat), flat, self.bins)
        cdf = tf.cumsum(hist)
        cdf_min = tf.reduce_min(tf.where(cdf > 0, cdf, cdf[-1]))   # the first nonzero entry
        denominator = cdf[-1] - cdf_min
        denominator = tf.where(denominator == 0, tf.ones_like(denominator), denominator)
        table = tf.cast(tf.clip_by_value(tf.round(tf.cast(cdf - cdf_min, tf.float32) * 255.0
                                                  / tf.cast(denominator, tf.float32)), 0, 255),
                        channel.dtype)
        bins = tf.cast(tf.clip_by_value(channel / 255.0 * (self.bins - 1), 0, self.bins - 1),
                       tf.int32)
        equalized = tf.where(tf.math.count_nonzero(hist) <= 1, channel, tf.gather(table, bins))
        return equalized * ((high - low) / 255.0) + low

    def transform_images(self, images, transformation=None, training=True):
        if not training:
            return images
        images = tf.cast(images, self.compute_dtype)
        axis = 1 if self.data_format == "channels_first" else 3
        channels = tf.unstack(images, num=images.shape[axis], axis=axis)
        return tf.cast(tf.stack([self._equalize_channel(c) for c in channels], axis=axis),
                       self.compute_dtype)

    def get_config(self):
        config = super().get_config()
        config.update({"bins": self.bins, "value_range": self.value_range})
        return config
