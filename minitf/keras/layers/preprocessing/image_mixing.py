"""MixUp and CutMix: augmentations that mix *pairs of images in a batch*, and their labels.

Each image is paired with another image of the same batch (a random
permutation of the batch), and the pair is mixed:

* `MixUp(alpha)` blends the two whole images, `w * a + (1 - w) * b`, with a
  weight `w ~ Beta(alpha, alpha)` per image (small alpha: w near 0 or 1,
  so most images stay nearly themselves).
* `CutMix(factor)` pastes a rectangle of `b` into `a`. Its side lengths are
  `sqrt(1 - w)` of the image's, with `w ~ Beta(a, a)` and `a` drawn once per
  batch from the factor range; where it lands is uniform.

A dict input `{"images": ..., "labels": ...}` mixes the labels (one-hot or
soft, `[batch, classes]`) with the same weights: `w * y_a + (1 - w) * y_b`,
where CutMix's `w` is the fraction of the image that stayed `a`.

>>> import minitf as tf
>>> images = tf.constant([[[[0.0]]], [[[10.0]]]])            # two 1x1 images
>>> labels = tf.constant([[1.0, 0.0], [0.0, 1.0]])
>>> swap = {"mix_weight": tf.constant([0.75, 0.5]), "permutation_order": tf.constant([1, 0])}
>>> mix = tf.keras.layers.MixUp()
>>> mix.transform_images(images, swap)[:, 0, 0, 0].numpy()   # 0.75*0 + 0.25*10, 0.5*10 + 0.5*0
array([2.5, 5. ], dtype=float32)
>>> mix.transform_labels(labels, swap).numpy()
array([[0.75, 0.25],
       [0.5 , 0.5 ]], dtype=float32)

Both are the identity at inference (`training=False`); a single image (no
batch) is left as it is by CutMix and mixed with itself by MixUp, as in
Keras. The random numbers are minitf's, not real Keras's. In Keras:
`keras/src/layers/preprocessing/image_preprocessing/{mix_up,cut_mix}.py`.
"""
import minitf as tf

from ....framework.tf_export import tf_export
from .augmentation_random import random_beta, random_permutation
from .image_preprocessing import (BaseImagePreprocessingLayer, batch_size, make_generator,
                                  random_uniform)


class _MixingLayer(BaseImagePreprocessingLayer):
    """Calls with a dict transform "images" and "labels" with one shared random draw."""

    _USE_BASE_FACTOR = False

    def call(self, data, training=True):
        if not isinstance(data, dict):
            return super().call(data, training=training)
        unknown = sorted(set(data) - {"images", "labels"})
        if unknown or "images" not in data:
            raise NotImplementedError(
                f"{type(self).__name__} in minitf takes images, or a dict of 'images' and "
                f"'labels'; it does not transform {unknown or 'a dict without images'} (Keras "
                "also takes bounding boxes and segmentation masks).")
        images = tf.convert_to_tensor(data["images"])
        if images.shape.rank not in (3, 4):
            raise ValueError("Expected image tensor to have rank 3 (single image) or 4 (batch of "
                             f"images). Received: data.shape={tuple(images.shape.as_list())}")
        single = images.shape.rank == 3
        if images.dtype.is_floating:
            images = tf.cast(images, self.compute_dtype)
        if single:
            images = tf.expand_dims(images, 0)
        transformation = self.get_random_transformation(images, training=training)
        out = dict(data)
        out["images"] = self.transform_images(images, transformation, training=training)
        if "labels" in data:
            labels = tf.convert_to_tensor(data["labels"])
            labels = tf.expand_dims(labels, 0) if single else labels
            out["labels"] = self.transform_labels(labels, transformation, training=training)
        if single:
            out = {k: tf.squeeze(v, [0]) for k, v in out.items()}
        return out

    def _mix_labels(self, labels, transformation):
        """w * labels + (1 - w) * labels[permutation]: float labels of the weights' dtype (as
        in Keras, integer labels are refused by the multiplication: one-hot them first)."""
        weight = tf.reshape(transformation["mix_weight"], [-1, 1])
        other = tf.gather(labels, transformation["permutation_order"], axis=0)
        return weight * labels + (1.0 - weight) * other

    def transform_labels(self, labels, transformation, training=True):
        if not training or transformation is None:
            return labels
        return self._mix_labels(tf.convert_to_tensor(labels), transformation)


