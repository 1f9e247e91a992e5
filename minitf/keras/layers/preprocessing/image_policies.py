"""RandAugment and AugMix: augmentation *policies* built from the other image layers.

Both hold eleven augmentation layers made with one strength `factor`
(RandomShear, RandomTranslation, RandomRotation, RandomBrightness,
RandomColorDegeneration, RandomContrast, RandomSharpness, RandomPosterization,
Solarization, AutoContrast, Equalization) and choose among them at random:

* `RandAugment(num_ops=2)` picks `num_ops` of the layers for the batch (with
  repetition) and applies them one after the other.
* `AugMix(num_chains=3, chain_depth=3)` builds `num_chains` chains of up to
  `chain_depth` layers each (each step is a layer or nothing), runs every
  chain on the images, mixes the chains with Dirichlet(alpha) weights, then
  mixes that with the original images by a Beta(alpha, alpha) weight and
  clips to `value_range`. The result stays close to the image (its
  "semantics") while still varying.

Passing the transformation explicitly repeats an augmentation exactly:

>>> import minitf as tf
>>> policy = tf.keras.layers.RandAugment(factor=0.0, num_ops=1)
>>> images = tf.constant([[[[0.0], [100.0], [255.0]]]])
>>> t = policy.get_random_transformation(images)
>>> t["layer_idxes"] = tf.constant([8])                   # op 8: Solarization, threshold 0
>>> policy.transform_images(images, t)[..., 0].numpy()
array([[[255., 155.,   0.]]], dtype=float32)

Both are the identity at inference (cast to the layer's dtype). As in Keras,
AugMix chooses its chains with Python's `random` when it is called (a traced
`Dataset.map` keeps the chains it drew while tracing); here that generator
is seeded by `seed`. The random numbers are minitf's, not real Keras's. In
Keras: `keras/src/layers/preprocessing/image_preprocessing/{rand_augment,aug_mix}.py`.
"""
import random as _py_random

import minitf as tf

from ....framework.tf_export import tf_export
from .augmentation_random import next_seed, random_beta
from .image_color import RandomBrightness, RandomContrast
from .image_color_hsv import RandomSharpness
from .image_color_jitter import Equalization
from .image_color_more import (AutoContrast, RandomColorDegeneration, RandomPosterization,
                               Solarization)
from .image_geometric import RandomRotation, RandomShear, RandomTranslation
from .image_preprocessing import BaseImagePreprocessingLayer, make_generator, random_uniform

GEOMETRIC = ("random_shear", "random_translation", "random_rotation")
COLOR = ("random_brightness", "random_color_degeneration", "random_contrast", "random_sharpness")
FIXED = ("random_posterization", "solarization", "auto_contrast", "equalization")


class _PolicyLayer(BaseImagePreprocessingLayer):
    """Holds the augmentation layers, all drawing from this layer's one random stream."""

    _USE_BASE_FACTOR = False
    _FACTOR_BOUNDS = (0, 1)

    def _make_layers(self, names, interpolation, data_format, kwargs):
        factor, value_range, seed = self.factor, self.value_range, self.seed
        common = {"seed": seed, "data_format": data_format, **kwargs}
        colour = {"factor": factor, "value_range": value_range, **common}
        makers = {
            "random_shear": lambda: RandomShear(x_factor=factor, y_factor=factor,
                                                interpolation=interpolation, **common),
            "random_translation": lambda: RandomTranslation(
                height_factor=factor, width_factor=factor, interpolation=interpolation, **common),
            "random_rotation": lambda: RandomRotation(factor=factor, interpolation=interpolation,
                                                      **common),
            "random_brightness": lambda: RandomBrightness(**colour),
            "random_color_degeneration": lambda: RandomColorDegeneration(**colour),
            "random_contrast": lambda: RandomContrast(**colour),
            "random_sharpness": lambda: RandomSharpness(**colour),
            "random_posterization": lambda: RandomPosterization(
                factor=max(1, int(8 * factor[1])), value_range=value_range, **common),
            "solarization": lambda: Solarization(addition_factor=factor, threshold_factor=factor,
                                                 value_range=value_range, **common),
            "auto_contrast": lambda: AutoContrast(value_range=value_range,
                                                  data_format=data_format, **kwargs),
            "equalization": lambda: Equalization(value_range=value_range,
                                                 data_format=data_format, **kwargs),
        }
        for name in names:
            layer = makers[name]()
            if hasattr(layer, "generator"):
                layer.generator = self.generator   # one stream: a seed fixes the whole policy
            setattr(self, name, layer)

    def _finish(self, images):
        return tf.cast(images, self.compute_dtype)


