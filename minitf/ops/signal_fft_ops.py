"""tf.signal's Fourier transforms: fft/ifft (1-D, 2-D, 3-D, N-D), rfft/irfft, fftshift.

The discrete Fourier transform of x_0 .. x_{N-1} is X_k = sum_n x_n exp(-2 pi i k n / N);
the inverse puts a + in the exponent and divides by N. `fft`, `fft2d`, `fft3d` transform
the innermost 1, 2 or 3 axes of a complex64/complex128 tensor (TF has no kernel for real
inputs: cast with `tf.complex(x, 0 * x)` or use `rfft`). `rfft` takes a real signal and
keeps only the bins 0 .. N // 2 (the rest mirror them); `irfft` goes back. Their
`fft_length` pads the signal with zeros, or crops it, to that many samples.

Gradients follow TF's convention for complex numbers (dL/d real + i dL/d imag): the
adjoint of the DFT matrix is N times the inverse DFT, so `fft`'s gradient is
`ifft(dy) * N` and `ifft`'s is `fft(dy) / N`.

>>> import minitf as tf
>>> x = tf.constant([1.0, 2.0, 3.0, 4.0])
>>> tf.signal.rfft(x)
<tf.Tensor: shape=(3,), dtype=complex64, numpy=array([10.+0.j, -2.+2.j, -2.+0.j], dtype=complex64)>
>>> tf.signal.irfft(tf.signal.rfft(x))
<tf.Tensor: shape=(4,), dtype=float32, numpy=array([1., 2., 3., 4.], dtype=float32)>
"""
import numpy as np

from ..framework import dtypes, errors
from ..framework.op import Op, apply
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export

_REAL_OF = {np.dtype(np.complex64): np.float32, np.dtype(np.complex128): np.float64}
_COMPLEX_OF = {np.dtype(np.float32): np.complex64, np.dtype(np.float64): np.complex128}


def _check_rank(name, x, rank):
    if x.ndim < rank:
        raise errors.InvalidArgumentError(
            None, None, f"Input must have rank of at least {rank} but got: {list(x.shape)} "
            f"[Op:{name}]. An FFT{'' if rank == 1 else f' of rank {rank}'} transforms the "
            f"innermost {rank} axes, so the input needs at least that many.")


# -- complex to complex ------------------------------------------------------------------

def _complex_fft_op(name, rank, inverse):
    def forward(x):
        _check_rank(name, x, rank)
        axes = tuple(range(x.ndim - rank, x.ndim))
        if x.size == 0:
            return x.copy()
        out = np.fft.ifftn(x, axes=axes) if inverse else np.fft.fftn(x, axes=axes)
        return out.astype(x.dtype, copy=False)

    return Op(name, forward, dtypes=dtypes.COMPLEX, shape=lambda shape: shape)


FFT, IFFT = _complex_fft_op("FFT", 1, False), _complex_fft_op("IFFT", 1, True)
FFT2D, IFFT2D = _complex_fft_op("FFT2D", 2, False), _complex_fft_op("IFFT2D", 2, True)
FFT3D, IFFT3D = _complex_fft_op("FFT3D", 3, False), _complex_fft_op("IFFT3D", 3, True)
_PAIRS = {"FFT": (IFFT, 1), "IFFT": (FFT, 1), "FFT2D": (IFFT2D, 2), "IFFT2D": (FFT2D, 2),
          "FFT3D": (IFFT3D, 3), "IFFT3D": (FFT3D, 3)}


def _inner_size(shape, rank):
    return int(np.prod(shape.as_list()[-rank:])) if rank else 1


def _complex_fft_grad(op, dy):
    other, rank = _PAIRS[op.type]
    size = _inner_size(dy.shape, rank)
    if op.type.startswith("I"):
        return apply(other, [dy]) * (1.0 / size)
    return apply(other, [dy]) * float(size)


for _op in (FFT, IFFT, FFT2D, IFFT2D, FFT3D, IFFT3D):
    _op.def_grad(_complex_fft_grad)


def _complex_input(x, name):
    x = convert_to_tensor(x)
    if not x.dtype.is_complex:
        raise errors.InvalidArgumentError(
            None, None, f"Value for attr 'Tcomplex' of {dtypes.tf_type_name(x.dtype)} is not in "
            f"the list of allowed values: complex64, complex128 [Op:{name}]. The FFT kernels "
            "take complex numbers: use tf.signal.rfft for a real signal, or build a complex "
            "tensor with tf.complex(x, tf.zeros_like(x)).")
    return x


@tf_export("signal.fft")
def fft(input, name=None):  # noqa: A002 - TF's argument name
    """The DFT over the innermost axis of a complex tensor.

    >>> tf.signal.fft(tf.constant([1, 1j, -1, -1j], tf.complex64)).numpy().round(4)
    array([0.+0.j, 4.+0.j, 0.+0.j, 0.+0.j], dtype=complex64)
    """
    return apply(FFT, [_complex_input(input, "FFT")])


