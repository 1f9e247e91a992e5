"""`keras.ops.nn`: activations, cross-entropies, normalizations, convolutions and pooling.

Keras 3 calls these from its layers and losses. Most activations are the
functions of `tf.keras.activations` (one definition, two names); note that
`ops.nn.gelu` defaults to the tanh approximation (`approximate=True`) while the
`gelu` activation defaults to the exact erf form -- as in Keras 3.

>>> import minitf as tf
>>> from minitf.keras import ops
>>> ops.softmax(tf.constant([[1.0, 1.0, 2.0]])).numpy().round(4)
array([[0.2119, 0.2119, 0.5761]], dtype=float32)
>>> ops.nn.one_hot(tf.constant([0, 2]), 3)
<tf.Tensor: shape=(2, 3), dtype=float32, numpy=
array([[1., 0., 0.],
       [0., 0., 1.]], dtype=float32)>
"""
import math

import minitf as tf
from minitf.keras import activations

from ._export import keras_ops_export
from .. import ops  # noqa: F401 - the examples below call ops.*
from .dtype_rules import convert, result_type, standardize_dtype

# Keras's activation functions, reused as `keras.ops.nn.*` (same numbers, same defaults).
_SHARED = ("relu6", "sigmoid", "softplus", "softsign", "silu", "log_sigmoid", "hard_sigmoid",
           "hard_silu", "selu", "elu", "celu", "glu", "tanh_shrink", "hard_tanh", "hard_shrink",
           "soft_shrink", "threshold", "sparse_plus", "squareplus", "sparse_sigmoid",
           "sparsemax", "leaky_relu", "softmax", "log_softmax")


def _share(name):
    activation = getattr(activations, name)

    def op(x, *args, **kwargs):
        return activation(convert(x), *args, **kwargs)

    op.__name__ = op.__qualname__ = name
    op.__doc__ = (f"`tf.keras.activations.{name}` as an op.\n\n"
                  f"Signature and numbers as Keras 3's `keras.ops.nn.{name}`.")
    globals()[name] = keras_ops_export("nn")(op)


for _name in _SHARED:
    _share(_name)
swish = keras_ops_export("nn", "swish")(globals()["silu"])
hard_swish = keras_ops_export("nn", "hard_swish")(globals()["hard_silu"])


@keras_ops_export("nn")
def relu(x):
    """max(x, 0), in x's dtype (ints stay ints).

    >>> ops.relu(tf.constant([-1, 2]))
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([0, 2], dtype=int32)>
    """
    return tf.nn.relu(convert(x))


@keras_ops_export("nn")
def gelu(x, approximate=True):
    """x * Phi(x); `approximate=True` (Keras ops' default) uses the tanh form.

    >>> ops.gelu(tf.constant([1.0])).numpy().round(4)
    array([0.8412], dtype=float32)
    """
    return tf.nn.gelu(convert(x), approximate=approximate)


@keras_ops_export("nn")
def one_hot(x, num_classes, axis=-1, dtype=None, sparse=False):
    """Class indices to one-hot vectors (float32 by default; -1 gives all zeros)."""
    if sparse:
        raise NotImplementedError("minitf's one_hot has no sparse=True output; use the dense "
                                  "tensor (a SparseTensor in Keras).")
    dtype = standardize_dtype(dtype)
    return tf.one_hot(tf.cast(convert(x), "int32"), num_classes, axis=axis, dtype=dtype)


@keras_ops_export("nn")
def multi_hot(inputs, num_classes=None, axis=-1, dtype=None, sparse=False, **kwargs):
    """Each row of class indices to one vector with 1 at every index present.

    >>> ops.multi_hot(tf.constant([[0, 2], [1, 1]]), 3)
    <tf.Tensor: shape=(2, 3), dtype=float32, numpy=
    array([[1., 0., 1.],
           [0., 1., 0.]], dtype=float32)>
    """
    num_classes = kwargs.pop("num_tokens", num_classes)
    x = convert(inputs)
    reduction_axis = 1 if x.shape.rank > 1 else 0
    encoded = one_hot(x, num_classes, axis=axis, dtype=dtype, sparse=sparse)
    if encoded.dtype.name == "bool":
        return tf.reduce_any(encoded, axis=reduction_axis)
    return tf.reduce_max(encoded, axis=reduction_axis)


