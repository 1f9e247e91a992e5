"""Element-wise arithmetic with broadcasting: add, subtract, multiply, divide, pow, ...

>>> import minitf as tf
>>> tf.add(tf.constant([[1.0], [2.0]]), tf.constant([10.0, 20.0]))
<tf.Tensor: shape=(2, 2), dtype=float32, numpy=
array([[11., 21.],
       [12., 22.]], dtype=float32)>

Both inputs must have the same dtype (TensorFlow never promotes); Python
numbers adopt the tensor's dtype. Each gradient sums back over broadcast
axes with `unbroadcast`.
"""
import numpy as np

from ..framework import dtypes, errors
from ..framework.gradient_ops import ones_like, zeros_like
from ..framework.op import Op, apply, silent
from ..framework.tensor import EagerTensor, Tensor, convert_to_tensor
from ..framework.tf_export import tf_export
from .dtype_rules import from_attr, real_part
from .shape_rules import broadcast, same_shape
from .unbroadcast import unbroadcast


def binary_args(x, y, soft_hint=False):
    """Convert a pair of operands the way TF's Python wrappers do.

    A Python or NumPy operand is converted to the tensor operand's dtype:
    `x * 2` works for float x, while `int_tensor * 2.5` raises TypeError
    ("Cannot convert 2.5 to EagerTensor of dtype int32"). With `soft_hint`
    (TF does this for the right operand of `+` and `/` only) a value that
    does not fit keeps its own dtype, so the op then reports the mismatch.
    """
    if type(x) is EagerTensor and type(y) is EagerTensor:
        return x, y  # the common case: nothing to read or convert
    if hasattr(x, "_is_variable"):
        x = x._read()
    if hasattr(y, "_is_variable"):
        y = y._read()
    if isinstance(x, Tensor):
        if not isinstance(y, Tensor):
            y = convert_to_tensor(y, dtype_hint=x._dtype) if soft_hint else \
                convert_to_tensor(y, dtype=x._dtype)
    elif isinstance(y, Tensor):
        x = convert_to_tensor(x, dtype=y._dtype)
    else:
        x = convert_to_tensor(x)
        y = convert_to_tensor(y, dtype_hint=x._dtype) if soft_hint else \
            convert_to_tensor(y, dtype=x._dtype)
    return x, y


def _binary(op_name, forward, dtypes_=dtypes.NUMERIC):
    return Op(op_name, forward, dtypes=dtypes_, shape=broadcast(op_name))


def _xy(op):
    return op.inputs[0], op.inputs[1]


# --- add, subtract, multiply ----------------------------------------------------------
AddV2 = _binary("AddV2", np.add)


@AddV2.def_grad
def _add_grad(op, dy):
    x, y = _xy(op)
    return unbroadcast(dy, x), unbroadcast(dy, y)


# TF's "Add" also joins strings; NumPy keeps TF strings as object arrays of bytes.
StringAdd = _binary("Add", lambda x, y: np.asarray(np.add(x, y), dtype=object), {dtypes.string})


@tf_export("math.add", "add")
def add(x, y, name=None):
    """x + y, element-wise, with broadcasting (string tensors are concatenated)."""
    x, y = binary_args(x, y, soft_hint=True)
    return apply(StringAdd if x.dtype is dtypes.string else AddV2, [x, y])


Sub = _binary("Sub", np.subtract)


@Sub.def_grad
def _sub_grad(op, dy):
    x, y = _xy(op)
    return unbroadcast(dy, x), unbroadcast(-dy, y)


@tf_export("math.subtract", "subtract")
def subtract(x, y, name=None):
    """x - y, element-wise."""
    x, y = binary_args(x, y)
    return apply(Sub, [x, y])


Mul = _binary("Mul", np.multiply, dtypes.NUMERIC | {dtypes.bool})


