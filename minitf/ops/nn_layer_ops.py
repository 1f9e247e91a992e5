"""Building blocks of layers in `tf.nn`: bias_add, dropout, moments, batch_normalization.

>>> import minitf as tf
>>> x = tf.constant([[1.0, 2.0], [3.0, 6.0]])
>>> mean, variance = tf.nn.moments(x, axes=[0])
>>> mean.numpy(), variance.numpy()
(array([2., 4.], dtype=float32), array([1., 4.], dtype=float32))
>>> tf.nn.batch_normalization(x, mean, variance, None, None, 0.0).numpy()
array([[-1., -1.],
       [ 1.,  1.]], dtype=float32)

`bias_add` is one op (TF's BiasAdd). The others are compositions of minitf
ops written as TF writes them, so their gradients come from the ops they use.
"""
import numbers

import numpy as np

from ..framework import dtypes, errors
from ..framework.graph import SymbolicTensor
from ..framework.op import Op, apply
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export
from . import random_ops
from .array_ops import squeeze
from .math_ops import binary_args, cast, squared_difference, where
from .reduction_ops import reduce_mean, reduce_sum
from .shape_ops import dim_of, shape as shape_of
from .shape_rules import dims_text
from .unary_ops import reciprocal, rsqrt, square


# --- bias_add ------------------------------------------------------------------------------
def _check_bias(value, bias, data_format):
    """TF's BiasAdd checks, on TensorShapes; returns the channel axis of `value`."""
    if value.rank is not None and value.rank < 2:
        raise errors.op_error(errors.InvalidArgumentError, "BiasAdd",
                              f"Input tensor must be at least 2D: {dims_text(value)}",
                              "bias_add adds one bias per channel of a batch: [batch, ..., "
                              "channels]; for other shapes use tf.add.")
    if bias.rank is not None and bias.rank != 1:
        raise errors.op_error(errors.InvalidArgumentError, "BiasAdd",
                              f"Biases must be 1D: {dims_text(bias)}",
                              "Give one bias per channel, as a vector.")
    if value.rank is None:
        return None
    channel = 1 if data_format == "NCHW" else value.rank - 1
    size, count = value.dims[channel], bias.dims[0] if bias.rank else None
    if None not in (size, count) and size != count:
        raise errors.op_error(
            errors.InvalidArgumentError, "BiasAdd",
            "Must provide as many biases as the last dimension of the input tensor: "
            f"{dims_text(bias)} vs. {dims_text(value)}",
            f"The channel axis ({channel}) of the input has {size} entries, so the bias "
            f"needs {size} values.")
    return channel


def _bias_add_forward(value, bias, data_format):
    channel = _check_bias(TensorShape(value.shape), TensorShape(bias.shape), data_format)
    shape = [1] * value.ndim
    shape[channel] = -1
    return value + bias.reshape(shape)  # the bias broadcasts along every other axis


def _bias_add_shape(value, bias, data_format):
    _check_bias(value, bias, data_format)
    return value


BiasAdd = Op("BiasAdd", _bias_add_forward, dtypes=dtypes.NUMERIC, shape=_bias_add_shape)


@BiasAdd.def_grad
def _bias_add_grad(op, dy):
    channel = 1 if op.attrs["data_format"] == "NCHW" else dy.shape.rank - 1
    others = [i for i in range(dy.shape.rank) if i != channel]
    return dy, reduce_sum(dy, others)  # each bias was added once per position: sum them


@tf_export("nn.bias_add")
def bias_add(value, bias, data_format=None, name=None):
    """value + bias, where the 1-D bias runs along the channel axis (last for "N...C",
    axis 1 for "NC...").

    >>> tf.nn.bias_add([[1.0, 2.0], [3.0, 4.0]], [10.0, 20.0]).numpy()
    array([[11., 22.],
           [13., 24.]], dtype=float32)
    """
    if data_format is None:
        data_format = "NHWC"
    elif data_format.startswith("NC"):
        data_format = "NCHW"
    elif data_format.startswith("N") and data_format.endswith("C"):
        data_format = "NHWC"
    else:
        raise ValueError("`data_format` must be of the form `N...C` or "
                         f"`NC...`. Received: data_format={data_format}")
    value, bias = binary_args(value, bias)
    return apply(BiasAdd, [value, bias], {"data_format": data_format})


# --- dropout -------------------------------------------------------------------------------
def _noise_shape(x, noise_shape):
    """TF's rule: None means x's shape; a None entry of the same rank takes x's size."""
    if noise_shape is None:  # a [None, 3] x inside tf.function: tf.shape(x), as TF
        dims = x.shape.as_list()
        return dims if None not in dims else shape_of(x)
    if isinstance(noise_shape, SymbolicTensor):
        return noise_shape  # a shape tensor only the running graph knows
    if hasattr(noise_shape, "numpy"):
        noise_shape = noise_shape.numpy().tolist()
    noise_shape = list(noise_shape)
    if len(noise_shape) == x.shape.rank:
        return [dim_of(x, i) if n is None else n if isinstance(n, Tensor) else int(n)
                for i, n in enumerate(noise_shape)]
    return [n if isinstance(n, Tensor) else int(n) for n in noise_shape]


