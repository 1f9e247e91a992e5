"""Resizing, CenterCrop and RandomCrop: make images one size.

* `Resizing(h, w)` resamples to h x w (`tf.image.resize`); with
  `crop_to_aspect_ratio=True` it first cuts the largest centred window of
  the target's aspect ratio (no distortion, edges lost), with
  `pad_to_aspect_ratio=True` it first pads with `fill_value` (nothing lost).
  Integer images come back in their dtype, rounded and clipped.
* `CenterCrop(h, w)` cuts the centred h x w window; an image smaller than
  that is cropped to the aspect ratio and resized up instead.
* `RandomCrop(h, w)` cuts an h x w window at a random place while training
  (one place for the whole batch, as Keras); at inference it returns the
  images unchanged (Keras 3.15's behaviour - add a CenterCrop or Resizing
  after it if the model needs a fixed size).

>>> import minitf as tf
>>> image = tf.reshape(tf.range(16.0), [4, 4, 1])
>>> tf.keras.layers.CenterCrop(2, 2)(image)[..., 0].numpy()
array([[ 5.,  6.],
       [ 9., 10.]], dtype=float32)
>>> tf.keras.layers.Resizing(2, 2)(image)[..., 0].numpy()
array([[ 2.5,  4.5],
       [10.5, 12.5]], dtype=float32)

In Keras these are `keras/src/layers/preprocessing/image_preprocessing/
{resizing,center_crop,random_crop}.py` with `keras.ops.image.resize`.
"""
import random as _py_random

import minitf as tf

from ....image.dtype_conversion import saturate_cast

from ....framework.tf_export import tf_export
from .image_preprocessing import BaseImagePreprocessingLayer, make_generator, random_uniform

RESIZE_INTERPOLATIONS = ("bilinear", "nearest", "lanczos3", "lanczos5", "bicubic", "area")


def _crop_box(height, width, target_height, target_width):
    """Keras's centred crop of the target's aspect ratio: (h start, w start, h, w) tensors."""
    crop_h = tf.cast(tf.cast(width * target_height, tf.float32) / target_width, tf.int32)
    crop_h = tf.maximum(tf.minimum(height, crop_h), 1)
    crop_w = tf.cast(tf.cast(height * target_width, tf.float32) / target_height, tf.int32)
    crop_w = tf.maximum(tf.minimum(width, crop_w), 1)
    h_start = tf.cast(tf.cast(height - crop_h, tf.float32) / 2, tf.int32)
    w_start = tf.cast(tf.cast(width - crop_w, tf.float32) / 2, tf.int32)
    return h_start, w_start, crop_h, crop_w


def _window(images, h_start, w_start, crop_h, crop_w):
    """images[:, h_start:h_start+crop_h, w_start:w_start+crop_w, :] of a channels-last batch."""
    rows = tf.range(crop_h) + tf.cast(h_start, tf.int32)
    cols = tf.range(crop_w) + tf.cast(w_start, tf.int32)
    return tf.gather(tf.gather(images, rows, axis=1), cols, axis=2)


def _pad_to_aspect(images, target_height, target_width, fill_value):
    """Pad the same amount on both sides of the short axis to reach the target's aspect ratio."""
    shape = tf.shape(images)
    height, width = shape[1], shape[2]
    pad_h = tf.maximum(height, tf.cast(tf.cast(width * target_height, tf.float32)
                                       / target_width, tf.int32))
    pad_w = tf.maximum(width, tf.cast(tf.cast(height * target_width, tf.float32)
                                      / target_height, tf.int32))
    top = tf.cast(tf.cast(pad_h - height, tf.float32) / 2, tf.int32)
    left = tf.cast(tf.cast(pad_w - width, tf.float32) / 2, tf.int32)
    paddings = tf.stack([[0, 0], [top, top], [left, left], [0, 0]])
    return tf.pad(images, paddings, constant_values=tf.cast(fill_value, images.dtype))