@Mul.def_grad
def _mul_grad(op, dy):
    x, y = _xy(op)  # d(xy)/dx = y, d(xy)/dy = x
    return unbroadcast(dy * conj(y), x), unbroadcast(conj(x) * dy, y)


@tf_export("math.multiply", "multiply")
def multiply(x, y, name=None):
    """x * y, element-wise (use tf.matmul for the matrix product)."""
    x, y = binary_args(x, y)
    return apply(Mul, [x, y])


# --- division -----------------------------------------------------------------------------
RealDiv = _binary("RealDiv", silent(np.divide), dtypes.INEXACT)


@RealDiv.def_grad
def _realdiv_grad(op, dy):
    x, y = _xy(op)  # d(x/y)/dx = 1/y, d(x/y)/dy = -x/y^2
    return unbroadcast(dy / conj(y), x), unbroadcast(dy * conj(-x / y / y), y)


@tf_export("math.truediv", "truediv")
def truediv(x, y, name=None):
    """x / y; integers are first cast to float (int8/16 -> float32, int32/64 -> float64), as in TF."""
    x, y = binary_args(x, y, soft_hint=True)
    if x.dtype is not y.dtype:
        raise TypeError(f"`x` and `y` must have the same dtype, got {x.dtype!r} != {y.dtype!r}. "
                        "Cast one of them with tf.cast first.")
    if x.dtype.is_integer:
        target = dtypes.float32 if x.dtype.size <= 2 else dtypes.float64
        x, y = cast(x, target), cast(y, target)
    return apply(RealDiv, [x, y])


@tf_export("math.divide", "divide")
def divide(x, y, name=None):
    """x / y (same as the `/` operator)."""
    return truediv(x, y)


@tf_export("realdiv")
def realdiv(x, y, name=None):
    """x / y for floating tensors (no integer casting).

    >>> tf.realdiv([7.0, -7.0], [2.0, 2.0])
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([ 3.5, -3.5], dtype=float32)>
    """
    x, y = binary_args(x, y)
    if x.dtype is y.dtype and x.dtype.is_integer:  # TF has no integer RealDiv kernel
        raise errors.op_error(
            errors.NotFoundError, "RealDiv", "Could not find device for node: {{node RealDiv}} "
            f"= RealDiv[T=DT_{x.dtype.name.upper()}]",
            "RealDiv has kernels only for floating and complex dtypes: use tf.math.truediv "
            "(or /), which casts integers to float first, or tf.math.floordiv.")
    return apply(RealDiv, [x, y])


def _check_int_zero(op_name, y):
    if y.dtype.kind in "iu" and np.any(y == 0):
        raise errors.op_error(errors.InvalidArgumentError, op_name, "Integer division by zero",
                              "Integer tensors have no inf or nan to represent x / 0.")


def _floordiv(x, y):
    _check_int_zero("FloorDiv", y)
    return np.floor_divide(x, y)


def _floormod(x, y):
    _check_int_zero("FloorMod", y)
    return np.mod(x, y)


FloorDiv = _binary("FloorDiv", silent(_floordiv), dtypes.REAL)  # not differentiable, like TF
FloorMod = _binary("FloorMod", silent(_floormod), dtypes.REAL)


@FloorMod.def_grad
def _floormod_grad(op, dy):
    x, y = _xy(op)  # x mod y = x - floor(x/y) * y
    return unbroadcast(dy, x), unbroadcast(-dy * floordiv(x, y), y)


@tf_export("math.floordiv")
def floordiv(x, y, name=None):
    """floor(x / y), keeping the dtype (the `//` operator)."""
    x, y = binary_args(x, y)
    return apply(FloorDiv, [x, y])


@tf_export("math.floormod", "math.mod")
def floormod(x, y, name=None):
    """x - floor(x / y) * y: the remainder has the sign of y, like Python's `%`."""
    x, y = binary_args(x, y)
    return apply(FloorMod, [x, y])


