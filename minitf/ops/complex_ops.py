"""Complex numbers in parts: tf.complex, tf.math.real, tf.math.imag, tf.math.angle.

A complex tensor holds (real, imag) pairs. `complex(a, b)` builds one from two
real tensors; `real`/`imag` take them apart (on real tensors `real` is the
identity and `imag` is zeros, as in TF). The gradients move between the two
views: d real(z) sends dy back as complex(dy, 0), d imag(z) as complex(0, dy).

>>> import minitf as tf
>>> z = tf.complex(tf.constant([1.0, 0.0]), tf.constant([1.0, 2.0]))
>>> z
<tf.Tensor: shape=(2,), dtype=complex64, numpy=array([1.+1.j, 0.+2.j], dtype=complex64)>
>>> tf.math.imag(z), tf.math.angle(z).numpy().round(4)
(<tf.Tensor: shape=(2,), dtype=float32, numpy=array([1., 2.], dtype=float32)>, array([0.7854, 1.5708], dtype=float32))
"""
import numpy as np

from ..framework import dtypes
from ..framework.op import Op, apply
from ..framework.tensor import convert_to_tensor
from ..framework.tf_export import tf_export
from .dtype_rules import real_part
from .reduction_ops import Real
from .shape_rules import broadcast

Imag = Op("Imag", np.imag, dtypes=dtypes.COMPLEX, shape=lambda shape: shape, dtype=real_part)


def _complex_dtype(a, b):
    return dtypes.complex128 if a == dtypes.float64 else dtypes.complex64


Complex = Op("Complex", lambda a, b: a + 1j * b, dtypes=(dtypes.float32, dtypes.float64),
             shape=broadcast("Complex"), dtype=_complex_dtype)


@Imag.def_grad
def _imag_grad(op, dy):
    return complex(dy * 0, dy)  # TF: complex(0, dy)


@Complex.def_grad
def _complex_grad(op, dy):
    from .unbroadcast import unbroadcast

    a, b = op.inputs
    return unbroadcast(real(dy), a), unbroadcast(imag(dy), b)


@tf_export("complex", "dtypes.complex")
def complex(real, imag, name=None):  # noqa: A001 - TF's name
    """real + i * imag, from two float32 (complex64) or float64 (complex128) tensors.

    >>> tf.dtypes.complex(tf.constant([1.0]), tf.constant([2.0]))
    <tf.Tensor: shape=(1,), dtype=complex64, numpy=array([1.+2.j], dtype=complex64)>
    """
    real, imag = convert_to_tensor(real), convert_to_tensor(imag)
    if real.dtype != imag.dtype:
        raise TypeError(f"The `real` and `imag` components have different types: "
                        f"{real.dtype!r} vs. {imag.dtype!r}. Cast one of them first.")
    return apply(Complex, [real, imag])


@tf_export("math.real")
def real(input, name=None):  # noqa: A002 - TF's argument name
    """The real part of a complex tensor (a real tensor unchanged)."""
    x = convert_to_tensor(input)
    return apply(Real, [x]) if x.dtype.is_complex else x


@tf_export("math.imag")
def imag(input, name=None):  # noqa: A002 - TF's argument name
    """The imaginary part of a complex tensor (zeros for a real tensor)."""
    x = convert_to_tensor(input)
    if x.dtype.is_complex:
        return apply(Imag, [x])
    from .creation_ops import zeros_like

    return zeros_like(x)


@tf_export("math.angle")
def angle(input, name=None):  # noqa: A002 - TF's argument name
    """The argument atan2(imag, real) of a complex tensor; 0 or pi for real ones."""
    from .math_more_ops import atan2

    x = convert_to_tensor(input)
    if x.dtype.is_complex:
        return atan2(imag(x), real(x))
    from .array_ops import where
    from .creation_ops import zeros_like

    return where(x < 0, zeros_like(x) + np.pi, zeros_like(x))
