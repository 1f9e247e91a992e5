"""The ops the convolution remapping (`conv_remapper.py`) puts into graphs.

`_FusedConv2D` is TensorFlow's name; the three ops that work on a window matrix
are minitf's own (TensorFlow's convolution kernels do not go through im2col).
The window matrix is the transposed one of `conv_utils.window_matrix`, built
from a channels-first, padded image (the graph makes it with `Transpose` and
`Pad` nodes). Each op runs exactly the NumPy calls of the kernels in
`minitf/ops/conv_ops.py`, so a rewritten graph gives the same numbers:

>>> import numpy as np
>>> x = np.arange(2 * 3 * 3 * 1, dtype=np.float32).reshape(2, 3, 3, 1)
>>> patches = ConvPatches.forward(x.transpose(3, 0, 1, 2), ksize=(2, 2), strides=(1, 1),
...                               dilations=(1, 1))
>>> patches.shape                       # 2x2 taps x 1 channel, 2 images x 2x2 positions
(4, 8)
>>> y = Conv2DFromPatches.forward(patches, np.ones((2, 2, 1, 1), np.float32),
...                               output_spatial=(2, 2), fused_ops=())
>>> attrs = dict(strides=(1, 1, 1, 1), padding="VALID", explicit_paddings=(),
...              dilations=(1, 1, 1, 1))
>>> np.array_equal(y, Conv2D.forward(x, np.ones((2, 2, 1, 1), np.float32), **attrs))
True
"""
import numpy as np

from ..framework import dtypes
from ..framework.op import Op, usable_out
from ..framework.tensor_shape import TensorShape
from ..ops.conv_ops import Conv2D
from ..ops.conv_utils import output_size, window_matrix
from .remapper import bias_and_activation


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


def _patches_forward(xt, ksize, strides, dilations, out=None):
    """The transposed window matrix [kh * kw * C, N * out_h * out_w] of a padded
    channels-first image [C, N, H, W], written into `out` (the matrix this node made
    in an earlier run) when it fits: refilling it costs no fresh memory."""
    return window_matrix(xt, ksize, strides, dilations, out=out)


def _patches_shape(xt, ksize, strides, dilations):
    c, n, *spatial = xt.as_list()
    out = [None if size is None else output_size("_ConvPatches", size, k, s, d, "VALID")
           for size, k, s, d in zip(spatial, ksize, strides, dilations)]
    rows = None if None in (n, *out) else n * out[0] * out[1]
    return TensorShape([None if c is None else ksize[0] * ksize[1] * c, rows])


ConvPatches = Op("_ConvPatches", _patches_forward, dtypes=dtypes.FLOATING, shape=_patches_shape,
                 accepts_out=True)


def _from_patches_forward(patches, f, *bias, output_spatial, fused_ops, leakyrelu_alpha=0.2,
                          flip_filter=False, out=None):
    """`patches.T @ filters` (what Conv2D computes after im2col), bias and activation.
    `flip_filter`: use the filter turned by 180 degrees with its channel axes swapped
    (a Conv2DBackpropInput: the gradient flows back through the same taps)."""
    if flip_filter:
        f = f[::-1, ::-1].swapaxes(2, 3)
    o = f.shape[-1]
    rows = patches.shape[1]
    n = rows // (output_spatial[0] * output_spatial[1]) if rows else 0
    buffer = usable_out(out, (n, *output_spatial, o), np.result_type(patches, f))
    y = np.matmul(patches.T, f.reshape(-1, o),
                  out=None if buffer is None else buffer.reshape(rows, o))
    if fused_ops:
        y = bias_and_activation(y, bias[0], fused_ops, leakyrelu_alpha)
    return y.reshape(-1, *output_spatial, o)


def _from_patches_shape(patches, f, *bias, output_spatial, fused_ops, leakyrelu_alpha=0.2,
                        flip_filter=False):
    rows, out = patches[1], output_spatial[0] * output_spatial[1]
    return TensorShape([None if rows is None else rows // out, *output_spatial,
                        f[-2] if flip_filter else f[-1]])


Conv2DFromPatches = Op("_Conv2DFromPatches", _from_patches_forward, dtypes=dtypes.FLOATING,
                       shape=_from_patches_shape, accepts_out=True)


def _filter_from_patches_forward(patches, dy, filter_sizes):
    """`patches @ dy`: Conv2DBackpropFilter's product, on an existing window matrix."""
    if dy.size == 0:
        return np.zeros(filter_sizes, dtype=patches.dtype)
    return (patches @ dy.reshape(-1, filter_sizes[-1])).reshape(filter_sizes)


Conv2DBackpropFilterFromPatches = Op(
    "_Conv2DBackpropFilterFromPatches", _filter_from_patches_forward, dtypes=dtypes.FLOATING,
    shape=lambda patches, dy, filter_sizes: TensorShape(list(filter_sizes)))