# --- pow, maximum, minimum, squared_difference ---------------------------------------------
def _pow(x, y):
    if x.dtype.kind in "iu" and np.any(y < 0):
        raise errors.op_error(errors.InvalidArgumentError, "Pow",
                              "Integers to negative integer powers are not allowed",
                              "Cast to float first: tf.cast(x, tf.float32) ** -1.")
    return np.power(x, y)


Pow = _binary("Pow", silent(_pow))


@Pow.def_grad
def _pow_grad(op, dy):
    x, y = _xy(op)
    z = op.outputs[0]
    dx = dy * y * pow(x, y - 1)  # d(x^y)/dx = y x^(y-1)
    positive = greater(x, 0) if not x.dtype.is_complex else not_equal(x, 0)
    safe_x = where(positive, x, ones_like(x))
    log_x = where(positive, log(safe_x), zeros_like(x))
    return unbroadcast(dx, x), unbroadcast(dy * z * log_x, y)  # d(x^y)/dy = x^y ln x


@tf_export("math.pow", "pow")
def pow(x, y, name=None):  # noqa: A001 - TF's public name
    """x ** y, element-wise; integer bases with negative powers are an error."""
    x, y = binary_args(x, y)
    return apply(Pow, [x, y])


Maximum = _binary("Maximum", np.maximum, dtypes.REAL)
Minimum = _binary("Minimum", np.minimum, dtypes.REAL)


def _select_grad(op, dy, x_wins):
    x, y = _xy(op)
    zeros = zeros_like(dy)
    return (unbroadcast(where(x_wins, dy, zeros), x),
            unbroadcast(where(x_wins, zeros, dy), y))


@Maximum.def_grad
def _maximum_grad(op, dy):
    return _select_grad(op, dy, greater_equal(*_xy(op)))  # ties go to x, as in TF


@Minimum.def_grad
def _minimum_grad(op, dy):
    return _select_grad(op, dy, less_equal(*_xy(op)))


@tf_export("math.maximum", "maximum")
def maximum(x, y, name=None):
    """The larger of x and y, element-wise."""
    x, y = binary_args(x, y)
    return apply(Maximum, [x, y])


@tf_export("math.minimum", "minimum")
def minimum(x, y, name=None):
    """The smaller of x and y, element-wise."""
    x, y = binary_args(x, y)
    return apply(Minimum, [x, y])


SquaredDifference = _binary("SquaredDifference", silent(lambda x, y: np.square(x - y)))


@SquaredDifference.def_grad
def _squared_difference_grad(op, dy):
    x, y = _xy(op)
    d = 2 * dy * (x - y)
    return unbroadcast(d, x), unbroadcast(-d, y)


@tf_export("math.squared_difference")
def squared_difference(x, y, name=None):
    """(x - y)^2, element-wise."""
    x, y = binary_args(x, y)
    return apply(SquaredDifference, [x, y])


# --- comparisons and logic (no gradients) ------------------------------------------------
def _comparison(op_name, forward, allowed=dtypes.REAL):
    return Op(op_name, forward, dtypes=allowed, shape=broadcast(op_name), dtype=dtypes.bool)


Equal = _comparison("Equal", np.equal, None)
NotEqual = _comparison("NotEqual", np.not_equal, None)
Less = _comparison("Less", np.less)
LessEqual = _comparison("LessEqual", np.less_equal)
Greater = _comparison("Greater", np.greater)
GreaterEqual = _comparison("GreaterEqual", np.greater_equal)
LogicalAnd = _comparison("LogicalAnd", np.logical_and, {dtypes.bool})
LogicalOr = _comparison("LogicalOr", np.logical_or, {dtypes.bool})


def _compare(op):
    def compare(x, y, name=None):
        x, y = binary_args(x, y)
        return apply(op, [x, y])

    return compare


