"""Convolution layers: Conv1D, Conv2D, Conv3D, DepthwiseConv2D, SeparableConv1D/2D.

A `Conv2D(filters, kernel_size)` slides `filters` small kernels over the
image; its weights are a kernel (kh, kw, in_channels // groups, filters) and
a bias (filters,), so it has kh * kw * in/groups * filters + filters
parameters whatever the image size:

>>> import minitf as tf
>>> layer = tf.keras.layers.Conv2D(4, 3, padding="same", activation="relu")
>>> layer(tf.ones([2, 8, 8, 3])).shape
TensorShape([2, 8, 8, 4])
>>> layer.count_params()                                # 3*3*3*4 + 4
112

In TensorFlow these are `keras/src/layers/convolutional/base_conv.py`,
`conv2d.py`, `depthwise_conv2d.py`, `separable_conv2d.py` (Keras 3).
"""
import minitf as tf

from ...framework.tf_export import tf_export
from .. import activations, constraints, initializers, regularizers
from ..engine.base_layer import Layer
from ..engine.input_spec import InputSpec
from .conv_utils import (
    KerasNamed,
    conv_output_length,
    from_channels_last,
    spatial_dims,
    standardize_data_format,
    standardize_padding,
    standardize_tuple,
    to_channels_last,
    with_spatial,
)


def serialize_or_none(module, obj):
    return None if obj is None else module.serialize(obj)


def deserialize_config(config, keys):
    """Turn serialized initializers/regularizers/constraints in a config back into objects."""
    config = dict(config)
    for key in keys:
        module = (initializers if key.endswith("initializer") else
                  regularizers if key.endswith("regularizer") else constraints)
        if config.get(key) is not None:
            config[key] = module.get(config[key])
    return config


