"""`tf.keras.backend` activations, losses, normalization, convolution and pooling.

The losses here are Keras 1/2's per-sample forms: no reduction, and
probabilities (`from_logits=False`) are clipped to [epsilon, 1 - epsilon]
before the log, so a 0 or a 1 gives a large finite loss instead of inf.
`categorical_crossentropy` also rescales `output` to sum to 1 along `axis`.
Convolutions take Keras's names: padding 'valid'/'same' (and 'causal' for
conv1d), `data_format` 'channels_last'/'channels_first' (default:
`image_data_format()`).

>>> import minitf as tf
>>> K = tf.keras.backend
>>> K.binary_crossentropy(tf.constant([1.0, 0.0]), tf.constant([1.0, 0.0])).numpy()
array([-0., -0.], dtype=float32)
>>> K.relu(tf.constant([-2.0, 1.0, 8.0]), alpha=0.5, max_value=6.0).numpy()
array([-1.,  1.,  6.], dtype=float32)
"""
import itertools

import numpy as np

import minitf as tf

from ...framework.tf_export import tf_export
from . import _SETTINGS
from .array_ops import _data_format


def _eps(dtype):
    return tf.convert_to_tensor(_SETTINGS["epsilon"], dtype)


@tf_export("keras.backend.relu")
def relu(x, alpha=0.0, max_value=None, threshold=0.0):
    """max(x, 0), with slope `alpha` below `threshold` and a cap at `max_value`."""
    dtype = getattr(x, "dtype", _SETTINGS["floatx"])
    if alpha != 0.0:
        if max_value is None and threshold == 0:
            return tf.nn.leaky_relu(x, alpha=alpha)
        negative_part = tf.nn.relu(-x + threshold) if threshold != 0 else tf.nn.relu(-x)
    clip_max = max_value is not None
    if threshold != 0:
        x = x * tf.cast(tf.greater(x, threshold), dtype=dtype)
    elif max_value == 6:
        x, clip_max = tf.nn.relu6(x), False
    else:
        x = tf.nn.relu(x)
    if clip_max:
        x = tf.clip_by_value(x, tf.convert_to_tensor(0, x.dtype),
                             tf.convert_to_tensor(max_value, x.dtype))
    if alpha != 0.0:
        x -= tf.convert_to_tensor(alpha, x.dtype) * negative_part
    return x


@tf_export("keras.backend.elu")
def elu(x, alpha=1.0):
    """x for x > 0, alpha * (exp(x) - 1) otherwise."""
    res = tf.nn.elu(x)
    return res if alpha == 1 else tf.where(x > 0, res, alpha * res)


@tf_export("keras.backend.sigmoid")
def sigmoid(x):
    """1 / (1 + exp(-x))."""
    return tf.sigmoid(x)


@tf_export("keras.backend.hard_sigmoid")
def hard_sigmoid(x):
    """clip(0.2 * x + 0.5, 0, 1): Keras 2's piecewise-linear sigmoid."""
    x = tf.multiply(x, tf.convert_to_tensor(0.2, x.dtype))
    return tf.clip_by_value(tf.add(x, tf.convert_to_tensor(0.5, x.dtype)), 0.0, 1.0)


@tf_export("keras.backend.softmax")
def softmax(x, axis=-1):
    """Softmax along `axis` (an int or a list of axes); a 1-D x is refused."""
    if x.shape.rank <= 1:
        raise ValueError(f"Cannot apply softmax to a tensor that is 1D. Received input: {x}")
    if isinstance(axis, int):
        return tf.nn.softmax(x, axis=axis)
    numerator = tf.exp(x - tf.reduce_max(x, axis=axis, keepdims=True))
    return numerator / tf.reduce_sum(numerator, axis=axis, keepdims=True)


@tf_export("keras.backend.softplus")
def softplus(x):
    """log(1 + exp(x))."""
    return tf.math.softplus(x)


@tf_export("keras.backend.softsign")
def softsign(x):
    """x / (1 + |x|)."""
    return tf.math.softsign(x)


@tf_export("keras.backend.l2_normalize")
def l2_normalize(x, axis=None):
    """x / sqrt(max(sum(x**2), 1e-12)) along `axis`."""
    return tf.linalg.l2_normalize(x, axis=axis)


@tf_export("keras.backend.in_top_k")
def in_top_k(predictions, targets, k):
    """Whether each target class is among the k largest predictions (bool)."""
    return tf.math.in_top_k(targets, predictions, k)


@tf_export("keras.backend.bias_add")
def bias_add(x, bias, data_format=None):
    """x + bias on the channels axis (a bias of rank ndim(x) - 1 is broadcast as a whole)."""
    data_format = _data_format(data_format)
    bias_shape, rank = tuple(bias.shape.as_list()), x.shape.rank
    if len(bias_shape) not in (1, rank - 1):
        raise ValueError(f"Unexpected bias dimensions {len(bias_shape)}. "
                         f"Expected it to be 1 or {rank - 1} dimensions")
    if len(bias_shape) == 1:
        if data_format == "channels_first" and rank > 2:
            return x + tf.reshape(bias, (1, bias_shape[0]) + (1,) * (rank - 2))
        return tf.nn.bias_add(x, bias)
    if data_format == "channels_first":
        return x + tf.reshape(bias, (1, bias_shape[-1]) + bias_shape[:-1])
    return x + tf.reshape(bias, (1,) + bias_shape)