def _check_same_shape(target, output):
    if target.shape.rank != output.shape.rank or any(
            a is not None and b is not None and a != b
            for a, b in zip(target.shape.as_list(), output.shape.as_list())):
        raise ValueError("Arguments `target` and `output` must have the same shape. "
                         f"Received: target.shape={target.shape}, output.shape={output.shape}")


@keras_ops_export("nn")
def categorical_crossentropy(target, output, from_logits=False, axis=-1):
    """-sum(target * log(output)) along `axis`; probabilities are renormalised and clipped.

    >>> ops.categorical_crossentropy(tf.constant([[0.0, 1.0]]), tf.constant([[0.25, 0.75]]))
    <tf.Tensor: shape=(1,), dtype=float32, numpy=array([0.2876821], dtype=float32)>
    """
    target, output = convert(target), convert(output)
    _check_same_shape(target, output)
    if from_logits:
        return tf.nn.softmax_cross_entropy_with_logits(labels=target, logits=output, axis=axis)
    output = output / tf.reduce_sum(output, axis=axis, keepdims=True)
    eps = tf.keras.backend.epsilon()
    output = tf.clip_by_value(output, eps, 1.0 - eps)
    return -tf.reduce_sum(target * tf.math.log(output), axis=axis)


@keras_ops_export("nn")
def sparse_categorical_crossentropy(target, output, from_logits=False, axis=-1):
    """Cross-entropy with integer class targets (a trailing size-1 axis is dropped)."""
    target, output = convert(target), convert(output)
    if axis not in (-1, output.shape.rank - 1):
        raise ValueError("Only axis=-1 is currently supported. Received: axis={axis}")
    if target.shape.rank == output.shape.rank and target.shape[-1] == 1:
        target = tf.squeeze(target, axis=-1)
    if not from_logits:
        eps = tf.keras.backend.epsilon()
        output = tf.math.log(tf.clip_by_value(output, eps, 1 - eps))
    return tf.nn.sparse_softmax_cross_entropy_with_logits(
        labels=tf.cast(target, "int32"), logits=output)


@keras_ops_export("nn")
def binary_crossentropy(target, output, from_logits=False):
    """-(t log p + (1 - t) log(1 - p)) element-wise, p clipped to [eps, 1 - eps]."""
    target, output = convert(target), convert(output)
    _check_same_shape(target, output)
    if from_logits:
        return tf.nn.sigmoid_cross_entropy_with_logits(labels=target, logits=output)
    eps = tf.keras.backend.epsilon()
    output = tf.clip_by_value(output, eps, 1.0 - eps)
    return -(target * tf.math.log(output) + (1 - target) * tf.math.log(1 - output))


@keras_ops_export("nn")
def moments(x, axes, keepdims=False, synchronized=False):
    """(mean, variance) over `axes`; float16 is computed in float32.

    >>> [t.numpy() for t in ops.moments(tf.constant([1.0, 2.0, 3.0]), axes=[0])]
    [np.float32(2.0), np.float32(0.6666667)]
    """
    x = convert(x)
    dtype = x.dtype.name
    if dtype == "float16":
        x = tf.cast(x, "float32")
    mean = tf.reduce_mean(x, axis=axes, keepdims=True)
    variance = tf.reduce_mean(tf.square(x - tf.stop_gradient(mean)), axis=axes,
                              keepdims=True)
    if not keepdims:
        mean, variance = tf.squeeze(mean, axes), tf.squeeze(variance, axes)
    if dtype == "float16":
        mean, variance = tf.cast(mean, dtype), tf.cast(variance, dtype)
    return mean, variance


