"""`keras.ops` element-wise math: NumPy's names, Keras 3's dtype rules.

Three rules decide the dtype of a result (see `dtype_rules.py`):

* functions that need floats (`exp`, `sqrt`, `sin`, ...) compute ints and bools
  in `floatx()` (float32); a few (`cbrt`, `deg2rad`, `hypot`) give int64 float64;
* binary ops cast both sides to `result_type(x1, x2)`; `add`, `subtract`,
  `multiply`, `divide`, `power`, `maximum`, `minimum` treat a Python number as
  weak (`int8_tensor + 1` stays int8), the others make it a tensor first
  (`int32`/`float32`);
* comparisons give bool.

>>> import minitf as tf
>>> from minitf.keras import ops
>>> ops.sqrt(tf.constant([1, 4, 9]))          # tf.sqrt refuses int32
<tf.Tensor: shape=(3,), dtype=float32, numpy=array([1., 2., 3.], dtype=float32)>
>>> ops.divide(tf.constant([1, 2]), 2)          # int / int is float32 (tf.divide: float64)
<tf.Tensor: shape=(2,), dtype=float32, numpy=array([0.5, 1. ], dtype=float32)>
>>> ops.multiply(tf.constant([1, 2], tf.int8), tf.constant([3, 4], tf.uint8)).dtype
tf.int16

Functions with no TensorFlow kernel of their own (`log2`, `exp2`, `sinc`,
`cbrt`, ...) are written with the ops that exist, so their gradients come from
those ops' gradients.
"""
import math

import numpy as np

import minitf as tf

from ._export import keras_ops_export
from .. import ops  # noqa: F401 - the examples below call ops.*
from .dtype_rules import convert, float_dtype

_LN2, _LN10 = math.log(2.0), math.log(10.0)


def _as_float(x, wide=False):
    """`x` as a tensor Keras's float functions compute on (ints -> floatx; int64 -> float64 if wide)."""
    x = convert(x)
    dtype = x.dtype.name
    target = "float64" if wide and dtype == "int64" else float_dtype(dtype)
    return x if target == dtype else tf.cast(x, target)


def _define(name, body, doc, wide=False, namespace="numpy"):
    """Register `name(x)`: cast to a float dtype, then `body(x)` in minitf ops."""
    def op(x):
        return body(_as_float(x, wide))

    op.__name__ = op.__qualname__ = name
    op.__doc__ = doc
    globals()[name] = keras_ops_export(namespace)(op)


def _sinc(x):
    pix = math.pi * tf.where(tf.equal(x, 0), tf.ones_like(x), x)  # keeps 0/0 out of the gradient
    return tf.where(tf.equal(x, 0), tf.ones_like(x), tf.sin(pix) / pix)


def _cbrt(x):
    return tf.sign(x) * tf.pow(tf.abs(x), tf.constant(1 / 3, x.dtype))


# name -> (body, one-line math); every one is `x` cast to float, then the body.
FLOAT_FUNCTIONS = {
    "arccos": (tf.math.acos, "arccos(x), in radians."),
    "arccosh": (tf.math.acosh, "arccosh(x) = log(x + sqrt(x^2 - 1))."),
    "arcsin": (tf.math.asin, "arcsin(x), in radians."),
    "arcsinh": (tf.math.asinh, "arcsinh(x) = log(x + sqrt(x^2 + 1))."),
    "arctan": (tf.math.atan, "arctan(x), in radians."),
    "arctanh": (tf.math.atanh, "arctanh(x) = (log(1 + x) - log(1 - x)) / 2."),
    "cos": (tf.cos, "cos(x)."), "cosh": (tf.cosh, "cosh(x)."),
    "sin": (tf.sin, "sin(x)."), "sinh": (tf.sinh, "sinh(x)."),
    "tan": (tf.tan, "tan(x)."), "tanh": (tf.tanh, "tanh(x)."),
    "exp": (tf.exp, "e ** x."), "exp2": (lambda x: tf.exp(x * _LN2), "2 ** x."),
    "expm1": (tf.math.expm1, "e ** x - 1, exact for small x."),
    "log": (tf.math.log, "Natural logarithm."), "log1p": (tf.math.log1p, "log(1 + x)."),
    "log2": (lambda x: tf.math.log(x) / _LN2, "Base-2 logarithm."),
    "log10": (lambda x: tf.math.log(x) / _LN10, "Base-10 logarithm."),
    "sqrt": (tf.sqrt, "Square root."),
    "ceil": (tf.math.ceil, "Smallest integer >= x, as a float."),
    "floor": (tf.floor, "Largest integer <= x, as a float."),
    "fabs": (tf.abs, "|x| as a float."),
    "sinc": (_sinc, "sin(pi x) / (pi x), and 1 at 0."),
}
WIDE_FLOAT_FUNCTIONS = {  # int64 inputs give float64 here
    "cbrt": (_cbrt, "Cube root (negative for negative x)."),
    "deg2rad": (lambda x: x * tf.constant(math.pi / 180, x.dtype), "Degrees to radians."),
    "rad2deg": (lambda x: x * tf.constant(180 / math.pi, x.dtype), "Radians to degrees."),
}
for _name, (_body, _doc) in FLOAT_FUNCTIONS.items():
    _define(_name, _body, _doc)
