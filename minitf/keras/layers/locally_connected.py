"""`LocallyConnected1D/2D`: convolution-shaped windows, but no weight sharing.

A Conv2D uses one kernel at every position; a locally connected layer has a
different kernel for each output position. Same output shape, many more
parameters: (positions) x (kernel_h * kernel_w * channels) x filters, plus a
bias per position and filter.

>>> import minitf as tf
>>> layer = tf.keras.layers.LocallyConnected2D(2, 3)
>>> layer(tf.ones([1, 5, 5, 1])).shape
TensorShape([1, 3, 3, 2])
>>> layer.count_params()          # 3*3 positions * (3*3*1*2) + 3*3*2   (Conv2D: 20)
180

TF 2.21 (Keras 3) removed these layers; minitf keeps the classic tf.keras
(TF 2.0-2.15) semantics with `implementation=1`: kernel (positions, k * channels,
filters), bias (*output_spatial, filters), "valid" padding only, channels last.
In classic TensorFlow this is `keras/layers/locally_connected/locally_connected2d.py`.
"""
import itertools
import math

import minitf as tf

from ...framework.tf_export import tf_export
from ..engine.input_spec import InputSpec
from .conv_utils import conv_output_length
from .convolutional import BaseConv


class BaseLocallyConnected(BaseConv):
    """Shared code: one kernel per output position, applied by gathering the windows."""

    def __init__(self, filters, kernel_size, strides=1, padding="valid", data_format=None,
                 activation=None, use_bias=True, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None, bias_regularizer=None,
                 activity_regularizer=None, kernel_constraint=None, bias_constraint=None,
                 implementation=1, **kwargs):
        if str(padding).lower() != "valid":
            raise ValueError(f"Invalid border mode for {type(self).__name__} (only \"valid\" "
                             f"is supported if implementation is 1): {padding}. Each output "
                             "position owns its kernel, so there are no padded positions.")
        if data_format not in (None, "channels_last") or implementation != 1:
            raise ValueError(f"minitf's {type(self).__name__} supports channels_last and "
                             f"implementation=1 only. Received: data_format={data_format}, "
                             f"implementation={implementation}.")
        super().__init__(filters, kernel_size, strides=strides, padding="valid",
                         activation=activation, use_bias=use_bias,
                         kernel_initializer=kernel_initializer,
                         bias_initializer=bias_initializer,
                         kernel_regularizer=kernel_regularizer,
                         bias_regularizer=bias_regularizer,
                         activity_regularizer=activity_regularizer,
                         kernel_constraint=kernel_constraint,
                         bias_constraint=bias_constraint, **kwargs)
        self.implementation = implementation

    def build(self, input_shape):
        spatial = input_shape[1:-1]
        if any(n is None for n in spatial):
            raise ValueError(f"{type(self).__name__} needs fixed spatial sizes (one kernel "
                             f"per position). Received input_shape={tuple(input_shape)}.")
        self.output_spatial = tuple(conv_output_length(n, k, "valid", s) for n, k, s in zip(
            spatial, self.kernel_size, self.strides))
        channels = input_shape[-1]
        window = math.prod(self.kernel_size) * channels
        self.kernel = self.add_weight(
            name="kernel", shape=(math.prod(self.output_spatial), window, self.filters),
            initializer=self.kernel_initializer, regularizer=self.kernel_regularizer,
            constraint=self.kernel_constraint)
        self.bias = self.add_weight(
            name="bias", shape=self.output_spatial + (self.filters,),
            initializer=self.bias_initializer, regularizer=self.bias_regularizer,
            constraint=self.bias_constraint) if self.use_bias else None
        self.input_spec = InputSpec(ndim=self.rank + 2, axes={-1: channels})
        self.built = True

    def _windows(self, x):
        """(batch, positions, window) - the input window under each output position."""
        windows = []
        for position in itertools.product(*(range(n) for n in self.output_spatial)):
            index = [slice(None)] + [slice(p * s, p * s + k) for p, s, k in zip(
                position, self.strides, self.kernel_size)] + [slice(None)]
            windows.append(tf.reshape(x[tuple(index)], [-1, 1, self.kernel.shape[1]]))
        return tf.concat(windows, axis=1)

    def call(self, inputs):
        y = tf.einsum("bpk,pkf->bpf", self._windows(inputs), self.kernel)
        y = tf.reshape(y, [-1, *self.output_spatial, self.filters])
        if self.use_bias:
            y = y + self.bias
        return self.activation(y)

    def get_config(self):
        config = super().get_config()
        for key in ("groups", "dilation_rate"):
            config.pop(key)
        config["implementation"] = self.implementation
        return config


@tf_export("keras.layers.LocallyConnected2D")
class LocallyConnected2D(BaseLocallyConnected):
    """Unshared 2-D windows over (batch, rows, cols, channels)."""

    rank = 2


@tf_export("keras.layers.LocallyConnected1D")
class LocallyConnected1D(BaseLocallyConnected):
    """Unshared 1-D windows over (batch, steps, channels).

    >>> layer = tf.keras.layers.LocallyConnected1D(2, 3)
    >>> layer(tf.ones([1, 5, 2])).shape, layer.count_params()   # 3 * (3*2*2) + 3*2
    (TensorShape([1, 3, 2]), 42)
    """

    rank = 1


