"""tf.signal windows, `frame` and `overlap_and_add`: cutting a signal into frames and back.

`frame(signal, frame_length, frame_step)` gathers overlapping slices: frame f holds samples
f * frame_step .. f * frame_step + frame_length - 1 (the last partial frame is dropped, or,
with `pad_end=True`, filled with `pad_value`). `overlap_and_add` does the reverse sum: each
frame is added into the output at its offset, so frames that overlap add up. A window
(Hann, Hamming, Kaiser, ...) tapers each frame to zero at its edges before a Fourier transform.

`frame` is a `gather`, so its gradient is gather's (a segment sum); `overlap_and_add`'s
gradient is `frame` of the incoming gradient (each frame reads back what it added).

>>> import minitf as tf
>>> tf.signal.frame(tf.range(6), frame_length=3, frame_step=2).numpy()
array([[0, 1, 2],
       [2, 3, 4]], dtype=int32)
>>> tf.signal.overlap_and_add(tf.ones([3, 4]), frame_step=2).numpy()
array([1., 1., 2., 2., 2., 2., 1., 1.], dtype=float32)
>>> tf.signal.hann_window(4).numpy()
array([0. , 0.5, 1. , 0.5], dtype=float32)
"""
import numpy as np

from ..framework import dtypes
from ..framework.op import Op, apply
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export


def _static_int(value, what):
    from .graph_helper_ops import get_static_value

    tensor = convert_to_tensor(value)
    if tensor.shape.rank not in (None, 0):
        raise ValueError(f"Shape {tensor.shape} must have rank 0: {what} is one number.")
    number = get_static_value(tensor)
    if number is None:
        raise ValueError(f"minitf needs {what} as a known number (a Python int or a constant): "
                         "the output's shape depends on it.")
    return int(number)


def _check_params(window_length, dtype):
    dtype = dtypes.as_dtype(dtype)
    if not dtype.is_floating:
        raise ValueError(f"dtype must be a floating point type. Found {dtype!r}")
    if not convert_to_tensor(window_length).dtype.is_integer:
        raise TypeError("window_length must be an integer (the number of samples).")
    return _static_int(window_length, "window_length"), dtype


def _window(values, dtype):
    from .creation_ops import constant

    return constant(np.asarray(values, np.float64).astype(dtype.as_numpy_dtype), dtype)


def _raised_cosine(window_length, periodic, dtype, a, b):
    length, dtype = _check_params(window_length, dtype)
    if length == 1:
        return _window(np.ones(1), dtype)
    from .graph_helper_ops import get_static_value

    periodic = get_static_value(convert_to_tensor(periodic, dtypes.bool))
    even = 1 - length % 2
    n = length + int(bool(periodic)) * even - 1
    real = dtype.as_numpy_dtype  # computed in `dtype`, step by step as TF does
    cos_arg = real(2 * np.pi) * np.arange(length, dtype=real) / real(n)
    return _window(real(a) - real(b) * np.cos(cos_arg), dtype)


@tf_export("signal.hann_window")
def hann_window(window_length, periodic=True, dtype=dtypes.float32, name=None):
    """0.5 - 0.5 cos(2 pi n / N): N = length for a periodic window of even length, else length - 1.

    >>> tf.signal.hann_window(5, periodic=False).numpy()
    array([0. , 0.5, 1. , 0.5, 0. ], dtype=float32)
    """
    return _raised_cosine(window_length, periodic, dtype, 0.5, 0.5)


@tf_export("signal.hamming_window")
def hamming_window(window_length, periodic=True, dtype=dtypes.float32, name=None):
    """0.54 - 0.46 cos(2 pi n / N), with N as in `hann_window`.

    >>> tf.signal.hamming_window(4).numpy()
    array([0.08000001, 0.54      , 1.        , 0.54      ], dtype=float32)
    """
    return _raised_cosine(window_length, periodic, dtype, 0.54, 0.46)


def _kaiser(length, beta):
    if length == 1:
        return np.ones(1)
    half = (length - 1) / 2.0
    arg = np.arange(-half, half + 0.1)
    num = beta * np.sqrt(np.maximum(1.0 - (arg / half) ** 2, 0.0))
    return np.i0(num) / np.i0(beta)


@tf_export("signal.kaiser_window")
def kaiser_window(window_length, beta=12.0, dtype=dtypes.float32, name=None):
    """I0(beta sqrt(1 - (2n / (N - 1) - 1)^2)) / I0(beta): larger beta, narrower window.

    >>> tf.signal.kaiser_window(5, beta=2.0).numpy().round(4)
    array([0.4387, 0.8348, 1.    , 0.8348, 0.4387], dtype=float32)
    """
    length, dtype = _check_params(window_length, dtype)
    return _window(_kaiser(length, float(beta)), dtype)


