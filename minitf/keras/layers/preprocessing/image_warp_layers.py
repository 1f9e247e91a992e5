"""RandomPerspective and RandomElasticTransform: bend the image's geometry at random.

* `RandomPerspective(factor, scale)` moves each of the four corners
  (0, 0), (w-1, 0), (0, h-1), (w-1, h-1) by up to +-scale/2 of its own
  coordinates (`end = start * (1 + u)`, u uniform in [-scale/2, scale/2]) and
  warps the image so the corners land there (`ops.image.perspective_transform`:
  a homography, what a camera sees when the picture is tilted).
* `RandomElasticTransform(factor, scale)` pushes every pixel along a smooth
  random field: Gaussian noise blurred with sigma = 0.05 * min(h, w) * s,
  scaled by alpha = 0.1 * max(h, w) * s, with s drawn once per batch from
  the `scale` range (Keras 3.15's recipe: the same field moves x and y).
  Then the result is clipped to `value_range`.

In both, `factor` is the probability range: each image is changed with a
probability drawn in [0, f] for a number f, or in the pair's range.

>>> import minitf as tf
>>> image = tf.reshape(tf.range(4.0), [1, 2, 2, 1])
>>> persp = tf.keras.layers.RandomPerspective()
>>> corners = [[[0.0, 0.0], [1.0, 0.0], [0.0, 1.0], [1.0, 1.0]]]
>>> same = {"apply_perspective": tf.constant([True]), "start_points": corners,
...         "end_points": corners}
>>> persp.transform_images(image, same)[0, ..., 0].numpy()     # corners kept: no change
array([[0., 1.],
       [2., 3.]], dtype=float32)

Both are the identity at inference (only cast to the layer's dtype). The
random numbers are minitf's, not real Keras's. In Keras: `keras/src/layers/
preprocessing/image_preprocessing/random_{perspective,elastic_transform}.py`.
"""
import minitf as tf

from ....framework.tf_export import tf_export
from ...ops.image_transform_ops import INTERPOLATIONS
from ...ops.image_warp_ops import _fix, _nodes, perspective_transform
from .augmentation_random import next_seed, random_normal
from .image_erase_blur import _bounded_pair
from .image_preprocessing import (BaseImagePreprocessingLayer, batch_size, make_generator,
                                  random_uniform)


class _ProbabilityWarp(BaseImagePreprocessingLayer):
    """factor: the range each image's probability of being warped is drawn from."""

    _USE_BASE_FACTOR = False
    _FACTOR_BOUNDS = (0, 1)
    _SUPPORTED_INTERPOLATION = ("nearest", "bilinear")

    def _check_interpolation(self, interpolation):
        if interpolation not in self._SUPPORTED_INTERPOLATION:
            raise NotImplementedError(f"Unknown `interpolation` {interpolation}. Expected of one "
                                      f"{self._SUPPORTED_INTERPOLATION}.")

    def _apply_mask(self, batch):
        probability = random_uniform(self.generator, [batch], self.factor[0], self.factor[1])
        return random_uniform(self.generator, [batch]) < probability

    def _height_width(self, images):
        h_axis, w_axis = self._hw_axes()
        return images.shape[h_axis], images.shape[w_axis]


