"""Convolutions: `tf.nn.conv2d`, `conv1d`, `conv3d`, `convolution`, `atrous_conv2d`.

A convolution slides a small filter over the image and takes a dot product
at every position:

    y[n, i, j, o] = sum_{a, b, c} x_pad[n, i*s + a*d, j*s + b*d, c] * filters[a, b, c, o]

minitf computes it the way fast libraries do, by "im2col": gather every
window into one big matrix (`conv_utils.windows`, a strided view) and do a
single matrix product with the filters. The gradient is two more ops,
exactly as in TensorFlow:

* Conv2DBackpropInput  (dL/dx): spread each output gradient back over its
  window (one matmul, then `add_windows`, col2im: one slice-add per filter tap)
  - this is also `tf.nn.conv2d_transpose`;
* Conv2DBackpropFilter (dL/dfilters): window matrix^T @ output gradient.

Eager and graph mode run these same kernels, so a `tf.function` gives the
same numbers bit for bit.

Both are linear in each input, so their own gradients are convolutions and
backprops again - which is what makes second derivatives work.

>>> import minitf as tf
>>> x = tf.reshape(tf.range(16.0), [1, 4, 4, 1])
>>> tf.nn.conv2d(x, tf.ones([2, 2, 1, 1]), strides=2, padding="VALID")[0, :, :, 0]
<tf.Tensor: shape=(2, 2), dtype=float32, numpy=
array([[10., 18.],
       [42., 50.]], dtype=float32)>

Layouts are channels-last (NHWC) only, like TensorFlow's CPU kernels.
"""
import numpy as np

from ..framework import dtypes, errors
from ..framework.op import Op, apply
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export
from .array_ops import expand_dims, reshape, squeeze
from .conv_utils import (add_windows, channels_first, check_1d_format, check_data_format,
                         check_padding, check_rank, check_window_attr, crop_spatial,
                         expand_sequence, known, output_size, output_spatial, pad_spatial,
                         parse_padding, spatial_pads, window_matrix, windows)


# --- the NumPy kernels (any number of spatial axes, grouped when C > filter depth) ------
# im2col in a few lines: copy every window of the (padded) input into one row of a
# matrix, cols[N*out, K*C]; the convolution is then ONE matrix product cols @ f[K*C, O],
# which NumPy hands to BLAS. The copy costs about as much as reading the input K times,
# the product does all the arithmetic at full speed - far faster than a loop over pixels.
# Ungrouped convolutions build the same matrix transposed, [K*C, N*out]
# (`conv_utils.window_matrix`): BLAS multiplies that layout about 25% faster here.
def im2col(x, ksize, strides, dilations, pads):
    """[N, *S, C] -> the window matrix [N * prod(out), prod(K) * C], and the out sizes."""
    patches = windows(pad_spatial(x, pads), ksize, strides, dilations)  # view [N,*out,*K,C]
    out = patches.shape[1:1 + len(ksize)]
    return patches.reshape(-1, int(np.prod(ksize)) * x.shape[-1]), out  # the one copy


def _groups(channels, filter_depth, out_depth):
    g = channels // filter_depth
    return g, out_depth // g


def conv_forward(x, f, strides, padding, explicit_paddings, dilations):
    """x [N, *S, C] conv f [*K, C/G, O] -> [N, *out, O]: im2col, then one matmul (per group)."""
    r = f.ndim - 2
    ksize, (cg, o) = f.shape[:r], f.shape[r:]
    s, d = strides[1:-1], dilations[1:-1]
    out = output_spatial("Conv", x.shape[1:-1], ksize, s, d, padding, explicit_paddings)
    if 0 in out or x.size == 0:
        return np.zeros([x.shape[0], *out, o], dtype=x.dtype)
    pads = spatial_pads(x.shape[1:-1], ksize, s, d, padding, explicit_paddings)
    g, og = _groups(x.shape[-1], cg, o)
    if g == 1:  # the transposed window matrix [K*C, N*out] (see `window_matrix`)
        cols_t = window_matrix(channels_first(x, pads), ksize, s, d)
        y = cols_t.T @ f.reshape(-1, o)                             # [N*out, O]
    else:
        cols, out = im2col(x, ksize, s, d, pads)                    # [N*out, K*C]
        kp = cols.shape[1] // x.shape[-1]
        cols = cols.reshape(-1, kp, g, cg).transpose(2, 0, 1, 3).reshape(g, -1, kp * cg)
        w = f.reshape(kp, cg, g, og).transpose(2, 0, 1, 3).reshape(g, kp * cg, og)
        y = np.matmul(cols, w).transpose(1, 0, 2)                   # [N*out, G, O/G]
    return y.reshape(x.shape[0], *out, o)