def resize_images(images, size, interpolation="bilinear", antialias=False,
                  crop_to_aspect_ratio=False, pad_to_aspect_ratio=False, fill_value=0.0):
    """Keras's `ops.image.resize` for a channels-last batch (float32 out unless 'nearest')."""
    target_height, target_width = size
    if crop_to_aspect_ratio:
        shape = tf.shape(images)
        images = _window(images, *_crop_box(shape[1], shape[2], target_height, target_width))
    elif pad_to_aspect_ratio:
        images = _pad_to_aspect(images, target_height, target_width, fill_value)
    return tf.image.resize(images, size, method=interpolation, antialias=antialias)


def _to_channels_last(layer, images):
    return tf.transpose(images, (0, 2, 3, 1)) if layer.data_format == "channels_first" else images


def _from_channels_last(layer, images):
    return tf.transpose(images, (0, 3, 1, 2)) if layer.data_format == "channels_first" else images


class _SizedLayer(BaseImagePreprocessingLayer):
    """A layer with a target `height` x `width`."""

    _USE_BASE_FACTOR = False

    def compute_output_shape(self, input_shape):
        shape = list(input_shape)
        if len(shape) not in (3, 4):
            raise ValueError("`input_shape` must be a non-nested tuple or list of rank-1 with "
                             "size 3 (unbatched) or 4 (batched). ")
        first = len(shape) - 3 + (1 if self.data_format == "channels_first" else 0)
        shape[first], shape[first + 1] = self.height, self.width
        return tuple(shape)

    def get_config(self):
        config = super().get_config()
        config.update({"height": self.height, "width": self.width})
        return config


