"""Element-wise math on one tensor: exp, sqrt, sigmoid, sin, erf, round, is_nan, ...

>>> import minitf as tf
>>> tf.exp(tf.constant([0.0, 1.0]))
<tf.Tensor: shape=(2,), dtype=float32, numpy=array([1.      , 2.718282], dtype=float32)>

(TensorFlow prints 2.7182817: float32 kernels may differ in the last digit.)
Every op keeps its input's shape (`same_shape`) and dtype, and accepts only the
dtypes TensorFlow's kernel accepts: `tf.sqrt(tf.constant(4))` is an error, not
2.0, because TensorFlow never turns an int32 tensor into a float by itself.
Gradients reuse the forward's output where the derivative is a function of it:
exp' = exp, tanh' = 1 - tanh^2, sigmoid' = sigmoid (1 - sigmoid), sqrt' = 1 / (2 sqrt).
Rounding ops and `is_nan`-like tests have no gradient (TF's is None too).
The nan-safe divide_no_nan, multiply_no_nan, xlogy and xdivy live in clip_ops.py.
"""
import numpy as np

from ..framework import dtypes, errors
from ..framework.op import Op, apply, silent
from ..framework.tensor import convert_to_tensor
from ..framework.tf_export import tf_export
from .math_ops import conj
from .shape_rules import same_shape

FLOATS = dtypes.FLOATING  # TF's kernels: bfloat16, half, float, double
INEXACT = dtypes.INEXACT  # ... and complex64, complex128


def _unary(op_name, forward, allowed, dtype=None):
    return Op(op_name, forward, dtypes=allowed, shape=same_shape, dtype=dtype)


def _x(op):
    return conj(op.inputs[0])  # TF conjugates before differentiating; a no-op for real x


def _y(op):
    return conj(op.outputs[0])


def _no_cpu_kernel(op_name, array):
    """TF declares some ops for a dtype (int Reciprocal, complex Round) but ships no CPU kernel."""
    return errors.op_error(
        errors.NotFoundError, op_name,
        f"Could not find device for node: {{{{node {op_name}}}}} = "
        f"{op_name}[T=DT_{array.dtype.name.upper()}]",
        f"TensorFlow registers {op_name} for {array.dtype.name} only on accelerators (XLA); "
        "tf.cast the input to a float dtype first.")


# --- roots, exponentials and logarithms ---------------------------------------------------
Sqrt = _unary("Sqrt", silent(np.sqrt), INEXACT)


@Sqrt.def_grad
def _sqrt_grad(op, dy):
    return dy * 0.5 / _y(op)  # d sqrt(x) = 1 / (2 sqrt(x)): reuse the output


@tf_export("math.sqrt", "sqrt")
def sqrt(x, name=None):
    """sqrt(x), element-wise; negative inputs give nan.

    >>> tf.sqrt(tf.constant([4.0, 9.0]))
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([2., 3.], dtype=float32)>
    """
    return apply(Sqrt, [convert_to_tensor(x)])


def _rsqrt(x):
    return np.reciprocal(np.sqrt(x))


Rsqrt = _unary("Rsqrt", silent(_rsqrt), INEXACT)


@Rsqrt.def_grad
def _rsqrt_grad(op, dy):
    y = _y(op)  # y = x^(-1/2), so dy/dx = -1/2 x^(-3/2) = -1/2 y^3
    return dy * (-0.5 * y * y * y)


@tf_export("math.rsqrt")
def rsqrt(x, name=None):
    """1 / sqrt(x), element-wise.

    >>> tf.math.rsqrt(tf.constant([4.0, 0.25]))
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([0.5, 2. ], dtype=float32)>
    """
    return apply(Rsqrt, [convert_to_tensor(x)])


Exp = _unary("Exp", silent(np.exp), INEXACT)


@Exp.def_grad
def _exp_grad(op, dy):
    return dy * _y(op)  # d e^x = e^x: the output itself


@tf_export("math.exp", "exp")
def exp(x, name=None):
    """e^x, element-wise.

    >>> tf.exp(tf.constant([0.0, 0.5]))
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([1.       , 1.6487212], dtype=float32)>
    """
    return apply(Exp, [convert_to_tensor(x)])