def conv_backprop_input(f, dy, input_sizes, strides, padding, explicit_paddings, dilations):
    """dL/dx: every output gradient, times the filter, added back onto its window.

    One batched matmul gives, for each filter tap, what every window sends back
    (tap-major: [*K, N, *out, C]); col2im (`add_windows`) adds the taps onto the image.
    With stride 1 and at least as many input as output channels, the same result is
    cheaper as a convolution of dy with the flipped filter (`_backprop_input_by_conv`).
    """
    r = f.ndim - 2
    ksize, (cg, o) = f.shape[:r], f.shape[r:]
    n, spatial, c = input_sizes[0], input_sizes[1:-1], input_sizes[-1]
    s, d = strides[1:-1], dilations[1:-1]
    if dy.size == 0 or 0 in input_sizes:
        return np.zeros(input_sizes, dtype=dy.dtype)
    if max(s) == 1 and c >= o:
        return _backprop_input_by_conv(f, dy, input_sizes, padding, explicit_paddings,
                                       dilations)
    g, og = _groups(c, cg, o)
    kp = int(np.prod(ksize))
    dyg = dy.reshape(-1, g, og).transpose(1, 0, 2)                   # [G, N*out, O/G]
    w = f.reshape(kp, cg, g, og).transpose(0, 2, 3, 1)               # [K, G, O/G, C/G]
    cols = np.matmul(dyg, w).transpose(0, 2, 1, 3)                   # [K, N*out, G, C/G]
    cols = cols.reshape(*ksize, n, *dy.shape[1:-1], c)               # [*K, N, *out, C]
    pads = spatial_pads(spatial, ksize, s, d, padding, explicit_paddings)
    padded = [n] + [size + b + a for size, (b, a) in zip(spatial, pads)] + [c]
    return crop_spatial(add_windows(cols, padded, s, d), pads)


def _backprop_input_by_conv(f, dy, input_sizes, padding, explicit_paddings, dilations):
    """Stride 1: dx = conv(dy padded by span-1-pad, f flipped with in/out channels swapped).

    Pixel x[u] met filter tap a at output u + pad - a*d; reading dy backwards over the
    taps is a convolution with the flipped filter. Negative "padding" crops dy: outputs
    that saw only padding send nothing back to x.
    """
    r = f.ndim - 2
    ksize, (cg, o) = f.shape[:r], f.shape[r:]
    spatial, c = input_sizes[1:-1], input_sizes[-1]
    g, og = _groups(c, cg, o)
    d = dilations[1:-1]
    pads = spatial_pads(spatial, ksize, (1,) * r, d, padding, explicit_paddings)
    index, ext = [slice(None)], []
    for size, k, dil, (before, _), out in zip(spatial, ksize, d, pads, dy.shape[1:-1]):
        lead = (k - 1) * dil - before                 # zeros before dy (< 0: crop instead)
        trail = size + before - out                   # zeros after dy  (< 0: crop instead)
        index.append(slice(max(-lead, 0), out - max(-trail, 0)))
        ext.append((max(lead, 0), max(trail, 0)))
    flipped = f[(slice(None, None, -1),) * r].reshape(*ksize, cg, g, og)
    swapped = flipped.swapaxes(r, r + 2).reshape(*ksize, og, g * cg)    # [*K, O/G, C]
    return conv_forward(pad_spatial(dy[tuple(index)], ext), swapped, (1,) * (r + 2),
                        "VALID", (), dilations)


