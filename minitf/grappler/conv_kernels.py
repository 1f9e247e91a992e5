"""The ops the convolution remapping (`conv_remapper.py`) puts into graphs.

`_FusedConv2D` is TensorFlow's name; the three ops that work on a window matrix
are minitf's own (TensorFlow's convolution kernels do not go through im2col).
Each runs exactly the NumPy calls of the kernels in `minitf/ops/conv_ops.py`,
so a rewritten graph gives the same numbers:

>>> import numpy as np
>>> x = np.arange(2 * 3 * 3 * 1, dtype=np.float32).reshape(2, 3, 3, 1)
>>> attrs = dict(strides=(1, 1, 1, 1), padding="VALID", explicit_paddings=(),
...              dilations=(1, 1, 1, 1))
>>> patches = ConvPatches.forward(x, ksize=(2, 2), **attrs)
>>> patches.shape                       # 2 images x 2x2 positions, 2x2 taps x 1 channel
(8, 4)
>>> y = Conv2DFromPatches.forward(patches, np.ones((2, 2, 1, 1), np.float32),
...                               output_spatial=(2, 2), fused_ops=())
>>> np.array_equal(y, Conv2D.forward(x, np.ones((2, 2, 1, 1), np.float32), **attrs))
True
"""
import numpy as np

from ..framework import dtypes
from ..framework.op import Op, usable_out
from ..framework.tensor_shape import TensorShape
from ..ops.conv_ops import Conv2D
from ..ops.conv_utils import output_spatial, pad_spatial, spatial_pads, windows
from .remapper import bias_and_activation


def patch_rows(shape, attrs):
    """Rows of the window matrix: batch x output positions (None: batch unknown)."""
    n = shape[0]
    out = output_spatial("Conv2D", shape.as_list()[1:3], attrs["ksize"],
                         attrs["strides"][1:3], attrs["dilations"][1:3], attrs["padding"],
                         attrs["explicit_paddings"])
    return None if n is None else n * out[0] * out[1]


# --- the ops (minitf's own, except _FusedConv2D, which is TensorFlow's) -----------------
def _fused_conv2d_forward(x, f, bias, strides, padding, explicit_paddings, dilations,
                          fused_ops, leakyrelu_alpha=0.2):
    """Conv2D's forward (its checks included), then bias and activation in place."""
    y = Conv2D.forward(x, f, strides=strides, padding=padding,
                       explicit_paddings=explicit_paddings, dilations=dilations)
    return bias_and_activation(y, bias, fused_ops, leakyrelu_alpha)


def _fused_conv2d_shape(x, f, bias, fused_ops, leakyrelu_alpha=0.2, **attrs):
    return Conv2D.shape(x, f, **attrs)


FusedConv2D = Op("_FusedConv2D", _fused_conv2d_forward, dtypes=dtypes.FLOATING,
                 shape=_fused_conv2d_shape)


def _patches_forward(x, ksize, strides, padding, explicit_paddings, dilations, out=None):
    """The window matrix [N * out_h * out_w, kh * kw * C] of Conv2D's forward, written
    into `out` (the matrix this node made in an earlier run) when it fits: refilling
    it costs no fresh memory (see `executor.py`)."""
    s, d = strides[1:3], dilations[1:3]
    out_spatial = output_spatial("Conv2D", x.shape[1:3], ksize, s, d, padding,
                                 explicit_paddings)
    rows, width = x.shape[0] * out_spatial[0] * out_spatial[1], ksize[0] * ksize[1] * x.shape[3]
    if x.size == 0:
        return np.zeros((rows, width), x.dtype)
    pads = spatial_pads(x.shape[1:3], ksize, s, d, padding, explicit_paddings)
    view = windows(pad_spatial(x, pads), ksize, s, d)               # [N, *out, *K, C]
    buffer = usable_out(out, (rows, width), x.dtype)
    buffer = np.empty(view.shape, x.dtype) if buffer is None else buffer.reshape(view.shape)
    np.copyto(buffer, view)                                          # im2col's one copy
    return buffer.reshape(rows, width)


def _patches_shape(x, ksize, **attrs):
    rows = patch_rows(x, dict(attrs, ksize=ksize))
    return TensorShape([rows, ksize[0] * ksize[1] * x[3]])


ConvPatches = Op("_ConvPatches", _patches_forward, dtypes=dtypes.FLOATING, shape=_patches_shape,
                 accepts_out=True)


def _from_patches_forward(patches, f, *bias, output_spatial, fused_ops, leakyrelu_alpha=0.2,
                          flip_filter=False, out=None):
    """`patches @ filters` (what Conv2D computes after im2col), bias and activation.
    `flip_filter`: use the filter turned by 180 degrees with its channel axes swapped
    (a Conv2DBackpropInput: the gradient flows back through the same taps)."""
    if flip_filter:
        f = f[::-1, ::-1].swapaxes(2, 3)
    o = f.shape[-1]
    rows = patches.shape[0]
    n = rows // (output_spatial[0] * output_spatial[1]) if rows else 0
    buffer = usable_out(out, (n, *output_spatial, o), np.result_type(patches, f))
    y = np.matmul(patches, f.reshape(-1, o),
                  out=None if buffer is None else buffer.reshape(rows, o))
    if fused_ops:
        y = bias_and_activation(y, bias[0], fused_ops, leakyrelu_alpha)
    return y.reshape(-1, *output_spatial, o)


def _from_patches_shape(patches, f, *bias, output_spatial, fused_ops, leakyrelu_alpha=0.2,
                        flip_filter=False):
    rows, out = patches[0], output_spatial[0] * output_spatial[1]
    return TensorShape([None if rows is None else rows // out, *output_spatial,
                        f[-2] if flip_filter else f[-1]])


Conv2DFromPatches = Op("_Conv2DFromPatches", _from_patches_forward, dtypes=dtypes.FLOATING,
                       shape=_from_patches_shape, accepts_out=True)


def _filter_from_patches_forward(patches, dy, filter_sizes):
    """`patches.T @ dy`: Conv2DBackpropFilter's product, on an existing window matrix."""
    if dy.size == 0:
        return np.zeros(filter_sizes, dtype=patches.dtype)
    return (patches.T @ dy.reshape(-1, filter_sizes[-1])).reshape(filter_sizes)


Conv2DBackpropFilterFromPatches = Op(
    "_Conv2DBackpropFilterFromPatches", _filter_from_patches_forward, dtypes=dtypes.FLOATING,
    shape=lambda patches, dy, filter_sizes: TensorShape(list(filter_sizes)))
