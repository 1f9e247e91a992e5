"""`keras.ops` Fourier transforms: fft, fft2, ifft2, rfft, irfft, on (real, imag) pairs.

Keras passes complex numbers as a (real part, imaginary part) tuple. The
discrete Fourier transform X_k = sum_n x_n exp(-2 pi i k n / N) is a matrix
product with W = cos + i sin, so here it is four real matmuls (O(N^2) where
TF's FFT kernel is O(N log N)), and its gradient is matmul's.

>>> import minitf as tf
>>> from minitf.keras import ops
>>> real, imag = ops.fft((tf.constant([1.0, 0.0, 0.0, 0.0]), tf.zeros(4)))
>>> real.numpy(), imag.numpy()
(array([1., 1., 1., 1.], dtype=float32), array([0., 0., 0., 0.], dtype=float32))
"""
import numpy as np

import minitf as tf

from ._export import keras_ops_export
from .. import ops  # noqa: F401 - the examples below call ops.*
from .dtype_rules import convert


def _pair(x):
    if not isinstance(x, (tuple, list)) or len(x) != 2:
        raise ValueError("Input `x` should be a tuple of two tensors - real and imaginary. "
                         f"Received: x={x}")
    real, imag = convert(x[0]), convert(x[1])
    if real.shape != imag.shape:
        raise ValueError("Input `x` should be a tuple of two tensors - real and imaginary. "
                         "Both the real and imaginary parts should have the same shape. "
                         f"Received: x[0].shape = {real.shape}, x[1].shape = {imag.shape}")
    if "float" not in real.dtype.name or real.dtype != imag.dtype:
        raise ValueError("At least one tensor in input `x` is not of type float. "
                         f"Received: x={x}.")
    return real, imag


def _dft_matrices(n_in, n_out, dtype, sign=-1.0):
    """cos and sin of sign * 2 pi k n / N, shape (n_in, n_out), with N = n_in."""
    angle = sign * 2 * np.pi * np.outer(np.arange(n_in), np.arange(n_out)) / n_in
    return tf.constant(np.cos(angle), dtype), tf.constant(np.sin(angle), dtype)


def _times(x, matrix):
    """x's last axis times a matrix (any rank of x, 1-D included; batch axes may be None)."""
    if x.shape.rank == 1:
        return tf.tensordot(x, matrix, [[0], [0]])
    return tf.matmul(x, matrix)  # the matrix broadcasts over x's batch axes


def _last_axis_dft(real, imag, sign=-1.0):
    n = real.shape[-1]
    cos, sin = _dft_matrices(n, n, real.dtype, sign)
    return (_times(real, cos) - _times(imag, sin),
            _times(real, sin) + _times(imag, cos))


def _swap_last_two(x):
    rank = x.shape.rank
    return tf.transpose(x, list(range(rank - 2)) + [rank - 1, rank - 2])


@keras_ops_export()
def fft(x):
    """The discrete Fourier transform along the last axis of (real, imag)."""
    return _last_axis_dft(*_pair(x))


@keras_ops_export()
def fft2(x):
    """The 2-D discrete Fourier transform over the last two axes of (real, imag)."""
    real, imag = _last_axis_dft(*_pair(x))
    real, imag = _last_axis_dft(_swap_last_two(real), _swap_last_two(imag))
    return _swap_last_two(real), _swap_last_two(imag)


@keras_ops_export()
def ifft2(x):
    """The inverse of `fft2`: exp(+2 pi i ...) and a division by h * w."""
    real, imag = _pair(x)
    size = real.shape[-1] * real.shape[-2]
    real, imag = _last_axis_dft(real, imag, sign=1.0)
    real, imag = _last_axis_dft(_swap_last_two(real), _swap_last_two(imag), sign=1.0)
    return _swap_last_two(real) / size, _swap_last_two(imag) / size