@tf_export("keras.layers.RandomPerspective")
class RandomPerspective(_ProbabilityWarp):
    """Tilt each image by moving its four corners at random (homography) while training.

    >>> tf.keras.layers.RandomPerspective(factor=0.5, scale=0.2).factor
    (0, 0.5)
    """

    def __init__(self, factor=1.0, scale=1.0, interpolation="bilinear", fill_value=0.0, seed=None,
                 data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self._set_factor(factor)
        self.scale, self.fill_value, self.interpolation = scale, fill_value, interpolation
        self.seed = seed
        self.generator = make_generator(seed)
        if scale < 0.0 or scale > 1.0:
            raise ValueError("The `scale` argument should be a number in the range [0,1]. "
                             f"Received: scale={scale}")
        self._check_interpolation(interpolation)

    def get_random_transformation(self, images, training=True):
        if not training:
            return None
        batch = batch_size(images)
        height, width = self._height_width(images)
        apply_perspective = self._apply_mask(batch)
        shift = random_uniform(self.generator, [batch, 4, 2], -0.5 * self.scale, 0.5 * self.scale,
                               dtype=self.compute_dtype)
        corners = tf.constant([[[0.0, 0.0], [width - 1, 0.0], [0.0, height - 1],
                                [width - 1, height - 1]]], self.compute_dtype)
        start_points = tf.tile(corners, tf.stack([batch, 1, 1]))
        return {"apply_perspective": apply_perspective, "start_points": start_points,
                "end_points": start_points + start_points * shift, "input_shape": tf.shape(images)}

    def transform_images(self, images, transformation, training=True):
        images = tf.cast(images, self.compute_dtype)
        if not training or transformation is None:
            return images
        warped = perspective_transform(images, transformation["start_points"],
                                       transformation["end_points"], self.interpolation,
                                       self.fill_value, self.data_format)
        apply = tf.reshape(tf.convert_to_tensor(transformation["apply_perspective"]),
                           [-1, 1, 1, 1])
        return tf.where(tf.broadcast_to(apply, tf.shape(images)), tf.cast(warped, images.dtype),
                        images)

    def get_config(self):
        config = super().get_config()
        config.update({"factor": self.factor, "scale": self.scale,
                       "interpolation": self.interpolation, "fill_value": self.fill_value,
                       "seed": self.seed})
        return config


def _blur_kernel(sigma, max_size, dtype):
    """Keras's 1-D Gaussian of odd size 6 * int(sigma) | 1, zero-padded to `max_size` taps.

    sigma is a tensor (drawn when the layer runs), so the kernel is built at
    the largest size it can take and the taps beyond its own size are zeroed:
    a "SAME" convolution with it equals one with the smaller kernel.
    """
    size = tf.bitwise.bitwise_or(6 * tf.cast(sigma, tf.int32), 1)
    x = tf.range(max_size, dtype=dtype) - (max_size - 1) / 2
    inside = tf.abs(x) <= tf.cast((size - 1) // 2, dtype)
    k = tf.where(inside, tf.exp(-0.5 * (x / sigma) ** 2), tf.zeros_like(x))
    return k / tf.reduce_sum(k)


def _sample(images, rows, cols, order, fill_mode, fill_value):
    """images [B, H, W, C] read at (rows, cols) [B, H, W]: map_coordinates, batched."""
    height, width = images.shape[1], images.shape[2]
    shape = tf.shape(rows)
    batch_index = tf.broadcast_to(tf.reshape(tf.range(shape[0]), [-1, 1, 1]), shape)
    out = 0.0
    for row, row_weight in _nodes(rows, order):
        row, row_ok = _fix(row, height, fill_mode)
        for col, col_weight in _nodes(cols, order):
            col, col_ok = _fix(col, width, fill_mode)
            values = tf.gather_nd(images, tf.stack([batch_index, row, col], axis=-1))
            if fill_mode == "constant":
                values = tf.where((row_ok & col_ok)[..., None], values,
                                  tf.cast(fill_value, values.dtype))
            out = out + (row_weight * col_weight)[..., None] * values
    return out


@tf_export("keras.layers.RandomElasticTransform")
class RandomElasticTransform(_ProbabilityWarp):
    """Push the pixels of each image along a smooth random field while training.

    >>> tf.keras.layers.RandomElasticTransform(scale=0.5).scale
    (0, 0.5)
    """

    _SUPPORTED_FILL_MODES = {"constant", "nearest", "wrap", "mirror", "reflect"}

    def __init__(self, factor=1.0, scale=1.0, interpolation="bilinear", fill_mode="reflect",
                 fill_value=0.0, value_range=(0, 255), seed=None, data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self._set_factor(factor)
        self.scale = _bounded_pair(scale, "scale")
        self.interpolation, self.fill_mode, self.fill_value = interpolation, fill_mode, fill_value
        self.value_range, self.seed = value_range, seed
        self.generator = make_generator(seed)
        self._check_interpolation(interpolation)
        if fill_mode not in self._SUPPORTED_FILL_MODES:
            raise NotImplementedError(f"Unknown `fill_mode` {fill_mode}. Expected of one "
                                      f"{self._SUPPORTED_FILL_MODES}.")

    def get_random_transformation(self, images, training=True):
        if not training or self.scale[1] == 0 or self.factor[1] == 0:
            return None
        apply_transform = self._apply_mask(batch_size(images))
        distortion = random_uniform(self.generator, [], *self.scale, dtype=self.compute_dtype)
        return {"apply_transform": apply_transform, "distortion_factor": distortion,
                "seed": next_seed(self.generator)}

    def _field(self, batch, height, width, distortion, seed):
        """alpha * the blurred noise [batch, height, width] (one field for x and y)."""
        dtype = self.compute_dtype
        alpha = max(height, width) * 0.1 * distortion
        sigma = min(height, width) * 0.05 * distortion
        noise = random_normal(seed, [batch, height, width], dtype) * sigma
        max_size = 6 * int(min(height, width) * 0.05 * self.scale[1]) | 1
        kernel = _blur_kernel(sigma, max_size, dtype)
        kernel = tf.reshape(tf.tensordot(kernel, kernel, axes=0), [max_size, max_size, 1, 1])
        blurred = tf.nn.depthwise_conv2d(noise[..., None], kernel, [1, 1, 1, 1], "SAME")
        return alpha * blurred[..., 0]

    def transform_images(self, images, transformation, training=True):
        images = tf.cast(images, self.compute_dtype)
        if not training or transformation is None:
            return images
        last = tf.transpose(images, [0, 2, 3, 1]) if self.data_format == "channels_first" else images
        height, width = last.shape[1], last.shape[2]
        distortion = tf.cast(transformation["distortion_factor"], self.compute_dtype)
        shift = self._field(batch_size(last), height, width, distortion, transformation["seed"])
        rows = tf.reshape(tf.range(height, dtype=self.compute_dtype), [1, -1, 1]) + shift
        cols = tf.reshape(tf.range(width, dtype=self.compute_dtype), [1, 1, -1]) + shift
        warped = _sample(last, rows, cols, INTERPOLATIONS.index(self.interpolation),
                         self.fill_mode, self.fill_value)
        if self.data_format == "channels_first":
            warped = tf.transpose(warped, [0, 3, 1, 2])
        apply = tf.reshape(tf.convert_to_tensor(transformation["apply_transform"]), [-1, 1, 1, 1])
        out = tf.where(tf.broadcast_to(apply, tf.shape(images)), warped, images)
        return tf.cast(tf.clip_by_value(out, self.value_range[0], self.value_range[1]),
                       self.compute_dtype)

    def get_config(self):
        config = super().get_config()
        config.update({"factor": self.factor, "scale": self.scale,
                       "interpolation": self.interpolation, "fill_mode": self.fill_mode,
                       "fill_value": self.fill_value, "value_range": self.value_range,
                       "seed": self.seed})
        return config