def conv_backprop_filter(x, dy, filter_sizes, strides, padding, explicit_paddings, dilations):
    """dL/dfilters = (window matrix)^T @ output gradient: one matmul (per group)."""
    r = x.ndim - 2
    ksize, cg, o = filter_sizes[:r], filter_sizes[r], filter_sizes[r + 1]
    s, d = strides[1:-1], dilations[1:-1]
    if dy.size == 0:
        return np.zeros(filter_sizes, dtype=x.dtype)
    pads = spatial_pads(x.shape[1:-1], ksize, s, d, padding, explicit_paddings)
    g, og = _groups(x.shape[-1], cg, o)
    if g == 1:
        cols_t = window_matrix(channels_first(x, pads), ksize, s, d)  # [K*C, N*out]
        return (cols_t @ dy.reshape(-1, o)).reshape(filter_sizes)     # [K*C, O]
    cols, _ = im2col(x, ksize, s, d, pads)                          # [N*out, K*C]
    kp = cols.shape[1] // x.shape[-1]
    cols = cols.reshape(-1, kp, g, cg).transpose(2, 1, 3, 0).reshape(g, kp * cg, -1)
    dyg = dy.reshape(-1, g, og).transpose(1, 0, 2)
    dw = np.matmul(cols, dyg)                                       # [G, K*C/G, O/G]
    return dw.reshape(g, kp, cg, og).transpose(1, 2, 0, 3).reshape(filter_sizes)


# --- shape rules: TensorFlow's checks and messages ----------------------------------------
class Spec:
    """What differs between Conv2D and Conv3D: names, allowed paddings and messages."""

    def __init__(self, name, rank, paddings, input_rank, filter_rank, stride_error,
                 zero_stride, depth_text, backprop_prefix):
        self.name, self.rank, self.paddings = name, rank, paddings
        self.input_rank, self.filter_rank = input_rank, filter_rank
        self.stride_error, self.zero_stride = stride_error, zero_stride
        self.depth_text, self.backprop_prefix = depth_text, backprop_prefix


CONV2D = Spec("Conv2D", 4, ("SAME", "VALID", "EXPLICIT"),
              "convolution input must be 4-dimensional: {dims}",
              "convolution filter must be 4-dimensional: {dims}", errors.UnimplementedError,
              "Row and column strides should be larger than 0.",
              "input depth must be evenly divisible by filter depth: {c} vs {fc}",
              ("Conv2DCustomBackpropInput", "Conv2DCustomBackpropFilter"))
CONV3D = Spec("Conv3D", 5, ("SAME", "VALID"), "input must be 5-dimensional",
              "filter must be 5-dimensional", errors.InvalidArgumentError,
              "Spatial strides should be larger than 0.",
              "Input depth must be evenly divisible by filter depth: {c} vs {fc}",
              ("Conv3DBackpropInputOp", "Conv3DBackpropFilterOp"))


def check_conv_attrs(spec, op_name, strides, padding, explicit_paddings, dilations):
    check_padding(op_name, padding, explicit_paddings, spec.paddings)
    check_window_attr(op_name, strides, "strides", spec.stride_error)
    if min(strides[1:-1]) < 1:
        raise errors.op_error(errors.InvalidArgumentError, op_name, spec.zero_stride,
                              "A stride is how far the window moves: at least 1.")
    check_window_attr(op_name, dilations, "dilations")
    if min(dilations[1:-1]) < 1:
        raise errors.op_error(errors.InvalidArgumentError, op_name,
                              "Dilated rates should be larger than 0.",
                              "A dilation of 1 is an ordinary kernel; 2 skips every other pixel.")


def check_depths(spec, op_name, channels, filter_depth, out_depth):
    """Grouped convolution: C = groups * filter depth, and O divisible by groups."""
    if filter_depth == 0:
        raise errors.op_error(errors.InvalidArgumentError, op_name,
                              f"filter depth must be stricly positive, got {filter_depth}",
                              "filters has shape [*kernel, in_channels, out_channels].")
    if channels is None or filter_depth is None:
        return
    if channels % filter_depth:
        raise errors.op_error(
            errors.InvalidArgumentError, op_name,
            spec.depth_text.format(c=channels, fc=filter_depth),
            f"filters.shape[-2] ({filter_depth}) must equal the input's channels ({channels}) "
            "(or divide them, for a grouped convolution).")
    if spec is CONV3D and channels != filter_depth:
        raise errors.op_error(
            errors.InvalidArgumentError, op_name,
            f"Number of channels in filter ({filter_depth}) must match last dimension of input "
            f"({channels})", "Conv3D has no grouped convolution: make the depths equal.")
    groups = channels // filter_depth
    if out_depth is not None and out_depth % groups:
        raise errors.op_error(
            errors.InvalidArgumentError, op_name,
            f"output depth must be evenly divisible by number of groups: {out_depth} vs {groups}",
            "In a grouped convolution each group makes the same number of output channels.")


