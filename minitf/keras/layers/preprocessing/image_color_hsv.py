"""RandomHue, RandomSaturation and RandomSharpness (Keras 3.15's rules, minitf's random numbers).

* `RandomHue(factor)` turns the image to HSV, rotates the hue by
  `+-f / 2` of a full turn (f drawn from the factor range, the sign at
  random), and turns it back. `factor` 0 is a no-op; a number f means (0, f).
* `RandomSaturation(factor)` multiplies the HSV saturation by
  `f / (1 - f + 1e-7)`: f = 0.5 keeps the image, 0 makes it grey, 1
  saturates it fully. As in Keras 3.15 a number f means (-f, f) (f <= 0
  gives grey), unlike the other two.
* `RandomSharpness(factor)` blends the image with a 3x3 blur
  (centre 5/13, neighbours 1/13, zeros outside the image) by
  `x + (1 - 2 f) * (blur - x)`: f = 0 is the blur, 0.5 the image, 1 sharper.

Each draws one f per image while training and is the identity at inference.

>>> import minitf as tf
>>> image = tf.constant([[[255.0, 0.0, 0.0]]])                         # pure red
>>> tf.keras.layers.RandomHue((1.0, 1.0), seed=0)(image).numpy().round(3)   # half a turn
array([[[  0., 255., 255.]]], dtype=float32)
>>> tf.keras.layers.RandomSaturation((0.0, 0.0))(image).numpy()        # grey
array([[[255., 255., 255.]]], dtype=float32)

In Keras: `keras/src/layers/preprocessing/image_preprocessing/random_{hue,
saturation,sharpness}.py`.
"""
import minitf as tf

from ....framework.tf_export import tf_export
from .image_color_more import _check_value_range, _rescale
from .image_preprocessing import BaseImagePreprocessingLayer, batch_size, make_generator, random_uniform


def _to_last(images, data_format):
    return tf.transpose(images, [0, 2, 3, 1]) if data_format == "channels_first" else images


def _from_last(images, data_format):
    return tf.transpose(images, [0, 3, 1, 2]) if data_format == "channels_first" else images


class _HSVLayer(BaseImagePreprocessingLayer):
    """factor in [0, 1], value_range, seed; one draw per image."""

    _FACTOR_BOUNDS = (0, 1)

    def __init__(self, factor, value_range=(0, 255), data_format=None, seed=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self._set_factor(factor)
        self.value_range = self._value_range(value_range)
        self.seed = seed
        self.generator = make_generator(seed)

    def _value_range(self, value_range):
        return _check_value_range(value_range)

    def _draw(self, images):
        return random_uniform(self.generator, [batch_size(images), 1, 1], *self.factor,
                              dtype=self.compute_dtype)

    def get_config(self):
        config = super().get_config()
        config.update({"factor": self.factor, "value_range": self.value_range, "seed": self.seed})
        return config


@tf_export("keras.layers.RandomHue")
class RandomHue(_HSVLayer):
    """Rotate each image's hue by a random amount while training.

    >>> tf.keras.layers.RandomHue(0.3).factor
    (0, 0.3)
    """

    def _value_range(self, value_range):
        return value_range      # Keras keeps it as given (not sorted, not checked)

    def get_random_transformation(self, images, training=True):
        if not training:
            return None
        sign = tf.where(random_uniform(self.generator, [batch_size(images), 1, 1]) > 0.5,
                        -1.0, 1.0)
        return tf.cast(sign, self.compute_dtype) * self._draw(images) * 0.5

    def transform_images(self, images, transformation, training=True):
        if not training:
            return images
        images = _rescale(tf.cast(images, self.compute_dtype), self.value_range, (0, 1))
        hsv = tf.image.rgb_to_hsv(_to_last(images, self.data_format))
        hue = hsv[..., 0] + tf.cast(transformation, hsv.dtype)
        hue = tf.where(hue > 1.0, hue - 1.0, hue)
        hue = tf.where(hue < 0.0, hue + 1.0, hue)
        rgb = tf.image.hsv_to_rgb(tf.stack([hue, hsv[..., 1], hsv[..., 2]], axis=-1))
        rgb = _rescale(tf.clip_by_value(rgb, 0.0, 1.0), (0, 1), self.value_range)
        return tf.cast(_from_last(rgb, self.data_format), self.compute_dtype)


@tf_export("keras.layers.RandomSaturation")
class RandomSaturation(_HSVLayer):
    """Scale each image's colour saturation by a random amount while training.

    >>> layer = tf.keras.layers.RandomSaturation((0.5, 0.5))             # no-op
    >>> layer(tf.constant([[[200.0, 100.0, 50.0]]])).numpy().round(2)
    array([[[200., 100.,  50.]]], dtype=float32)
    """

    _USE_BASE_FACTOR = False
    _FACTOR_BOUNDS = (-1, 1)     # as Keras 3.15: 0.3 means (-0.3, 0.3); below 0 turns grey

    def get_random_transformation(self, images, training=True):
        if not training:
            return None
        factor = self._draw(images)
        return factor / (1.0 - factor + 1e-7)

    def transform_images(self, images, transformation, training=True):
        if not training:
            return images
        # As Keras 3.15: HSV of the images as they are (no value_range rescaling); the
        # scaled saturation is clipped to value_range.
        hsv = tf.image.rgb_to_hsv(_to_last(images, self.data_format))
        saturation = tf.clip_by_value(hsv[..., 1] * tf.cast(transformation, hsv.dtype),
                                      self.value_range[0], self.value_range[1])
        rgb = tf.image.hsv_to_rgb(tf.stack([hsv[..., 0], saturation, hsv[..., 2]], axis=-1))
        return _from_last(rgb, self.data_format)


@tf_export("keras.layers.RandomSharpness")
class RandomSharpness(_HSVLayer):
    """Blend each image with a blurred copy (or push away from it) while training.

    >>> layer = tf.keras.layers.RandomSharpness((0.0, 0.0))              # the blur
    >>> layer(tf.fill([1, 3, 3, 1], 13.0))[0, ..., 0].numpy()            # zeros outside
    array([[ 8., 10.,  8.],
           [10., 13., 10.],
           [ 8., 10.,  8.]], dtype=float32)
    """

    _USE_BASE_FACTOR = False

    def get_random_transformation(self, images, training=True):
        if not training:
            return None
        return random_uniform(self.generator, [batch_size(images), 1, 1, 1], *self.factor,
                              dtype=self.compute_dtype)

    def transform_images(self, images, transformation, training=True):
        images = tf.cast(images, self.compute_dtype)
        if not training:
            return images
        images = _to_last(images, self.data_format)
        a, b = 1.0 / 13.0, 5.0 / 13.0
        kernel = tf.constant([[a, a, a], [a, b, a], [a, a, a]], dtype=self.compute_dtype)
        kernel = tf.tile(tf.reshape(kernel, [3, 3, 1, 1]), [1, 1, images.shape[-1], 1])
        smooth = tf.nn.depthwise_conv2d(images, kernel, [1, 1, 1, 1], "SAME")
        out = images + (1.0 - tf.cast(transformation, images.dtype) * 2) * (smooth - images)
        out = tf.clip_by_value(out, self.value_range[0], self.value_range[1])
        return _from_last(out, self.data_format)