@tf_export("signal.kaiser_bessel_derived_window")
def kaiser_bessel_derived_window(window_length, beta=12.0, dtype=dtypes.float32, name=None):
    """sqrt of the running sum of a Kaiser window of length N // 2 + 1, mirrored (for MDCTs).

    >>> tf.signal.kaiser_bessel_derived_window(4, beta=2.0).numpy().round(4)
    array([0.4834, 0.8754, 0.8754, 0.4834], dtype=float32)
    """
    length, dtype = _check_params(window_length, dtype)
    csum = np.cumsum(_kaiser(length // 2 + 1, float(beta)))
    half = np.sqrt(csum[:-1] / csum[-1])
    return _window(np.concatenate([half, half[::-1]]), dtype)


@tf_export("signal.vorbis_window")
def vorbis_window(window_length, dtype=dtypes.float32, name=None):
    """sin(pi/2 sin^2(pi (n + 0.5) / N)): power complementary, for MDCTs.

    >>> tf.signal.vorbis_window(4).numpy().round(4)
    array([0.228 , 0.9737, 0.9737, 0.228 ], dtype=float32)
    """
    length, dtype = _check_params(window_length, dtype)
    return _window(np.sin(np.pi / 2 * np.sin(np.pi / length * (np.arange(length) + 0.5)) ** 2),
                   dtype)


@tf_export("signal.frame")
def frame(signal, frame_length, frame_step, pad_end=False, pad_value=0, axis=-1, name=None):
    """Overlapping frames of `signal` along `axis`: that axis becomes [frames, frame_length].

    >>> tf.signal.frame(tf.range(5), 2, 2, pad_end=True, pad_value=-1).numpy()
    array([[ 0,  1],
           [ 2,  3],
           [ 4, -1]], dtype=int32)
    """
    from .gather_ops import gather
    from .manipulation_ops import pad

    signal = convert_to_tensor(signal)
    signal.shape.with_rank_at_least(1)
    length_f = _static_int(frame_length, "frame_length")
    step = _static_int(frame_step, "frame_step")
    rank = signal.shape.rank
    axis = range(rank)[_static_int(axis, "axis")]
    samples = signal.shape.as_list()[axis]
    if samples is None:
        raise ValueError("minitf's frame needs the framed axis's length to be known.")
    if pad_end:
        count = -(-samples // step)
        extra = max(0, length_f + step * (count - 1) - samples)
        paddings = [[0, 0]] * rank
        paddings[axis] = [0, extra]
        signal = pad(signal, paddings, constant_values=convert_to_tensor(pad_value, signal.dtype))
    else:
        count = max(0, 1 + (samples - length_f) // step)
    index = np.arange(count)[:, None] * step + np.arange(length_f)[None, :]
    from .creation_ops import constant

    return gather(signal, constant(index.astype(np.int32)), axis=axis)


def _overlap_add_forward(x, frame_step):
    frames, length = x.shape[-2], x.shape[-1]
    out = np.zeros(x.shape[:-2] + (length + frame_step * (frames - 1) if frames else 0,),
                   x.dtype)
    for f in range(frames):
        out[..., f * frame_step:f * frame_step + length] += x[..., f, :]
    return out


def _overlap_add_shape(shape, frame_step):
    if shape.rank is None:
        return TensorShape(None)
    dims = shape.as_list()
    frames, length = dims[-2], dims[-1]
    total = None if None in (frames, length) else (
        length + frame_step * (frames - 1) if frames else 0)
    return TensorShape(dims[:-2] + [total])


OverlapAndAdd = Op("OverlapAndAdd", _overlap_add_forward, dtypes=dtypes.NUMERIC,
                   shape=_overlap_add_shape)


@OverlapAndAdd.def_grad
def _overlap_and_add_grad(op, dy):
    length = op.inputs[0].shape.as_list()[-1]
    return frame(dy, length, op.attrs["frame_step"])


@tf_export("signal.overlap_and_add")
def overlap_and_add(signal, frame_step, name=None):
    """Sum frames [..., frames, frame_length] into a signal, frame f starting at f * frame_step.

    >>> tf.signal.overlap_and_add(tf.constant([[1, 2, 3], [4, 5, 6]]), 1).numpy()
    array([1, 6, 8, 6], dtype=int32)
    """
    signal = convert_to_tensor(signal)
    signal.shape.with_rank_at_least(2)
    step = convert_to_tensor(frame_step)
    if not step.dtype.is_integer:
        raise ValueError(f"frame_step must be an integer. Got {step.dtype!r}")
    return apply(OverlapAndAdd, [signal], {"frame_step": _static_int(step, "frame_step")})