def conv_shape(spec):
    def rule(input, filter, strides, padding, explicit_paddings, dilations):
        check_conv_attrs(spec, spec.name, strides, padding, explicit_paddings, dilations)
        check_rank(spec.name, input, spec.rank, spec.input_rank)
        check_rank(spec.name, filter, spec.rank, spec.filter_rank)
        x, f = known(input), known(filter)
        check_depths(spec, spec.name, x[-1], f[-2], f[-1])
        out = output_spatial(spec.name, x[1:-1], f[:-2], strides[1:-1], dilations[1:-1],
                             padding, explicit_paddings)
        return TensorShape([x[0], *out, f[-1]])

    rule.__name__ = f"{spec.name.lower()}_shape"
    return rule


def check_backprop(spec, op_name, which, x, f, dy, attrs):
    """The checks of TF's backprop kernels: x, f and dy must describe one convolution."""
    prefix = spec.backprop_prefix[which]
    check_conv_attrs(spec, op_name, attrs["strides"], attrs["padding"],
                     attrs["explicit_paddings"], attrs["dilations"])
    for shape, what in ((x, "input"), (f, "filter"), (dy, "out_backprop")):
        if len(shape) != spec.rank:
            raise errors.op_error(
                errors.InvalidArgumentError, op_name,
                f"{what} must be {spec.rank}-dimensional, got: {len(shape)}",
                f"{what} has one size per axis of a rank-{spec.rank} tensor.")

    def fail(text, hint):
        raise errors.op_error(errors.InvalidArgumentError, op_name, f"{prefix}: {text}", hint)

    if None not in (f[-1], dy[-1]) and f[-1] != dy[-1]:
        fail("filter and out_backprop must have the same out_depth",
             f"out_backprop has {dy[-1]} channels but the filters make {f[-1]}.")
    if None not in (x[-1], f[-2]) and (f[-2] == 0 or x[-1] % f[-2]):
        fail("input depth must be evenly divisible by filter depth",
             f"The input's {x[-1]} channels must be a multiple of filters.shape[-2] = {f[-2]}.")
    if None not in (x[0], dy[0]) and x[0] != dy[0]:
        fail(f"input and out_backprop must have the same batch size. Input batch: {x[0]}, "
             f"outbackprop batch: {dy[0]}, batch_dim: 0", "Both describe the same batch.")
    _check_backprop_sizes(spec, op_name, prefix, x, f, dy, attrs)


def _check_backprop_sizes(spec, op_name, prefix, x, f, dy, attrs):
    strides, dilations = attrs["strides"], attrs["dilations"]
    for axis in range(1, spec.rank - 1):
        size, k, actual = x[axis], f[axis - 1], dy[axis]
        s, d = strides[axis], dilations[axis]
        b = a = 0
        if attrs["padding"] == "EXPLICIT":
            b, a = attrs["explicit_paddings"][2 * axis:2 * axis + 2]
        computed = output_size(op_name, size, k, s, d, attrs["padding"], b, a)
        if None not in (computed, actual) and computed != actual:
            raise errors.op_error(
                errors.InvalidArgumentError, op_name,
                f"{prefix}: Size of out_backprop doesn't match computed: actual = {actual}, "
                f"computed = {computed} spatial_dim: {axis} input: {size} filter: {k} output: "
                f"{actual} stride: {s} dilation: {d}",
                "A convolution of the requested input size would not produce out_backprop's "
                "size: check output_shape, strides and padding.")


