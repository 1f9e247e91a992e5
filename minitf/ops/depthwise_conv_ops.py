"""Depthwise and separable convolutions: `tf.nn.depthwise_conv2d`, `separable_conv2d`.

A depthwise convolution filters every input channel on its own, with
`channel_multiplier` filters per channel, and never mixes channels:

    y[n, i, j, c*M + m] = sum_{a, b} x_pad[n, i*s + a*d, j*s + b*d, c] * filter[a, b, c, m]

It is a grouped convolution with one group per channel, which is how minitf
computes it: the filter [kh, kw, C, M] is read as [kh, kw, 1, C*M] and the
grouped kernels of `conv_ops` do the rest. A separable convolution is a
depthwise convolution followed by a 1x1 ("pointwise") conv2d that mixes channels.

>>> import minitf as tf
>>> tf.nn.depthwise_conv2d(tf.ones([2, 7, 7, 3]), tf.ones([3, 3, 3, 2]), [1, 1, 1, 1],
...                        "SAME").shape
TensorShape([2, 7, 7, 6])
"""
import numpy as np

from ..framework import dtypes, errors
from ..framework.op import Op, apply
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export
from .conv_ops import (ConvFamily, conv2d, conv_backprop_filter, conv_backprop_input,
                       conv_forward, convert_pair, validated)
from .conv_utils import (check_data_format, check_padding, check_rank, check_window_attr, known,
                         output_size, output_spatial, parse_padding)


# --- kernels: a depthwise convolution is a grouped one --------------------------------------
def _as_grouped(f):
    """[kh, kw, C, M] -> [kh, kw, 1, C*M]: C groups of one input channel and M outputs."""
    kh, kw, c, m = f.shape
    return f.reshape(kh, kw, 1, c * m)


def _depthwise_forward(x, f, **attrs):
    return conv_forward(x, _as_grouped(f), **attrs)


def _depthwise_backprop_input(f, dy, input_sizes, **attrs):
    return conv_backprop_input(_as_grouped(f), dy, input_sizes, **attrs)


def _depthwise_backprop_filter(x, dy, filter_sizes, **attrs):
    kh, kw, c, m = filter_sizes
    return conv_backprop_filter(x, dy, (kh, kw, 1, c * m), **attrs).reshape(filter_sizes)


# --- shape rules ---------------------------------------------------------------------------
def _check_attrs(op_name, strides, padding, explicit_paddings, dilations):
    check_padding(op_name, padding, explicit_paddings, ("SAME", "VALID", "EXPLICIT"))
    check_window_attr(op_name, strides, "strides", errors.InvalidArgumentError)
    if min(strides[1:3]) < 1:
        raise errors.op_error(errors.InvalidArgumentError, op_name,
                              f"Stride must be > 0, but got {min(strides[1:3])}",
                              "A stride is how far the window moves: at least 1.")
    if strides[1] != strides[2]:
        raise errors.op_error(
            errors.InvalidArgumentError, op_name,
            "Current implementation only supports equal length strides in the row and column "
            "dimensions.", "Use the same stride for height and width, e.g. [1, 2, 2, 1].")
    check_window_attr(op_name, dilations, "dilations")
    if min(dilations[1:3]) < 1:
        raise errors.op_error(errors.InvalidArgumentError, op_name,
                              "Dilated rates should be larger than 0.",
                              "A dilation of 1 is an ordinary kernel.")


def _forward_shape(input, filter, strides, padding, explicit_paddings, dilations):
    op_name = "DepthwiseConv2dNative"
    _check_attrs(op_name, strides, padding, explicit_paddings, dilations)
    check_rank(op_name, input, 4, "input must be 4-dimensional{dims}")
    check_rank(op_name, filter, 4, "filter must be 4-dimensional: {dims}")
    x, f = known(input), known(filter)
    if None not in (x[3], f[2]) and x[3] != f[2]:
        raise errors.op_error(
            errors.InvalidArgumentError, op_name,
            f"input and filter must have the same depth: {x[3]} vs {f[2]}",
            "A depthwise filter is [kh, kw, in_channels, channel_multiplier]: one set of "
            "filters per input channel.")
    out = output_spatial(op_name, x[1:3], f[:2], strides[1:3], dilations[1:3], padding,
                         explicit_paddings)
    out_depth = None if None in (f[2], f[3]) else f[2] * f[3]
    return TensorShape([x[0], *out, out_depth])