@keras_ops_export("nn")
def batch_normalization(x, mean, variance, axis, offset=None, scale=None, epsilon=1e-3):
    """(x - mean) / sqrt(variance + epsilon) * scale + offset, stats along `axis`."""
    x = convert(x)
    shape = [1] * x.shape.rank
    shape[axis] = x.shape[axis]

    def along(v):
        return None if v is None else tf.reshape(convert(v, x.dtype), shape)

    return tf.nn.batch_normalization(x, along(mean), along(variance), along(offset),
                                     along(scale), epsilon)


@keras_ops_export("nn")
def normalize(x, axis=-1, order=2, epsilon=None):
    """x divided by its `order`-norm along `axis` (at least `epsilon`).

    >>> ops.normalize(tf.constant([[3.0, 4.0]]))
    <tf.Tensor: shape=(1, 2), dtype=float32, numpy=array([[0.6, 0.8]], dtype=float32)>
    """
    if not isinstance(order, int) or not order >= 1:
        raise ValueError(f"Argument `order` must be an int >= 1. Received: order={order}")
    x = convert(x)
    if "float" not in x.dtype.name:
        x = tf.cast(x, tf.keras.backend.floatx())
    if x.shape.rank == 0:
        x = tf.expand_dims(x, 0)
    epsilon = tf.keras.backend.epsilon() if epsilon is None else epsilon
    if order == 2:  # Keras caps 1/norm at 1/epsilon (not the squared sum at epsilon)
        square_sum = tf.reduce_sum(tf.square(x), axis=axis, keepdims=True)
        return x * tf.minimum(tf.math.rsqrt(square_sum), 1.0 / epsilon)
    norm = tf.linalg.norm(x, ord=order, axis=axis, keepdims=True)
    return x / tf.maximum(norm, epsilon)


@keras_ops_export("nn")
def layer_normalization(x, gamma=None, beta=None, axis=-1, epsilon=None, **kwargs):
    """(x - mean) / sqrt(var + epsilon) over `axis`, then * gamma + beta (float16 in float32)."""
    x = convert(x)
    dtype = x.dtype.name
    x = convert(x, result_type(dtype, "float32"))
    epsilon = tf.keras.backend.epsilon() if epsilon is None else epsilon
    axes = sorted(axis) if isinstance(axis, (list, tuple)) else [axis]
    mean, variance = moments(x, axes, keepdims=True)
    out = (x - mean) * tf.math.rsqrt(variance + epsilon)
    if gamma is not None:
        out = out * convert(gamma, x.dtype)
    if beta is not None:
        out = out + convert(beta, x.dtype)
    return tf.cast(out, dtype)


@keras_ops_export("nn")
def rms_normalization(x, scale=None, axis=-1, epsilon=None):
    """x / sqrt(mean(x**2) + epsilon) over `axis`, times `scale`."""
    x = convert(x)
    epsilon = tf.keras.backend.epsilon() if epsilon is None else epsilon
    out = x * tf.math.rsqrt(tf.reduce_mean(tf.square(x), axis=axis, keepdims=True) + epsilon)
    return out if scale is None else out * convert(scale, x.dtype)


@keras_ops_export("nn")
def psnr(x1, x2, max_val):
    """Peak signal-to-noise ratio, in dB: 20 log10(max_val) - 10 log10(mse)."""
    x1, x2 = convert(x1), convert(x2)
    if x1.shape != x2.shape:
        raise ValueError(f"Input shapes {x1.shape} and {x2.shape} must match for PSNR "
                         "calculation.")
    mse = tf.reduce_mean(tf.square(x1 - x2))
    log10 = math.log(10.0)
    return 20 * tf.math.log(convert(max_val, x2.dtype)) / log10 - 10 * tf.math.log(mse) / log10