@tf_export("keras.layers.MixUp")
class MixUp(_MixingLayer):
    """Blend each image (and label) with another of the batch, weight ~ Beta(alpha, alpha).

    >>> layer = tf.keras.layers.MixUp(alpha=0.4, seed=1)
    >>> out = layer({"images": tf.zeros([4, 2, 2, 3]), "labels": tf.one_hot([0, 1, 2, 0], 3)})
    >>> out["labels"].numpy().sum(axis=1).round(5).tolist()     # still sums to 1
    [1.0, 1.0, 1.0, 1.0]
    """

    _USE_BASE_FACTOR = True   # as in Keras: a `factor` is accepted (and unused)

    def __init__(self, alpha=0.2, data_format=None, seed=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.alpha, self.seed = alpha, seed
        self.generator = make_generator(seed)

    def get_random_transformation(self, images, training=True):
        if not training:
            return None
        batch = batch_size(images)
        return {"mix_weight": random_beta(self.generator, [batch], self.alpha),
                "permutation_order": random_permutation(self.generator, batch)}

    def transform_images(self, images, transformation, training=True):
        if not training or transformation is None:
            return images
        images = tf.cast(images, self.compute_dtype)
        weight = tf.cast(tf.reshape(transformation["mix_weight"], [-1, 1, 1, 1]),
                         self.compute_dtype)
        other = tf.gather(images, transformation["permutation_order"], axis=0)
        return weight * images + (1.0 - weight) * other

    def get_config(self):
        config = super().get_config()
        config.update({"alpha": self.alpha, "seed": self.seed})
        return config


@tf_export("keras.layers.CutMix")
class CutMix(_MixingLayer):
    """Paste a random rectangle of another image of the batch into each image.

    factor: Beta's parameter range, a number f meaning (0, f), or a pair.

    >>> tf.keras.layers.CutMix(0.5).factor
    (0, 0.5)
    """

    _FACTOR_BOUNDS = (0, 1)

    def __init__(self, factor=1.0, seed=None, data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self._set_factor(factor)
        self.seed = seed
        self.generator = make_generator(seed)

    def _crop_bounds(self, batch, length, ratio):
        crop = ratio * tf.cast(length, self.compute_dtype)
        start = random_uniform(self.generator, [batch], dtype=self.compute_dtype)
        start = start * (tf.cast(length, self.compute_dtype) - crop)
        return start, start + crop

    def get_random_transformation(self, images, training=True):
        if not training:
            return None
        batch, shape = batch_size(images), tf.shape(images)
        h_axis, w_axis = self._hw_axes()
        alpha = random_uniform(self.generator, [], *self.factor, dtype=self.compute_dtype) + 1e-6
        ratio = tf.sqrt(1.0 - random_beta(self.generator, [batch], alpha, self.compute_dtype))
        x0, x1 = self._crop_bounds(batch, shape[w_axis], ratio)
        y0, y1 = self._crop_bounds(batch, shape[h_axis], ratio)
        return self.box_transformation(images, x0, x1, y0, y1,
                                       random_permutation(self.generator, batch))

    def box_transformation(self, images, x0, x1, y0, y1, permutation_order):
        """Keras's transformation dict for boxes [x0, x1) x [y0, y1) (pixel units, per image):
        the pixel masks, the permutation, and each image's weight 1 - box area / image area."""
        shape, (h_axis, w_axis) = tf.shape(images), self._hw_axes()
        height, width = shape[h_axis], shape[w_axis]
        grid_y = tf.cast(tf.range(height), self.compute_dtype)
        grid_x = tf.cast(tf.range(width), self.compute_dtype)
        if self.data_format == "channels_first":
            grid_y, grid_x = tf.reshape(grid_y, [1, 1, -1, 1]), tf.reshape(grid_x, [1, 1, 1, -1])
        else:
            grid_y, grid_x = tf.reshape(grid_y, [1, -1, 1, 1]), tf.reshape(grid_x, [1, 1, -1, 1])
        x0, x1, y0, y1 = (tf.reshape(tf.cast(v, self.compute_dtype), [-1, 1, 1, 1])
                          for v in (x0, x1, y0, y1))
        masks = (grid_x >= x0) & (grid_x < x1) & (grid_y >= y0) & (grid_y < y1)
        area = tf.cast(height * width, self.compute_dtype)
        return {"permutation_order": tf.convert_to_tensor(permutation_order),
                "batch_masks": tf.broadcast_to(masks, shape),
                "mix_weight": 1.0 - (x1 - x0) * (y1 - y0) / area}

    def transform_images(self, images, transformation, training=True):
        images = tf.cast(images, self.compute_dtype)
        if not training or transformation is None:
            return images
        other = tf.gather(images, transformation["permutation_order"], axis=0)
        return tf.where(transformation["batch_masks"], other, images)

    def get_config(self):
        config = super().get_config()
        config.update({"factor": self.factor, "seed": self.seed})
        return config
