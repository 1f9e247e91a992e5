"""Geometric augmentation: RandomFlip, RandomRotation, RandomZoom, RandomTranslation, RandomShear.

Each draws one random transformation per image while training and leaves the
images alone (cast to the layer's float dtype) at inference. Rotation, zoom
and translation resample the image through `affine_transform`
(minitf/image/affine_transform.py, TF's ImageProjectiveTransformV3), so
pixels that come from outside the image are filled by `fill_mode`:
"reflect" (default), "wrap", "nearest" or "constant" (`fill_value`).

>>> import minitf as tf
>>> image = tf.reshape(tf.range(9.0), [3, 3, 1])
>>> turn = tf.keras.layers.RandomRotation((0.25, 0.25), interpolation="nearest")  # 90 degrees
>>> turn(image)[..., 0].numpy()
array([[2., 5., 8.],
       [1., 4., 7.],
       [0., 3., 6.]], dtype=float32)

Factors are fractions: RandomRotation's of a full turn (0.1 = up to 36
degrees either way), RandomZoom's and RandomTranslation's of the image's
height or width. A number `f` means the range [-f, f]; a pair (lo, hi) is
the range itself. The random numbers are minitf's (same seed, same
augmentations), not the ones real Keras draws. In Keras these are
`keras/src/layers/preprocessing/image_preprocessing/random_*.py`.
"""
import minitf as tf

from ....framework.tf_export import tf_export
from ....image.affine_transform import affine_transform
from .image_preprocessing import (BaseImagePreprocessingLayer, affine_matrix, batch_size,
                                  factor_pair, make_generator, random_uniform)

FILL_MODES = ("reflect", "wrap", "constant", "nearest")
INTERPOLATIONS = ("nearest", "bilinear")
HORIZONTAL, VERTICAL = "horizontal", "vertical"
HORIZONTAL_AND_VERTICAL = "horizontal_and_vertical"


def _check_modes(fill_mode, interpolation):
    if fill_mode not in FILL_MODES:
        raise NotImplementedError(f"Unknown `fill_mode` {fill_mode}. Expected of one {FILL_MODES}.")
    if interpolation not in INTERPOLATIONS:
        raise NotImplementedError(f"Unknown `interpolation` {interpolation}. Expected of one "
                                  f"{INTERPOLATIONS}.")


