"""What convolutions and pooling share: TF's argument rules, its padding
arithmetic, and the two NumPy workhorses `windows` (im2col) and `add_windows`
(col2im).

Every sliding-window op looks at the same patches of its input:

    out[n, i, j, :] = combine(x_padded[n, i*s + a*d, j*s + b*d, :] for each tap (a, b))

with stride s, dilation d and a k x k window. `windows` builds all these
patches at once as a strided *view* (no copy, no Python loop over pixels);
a convolution is then one matrix product, a pooling one reduction. The
backward pass needs the adjoint: `add_windows` adds patch gradients back
onto the image, one vectorised slice-add per tap (k*k of them, never one per
pixel).

>>> same_pads(5, 3, 2, 1)   # input 5, kernel 3, stride 2: pad 1 before, 1 after
(1, 1)
"""
import numpy as np
from numpy.lib.stride_tricks import sliding_window_view

from ..framework import errors
from ..framework.op import usable_out
from ..framework.tensor_shape import TensorShape
from .shape_rules import dims_text


# --- Python-level arguments ------------------------------------------------------------
def expand_sequence(value, n, name):
    """TF's `_get_sequence`: an int or a list of 1, n or n+2 ints -> n+2 ints (channels last).

    >>> expand_sequence(2, 2, "strides")
    (1, 2, 2, 1)
    """
    if value is None:
        return (1,) * (n + 2)
    if hasattr(value, "numpy"):
        value = value.numpy().tolist()
    value = list(value) if isinstance(value, (list, tuple)) else [value]
    if len(value) == n + 2:
        return tuple(int(v) for v in value)
    if len(value) == 1:
        value = value * n
    elif len(value) != n:
        raise ValueError(f"{name} should be of length 1, {n} or {n + 2}. Received: "
                         f"{name}={value} of length {len(value)}")
    return (1,) + tuple(int(v) for v in value) + (1,)


def parse_padding(padding, rank, allow_explicit=True):
    """`padding` as the op attributes (padding string, explicit_paddings tuple).

    TF's Python wrappers turn a list of [before, after] pairs (one pair per
    axis of the input, batch and channels included) into padding="EXPLICIT".
    """
    if isinstance(padding, (list, tuple)):
        if not allow_explicit:
            raise TypeError(f"Expected string for argument 'padding' not {padding!r}.")
        pairs = [list(p) for p in padding]
        if len(pairs) != rank:
            raise ValueError(f"When padding is a list, it must be of size {rank}. Received: "
                             f"padding={padding!r} of size {len(pairs)}")
        return "EXPLICIT", tuple(int(v) for pair in pairs for v in pair)
    if padding == "EXPLICIT":
        raise ValueError("'EXPLICIT' is not a valid value for `padding`. To use explicit "
                         "padding, `padding` must be a list.")
    return padding, ()


def check_padding(op_name, padding, explicit_paddings, allowed):
    """TF's attribute check on `padding`, and its kernels' checks on explicit paddings."""
    if padding not in allowed:
        choices = ", ".join(f'"{p}"' for p in allowed)
        raise errors.op_error(
            errors.InvalidArgumentError, op_name,
            f"Value for attr 'padding' of \"{padding}\" is not in the list of allowed values: "
            f"{choices}",
            "padding is 'SAME' (output size ceil(input/stride), zero-padded) or 'VALID' (no "
            "padding; windows stay inside the input), in capital letters.")
    if padding != "EXPLICIT":
        return
    pads = explicit_paddings
    if any(p < 0 for p in pads):
        raise errors.op_error(errors.InvalidArgumentError, op_name,
                              "All elements of explicit_paddings must be nonnegative",
                              "Explicit padding adds rows of zeros; it cannot remove any.")
    if pads[0] or pads[1] or pads[-2] or pads[-1]:
        raise errors.op_error(
            errors.InvalidArgumentError, op_name,
            "Nonzero explicit padding in the batch or depth dimensions is not supported",
            "Write [[0, 0], [top, bottom], [left, right], [0, 0]]: only spatial axes are padded.")


CHANNELS_FIRST = {"NHWC": "NCHW", "NWC": "NCW", "NDHWC": "NCDHW"}


