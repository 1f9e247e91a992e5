"""Transposed convolutions: Conv1DTranspose, Conv2DTranspose, Conv3DTranspose.

A transposed convolution runs a convolution's gradient-with-respect-to-input
as a forward pass: every input pixel stamps a scaled copy of the kernel into
a larger output, so `strides=2` doubles the size (decoders, GAN generators).
Its kernel is stored as (*kernel_size, filters, in_channels) - output and
input swapped relative to Conv:

>>> import minitf as tf
>>> layer = tf.keras.layers.Conv2DTranspose(4, 3, strides=2)
>>> layer(tf.ones([1, 3, 3, 2])).shape                 # (3 - 1) * 2 + 3 = 7
TensorShape([1, 7, 7, 4])
>>> [tuple(w.shape) for w in layer.weights]
[(3, 3, 4, 2), (4,)]

In TensorFlow this is `keras/src/layers/convolutional/base_conv_transpose.py`.
"""
import minitf as tf

from ...framework.tf_export import tf_export
from .conv_utils import deconv_output_length, spatial_dims, standardize_tuple, with_spatial
from .convolutional import BaseConv

_TRANSPOSE_OPS = {1: "conv1d_transpose", 2: "conv2d_transpose", 3: "conv3d_transpose"}


class BaseConvTranspose(BaseConv):
    """Shared code: the kernel layout, the output-size rule and the op call."""

    def __init__(self, filters, kernel_size, strides=1, padding="valid", output_padding=None,
                 data_format=None, dilation_rate=1, activation=None, use_bias=True,
                 kernel_initializer="glorot_uniform", bias_initializer="zeros",
                 kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, **kwargs):
        super().__init__(filters, kernel_size, strides=strides, padding=padding,
                         data_format=data_format, dilation_rate=dilation_rate,
                         activation=activation, use_bias=use_bias,
                         kernel_initializer=kernel_initializer,
                         bias_initializer=bias_initializer,
                         kernel_regularizer=kernel_regularizer,
                         bias_regularizer=bias_regularizer,
                         activity_regularizer=activity_regularizer,
                         kernel_constraint=kernel_constraint,
                         bias_constraint=bias_constraint, **kwargs)
        self.output_padding = None if output_padding is None else standardize_tuple(
            output_padding, self.rank, "output_padding", allow_zero=True)
        if self.output_padding is not None:
            for p, s in zip(self.output_padding, self.strides):
                if p >= s:
                    raise ValueError("Strides must be greater than output padding. Received "
                                     f"strides={self.strides}, output_padding="
                                     f"{self.output_padding}. Each output_padding entry "
                                     "picks one of the `strides` possible output sizes.")

    def build(self, input_shape):
        channels = self._channels(input_shape)
        self.kernel = self.add_weight(
            name="kernel", shape=self.kernel_size + (self.filters, channels),
            initializer=self.kernel_initializer, regularizer=self.kernel_regularizer,
            constraint=self.kernel_constraint)
        self.bias = self._add_bias(self.filters)
        self._set_input_spec(channels)
        self.built = True

    def _spatial_output(self, spatial):
        paddings = self.output_padding or (None,) * self.rank
        return [deconv_output_length(n, k, self.padding, s, d, p) for n, k, s, d, p in zip(
            spatial, self.kernel_size, self.strides, self.dilation_rate, paddings)]

    def _convolve(self, x):
        if any(n is None for n in x.shape):
            raise ValueError(f"{type(self).__name__} needs the input's full shape; received "
                             f"{tuple(x.shape)}. minitf's transposed-convolution ops take "
                             "`output_shape` as numbers, so give the input a fixed batch size.")
        out = self._spatial_output(list(x.shape[1:-1]))
        op = getattr(tf.nn, _TRANSPOSE_OPS[self.rank])
        return op(x, self.kernel, [x.shape[0], *out, self.filters], strides=list(self.strides),
                  padding=self.padding.upper(), dilations=list(self.dilation_rate))

    def compute_output_shape(self, input_shape):
        spatial = self._spatial_output(spatial_dims(input_shape, self.data_format))
        return with_spatial(input_shape, self.data_format, spatial, self.filters)

    def get_config(self):
        config = super().get_config()
        config.pop("groups")
        keys = list(config)
        at = keys.index("padding") + 1
        keys.insert(at, "output_padding")
        config["output_padding"] = self.output_padding
        return {k: config[k] for k in keys}


@tf_export("keras.layers.Conv1DTranspose", "keras.layers.Convolution1DTranspose")
class Conv1DTranspose(BaseConvTranspose):
    """Transposed 1-D convolution: (batch, steps, channels) -> longer sequences.

    >>> tf.keras.layers.Conv1DTranspose(4, 3, strides=2, padding="same")(
    ...     tf.ones([1, 3, 2])).shape
    TensorShape([1, 6, 4])
    """

    rank = 1


@tf_export("keras.layers.Conv2DTranspose", "keras.layers.Convolution2DTranspose")
class Conv2DTranspose(BaseConvTranspose):
    """Transposed 2-D convolution (sometimes miscalled "deconvolution")."""

    rank = 2


@tf_export("keras.layers.Conv3DTranspose", "keras.layers.Convolution3DTranspose")
class Conv3DTranspose(BaseConvTranspose):
    """Transposed 3-D convolution over (batch, depth, height, width, channels).

    >>> tf.keras.layers.Conv3DTranspose(2, 2)(tf.ones([1, 2, 2, 2, 2])).shape
    TensorShape([1, 3, 3, 3, 2])
    """

    rank = 3
