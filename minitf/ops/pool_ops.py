"""Pooling ops: MaxPool, AvgPool (2-D and 3-D), MaxPoolWithArgmax, and their gradients.

Pooling slides a window like a convolution but has no weights: it keeps the
largest value (max) or the mean (avg) of each window, channel by channel.

    max_pool: y[n, i, j, c] = max_{a, b} x_pad[n, i*s + a, j*s + b, c]      (pad = -inf)
    avg_pool: y[n, i, j, c] = mean of the window's values that lie *inside* x

Note avg_pool with padding='SAME' divides by the number of real pixels in
each window, never counting the padding - TensorFlow's rule.

Gradients: max pooling sends each output gradient to the one input that won
(the first of equal maxima, like TF). The forward saves those argmax positions
(`op.saved`); the gradient op MaxPoolGradWithArgmax scatters the gradient
there, and its own gradient (MaxPoolGradGradWithArgmax) gathers from there -
both linear in the gradient, so second derivatives work. Average pooling
spreads each output gradient evenly over its window (AvgPoolGrad), whose own
gradient is avg_pool again.

>>> import minitf as tf
>>> x = tf.reshape(tf.range(16.0), [1, 4, 4, 1])
>>> tf.nn.max_pool2d(x, ksize=2, strides=2, padding="VALID")[0, :, :, 0]
<tf.Tensor: shape=(2, 2), dtype=float32, numpy=
array([[ 5.,  7.],
       [13., 15.]], dtype=float32)>
"""
import numpy as np

from ..framework import dtypes, errors
from ..framework.gradient_ops import zeros_like
from ..framework.op import Op, apply
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export
from .array_ops import expand_dims, squeeze
from .dtype_rules import values_and_indices
from .conv_utils import (add_windows, check_1d_format, check_data_format, check_padding,
                         check_rank, crop_spatial, expand_sequence, known, output_spatial,
                         pad_spatial, parse_padding, spatial_pads, tap_index, windows)

# TF's MaxPool T list (bfloat16 and qint8 aside); AvgPool is floating only.
MAX_POOL_TYPES = dtypes.FLOATING | {dtypes.int8, dtypes.int16, dtypes.int32, dtypes.int64,
                                    dtypes.uint8, dtypes.uint16}


# --- attribute and shape checks ---------------------------------------------------------
class PoolSpec:
    """Names and messages of one pooling op (TF words them differently per op)."""

    def __init__(self, name, rank, paddings, rank_text, depth_error, depth_text, ksize_text):
        self.name, self.rank, self.paddings, self.rank_text = name, rank, paddings, rank_text
        self.depth_error, self.depth_text, self.ksize_text = depth_error, depth_text, ksize_text


_DEPTH_MAX = "Depth-wise max pooling (a window over channels) is not implemented in minitf."
MAX_POOL = PoolSpec("MaxPool", 4, ("SAME", "VALID", "EXPLICIT"),
                    "tensor_in_shape must have 2 spatial dimensions. {rank} 0",
                    errors.UnimplementedError, _DEPTH_MAX,
                    "Sliding window ksize must be positive. The specified or inferred ksize "
                    "is: {ksize}")
AVG_POOL = PoolSpec("AvgPool", 4, ("SAME", "VALID"),
                    "tensor_in_shape must have 2 spatial dimensions. {rank} 0",
                    errors.UnimplementedError,
                    "Non-spatial pooling is not yet supported. Volunteers? :)",
                    "ksize must be a positive int32 value, got:{k}")
MAX_POOL_3D = PoolSpec("MaxPool3D", 5, ("SAME", "VALID"), "tensor_in must be 5-dimensional",
                       errors.UnimplementedError,
                       "Pooling is not yet supported on the depth dimension.",
                       "Sliding window ksize must be positive. The specified or inferred "
                       "ksize is: {ksize}")