@tf_export("signal.ifft")
def ifft(input, name=None):  # noqa: A002 - TF's argument name
    """The inverse DFT over the innermost axis: exp(+2 pi i k n / N), divided by N.

    >>> tf.signal.ifft(tf.constant([4, 0, 0, 0], tf.complex64)).numpy()
    array([1.+0.j, 1.+0.j, 1.+0.j, 1.+0.j], dtype=complex64)
    """
    return apply(IFFT, [_complex_input(input, "IFFT")])


@tf_export("signal.fft2d")
def fft2d(input, name=None):  # noqa: A002 - TF's argument name
    """The 2-D DFT over the two innermost axes of a complex tensor.

    >>> tf.signal.fft2d(tf.ones([2, 2], tf.complex64)).numpy().real
    array([[4., 0.],
           [0., 0.]], dtype=float32)
    """
    return apply(FFT2D, [_complex_input(input, "FFT2D")])


@tf_export("signal.ifft2d")
def ifft2d(input, name=None):  # noqa: A002 - TF's argument name
    """The inverse 2-D DFT over the two innermost axes (divided by their size).

    >>> tf.signal.ifft2d(tf.constant([[4, 0], [0, 0]], tf.complex64)).numpy().real
    array([[1., 1.],
           [1., 1.]], dtype=float32)
    """
    return apply(IFFT2D, [_complex_input(input, "IFFT2D")])


@tf_export("signal.fft3d")
def fft3d(input, name=None):  # noqa: A002 - TF's argument name
    """The 3-D DFT over the three innermost axes of a complex tensor.

    >>> tf.signal.fft3d(tf.ones([2, 2, 2], tf.complex64)).numpy().real[0, 0]
    array([8., 0.], dtype=float32)
    """
    return apply(FFT3D, [_complex_input(input, "FFT3D")])


@tf_export("signal.ifft3d")
def ifft3d(input, name=None):  # noqa: A002 - TF's argument name
    """The inverse 3-D DFT over the three innermost axes (divided by their size).

    >>> tf.signal.ifft3d(tf.ones([2, 2, 2], tf.complex64)).numpy().real[0, 0]
    array([1., 0.], dtype=float32)
    """
    return apply(IFFT3D, [_complex_input(input, "IFFT3D")])


# -- real to half spectrum and back ------------------------------------------------------

def _fit(x, axes, sizes):
    """x cropped or zero-padded to `sizes` along `axes` (NumPy)."""
    index = [slice(None)] * x.ndim
    pads = [(0, 0)] * x.ndim
    for axis, size in zip(axes, sizes):
        index[axis] = slice(0, size)
        pads[axis] = (0, max(size - x.shape[axis], 0))
    return np.pad(x[tuple(index)], pads)


def _rfft_forward(x, fft_length, axes, name):
    lengths = list(fft_length)
    if any(n < 0 for n in lengths):
        raise errors.InvalidArgumentError(None, None, f"fft_length must be >= 0, got "
                                          f"{lengths} [Op:{name}]")
    out_shape = list(x.shape)
    for axis, n in zip(axes, lengths):
        out_shape[axis] = n
    out_shape[axes[-1]] = lengths[-1] // 2 + 1 if lengths[-1] else 0
    dtype = _COMPLEX_OF[x.dtype]
    if 0 in out_shape or 0 in lengths:
        return np.zeros(out_shape, dtype)
    return np.fft.rfftn(_fit(x, axes, lengths), s=lengths, axes=axes).astype(dtype)


