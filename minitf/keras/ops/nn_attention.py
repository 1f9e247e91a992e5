"""`keras.ops.nn`: dot_product_attention, conv_transpose, depth_to_space, space_to_depth.

>>> import minitf as tf
>>> from minitf.keras import ops
>>> q = tf.ones((1, 2, 1, 4))                     # (batch, steps, heads, head size)
>>> ops.dot_product_attention(q, q, tf.reshape(tf.range(8.0), (1, 2, 1, 4))).numpy()[0, :, 0]
array([[2., 3., 4., 5.],
       [2., 3., 4., 5.]], dtype=float32)
"""
import math

import numpy as np

import minitf as tf

from ._export import keras_ops_export
from .. import ops  # noqa: F401 - the examples below call ops.*
from .dtype_rules import convert
from .nn_conv import _channels_last, _padding, _tuple


@keras_ops_export("nn")
def dot_product_attention(query, key, value, bias=None, mask=None, scale=None, is_causal=False,
                          flash_attention=None, attn_logits_soft_cap=None):
    """softmax(q k^T * scale + bias, masked) v, for (batch, steps, heads, size) tensors.

    `mask` is True where attention is allowed; `is_causal` lets step t see steps <= t.
    """
    if flash_attention:
        raise ValueError("Flash attention is not supported in minitf (and not on CPU in TF).")
    query, key, value = convert(query), convert(key), convert(value)
    scale = 1.0 / math.sqrt(query.shape[-1]) if scale is None else scale
    logits = tf.einsum("BTNH,BSNH->BNTS", query, key) * tf.cast(scale, query.dtype)
    if attn_logits_soft_cap is not None:
        logits = attn_logits_soft_cap * tf.tanh(logits / attn_logits_soft_cap)
    if bias is not None:
        logits = logits + convert(bias, logits.dtype)
    allowed = None if mask is None else tf.cast(convert(mask), "bool")
    if is_causal:
        t, s = logits.shape.as_list()[-2:]
        causal = tf.constant(np.tril(np.ones((t, s), bool)))
        allowed = causal if allowed is None else tf.logical_and(allowed, causal)
    if allowed is not None:
        large_negative = tf.constant(-0.7 * np.finfo(logits.dtype.name).max, logits.dtype)
        logits = tf.where(allowed, logits, large_negative)
    weights = tf.nn.softmax(logits, axis=-1)
    return tf.einsum("BNTS,BSNH->BTNH", weights, value)


@keras_ops_export("nn")
def conv_transpose(inputs, kernel, strides=1, padding="valid", output_padding=None,
                   data_format=None, dilation_rate=1):
    """The transpose (gradient) of `conv`: kernel (*spatial, out_channels, in_channels)."""
    if output_padding is not None:
        raise NotImplementedError("minitf's conv_transpose takes output_padding=None.")
    x, undo = _channels_last(inputs, data_format)
    kernel = convert(kernel, x.dtype)
    n = x.shape.rank - 2
    strides, dilations = _tuple(strides, n), _tuple(dilation_rate, n)
    spatial = []
    for size, k, s, d in zip(x.shape.as_list()[1:-1], kernel.shape.as_list()[:n], strides,
                             dilations):
        k = (k - 1) * d + 1
        spatial.append(size * s if padding.lower() == "same" else (size - 1) * s + k)
    shape = [x.shape[0], *spatial, kernel.shape[-2]]
    return undo(tf.nn.conv_transpose(x, kernel, shape, strides, padding=_padding(padding),
                                     dilations=dilations))


@keras_ops_export("nn")
def depth_to_space(x, block_size, data_format="channels_last"):
    """Channels moved into block_size x block_size spatial blocks (DCR order, as TF).

    >>> ops.depth_to_space(tf.reshape(tf.range(4), (1, 1, 1, 4)), 2)[0, ..., 0]
    <tf.Tensor: shape=(2, 2), dtype=int32, numpy=
    array([[0, 1],
           [2, 3]], dtype=int32)>
    """
    x, undo = _channels_last(x, data_format)
    n, h, w, c = x.shape.as_list()
    b = block_size
    y = tf.reshape(x, [n, h, w, b, b, c // (b * b)])
    y = tf.transpose(y, [0, 1, 3, 2, 4, 5])
    return undo(tf.reshape(y, [n, h * b, w * b, c // (b * b)]))


@keras_ops_export("nn")
def space_to_depth(x, block_size, data_format="channels_last"):
    """Each block_size x block_size spatial block moved into the channels (depth_to_space undone)."""
    x, undo = _channels_last(x, data_format)
    n, h, w, c = x.shape.as_list()
    b = block_size
    y = tf.reshape(x, [n, h // b, b, w // b, b, c])
    y = tf.transpose(y, [0, 1, 3, 2, 4, 5])
    return undo(tf.reshape(y, [n, h // b, w // b, b * b * c]))
