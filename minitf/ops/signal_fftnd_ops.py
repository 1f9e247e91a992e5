"""N-dimensional FFTs over chosen axes: tf.signal.fftnd/ifftnd/rfftnd/irfftnd and the raw
tf.fftnd/ifftnd/rfftnd/irfftnd ops.

`fftnd(x, fft_length, axes, norm)` transforms `x` along each axis in `axes` (default: all
of them), after zero-padding or cropping that axis to its entry of `fft_length` (default:
the axis's length). `norm` scales as NumPy does: "backward" (the default: the inverse
divides by the size n), "ortho" (both by sqrt(n)), "forward" (the forward divides by n).
`rfftnd` keeps half of the last transformed axis (n // 2 + 1 bins), `irfftnd` goes back.
The tf.signal names scale the input by `norm` and call the raw op, as TF does; the raw
tf.fftnd(input, fft_length, axes) takes every argument and no norm.

Where TF 2.21 differs: its CPU build registers no kernel for these four ops (real TF on a
CPU raises NotFoundError "Could not find device for node: FFTND"); its GPU kernel
computes them. minitf computes what the GPU kernel would, so a learner can use them.
TF defines no gradient for them (asking for one raises LookupError), and neither does minitf.

>>> import minitf as tf
>>> z = tf.complex(tf.ones([2, 3]), tf.zeros([2, 3]))
>>> tf.signal.fftnd(z).numpy().real
array([[6., 0., 0.],
       [0., 0., 0.]], dtype=float32)
>>> tf.signal.rfftnd(tf.ones([2, 4]), axes=[1]).shape
TensorShape([2, 3])
"""
import numpy as np

from ..framework import dtypes
from ..framework.op import Op, apply
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export
from .signal_fft_ops import _COMPLEX_OF, _REAL_OF, _complex_input, _fit