def check_data_format(op_name, data_format, expected, error=None, message=None):
    """minitf, like TF's CPU kernels, runs channels-last layouts only (NHWC, NWC, NDHWC)."""
    if data_format is None or data_format == expected:
        return
    other = CHANNELS_FIRST[expected]
    if data_format != other:
        raise errors.op_error(
            errors.InvalidArgumentError, op_name,
            f"Value for attr 'data_format' of \"{data_format}\" is not in the list of allowed "
            f"values: \"{expected}\", \"{other}\"",
            f"data_format names the axes: {expected} is channels-last, {other} channels-first.")
    raise errors.op_error(
        error or errors.UnimplementedError, op_name,
        message or f"The {op_name} op currently only supports the {expected} tensor format on "
                   f"the CPU. The op was given the format: {data_format}",
        f"Keep channels last ({expected}); tf.transpose the input if your data is "
        "channels-first.")


def check_1d_format(data_format):
    """conv1d and the 1-D pools take 'NWC' (or 'NCW', which CPU kernels then refuse)."""
    if data_format not in (None, "NWC", "NCW"):
        raise ValueError(f"`data_format` must be 'NWC' or 'NCW'. Received: "
                         f"data_format={data_format}")


def check_window_attr(op_name, values, what, error_cls=errors.UnimplementedError):
    """Strides/dilations/ksize: 1 on batch and channels, positive on spatial axes."""
    if values[0] != 1 or values[-1] != 1:
        raise errors.op_error(
            error_cls, op_name,
            f"Current implementation does not yet support {what} in the batch and depth "
            "dimensions.", f"Give {what} as 1 for the batch and channel axes: [1, ..., 1].")


