"""`keras.ops.nn` convolutions and pooling, with Keras's arguments.

Keras takes `padding="valid"`/`"same"` in lower case, an int or tuple for
`strides`, `pool_size` and `dilation_rate`, and `data_format`
("channels_last" by default: (batch, *spatial, channels)); kernels are
(*spatial, in_channels, out_channels). These become `tf.nn.convolution`,
`tf.nn.max_pool` and `tf.nn.avg_pool` calls.

>>> import minitf as tf
>>> from minitf.keras import ops
>>> ops.conv(tf.ones((1, 4, 1)), tf.ones((2, 1, 1))).numpy().ravel()
array([2., 2., 2.], dtype=float32)
>>> ops.max_pool(tf.reshape(tf.range(4.0), (1, 4, 1)), 2).numpy().ravel()
array([1., 3.], dtype=float32)
"""
import minitf as tf

from ._export import keras_ops_export
from .. import ops  # noqa: F401 - the examples below call ops.*
from .dtype_rules import convert


def _tuple(value, n):
    return list(value) if isinstance(value, (list, tuple)) else [value] * n


def _channels_last(inputs, data_format):
    """Move channels last for channels_first inputs; return (x, undo)."""
    data_format = data_format or tf.keras.backend.image_data_format()
    if data_format not in ("channels_last", "channels_first"):
        raise ValueError("`data_format` must be 'channels_last' or 'channels_first'. "
                         f"Received: data_format={data_format}")
    x = convert(inputs)
    if data_format == "channels_last":
        return x, lambda y: y
    rank = x.shape.rank
    x = tf.transpose(x, [0, *range(2, rank), 1])
    return x, lambda y: tf.transpose(y, [0, rank - 1, *range(1, rank - 1)])


def _padding(padding):
    if padding.lower() not in ("valid", "same"):
        raise ValueError(f"`padding` must be 'valid' or 'same'. Received: padding={padding}")
    return padding.upper()


@keras_ops_export("nn")
def conv(inputs, kernel, strides=1, padding="valid", data_format=None, dilation_rate=1):
    """N-D convolution (1-D, 2-D or 3-D by the kernel's rank)."""
    x, undo = _channels_last(inputs, data_format)
    kernel = convert(kernel, x.dtype)
    n = x.shape.rank - 2
    return undo(tf.nn.convolution(x, kernel, strides=_tuple(strides, n), padding=_padding(padding),
                                  dilations=_tuple(dilation_rate, n)))


@keras_ops_export("nn")
def depthwise_conv(inputs, kernel, strides=1, padding="valid", data_format=None,
                   dilation_rate=1):
    """2-D depthwise convolution: kernel (h, w, in_channels, multiplier); 1-D as 2-D."""
    x, undo = _channels_last(inputs, data_format)
    kernel = convert(kernel, x.dtype)
    one_d = x.shape.rank == 3
    if one_d:
        x, kernel = tf.expand_dims(x, 1), tf.expand_dims(kernel, 0)
    s, d = _tuple(strides, 2 - one_d), _tuple(dilation_rate, 2 - one_d)
    if one_d:
        s, d = [1] + s, [1] + d
    y = tf.nn.depthwise_conv2d(x, kernel, [1, *s, 1], _padding(padding), dilations=d)
    return undo(tf.squeeze(y, 1) if one_d else y)


@keras_ops_export("nn")
def separable_conv(inputs, depthwise_kernel, pointwise_kernel, strides=1, padding="valid",
                   data_format=None, dilation_rate=1):
    """A depthwise convolution followed by a 1x1 (pointwise) one."""
    depthwise = depthwise_conv(inputs, depthwise_kernel, strides, padding, data_format,
                               dilation_rate)
    return conv(depthwise, pointwise_kernel, 1, "valid", data_format, 1)


def _pool(tf_pool, inputs, pool_size, strides, padding, data_format):
    x, undo = _channels_last(inputs, data_format)
    n = x.shape.rank - 2
    strides = pool_size if strides is None else strides
    return undo(tf_pool(x, _tuple(pool_size, n), _tuple(strides, n), _padding(padding)))


@keras_ops_export("nn")
def max_pool(inputs, pool_size, strides=None, padding="valid", data_format=None):
    """The maximum of each window (strides default to pool_size)."""
    return _pool(tf.nn.max_pool, inputs, pool_size, strides, padding, data_format)


@keras_ops_export("nn")
def average_pool(inputs, pool_size, strides=None, padding="valid", data_format=None):
    """The mean of each window; with 'same', edge windows average only real values."""
    return _pool(tf.nn.avg_pool, inputs, pool_size, strides, padding, data_format)
