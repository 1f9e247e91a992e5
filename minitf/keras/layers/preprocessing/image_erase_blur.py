"""RandomErasing (cut a random rectangle out of an image) and RandomGaussianBlur.

* `RandomErasing(factor, scale, fill_value)` picks, per image, a rectangle
  whose width and height are `sqrt(s)` of the image's (s uniform in `scale`,
  drawn separately for the two sides) at a random place, and fills it with
  `fill_value` (a number, or 3 numbers one per channel; None: Gaussian noise
  times `value_range[1]`), clipped to `value_range`. Each image is erased
  with a probability drawn from the factor range ([0, p] for a number p).
* `RandomGaussianBlur(factor, kernel_size, sigma)` blurs each image with
  that probability by a `kernel_size` Gaussian (zeros outside the image)
  whose two sigmas (x, y) are drawn once per batch from the `sigma` range
  (a number s means [0, s], Keras 3.15's rule, plus 1e-6).

>>> import minitf as tf
>>> erase = tf.keras.layers.RandomErasing((1.0, 1.0), scale=(1.0, 1.0), fill_value=0.0)
>>> erase(tf.ones([2, 2, 1]))[..., 0].numpy()          # the whole image
array([[0., 0.],
       [0., 0.]], dtype=float32)
>>> blur = tf.keras.layers.RandomGaussianBlur((1.0, 1.0), kernel_size=3, sigma=(1.0, 1.0))
>>> float(blur(tf.fill([3, 3, 1], 10.0))[1, 1, 0].numpy().round(4))   # centre: weights sum to 1
10.0

Both are the identity at inference. The random numbers are minitf's, not
real Keras's. In Keras: `keras/src/layers/preprocessing/image_preprocessing/
random_{erasing,gaussian_blur}.py`.
"""
import numbers

import minitf as tf

from ....framework.tf_export import tf_export
from .image_preprocessing import (BaseImagePreprocessingLayer, batch_size, make_generator,
                                  random_uniform)


def _bounded_pair(factor, name):
    """Keras's `_set_factor_by_name` with bounds (0, 1): a number f means (0, f)."""
    message = (f"The `{name}` argument should be a number (or a list of two numbers) in the "
               f"range [0, 1]. Received: factor={factor}")
    if isinstance(factor, (tuple, list)):
        if len(factor) != 2 or factor[0] > 1 or factor[1] < 0:
            raise ValueError(message)
        return tuple(sorted(factor))
    if isinstance(factor, numbers.Real):
        if factor < 0 or factor > 1:
            raise ValueError(message)
        return (max(-abs(factor), 0), abs(factor))
    raise ValueError(message)


class _ProbabilityLayer(BaseImagePreprocessingLayer):
    """factor (0, 1): the probability range; `_apply` draws which images are changed."""

    _USE_BASE_FACTOR = False
    _FACTOR_BOUNDS = (0, 1)

    def _apply(self, images):
        batch = batch_size(images)
        probability = random_uniform(self.generator, [batch], self.factor[0], self.factor[1])
        return tf.reshape(random_uniform(self.generator, [batch]) < probability, [-1, 1, 1, 1])