equal = tf_export("math.equal", "equal")(_compare(Equal))
not_equal = tf_export("math.not_equal", "not_equal")(_compare(NotEqual))
less = tf_export("math.less", "less")(_compare(Less))
less_equal = tf_export("math.less_equal", "less_equal")(_compare(LessEqual))
greater = tf_export("math.greater", "greater")(_compare(Greater))
greater_equal = tf_export("math.greater_equal", "greater_equal")(_compare(GreaterEqual))
logical_and = tf_export("math.logical_and", "logical_and")(_compare(LogicalAnd))
logical_or = tf_export("math.logical_or", "logical_or")(_compare(LogicalOr))
for _f, _doc in [(equal, "x == y"), (not_equal, "x != y"), (less, "x < y"),
                 (less_equal, "x <= y"), (greater, "x > y"), (greater_equal, "x >= y"),
                 (logical_and, "x AND y for bool tensors"),
                 (logical_or, "x OR y for bool tensors")]:
    _f.__doc__ = f"{_doc}, element-wise, as a bool tensor."

LogicalNot = Op("LogicalNot", np.logical_not, dtypes={dtypes.bool}, shape=same_shape,
                dtype=dtypes.bool)


@tf_export("math.logical_not", "logical_not")
def logical_not(x, name=None):
    """NOT x for a bool tensor."""
    return apply(LogicalNot, [convert_to_tensor(x)])


@tf_export("math.logical_xor")
def logical_xor(x, y, name="LogicalXor"):
    """x XOR y = (x OR y) AND NOT (x AND y), as TF composes it."""
    return logical_and(logical_or(x, y), logical_not(logical_and(x, y)))


# --- where (select) ----------------------------------------------------------------------
SelectV2 = Op("SelectV2", np.where, typed=(1, 2), shape=broadcast("SelectV2"))


@SelectV2.def_grad
def _select_v2_grad(op, dy):
    condition, x, y = op.inputs
    zeros = zeros_like(dy)
    return (None, unbroadcast(where(condition, dy, zeros), x),
            unbroadcast(where(condition, zeros, dy), y))


def where(condition, x=None, y=None, name=None):
    """3-argument form: x where condition is True, else y (all three broadcast)."""
    if not isinstance(condition, Tensor):
        condition = convert_to_tensor(condition, dtype=dtypes.bool)
    elif condition.dtype is not dtypes.bool:
        raise errors.op_error(
            errors.InvalidArgumentError, "SelectV2",
            "cannot compute SelectV2 as input #0(zero-based) was expected to be a bool tensor "
            f"but is a {dtypes.tf_type_name(condition.dtype)} tensor",
            "The condition must be bool: compare first, e.g. tf.where(x > 0, ...).")
    x, y = binary_args(x, y)
    return apply(SelectV2, [condition, x, y])


# --- a few unary ops the gradients above need ----------------------------------------------
def _unary(op_name, forward, allowed):
    return Op(op_name, forward, dtypes=allowed, shape=same_shape)


Neg = _unary("Neg", np.negative, dtypes.SIGNED)


@Neg.def_grad
def _neg_grad(op, dy):
    return -dy


@tf_export("math.negative", "negative")
def negative(x, name=None):
    """-x."""
    return apply(Neg, [convert_to_tensor(x)])


Log = _unary("Log", silent(np.log), dtypes.INEXACT)


@Log.def_grad
def _log_grad(op, dy):
    return dy / conj(op.inputs[0])  # d ln x = 1/x


@tf_export("math.log")
def log(x, name=None):
    """Natural logarithm."""
    return apply(Log, [convert_to_tensor(x)])


Conj = _unary("Conj", np.conj, dtypes.NUMERIC)


@Conj.def_grad
def _conj_grad(op, dy):
    return conj(dy)


@tf_export("math.conj")
def conj(x, name=None):
    """Complex conjugate (real tensors pass through unchanged)."""
    x = convert_to_tensor(x)
    return apply(Conj, [x]) if x.dtype.is_complex else x