class BaseConv(KerasNamed, Layer):
    """What every convolution layer shares: arguments, checks, bias, activation, config.

    Subclasses set `rank` and implement `_convolve(x)` on channels-last input.
    """

    rank = 2
    _weight_keys = ("kernel_initializer", "bias_initializer", "kernel_regularizer",
                    "bias_regularizer", "kernel_constraint", "bias_constraint")

    def __init__(self, filters, kernel_size, strides=1, padding="valid", data_format=None,
                 dilation_rate=1, groups=1, activation=None, use_bias=True,
                 kernel_initializer="glorot_uniform", bias_initializer="zeros",
                 kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, **kwargs):
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        n = self.rank
        if filters is not None and (not isinstance(filters, int) or filters <= 0):
            raise ValueError("Invalid value for argument `filters`. Expected a strictly "
                             f"positive value. Received filters={filters}.")
        self.filters = filters
        self.groups = groups
        self.kernel_size = standardize_tuple(kernel_size, n, "kernel_size")
        self.strides = standardize_tuple(strides, n, "strides")
        self.dilation_rate = standardize_tuple(dilation_rate, n, "dilation_rate")
        self.padding = standardize_padding(padding, allow_causal=n == 1)
        self.data_format = standardize_data_format(data_format)
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.kernel_constraint = constraints.get(kernel_constraint)
        self.bias_constraint = constraints.get(bias_constraint)
        self.input_spec = InputSpec(min_ndim=n + 2)
        if filters is not None and filters % groups:
            raise ValueError("The number of filters must be evenly divisible by the number "
                             f"of groups. Received: groups={groups}, filters={filters}.")
        if max(self.strides) > 1 and max(self.dilation_rate) > 1:
            raise ValueError("`strides > 1` not supported in conjunction with `dilation_rate "
                             f"> 1`. Received: strides={self.strides} and dilation_rate="
                             f"{self.dilation_rate}")

    def _channels(self, input_shape):
        return input_shape[-1] if self.data_format == "channels_last" else input_shape[1]

    def _set_input_spec(self, channels):
        axis = -1 if self.data_format == "channels_last" else 1
        self.input_spec = InputSpec(min_ndim=self.rank + 2, axes={axis: channels})

    def _add_bias(self, size):
        if not self.use_bias:
            return None
        return self.add_weight(name="bias", shape=(size,), initializer=self.bias_initializer,
                               regularizer=self.bias_regularizer,
                               constraint=self.bias_constraint)

    def build(self, input_shape):
        channels = self._channels(input_shape)
        if channels % self.groups:
            raise ValueError("The number of input channels must be evenly divisible by the "
                             f"number of groups. Received groups={self.groups}, but the input "
                             f"has {channels} channels (full input shape is "
                             f"{tuple(input_shape)}).")
        self.kernel = self.add_weight(
            name="kernel", shape=self.kernel_size + (channels // self.groups, self.filters),
            initializer=self.kernel_initializer, regularizer=self.kernel_regularizer,
            constraint=self.kernel_constraint)
        self.bias = self._add_bias(self.filters)
        self._set_input_spec(channels)
        self.built = True

    def call(self, inputs):
        x = self._convolve(to_channels_last(inputs, self.data_format))
        if self.use_bias:
            x = tf.nn.bias_add(x, self.bias)
        return from_channels_last(self.activation(x), self.data_format)

    def _convolve(self, x):
        padding = self.padding
        if padding == "causal":  # pad the past only: output t sees inputs <= t
            left = (self.kernel_size[0] - 1) * self.dilation_rate[0]
            x = tf.pad(x, [[0, 0], [left, 0], [0, 0]])
            padding = "valid"
        return tf.nn.convolution(x, self.kernel, strides=list(self.strides),
                                 padding=padding.upper(), dilations=list(self.dilation_rate))

    def _output_channels(self, input_shape):
        return self.filters

    def compute_output_shape(self, input_shape):
        spatial = [conv_output_length(n, k, self.padding, s, d) for n, k, s, d in zip(
            spatial_dims(input_shape, self.data_format), self.kernel_size, self.strides,
            self.dilation_rate)]
        return with_spatial(input_shape, self.data_format, spatial,
                            self._output_channels(input_shape))

    def _head_config(self):
        config = super().get_config()
        return {k: config[k] for k in ("name", "trainable", "dtype")}

    def _geometry_config(self):
        return {"kernel_size": self.kernel_size, "strides": self.strides,
                "padding": self.padding, "data_format": self.data_format,
                "dilation_rate": self.dilation_rate}

    def kernel_options(self):
        return (self.kernel_initializer, self.kernel_regularizer, self.kernel_constraint)

    def _named_weights_config(self, kernels):
        """Serialized initializer/regularizer/constraint of each named kernel and the bias,
        in Keras's order (all initializers, then regularizers, then constraints)."""
        bias = (self.bias_initializer, self.bias_regularizer, self.bias_constraint)
        config = {f"{name}_initializer": initializers.serialize(options[0])
                  for name, options in {**kernels, "bias": bias}.items()}
        config.update({f"{name}_regularizer": serialize_or_none(regularizers, options[1])
                       for name, options in {**kernels, "bias": bias}.items()})
        config["activity_regularizer"] = serialize_or_none(regularizers,
                                                           self.activity_regularizer)
        config.update({f"{name}_constraint": serialize_or_none(constraints, options[2])
                       for name, options in {**kernels, "bias": bias}.items()})
        return config

    def _tail_config(self):
        return {"activation": activations.serialize(self.activation), "use_bias": self.use_bias}

    def get_config(self):
        return {**self._head_config(), "filters": self.filters, **self._geometry_config(),
                "groups": self.groups, **self._tail_config(),
                **self._named_weights_config({"kernel": self.kernel_options()})}

    @classmethod
    def from_config(cls, config):
        return cls(**deserialize_config(config, cls._weight_keys))


@tf_export("keras.layers.Conv1D", "keras.layers.Convolution1D")
class Conv1D(BaseConv):
    """1-D convolution over (batch, steps, channels); padding "causal" looks only back.

    >>> tf.keras.layers.Conv1D(2, 3, padding="causal")(tf.ones([1, 5, 1])).shape
    TensorShape([1, 5, 2])
    """

    rank = 1


@tf_export("keras.layers.Conv2D", "keras.layers.Convolution2D")
class Conv2D(BaseConv):
    """2-D convolution over (batch, height, width, channels).

    >>> tf.keras.layers.Conv2D(4, 3, strides=2)(tf.ones([1, 7, 7, 2])).shape
    TensorShape([1, 3, 3, 4])
    """

    rank = 2


@tf_export("keras.layers.Conv3D", "keras.layers.Convolution3D")
class Conv3D(BaseConv):
    """3-D convolution over (batch, depth, height, width, channels).

    >>> tf.keras.layers.Conv3D(2, 2)(tf.ones([1, 3, 3, 3, 1])).shape
    TensorShape([1, 2, 2, 2, 2])
    """

    rank = 3


def _depthwise_2d(layer, x, depthwise, pointwise=None):
    """Run tf.nn.depthwise_conv2d / separable_conv2d; a 1-D layer becomes a height-1 image."""
    if layer.rank == 1:  # as Keras does: (N, W, C) -> (N, 1, W, C), kernel (1, k, C, M)
        x, depthwise = tf.expand_dims(x, 1), tf.expand_dims(depthwise, 0)
        pointwise = None if pointwise is None else tf.expand_dims(pointwise, 0)
        strides, rates = layer.strides * 2, layer.dilation_rate * 2
    else:
        strides, rates = layer.strides, layer.dilation_rate
    strides = [1, *strides, 1]
    padding = layer.padding.upper()
    if pointwise is None:
        y = tf.nn.depthwise_conv2d(x, depthwise, strides, padding, dilations=list(rates))
    else:
        y = tf.nn.separable_conv2d(x, depthwise, pointwise, strides, padding,
                                   dilations=list(rates))
    return tf.squeeze(y, [1]) if layer.rank == 1 else y


class BaseDepthwiseConv(BaseConv):
    """Each input channel gets its own `depth_multiplier` kernels: C in -> C * M out.

    Weights: kernel (*kernel_size, C, M) and bias (C * M,).
    """

    _weight_keys = ("depthwise_initializer", "bias_initializer", "depthwise_regularizer",
                    "bias_regularizer", "depthwise_constraint", "bias_constraint")

    def __init__(self, kernel_size, strides=1, padding="valid", depth_multiplier=1,
                 data_format=None, dilation_rate=1, activation=None, use_bias=True,
                 depthwise_initializer="glorot_uniform", bias_initializer="zeros",
                 depthwise_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 depthwise_constraint=None, bias_constraint=None, **kwargs):
        super().__init__(None, kernel_size, strides=strides, padding=padding,
                         data_format=data_format, dilation_rate=dilation_rate,
                         activation=activation, use_bias=use_bias,
                         kernel_initializer=depthwise_initializer,
                         bias_initializer=bias_initializer,
                         kernel_regularizer=depthwise_regularizer,
                         bias_regularizer=bias_regularizer,
                         activity_regularizer=activity_regularizer,
                         kernel_constraint=depthwise_constraint,
                         bias_constraint=bias_constraint, **kwargs)
        self.depth_multiplier = depth_multiplier

    def build(self, input_shape):
        channels = self._channels(input_shape)
        self.kernel = self.add_weight(
            name="kernel", shape=self.kernel_size + (channels, self.depth_multiplier),
            initializer=self.kernel_initializer, regularizer=self.kernel_regularizer,
            constraint=self.kernel_constraint)
        self.bias = self._add_bias(channels * self.depth_multiplier)
        self._set_input_spec(channels)
        self.built = True

    def _convolve(self, x):
        return _depthwise_2d(self, x, self.kernel)

    def _output_channels(self, input_shape):
        return self._channels(input_shape) * self.depth_multiplier

    def get_config(self):
        return {**self._head_config(), "depth_multiplier": self.depth_multiplier,
                **self._geometry_config(), **self._tail_config(),
                **self._named_weights_config({"depthwise": self.kernel_options()})}


@tf_export("keras.layers.DepthwiseConv2D")
class DepthwiseConv2D(BaseDepthwiseConv):
    """Depthwise 2-D convolution: every channel is filtered on its own (no mixing).

    >>> layer = tf.keras.layers.DepthwiseConv2D(3, depth_multiplier=2)
    >>> layer(tf.ones([1, 5, 5, 3])).shape, layer.count_params()   # 3*3*3*2 + 6
    (TensorShape([1, 3, 3, 6]), 60)
    """

    rank = 2


@tf_export("keras.layers.DepthwiseConv1D")
class DepthwiseConv1D(BaseDepthwiseConv):
    """Depthwise 1-D convolution over (batch, steps, channels).

    >>> tf.keras.layers.DepthwiseConv1D(3)(tf.ones([2, 6, 4])).shape
    TensorShape([2, 4, 4])
    """

    rank = 1


class BaseSeparableConv(BaseDepthwiseConv):
    """A depthwise convolution (kernel per channel) then a 1x1 convolution mixing channels.

    Weights: depthwise_kernel (*k, C, M), pointwise_kernel (*1, C * M, filters), bias
    (filters,) - far fewer than a full Conv's k * C * filters when C and filters are large.
    """

    _weight_keys = ("depthwise_initializer", "pointwise_initializer", "bias_initializer",
                    "depthwise_regularizer", "pointwise_regularizer", "bias_regularizer",
                    "depthwise_constraint", "pointwise_constraint", "bias_constraint")

    def __init__(self, filters, kernel_size, strides=1, padding="valid", data_format=None,
                 dilation_rate=1, depth_multiplier=1, activation=None, use_bias=True,
                 depthwise_initializer="glorot_uniform", pointwise_initializer="glorot_uniform",
                 bias_initializer="zeros", depthwise_regularizer=None,
                 pointwise_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 depthwise_constraint=None, pointwise_constraint=None, bias_constraint=None,
                 **kwargs):
        super().__init__(kernel_size, strides=strides, padding=padding,
                         depth_multiplier=depth_multiplier, data_format=data_format,
                         dilation_rate=dilation_rate, activation=activation, use_bias=use_bias,
                         depthwise_initializer=depthwise_initializer,
                         bias_initializer=bias_initializer,
                         depthwise_regularizer=depthwise_regularizer,
                         bias_regularizer=bias_regularizer,
                         activity_regularizer=activity_regularizer,
                         depthwise_constraint=depthwise_constraint,
                         bias_constraint=bias_constraint, **kwargs)
        if not isinstance(filters, int) or filters <= 0:
            raise ValueError("Invalid value for argument `filters`. Expected a strictly "
                             f"positive value. Received filters={filters}.")
        self.filters = filters
        self.pointwise_initializer = initializers.get(pointwise_initializer)
        self.pointwise_regularizer = regularizers.get(pointwise_regularizer)
        self.pointwise_constraint = constraints.get(pointwise_constraint)

    def build(self, input_shape):
        channels = self._channels(input_shape)
        self.depthwise_kernel = self.add_weight(
            name="depthwise_kernel", shape=self.kernel_size + (channels, self.depth_multiplier),
            initializer=self.kernel_initializer, regularizer=self.kernel_regularizer,
            constraint=self.kernel_constraint)
        self.pointwise_kernel = self.add_weight(
            name="pointwise_kernel",
            shape=(1,) * self.rank + (channels * self.depth_multiplier, self.filters),
            initializer=self.pointwise_initializer, regularizer=self.pointwise_regularizer,
            constraint=self.pointwise_constraint)
        self.bias = self._add_bias(self.filters)
        self._set_input_spec(channels)
        self.built = True

    def _convolve(self, x):
        return _depthwise_2d(self, x, self.depthwise_kernel, self.pointwise_kernel)

    def _output_channels(self, input_shape):
        return self.filters

    def get_config(self):
        pointwise = (self.pointwise_initializer, self.pointwise_regularizer,
                     self.pointwise_constraint)
        return {**self._head_config(), "depth_multiplier": self.depth_multiplier,
                "filters": self.filters, **self._geometry_config(), **self._tail_config(),
                **self._named_weights_config({"depthwise": self.kernel_options(),
                                              "pointwise": pointwise})}


@tf_export("keras.layers.SeparableConv2D", "keras.layers.SeparableConvolution2D")
class SeparableConv2D(BaseSeparableConv):
    """Depthwise-separable 2-D convolution (as in MobileNet and Xception).

    >>> layer = tf.keras.layers.SeparableConv2D(4, 3, depth_multiplier=2)
    >>> layer(tf.ones([1, 5, 5, 3])).shape, layer.count_params()   # 54 + 24 + 4
    (TensorShape([1, 3, 3, 4]), 82)
    """

    rank = 2


@tf_export("keras.layers.SeparableConv1D", "keras.layers.SeparableConvolution1D")
class SeparableConv1D(BaseSeparableConv):
    """Depthwise-separable 1-D convolution over (batch, steps, channels).

    >>> tf.keras.layers.SeparableConv1D(4, 3)(tf.ones([1, 5, 3])).shape
    TensorShape([1, 3, 4])
    """

    rank = 1
