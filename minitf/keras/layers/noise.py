"""Noise and penalty layers: GaussianNoise, GaussianDropout, AlphaDropout, ActivityRegularization.

The noise layers act only while training (`training=True`, which `fit` passes);
at inference they return their input unchanged:

* GaussianNoise(stddev): x + N(0, stddev^2) -- a regularizer for real-valued inputs.
* GaussianDropout(rate): x * N(1, rate / (1 - rate)) -- multiplicative noise with
  the same mean and variance as Dropout's keep-and-rescale mask.
* AlphaDropout(rate): for SELU networks; dropped units are set to SELU's
  negative saturation value and an affine map keeps mean 0 and variance 1.

ActivityRegularization(l1, l2) returns its input and adds the penalty
`l1 * sum|x| + l2 * sum x^2` (divided by the batch size, as Keras 3 does) to
`layer.losses`, which `fit` adds to the loss.

>>> import minitf as tf
>>> x = tf.ones([2, 3])
>>> tf.keras.layers.GaussianNoise(0.1, seed=1)(x).numpy()        # inference: unchanged
array([[1., 1., 1.],
       [1., 1., 1.]], dtype=float32)
>>> layer = tf.keras.layers.ActivityRegularization(l1=0.5)
>>> _ = layer(x)
>>> [float(loss) for loss in layer.losses]                      # 0.5 * 6 / batch of 2
[1.5]
"""
import math
import numbers

import minitf as tf

from ...framework.tf_export import tf_export
from .. import regularizers
from ..engine.base_layer import Layer


def _check_unit_interval(value, name):
    if not isinstance(value, numbers.Real) or not 0 <= value <= 1:
        raise ValueError(f"Invalid value received for argument `{name}`. Expected a float "
                         f"value between 0 and 1. Received: {name}={value}")


class _Noise(Layer):
    """Shared by the noise layers: identity at inference, shape kept, masks passed on."""

    def __init__(self, seed=None, **kwargs):
        super().__init__(**kwargs)
        self.seed = seed
        self.supports_masking = True
        self.built = True  # no weights: built from the start, as in Keras 3

    def compute_output_shape(self, input_shape):
        return input_shape


@tf_export("keras.layers.GaussianNoise")
class GaussianNoise(_Noise):
    """Add zero-mean Gaussian noise of standard deviation `stddev` while training."""

    def __init__(self, stddev, seed=None, **kwargs):
        super().__init__(seed=seed, **kwargs)
        _check_unit_interval(stddev, "stddev")
        self.stddev = stddev

    def call(self, inputs, training=False):
        if training and self.stddev > 0:
            return inputs + tf.random.normal(tf.shape(inputs), mean=0.0, stddev=self.stddev,
                                             dtype=inputs.dtype, seed=self.seed)
        return inputs

    def get_config(self):
        config = super().get_config()
        config.update({"stddev": self.stddev, "seed": self.seed})
        return config


@tf_export("keras.layers.GaussianDropout")
class GaussianDropout(_Noise):
    """Multiply by Gaussian noise of mean 1 and standard deviation sqrt(rate / (1 - rate))."""

    def __init__(self, rate, seed=None, **kwargs):
        super().__init__(seed=seed, **kwargs)
        _check_unit_interval(rate, "rate")
        self.rate = rate

    def call(self, inputs, training=False):
        if training and self.rate > 0:
            stddev = math.sqrt(self.rate / (1.0 - self.rate))
            return inputs * tf.random.normal(tf.shape(inputs), mean=1.0, stddev=stddev,
                                             dtype=inputs.dtype, seed=self.seed)
        return inputs

    def get_config(self):
        config = super().get_config()
        config.update({"rate": self.rate, "seed": self.seed})
        return config


_SELU_ALPHA = 1.6732632423543772848170429916717
_SELU_SCALE = 1.0507009873554804934193349852946


@tf_export("keras.layers.AlphaDropout")
class AlphaDropout(_Noise):
    """Dropout for self-normalizing (SELU) networks: dropped values become
    -alpha*scale of SELU, then `a * x + b` restores mean 0 and variance 1.

    tf.keras in TF 2.21 keeps this as a legacy layer (Keras 2's behaviour:
    no check of `rate`, config without `noise_shape`); minitf follows it.
    """

    _keras_module = "keras._legacy.layers"  # how tf.keras serializes its legacy layers

    def __init__(self, rate, noise_shape=None, seed=None, **kwargs):
        super().__init__(seed=seed, **kwargs)
        self.rate = rate
        self.noise_shape = noise_shape

    def call(self, inputs, training=False):
        if not (training and self.rate > 0):
            return inputs
        alpha_p = -_SELU_ALPHA * _SELU_SCALE
        shape = tf.shape(inputs) if self.noise_shape is None else self.noise_shape
        kept = tf.cast(tf.random.uniform(shape, seed=self.seed) >= self.rate, inputs.dtype)
        a = ((1 - self.rate) * (1 + self.rate * alpha_p ** 2)) ** -0.5
        b = -a * alpha_p * self.rate
        return a * (inputs * kept + alpha_p * (1 - kept)) + b

    def get_config(self):
        config = super().get_config()
        config.update({"rate": self.rate, "seed": self.seed})
        return config


@tf_export("keras.layers.ActivityRegularization")
class ActivityRegularization(Layer):
    """Pass inputs through unchanged and add an L1/L2 penalty on them to `losses`."""

    def __init__(self, l1=0.0, l2=0.0, **kwargs):
        super().__init__(activity_regularizer=regularizers.L1L2(l1=l1, l2=l2), **kwargs)
        self.supports_masking = True
        self.l1, self.l2 = l1, l2
        self.built = True

    def call(self, inputs):
        return inputs

    def compute_output_shape(self, input_shape):
        return input_shape

    def get_config(self):
        config = super().get_config()
        config.pop("activity_regularizer", None)
        config.update({"l1": self.l1, "l2": self.l2})
        return config