# --- cast ---------------------------------------------------------------------------------
def _cast_forward(x, DstT):
    target = DstT.as_numpy_dtype
    if x.dtype.kind in "fc" and DstT.is_integer:
        with np.errstate(invalid="ignore", over="ignore"):
            return np.trunc(np.real(x)).astype(target)  # TF truncates toward zero
    if DstT.is_bool:
        return x != 0
    if x.dtype.kind == "c" and not DstT.is_complex:
        x = np.real(x)  # TF keeps the real part, silently
    with np.errstate(over="ignore"):
        return x.astype(target)


Cast = Op("Cast", _cast_forward, typed=(), shape=same_shape, dtype=from_attr("DstT"))


@Cast.def_grad
def _cast_grad(op, dy):
    source = op.inputs[0].dtype
    if (source.is_floating or source.is_complex) and (dy.dtype.is_floating or dy.dtype.is_complex):
        return cast(dy, source)
    return None


@tf_export("cast", "dtypes.cast")
def cast(x, dtype, name=None):
    """The same values in another dtype (floats to ints truncate toward zero)."""
    x = convert_to_tensor(x)
    dtype = dtypes.as_dtype(dtype)
    if x.dtype is dtype:
        return x
    return apply(Cast, [x], {"DstT": dtype})




Sign = _unary("Sign", np.sign, dtypes.NUMERIC)  # gradient is zero almost everywhere: none


@tf_export("math.sign", "sign")
def sign(x, name=None):
    """-1, 0 or 1 by the sign of x."""
    return apply(Sign, [convert_to_tensor(x)])


Abs = _unary("Abs", np.abs, dtypes.FLOATING | dtypes.SIGNED_INTEGER)  # complex: ComplexAbs


@Abs.def_grad
def _abs_grad(op, dy):
    return dy * sign(op.inputs[0])  # |x|' = sign(x)


@tf_export("math.abs", "abs")
def abs(x, name=None):  # noqa: A001 - TF's name
    """|x| (for complex x, the modulus as a real tensor)."""
    x = convert_to_tensor(x)
    return apply(ComplexAbs if x.dtype.is_complex else Abs, [x])


ComplexAbs = Op("ComplexAbs", lambda x: np.abs(x), dtypes=dtypes.COMPLEX, shape=same_shape,
                 dtype=real_part)


@ComplexAbs.def_grad
def _complex_abs_grad(op, dy):
    """TF's rule: complex(dy, 0) * z / complex(|z|, 0), and 0 where z = 0."""
    from .complex_ops import complex as complex_
    from .clip_ops import divide_no_nan

    zero = dy * 0
    return divide_no_nan(complex_(dy, zero) * op.inputs[0], complex_(op.outputs[0], zero))


# --- bitwise ops: the `& | ^ ~` operators on integer tensors -----------------------------------
BitwiseAnd = _binary("BitwiseAnd", np.bitwise_and, dtypes.INTEGER)
BitwiseOr = _binary("BitwiseOr", np.bitwise_or, dtypes.INTEGER)
BitwiseXor = _binary("BitwiseXor", np.bitwise_xor, dtypes.INTEGER)
Invert = _unary("Invert", np.invert, dtypes.INTEGER)

bitwise_and = tf_export("bitwise.bitwise_and")(_compare(BitwiseAnd))
bitwise_or = tf_export("bitwise.bitwise_or")(_compare(BitwiseOr))
bitwise_xor = tf_export("bitwise.bitwise_xor")(_compare(BitwiseXor))
for _f, _doc in [(bitwise_and, "x & y"), (bitwise_or, "x | y"), (bitwise_xor, "x ^ y")]:
    _f.__doc__ = f"{_doc}, bit by bit, for integer tensors of the same dtype."


@tf_export("bitwise.invert")
def invert(x, name=None):
    """Flip every bit of an integer tensor (~x)."""
    return apply(Invert, [convert_to_tensor(x)])