def _check_backprop(op_name, prefix, x, f, dy, attrs):
    _check_attrs(op_name, attrs["strides"], attrs["padding"], attrs["explicit_paddings"],
                 attrs["dilations"])
    for shape, what in ((x, "input"), (f, "filter"), (dy, "out_backprop")):
        if len(shape) != 4:
            raise errors.op_error(errors.InvalidArgumentError, op_name,
                                  f"{prefix}: {what} must be 4-dimensional",
                                  f"{what} is [batch, height, width, channels]-like.")
    if None not in (x[3], f[2], f[3], dy[3]) and (x[3] != f[2] or f[2] * f[3] != dy[3]):
        raise errors.op_error(
            errors.InvalidArgumentError, op_name,
            f"{prefix}: depth_multiplier * in_depth not equal to out_depth",
            f"out_backprop must have in_channels * channel_multiplier = {f[2]}*{f[3]} channels.")
    for axis, what in ((1, "rows"), (2, "cols")):
        b, a = attrs["explicit_paddings"][2 * axis:2 * axis + 2] or (0, 0)
        computed = output_size(op_name, x[axis], f[axis - 1], attrs["strides"][axis],
                               attrs["dilations"][axis], attrs["padding"], b, a)
        if None not in (computed, dy[axis]) and computed != dy[axis]:
            raise errors.op_error(
                errors.InvalidArgumentError, op_name,
                f"{prefix}: Number of {what} of out_backprop doesn't match computed: "
                f"actual = {dy[axis]}, computed = {computed}",
                "out_backprop must have the shape the forward convolution produced.")


def _backprop_input_shape(filter, out_backprop, input_sizes, **attrs):
    _check_backprop("DepthwiseConv2dNativeBackpropInput", "DepthwiseConv2DBackpropInput",
                    list(input_sizes), known(filter), known(out_backprop), attrs)
    return TensorShape(list(input_sizes))


def _backprop_filter_shape(input, out_backprop, filter_sizes, **attrs):
    _check_backprop("DepthwiseConv2dNativeBackpropFilter", "DepthwiseConv2DBackpropFilter",
                    known(input), list(filter_sizes), known(out_backprop), attrs)
    return TensorShape(list(filter_sizes))


DepthwiseConv2dNative = Op(
    "DepthwiseConv2dNative", validated(_forward_shape, _depthwise_forward),
    dtypes=dtypes.FLOATING, shape=_forward_shape)
DepthwiseConv2dNativeBackpropInput = Op(
    "DepthwiseConv2dNativeBackpropInput",
    validated(_backprop_input_shape, _depthwise_backprop_input), dtypes=dtypes.FLOATING,
    shape=_backprop_input_shape)
DepthwiseConv2dNativeBackpropFilter = Op(
    "DepthwiseConv2dNativeBackpropFilter",
    validated(_backprop_filter_shape, _depthwise_backprop_filter), dtypes=dtypes.FLOATING,
    shape=_backprop_filter_shape)
# The same bilinear gradient wiring as Conv2D (see conv_ops.ConvFamily).
DEPTHWISE_FAMILY = ConvFamily(DepthwiseConv2dNative, DepthwiseConv2dNativeBackpropInput,
                              DepthwiseConv2dNativeBackpropFilter)


# --- public wrappers ----------------------------------------------------------------------
def _four(value, what, op="depthwise_conv2d_native"):
    if not isinstance(value, (list, tuple)):
        raise TypeError(f"Expected list for '{what}' argument to '{op}' Op, not {value!r}.")
    if len(value) != 4:
        raise errors.op_error(errors.InvalidArgumentError, "DepthwiseConv2dNative",
                              f"Sliding window {what} field must specify 4 dimensions",
                              f"Give {what} for all four axes, e.g. [1, 2, 2, 1].")
    return tuple(int(v) for v in value)


def _attrs(strides, padding, dilations):
    padding, explicit = parse_padding(padding, 4)
    return {"strides": strides, "padding": padding, "explicit_paddings": explicit,
            "dilations": dilations}