def _fit_length(x, length):
    """Crop or zero-pad the last axis to `length`."""
    n = x.shape[-1]
    if length < n:
        return x[..., :length]
    if length > n:
        return tf.pad(x, [[0, 0]] * (x.shape.rank - 1) + [[0, length - n]])
    return x


@keras_ops_export()
def rfft(x, fft_length=None):
    """The DFT of a real signal along the last axis: bins 0 .. N // 2 as (real, imag).

    >>> [t.numpy().round(5) for t in ops.rfft(tf.constant([1.0, 2.0, 3.0, 4.0]))]
    [array([10., -2., -2.], dtype=float32), array([ 0.,  2., -0.], dtype=float32)]
    """
    x = convert(x)
    n = x.shape[-1] if fft_length is None else fft_length
    x = _fit_length(x, n)
    cos, sin = _dft_matrices(n, n // 2 + 1, x.dtype)
    return _times(x, cos), _times(x, sin)


@keras_ops_export()
def irfft(x, fft_length=None):
    """The real signal whose `rfft` is (real, imag); length fft_length or 2 * (bins - 1)."""
    real, imag = _pair(x)
    n = 2 * (real.shape[-1] - 1) if fft_length is None else fft_length
    bins = n // 2 + 1
    real, imag = _fit_length(real, bins), _fit_length(imag, bins)
    # x_t = (1/n) sum_k w_k (Re X_k cos(2 pi k t / n) - Im X_k sin(2 pi k t / n)), with
    # w = 1 for the bins that appear once (0, and n/2 for even n) and 2 for the mirrored ones.
    weights = np.full(bins, 2.0)
    weights[0] = 1.0
    if n % 2 == 0:
        weights[-1] = 1.0
    angle = 2 * np.pi * np.outer(np.arange(bins), np.arange(n)) / n
    cos = tf.constant(weights[:, None] * np.cos(angle) / n, real.dtype)
    sin = tf.constant(weights[:, None] * np.sin(angle) / n, real.dtype)
    return _times(real, cos) - _times(imag, sin)


def _periodic_window(window, length, dtype):
    """tf.signal.hann_window/hamming_window(length, periodic=True): TF's periodic window
    divides by `length` for even lengths only (odd lengths get the symmetric length - 1)."""
    n = np.arange(length)
    denominator = max(length if length % 2 == 0 else length - 1, 1)
    a = 0.5 if window == "hann" else 0.54
    return tf.constant(a - (1 - a) * np.cos(2 * np.pi * n / denominator), dtype)


@keras_ops_export()
def stft(x, sequence_length, sequence_stride, fft_length, window="hann", center=True):
    """The short-time Fourier transform: `rfft` of windowed frames, as (real, imag).

    Frames of `sequence_length` every `sequence_stride` samples along the last axis
    (reflect-padded by fft_length // 2 on both sides when `center`), each multiplied
    by a periodic Hann/Hamming window (or `window`'s values) centred in `fft_length`.

    >>> real, imag = ops.stft(tf.ones(16), 8, 4, 8, center=False)
    >>> real.shape, real.numpy()[0, :2].round(4)
    (TensorShape([3, 5]), array([ 4., -2.], dtype=float32))
    """
    x = convert(x)
    if x.dtype.name not in ("float32", "float64"):
        raise TypeError("Invalid input type. Expected `float32` or `float64`. "
                        f"Received: input type={x.dtype}")
    if fft_length < sequence_length:
        raise ValueError("`fft_length` must equal or larger than `sequence_length`. "
                         f"Received: sequence_length={sequence_length}, fft_length={fft_length}")
    if isinstance(window, str) and window not in ("hann", "hamming"):
        raise ValueError('If a string is passed to `window`, it must be one of `"hann"`, '
                         f'`"hamming"`. Received: window={window}')
    if center:
        pad = fft_length // 2
        x = tf.pad(x, [[0, 0]] * (x.shape.rank - 1) + [[pad, pad]], mode="REFLECT")
    left = (fft_length - sequence_length) // 2
    frames = _frames(x, fft_length, sequence_stride)
    if window is not None:
        weights = (_periodic_window(window, sequence_length, x.dtype) if isinstance(window, str)
                   else convert(window, x.dtype))
        if weights.shape.rank != 1 or weights.shape[0] != sequence_length:
            raise ValueError("The shape of `window` must be equal to [sequence_length]."
                             f"Received: window shape={weights.shape}")
        frames = frames * tf.pad(weights, [[left, fft_length - sequence_length - left]])
    return rfft(frames, fft_length)


@keras_ops_export()
def istft(x, sequence_length, sequence_stride, fft_length, length=None, window="hann",
          center=True):
    """The inverse of `stft` from (real, imag): tf.signal.inverse_stft with the window that
    undoes the overlapping forward windows, then the `center` padding cut off (Keras's way).

    >>> x = tf.sin(tf.range(32.0))
    >>> y = ops.istft(ops.stft(x, 8, 2, 8), 8, 2, 8, length=32)
    >>> bool(abs(y - x)[4:28].numpy().max() < 1e-5)  # where 4 frames overlap
    True
    """
    if not isinstance(sequence_stride, int) or sequence_stride <= 0:
        raise ValueError("`sequence_stride` must be a positive integer. "
                         f"Received: sequence_stride={sequence_stride}")
    real, imag = _pair(x)
    frames = real.shape[-2]
    l_pad = (fft_length - sequence_length) // 2
    r_pad = fft_length - sequence_length - l_pad
    win = None
    if window is not None:
        weights = (_periodic_window(window, sequence_length, real.dtype)
                   if isinstance(window, str) else convert(window, real.dtype))
        if weights.shape.rank != 1 or weights.shape[0] != sequence_length:
            raise ValueError("The shape of `window` must be equal to [sequence_length]."
                             f"Received: window shape={weights.shape}")
        weights = tf.pad(weights, [[l_pad, r_pad]])
        win = tf.signal.inverse_stft_window_fn(sequence_stride, lambda n, dtype: weights)
    out = tf.signal.inverse_stft(tf.complex(real, imag), sequence_length + l_pad + r_pad,
                                 sequence_stride, fft_length, window_fn=win)
    start = fft_length // 2 if center else 0
    if length is not None:
        end = start + length
    elif center:
        end = -(fft_length // 2)
    else:
        end = fft_length + sequence_stride * (frames - 1)
    return out[..., start:end]


def _frames(x, length, stride):
    count = 1 + (x.shape[-1] - length) // stride
    index = (np.arange(count) * stride)[:, None] + np.arange(length)[None, :]
    return tf.gather(x, tf.constant(index, "int32"), axis=x.shape.rank - 1)


@keras_ops_export()
def view_as_real(x):
    """A complex tensor as real pairs: shape (..., 2), [..., 0] real, [..., 1] imaginary.

    >>> ops.view_as_real(tf.complex(tf.constant([1.0]), tf.constant([2.0])))
    <tf.Tensor: shape=(1, 2), dtype=float32, numpy=array([[1., 2.]], dtype=float32)>
    """
    x = convert(x)
    if not x.dtype.is_complex:
        raise ValueError(f"Input tensor is not complex. Received: x.dtype={x.dtype}")
    return tf.stack([tf.math.real(x), tf.math.imag(x)], axis=-1)


@keras_ops_export()
def view_as_complex(x):
    """Real pairs (last axis of size 2) as one complex tensor."""
    x = convert(x)
    if x.shape[-1] != 2:
        raise ValueError(f"Last dimension of input must be size 2 (real and imaginary). "
                         f"Received shape: {x.shape}")
    return tf.complex(x[..., 0], x[..., 1])


@keras_ops_export("nn")
def polar(abs_, angle):
    """The complex number with modulus `abs_` and argument `angle`: abs (cos a + i sin a)."""
    abs_, angle = convert(abs_), convert(angle)
    return tf.complex(abs_ * tf.cos(angle), abs_ * tf.sin(angle))
