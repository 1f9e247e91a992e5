"""Transposed ("deconvolution") convolutions: `tf.nn.conv2d_transpose` and friends.

conv2d_transpose is not a new computation: it is the gradient of conv2d
with respect to its input (the op Conv2DBackpropInput). Each input pixel
stamps a copy of the filter, scaled by its value, onto the larger output:

    y = conv2d_transpose(x, f, output_shape, s)  <=>  <y, z> = <x, conv2d(z, f, s)> for all z

so a stride-2 transpose upsamples by 2. The filter is [kh, kw, out_channels,
in_channels]: the filter of the convolution that would map y back to x.

>>> import minitf as tf
>>> x = tf.ones([1, 2, 2, 1])
>>> tf.nn.conv2d_transpose(x, tf.ones([2, 2, 1, 1]), [1, 4, 4, 1], strides=2)[0, :, :, 0]
<tf.Tensor: shape=(4, 4), dtype=float32, numpy=
array([[1., 1., 1., 1.],
       [1., 1., 1., 1.],
       [1., 1., 1., 1.],
       [1., 1., 1., 1.]], dtype=float32)>
"""
import numpy as np

from ..framework import errors
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export
from .array_ops import expand_dims, squeeze
from .conv_ops import CONV2D_FAMILY, CONV3D_FAMILY, conv_attrs, convert_pair
from .conv_utils import check_1d_format, check_data_format, expand_sequence


def _shape_list(output_shape):
    """output_shape as Python ints (a list, a tuple, a TensorShape or an int tensor)."""
    if isinstance(output_shape, TensorShape):
        return output_shape.as_list()
    if hasattr(output_shape, "numpy"):
        output_shape = output_shape.numpy()
    return [int(d) for d in np.reshape(np.asarray(output_shape), [-1])]


@tf_export("nn.conv2d_transpose")
def conv2d_transpose(input, filters, output_shape, strides, padding="SAME", data_format="NHWC",
                     dilations=None, name=None):
    """The transpose (adjoint) of conv2d: input [N, h, w, in], filters [kh, kw, out, in],
    result of shape `output_shape` = [N, H, W, out], where conv2d of the result's shape
    with these strides and padding would give [N, h, w, ...].

    >>> tf.nn.conv2d_transpose(tf.ones([2, 4, 4, 3]), tf.ones([3, 3, 5, 3]),
    ...                        [2, 8, 8, 5], strides=2, padding="SAME").shape
    TensorShape([2, 8, 8, 5])

    TensorFlow's CPU kernel refuses dilations > 1 here; minitf computes them.
    """
    x, f = convert_pair(input, filters)
    check_data_format("Conv2DBackpropInput", data_format, "NHWC", errors.InvalidArgumentError,
                      "Conv2DCustomBackpropInputOp only supports NHWC.")
    attrs = conv_attrs(2, strides, padding, dilations)
    return CONV2D_FAMILY.input_grad(_shape_list(output_shape), f, x, attrs)


@tf_export("nn.atrous_conv2d_transpose")
def atrous_conv2d_transpose(value, filters, output_shape, rate, padding, name=None):
    """The transpose of atrous_conv2d: conv2d_transpose with stride 1 and the filter's taps
    `rate` apart. value [N, h, w, in], filters [kh, kw, out, in], result `output_shape`.

    (TF computes it with space_to_batch, a conv2d_transpose and batch_to_space; the
    numbers are the same.)

    >>> tf.nn.atrous_conv2d_transpose(tf.ones([1, 4, 4, 2]), tf.ones([2, 2, 3, 2]),
    ...                               [1, 6, 6, 3], rate=2, padding="VALID").shape
    TensorShape([1, 6, 6, 3])
    """
    value, filters = convert_pair(value, filters)
    if padding not in ("SAME", "VALID"):
        raise ValueError("`padding` must be either 'VALID' or 'SAME'. Received: "
                         f"padding={padding}")
    if rate < 1:
        raise ValueError(f"`rate` cannot be less than one. Received: rate={rate}")
    shape = _shape_list(output_shape)
    if not value.shape[3:4].is_compatible_with(filters.shape[3:4]):
        raise ValueError(
            "`value` channel count must be compatible with `filters` input channel count. "
            f"Received: value.shape={tuple(value.shape.as_list())} with channel count "
            f"{value.shape[3]} and filters.shape={tuple(filters.shape.as_list())} with input "
            f"channel count {filters.shape[3]}.")
    if isinstance(shape, list) and shape[3] != filters.shape[2]:
        raise ValueError(
            "`output_shape` channel count must be compatible with `filters` output channel "
            f"count. Received: output_shape={shape} with channel count {shape[3]} and "
            f"filters.shape={tuple(filters.shape.as_list())} with output channel count "
            f"{filters.shape[3]}.")  # sic: TF's message names the input channel count here
    return conv2d_transpose(value, filters, output_shape, strides=1, padding=padding,
                            dilations=int(rate))