Expm1 = _unary("Expm1", silent(np.expm1), INEXACT)


@Expm1.def_grad
def _expm1_grad(op, dy):
    return dy * exp(_x(op))  # not y + 1: that loses every digit when y is close to -1


@tf_export("math.expm1")
def expm1(x, name=None):
    """e^x - 1, accurate even when x is tiny (where exp(x) - 1 would round to 0).

    >>> tf.math.expm1(tf.constant([1e-10]))
    <tf.Tensor: shape=(1,), dtype=float32, numpy=array([1.e-10], dtype=float32)>
    >>> tf.exp(tf.constant([1e-10])) - 1
    <tf.Tensor: shape=(1,), dtype=float32, numpy=array([0.], dtype=float32)>
    """
    return apply(Expm1, [convert_to_tensor(x)])


Log1p = _unary("Log1p", silent(np.log1p), INEXACT)


@Log1p.def_grad
def _log1p_grad(op, dy):
    return dy * reciprocal(1 + _x(op))  # d ln(1 + x) = 1 / (1 + x)


@tf_export("math.log1p")
def log1p(x, name=None):
    """ln(1 + x), accurate even when x is tiny.

    >>> tf.math.log1p(tf.constant([0.0, 1.0]))
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([0.       , 0.6931472], dtype=float32)>
    """
    return apply(Log1p, [convert_to_tensor(x)])


# --- powers -------------------------------------------------------------------------------
Square = _unary("Square", silent(np.square), dtypes.NUMERIC)


@Square.def_grad
def _square_grad(op, dy):
    return dy * (2 * _x(op))  # d x^2 = 2x


@tf_export("math.square", "square")
def square(x, name=None):
    """x * x, element-wise; integer tensors stay integers (and wrap around on overflow).

    >>> tf.square(tf.constant([-3, 4]))
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([ 9, 16], dtype=int32)>
    """
    return apply(Square, [convert_to_tensor(x)])


def _reciprocal(x):
    if x.dtype.kind == "i":
        raise _no_cpu_kernel("Reciprocal", x)
    return np.reciprocal(x)


Reciprocal = _unary("Reciprocal", silent(_reciprocal), INEXACT | dtypes.SIGNED_INTEGER)


@Reciprocal.def_grad
def _reciprocal_grad(op, dy):
    return -dy * square(_y(op))  # d (1/x) = -1/x^2 = -y^2


@tf_export("math.reciprocal")
def reciprocal(x, name=None):
    """1 / x, element-wise (1 / 0 is inf). Only float and complex tensors run on a CPU.

    >>> tf.math.reciprocal(tf.constant([2.0, -0.5]))
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([ 0.5, -2. ], dtype=float32)>
    """
    return apply(Reciprocal, [convert_to_tensor(x)])


# --- trigonometry ---------------------------------------------------------------------------
Sin = _unary("Sin", np.sin, INEXACT)
Cos = _unary("Cos", np.cos, INEXACT)
Tan = _unary("Tan", silent(np.tan), INEXACT)


@Sin.def_grad
def _sin_grad(op, dy):
    return dy * cos(_x(op))


@Cos.def_grad
def _cos_grad(op, dy):
    return -dy * sin(_x(op))


@Tan.def_grad
def _tan_grad(op, dy):
    return dy * square(reciprocal(cos(_x(op))))  # d tan x = sec^2 x


@tf_export("math.sin", "sin")
def sin(x, name=None):
    """sin(x), x in radians.

    >>> tf.sin(tf.constant([0.0, 1.5707964]))
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([0., 1.], dtype=float32)>
    """
    return apply(Sin, [convert_to_tensor(x)])


@tf_export("math.cos", "cos")
def cos(x, name=None):
    """cos(x), x in radians.

    >>> tf.cos(tf.constant([0.0, 3.1415927]))
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([ 1., -1.], dtype=float32)>
    """
    return apply(Cos, [convert_to_tensor(x)])


@tf_export("math.tan", "tan")
def tan(x, name=None):
    """tan(x) = sin(x) / cos(x), x in radians.

    >>> tf.tan(tf.constant([0.0, 0.7853982]))
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([0., 1.], dtype=float32)>
    """
    return apply(Tan, [convert_to_tensor(x)])