def backprop_input_shape(spec, op_name):
    def rule(filter, out_backprop, input_sizes, **attrs):
        if len(input_sizes) != spec.rank:
            raise errors.op_error(
                errors.InvalidArgumentError, op_name,
                f"{op_name} requires input_sizes to contain {spec.rank} values "
                f"or 2 values, but got: {len(input_sizes)}",
                "output_shape lists every axis of the result: [batch, *spatial, channels].")
        check_backprop(spec, op_name, 0, list(input_sizes), known(filter), known(out_backprop),
                       attrs)
        return TensorShape(list(input_sizes))

    return rule


def backprop_filter_shape(spec, op_name):
    def rule(input, out_backprop, filter_sizes, **attrs):
        check_backprop(spec, op_name, 1, known(input), list(filter_sizes), known(out_backprop),
                       attrs)
        return TensorShape(list(filter_sizes))

    return rule


def validated(rule, kernel):
    """A forward that first runs the shape rule on the concrete shapes (TF's kernel checks)."""

    def forward(a, b, **attrs):
        rule(TensorShape(a.shape), TensorShape(b.shape), **attrs)
        return kernel(a, b, **attrs)

    forward.__name__ = kernel.__name__
    return forward


# --- the op family: forward op + its two gradient ops ---------------------------------------
CONV_ATTRS = ("strides", "padding", "explicit_paddings", "dilations")


class ConvFamily:
    """A convolution op and the two ops that are its gradient, wired so each is
    differentiable again. Conv2D, Conv3D and DepthwiseConv2dNative are families."""

    def __init__(self, conv, backprop_input, backprop_filter):
        self.conv, self.backprop_input, self.backprop_filter = conv, backprop_input, backprop_filter
        conv.def_grad(self._conv_grad)
        backprop_input.def_grad(self._backprop_input_grad)
        backprop_filter.def_grad(self._backprop_filter_grad)

    def input_grad(self, input_sizes, f, dy, attrs):
        attrs = {k: attrs[k] for k in CONV_ATTRS}
        attrs["input_sizes"] = tuple(input_sizes)
        return apply(self.backprop_input, [f, dy], attrs)

    def filter_grad(self, x, filter_sizes, dy, attrs):
        attrs = {k: attrs[k] for k in CONV_ATTRS}
        attrs["filter_sizes"] = tuple(filter_sizes)
        return apply(self.backprop_filter, [x, dy], attrs)

    def forward(self, x, f, attrs):
        return apply(self.conv, [x, f], {k: attrs[k] for k in CONV_ATTRS})

    # Each gradient skips the inputs the backward pass does not need (op.wanted):
    # the first layer never needs a gradient for the images themselves.
    def _conv_grad(self, op, dy):
        x, f = op.inputs  # y = conv(x, f) is linear in x and in f
        want_x, want_f = op.wanted
        return (self.input_grad(x.shape.as_list(), f, dy, op.attrs) if want_x else None,
                self.filter_grad(x, f.shape.as_list(), dy, op.attrs) if want_f else None)

    def _backprop_input_grad(self, op, ddx):
        f, dy = op.inputs  # <ddx, dx(f, dy)> = <conv(ddx, f), dy>
        want_f, want_dy = op.wanted
        return (self.filter_grad(ddx, f.shape.as_list(), dy, op.attrs) if want_f else None,
                self.forward(ddx, f, op.attrs) if want_dy else None)

    def _backprop_filter_grad(self, op, ddf):
        x, dy = op.inputs  # <ddf, df(x, dy)> = <conv(x, ddf), dy>
        want_x, want_dy = op.wanted
        return (self.input_grad(x.shape.as_list(), ddf, dy, op.attrs) if want_x else None,
                self.forward(x, ddf, op.attrs) if want_dy else None)


def _declare(spec, allowed, names):
    rule = conv_shape(spec)
    conv = Op(names[0], validated(rule, conv_forward), dtypes=allowed, shape=rule)
    bi_rule = backprop_input_shape(spec, names[1])
    bf_rule = backprop_filter_shape(spec, names[2])
    bi = Op(names[1], validated(bi_rule, conv_backprop_input), dtypes=allowed, shape=bi_rule)
    bf = Op(names[2], validated(bf_rule, conv_backprop_filter), dtypes=allowed, shape=bf_rule)
    return ConvFamily(conv, bi, bf)