@tf_export("nn.conv1d_transpose")
def conv1d_transpose(input, filters, output_shape, strides, padding="SAME", data_format="NWC",
                     dilations=None, name=None):
    """The transpose of conv1d: input [N, w, in], filters [k, out, in], result `output_shape`.

    >>> tf.nn.conv1d_transpose(tf.ones([2, 4, 3]), tf.ones([3, 5, 3]), [2, 8, 5], 2).shape
    TensorShape([2, 8, 5])
    """
    check_1d_format(data_format)
    if data_format == "NCW":
        check_data_format("Conv2DBackpropInput", "NCHW", "NHWC", errors.InvalidArgumentError,
                          "Conv2DCustomBackpropInputOp only supports NHWC.")
    if isinstance(padding, (list, tuple)):
        raise TypeError(f"Expected string for argument 'padding' not {padding!r}.")
    x, f = convert_pair(input, filters)
    shape = _shape_list(output_shape)
    strides = (1, 1) + expand_sequence(strides, 1, "strides")[1:]
    rates = (1, 1) + expand_sequence(dilations, 1, "dilations")[1:]
    y = conv2d_transpose(expand_dims(x, -3), expand_dims(f, 0), shape[:-2] + [1] + shape[-2:],
                         strides, padding, dilations=rates)
    return squeeze(y, [-3])


@tf_export("nn.conv3d_transpose")
def conv3d_transpose(input, filters, output_shape, strides, padding="SAME", data_format="NDHWC",
                     dilations=None, name=None):
    """The transpose of conv3d: input [N, d, h, w, in], filters [kd, kh, kw, out, in].

    >>> tf.nn.conv3d_transpose(tf.ones([1, 2, 2, 2, 3]), tf.ones([2, 2, 2, 4, 3]),
    ...                        [1, 4, 4, 4, 4], strides=2).shape
    TensorShape([1, 4, 4, 4, 4])
    """
    check_data_format("Conv3DBackpropInputV2", data_format, "NDHWC", errors.InvalidArgumentError)
    x, f = convert_pair(input, filters)
    attrs = conv_attrs(3, strides, padding, dilations, allow_explicit=False)
    if max(attrs["dilations"]) > 1:
        raise errors.op_error(
            errors.InvalidArgumentError, "Conv3DBackpropInputV2",
            "Current CPU implementation does not yet support dilation rates larger than 1.",
            "TensorFlow's CPU kernel has no dilated 3-D transposed convolution.")
    return CONV3D_FAMILY.input_grad(_shape_list(output_shape), f, x, attrs)


@tf_export("nn.conv_transpose")
def conv_transpose(input, filters, output_shape, strides, padding="SAME", data_format=None,
                   dilations=None, name=None):
    """conv1d/2d/3d_transpose, chosen by the length of output_shape (3, 4 or 5).

    >>> tf.nn.conv_transpose(tf.ones([2, 4, 3]), tf.ones([3, 5, 3]), [2, 8, 5], 2).shape
    TensorShape([2, 8, 5])
    """
    shape = _shape_list(output_shape)
    n = len(shape) - 2
    if not 1 <= n <= 3:
        raise ValueError(f"`output_shape` must be of length 3, 4 or 5. Received: "
                         f"output_shape={output_shape} of length {n + 2}.")
    fn = {1: conv1d_transpose, 2: conv2d_transpose, 3: conv3d_transpose}[n]
    data_format = data_format or {1: "NWC", 2: "NHWC", 3: "NDHWC"}[n]
    return fn(input, filters, shape, strides, padding, data_format, dilations)
