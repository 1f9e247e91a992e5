"""`tf.keras.backend` convolutions and pooling with Keras's argument names.

padding is 'valid' or 'same' ('causal' too for conv1d: left padding only, so
step t sees only steps <= t); data_format 'channels_last' (default, from
`image_data_format()`) or 'channels_first', which is computed channels-last
between two transposes. Kernels are TF-shaped: (rows, cols, in, out).

>>> import minitf as tf
>>> K = tf.keras.backend
>>> K.conv2d(tf.ones((1, 3, 3, 1)), tf.ones((2, 2, 1, 1))).numpy()[0, :, :, 0]
array([[4., 4.],
       [4., 4.]], dtype=float32)
>>> K.pool2d(tf.reshape(tf.range(16.0), (1, 4, 4, 1)), (2, 2), (2, 2)).numpy()[0, :, :, 0]
array([[ 5.,  7.],
       [13., 15.]], dtype=float32)
"""
import minitf as tf

from ...framework.tf_export import tf_export
from .array_ops import _data_format, temporal_padding


def _padding(padding):
    if padding not in ("same", "valid"):
        raise ValueError(f"Invalid padding: {padding}")
    return padding.upper()


def _channels_last(fn, x, data_format, rank):
    """fn on x as channels-last; a channels-first x is transposed in and out."""
    if _data_format(data_format) == "channels_last":
        return fn(x)
    last = [0] + list(range(2, rank)) + [1]
    first = [0, rank - 1] + list(range(1, rank - 1))
    return tf.transpose(fn(tf.transpose(x, last)), first)


@tf_export("keras.backend.conv1d")
def conv1d(x, kernel, strides=1, padding="valid", data_format=None, dilation_rate=1):
    """1-D convolution of (batch, steps, channels); padding may be 'causal'."""
    _data_format(data_format)
    if padding == "causal":
        left = dilation_rate * (kernel.shape[0] - 1)
        if _data_format(data_format) == "channels_first":
            x = tf.pad(x, [[0, 0], [0, 0], [left, 0]])
        else:
            x = temporal_padding(x, (left, 0))
        padding = "valid"
    padding = _padding(padding)
    return _channels_last(lambda t: tf.nn.convolution(t, kernel, strides, padding,
                                                      dilations=dilation_rate),
                          x, data_format, 3)


@tf_export("keras.backend.conv2d")
def conv2d(x, kernel, strides=(1, 1), padding="valid", data_format=None, dilation_rate=(1, 1)):
    """2-D convolution of an image batch."""
    padding = _padding(padding)
    return _channels_last(lambda t: tf.nn.convolution(t, kernel, strides, padding,
                                                      dilations=dilation_rate),
                          x, data_format, 4)


@tf_export("keras.backend.conv3d")
def conv3d(x, kernel, strides=(1, 1, 1), padding="valid", data_format=None,
           dilation_rate=(1, 1, 1)):
    """3-D convolution of a volume batch."""
    padding = _padding(padding)
    return _channels_last(lambda t: tf.nn.convolution(t, kernel, strides, padding,
                                                      dilations=dilation_rate),
                          x, data_format, 5)


@tf_export("keras.backend.conv2d_transpose")
def conv2d_transpose(x, kernel, output_shape, strides=(1, 1), padding="valid",
                     data_format=None, dilation_rate=(1, 1)):
    """The transpose (gradient) of conv2d; kernel is (rows, cols, out, in)."""
    padding = _padding(padding)
    output_shape = tuple(output_shape)
    if _data_format(data_format) == "channels_first":
        output_shape = (output_shape[0],) + output_shape[2:] + (output_shape[1],)
    if output_shape[0] is None:
        output_shape = (x.shape[0],) + output_shape[1:]
    if dilation_rate != (1, 1) and dilation_rate[0] != dilation_rate[1]:
        raise ValueError("Expected the 2 dimensions of the `dilation_rate` argument to be "
                         f"equal to each other. Received: dilation_rate={dilation_rate}")

    def transpose_conv(t):
        if dilation_rate == (1, 1):
            return tf.nn.conv2d_transpose(t, kernel, list(output_shape),
                                          (1,) + tuple(strides) + (1,), padding=padding)
        return tf.nn.atrous_conv2d_transpose(t, kernel, list(output_shape),
                                             rate=dilation_rate[0], padding=padding)
    return _channels_last(transpose_conv, x, data_format, 4)


@tf_export("keras.backend.depthwise_conv2d")
def depthwise_conv2d(x, depthwise_kernel, strides=(1, 1), padding="valid", data_format=None,
                     dilation_rate=(1, 1)):
    """Each input channel convolved with its own filters (tf.nn.depthwise_conv2d)."""
    padding = _padding(padding)
    return _channels_last(
        lambda t: tf.nn.depthwise_conv2d(t, depthwise_kernel, (1,) + tuple(strides) + (1,),
                                         padding, dilations=dilation_rate), x, data_format, 4)


@tf_export("keras.backend.separable_conv2d")
def separable_conv2d(x, depthwise_kernel, pointwise_kernel, strides=(1, 1), padding="valid",
                     data_format=None, dilation_rate=(1, 1)):
    """A depthwise convolution followed by a 1x1 pointwise one."""
    if len(strides) != 2:
        raise ValueError("`strides` must be a tuple of 2 integers.")
    padding = _padding(padding)
    return _channels_last(
        lambda t: tf.nn.separable_conv2d(t, depthwise_kernel, pointwise_kernel,
                                         (1,) + tuple(strides) + (1,), padding,
                                         dilations=dilation_rate), x, data_format, 4)


def _pool(x, pool_size, strides, padding, data_format, pool_mode, rank):
    padding = _padding(padding)
    if pool_mode not in ("max", "avg"):
        raise ValueError(f"Invalid pooling mode: {pool_mode}")
    op = {("max", 4): tf.nn.max_pool2d, ("avg", 4): tf.nn.avg_pool2d,
          ("max", 5): tf.nn.max_pool3d, ("avg", 5): tf.nn.avg_pool3d}[pool_mode, rank]
    return _channels_last(
        lambda t: op(t, (1,) + tuple(pool_size) + (1,), (1,) + tuple(strides) + (1,), padding),
        x, data_format, rank)


@tf_export("keras.backend.pool2d")
def pool2d(x, pool_size, strides=(1, 1), padding="valid", data_format=None, pool_mode="max"):
    """2-D max ('max') or average ('avg') pooling."""
    _data_format(data_format)
    if len(pool_size) != 2:
        raise ValueError("`pool_size` must be a tuple of 2 integers.")
    if len(strides) != 2:
        raise ValueError("`strides` must be a tuple of 2 integers.")
    return _pool(x, pool_size, strides, padding, data_format, pool_mode, 4)


@tf_export("keras.backend.pool3d")
def pool3d(x, pool_size, strides=(1, 1, 1), padding="valid", data_format=None,
           pool_mode="max"):
    """3-D max ('max') or average ('avg') pooling."""
    return _pool(x, pool_size, strides, padding, data_format, pool_mode, 5)


del tf_export