@tf_export("nn.depthwise_conv2d")
def depthwise_conv2d(input, filter, strides, padding, data_format=None, dilations=None,
                     name=None):
    """Filter each channel separately: input [N, H, W, C], filter [kh, kw, C, M] ->
    [N, H', W', C*M]. strides is a list of 4 (equal height and width strides);
    dilations a list of 2 rates (strides must then be 1).

    >>> tf.nn.depthwise_conv2d(tf.ones([1, 5, 5, 2]), tf.ones([3, 3, 2, 1]), [1, 2, 2, 1],
    ...                        "VALID").shape
    TensorShape([1, 2, 2, 2])
    """
    x, f = convert_pair(input, filter)
    strides = _four(strides, "strides")
    check_data_format("DepthwiseConv2dNative", data_format, "NHWC")
    rates = (1, 1) if dilations is None else tuple(int(r) for r in dilations)
    if len(rates) != 2:
        raise ValueError(f"`dilations` must have 2 values (one rate per spatial axis). "
                         f"Received: dilations={dilations!r}")
    if min(rates) < 1:
        raise ValueError(f"`dilation_rate` must be positive. Received: "
                         f"dilation_rate={np.array(rates)}")
    if max(rates) > 1 and max(strides) > 1:
        raise ValueError("When dilation rate is greater than 1, then all values of strides "
                         f"must be 1. Received: `dilation rate` {list(rates)} and `strides` "
                         f"{list(strides)}")
    attrs = _attrs(strides, padding, (1,) + rates + (1,))
    return apply(DepthwiseConv2dNative, [x, f], attrs)


@tf_export("nn.separable_conv2d")
def separable_conv2d(input, depthwise_filter, pointwise_filter, strides, padding,
                     data_format=None, dilations=None, name=None):
    """A depthwise convolution, then a 1x1 conv2d that mixes channels:
    depthwise_filter [kh, kw, C, M], pointwise_filter [1, 1, C*M, out].

    >>> tf.nn.separable_conv2d(tf.ones([2, 7, 7, 3]), tf.ones([3, 3, 3, 2]),
    ...                        tf.ones([1, 1, 6, 5]), [1, 1, 1, 1], "SAME").shape
    TensorShape([2, 7, 7, 5])
    """
    x, depthwise = convert_pair(input, depthwise_filter)
    pointwise = convert_to_tensor(pointwise_filter, dtype_hint=x.dtype)
    for f in (depthwise, pointwise):
        if f.shape.rank != 4:
            raise ValueError(f"Shape {tuple(f.shape.as_list())} must have rank 4")
    for axis in (0, 1):
        if pointwise.shape[axis] != 1:
            raise ValueError(f"Dimensions {pointwise.shape[axis]} and 1 are not compatible")
    y = depthwise_conv2d(x, depthwise, strides, padding, data_format, dilations)
    return conv2d(y, pointwise, [1, 1, 1, 1], "VALID")


@tf_export("nn.depthwise_conv2d_backprop_input")
def depthwise_conv2d_backprop_input(input_sizes, filter, out_backprop, strides, padding,
                                    data_format="NHWC", dilations=(1, 1, 1, 1), name=None):
    """The gradient of depthwise_conv2d with respect to its input (of shape input_sizes).

    >>> tf.nn.depthwise_conv2d_backprop_input([1, 5, 5, 2], tf.ones([3, 3, 2, 1]),
    ...                                       tf.ones([1, 5, 5, 2]), [1, 1, 1, 1], "SAME").shape
    TensorShape([1, 5, 5, 2])
    """
    f, dy = convert_pair(filter, out_backprop)
    check_data_format("DepthwiseConv2dNativeBackpropInput", data_format, "NHWC")
    sizes = [int(d) for d in np.reshape(np.asarray(input_sizes), [-1])]
    attrs = _attrs(_four(strides, "strides"), padding, _four(dilations, "dilations"))
    return DEPTHWISE_FAMILY.input_grad(sizes, f, dy, attrs)


@tf_export("nn.depthwise_conv2d_backprop_filter")
def depthwise_conv2d_backprop_filter(input, filter_sizes, out_backprop, strides, padding,
                                     data_format="NHWC", dilations=(1, 1, 1, 1), name=None):
    """The gradient of depthwise_conv2d with respect to its filter (of shape filter_sizes).

    >>> tf.nn.depthwise_conv2d_backprop_filter(tf.ones([1, 5, 5, 2]), [3, 3, 2, 1],
    ...                                        tf.ones([1, 5, 5, 2]), [1, 1, 1, 1],
    ...                                        "SAME").shape
    TensorShape([3, 3, 2, 1])
    """
    x, dy = convert_pair(input, out_backprop)
    check_data_format("DepthwiseConv2dNativeBackpropFilter", data_format, "NHWC")
    sizes = [int(d) for d in np.reshape(np.asarray(filter_sizes), [-1])]
    attrs = _attrs(_four(strides, "strides"), padding, _four(dilations, "dilations"))
    return DEPTHWISE_FAMILY.filter_grad(x, sizes, dy, attrs)