@tf_export("keras.layers.RandomFlip")
class RandomFlip(BaseImagePreprocessingLayer):
    """Flip each image with probability 1/2 while training.

    mode: "horizontal" (left-right), "vertical" (up-down) or
    "horizontal_and_vertical" - which, as in Keras 3.15, makes one draw per
    image and flips it both ways or not at all (a half turn, half the time).

    >>> flip = tf.keras.layers.RandomFlip("horizontal", seed=3)
    >>> flip(tf.ones([4, 2, 2, 1])).shape
    TensorShape([4, 2, 2, 1])
    """

    _USE_BASE_FACTOR = False
    _autocast = False

    def __init__(self, mode=HORIZONTAL_AND_VERTICAL, seed=None, data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        if mode not in (HORIZONTAL, VERTICAL, HORIZONTAL_AND_VERTICAL):
            raise ValueError(f"RandomFlip layer {self.name} received an unknown mode argument "
                             f"{mode}: use 'horizontal', 'vertical' or 'horizontal_and_vertical'.")
        self.mode, self.seed = mode, seed
        self.generator = make_generator(seed)

    def get_random_transformation(self, images, training=True):
        if not training:
            return None
        return random_uniform(self.generator, [batch_size(images), 1, 1, 1]) <= 0.5

    def transform_images(self, images, transformation, training=True):
        images = tf.cast(images, self.compute_dtype)
        if not training or transformation is None:
            return images
        height_axis, width_axis = self._hw_axes()
        if self.mode in (HORIZONTAL, HORIZONTAL_AND_VERTICAL):
            images = tf.where(transformation, tf.reverse(images, [width_axis]), images)
        if self.mode in (VERTICAL, HORIZONTAL_AND_VERTICAL):
            images = tf.where(transformation, tf.reverse(images, [height_axis]), images)
        return images

    def get_config(self):
        config = super().get_config()
        config.update({"seed": self.seed, "mode": self.mode})
        return config


class _AffineLayer(BaseImagePreprocessingLayer):
    """A layer whose training-time transform is an affine resampling of each image."""

    def _set_modes(self, fill_mode, interpolation, seed, fill_value):
        _check_modes(fill_mode, interpolation)
        self.fill_mode, self.interpolation = fill_mode, interpolation
        self.seed, self.fill_value = seed, fill_value
        self.generator = make_generator(seed)

    def _size(self, images):
        height_axis, width_axis = self._hw_axes()
        shape = tf.shape(images)
        return batch_size(images), shape[height_axis], shape[width_axis]

    def transform_images(self, images, transformation, training=True):
        images = tf.cast(images, self.compute_dtype)
        if not training or transformation is None:
            return images
        return affine_transform(images, transformation, self.interpolation, self.fill_mode,
                                self.fill_value, self.data_format)

    def _mode_config(self):
        return {"fill_mode": self.fill_mode, "interpolation": self.interpolation,
                "seed": self.seed, "fill_value": self.fill_value}


@tf_export("keras.layers.RandomRotation")
class RandomRotation(_AffineLayer):
    """Rotate each image about its centre by a random fraction of a full turn.

    factor: 0.2 draws angles in [-72, 72] degrees; (-0.1, 0.3) in [-36, 108].
    Positive angles turn the picture counter-clockwise.

    >>> tf.keras.layers.RandomRotation(0.1).factor
    (-0.1, 0.1)
    """

    def __init__(self, factor, fill_mode="reflect", interpolation="bilinear", seed=None,
                 fill_value=0.0, data_format=None, **kwargs):
        super().__init__(factor=factor, data_format=data_format, **kwargs)
        self._set_modes(fill_mode, interpolation, seed, fill_value)

    def get_random_transformation(self, images, training=True):
        if not training:
            return None
        batch, height, width = self._size(images)
        angle = random_uniform(self.generator, [batch], self.factor[0] * 360.0,
                               self.factor[1] * 360.0)
        zeros = tf.zeros_like(angle)
        return affine_matrix(angle, zeros, zeros, tf.ones_like(angle), height, width)

    def get_config(self):
        config = super().get_config()
        config.update({"factor": self.factor, **self._mode_config()})
        return config


class _TwoFactorLayer(_AffineLayer):
    """Zoom and translation: a height factor and a width factor, checked as Keras does."""

    _USE_BASE_FACTOR = False
    _FACTOR_MESSAGE = ""

    def _out_of_range(self, value):
        return value > 1.0 or value < -1.0

    def _two_factors(self, factor, name):
        return factor_pair(factor, name, self._FACTOR_MESSAGE, self._check_range)

    def _check_range(self, value):
        if self._out_of_range(value):
            raise ValueError(self._FACTOR_MESSAGE + f"Received: input_number={value}")

    def _draw(self, batch, bounds):
        return random_uniform(self.generator, [batch, 1], bounds[0], bounds[1])

    def get_config(self):
        config = super().get_config()
        config.update({"height_factor": self.height_factor, "width_factor": self.width_factor,
                       **self._mode_config()})
        return config


@tf_export("keras.layers.RandomZoom")
class RandomZoom(_TwoFactorLayer):
    """Zoom each image about its centre by a random fraction of its size.

    height_factor 0.2 zooms by 1 + u with u in [-0.2, 0.2]: positive u shows
    *more* of the scene (zooms out), negative zooms in. width_factor=None
    keeps the aspect ratio (the same draw for both axes).

    >>> zoom = tf.keras.layers.RandomZoom((-0.5, -0.5), fill_mode="constant")
    >>> zoom(tf.reshape(tf.range(16.0), [4, 4, 1]))[..., 0].numpy()
    array([[ 3.75,  4.25,  4.75,  5.25],
           [ 5.75,  6.25,  6.75,  7.25],
           [ 7.75,  8.25,  8.75,  9.25],
           [ 9.75, 10.25, 10.75, 11.25]], dtype=float32)
    """

    _FACTOR_MESSAGE = ("The `height_factor` and `width_factor` arguments should be a number (or a "
                       "list of two numbers) in the range (-1.0, 1.0]. ")

    def __init__(self, height_factor, width_factor=None, fill_mode="reflect",
                 interpolation="bilinear", seed=None, fill_value=0.0, data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.height_factor, self.width_factor = height_factor, width_factor
        self.height_lower, self.height_upper = self._two_factors(height_factor, "height_factor")
        if width_factor is not None:
            self.width_lower, self.width_upper = self._two_factors(width_factor, "width_factor")
        self._set_modes(fill_mode, interpolation, seed, fill_value)

    def _out_of_range(self, value):
        return value > 1.0 or value <= -1.0

    def get_random_transformation(self, images, training=True):
        if not training:
            return None
        batch, height, width = self._size(images)
        zoom_h = self._draw(batch, (1.0 + self.height_lower, 1.0 + self.height_upper))
        zoom_w = zoom_h
        if self.width_factor is not None:
            zoom_w = self._draw(batch, (1.0 + self.width_lower, 1.0 + self.width_upper))
        x_offset = (tf.cast(width, tf.float32) - 1.0) / 2.0 * (1.0 - zoom_w)
        y_offset = (tf.cast(height, tf.float32) - 1.0) / 2.0 * (1.0 - zoom_h)
        zeros = tf.zeros_like(zoom_h)
        return tf.concat([zoom_w, zeros, x_offset, zeros, zoom_h, y_offset, zeros, zeros], axis=1)


@tf_export("keras.layers.RandomTranslation")
class RandomTranslation(_TwoFactorLayer):
    """Shift each image by a random fraction of its height and width.

    height_factor 0.2 shifts up or down by up to 20% of the height (positive
    moves the picture down); width_factor likewise right/left.

    >>> shift = tf.keras.layers.RandomTranslation(0.0, (0.25, 0.25), fill_mode="constant")
    >>> shift(tf.reshape(tf.range(1.0, 5.0), [1, 4, 1]))[..., 0].numpy()
    array([[0., 1., 2., 3.]], dtype=float32)
    """

    _FACTOR_MESSAGE = ("The `factor` argument should be a number (or a list of two numbers) in "
                       "the range [-1.0, 1.0]. ")

    def __init__(self, height_factor, width_factor, fill_mode="reflect", interpolation="bilinear",
                 seed=None, fill_value=0.0, data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.height_factor, self.width_factor = height_factor, width_factor
        self.height_lower, self.height_upper = self._two_factors(height_factor, "height_factor")
        self.width_lower, self.width_upper = self._two_factors(width_factor, "width_factor")
        self._set_modes(fill_mode, interpolation, seed, fill_value)

    def get_random_transformation(self, images, training=True):
        if not training:
            return None
        batch, height, width = self._size(images)
        dy = self._draw(batch, (self.height_lower, self.height_upper)) * tf.cast(height, tf.float32)
        dx = self._draw(batch, (self.width_lower, self.width_upper)) * tf.cast(width, tf.float32)
        ones, zeros = tf.ones_like(dx), tf.zeros_like(dx)
        return tf.concat([ones, zeros, -dx, zeros, ones, -dy, zeros, zeros], axis=1)


@tf_export("keras.layers.RandomShear")
class RandomShear(_AffineLayer):
    """Shear (slant) each image by random fractions while training.

    x_factor s slants rows: output pixel (x, y) reads input x + s * y (and
    y_factor columns likewise). A number f draws s in [-f, f]; a pair (lo,
    hi) in [lo, hi], and then, as Keras 3.15 does, a random sign is applied
    too - so (0.2, 0.2) means s = 0.2 or -0.2.

    >>> tf.keras.layers.RandomShear(x_factor=0.3).x_factor
    (-0.3, 0.3)
    """

    _USE_BASE_FACTOR = False
    _FACTOR_MESSAGE = ("The `factor` argument should be a number (or a list of two numbers) in "
                       "the range [0, 1.0]. ")

    def __init__(self, x_factor=0.0, y_factor=0.0, interpolation="bilinear", fill_mode="reflect",
                 fill_value=0.0, data_format=None, seed=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.x_factor = self._factor(x_factor, "x_factor")
        self.y_factor = self._factor(y_factor, "y_factor")
        self._set_modes(fill_mode, interpolation, seed, fill_value)

    def _factor(self, factor, name):
        return factor_pair(factor, name, self._FACTOR_MESSAGE, self._check)

    def _check(self, value):
        if value > 1.0 or value < 0.0:
            raise ValueError(self._FACTOR_MESSAGE + f"Received: input_number={value}")

    def get_random_transformation(self, images, training=True):
        if not training:
            return None
        batch = batch_size(images)
        sign = tf.where(random_uniform(self.generator, [batch, 1]) > 0.5, -1.0, 1.0)
        shear_y = random_uniform(self.generator, [batch, 1], *self.y_factor)
        shear_x = random_uniform(self.generator, [batch, 1], *self.x_factor)
        ones, zeros = tf.ones_like(shear_x), tf.zeros_like(shear_x)
        return tf.concat([ones, shear_x * sign, zeros, shear_y * sign, ones, zeros, zeros, zeros],
                         axis=1)

    def get_config(self):
        config = super().get_config()
        config.update({"x_factor": self.x_factor, "y_factor": self.y_factor, **self._mode_config()})
        return config

    @classmethod
    def from_config(cls, config):
        """Keras 3.15 writes RandomShear(0.3) as x_factor (-0.3, 0.3) and then cannot read it
        back (a negative factor is refused); minitf reads such a symmetric pair as 0.3."""
        config = dict(config)
        for key in ("x_factor", "y_factor"):
            value = config.get(key)
            if isinstance(value, (list, tuple)) and len(value) == 2 and value[0] == -value[1]:
                config[key] = abs(value[1])
        return cls(**config)