@tf_export("keras.layers.Resizing")
class Resizing(_SizedLayer):
    """Resize images to `height` x `width` with `interpolation` (tf.image.resize's methods).

    >>> layer = tf.keras.layers.Resizing(2, 4, crop_to_aspect_ratio=True)
    >>> layer(tf.ones([1, 6, 6, 3])).shape
    TensorShape([1, 2, 4, 3])
    """

    def __init__(self, height, width, interpolation="bilinear", crop_to_aspect_ratio=False,
                 pad_to_aspect_ratio=False, fill_mode="constant", fill_value=0.0,
                 antialias=False, data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.height, self.width = height, width
        self.interpolation = interpolation
        self.crop_to_aspect_ratio = crop_to_aspect_ratio
        self.pad_to_aspect_ratio = pad_to_aspect_ratio
        self.fill_mode, self.fill_value = fill_mode, fill_value
        self.antialias = bool(antialias)

    def _check(self):
        if self.interpolation not in RESIZE_INTERPOLATIONS:
            raise ValueError("Invalid value for argument `interpolation`. Expected of one "
                             f"{RESIZE_INTERPOLATIONS}. Received: interpolation={self.interpolation}")
        if self.fill_mode != "constant":
            raise ValueError("Invalid value for argument `fill_mode`. Only `'constant'` is "
                             f"supported. Received: fill_mode={self.fill_mode}")
        if self.pad_to_aspect_ratio and self.crop_to_aspect_ratio:
            raise ValueError("Only one of `pad_to_aspect_ratio` & `crop_to_aspect_ratio` can be "
                             "`True`.")

    def transform_images(self, images, transformation=None, training=True):
        self._check()
        if images.dtype.is_floating:
            images = tf.cast(images, self.compute_dtype)
        resized = resize_images(_to_channels_last(self, images), (self.height, self.width),
                                self.interpolation, self.antialias, self.crop_to_aspect_ratio,
                                self.pad_to_aspect_ratio, self.fill_value)
        if resized.dtype != images.dtype:
            if images.dtype.is_integer:
                resized = tf.round(resized)
            resized = saturate_cast(resized, images.dtype)
        return _from_channels_last(self, resized)

    def get_config(self):
        config = super().get_config()
        config.update({"interpolation": self.interpolation,
                       "crop_to_aspect_ratio": self.crop_to_aspect_ratio,
                       "pad_to_aspect_ratio": self.pad_to_aspect_ratio,
                       "fill_mode": self.fill_mode, "fill_value": self.fill_value,
                       "antialias": self.antialias})
        return config


@tf_export("keras.layers.CenterCrop")
class CenterCrop(_SizedLayer):
    """Cut the centred `height` x `width` window (smaller images: crop to aspect, then resize).

    >>> tf.keras.layers.CenterCrop(4, 4)(tf.ones([2, 2, 1])).shape
    TensorShape([4, 4, 1])
    """

    def __init__(self, height, width, data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.height, self.width = height, width

    def transform_images(self, images, transformation=None, training=True):
        images = _to_channels_last(self, tf.cast(images, self.compute_dtype))
        height, width = images.shape.as_list()[1:3]
        if height is not None and width is not None and height >= self.height \
                and width >= self.width:
            out = images[:, (height - self.height) // 2:(height - self.height) // 2 + self.height,
                         (width - self.width) // 2:(width - self.width) // 2 + self.width, :]
        else:
            out = resize_images(images, (self.height, self.width), crop_to_aspect_ratio=True)
        return _from_channels_last(self, tf.cast(out, self.compute_dtype))


@tf_export("keras.layers.RandomCrop")
class RandomCrop(_SizedLayer):
    """While training, cut a `height` x `width` window at a random place; inference: identity.

    An image not larger than the window in both directions is instead cut
    from the centre of its largest window of the target's aspect ratio and
    resized to `height` x `width` (Keras's rule, which may stretch it).

    >>> crop = tf.keras.layers.RandomCrop(2, 2, seed=5)
    >>> crop(tf.ones([3, 4, 4, 1])).shape, crop(tf.ones([3, 4, 4, 1]), training=False).shape
    (TensorShape([3, 2, 2, 1]), TensorShape([3, 4, 4, 1]))
    """

    _autocast = False   # as Keras: inference returns float64 images as float64

    def __init__(self, height, width, seed=None, data_format=None, name=None, **kwargs):
        super().__init__(data_format=data_format, name=name, **kwargs)
        self.height, self.width = height, width
        self.generator = make_generator(seed)
        self.seed = seed if seed is not None else _py_random.randint(1, 10**9)

    def get_random_transformation(self, images, training=True):
        height_axis, width_axis = self._hw_axes()
        height, width = images.shape[height_axis], images.shape[width_axis]
        if height is None or width is None:
            raise ValueError("RandomCrop requires the input to have a fully defined height and "
                             f"width. Received: images.shape={images.shape}")
        if training and height > self.height and width > self.width:
            h_start = random_uniform(self.generator, [], 0, float(height - self.height + 1))
            w_start = random_uniform(self.generator, [], 0, float(width - self.width + 1))
            return tf.cast(h_start, tf.int32), tf.cast(w_start, tf.int32)
        crop_h = max(min(height, int(float(width * self.height) / self.width)), 1)
        crop_w = max(min(width, int(float(height * self.width) / self.height)), 1)
        return int(float(height - crop_h) / 2), int(float(width - crop_w) / 2)

    def transform_images(self, images, transformation, training=True):
        if not training:
            return images
        images = _to_channels_last(self, tf.cast(images, self.compute_dtype))
        h_start, w_start = transformation
        if isinstance(h_start, int):   # too small: Keras's window from the aspect-ratio crop
            out = images[:, h_start:h_start + self.height, w_start:w_start + self.width, :]
            if out.shape.as_list()[1:3] != [self.height, self.width]:
                out = tf.image.resize(out, (self.height, self.width))
        else:
            out = _window(images, h_start, w_start, self.height, self.width)
        return _from_channels_last(self, tf.cast(out, self.compute_dtype))

    def get_config(self):
        config = super().get_config()
        config["seed"] = self.seed
        return config
