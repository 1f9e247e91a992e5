"""tf.signal.dct/idct (types I-IV), the mel filterbank and MFCCs.

The DCT is built the way TF builds it, from `rfft` of the signal padded to 2N samples
(Makhoul's trick): dct-II X_k = 2 Re(exp(-i pi k / 2N) * rfft(x, 2N)_k), type III is the
matching `irfft`, type IV the odd bins of a 2N-point type II, type I the rfft of the signal
mirrored. So the gradients are rfft's and irfft's. `idct` of type t is `dct` of the inverse
type (2 <-> 3); without norm='ortho' a round trip scales by 2N.

`linear_to_mel_weight_matrix` gives triangular filters evenly spaced on the HTK mel scale
mel(f) = 1127 ln(1 + f / 700); a spectrogram's magnitudes times it give a mel spectrogram,
whose log's DCT-II (scaled by 1/sqrt(2 * bins)) are the MFCCs.

>>> import minitf as tf
>>> tf.signal.dct(tf.constant([1.0, 2.0, 3.0, 4.0])).numpy().round(4)
array([20.    , -6.3086,  0.    , -0.4483], dtype=float32)
>>> x = tf.constant([1.0, 2.0, 3.0, 4.0])
>>> tf.signal.idct(tf.signal.dct(x, norm="ortho"), norm="ortho").numpy().round(5)
array([1., 2., 3., 4.], dtype=float32)
"""
import math

import numpy as np

from ..framework import dtypes
from ..framework.tensor import convert_to_tensor
from ..framework.tf_export import tf_export


def _validate(x, dct_type, n, axis, norm):
    if axis != -1:
        raise NotImplementedError(f"axis must be -1. Got: {axis}")
    if n is not None and n < 1:
        raise ValueError("n should be a positive integer or None")
    if dct_type not in (1, 2, 3, 4):
        raise ValueError("Types I, II, III and IV (I)DCT are supported.")
    if dct_type == 1:
        if norm == "ortho":
            raise ValueError("Normalization is not supported for the Type-I DCT.")
        if x.shape[-1] is not None and x.shape[-1] < 2:
            raise ValueError("Type-I DCT requires the dimension to be greater than one.")
    if norm not in (None, "ortho"):
        raise ValueError(f"Unknown normalization. Expected None or 'ortho', got: {norm}")


def _fit(x, n):
    from .manipulation_ops import pad

    length = x.shape[-1]
    if n <= length:
        return x[..., 0:n]
    return pad(x, [[0, 0]] * (x.shape.rank - 1) + [[0, n - length]])


def _constant(values, dtype):
    from .creation_ops import constant

    return constant(np.asarray(values).astype(dtype.as_numpy_dtype), dtype)


def _dct2(x, size, norm):
    from .complex_ops import real
    from .signal_fft_ops import rfft

    complex_dtype = dtypes.complex64 if x.dtype == dtypes.float32 else dtypes.complex128
    scale = _constant(2.0 * np.exp(-1j * np.arange(size) * math.pi * 0.5 / size), complex_dtype)
    out = real(rfft(x, [2 * size])[..., :size] * scale)
    if norm == "ortho":
        n1 = 0.5 / math.sqrt(size)
        out = out * _constant([n1] + [n1 * math.sqrt(2.0)] * (size - 1), x.dtype)
    return out


def _dct3(x, size, norm):
    from .complex_ops import complex as complex_
    from .signal_fft_ops import irfft

    if norm == "ortho":
        n1 = math.sqrt(size)
        x = x * _constant([n1] + [n1 * math.sqrt(0.5)] * (size - 1), x.dtype)
    else:
        x = x * float(size)
    complex_dtype = dtypes.complex64 if x.dtype == dtypes.float32 else dtypes.complex128
    scale = _constant(2.0 * np.exp(1j * np.arange(size) * math.pi * 0.5 / size), complex_dtype)
    return irfft(scale * complex_(x, x * 0), [2 * size])[..., :size]


def _dct(x, dct_type, n, norm):
    from .array_ops import concat
    from .complex_ops import real
    from .manipulation_ops import reverse
    from .signal_fft_ops import rfft

    x = convert_to_tensor(x)
    if n is not None:
        x = _fit(x, n)
    size = x.shape[-1]
    if dct_type == 1:
        return real(rfft(concat([x, reverse(x[..., 1:size - 1], [-1])], axis=-1)))
    if dct_type == 2:
        return _dct2(x, size, norm)
    if dct_type == 3:
        return _dct3(x, size, norm)
    out = _dct2(_fit(x, 2 * size), 2 * size, None)[..., 1::2]
    return out * (math.sqrt(0.5) / math.sqrt(size)) if norm == "ortho" else out