# --- TF's padding arithmetic -------------------------------------------------------------
def same_pads(size, k, stride, dilation):
    """SAME padding: enough zeros that the output has ceil(size / stride) positions,
    split with the smaller half before (TF's rule; the extra row goes after)."""
    span = (k - 1) * dilation + 1
    out = -(-size // stride)
    total = max((out - 1) * stride + span - size, 0)
    return total // 2, total - total // 2


def output_size(op_name, size, k, stride, dilation, padding, before=0, after=0):
    """TF's GetWindowedOutputSize: the number of window positions along one axis."""
    if size is None or k is None:
        return None
    if padding == "SAME":
        return -(-size // stride)
    span = (k - 1) * dilation + 1
    numerator = size + before + after - span + stride
    out = int(numerator / stride)  # C++ integer division truncates toward zero
    if out < 0:
        raise errors.op_error(
            errors.InvalidArgumentError, op_name,
            f"Computed output size would be negative: {out} [input_size: {size}, "
            f"effective_filter_size: {span}, stride: {stride}]",
            "The window is larger than the (padded) input: use padding='SAME', a smaller "
            "kernel, or a larger input.")
    return out


def spatial_pads(spatial, ksize, strides, dilations, padding, explicit_paddings):
    """(before, after) padding for each spatial axis, for concrete sizes."""
    if padding == "SAME":
        return [same_pads(n, k, s, d) for n, k, s, d in zip(spatial, ksize, strides, dilations)]
    if padding == "EXPLICIT":
        return [(explicit_paddings[2 * i + 2], explicit_paddings[2 * i + 3])
                for i in range(len(spatial))]
    return [(0, 0)] * len(spatial)


def output_spatial(op_name, spatial, ksize, strides, dilations, padding, explicit_paddings):
    """The output's spatial sizes (None where unknown)."""
    pads = [(0, 0)] * len(spatial)
    if padding == "EXPLICIT":
        pads = spatial_pads(spatial, ksize, strides, dilations, padding, explicit_paddings)
    return [output_size(op_name, n, k, s, d, padding, b, a)
            for n, k, s, d, (b, a) in zip(spatial, ksize, strides, dilations, pads)]


def check_rank(op_name, shape, rank, text):
    """Raise TF's message `text` (formatted with the shape) unless `shape` has `rank` axes."""
    if shape.rank is not None and shape.rank != rank:
        raise errors.op_error(errors.InvalidArgumentError, op_name,
                              text.format(dims=dims_text(shape)),
                              f"This op works on rank-{rank} tensors, e.g. [batch, height, "
                              "width, channels] for 2-D convolution and pooling.")


def known(shape):
    """A TensorShape's dims as a list (Nones for an unknown rank are not expected here)."""
    return shape.as_list() if isinstance(shape, TensorShape) else list(shape)


# --- the NumPy workhorses ----------------------------------------------------------------
def pad_spatial(x, pads, value=0):
    """Pad the spatial axes (1..r) of a channels-last array."""
    if not any(b or a for b, a in pads):
        return x
    return np.pad(x, [(0, 0)] + list(pads) + [(0, 0)], constant_values=value)


def windows(xp, ksize, strides, dilations):
    """All sliding windows of a padded channels-last array, as a view.

    xp: [N, *spatial, C] -> [N, *out_spatial, *ksize, C], where
    result[n, i, j, a, b, c] = xp[n, i*s0 + a*d0, j*s1 + b*d1, c]. No data is copied.
    """
    r = len(ksize)
    spans = [(k - 1) * d + 1 for k, d in zip(ksize, dilations)]
    view = sliding_window_view(xp, spans, axis=tuple(range(1, r + 1)))  # [N, *pos, C, *spans]
    index = ((slice(None),) + tuple(slice(None, None, s) for s in strides) + (slice(None),)
             + tuple(slice(None, None, d) for d in dilations))
    return np.moveaxis(view[index], r + 1, -1)


def channels_first(x, pads):
    """[N, *spatial, C] -> [C, N, *spatial] with the zero padding `pads` around the
    spatial axes: the layout `window_matrix` reads (one transposing copy)."""
    r = x.ndim - 2
    padded = [size + b + a for size, (b, a) in zip(x.shape[1:1 + r], pads)]
    xt = np.zeros([x.shape[-1], x.shape[0], *padded], x.dtype)
    xt[(slice(None), slice(None)) + tuple(slice(b, b + size) for size, (b, _)
                                          in zip(x.shape[1:1 + r], pads))] = np.moveaxis(x, -1, 0)
    return xt


def window_matrix(xt, ksize, strides, dilations, out=None):
    """im2col, transposed: the windows of a padded channels-first image as one matrix.

    xt: [C, N, *spatial] -> [prod(ksize) * C, N * prod(out_spatial)]: row (tap, c)
    holds what filter tap `tap` sees of channel c in every window, and the matrix
    is C-contiguous. `m.T @ filters.reshape(-1, O)` is the convolution and
    `m @ dy.reshape(-1, O)` the filter gradient: BLAS runs both about a quarter
    faster on this layout than on the untransposed matrix (`benchmarks/run.py`).
    `out`: an array to copy into (an earlier result of a graph node), if it fits.

    >>> xt = np.arange(1.0, 5.0).reshape(1, 1, 4)     # C=1, N=1, width 4
    >>> window_matrix(xt, (2,), (1,), (1,))             # 2 taps x 3 windows
    array([[1., 2., 3.],
           [2., 3., 4.]])
    """
    r = len(ksize)
    spans = [(k - 1) * d + 1 for k, d in zip(ksize, dilations)]
    view = sliding_window_view(xt, spans, axis=tuple(range(2, r + 2)))  # [C, N, *pos, *spans]
    index = ((slice(None), slice(None)) + tuple(slice(None, None, s) for s in strides)
             + tuple(slice(None, None, d) for d in dilations))
    view = view[index].transpose(*range(r + 2, 2 * r + 2), *range(r + 2))  # [*K, C, N, *out]
    shape = (int(np.prod(view.shape[:r + 1])), int(np.prod(view.shape[r + 1:])))
    buffer = usable_out(out, shape, xt.dtype)
    buffer = np.empty(view.shape, xt.dtype) if buffer is None else buffer.reshape(view.shape)
    np.copyto(buffer, view)
    return buffer.reshape(shape)


def add_windows(cols, padded_shape, strides, dilations):
    """The adjoint of `windows` (col2im): add every window's values back onto the image.

    cols: [*ksize, N, *out_spatial, C], tap-major: cols[a, b] is what tap (a, b) of
    every window sends back (an image-sized array, or a broadcast one). For one tap the
    windows touch distinct pixels, so each tap is ONE strided slice-add of a whole
    image: k*k NumPy calls, never one per pixel.
    """
    r = len(strides)
    ksize, out_spatial = cols.shape[:r], cols.shape[r + 1:2 * r + 1]
    out = np.zeros(padded_shape, dtype=cols.dtype)
    if cols.size == 0:
        return out
    for tap in np.ndindex(*ksize):
        out[tap_index(tap, out_spatial, strides, dilations)] += cols[tap]
    return out


def tap_index(tap, out_spatial, strides, dilations):
    """The pixels one filter tap (a, b) sees in every window: x_pad[:, a*d::s, b*d::s, :],
    cut to the output size. A slice, so `xp[tap_index(...)]` is a view, not a copy."""
    return (slice(None),) + tuple(
        slice(t * d, t * d + (o - 1) * s + 1, s)
        for t, d, o, s in zip(tap, dilations, out_spatial, strides)) + (slice(None),)


def crop_spatial(x, pads):
    """Undo `pad_spatial`: drop the padded border of the spatial axes."""
    index = (slice(None),) + tuple(slice(b, x.shape[i + 1] - a)
                                   for i, (b, a) in enumerate(pads)) + (slice(None),)
    return x[index]