@tf_export("nn.dropout")
def dropout(x, rate, noise_shape=None, seed=None, name=None):
    """Zero each element with probability `rate`; scale the kept ones by 1 / (1 - rate)
    so the expected value is unchanged. The gradient is the same mask and scale.

    noise_shape (broadcast against x's shape) shares one keep/drop decision along
    axes of size 1, e.g. [batch, 1, 1, channels] drops whole channels. The mask is
    `tf.random.uniform(noise_shape, seed=seed) >= rate`, as in TF, so
    `tf.random.set_seed` makes a program's masks repeatable.

    >>> y = tf.nn.dropout(tf.ones([2, 4]), rate=0.5, seed=1)
    >>> sorted(set(y.numpy().ravel().tolist())) in ([0.0, 2.0], [0.0], [2.0])
    True
    """
    def sampler(shape, dtype):
        return random_ops.uniform(shape, seed=seed, dtype=dtype)

    return _dropout(x, rate, noise_shape, sampler)


def _dropout(x, rate, noise_shape, uniform_sampler):
    """TF's _dropout, shared with tf.nn.experimental's dropouts: keep where
    uniform_sampler(shape=noise_shape, dtype=x.dtype) >= rate, scaled by 1 / (1 - rate)."""
    is_rate_number = isinstance(rate, numbers.Real)
    if is_rate_number and (rate < 0 or rate >= 1):
        raise ValueError("`rate` must be a scalar tensor or a float in the "
                         f"range [0, 1). Received: rate={rate}")
    x = convert_to_tensor(x)
    if not x.dtype.is_floating:
        raise ValueError("`x.dtype` must be a floating point tensor as `x` will be scaled. "
                         f"Received: x_dtype=<dtype: '{x.dtype.name}'>")
    if is_rate_number and rate == 0:
        return x
    if is_rate_number:
        kept = x * convert_to_tensor(1 / (1 - rate), dtype=x.dtype)
    elif isinstance(rate, Tensor) or hasattr(rate, "_is_variable"):
        rate = cast(convert_to_tensor(rate), x.dtype)
        if rate.shape.rank != 0:
            raise ValueError(f"Shape {rate.shape} must have rank 0")
        kept = x / (1 - rate)
    else:
        raise ValueError(f"`rate` must be a scalar or scalar tensor. Received: rate={rate}")
    keep = uniform_sampler(shape=_noise_shape(x, noise_shape), dtype=x.dtype) >= rate
    return where(keep, kept, convert_to_tensor(0, dtype=x.dtype))


# --- moments and batch normalization -------------------------------------------------------------
@tf_export("nn.moments")
def moments(x, axes, shift=None, keepdims=False, name=None):
    """(mean, variance) of x over `axes`; the variance is the population one (divide by N).

    float16 is computed in float32, as in TF. `shift` is accepted and unused, as in TF.

    >>> mean, var = tf.nn.moments(tf.constant([1.0, 2.0, 3.0, 6.0]), axes=[0])
    >>> float(mean), float(var)
    (3.0, 3.5)
    """
    x = convert_to_tensor(x)
    y = cast(x, dtypes.float32) if x.dtype is dtypes.float16 else x
    mean = reduce_mean(y, axes, keepdims=True)
    # TF wraps this mean in stop_gradient: the variance's first derivative w.r.t. the mean is
    # zero, so that only saves work. minitf keeps the dependence, so second derivatives are right.
    variance = reduce_mean(squared_difference(y, mean), axes, keepdims=True)
    if not keepdims:
        mean, variance = squeeze(mean, axes), squeeze(variance, axes)
    return cast(mean, x.dtype), cast(variance, x.dtype)


@tf_export("nn.batch_normalization")
def batch_normalization(x, mean, variance, offset, scale, variance_epsilon, name=None):
    """scale * (x - mean) / sqrt(variance + variance_epsilon) + offset (offset, scale may be None).

    As in TF it is computed as x * inv + (offset - mean * inv) with
    inv = scale / sqrt(variance + variance_epsilon).

    >>> tf.nn.batch_normalization(tf.constant([1.0, 3.0]), 2.0, 1.0, 0.5, 2.0, 0.0).numpy()
    array([-1.5,  2.5], dtype=float32)
    """
    x = convert_to_tensor(x)
    mean, variance = convert_to_tensor(mean), convert_to_tensor(variance)
    inv = rsqrt(variance + variance_epsilon)
    if scale is not None:
        inv *= scale
    shift = offset - mean * inv if offset is not None else -mean * inv
    return x * cast(inv, x.dtype) + cast(shift, x.dtype)


@tf_export("nn.normalize_moments")
def normalize_moments(counts, mean_ss, variance_ss, shift, name=None):
    """(mean, variance) from sufficient statistics: the count, sum(x - shift) and
    sum((x - shift)^2); shift may be None (no shift).

    >>> mean, var = tf.nn.normalize_moments(4.0, tf.constant(12.0), tf.constant(50.0), None)
    >>> float(mean), float(var)
    (3.0, 3.5)
    """
    divisor = reciprocal(counts)
    shifted_mean = mean_ss * divisor
    mean = shifted_mean + shift if shift is not None else shifted_mean
    variance = variance_ss * divisor - square(shifted_mean)
    return mean, variance