@tf_export("keras.layers.RandAugment")
class RandAugment(_PolicyLayer):
    """Apply `num_ops` augmentations chosen at random from eleven, with strength `factor`.

    >>> tf.keras.layers.RandAugment(num_ops=3, factor=0.2).factor
    (0, 0.2)
    """

    _AUGMENT_LAYERS = GEOMETRIC + COLOR + FIXED

    def __init__(self, value_range=(0, 255), num_ops=2, factor=0.5, interpolation="bilinear",
                 seed=None, data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.value_range, self.num_ops = value_range, num_ops
        self._set_factor(factor)
        self.interpolation, self.seed = interpolation, seed
        self.generator = make_generator(seed)
        self._make_layers(self._AUGMENT_LAYERS, interpolation, data_format, kwargs)

    def get_random_transformation(self, images, training=True):
        if not training:
            return None
        count = len(self._AUGMENT_LAYERS)
        layer_idxes = tf.cast(tf.floor(random_uniform(self.generator, [self.num_ops]) * count),
                              tf.int32)
        transforms = {name: getattr(self, name).get_random_transformation(images, training=True)
                      for name in self._AUGMENT_LAYERS}
        return {"transforms": transforms, "layer_idxes": tf.minimum(layer_idxes, count - 1)}

    def transform_images(self, images, transformation, training=True):
        images = tf.cast(images, self.compute_dtype)
        if not training or transformation is None:
            return images
        layer_idxes = tf.convert_to_tensor(transformation["layer_idxes"])
        for i in range(self.num_ops):
            for idx, (name, value) in enumerate(transformation["transforms"].items()):
                changed = self._finish(getattr(self, name).transform_images(images, value))
                images = tf.where(tf.equal(layer_idxes[i], idx), changed, images)
        return images

    def get_config(self):
        config = super().get_config()
        config.update({"value_range": self.value_range, "num_ops": self.num_ops,
                       "factor": self.factor, "interpolation": self.interpolation,
                       "seed": self.seed})
        return config


@tf_export("keras.layers.AugMix")
class AugMix(_PolicyLayer):
    """Mix `num_chains` random augmentation chains of an image back into the image.

    all_ops=False leaves out the four colour layers (brightness, colour
    degeneration, contrast, sharpness).

    >>> tf.keras.layers.AugMix(all_ops=False)._augment_layers[-1]
    'equalization'
    """

    def __init__(self, value_range=(0, 255), num_chains=3, chain_depth=3, factor=0.3, alpha=1.0,
                 all_ops=True, interpolation="bilinear", seed=None, data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.value_range, self.num_chains, self.chain_depth = value_range, num_chains, chain_depth
        self._set_factor(factor)
        self.alpha, self.all_ops, self.interpolation, self.seed = alpha, all_ops, interpolation, seed
        self.generator = make_generator(seed)
        self._chooser = _py_random.Random(seed)   # picks the chains' layers, in Python
        self._augment_layers = list(GEOMETRIC + FIXED + (COLOR if all_ops else ()))
        self._make_layers(self._augment_layers, interpolation, data_format, kwargs)

    def get_random_transformation(self, images, training=True):
        if not training:
            return None
        gamma = tf.random.stateless_gamma([self.num_chains], next_seed(self.generator),
                                          alpha=float(self.alpha))
        chain_transforms = []
        for _ in range(self.num_chains):
            chain = []
            for _ in range(self.chain_depth):
                name = self._chooser.choice(self._augment_layers + [None])
                if name is not None:
                    layer = getattr(self, name)
                    chain.append({"layer_name": name, "transformation":
                                  layer.get_random_transformation(images, training=True)})
            chain_transforms.append(chain)
        return {"chain_mixing_weights": gamma / tf.reduce_sum(gamma),
                "weight_sample": random_beta(self.generator, [], self.alpha),
                "chain_transforms": chain_transforms}

    def transform_images(self, images, transformation, training=True):
        images = tf.cast(images, self.compute_dtype)
        if not training or transformation is None:
            return images
        weights = tf.cast(transformation["chain_mixing_weights"], self.compute_dtype)
        weight_sample = tf.cast(transformation["weight_sample"], self.compute_dtype)
        mixed = tf.zeros_like(images)
        for index, chain in enumerate(transformation["chain_transforms"]):
            chained = images
            for step in chain:
                layer = getattr(self, step["layer_name"])
                chained = self._finish(layer.transform_images(chained, step["transformation"]))
            mixed += chained * weights[index]
        images = weight_sample * images + (1 - weight_sample) * mixed
        return tf.clip_by_value(images, self.value_range[0], self.value_range[1])

    def get_config(self):
        config = super().get_config()
        config.update({"value_range": self.value_range, "num_chains": self.num_chains,
                       "chain_depth": self.chain_depth, "factor": self.factor,
                       "alpha": self.alpha, "all_ops": self.all_ops,
                       "interpolation": self.interpolation, "seed": self.seed})
        return config