@tf_export("signal.dct")
def dct(input, type=2, n=None, axis=-1, norm=None, name=None):  # noqa: A002 - TF's names
    """The DCT of `type` 1-4 over the last axis (`n` crops or zero-pads it first).

    >>> tf.signal.dct(tf.constant([1.0, 2.0, 3.0]), type=1).numpy()
    array([ 8., -2.,  0.], dtype=float32)
    """
    x = convert_to_tensor(input)
    _validate(x, type, n, axis, norm)
    return _dct(x, type, n, norm)


@tf_export("signal.idct")
def idct(input, type=2, n=None, axis=-1, norm=None, name=None):  # noqa: A002 - TF's names
    """The inverse DCT: `dct` of type 1->1, 2->3, 3->2, 4->4 (unnormalized: times 2N).

    >>> x = tf.constant([1.0, 2.0, 3.0, 4.0])
    >>> (tf.signal.idct(tf.signal.dct(x)) * 0.5 / 4).numpy().round(5)
    array([1., 2., 3., 4.], dtype=float32)
    """
    x = convert_to_tensor(input)
    _validate(x, type, n, axis, norm)
    return _dct(x, {1: 1, 2: 3, 3: 2, 4: 4}[type], n, norm)


def _check_mel_arguments(num_mel_bins, sample_rate, lower, upper, dtype):
    if num_mel_bins <= 0:
        raise ValueError(f"num_mel_bins must be positive. Got: {num_mel_bins}")
    if lower < 0.0:
        raise ValueError(f"lower_edge_hertz must be non-negative. Got: {lower}")
    if lower >= upper:
        raise ValueError("lower_edge_hertz %.1f >= upper_edge_hertz %.1f" % (lower, upper))
    if sample_rate <= 0.0:
        raise ValueError(f"sample_rate must be positive. Got: {sample_rate}")
    if upper > sample_rate / 2:
        raise ValueError("upper_edge_hertz must not be larger than the Nyquist frequency "
                         f"(sample_rate / 2). Got {upper} for sample_rate: {sample_rate}")
    if not dtype.is_floating:
        raise ValueError(f"dtype must be a floating point type. Got: {dtype!r}")


def _hertz_to_mel(hertz, real):
    return real(1127.0) * np.log(real(1.0) + hertz / real(700.0))


@tf_export("signal.linear_to_mel_weight_matrix")
def linear_to_mel_weight_matrix(num_mel_bins=20, num_spectrogram_bins=129, sample_rate=8000,
                                lower_edge_hertz=125.0, upper_edge_hertz=3800.0,
                                dtype=dtypes.float32, name=None):
    """A [num_spectrogram_bins, num_mel_bins] matrix of triangular mel filters (HTK's mel).

    Filter m rises from mel edge m to m + 1 and falls to m + 2, the num_mel_bins + 2 edges
    evenly spaced in mel between the two edge frequencies; the DC bin gets no weight.

    >>> tf.signal.linear_to_mel_weight_matrix(2, 5, 8000, 100.0, 4000.0).numpy().round(3)
    array([[0.   , 0.   ],
           [0.723, 0.277],
           [0.   , 0.939],
           [0.   , 0.405],
           [0.   , 0.   ]], dtype=float32)
    """
    from .graph_helper_ops import get_static_value

    dtype = dtypes.as_dtype(dtype)
    rate = get_static_value(convert_to_tensor(sample_rate))
    if rate is None:
        raise ValueError("minitf needs sample_rate as a known number.")
    rate = float(rate)
    _check_mel_arguments(num_mel_bins, rate, lower_edge_hertz, upper_edge_hertz, dtype)
    real = dtype.as_numpy_dtype  # computed in `dtype`, step by step as TF does
    nyquist = real(rate) / real(2.0)
    linear = np.linspace(real(0), nyquist, num_spectrogram_bins, dtype=real)[1:]
    bins_mel = _hertz_to_mel(linear, real)[:, None]
    edges = np.linspace(_hertz_to_mel(real(lower_edge_hertz), real),
                        _hertz_to_mel(real(upper_edge_hertz), real), num_mel_bins + 2, dtype=real)
    lower, center, upper = edges[:-2][None], edges[1:-1][None], edges[2:][None]
    with np.errstate(all="ignore"):
        weights = np.maximum(real(0), np.minimum((bins_mel - lower) / (center - lower),
                                                 (upper - bins_mel) / (upper - center)))
    return _constant(np.pad(weights, [[1, 0], [0, 0]]), dtype)


@tf_export("signal.mfccs_from_log_mel_spectrograms")
def mfccs_from_log_mel_spectrograms(log_mel_spectrograms, name=None):
    """MFCCs: the DCT-II of log mel spectrograms over the last axis, times 1/sqrt(2 * bins).

    >>> round(float(tf.signal.mfccs_from_log_mel_spectrograms(tf.ones([1, 4]))[0, 0]), 4)
    2.8284
    """
    x = convert_to_tensor(log_mel_spectrograms)
    bins = x.shape[-1] if x.shape.rank else None
    if bins == 0:
        raise ValueError(f"num_mel_bins must be positive. Got: {x!r}")
    return dct(x, type=2) * (1.0 / math.sqrt(bins * 2.0))