Asin = _unary("Asin", silent(np.arcsin), INEXACT)
Acos = _unary("Acos", silent(np.arccos), INEXACT)
Atan = _unary("Atan", np.arctan, INEXACT)


@Asin.def_grad
def _asin_grad(op, dy):
    return dy * reciprocal(sqrt(1 - square(_x(op))))  # d asin x = 1 / sqrt(1 - x^2)


@Acos.def_grad
def _acos_grad(op, dy):
    return -dy * reciprocal(sqrt(1 - square(_x(op))))  # d acos x = -1 / sqrt(1 - x^2)


@Atan.def_grad
def _atan_grad(op, dy):
    return dy * reciprocal(1 + square(_x(op)))  # d atan x = 1 / (1 + x^2)


@tf_export("math.asin", "asin")
def asin(x, name=None):
    """The angle in [-pi/2, pi/2] whose sine is x (nan outside [-1, 1]).

    >>> tf.asin(tf.constant([0.0, 1.0]))
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([0.       , 1.5707964], dtype=float32)>
    """
    return apply(Asin, [convert_to_tensor(x)])


@tf_export("math.acos", "acos")
def acos(x, name=None):
    """The angle in [0, pi] whose cosine is x (nan outside [-1, 1]).

    >>> tf.acos(tf.constant([1.0, -1.0]))
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([0.       , 3.1415927], dtype=float32)>
    """
    return apply(Acos, [convert_to_tensor(x)])


@tf_export("math.atan", "atan")
def atan(x, name=None):
    """The angle in (-pi/2, pi/2) whose tangent is x.

    >>> tf.atan(tf.constant([0.0, 1.0]))
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([0.       , 0.7853982], dtype=float32)>
    """
    return apply(Atan, [convert_to_tensor(x)])


# --- hyperbolic functions and the sigmoid family --------------------------------------------
Sinh = _unary("Sinh", silent(np.sinh), INEXACT)
Cosh = _unary("Cosh", silent(np.cosh), INEXACT)
Tanh = _unary("Tanh", np.tanh, INEXACT)


@Sinh.def_grad
def _sinh_grad(op, dy):
    return dy * cosh(_x(op))


@Cosh.def_grad
def _cosh_grad(op, dy):
    return dy * sinh(_x(op))


@Tanh.def_grad
def _tanh_grad(op, dy):
    y = _y(op)
    return dy * (1 - y * y)  # d tanh x = 1 - tanh^2 x: reuse the output


@tf_export("math.sinh", "sinh")
def sinh(x, name=None):
    """(e^x - e^-x) / 2.

    >>> tf.sinh(tf.constant([0.0, 1.0]))
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([0.       , 1.1752012], dtype=float32)>
    """
    return apply(Sinh, [convert_to_tensor(x)])


@tf_export("math.cosh", "cosh")
def cosh(x, name=None):
    """(e^x + e^-x) / 2.

    >>> tf.cosh(tf.constant([0.0, 1.0]))  # the last digit depends on NumPy's float32 kernel
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([1.       , 1.543080...], dtype=float32)>
    """
    return apply(Cosh, [convert_to_tensor(x)])


@tf_export("math.tanh", "nn.tanh", "tanh")
def tanh(x, name=None):
    """(e^x - e^-x) / (e^x + e^-x), squashing into (-1, 1).

    >>> tf.tanh(tf.constant([0.0, 1.0]))
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([0.       , 0.7615942], dtype=float32)>
    """
    return apply(Tanh, [convert_to_tensor(x)])


def _sigmoid(x):
    if x.dtype.kind == "c":
        return 1 / (1 + np.exp(-x))
    # 1 / (1 + e^-x) overflows e^-x for x << 0. With e = e^-|x| (always in (0, 1]):
    # sigmoid(x) = 1 / (1 + e) for x >= 0 and e / (1 + e) for x < 0 - no overflow anywhere.
    e = np.exp(-np.abs(x))
    return np.where(x >= 0, 1 / (1 + e), e / (1 + e))


Sigmoid = _unary("Sigmoid", _sigmoid, INEXACT)


@Sigmoid.def_grad
def _sigmoid_grad(op, dy):
    y = _y(op)
    return dy * y * (1 - y)  # d sigmoid = sigmoid (1 - sigmoid): reuse the output


