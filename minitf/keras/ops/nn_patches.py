"""`keras.ops.nn`: adaptive pooling, unfold (im2col) and fold (col2im).

Adaptive pooling picks the windows from the output size, as PyTorch does:
output cell i covers input [floor(i L / n), ceil((i + 1) L / n)). `unfold`
takes (N, C, H, W) images to (N, C*kh*kw, L) columns of patches and `fold`
adds such columns back into an image, overlapping entries summed.

>>> import minitf as tf
>>> from minitf.keras import ops
>>> ops.adaptive_average_pool(tf.reshape(tf.range(5.0), (1, 5, 1)), 2).numpy().ravel()
array([1., 3.], dtype=float32)
>>> ops.unfold(tf.reshape(tf.range(9.0), (1, 1, 3, 3)), 2).shape
TensorShape([1, 4, 4])
"""
import math

import numpy as np

import minitf as tf

from ._export import keras_ops_export
from .. import ops  # noqa: F401 - the examples below call ops.*
from .dtype_rules import convert
from .nn_conv import _channels_last, _tuple


def _adaptive(reduce, inputs, output_size, data_format):
    x, undo = _channels_last(inputs, data_format)
    n = x.shape.rank - 2
    for axis, out in zip(range(1, n + 1), _tuple(output_size, n)):
        length = x.shape[axis]
        cells = []
        for i in range(out):
            start, end = (i * length) // out, math.ceil((i + 1) * length / out)
            index = [slice(None)] * x.shape.rank
            index[axis] = slice(start, end)
            cells.append(reduce(x[tuple(index)], axis=axis, keepdims=True))
        x = tf.concat(cells, axis=axis)
    return undo(x)


@keras_ops_export("nn")
def adaptive_average_pool(inputs, output_size, data_format=None):
    """Average pooling to a fixed output size, whatever the input size."""
    return _adaptive(tf.reduce_mean, inputs, output_size, data_format)


@keras_ops_export("nn")
def adaptive_max_pool(inputs, output_size, data_format=None):
    """Max pooling to a fixed output size, whatever the input size."""
    return _adaptive(tf.reduce_max, inputs, output_size, data_format)


def _geometry(height, width, kernel_size, dilation, padding, stride):
    k, d, p, s = (_tuple(v, 2) for v in (kernel_size, dilation, padding, stride))
    out = [(size + 2 * p[a] - d[a] * (k[a] - 1) - 1) // s[a] + 1
           for a, size in enumerate((height, width))]
    return k, d, p, s, out


def _patch_index(k, d, s, out):
    """For each kernel offset (ki, kj): the padded-image rows and columns it reads."""
    rows = [ki * d[0] + s[0] * np.arange(out[0]) for ki in range(k[0])]
    cols = [kj * d[1] + s[1] * np.arange(out[1]) for kj in range(k[1])]
    return rows, cols


@keras_ops_export("nn")
def unfold(x, kernel_size, dilation=1, padding=0, stride=1):
    """(N, C, H, W) -> (N, C*kh*kw, L): each column one flattened patch (PyTorch's order)."""
    x = convert(x)
    batch, channels, height, width = x.shape.as_list()
    k, d, p, s, out = _geometry(height, width, kernel_size, dilation, padding, stride)
    x = tf.pad(x, [[0, 0], [0, 0], [p[0], p[0]], [p[1], p[1]]])
    rows, cols = _patch_index(k, d, s, out)
    pieces = [tf.gather(tf.gather(x, tf.constant(r, "int32"), axis=2), tf.constant(c, "int32"),
                        axis=3) for r in rows for c in cols]
    stacked = tf.stack(pieces, axis=2)  # (N, C, kh*kw, oh, ow)
    return tf.reshape(stacked, [batch, channels * k[0] * k[1], out[0] * out[1]])


@keras_ops_export("nn")
def fold(x, output_size, kernel_size, dilation=1, padding=0, stride=1):
    """(N, C*kh*kw, L) -> (N, C, H, W): `unfold` undone, overlapping entries added."""
    x = convert(x)
    height, width = _tuple(output_size, 2)
    k, d, p, s, out = _geometry(height, width, kernel_size, dilation, padding, stride)
    batch = x.shape[0]
    channels = x.shape[1] // (k[0] * k[1])
    patches = tf.reshape(x, [batch, channels, k[0] * k[1], out[0], out[1]])
    patches = tf.transpose(patches, [2, 3, 4, 0, 1])  # (kh*kw, oh, ow, N, C)
    rows, cols = _patch_index(k, d, s, out)
    index = np.stack(np.broadcast_arrays(
        np.array([r for r in rows for _ in cols])[:, :, None],
        np.array([c for _ in rows for c in cols])[:, None, :]), axis=-1)
    padded = tf.scatter_nd(tf.constant(index, "int32"), patches,
                           [height + 2 * p[0], width + 2 * p[1], batch, channels])
    image = tf.transpose(padded, [2, 3, 0, 1])
    return image[:, :, p[0]:p[0] + height, p[1]:p[1] + width]
