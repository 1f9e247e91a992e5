"""Dropout layers: randomly zero inputs while training, do nothing at inference.

`Dropout(rate)` keeps each value with probability 1 - rate and scales the
kept ones by 1 / (1 - rate), so the expected sum is unchanged. It only acts
when called with `training=True` (which `fit` passes, and which reaches
nested layers through the call context):

>>> import minitf as tf
>>> layer = tf.keras.layers.Dropout(0.5, seed=1)
>>> x = tf.ones([1, 6])
>>> layer(x).numpy()                              # inference: unchanged
array([[1., 1., 1., 1., 1., 1.]], dtype=float32)
>>> sorted(set(layer(x, training=True).numpy().ravel().tolist()) - {0.0, 2.0})
[]

The SpatialDropout variants drop whole feature maps (channels) at once,
which suits convolutional features whose neighbours are correlated.
"""
import numbers

import minitf as tf

from ...framework.tf_export import tf_export
from ..engine.base_layer import Layer
from ..engine.input_spec import InputSpec


@tf_export("keras.layers.Dropout")
class Dropout(Layer):
    """Zero a fraction `rate` of the inputs at random, during training only.

    noise_shape: the shape of the keep/drop mask (1 where decisions are
    shared); seed: an int for a reproducible sequence of masks.
    """

    def __init__(self, rate, noise_shape=None, seed=None, **kwargs):
        super().__init__(**kwargs)
        if not isinstance(rate, numbers.Real) or not 0 <= rate <= 1:
            raise ValueError("Invalid value received for argument `rate`. Expected a float "
                             f"value between 0 and 1. Received: rate={rate}")
        self.rate = rate
        self.noise_shape = noise_shape
        self.seed = seed
        self.supports_masking = True
        self.built = True

    def _noise_shape(self, inputs):
        if self.noise_shape is None:
            return None
        dynamic = tf.shape(inputs)
        return tf.stack([dynamic[i] if d is None else d for i, d in enumerate(self.noise_shape)])

    def call(self, inputs, training=False):
        if training and self.rate > 0:
            return tf.nn.dropout(inputs, rate=self.rate, noise_shape=self._noise_shape(inputs),
                                 seed=self.seed)
        return inputs

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        config = super().get_config()
        config.update({"rate": self.rate, "seed": self.seed, "noise_shape": self.noise_shape})
        return config


class _SpatialDropout(Dropout):
    rank = None  # number of axes of one example, channels included

    def __init__(self, rate, data_format=None, seed=None, **kwargs):
        super().__init__(rate, seed=seed, **kwargs)
        self.data_format = data_format or "channels_last"
        self.input_spec = InputSpec(ndim=self.rank + 1)

    def _noise_shape(self, inputs):
        shape = tf.shape(inputs)
        ones = [1] * (self.rank - 1)
        if self.data_format == "channels_first":
            return tf.stack([shape[0], shape[1]] + ones)
        return tf.stack([shape[0]] + ones + [shape[self.rank]])

    def get_config(self):
        config = super().get_config()
        config["data_format"] = self.data_format
        config.pop("noise_shape")
        return config


@tf_export("keras.layers.SpatialDropout1D")
class SpatialDropout1D(_SpatialDropout):
    """Dropout of whole channels of (batch, steps, channels) inputs."""
    rank = 2

    def __init__(self, rate, seed=None, **kwargs):
        super().__init__(rate, seed=seed, **kwargs)


@tf_export("keras.layers.SpatialDropout2D")
class SpatialDropout2D(_SpatialDropout):
    """Dropout of whole feature maps of (batch, rows, cols, channels) inputs."""
    rank = 3


@tf_export("keras.layers.SpatialDropout3D")
class SpatialDropout3D(_SpatialDropout):
    """Dropout of whole feature volumes of (batch, d1, d2, d3, channels) inputs."""
    rank = 4
