"""Division rounded toward zero and casts that respect bits or bounds: tf.truncatediv,
tf.truncatemod, tf.bitcast, tf.saturate_cast.

>>> import minitf as tf
>>> tf.truncatediv([-7, 7], [2, 2])      # C's `/`: -3.5 rounds toward zero, to -3
<tf.Tensor: shape=(2,), dtype=int32, numpy=array([-3,  3], dtype=int32)>
>>> tf.math.floordiv([-7, 7], [2, 2])    # Python's `//`: -3.5 rounds down, to -4
<tf.Tensor: shape=(2,), dtype=int32, numpy=array([-4,  3], dtype=int32)>

TensorFlow gives truncatediv a gradient of None (it is piecewise constant) and registers
none at all for TruncateMod and Bitcast: asking for one raises LookupError, as here.
"""
import numpy as np

from ..framework import dtypes, errors
from ..framework.op import Op, apply, silent
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export
from .math_ops import binary_args, cast
from .shape_rules import broadcast

_DIV_TYPES = dtypes.REAL | dtypes.COMPLEX
_MOD_TYPES = frozenset({dtypes.int32, dtypes.int64, dtypes.float16,
                        dtypes.float32, dtypes.float64}) & dtypes.REAL


def _check_int_zero(op_name, y):
    if y.dtype.kind in "iu" and np.any(y == 0):  # TF's kernel fails with this odd text
        raise errors.op_error(
            errors.InternalError, op_name,
            "Unexpected error in binary operator (only integer div and mod should have errors)",
            "An integer divided by 0 has no value (integers have no inf or nan).")


def _truncatediv(x, y):
    _check_int_zero("TruncateDiv", y)
    if x.dtype.kind in "iu":
        x, y = np.broadcast_arrays(x, y)
        return (x - np.fmod(x, y)) // y  # exact: the remainder is gone before dividing
    return np.trunc(x / y) if x.dtype.kind != "c" else x / y


def _truncatemod(x, y):
    _check_int_zero("TruncateMod", y)
    return np.fmod(x, y)  # C's fmod: the remainder has the sign of x


TruncateDiv = Op("TruncateDiv", silent(_truncatediv), dtypes=_DIV_TYPES,
                 shape=broadcast("TruncateDiv"))
TruncateMod = Op("TruncateMod", silent(_truncatemod), dtypes=_MOD_TYPES,
                 shape=broadcast("TruncateMod"))


@TruncateDiv.def_grad
def _truncatediv_grad(op, dy):
    return None, None  # TF: "TruncateDiv" is registered with no gradient (None, None)


def raise_no_gradient(op, *dys):
    raise LookupError(f"gradient registry has no entry for: {op.type} (TensorFlow defines no "
                      "gradient for it; wrap it in tf.stop_gradient if the value is all you "
                      "need, or write the math with differentiable ops)")


raise_no_gradient.not_registered = True  # tf.RegisterGradient may still give it one
TruncateMod.def_grad(raise_no_gradient)


@tf_export("truncatediv")
def truncatediv(x, y, name=None):
    """x / y rounded toward zero (C's integer division); floats are divided, then
    truncated. Integer division by zero is an error.

    >>> tf.truncatediv(tf.constant([-7.0, 7.0]), tf.constant([2.0, -2.0]))
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([-3., -3.], dtype=float32)>
    """
    x, y = binary_args(x, y)
    return apply(TruncateDiv, [x, y])


@tf_export("truncatemod")
def truncatemod(x, y, name=None):
    """The remainder of truncatediv: x - truncatediv(x, y) * y, so it has the sign of x
    (Python's `%`, tf.math.floormod, has the sign of y).

    >>> tf.truncatemod([-7, 7], [2, -2])
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([-1,  1], dtype=int32)>
    """
    x, y = binary_args(x, y)
    return apply(TruncateMod, [x, y])


# --- bitcast ---------------------------------------------------------------------------------
_BITCAST_TYPES = (dtypes.REAL | dtypes.COMPLEX) - {dtypes.bool}