AVG_POOL_3D = PoolSpec("AvgPool3D", 5, ("SAME", "VALID"), "tensor_in must be 5-dimensional",
                       errors.UnimplementedError,
                       "Pooling is not yet supported on the depth dimension.",
                       "Sliding window ksize must be positive. The specified or inferred "
                       "ksize is: {ksize}")
_SIDES = {4: (("Top", "Bottom"), ("Left", "Right")),
          5: (("Front", "Back"), ("Top", "Bottom"), ("Left", "Right"))}


def check_pool_attrs(spec, ksize, strides, padding, explicit_paddings):
    name = spec.name
    check_padding(name, padding, explicit_paddings, spec.paddings)
    if ksize[0] != 1 or strides[0] != 1:
        raise errors.op_error(errors.UnimplementedError, name,
                              "Pooling is not yet supported on the batch dimension.",
                              "ksize and strides must be 1 on the batch axis.")
    if ksize[-1] != 1 or strides[-1] != 1:
        raise errors.op_error(spec.depth_error, name, spec.depth_text,
                              "Pool over space: ksize and strides must be 1 on the channel axis.")
    if min(ksize) < 1:
        raise errors.op_error(
            errors.InvalidArgumentError, name,
            spec.ksize_text.format(ksize=",".join(map(str, ksize)), k=min(ksize)),
            "A pooling window needs at least one pixel along each axis.")
    if min(strides) < 1:
        raise errors.op_error(errors.InvalidArgumentError, name,
                              f"Stride must be > 0, but got {min(strides)}",
                              "A stride is how far the window moves: at least 1.")
    if padding == "EXPLICIT":
        for axis, sides in enumerate(_SIDES[spec.rank], 1):
            for side, pad in zip(sides, explicit_paddings[2 * axis:2 * axis + 2]):
                if pad >= ksize[axis]:
                    raise errors.op_error(
                        errors.InvalidArgumentError, name,
                        f"{side} padding {pad} needs to be smaller than the window size "
                        f"{ksize[axis]}", "Otherwise some windows would hold only padding.")


def pool_shape(spec):
    def rule(input, ksize, strides, padding, explicit_paddings=(), dilations=None):
        check_pool_attrs(spec, ksize, strides, padding, explicit_paddings)
        check_rank(spec.name, input, spec.rank, spec.rank_text.replace("{rank}", str(input.rank)))
        x = known(input)
        rates = dilations[1:-1] if dilations else (1,) * (spec.rank - 2)
        out = output_spatial(spec.name, x[1:-1], ksize[1:-1], strides[1:-1], rates, padding,
                             explicit_paddings)
        return TensorShape([x[0], *out, x[-1]])

    rule.__name__ = f"{spec.name.lower()}_shape"
    return rule


def _geometry(x_shape, ksize, strides, padding, explicit_paddings, dilations):
    """Spatial window sizes, strides, dilations and (before, after) pads of one pooling."""
    k, s = ksize[1:-1], strides[1:-1]
    d = dilations[1:-1] if dilations else (1,) * len(k)
    return k, s, d, spatial_pads(x_shape[1:-1], k, s, d, padding, explicit_paddings)


# --- max pooling: forward saves where each maximum came from -------------------------------
def _lowest(dtype):
    return -np.inf if dtype.kind == "f" else np.iinfo(dtype).min