def _irfft_forward(x, fft_length, axes, name):
    lengths = list(fft_length)
    out_shape = list(x.shape)
    for axis, n in zip(axes, lengths):
        out_shape[axis] = n
    dtype = _REAL_OF[x.dtype]
    if 0 in out_shape:
        return np.zeros(out_shape, dtype)
    bins = lengths[:-1] + [lengths[-1] // 2 + 1]
    return np.fft.irfftn(_fit(x, axes, bins), s=lengths, axes=axes).astype(dtype)


def _spectrum_shape(shape, fft_length, rank, inverse):
    dims = shape.as_list() if shape.rank is not None else None
    if dims is None:
        return TensorShape(None)
    dims[len(dims) - rank:] = list(fft_length)
    if not inverse:
        dims[-1] = fft_length[-1] // 2 + 1 if fft_length[-1] else 0
    return TensorShape(dims)


def _real_fft_op(name, rank, inverse):
    def forward(x, fft_length):
        axes = tuple(range(x.ndim - rank, x.ndim))
        if inverse:
            return _irfft_forward(x, fft_length, axes, name)
        return _rfft_forward(x, fft_length, axes, name)

    def dtype(x, fft_length):
        return dtypes.as_dtype(_REAL_OF[np.dtype(x.as_numpy_dtype)] if inverse
                               else _COMPLEX_OF[np.dtype(x.as_numpy_dtype)])

    allowed = dtypes.COMPLEX if inverse else (dtypes.float32, dtypes.float64)
    return Op(name, forward, dtypes=allowed, dtype=dtype,
              shape=lambda s, fft_length: _spectrum_shape(s, fft_length, rank, inverse))


RFFT, IRFFT = _real_fft_op("RFFT", 1, False), _real_fft_op("IRFFT", 1, True)
RFFT2D, IRFFT2D = _real_fft_op("RFFT2D", 2, False), _real_fft_op("IRFFT2D", 2, True)
RFFT3D, IRFFT3D = _real_fft_op("RFFT3D", 3, False), _real_fft_op("IRFFT3D", 3, True)


def _fit_tensor(t, sizes):
    """Crop or zero-pad the innermost len(sizes) axes of tensor `t` (static shapes)."""
    from .manipulation_ops import pad

    dims = t.shape.as_list()
    rank = len(dims)
    inner = dims[rank - len(sizes):]
    begin = [0] * rank
    size = dims[:rank - len(sizes)] + [min(a, b) for a, b in zip(inner, sizes)]
    if size != dims:
        from .slicing_ops import slice as slice_

        t = slice_(t, begin, [-1 if i < rank - len(sizes) else s for i, s in enumerate(size)])
    extra = [max(b - a, 0) for a, b in zip(inner, sizes)]
    if any(extra):
        t = pad(t, [[0, 0]] * (rank - len(sizes)) + [[0, e] for e in extra])
    return t


def _rfft_grad(op, dy):
    """dx_n = Re(sum_k dy_k exp(+2 pi i k n / N)) over the kept bins: N * ifft of dy padded
    to the full spectrum with zeros (TF's formula, in fewer steps)."""
    rank = 1 if op.type == "RFFT" else 2
    lengths = list(op.attrs["fft_length"])
    full = _fit_tensor(dy, lengths)
    inverse = ifft if rank == 1 else ifft2d
    from .complex_ops import real

    dx = real(inverse(full)) * float(np.prod(lengths))
    return _fit_tensor(dx, op.inputs[0].shape.as_list()[-rank:])


def _irfft_grad(op, dy):
    """TF's rule: rfft(dy) * [1, 2, 2, ..., 2, (1 if N is even)] / size."""
    rank = 1 if op.type == "IRFFT" else 2
    lengths = list(op.attrs["fft_length"])
    n = lengths[-1]
    bins = n // 2 + 1
    mask = np.full(bins, 2.0)
    mask[0] = 1.0
    if n % 2 == 0:
        mask[-1] = 1.0
    spectrum = (rfft if rank == 1 else rfft2d)(dy, lengths)
    from .creation_ops import constant

    spectrum = spectrum * constant(mask / np.prod(lengths), spectrum.dtype)
    return _fit_tensor(spectrum, op.inputs[0].shape.as_list()[-rank:])


for _op in (RFFT, RFFT2D):
    _op.def_grad(_rfft_grad)
for _op in (IRFFT, IRFFT2D):
    _op.def_grad(_irfft_grad)


def _no_gradient(op, dy):
    raise LookupError(f"gradient registry has no entry for: {op.type} (TensorFlow defines no "
                      "gradient for the 3-D real transforms; rfft2d/irfft2d and fft3d have one)")


for _op in (RFFT3D, IRFFT3D):
    _op.def_grad(_no_gradient)


def _static_lengths(fft_length, rank, what):
    from .graph_helper_ops import get_static_value

    value = get_static_value(convert_to_tensor(fft_length, dtypes.int32))
    if value is None:
        raise ValueError(f"{what}: minitf needs fft_length as known numbers (a list or a "
                         "constant), since the output shape depends on it.")
    value = np.asarray(value).reshape(-1)
    if value.size != rank:
        raise ValueError(f"Shape ({value.size},) must have rank {rank}: fft_length gives one "
                         f"length per transformed axis ({rank} here).")
    return tuple(int(v) for v in value)


def _real_fft(op, rank, input_tensor, fft_length, name):
    x = convert_to_tensor(input_tensor)
    if x.dtype not in (dtypes.float32, dtypes.float64):
        raise ValueError(f"RFFT requires tf.float32 or tf.float64 inputs, got: {x!r}")
    x.shape.with_rank_at_least(rank)
    if fft_length is None:
        fft_length = x.shape.as_list()[-rank:]
    return apply(op, [x], {"fft_length": _static_lengths(fft_length, rank, name)})


def _inverse_real_fft(op, rank, input_tensor, fft_length, name):
    x = convert_to_tensor(input_tensor)
    x.shape.with_rank_at_least(rank)
    if not x.dtype.is_complex:
        raise ValueError(f"IRFFT requires tf.complex64 or tf.complex128 inputs, got: {x!r}")
    if fft_length is None:
        fft_length = x.shape.as_list()[-rank:]
        if fft_length:
            fft_length[-1] = max(0, 2 * (fft_length[-1] - 1))
    return apply(op, [x], {"fft_length": _static_lengths(fft_length, rank, name)})


@tf_export("signal.rfft")
def rfft(input_tensor, fft_length=None, name=None):
    """The DFT of a real signal over its innermost axis: bins 0 .. fft_length // 2.

    `fft_length` (default: the axis's length) zero-pads or crops the signal first.

    >>> tf.signal.rfft(tf.constant([1.0, 2.0, 3.0]), fft_length=[4]).numpy()
    array([ 6.+0.j, -2.-2.j,  2.+0.j], dtype=complex64)
    """
    return _real_fft(RFFT, 1, input_tensor, fft_length, "rfft")


@tf_export("signal.irfft")
def irfft(input_tensor, fft_length=None, name=None):
    """The real signal of length fft_length (default 2 * (bins - 1)) with this half spectrum.

    >>> tf.signal.irfft(tf.constant([3, 1, 1], tf.complex64)).numpy()
    array([1.5, 0.5, 0.5, 0.5], dtype=float32)
    """
    return _inverse_real_fft(IRFFT, 1, input_tensor, fft_length, "irfft")


@tf_export("signal.rfft2d")
def rfft2d(input_tensor, fft_length=None, name=None):
    """The 2-D DFT of a real signal over its two innermost axes (half of the last axis).

    >>> tf.signal.rfft2d(tf.ones([2, 4])).shape
    TensorShape([2, 3])
    """
    return _real_fft(RFFT2D, 2, input_tensor, fft_length, "rfft2d")


@tf_export("signal.irfft2d")
def irfft2d(input_tensor, fft_length=None, name=None):
    """The inverse of `rfft2d`.

    >>> tf.signal.irfft2d(tf.signal.rfft2d(tf.eye(2))).numpy()
    array([[1., 0.],
           [0., 1.]], dtype=float32)
    """
    return _inverse_real_fft(IRFFT2D, 2, input_tensor, fft_length, "irfft2d")


@tf_export("signal.rfft3d")
def rfft3d(input_tensor, fft_length=None, name=None):
    """The 3-D DFT of a real signal over its three innermost axes (no gradient, as in TF).

    >>> tf.signal.rfft3d(tf.ones([2, 2, 2])).numpy()[0, 0]
    array([8.+0.j, 0.+0.j], dtype=complex64)
    """
    return _real_fft(RFFT3D, 3, input_tensor, fft_length, "rfft3d")


@tf_export("signal.irfft3d")
def irfft3d(input_tensor, fft_length=None, name=None):
    """The inverse of `rfft3d` (no gradient, as in TF).

    >>> tf.signal.irfft3d(tf.signal.rfft3d(tf.ones([2, 2, 2]))).numpy()[0, 0]
    array([1., 1.], dtype=float32)
    """
    return _inverse_real_fft(IRFFT3D, 3, input_tensor, fft_length, "irfft3d")


# -- shifts -------------------------------------------------------------------------------

def _shift(x, axes, sign):
    from .repeat_roll_ops import roll

    x = convert_to_tensor(x)
    dims = x.shape.as_list()
    if axes is None:
        axes = list(range(len(dims)))
    single = isinstance(axes, (int, np.integer))
    axis_list = [int(axes)] if single else [int(a) for a in axes]
    shift = [sign * (dims[a] // 2) for a in axis_list]
    return roll(x, shift[0] if single else shift, axis_list[0] if single else axis_list)


@tf_export("signal.fftshift")
def fftshift(x, axes=None, name=None):
    """Roll each axis (default: all) by half its length: bin 0 moves to the centre.

    >>> tf.signal.fftshift(tf.constant([0., 1., 2., 3., 4., -5., -4., -3., -2., -1.])).numpy()
    array([-5., -4., -3., -2., -1.,  0.,  1.,  2.,  3.,  4.], dtype=float32)
    """
    return _shift(x, axes, 1)


@tf_export("signal.ifftshift")
def ifftshift(x, axes=None, name=None):
    """The inverse of `fftshift` (they differ by one sample on odd lengths).

    >>> tf.signal.ifftshift(tf.constant([[0., 1., 2.], [3., 4., -4.], [-3., -2., -1.]])).numpy()
    array([[ 4., -4.,  3.],
           [-2., -1., -3.],
           [ 1.,  2.,  0.]], dtype=float32)
    """
    return _shift(x, axes, -1)
