"""Argument checks and shape arithmetic shared by the convolution and pooling layers.

Output length along one spatial axis (k = kernel size, s = stride, d = dilation):

    "valid":  ceil((n - (k - 1) * d) / s)        only windows that fit
    "same":   ceil(n / s)                         zero padding keeps n when s = 1
    "causal": n (Conv1D; pads (k - 1) * d zeros on the left only)

>>> from minitf.keras.layers.conv_utils import conv_output_length
>>> conv_output_length(7, 3, "valid", 2), conv_output_length(7, 3, "same", 2)
(3, 4)

In Keras this is `keras/src/ops/operation_utils.py` and `utils/argument_validation.py`.
"""
import math

import minitf as tf

from .. import backend


def standardize_tuple(value, n, name, allow_zero=False):
    """An int or a sequence of n ints -> a tuple of n ints (Keras's check and message)."""
    if isinstance(value, int) and not isinstance(value, bool):
        values = (value,) * n
    else:
        try:
            values = tuple(value)
        except TypeError:
            values = None
        if values is None or len(values) != n or not all(isinstance(v, int) for v in values):
            raise ValueError(f"The `{name}` argument must be a tuple of {n} integers. "
                             f"Received {name}={value}")
    bad = {v for v in values if (v < 0 if allow_zero else v <= 0)}
    if bad:
        raise ValueError(f"The `{name}` argument must be a tuple of {n} integers. Received "
                         f"{name}={value}, including values {bad} that do not satisfy "
                         f"`value {'>= 0' if allow_zero else '> 0'}`")
    return values


def standardize_padding(padding, allow_causal=False):
    allowed = {"valid", "same", "causal"} if allow_causal else {"valid", "same"}
    value = padding.lower() if isinstance(padding, str) else padding
    if value not in allowed:
        raise ValueError("The `padding` argument must be a list/tuple or one of "
                         f"{allowed}. Received: {padding}")
    return value


def standardize_data_format(data_format):
    value = "channels_last" if data_format is None else data_format.lower()
    if value not in ("channels_last", "channels_first"):
        raise ValueError("The `data_format` argument must be one of {'channels_first', "
                         f"'channels_last'}}. Received: data_format={data_format}")
    return value


def conv_output_length(length, kernel_size, padding, stride, dilation=1):
    """Output size along one axis of a convolution or pooling window (None stays None)."""
    if length is None:
        return None
    effective = (kernel_size - 1) * dilation + 1
    if padding == "valid":
        return max(0, math.ceil((length - effective + 1) / stride))
    if padding == "causal":
        return math.ceil(length / stride)
    return math.ceil(length / stride)


def deconv_output_length(length, kernel_size, padding, stride, dilation=1, output_padding=None):
    """Output size of a transposed convolution: it undoes conv_output_length."""
    if length is None:
        return None
    effective = (kernel_size - 1) * dilation + 1
    if output_padding is None:
        if padding == "valid":
            return length * stride + max(effective - stride, 0)
        return length * stride
    pad = effective // 2 if padding == "same" else 0
    return (length - 1) * stride + effective - 2 * pad + output_padding


def to_channels_last(x, data_format):
    """channels_first (N, C, ...) -> channels_last (N, ..., C); the kernels use the latter."""
    if data_format == "channels_last":
        return x
    rank = len(x.shape)
    return tf.transpose(x, [0] + list(range(2, rank)) + [1])


def from_channels_last(x, data_format):
    if data_format == "channels_last":
        return x
    rank = len(x.shape)
    return tf.transpose(x, [0, rank - 1] + list(range(1, rank - 1)))


def spatial_dims(input_shape, data_format):
    """The spatial sizes of an input shape, whatever the data format."""
    return tuple(input_shape[1:-1] if data_format == "channels_last" else input_shape[2:])


def with_spatial(input_shape, data_format, spatial, channels):
    """Assemble (batch, *spatial, channels) in the layer's data format."""
    if data_format == "channels_last":
        return (input_shape[0],) + tuple(spatial) + (channels,)
    return (input_shape[0], channels) + tuple(spatial)


def keras_default_name(cls_name):
    """Keras's automatic layer name: 'Conv2DTranspose' -> 'conv2d_transpose' (first free one).

    (The rule every Keras layer uses: keras/utils/naming.py `to_snake_case`.)
    """
    from ..utils.naming import to_snake_case
    return backend._unique_name(to_snake_case(cls_name))


class KerasNamed:
    """Mixin: give a layer Keras's default name when none is passed."""

    def __init__(self, *args, **kwargs):
        if kwargs.get("name") is None:
            kwargs["name"] = keras_default_name(type(self).__name__)
        super().__init__(*args, **kwargs)