@tf_export("math.sigmoid", "nn.sigmoid", "sigmoid")
def sigmoid(x, name=None):
    """1 / (1 + e^-x), squashing into (0, 1); stable for any x (no overflow).

    >>> tf.sigmoid(tf.constant([-1000.0, 0.0, 1000.0]))
    <tf.Tensor: shape=(3,), dtype=float32, numpy=array([0. , 0.5, 1. ], dtype=float32)>
    """
    return apply(Sigmoid, [convert_to_tensor(x)])


def _log_sigmoid(x):
    # log sigmoid(x) = -softplus(-x) = -(max(-x, 0) + log(1 + e^-|x|)): no overflow anywhere.
    return -(np.maximum(-x, 0) + np.log1p(np.exp(-np.abs(x))))


LogSigmoid = _unary("LogSigmoid", _log_sigmoid, FLOATS)


@LogSigmoid.def_grad
def _log_sigmoid_grad(op, dy):
    return dy * sigmoid(-op.inputs[0])  # d log sigmoid(x) = 1 - sigmoid(x) = sigmoid(-x)


@tf_export("math.log_sigmoid")
def log_sigmoid(x, name=None):
    """log(sigmoid(x)) = -softplus(-x), without overflow or log(0) for large |x|.

    In TensorFlow this is composed as `-tf.nn.softplus(-x)` (its errors name
    the Softplus op); minitf declares it as one op, LogSigmoid.

    >>> tf.math.log_sigmoid(tf.constant([-1000.0, 0.0, 1.0])).numpy().round(5)
    array([-1.0000e+03, -6.9315e-01, -3.1326e-01], dtype=float32)
    """
    return apply(LogSigmoid, [convert_to_tensor(x)])


# --- the error function -----------------------------------------------------------------------
_TWO_OVER_SQRT_PI = 2 / np.sqrt(np.pi)


def _erf_series(z):
    """erf(z) = 2/sqrt(pi) e^(-z^2) sum_n 2^n z^(2n+1) / (1*3*...*(2n+1))  (A-S 7.1.6).

    z: float64 without nan. Every term has z's sign, so the sum never cancels; for
    |z| >= 6, erf is +-1 to double precision, so z is clipped there.
    """
    z = np.clip(z, -6.0, 6.0)
    term = z.copy()
    total = z.copy()
    n = 0
    while np.any(np.abs(term) > 1e-17 * np.abs(total)):
        n += 1
        term = term * (2 * z * z) / (2 * n + 1)
        total = total + term
    return _TWO_OVER_SQRT_PI * np.exp(-z * z) * total


def _erfc_tail(z):
    """erfc(z) for z >= 1.5 by its continued fraction (A-S 7.1.14), 100 terms evaluated backwards:
    erfc(z) = e^(-z^2)/sqrt(pi) / (z + (1/2)/(z + (2/2)/(z + (3/2)/(z + ...)))).
    """
    t = z.copy()
    for k in range(100, 0, -1):
        t = z + (k / 2) / t
    return np.exp(-z * z) / (np.sqrt(np.pi) * t)


def _erf(x):
    z = x.astype(np.float64)
    series = np.clip(_erf_series(np.nan_to_num(z)), -1.0, 1.0)  # the series overshoots past |6|
    return np.where(np.isnan(z), np.nan, series).astype(x.dtype)


def _erfc(x):
    # 1 - erf(x) cancels for large x (erfc(10) = 2e-45 would be 0), so x >= 1.5 uses the tail.
    z = x.astype(np.float64)
    near = 1 - _erf_series(np.nan_to_num(z))
    tail = _erfc_tail(np.where(z >= 1.5, z, 1.5))
    return np.where(np.isnan(z), np.nan, np.where(z >= 1.5, tail, near)).astype(x.dtype)


Erf = _unary("Erf", _erf, FLOATS)
Erfc = _unary("Erfc", _erfc, FLOATS)


@Erf.def_grad
def _erf_grad(op, dy):
    return dy * _TWO_OVER_SQRT_PI * exp(-square(op.inputs[0]))  # d erf x = 2/sqrt(pi) e^(-x^2)