@tf_export("keras.backend.batch_normalization")
def batch_normalization(x, mean, var, beta, gamma, axis=-1, epsilon=1e-3):
    """(x - mean) / sqrt(var + epsilon) * gamma + beta (`axis` is unused, as in Keras)."""
    return tf.nn.batch_normalization(x, mean, var, beta, gamma, epsilon)


@tf_export("keras.backend.dropout")
def dropout(x, level, noise_shape=None, seed=None):
    """Zero a fraction `level` of entries and scale the rest by 1 / (1 - level)."""
    seed = np.random.randint(10e6) if seed is None else seed
    return tf.nn.dropout(x, rate=level, noise_shape=noise_shape, seed=seed)


@tf_export("keras.backend.binary_crossentropy")
def binary_crossentropy(target, output, from_logits=False):
    """-(t log p + (1 - t) log(1 - p)) per entry, p clipped to [eps, 1 - eps]."""
    target, output = tf.convert_to_tensor(target), tf.convert_to_tensor(output)
    if from_logits:
        return tf.nn.sigmoid_cross_entropy_with_logits(labels=target, logits=output)
    eps = _SETTINGS["epsilon"]
    output = tf.clip_by_value(output, _eps(output.dtype), 1.0 - _eps(output.dtype))
    bce = target * tf.math.log(output + eps)
    bce += (1 - target) * tf.math.log(1 - output + eps)
    return -bce


@tf_export("keras.backend.binary_focal_crossentropy")
def binary_focal_crossentropy(target, output, apply_class_balancing=False, alpha=0.25,
                              gamma=2.0, from_logits=False):
    """(1 - p_t)**gamma * binary_crossentropy: easy examples count less."""
    sigmoidal = tf.sigmoid(output) if from_logits else output
    p_t = target * sigmoidal + (1 - target) * (1 - sigmoidal)
    focal_bce = tf.pow(1.0 - p_t, gamma) * binary_crossentropy(target, output, from_logits)
    if apply_class_balancing:
        focal_bce = (target * alpha + (1 - target) * (1 - alpha)) * focal_bce
    return focal_bce


def _normalized_probabilities(target, output, axis):
    target, output = tf.convert_to_tensor(target), tf.convert_to_tensor(output)
    target.shape.assert_is_compatible_with(output.shape)
    output = output / tf.reduce_sum(output, axis, True)
    return target, tf.clip_by_value(output, _eps(output.dtype), 1.0 - _eps(output.dtype))


@tf_export("keras.backend.categorical_crossentropy")
def categorical_crossentropy(target, output, from_logits=False, axis=-1):
    """-sum(target * log(output)) along `axis`, output rescaled to sum to 1 and clipped."""
    if from_logits:
        return tf.nn.softmax_cross_entropy_with_logits(labels=target, logits=output, axis=axis)
    target, output = _normalized_probabilities(target, output, axis)
    return -tf.reduce_sum(target * tf.math.log(output), axis)


@tf_export("keras.backend.categorical_focal_crossentropy")
def categorical_focal_crossentropy(target, output, alpha=0.25, gamma=2.0, from_logits=False,
                                   axis=-1):
    """sum(alpha * (1 - p)**gamma * -target * log(p)) along `axis`."""
    if from_logits:
        output = tf.nn.softmax(output, axis=axis)
    target, output = _normalized_probabilities(target, output, axis)
    cce = -target * tf.math.log(output)
    weight = tf.multiply(tf.pow(1.0 - output, gamma), alpha)
    return tf.reduce_sum(tf.multiply(weight, cce), axis=axis)


@tf_export("keras.backend.sparse_categorical_crossentropy")
def sparse_categorical_crossentropy(target, output, from_logits=False, axis=-1,
                                    ignore_class=None):
    """-log(output[target]) with integer targets; `ignore_class` entries give 0."""
    target = tf.cast(tf.convert_to_tensor(target), "int64")
    output = tf.convert_to_tensor(output)
    if not from_logits:
        output = tf.math.log(tf.clip_by_value(output, _eps(output.dtype),
                                              1 - _eps(output.dtype)))
    rank = output.shape.rank
    axis %= rank
    if axis != rank - 1:
        output = tf.transpose(output, list(itertools.chain(range(axis), range(axis + 1, rank),
                                                           [axis])))
    output_shape = tf.shape(output)
    update_shape = target.shape.rank != rank - 1
    if update_shape:
        target = tf.reshape(target, [-1])
        output = tf.reshape(output, [-1, output_shape[-1]])
    if ignore_class is not None:
        valid = tf.not_equal(target, tf.cast(ignore_class, target.dtype))
        safe = tf.where(valid, target, tf.zeros_like(target))
        res = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=safe, logits=output)
        res = tf.where(valid, res, tf.zeros_like(res))
        return tf.reshape(res, output_shape[:-1])
    res = tf.nn.sparse_softmax_cross_entropy_with_logits(labels=target, logits=output)
    if update_shape and rank >= 3:
        res = tf.reshape(res, output_shape[:-1])
    return res


del tf_export