@tf_export("keras.layers.RandomErasing")
class RandomErasing(_ProbabilityLayer):
    """Fill a random rectangle of each image (with a probability from `factor`) while training.

    >>> tf.keras.layers.RandomErasing(scale=0.3).scale
    (0, 0.3)
    """

    def __init__(self, factor=1.0, scale=(0.02, 0.33), fill_value=None, value_range=(0, 255),
                 seed=None, data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self._set_factor(factor)
        self.scale = _bounded_pair(scale, "scale")
        self.fill_value, self.value_range, self.seed = fill_value, value_range, seed
        self.generator = make_generator(seed)

    def _bounds(self, batch, length, ratio):
        length = tf.cast(length, self.compute_dtype)
        crop = ratio * length
        start = random_uniform(self.generator, [batch], dtype=self.compute_dtype) * (length - crop)
        return tf.reshape(start, [-1, 1, 1, 1]), tf.reshape(start + crop, [-1, 1, 1, 1])

    def _fill(self, images):
        fill = self.fill_value
        if fill is None:
            shape = tf.shape(images)
            fill = tf.random.stateless_normal(shape, self.generator._next_seed(),
                                              dtype=self.compute_dtype) * self.value_range[1]
        elif isinstance(fill, (tuple, list)) and len(fill) == 3:
            axis_shape = [1, 3, 1, 1] if self.data_format == "channels_first" else [1, 1, 1, 3]
            fill = tf.zeros_like(images) + tf.reshape(tf.constant(fill, self.compute_dtype),
                                                      axis_shape)
        elif isinstance(fill, numbers.Real) and not isinstance(fill, bool):
            fill = tf.fill(tf.shape(images), tf.cast(fill, self.compute_dtype))
        else:
            raise ValueError("The `fill_value` argument should be a number (or a list of three "
                             "numbers) ")
        return tf.clip_by_value(fill, self.value_range[0], self.value_range[1])

    def get_random_transformation(self, images, training=True):
        if not training:
            return None
        batch, shape = batch_size(images), tf.shape(images)
        h_axis, w_axis = self._hw_axes()
        ratio = tf.sqrt(random_uniform(self.generator, [batch, 2], *self.scale,
                                       dtype=self.compute_dtype))
        x0, x1 = self._bounds(batch, shape[w_axis], ratio[:, 0])
        y0, y1 = self._bounds(batch, shape[h_axis], ratio[:, 1])
        grid_y = tf.cast(tf.range(shape[h_axis]), self.compute_dtype)
        grid_x = tf.cast(tf.range(shape[w_axis]), self.compute_dtype)
        if self.data_format == "channels_first":
            grid_y, grid_x = tf.reshape(grid_y, [1, 1, -1, 1]), tf.reshape(grid_x, [1, 1, 1, -1])
        else:
            grid_y, grid_x = tf.reshape(grid_y, [1, -1, 1, 1]), tf.reshape(grid_x, [1, 1, -1, 1])
        mask = (grid_x >= x0) & (grid_x < x1) & (grid_y >= y0) & (grid_y < y1)
        return {"apply_erasing": self._apply(images), "batch_masks": mask,
                "fill_value": self._fill(images)}

    def transform_images(self, images, transformation, training=True):
        images = tf.cast(images, self.compute_dtype)
        if not training or transformation is None:
            return images
        mask = tf.broadcast_to(transformation["batch_masks"], tf.shape(images))
        erased = tf.where(mask, transformation["fill_value"], images)
        return tf.where(tf.broadcast_to(transformation["apply_erasing"], tf.shape(images)),
                        erased, images)

    def get_config(self):
        config = super().get_config()
        config.update({"factor": self.factor, "scale": self.scale, "fill_value": self.fill_value,
                       "value_range": self.value_range, "seed": self.seed})
        return config


def _kernel_size_pair(size):
    message = f"kernel_size must be an odd number. Received: kernel_size={size}"
    if isinstance(size, (tuple, list)):
        if len(size) != 2:
            raise ValueError("The `kernel_size` argument should be a number (or a list of two "
                             f"numbers) Received: kernel_size={size}")
        if size[0] % 2 == 0 or size[1] % 2 == 0:
            raise ValueError(message)
        return tuple(size)
    if isinstance(size, numbers.Real):
        if size % 2 == 0:
            raise ValueError(message)
        return (size, size)
    raise ValueError(message)


def gaussian_kernel(kernel_size, sigma, channels, dtype):
    """Keras's depthwise Gaussian kernel [k0, k1, channels, 1] (x sizes/sigmas first)."""
    def one_d(size, s):
        x = tf.range(size, dtype=dtype) - (size - 1) / 2
        k = tf.exp(-0.5 * (x / s) ** 2)
        return k / tf.reduce_sum(k)
    k2 = tf.tensordot(one_d(kernel_size[1], sigma[1]), one_d(kernel_size[0], sigma[0]), axes=0)
    k2 = tf.reshape(k2, [int(kernel_size[0]), int(kernel_size[1]), 1, 1])
    return tf.tile(k2, [1, 1, channels, 1])


@tf_export("keras.layers.RandomGaussianBlur")
class RandomGaussianBlur(_ProbabilityLayer):
    """Blur each image (with a probability from `factor`) by a random-width Gaussian while training.

    >>> tf.keras.layers.RandomGaussianBlur(kernel_size=5, sigma=0.5).sigma
    (0, 0.5)
    """

    def __init__(self, factor=1.0, kernel_size=3, sigma=1.0, value_range=(0, 255),
                 data_format=None, seed=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self._set_factor(factor)
        self.kernel_size = _kernel_size_pair(kernel_size)
        self.sigma = _bounded_pair(sigma, "sigma")
        self.value_range, self.seed = value_range, seed
        self.generator = make_generator(seed)

    def get_random_transformation(self, images, training=True):
        if not training:
            return None
        blur = random_uniform(self.generator, [2], *self.sigma, dtype=self.compute_dtype) + 1e-6
        return {"should_apply_blur": self._apply(images), "blur_factor": blur}

    def transform_images(self, images, transformation, training=True):
        images = tf.cast(images, self.compute_dtype)
        if not training or transformation is None:
            return images
        last = tf.transpose(images, [0, 2, 3, 1]) if self.data_format == "channels_first" else images
        kernel = gaussian_kernel(self.kernel_size, transformation["blur_factor"], last.shape[-1],
                                 self.compute_dtype)
        blurred = tf.nn.depthwise_conv2d(last, kernel, [1, 1, 1, 1], "SAME")
        if self.data_format == "channels_first":
            blurred = tf.transpose(blurred, [0, 3, 1, 2])
        out = tf.where(tf.broadcast_to(transformation["should_apply_blur"], tf.shape(images)),
                       blurred, images)
        return tf.clip_by_value(out, self.value_range[0], self.value_range[1])

    def get_config(self):
        config = super().get_config()
        config.update({"factor": self.factor, "kernel_size": self.kernel_size, "sigma": self.sigma,
                       "value_range": self.value_range, "seed": self.seed})
        return config