def _lengths_along(x, fft_length, axes, inverse_real):
    if len(fft_length) != len(axes):
        raise ValueError(f"fft_length {list(fft_length)} and axes {list(axes)} must have the "
                         "same length: one FFT length per transformed axis.")
    if inverse_real:
        bins = list(fft_length[:-1]) + [fft_length[-1] // 2 + 1]
        return _fit(x, axes, bins)
    return _fit(x, axes, fft_length)


def _fftnd_forward(kind):
    def forward(x, fft_length, axes):
        fitted = _lengths_along(x, fft_length, axes, kind == "irfft")
        if fitted.size == 0 or 0 in fft_length:
            shape = list(fitted.shape)
            if kind == "rfft" and axes:
                shape[axes[-1]] = fft_length[-1] // 2 + 1 if fft_length[-1] else 0
            if kind == "irfft":
                for axis, n in zip(axes, fft_length):
                    shape[axis] = n
            out_dtype = {"rfft": _COMPLEX_OF, "irfft": _REAL_OF}.get(kind, {}).get(x.dtype, x.dtype)
            return np.zeros(shape, out_dtype)
        if kind == "fft":
            return np.fft.fftn(fitted, axes=axes).astype(x.dtype)
        if kind == "ifft":
            return np.fft.ifftn(fitted, axes=axes).astype(x.dtype)
        if kind == "rfft":
            return np.fft.rfftn(fitted, s=fft_length, axes=axes).astype(_COMPLEX_OF[x.dtype])
        return np.fft.irfftn(fitted, s=fft_length, axes=axes).astype(_REAL_OF[x.dtype])
    return forward


def _fftnd_shape(kind):
    def shape(s, fft_length, axes):
        if s.rank is None:
            return TensorShape(None)
        dims = s.as_list()
        for axis, n in zip(axes, fft_length):
            dims[axis] = n
        if kind == "rfft" and axes:
            dims[axes[-1]] = fft_length[-1] // 2 + 1
        return TensorShape(dims)
    return shape


def _real_dtype(x, **attrs):
    return dtypes.as_dtype(_REAL_OF[np.dtype(x.as_numpy_dtype)])


def _complex_dtype(x, **attrs):
    return dtypes.as_dtype(_COMPLEX_OF[np.dtype(x.as_numpy_dtype)])


FFTND = Op("FFTND", _fftnd_forward("fft"), dtypes=dtypes.COMPLEX, shape=_fftnd_shape("fft"))
IFFTND = Op("IFFTND", _fftnd_forward("ifft"), dtypes=dtypes.COMPLEX, shape=_fftnd_shape("ifft"))
RFFTND = Op("RFFTND", _fftnd_forward("rfft"), dtypes=(dtypes.float32, dtypes.float64),
            shape=_fftnd_shape("rfft"), dtype=_complex_dtype)
IRFFTND = Op("IRFFTND", _fftnd_forward("irfft"), dtypes=dtypes.COMPLEX,
             shape=_fftnd_shape("irfft"), dtype=_real_dtype)


def _no_gradient(op, dy):
    raise LookupError(f"gradient registry has no entry for: {op.type} (TensorFlow defines no "
                      "gradient for the N-D FFTs; fft/fft2d/fft3d and rfft/rfft2d have one)")


for _op in (FFTND, IFFTND, RFFTND, IRFFTND):
    _op.def_grad(_no_gradient)


def _ints(value, what):
    from .graph_helper_ops import get_static_value

    static = get_static_value(convert_to_tensor(value, dtypes.int32))
    if static is None:
        raise ValueError(f"minitf needs {what} as known numbers (a list or a constant).")
    return tuple(int(v) for v in np.asarray(static).reshape(-1))


def _arguments(x, fft_length, axes, inverse_real):
    rank = x.shape.rank
    axes = tuple(range(rank)) if axes is None else _ints(axes, "axes")
    axes = tuple(range(rank)[a] for a in axes)
    x.shape.with_rank_at_least(len(axes))
    if fft_length is None:
        lengths = [x.shape[a] for a in axes]
        if inverse_real and lengths:
            lengths[-1] = max(0, 2 * (lengths[-1] - 1))
        return tuple(lengths), axes
    return _ints(fft_length, "fft_length"), axes


def _scale(x, lengths, norm, forward):
    """Scale the input the way TF's wrappers do: forward transforms divide, inverses multiply."""
    if norm is None or norm == "backward":
        return x
    if norm not in ("forward", "ortho"):
        raise ValueError(f'norm must be "backward", "ortho" or "forward"; got {norm!r}.')
    n = float(np.prod(lengths))
    factor = n if norm == "forward" else np.sqrt(n)
    return x * (1.0 / factor) if forward else x * factor


@tf_export("signal.fftnd")
def fftnd(input_tensor, fft_length=None, axes=None, norm=None, name=None):
    """The DFT of a complex tensor along `axes` (default: all), each padded or cropped to
    its fft_length."""
    x = _complex_input(input_tensor, "FFTND")
    lengths, axes = _arguments(x, fft_length, axes, False)
    return apply(FFTND, [_scale(x, lengths, norm, True)], {"fft_length": lengths, "axes": axes})


@tf_export("signal.ifftnd")
def ifftnd(input_tensor, fft_length=None, axes=None, norm=None, name=None):
    """The inverse DFT along `axes` (backward norm: divided by the product of fft_length).

    >>> tf.signal.ifftnd(tf.signal.fftnd(tf.ones([2, 2], tf.complex64))).numpy().real
    array([[1., 1.],
           [1., 1.]], dtype=float32)
    """
    x = _complex_input(input_tensor, "IFFTND")
    lengths, axes = _arguments(x, fft_length, axes, False)
    return apply(IFFTND, [_scale(x, lengths, norm, False)], {"fft_length": lengths, "axes": axes})


@tf_export("signal.rfftnd")
def rfftnd(input_tensor, fft_length=None, axes=None, norm=None, name=None):
    """The DFT of a real tensor along `axes`, half of the last one kept (n // 2 + 1 bins)."""
    x = convert_to_tensor(input_tensor)
    if x.dtype not in (dtypes.float32, dtypes.float64):
        raise ValueError(f"RFFT requires tf.float32 or tf.float64 inputs, got: {x!r}")
    lengths, axes = _arguments(x, fft_length, axes, False)
    return apply(RFFTND, [_scale(x, lengths, norm, True)], {"fft_length": lengths, "axes": axes})


@tf_export("signal.irfftnd")
def irfftnd(input_tensor, fft_length=None, axes=None, norm=None, name=None):
    """The real tensor whose `rfftnd` this is (last length: fft_length or 2 * (bins - 1)).

    >>> tf.signal.irfftnd(tf.signal.rfftnd(tf.eye(2))).numpy()
    array([[1., 0.],
           [0., 1.]], dtype=float32)
    """
    x = convert_to_tensor(input_tensor)
    if not x.dtype.is_complex:
        raise ValueError(f"IRFFT requires tf.complex64 or tf.complex128 inputs, got: {x!r}")
    lengths, axes = _arguments(x, fft_length, axes, True)
    return apply(IRFFTND, [_scale(x, lengths, norm, False)], {"fft_length": lengths, "axes": axes})


def _raw(op, input, fft_length, axes, name):  # noqa: A002 - TF's argument name
    x = convert_to_tensor(input)
    if op in (FFTND, IFFTND, IRFFTND):
        x = _complex_input(x, op.name)
    lengths, axes_ = _ints(fft_length, "fft_length"), _ints(axes, "axes")
    axes_ = tuple(range(x.shape.rank)[a] for a in axes_)
    return apply(op, [x], {"fft_length": lengths, "axes": axes_})


@tf_export("fftnd")
def raw_fftnd(input, fft_length, axes, name=None):  # noqa: A002 - TF's argument name
    """The raw FFTND op: every argument given, no norm (see tf.signal.fftnd).

    >>> tf.fftnd(tf.ones([2, 2], tf.complex64), [2, 2], [0, 1]).numpy().real
    array([[4., 0.],
           [0., 0.]], dtype=float32)
    """
    return _raw(FFTND, input, fft_length, axes, name)


@tf_export("ifftnd")
def raw_ifftnd(input, fft_length, axes, name=None):  # noqa: A002 - TF's argument name
    """The raw IFFTND op (see tf.signal.ifftnd)."""
    return _raw(IFFTND, input, fft_length, axes, name)


@tf_export("rfftnd")
def raw_rfftnd(input, fft_length, axes, Tcomplex=dtypes.complex64, name=None):  # noqa: A002,N803
    """The raw RFFTND op (see tf.signal.rfftnd); the output dtype follows the input's."""
    return _raw(RFFTND, input, fft_length, axes, name)


@tf_export("irfftnd")
def raw_irfftnd(input, fft_length, axes, Treal=dtypes.float32, name=None):  # noqa: A002,N803
    """The raw IRFFTND op (see tf.signal.irfftnd); the output dtype follows the input's."""
    return _raw(IRFFTND, input, fft_length, axes, name)