CONV2D_FAMILY = _declare(CONV2D, dtypes.FLOATING | {dtypes.int32},
                         ("Conv2D", "Conv2DBackpropInput", "Conv2DBackpropFilter"))
CONV3D_FAMILY = _declare(CONV3D, dtypes.FLOATING,
                         ("Conv3D", "Conv3DBackpropInputV2", "Conv3DBackpropFilterV2"))
Conv2D, Conv2DBackpropInput, Conv2DBackpropFilter = (
    CONV2D_FAMILY.conv, CONV2D_FAMILY.backprop_input, CONV2D_FAMILY.backprop_filter)
Conv3D = CONV3D_FAMILY.conv


# --- public wrappers ----------------------------------------------------------------------
def convert_pair(x, f):
    """The input and the filters as tensors; Python numbers follow the input's dtype."""
    x = convert_to_tensor(x)
    return x, convert_to_tensor(f, dtype_hint=x.dtype)


def conv_attrs(n, strides, padding, dilations, allow_explicit=True):
    padding, explicit = parse_padding(padding, n + 2, allow_explicit)
    return {"strides": expand_sequence(strides, n, "strides"), "padding": padding,
            "explicit_paddings": explicit, "dilations": expand_sequence(dilations, n,
                                                                        "dilations")}


def with_batch_dims(x, rank, fn):
    """TF's convolutions accept extra leading batch axes: fold them into one and back."""
    if x.shape.rank is None or x.shape.rank <= rank:
        return fn(x)
    dims = x.shape.as_list()
    outer, inner = dims[:-rank + 1], dims[-rank + 1:]
    y = fn(reshape(x, [-1] + inner))
    return reshape(y, outer + y.shape.as_list()[1:])


@tf_export("nn.conv2d")
def conv2d(input, filters, strides, padding, data_format="NHWC", dilations=None, name=None):
    """2-D convolution (really cross-correlation, as in every DL library):

        y[n, i, j, o] = sum_{a, b, c} x_pad[n, i*s + a*d, j*s + b*d, c] * filters[a, b, c, o]

    input [batch, height, width, in_channels]; filters [kh, kw, in_channels, out_channels];
    strides and dilations an int or a list of 1, 2 or 4; padding 'SAME', 'VALID' or
    [[0, 0], [top, bottom], [left, right], [0, 0]]. When in_channels is a multiple of
    filters.shape[2] the convolution is grouped, as in TF.

    >>> x = tf.ones([1, 5, 5, 3])
    >>> tf.nn.conv2d(x, tf.ones([3, 3, 3, 8]), strides=2, padding="SAME").shape
    TensorShape([1, 3, 3, 8])

    In TensorFlow the CPU kernels cannot differentiate dilated or grouped convolutions;
    minitf's gradient ops handle both.
    """
    x, f = convert_pair(input, filters)
    check_data_format("Conv2D", data_format, "NHWC")
    attrs = conv_attrs(2, strides, padding, dilations)
    return with_batch_dims(x, 4, lambda x4: apply(Conv2D, [x4, f], attrs))


@tf_export("nn.conv1d")
def conv1d(input, filters, stride, padding, data_format="NWC", dilations=None, name=None):
    """1-D convolution over [batch, width, channels] with filters [k, in, out].

    As in TensorFlow it is a conv2d on a height-1 image: expand, convolve, squeeze.

    >>> tf.nn.conv1d(tf.ones([2, 7, 3]), tf.ones([3, 3, 4]), stride=2, padding="SAME").shape
    TensorShape([2, 4, 4])
    """
    check_1d_format(data_format)
    if data_format == "NCW":
        check_data_format("Conv2D", "NCHW", "NHWC")
    if isinstance(padding, (list, tuple)):
        raise TypeError(f"Expected string for argument 'padding' not {padding!r}.")
    x, f = convert_pair(input, filters)
    strides = (1, 1) + expand_sequence(stride, 1, "stride")[1:]
    rates = (1, 1) + expand_sequence(dilations, 1, "dilations")[1:]
    y = conv2d(expand_dims(x, -3), expand_dims(f, 0), strides, padding, dilations=rates)
    return squeeze(y, [-3])