for _name, (_body, _doc) in WIDE_FLOAT_FUNCTIONS.items():
    _define(_name, _body, _doc, wide=True)


# --- unary ops that keep the dtype -------------------------------------------------------

@keras_ops_export("numpy")
def absolute(x):
    """|x|, same dtype.

    >>> ops.absolute(tf.constant([-2, 3]))
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([2, 3], dtype=int32)>
    """
    x = convert(x)
    return x if x.dtype.name == "bool" or x.dtype.name.startswith("uint") else tf.abs(x)


abs = keras_ops_export("numpy", "abs")(absolute)  # noqa: A001 - the public name is abs


@keras_ops_export("numpy")
def negative(x):
    """-x.

    >>> ops.negative(tf.constant([1.0, -2.0]))
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([-1.,  2.], dtype=float32)>
    """
    return tf.negative(convert(x))


@keras_ops_export("numpy")
def square(x):
    """x * x; bool counts as int32.

    >>> ops.square(tf.constant([True, False]))
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([1, 0], dtype=int32)>
    """
    x = convert(x)
    return tf.square(tf.cast(x, "int32") if x.dtype.name == "bool" else x)


@keras_ops_export("numpy")
def sign(x):
    """-1, 0 or 1, same dtype.

    >>> ops.sign(tf.constant([-3.0, 0.0, 2.0]))
    <tf.Tensor: shape=(3,), dtype=float32, numpy=array([-1.,  0.,  1.], dtype=float32)>
    """
    return tf.sign(convert(x))


@keras_ops_export("numpy")
def round(x, decimals=0):  # noqa: A001 - NumPy's name
    """Round half to even (as NumPy), to `decimals` places; same dtype.

    >>> ops.round(tf.constant([0.5, 1.5, 2.567]), decimals=0)
    <tf.Tensor: shape=(3,), dtype=float32, numpy=array([0., 2., 3.], dtype=float32)>
    """
    x = convert(x)
    if decimals == 0:
        return tf.round(x)
    dtype = x.dtype.name
    if "int" in dtype:
        if decimals > 0:
            return x
        x = tf.cast(x, tf.keras.backend.floatx())
    factor = tf.cast(10.0 ** decimals, x.dtype)
    return tf.cast(tf.round(x * factor) / factor, dtype)


@keras_ops_export("numpy")
def trunc(x):
    """The integer part, towards zero; same dtype.

    >>> ops.trunc(tf.constant([-1.7, 1.7]))
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([-1.,  1.], dtype=float32)>
    """
    x = convert(x)
    if "float" not in x.dtype.name:
        return x
    return tf.where(x < 0, tf.math.ceil(x), tf.floor(x))


@keras_ops_export("numpy")
def reciprocal(x):
    """1 / x (floats only, as in TensorFlow).

    >>> ops.reciprocal(tf.constant([2.0, 4.0]))
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([0.5 , 0.25], dtype=float32)>
    """
    return tf.math.reciprocal(convert(x))