def max_pool_with_positions(x, ksize, strides, padding, explicit_paddings=(), dilations=None):
    """(max over each window, flat index into x of the first maximum of each window).

    One pass per window tap (k*k NumPy calls, each over all windows at once): keep
    the running maximum and the tap it came from. Like TF's kernel, a tap replaces
    the maximum only if strictly larger - so ties keep the first, and NaNs are skipped.
    """
    k, s, d, pads = _geometry(x.shape, ksize, strides, padding, explicit_paddings, dilations)
    xp = pad_spatial(x, pads, _lowest(x.dtype))
    out = [(n - (kk - 1) * dd - 1) // ss + 1 for n, kk, ss, dd in zip(xp.shape[1:-1], k, s, d)]
    y = np.full([x.shape[0], *out, x.shape[-1]], _lowest(x.dtype), dtype=x.dtype)
    tap = np.zeros(y.shape, dtype=np.int8 if np.prod(k) < 128 else np.int32)
    for t, offsets in enumerate(np.ndindex(*k)):
        seen = xp[tap_index(offsets, out, s, d)]
        larger = seen > y
        np.fmax(y, seen, out=y)                       # fmax: a NaN never wins
        tap += larger * (t - tap)                     # tap = where(larger, t, tap), 6x faster
    positions = _window_starts(x.shape, out, s, pads) + _tap_offsets(x.shape, k, d)[tap]
    if any(b or a for b, a in pads) and np.any(y == _lowest(x.dtype)):
        # A window whose maximum is the padding value itself may have "won" in the
        # padding: TF then reports the window's first pixel inside x.
        positions = np.where(y == _lowest(x.dtype),
                             _flat_positions(tap, x.shape, k, s, d, pads), positions)
    return y, positions


def _window_starts(x_shape, out, s, pads):
    """Flat index into x of every window's first tap (padding makes some negative)."""
    r, flat = len(out), np.arange(x_shape[0]).reshape([-1] + [1] * (len(out) + 1))
    for axis in range(r):
        start = np.arange(out[axis]) * s[axis] - pads[axis][0]
        flat = flat * x_shape[axis + 1] + start.reshape([-1] + [1] * (r - axis))
    return flat * x_shape[-1] + np.arange(x_shape[-1])


def _tap_offsets(x_shape, k, d):
    """How far (in flat elements of x) each tap lies from its window's first tap."""
    steps = np.cumprod([1, x_shape[-1], *x_shape[1:-1][::-1]])[:-1][::-1][:len(k)]
    return np.array([sum(a * dd * st for a, dd, st in zip(tap, d, steps))
                     for tap in np.ndindex(*k)], dtype=np.int64)


def _flat_positions(tap, x_shape, k, s, d, pads):
    """Turn each window's tap index into a flat index ((n*H + h)*W + w)*C + c into x."""
    r = len(k)
    offsets = np.unravel_index(tap, k)               # tap -> (a, b): one array per axis
    out = tap.shape[1:1 + r]
    coords, first_valid, outside = [], [], np.zeros(tap.shape, dtype=bool)
    for axis in range(r):
        start = (np.arange(out[axis]) * s[axis] - pads[axis][0]).reshape(
            [1] * (axis + 1) + [-1] + [1] * (r - axis))   # window start along this axis
        pos = start + offsets[axis] * d[axis]
        outside |= (pos < 0) | (pos >= x_shape[axis + 1])
        coords.append(pos)
        # The first tap inside x (used when max == the padding value and padding came first).
        first_valid.append(start + np.maximum(-(start // d[axis]), 0) * d[axis])
    flat = np.arange(x_shape[0]).reshape([-1] + [1] * (r + 1))
    for axis in range(r):
        pos = np.where(outside, first_valid[axis], coords[axis])
        flat = flat * x_shape[axis + 1] + pos
    return flat * x_shape[-1] + np.arange(x_shape[-1])


def _max_pool_forward(spec):
    rule = pool_shape(spec)

    def forward(x, ksize, strides, padding, explicit_paddings=(), dilations=None):
        shape = rule(TensorShape(x.shape), ksize, strides, padding, explicit_paddings, dilations)
        if shape.num_elements() == 0:
            return np.zeros(shape.as_list(), x.dtype), np.zeros(shape.as_list(), np.int64)
        return max_pool_with_positions(x, ksize, strides, padding, explicit_paddings, dilations)

    return forward, rule


def _global_positions(x_shape, argmax, include_batch_in_index):
    """Flat indices into the whole batch (TF's argmax may leave the batch out)."""
    argmax = argmax.astype(np.int64)
    if include_batch_in_index:
        return argmax
    per_image = int(np.prod(x_shape[1:]))
    return argmax + (np.arange(x_shape[0]) * per_image).reshape([-1] + [1] * (argmax.ndim - 1))


def _max_pool_grad_forward(x, grad, argmax, include_batch_in_index):
    """Scatter-add each output gradient onto the input position that won."""
    where = _global_positions(x.shape, argmax, include_batch_in_index).ravel()
    total = np.bincount(where, weights=grad.ravel(), minlength=x.size)
    return total.astype(grad.dtype).reshape(x.shape)


def _max_pool_grad_grad_forward(x, grad, argmax, include_batch_in_index):
    """Gather: the pooled shape's values read at the winning positions of `grad`."""
    where = _global_positions(x.shape, argmax, include_batch_in_index)
    return grad.reshape(-1)[where]


_max_forward, _max_rule = _max_pool_forward(MAX_POOL)
MaxPool = Op("MaxPool", _max_forward, dtypes=MAX_POOL_TYPES, shape=_max_rule, saves=True)
_max3d_forward, _max3d_rule = _max_pool_forward(MAX_POOL_3D)
# TF's CPU kernel takes float16/32 only; minitf adds float64 so gradients can be checked.
MaxPool3D = Op("MaxPool3D", _max3d_forward, dtypes=dtypes.FLOATING, shape=_max3d_rule,
               saves=True)
MaxPoolGradWithArgmax = Op(
    "MaxPoolGradWithArgmax", _max_pool_grad_forward, dtypes=MAX_POOL_TYPES, typed=(0, 1),
    shape=lambda x, grad, argmax, include_batch_in_index: x)
MaxPoolGradGradWithArgmax = Op(
    "MaxPoolGradGradWithArgmax", _max_pool_grad_grad_forward, dtypes=MAX_POOL_TYPES,
    typed=(0, 1), shape=lambda x, grad, argmax, include_batch_in_index: argmax)


def max_pool_grad(x, dy, argmax, include_batch_in_index=True):
    return apply(MaxPoolGradWithArgmax, [x, dy, argmax],
                 {"include_batch_in_index": include_batch_in_index})


def _positions_op(pool):
    """The winning positions of `pool` alone: what its gradient needs when nothing was
    saved (inside tf.function the forward runs later, in the executor)."""
    return Op(pool.name + "Positions", lambda x, **attrs: pool.forward(x, **attrs)[1],
              typed=(), shape=pool.shape, dtype=dtypes.int64)


_POSITIONS = {MaxPool.name: _positions_op(MaxPool), MaxPool3D.name: _positions_op(MaxPool3D)}


def _max_pool_grad(op, dy):
    """In TF MaxPool's gradient is MaxPoolGrad, which recomputes the argmax; minitf
    reuses the positions its eager forward saved, and recomputes them in graphs."""
    if op.saved is not None:
        positions = convert_to_tensor(op.saved)
    else:
        positions = apply(_POSITIONS[op.type], [op.inputs[0]], op.attrs)
    return max_pool_grad(op.inputs[0], dy, positions)


MaxPool.def_grad(_max_pool_grad)
MaxPool3D.def_grad(_max_pool_grad)


@MaxPoolGradWithArgmax.def_grad
def _max_pool_grad_grad(op, ddx):
    x, _, argmax = op.inputs  # linear in grad: its adjoint gathers at the same positions
    return zeros_like(x), apply(MaxPoolGradGradWithArgmax, [x, ddx, argmax], op.attrs), None


@MaxPoolGradGradWithArgmax.def_grad
def _max_pool_grad_grad_grad(op, dy):
    x, _, argmax = op.inputs
    return zeros_like(x), apply(MaxPoolGradWithArgmax, [x, dy, argmax], op.attrs), None


def _max_pool_with_argmax_forward(x, ksize, strides, padding, Targmax, include_batch_in_index):
    shape = _max_rule(TensorShape(x.shape), ksize, strides, padding)
    if shape.num_elements() == 0:
        return np.zeros(shape.as_list(), x.dtype), np.zeros(shape.as_list(), Targmax.as_numpy_dtype)
    y, where = max_pool_with_positions(x, ksize, strides, padding)
    if not include_batch_in_index:
        where = where % int(np.prod(x.shape[1:]))
    return y, where.astype(Targmax.as_numpy_dtype)


MaxPoolWithArgmax = Op(
    "MaxPoolWithArgmax", _max_pool_with_argmax_forward, dtypes=MAX_POOL_TYPES, num_outputs=2,
    shape=lambda x, **attrs: (_max_rule(x, attrs["ksize"], attrs["strides"],
                                        attrs["padding"]),) * 2,
    dtype=values_and_indices("Targmax"))


@MaxPoolWithArgmax.def_grad
def _max_pool_with_argmax_grad(op, dy, unused_argmax_grad):
    return max_pool_grad(op.inputs[0], dy, op.outputs[1],
                         op.attrs["include_batch_in_index"])


# --- average pooling ------------------------------------------------------------------------
def _window_counts(spatial, k, s, d, pads, dtype):
    """How many real (non-padding) pixels each window covers: [1, *out, 1]."""
    ones = np.ones([1, *spatial, 1], dtype=dtype)
    r = len(k)
    return windows(pad_spatial(ones, pads), k, s, d).sum(axis=tuple(range(1 + r, 1 + 2 * r)))


def _avg_pool_forward(spec):
    rule = pool_shape(spec)

    def forward(value, ksize, strides, padding, dilations=None):
        shape = rule(TensorShape(value.shape), ksize, strides, padding, (), dilations)
        if shape.num_elements() == 0:
            return np.zeros(shape.as_list(), value.dtype)
        k, s, d, pads = _geometry(value.shape, ksize, strides, padding, (), dilations)
        xp = pad_spatial(value, pads)
        out = shape.as_list()[1:-1]
        total = np.zeros(shape.as_list(), value.dtype)
        for offsets in np.ndindex(*k):                  # one whole-batch add per window tap
            total += xp[tap_index(offsets, out, s, d)]
        return total / _window_counts(value.shape[1:-1], k, s, d, pads, value.dtype)

    return forward, rule


def _avg_pool_grad_forward(grad, orig_input_shape, ksize, strides, padding, dilations=None):
    """Give every pixel of a window an equal share (1/count) of the window's gradient."""
    k, s, d, pads = _geometry(orig_input_shape, ksize, strides, padding, (), dilations)
    r = len(k)
    if grad.size == 0:
        return np.zeros(orig_input_shape, grad.dtype)
    share = grad / _window_counts(orig_input_shape[1:-1], k, s, d, pads, grad.dtype)
    cols = np.broadcast_to(share, tuple(k) + share.shape)       # every tap sends `share`
    padded = [n + b + a for n, (b, a) in zip(orig_input_shape[1:-1], pads)]
    out = add_windows(cols, [orig_input_shape[0], *padded, orig_input_shape[-1]], s, d)
    return crop_spatial(out, pads)


def _avg_grad_shape(grad, orig_input_shape, **attrs):
    return TensorShape(list(orig_input_shape))


_avg_forward, _avg_rule = _avg_pool_forward(AVG_POOL)
AvgPool = Op("AvgPool", _avg_forward, dtypes=dtypes.FLOATING, shape=_avg_rule)
AvgPoolGrad = Op("AvgPoolGrad", _avg_pool_grad_forward, dtypes=dtypes.FLOATING,
                 shape=_avg_grad_shape)
_avg3d_forward, _avg3d_rule = _avg_pool_forward(AVG_POOL_3D)
# TF's CPU kernel takes float32 only; minitf adds float16/64 (float64 to check gradients).
AvgPool3D = Op("AvgPool3D", _avg3d_forward, dtypes=dtypes.FLOATING, shape=_avg3d_rule)
AvgPool3DGrad = Op("AvgPool3DGrad", _avg_pool_grad_forward, dtypes=dtypes.FLOATING,
                   shape=_avg_grad_shape)
_AVG_PAIRS = {AvgPool: (AvgPool, AvgPoolGrad), AvgPoolGrad: (AvgPool, AvgPoolGrad),
              AvgPool3D: (AvgPool3D, AvgPool3DGrad), AvgPool3DGrad: (AvgPool3D, AvgPool3DGrad)}


def _avg_pool_grad(op, dy):
    pool, grad = _AVG_PAIRS[op.op_def]  # AvgPool is linear: its gradient is its adjoint
    attrs = dict(op.attrs, orig_input_shape=tuple(op.inputs[0].shape.as_list()))
    return apply(grad, [dy], attrs)


def _avg_pool_grad_grad(op, ddx):
    pool, grad = _AVG_PAIRS[op.op_def]  # ... and the adjoint of the adjoint is AvgPool
    attrs = {k: v for k, v in op.attrs.items() if k != "orig_input_shape"}
    return apply(pool, [ddx], attrs)


AvgPool.def_grad(_avg_pool_grad)
AvgPool3D.def_grad(_avg_pool_grad)
AvgPoolGrad.def_grad(_avg_pool_grad_grad)
AvgPool3DGrad.def_grad(_avg_pool_grad_grad)


# --- public wrappers ----------------------------------------------------------------------
def _pool_attrs(n, ksize, strides, padding, allow_explicit):
    attrs = {"ksize": expand_sequence(ksize, n, "ksize"),
             "strides": expand_sequence(strides, n, "strides")}
    attrs["padding"], explicit = parse_padding(padding, n + 2, allow_explicit)
    if allow_explicit:
        attrs["explicit_paddings"] = explicit
    return attrs


def _check_format(op_name, data_format, expected, kind):
    check_data_format(op_name, data_format, expected, errors.InvalidArgumentError,
                      f"Default {kind} only supports {expected} on device type CPU")


@tf_export("nn.max_pool2d")
def max_pool2d(input, ksize, strides, padding, data_format="NHWC", name=None):
    """The maximum of each ksize window: input [N, H, W, C] -> [N, H', W', C].

    ksize and strides: an int or a list of 1, 2 or 4; padding 'SAME', 'VALID' or
    [[0, 0], [top, bottom], [left, right], [0, 0]] (padding never wins the max).

    >>> tf.nn.max_pool2d(tf.ones([1, 28, 28, 8]), ksize=2, strides=2, padding="VALID").shape
    TensorShape([1, 14, 14, 8])
    """
    _check_format("MaxPool", data_format, "NHWC", "MaxPoolingOp")
    x = convert_to_tensor(input)
    return apply(MaxPool, [x], _pool_attrs(2, ksize, strides, padding, True))


@tf_export("nn.avg_pool2d")
def avg_pool2d(input, ksize, strides, padding, data_format="NHWC", name=None):
    """The mean of each ksize window; with 'SAME' padding the mean is over the window's
    real pixels only (padding is not counted), as in TF.

    >>> x = tf.reshape(tf.range(1.0, 10.0), [1, 3, 3, 1])
    >>> tf.nn.avg_pool2d(x, ksize=2, strides=2, padding="SAME")[0, :, :, 0]
    <tf.Tensor: shape=(2, 2), dtype=float32, numpy=
    array([[3. , 4.5],
           [7.5, 9. ]], dtype=float32)>
    """
    _check_format("AvgPool", data_format, "NHWC", "AvgPoolingOp")
    x = convert_to_tensor(input)
    return apply(AvgPool, [x], _pool_attrs(2, ksize, strides, padding, False))


def _pool1d(pool2d, input, ksize, strides, padding, data_format, op_name):
    check_1d_format(data_format)
    if data_format == "NCW":
        _check_format(op_name, "NCHW", "NHWC", op_name.replace("Pool", "PoolingOp"))
    x = convert_to_tensor(input)
    ksize = (1, 1) + expand_sequence(ksize, 1, "ksize")[1:]
    strides = (1, 1) + expand_sequence(strides, 1, "strides")[1:]
    if isinstance(padding, (list, tuple)):
        padding = [[0, 0]] + [list(p) for p in padding]
    y = pool2d(expand_dims(x, 1), ksize, strides, padding)
    return squeeze(y, [1])


@tf_export("nn.max_pool1d")
def max_pool1d(input, ksize, strides, padding, data_format="NWC", name=None):
    """Max pooling over [batch, width, channels] (a max_pool2d on a height-1 image).

    >>> tf.nn.max_pool1d(tf.ones([2, 7, 3]), ksize=2, strides=2, padding="SAME").shape
    TensorShape([2, 4, 3])
    """
    return _pool1d(max_pool2d, input, ksize, strides, padding, data_format, "MaxPool")


@tf_export("nn.avg_pool1d")
def avg_pool1d(input, ksize, strides, padding, data_format="NWC", name=None):
    """Average pooling over [batch, width, channels].

    >>> tf.nn.avg_pool1d(tf.ones([2, 7, 3]), ksize=3, strides=2, padding="SAME").shape
    TensorShape([2, 4, 3])
    """
    return _pool1d(avg_pool2d, input, ksize, strides, padding, data_format, "AvgPool")


@tf_export("nn.max_pool3d")
def max_pool3d(input, ksize, strides, padding, data_format="NDHWC", name=None):
    """Max pooling over [batch, depth, height, width, channels].

    >>> tf.nn.max_pool3d(tf.ones([2, 7, 7, 7, 3]), ksize=3, strides=2, padding="SAME").shape
    TensorShape([2, 4, 4, 4, 3])
    """
    _check_format("MaxPool3D", data_format, "NDHWC", "Pooling3DOp")
    x = convert_to_tensor(input)
    return apply(MaxPool3D, [x], _pool_attrs(3, ksize, strides, padding, False))


@tf_export("nn.avg_pool3d")
def avg_pool3d(input, ksize, strides, padding, data_format="NDHWC", name=None):
    """Average pooling over [batch, depth, height, width, channels].

    >>> tf.nn.avg_pool3d(tf.ones([2, 7, 7, 7, 3]), ksize=2, strides=2, padding="VALID").shape
    TensorShape([2, 3, 3, 3, 3])
    """
    _check_format("AvgPool3D", data_format, "NDHWC", "Pooling3DOp")
    x = convert_to_tensor(input)
    return apply(AvgPool3D, [x], _pool_attrs(3, ksize, strides, padding, False))


def _by_rank(fns, input, ksize, strides, padding, data_format):
    x = convert_to_tensor(input)
    rank = x.shape.rank
    if rank not in (3, 4, 5):
        raise ValueError(f"`input.shape.rank` must be 3, 4 or 5. Received: "
                         f"input.shape={tuple(x.shape.as_list())} of rank {rank}.")
    return fns[rank - 3](x, ksize, strides, padding, data_format)


@tf_export("nn.max_pool")
def max_pool(input, ksize, strides, padding, data_format=None, name=None):
    """max_pool1d, max_pool2d or max_pool3d, chosen by the input's rank (3, 4 or 5).

    >>> tf.nn.max_pool(tf.ones([2, 7, 7, 3]), ksize=2, strides=2, padding="SAME").shape
    TensorShape([2, 4, 4, 3])
    """
    return _by_rank((max_pool1d, max_pool2d, max_pool3d), input, ksize, strides, padding,
                    data_format)


@tf_export("nn.avg_pool")
def avg_pool(input, ksize, strides, padding, data_format=None, name=None):
    """avg_pool1d, avg_pool2d or avg_pool3d, chosen by the input's rank (3, 4 or 5).

    >>> tf.nn.avg_pool(tf.ones([2, 7, 3]), ksize=2, strides=2, padding="SAME").shape
    TensorShape([2, 4, 3])
    """
    return _by_rank((avg_pool1d, avg_pool2d, avg_pool3d), input, ksize, strides, padding,
                    data_format)


_POOL_OPS = {("MAX", 2): MaxPool, ("AVG", 2): AvgPool, ("MAX", 3): MaxPool3D,
             ("AVG", 3): AvgPool3D}


@tf_export("nn.pool")
def pool(input, window_shape, pooling_type, strides=None, padding="VALID", data_format=None,
         dilations=None, name=None):
    """N-D pooling ("MAX" or "AVG", N = 1, 2, 3), optionally with dilated windows
    (then padding must be VALID and strides 1):

        y[n, i, j, c] = max/mean over (a, b) of x[n, i*s + a*d, j*s + b*d, c]

    >>> tf.nn.pool(tf.ones([1, 7, 7, 2]), [2, 2], "MAX", dilations=[2, 2]).shape
    TensorShape([1, 5, 5, 2])
    """
    x = convert_to_tensor(input)
    n = len(window_shape)
    if not 1 <= n <= 3:
        raise ValueError(f"`len(window_shape)` must be 1, 2, or 3. Received: "
                         f"window_shape={window_shape} of length {n}")
    if x.shape.rank != n + 2:
        raise ValueError(f"Shape {tuple(x.shape.as_list())} must have rank {n + 2}")
    strides = np.array([1] * n if strides is None else list(strides))
    rates = np.array([1] * n if dilations is None else list(dilations))
    if padding == "SAME" and np.any(rates > 1):
        raise ValueError("pooling with 'SAME' padding is not implemented for `dilation_rate` > "
                         f"1. Received: padding={padding} and dilation_rate={rates}")
    if np.any(strides > 1) and np.any(rates > 1):
        raise ValueError("`strides > 1` not supported in conjunction with `dilation_rate > 1`. "
                         f"Received: strides={strides} and dilation_rate={rates}")
    if pooling_type not in ("MAX", "AVG"):
        raise ValueError(f"{n}-D {pooling_type} pooling is not supported.")
    expected = {1: "NWC", 2: "NHWC", 3: "NDHWC"}[n]
    _check_format(pooling_type.title() + "Pool", data_format, expected,
                  "Pooling3DOp" if n == 3 else pooling_type.title() + "PoolingOp")
    if n == 1:  # as a 2-D pooling of a height-1 image
        x, window_shape, strides, rates = (expand_dims(x, 1), [1, *window_shape],
                                           np.r_[1, strides], np.r_[1, rates])
        if isinstance(padding, (list, tuple)):
            padding = [[0, 0]] + [list(p) for p in padding]
    explicit_ok = pooling_type == "MAX" and n < 3
    attrs = _pool_attrs(max(n, 2), list(window_shape), strides.tolist(), padding, explicit_ok)
    if np.any(rates > 1):
        attrs["dilations"] = (1, *rates.tolist(), 1)
    y = apply(_POOL_OPS[pooling_type, max(n, 2)], [x], attrs)
    return squeeze(y, [1]) if n == 1 else y


@tf_export("nn.max_pool_with_argmax")
def max_pool_with_argmax(input, ksize, strides, padding, data_format="NHWC",
                         output_dtype=dtypes.int64, include_batch_in_index=False, name=None):
    """Max pooling that also returns where each maximum came from, as flat indices
    (y*width + x)*channels + c (plus batch*height*width*channels when
    include_batch_in_index). Ties go to the first maximum.

    >>> out, argmax = tf.nn.max_pool_with_argmax(tf.ones([1, 2, 2, 1]), 2, 2, "VALID")
    >>> argmax.numpy().ravel()
    array([0])
    """
    _check_format("MaxPoolWithArgmax", data_format, "NHWC", "MaxPoolingOp")
    x = convert_to_tensor(input)
    attrs = _pool_attrs(2, ksize, strides, padding, False)
    attrs["Targmax"] = dtypes.as_dtype(output_dtype)
    attrs["include_batch_in_index"] = bool(include_batch_in_index)
    return apply(MaxPoolWithArgmax, [x], attrs)