@tf_export("nn.conv3d")
def conv3d(input, filters, strides, padding, data_format="NDHWC", dilations=None, name=None):
    """3-D convolution over [batch, depth, height, width, channels] with filters
    [kd, kh, kw, in, out]; strides is a list of 5 (1 on batch and channels).

    >>> x = tf.ones([1, 4, 4, 4, 2])
    >>> tf.nn.conv3d(x, tf.ones([2, 2, 2, 2, 3]), [1, 2, 2, 2, 1], "VALID").shape
    TensorShape([1, 2, 2, 2, 3])
    """
    x, f = convert_pair(input, filters)
    check_data_format("Conv3D", data_format, "NDHWC", errors.InvalidArgumentError)
    for value, what in ((strides, "strides"), (dilations, "dilations")):
        if value is not None and not isinstance(value, (list, tuple)):
            raise TypeError(f"Expected list for '{what}' argument to 'conv3d' Op, not {value!r}.")
        if value is not None and len(value) != 5:
            raise errors.op_error(errors.InvalidArgumentError, "Conv3D",
                                  f"Sliding window {what} field must specify 5 dimensions",
                                  f"Give {what} for all five axes, e.g. [1, 2, 2, 2, 1].")
    attrs = conv_attrs(3, strides, padding, dilations, allow_explicit=False)
    if max(attrs["dilations"]) > 1:
        raise errors.op_error(
            errors.InvalidArgumentError, "Conv3D",
            "CPU implementation of Conv3D currently only supports dilated rates of 1.",
            "TensorFlow's CPU kernel has no dilated 3-D convolution.")
    return with_batch_dims(x, 5, lambda x5: apply(Conv3D, [x5, f], attrs))


@tf_export("nn.convolution")
def convolution(input, filters, strides=None, padding="VALID", data_format=None, dilations=None,
                name=None):
    """N-D convolution (N = 1, 2 or 3, read from filters' rank): conv1d, conv2d or conv3d.

    >>> tf.nn.convolution(tf.ones([2, 7, 7, 3]), tf.ones([3, 3, 3, 4]), padding="SAME").shape
    TensorShape([2, 7, 7, 4])
    """
    x, f = convert_pair(input, filters)
    n = f.shape.rank - 2
    if n not in (1, 2, 3):
        raise ValueError(f"`num_spatial_dims` must be 1, 2, or 3. Received: num_spatial_dims={n}.")
    if isinstance(padding, (list, tuple)):
        raise TypeError(f"Expected string for argument 'padding' not {padding!r}.")
    strides = expand_sequence(strides, n, "strides")
    rates = expand_sequence(dilations, n, "dilations")
    if max(strides[1:-1]) > 1 and max(rates[1:-1]) > 1:
        raise ValueError("`strides > 1` not supported in conjunction with `dilation_rate > 1`. "
                         f"Received: strides={np.array(strides[1:-1])} and "
                         f"dilation_rate={np.array(rates[1:-1])}")
    channels_last = {1: "NWC", 2: "NHWC", 3: "NDHWC"}[n]
    data_format = channels_last if data_format is None else data_format
    if n == 1:
        return conv1d(x, f, strides[1:-1], padding, data_format, rates[1:-1])
    if n == 2:
        return conv2d(x, f, strides, padding, data_format, rates)
    return conv3d(x, f, list(strides), padding, data_format, list(rates))


@tf_export("nn.atrous_conv2d")
def atrous_conv2d(value, filters, rate, padding, name=None):
    """Dilated ("atrous", with holes) 2-D convolution: conv2d with dilations=rate.

    >>> tf.nn.atrous_conv2d(tf.ones([1, 7, 7, 1]), tf.ones([3, 3, 1, 1]), 2, "VALID").shape
    TensorShape([1, 3, 3, 1])
    """
    if rate < 1:
        raise ValueError("all values of `dilation_rate` must be positive. Received: "
                         f"dilation_rate={np.array([rate, rate])}")
    return conv2d(value, filters, 1, padding, dilations=rate)
