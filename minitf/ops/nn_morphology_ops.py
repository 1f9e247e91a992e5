"""Grayscale morphology in `tf.nn`: dilation2d and erosion2d.

Dilation is convolution with (max, +) in place of (sum, *):

    out[b, y, x, c] = max over (dy, dx) of
                      input[b, y*sh + dy*rh, x*sw + dx*rw, c] + filters[dy, dx, c]

(positions in the padding are skipped), and erosion is its mirror image,
-dilation(-input, filters flipped).

>>> import minitf as tf
>>> image = tf.reshape(tf.constant([0.0, 5.0, 1.0, 2.0]), [1, 1, 4, 1])
>>> tf.nn.dilation2d(image, tf.zeros([1, 2, 1]), [1, 1, 1, 1], "VALID", "NHWC",
...                  [1, 1, 1, 1])[0, 0, :, 0].numpy()
array([5., 5., 2.], dtype=float32)

The gradient of a max goes to the position that won (the first, on ties), as in
TF's Dilation2DBackpropInput and Dilation2DBackpropFilter.
"""
import numpy as np

from ..framework import dtypes, errors
from ..framework.op import Op, apply
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export
from .manipulation_ops import reverse

_DTYPES = dtypes.REAL


def _geometry(size, window, stride, rate, padding):
    """(output size, padding before) of one spatial axis, as TF's conv windows."""
    effective = (window - 1) * rate + 1
    if padding == "VALID":
        return max((size - effective) // stride + 1, 0), 0
    out = -(-size // stride)
    return out, max((out - 1) * stride + effective - size, 0) // 2


def _windows(x, filters, strides, rates, padding):
    """Yield (k, values) for each filter tap k: the shifted, strided input plus its weight;
    and the geometry needed to put gradients back."""
    _, height, width, _ = x.shape
    fh, fw, _ = filters.shape
    out_h, top = _geometry(height, fh, strides[0], rates[0], padding)
    out_w, left = _geometry(width, fw, strides[1], rates[1], padding)
    low = np.finfo(x.dtype).min if x.dtype.kind == "f" else np.iinfo(x.dtype).min
    pad_h = max((out_h - 1) * strides[0] + (fh - 1) * rates[0] + 1 - height - top, 0)
    pad_w = max((out_w - 1) * strides[1] + (fw - 1) * rates[1] + 1 - width - left, 0)
    padded = np.pad(x, [(0, 0), (top, pad_h), (left, pad_w), (0, 0)], constant_values=low)
    inside = np.pad(np.ones(x.shape[1:3], bool), [(top, pad_h), (left, pad_w)])
    geometry = (out_h, out_w, top, left, padded.shape)
    for dy in range(fh):
        for dx in range(fw):
            rows = slice(dy * rates[0], dy * rates[0] + (out_h - 1) * strides[0] + 1, strides[0])
            cols = slice(dx * rates[1], dx * rates[1] + (out_w - 1) * strides[1] + 1, strides[1])
            yield dy * fw + dx, (rows, cols), padded[:, rows, cols] + filters[dy, dx], \
                inside[rows, cols], geometry


def _dilation_forward(x, filters, strides, rates, padding):
    best = winner = None
    for k, _, values, inside, (out_h, out_w, *_) in _windows(x, filters, strides, rates,
                                                             padding):
        if best is None:
            best = np.full((x.shape[0], out_h, out_w, x.shape[3]),
                           np.finfo(x.dtype).min if x.dtype.kind == "f"
                           else np.iinfo(x.dtype).min, x.dtype)
            winner = np.full(best.shape, -1, np.int64)
        better = inside[None, :, :, None] & ((values > best) | (winner < 0))
        best = np.where(better, values, best)
        winner = np.where(better, k, winner)
    return best.astype(x.dtype), winner


def _dilation_shape(x, filters, strides, rates, padding):
    if x.rank is not None and filters.rank is not None and None not in (x.dims[3],
                                                                       filters.dims[2]) \
            and x.dims[3] != filters.dims[2]:
        raise errors.op_error(errors.InvalidArgumentError, "Dilation2D",
                              "input and filter must have the same depth: "
                              f"{x.dims[3]} vs {filters.dims[2]}",
                              "filters is [height, width, depth], one 2-D filter per channel.")
    if x.rank is None or filters.rank is None or None in x.dims[1:3] + filters.dims[:2]:
        return TensorShape([None] * 4)
    out_h, _ = _geometry(x.dims[1], filters.dims[0], strides[0], rates[0], padding)
    out_w, _ = _geometry(x.dims[2], filters.dims[1], strides[1], rates[1], padding)
    return TensorShape([x.dims[0], out_h, out_w, x.dims[3]])


Dilation2D = Op("Dilation2D", _dilation_forward, dtypes=_DTYPES, shape=_dilation_shape,
                saves=True)


def _backprop_forward(x, filters, dy, winner, strides, rates, padding):
    """(d input, d filters): each output's gradient goes to its winning tap."""
    d_padded = d_filters = None
    for k, (rows, cols), _, _, (_, _, top, left, shape) in _windows(x, filters, strides, rates,
                                                                    padding):
        if d_padded is None:
            d_padded = np.zeros(shape, dy.dtype)
            d_filters = np.zeros(filters.shape, dy.dtype)
        mine = np.where(winner == k, dy, 0)
        d_padded[:, rows, cols] += mine
        d_filters[k // filters.shape[1], k % filters.shape[1]] = mine.sum(axis=(0, 1, 2))
    d_input = d_padded[:, top:top + x.shape[1], left:left + x.shape[2]]
    return np.ascontiguousarray(d_input), d_filters


Dilation2DBackprop = Op("Dilation2DBackprop", _backprop_forward, typed=(0, 1, 2), num_outputs=2,
                        shape=lambda x, f, dy, w, **attrs: (x, f))


@Dilation2D.def_grad
def _dilation_grad(op, dy):
    x, filters = op.inputs
    winner = convert_to_tensor(op.saved)
    return apply(Dilation2DBackprop, [x, filters, dy, winner], op.attrs)


def _attrs(strides, padding, data_format, dilations):
    if data_format != "NHWC":
        raise ValueError("`data_format` values other  than 'NHWC' are not supported. "
                         f"Received: data_format={data_format}")
    for attr, values in (("strides", strides), ("rates", dilations)):
        values = list(values)
        if len(values) < 4:
            raise errors.op_error(errors.InvalidArgumentError, "Dilation2D",
                                  f"Length for attr '{attr}' of {len(values)} must be at least "
                                  "minimum 4", f"{attr} is [1, height, width, 1].")
        if values[0] != 1 or values[3] != 1:
            raise errors.op_error(errors.UnimplementedError, "Dilation2D",
                                  "Stride is only supported across spatial dimensions.",
                                  f"Give {attr} as [1, height, width, 1].")
    if padding not in ("SAME", "VALID"):
        raise errors.op_error(errors.InvalidArgumentError, "Dilation2D",
                              f"Value for attr 'padding' of \"{padding}\" is not in the list of "
                              "allowed values: \"SAME\", \"VALID\"", "Pick SAME or VALID.")
    return {"strides": (int(strides[1]), int(strides[2])),
            "rates": (int(dilations[1]), int(dilations[2])), "padding": padding}


@tf_export("nn.dilation2d")
def dilation2d(input, filters, strides, padding, data_format, dilations, name=None):  # noqa: A002
    """Grayscale dilation of NHWC `input` by `filters` [height, width, depth] (a max of
    input + filter over each window; see the module docstring). strides and dilations are
    [1, height, width, 1]; padding "SAME" or "VALID"; data_format must be "NHWC".

    >>> tf.nn.dilation2d(tf.ones([1, 3, 3, 1]), tf.ones([2, 2, 1]), [1, 1, 1, 1], "SAME",
    ...                  "NHWC", [1, 1, 1, 1]).shape
    TensorShape([1, 3, 3, 1])
    """
    attrs = _attrs(strides, padding, data_format, dilations)
    x, filters = convert_to_tensor(input), convert_to_tensor(filters)
    _dilation_shape(x.shape, filters.shape, **attrs)
    return apply(Dilation2D, [x, filters], attrs)


@tf_export("nn.erosion2d")
def erosion2d(value, filters, strides, padding, data_format, dilations, name=None):
    """Grayscale erosion: a min of value - filter over each window, computed as TF does,
    -dilation2d(-value, filters flipped in height and width).

    >>> image = tf.reshape(tf.constant([3.0, 5.0, 1.0, 2.0]), [1, 1, 4, 1])
    >>> tf.nn.erosion2d(image, tf.zeros([1, 2, 1]), [1, 1, 1, 1], "VALID", "NHWC",
    ...                 [1, 1, 1, 1])[0, 0, :, 0].numpy()
    array([3., 1., 1.], dtype=float32)
    """
    if data_format != "NHWC":
        raise ValueError("`data_format` values other  than 'NHWC' are not supported. "
                         f"Received: data_format={data_format}")
    value, filters = convert_to_tensor(value), convert_to_tensor(filters)
    return -dilation2d(-value, reverse(filters, [0, 1]), strides, padding, data_format,
                       dilations)