@Erfc.def_grad
def _erfc_grad(op, dy):
    return dy * -_TWO_OVER_SQRT_PI * exp(-square(op.inputs[0]))  # erfc = 1 - erf


@tf_export("math.erf")
def erf(x, name=None):
    """The Gauss error function erf(x) = 2/sqrt(pi) * integral_0^x e^(-t^2) dt.

    >>> tf.math.erf(tf.constant([0.0, 1.0]))
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([0.       , 0.8427008], dtype=float32)>
    """
    return apply(Erf, [convert_to_tensor(x)])


@tf_export("math.erfc")
def erfc(x, name=None):
    """The complementary error function 1 - erf(x), accurate even where it is tiny.

    >>> tf.math.erfc(tf.constant([0.0, 10.0], tf.float64))
    <tf.Tensor: shape=(2,), dtype=float64, numpy=array([1.00000000e+00, 2.08848758e-45])>
    """
    return apply(Erfc, [convert_to_tensor(x)])


# --- rounding (no gradient: the derivative is 0 almost everywhere; TF's is None) -------------
def _round(x):
    if x.dtype.kind == "c":
        raise _no_cpu_kernel("Round", x)
    return np.round(x)  # halves go to the even neighbour, like TF


Round = _unary("Round", _round, FLOATS | dtypes.SIGNED_INTEGER | dtypes.COMPLEX)
Floor = _unary("Floor", np.floor, FLOATS)
Ceil = _unary("Ceil", np.ceil, FLOATS)


@tf_export("math.round", "round")
def round(x, name=None):  # noqa: A001 - TF's public name
    """The nearest integer, halves to even ("banker's rounding"): 0.5 -> 0, 1.5 -> 2, 2.5 -> 2.

    >>> tf.round(tf.constant([0.5, 1.5, 2.5, -1.7]))
    <tf.Tensor: shape=(4,), dtype=float32, numpy=array([ 0.,  2.,  2., -2.], dtype=float32)>
    """
    x = convert_to_tensor(x)
    if x.dtype.is_integer:
        return x  # already whole numbers, as TF's wrapper says
    return apply(Round, [x])


@tf_export("math.floor", "floor")
def floor(x, name=None):
    """The largest integer <= x (as a float).

    >>> tf.floor(tf.constant([-1.5, 1.5]))
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([-2.,  1.], dtype=float32)>
    """
    return apply(Floor, [convert_to_tensor(x)])


@tf_export("math.ceil")
def ceil(x, name=None):
    """The smallest integer >= x (as a float).

    >>> tf.math.ceil(tf.constant([-1.5, 1.5]))
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([-1.,  2.], dtype=float32)>
    """
    return apply(Ceil, [convert_to_tensor(x)])


# --- tests for special values (bool results, no gradient) -------------------------------------
IsNan = _unary("IsNan", np.isnan, FLOATS, dtype=dtypes.bool)
IsInf = _unary("IsInf", np.isinf, FLOATS, dtype=dtypes.bool)
IsFinite = _unary("IsFinite", np.isfinite, FLOATS, dtype=dtypes.bool)


@tf_export("math.is_nan")
def is_nan(x, name=None):
    """True where x is nan.

    >>> tf.math.is_nan(tf.constant([1.0, float("nan"), float("inf")]))
    <tf.Tensor: shape=(3,), dtype=bool, numpy=array([False,  True, False])>
    """
    return apply(IsNan, [convert_to_tensor(x)])


@tf_export("math.is_inf")
def is_inf(x, name=None):
    """True where x is +inf or -inf.

    >>> tf.math.is_inf(tf.constant([1.0, float("nan"), -float("inf")]))
    <tf.Tensor: shape=(3,), dtype=bool, numpy=array([False, False,  True])>
    """
    return apply(IsInf, [convert_to_tensor(x)])


@tf_export("math.is_finite")
def is_finite(x, name=None):
    """True where x is neither nan nor +-inf.

    >>> tf.math.is_finite(tf.constant([1.0, float("nan"), float("inf")]))
    <tf.Tensor: shape=(3,), dtype=bool, numpy=array([ True, False, False])>
    """
    return apply(IsFinite, [convert_to_tensor(x)])