@keras_ops_export("numpy")
def conjugate(x):
    """The complex conjugate (real inputs unchanged)."""
    return tf.math.conj(convert(x))


conj = keras_ops_export("numpy", "conj")(conjugate)


@keras_ops_export("numpy")
def real(x):
    """The real part (real inputs unchanged)."""
    x = convert(x)
    return tf.math.real(x) if "complex" in x.dtype.name else x


@keras_ops_export("numpy")
def imag(x):
    """The imaginary part (zeros for real inputs)."""
    x = convert(x)
    return tf.math.imag(x) if "complex" in x.dtype.name else tf.zeros_like(x)


@keras_ops_export("numpy")
def nan_to_num(x, nan=0.0, posinf=None, neginf=None):
    """NaN -> `nan`, +inf -> `posinf` (largest float), -inf -> `neginf`.

    >>> ops.nan_to_num(tf.constant([np.nan, 1.0, -np.inf]), neginf=-9.0)
    <tf.Tensor: shape=(3,), dtype=float32, numpy=array([ 0.,  1., -9.], dtype=float32)>
    """
    x = convert(x)
    if "float" not in x.dtype.name:
        return x
    info = np.finfo(x.dtype.name)
    posinf = info.max if posinf is None else posinf
    neginf = info.min if neginf is None else neginf
    x = tf.where(tf.math.is_nan(x), tf.cast(nan, x.dtype), x)
    x = tf.where(tf.equal(x, np.inf), tf.cast(posinf, x.dtype), x)
    return tf.where(tf.equal(x, -np.inf), tf.cast(neginf, x.dtype), x)


@keras_ops_export("numpy")
def clip(x, x_min, x_max):
    """x limited to [x_min, x_max]; bool counts as int32.

    >>> ops.clip(tf.constant([-2.0, 0.5, 3.0]), 0.0, 1.0)
    <tf.Tensor: shape=(3,), dtype=float32, numpy=array([0. , 0.5, 1. ], dtype=float32)>
    """
    x = convert(x)
    if x.dtype.name == "bool":
        x = tf.cast(x, "int32")
    return tf.clip_by_value(x, tf.cast(x_min, x.dtype), tf.cast(x_max, x.dtype))


# --- bool-valued tests ---------------------------------------------------------------------

def _float_test(name, body, doc, default):
    def op(x):
        x = convert(x)
        if "float" not in x.dtype.name:
            return tf.fill(tf.shape(x), default) if x.shape.rank else tf.constant(default)
        return body(x)

    op.__name__ = op.__qualname__ = name
    op.__doc__ = doc
    globals()[name] = keras_ops_export("numpy")(op)


_float_test("isfinite", tf.math.is_finite, "True where x is neither inf nor NaN.", True)
_float_test("isinf", tf.math.is_inf, "True where x is +inf or -inf.", False)
_float_test("isnan", tf.math.is_nan, "True where x is NaN.", False)
_float_test("isposinf", lambda x: tf.equal(x, np.inf), "True where x is +inf.", False)
_float_test("isneginf", lambda x: tf.equal(x, -np.inf), "True where x is -inf.", False)


@keras_ops_export("numpy")
def signbit(x):
    """True where the sign bit is set (negative numbers and -0.0).

    >>> ops.signbit(tf.constant([-1.0, -0.0, 0.0, 2.0]))
    <tf.Tensor: shape=(4,), dtype=bool, numpy=array([ True,  True, False, False])>
    """
    x = convert(x)
    if x.dtype.name == "bool" or x.dtype.name.startswith("uint"):
        return tf.zeros_like(x, dtype="bool") if x.shape.rank else tf.constant(False)
    if "int" in x.dtype.name:
        return x < 0
    return tf.logical_or(x < 0, tf.logical_and(tf.equal(x, 0), 1 / x < 0))


@keras_ops_export("numpy")
def isreal(x):
    """True where the imaginary part is 0 (everywhere, for real dtypes)."""
    x = convert(x)
    if "complex" in x.dtype.name:
        return tf.equal(tf.math.imag(x), 0)
    return tf.ones_like(x, dtype="bool")