def _bitcast_error(source, target):
    return errors.op_error(
        errors.InvalidArgumentError, "Bitcast",
        f"Cannot bitcast from {source.as_datatype_enum} to {target.as_datatype_enum}",
        f"A {source.name} element has {source.size} bytes and a {target.name} element "
        f"{target.size}: the last axis must hold exactly {target.size // source.size or 1} "
        f"{source.name} values per {target.name}.")


def _contiguous(x):  # np.ascontiguousarray would turn a scalar into shape (1,)
    return x if x.flags.c_contiguous else x.copy()


def _bitcast_forward(x, type, _shape):  # noqa: A002
    source, target = dtypes.from_numpy(x.dtype), type
    if source.size > target.size:
        return _contiguous(x).view(target.as_numpy_dtype).reshape(
            x.shape + (source.size // target.size,))
    if source.size < target.size:
        if not x.ndim or x.shape[-1] * source.size != target.size:
            raise _bitcast_error(source, target)
        return _contiguous(x).view(target.as_numpy_dtype).reshape(x.shape[:-1])
    return _contiguous(x).view(target.as_numpy_dtype)


def _bitcast_static_shape(shape, source, target):
    if shape.rank is None:
        return TensorShape(None)
    if source.size > target.size:
        return TensorShape(shape.dims + [source.size // target.size])
    if source.size < target.size:
        last = shape.dims[-1] if shape.rank else 0
        if last is not None and last * source.size != target.size:
            raise _bitcast_error(source, target)
        return TensorShape(shape.dims[:-1])
    return shape


Bitcast = Op("Bitcast", _bitcast_forward, dtypes=_BITCAST_TYPES,
             shape=lambda x, type, _shape: _shape, dtype=lambda x, type, _shape: type)
Bitcast.def_grad(raise_no_gradient)


@tf_export("bitcast")
def bitcast(input, type, name=None):  # noqa: A002 - TF's argument names
    """Reinterpret the bytes of `input` as `type`, without changing them (a NumPy view).

    A wider source gains a last axis of size in/out bytes; a narrower source must
    have a last axis of out/in bytes, which disappears.

    >>> tf.bitcast(tf.constant(1.0), tf.int32)   # the IEEE-754 bits of 1.0
    <tf.Tensor: shape=(), dtype=int32, numpy=1065353216>
    """
    x = convert_to_tensor(input)
    target = dtypes.as_dtype(type)
    if target not in _BITCAST_TYPES:
        raise TypeError(f"Value passed to parameter 'type' has DataType {target.name} not in "
                        "list of allowed values: a numeric type (bitcast moves bytes of "
                        "numbers, not strings or bools)")
    result_shape = _bitcast_static_shape(x.shape, x.dtype, target)  # TF's errors, early
    return apply(Bitcast, [x], {"type": target, "_shape": result_shape})


# --- saturate_cast ---------------------------------------------------------------------------
@tf_export("saturate_cast", "dtypes.saturate_cast")
def saturate_cast(value, dtype, name=None):
    """Cast after clipping to `dtype`'s range, so out-of-range values become the nearest
    representable bound instead of wrapping around (tf.cast(300, tf.uint8) is 44).

    Complex to real keeps the real part, as TensorFlow does.

    >>> tf.saturate_cast([-3.0, 300.0], tf.uint8)
    <tf.Tensor: shape=(2,), dtype=uint8, numpy=array([  0, 255], dtype=uint8)>
    """
    from ..image.dtype_conversion import saturate_cast as clip_and_cast  # noqa: PLC0415
    from .complex_ops import complex as make_complex, imag, real  # noqa: PLC0415

    value = convert_to_tensor(value)
    dtype = dtypes.as_dtype(dtype)
    if value.dtype.is_complex:
        if dtype.is_complex:
            part = dtype.real_dtype
            return make_complex(clip_and_cast(real(value), part), clip_and_cast(imag(value), part))
        value = real(value)
    return clip_and_cast(value, dtype) if value.dtype is not dtype else cast(value, dtype)
