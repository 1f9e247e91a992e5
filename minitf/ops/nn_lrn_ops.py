"""Local response normalization (AlexNet's "brightness normalization"): `tf.nn.lrn`.

Each entry of the last (depth) axis is divided by a power of the energy of its
neighbours along that axis:

    sqr_sum[..., d] = sum(x[..., d - r : d + r + 1] ** 2)
    output = x / (bias + alpha * sqr_sum) ** beta

>>> import minitf as tf
>>> tf.nn.lrn(tf.constant([[[[1.0, 2.0]]]]), depth_radius=1, bias=0.0, alpha=1.0,
...           beta=0.5).numpy().round(4)
array([[[[0.4472, 0.8944]]]], dtype=float32)

In TensorFlow LRN is one kernel (with an LRNGrad kernel for its gradient). minitf
writes it with tf ops: the windowed sum of squares is one matmul with a band matrix
(ones where |d - d'| <= r), so the gradient, and the gradient of the gradient, come
from the ops it uses.
"""
import numpy as np

from ..framework import dtypes, errors
from ..framework.op import type_name
from ..framework.tensor import convert_to_tensor
from ..framework.tf_export import tf_export
from .linalg_ops import matmul
from .math_ops import cast, pow
from .unary_ops import square


@tf_export("nn.local_response_normalization", "nn.lrn")
def local_response_normalization(input, depth_radius=5, bias=1, alpha=1,  # noqa: A002
                                 beta=0.5, name=None):
    """input / (bias + alpha * sqr_sum) ** beta, sqr_sum summing input**2 over the
    2 * depth_radius + 1 nearest depths. 4-D float16 or float32 input.

    >>> tf.nn.local_response_normalization(tf.ones([1, 1, 1, 3]), depth_radius=1).numpy()
    array([[[[0.57735026, 0.5       , 0.57735026]]]], dtype=float32)
    """
    input = convert_to_tensor(input)  # noqa: A001
    if input.dtype not in (dtypes.float16, dtypes.float32):
        raise errors.op_error(
            errors.InvalidArgumentError, "LRN",
            f"Value for attr 'T' of {type_name(input.dtype)} is not in the list of allowed "
            "values: half, bfloat16, float", "tf.cast the input to tf.float32 first.")
    if input.shape.rank is not None and input.shape.rank != 4:
        raise errors.op_error(errors.InvalidArgumentError, "LRN", "in must be 4-dimensional",
                              "LRN works on [batch, height, width, depth] images.")
    return _lrn(input, depth_radius, bias, alpha, beta)


def _lrn(input, depth_radius, bias, alpha, beta):  # noqa: A002 - any float dtype
    depth = input.shape[-1]
    if depth is None:
        raise ValueError("tf.nn.lrn needs the depth (last) dimension to be known.")
    positions = np.arange(depth)
    band = (np.abs(positions[:, None] - positions[None, :]) <= int(depth_radius))
    sqr_sum = matmul(square(input), band.astype(input.dtype.as_numpy_dtype))
    scale = cast(bias, input.dtype) + cast(alpha, input.dtype) * sqr_sum
    return input / pow(scale, cast(beta, input.dtype))


lrn = local_response_normalization
