"""More element-wise math: inverse hyperbolics, atan2, rint, xlog1py, nextafter, ...

>>> import minitf as tf
>>> tf.math.atan2(tf.constant([1.0, -1.0]), tf.constant([0.0, -1.0]))
<tf.Tensor: shape=(2,), dtype=float32, numpy=array([ 1.5707964, -2.3561945], dtype=float32)>

Each is one TensorFlow kernel (Asinh, Atan2, Rint, Xlog1py, NextAfter) with the
dtypes that kernel accepts: `tf.math.atan2` of int32 tensors is an error, as in
TF. `reciprocal_no_nan` and `scalar_mul` are Python compositions in TF, and here.
Gradients reuse the output where they can: d asinh(x) = 1 / cosh(asinh(x)).
"""
import numpy as np

from ..framework import dtypes
from ..framework.op import Op, apply, silent
from ..framework.tensor import convert_to_tensor
from ..framework.tf_export import tf_export
from .math_ops import binary_args, conj
from .shape_rules import broadcast, same_shape
from .unary_ops import cosh, log1p, reciprocal, sinh, square
from .unbroadcast import unbroadcast

# --- inverse hyperbolic functions -----------------------------------------------------------
Asinh = Op("Asinh", np.arcsinh, dtypes=dtypes.INEXACT, shape=same_shape)
Acosh = Op("Acosh", silent(np.arccosh), dtypes=dtypes.INEXACT, shape=same_shape)
Atanh = Op("Atanh", silent(np.arctanh), dtypes=dtypes.INEXACT, shape=same_shape)


@Asinh.def_grad
def _asinh_grad(op, dy):
    return dy * reciprocal(cosh(conj(op.outputs[0])))  # x = sinh(y), dx/dy = cosh(y)


@Acosh.def_grad
def _acosh_grad(op, dy):
    return dy * reciprocal(sinh(conj(op.outputs[0])))  # x = cosh(y), dx/dy = sinh(y)


@Atanh.def_grad
def _atanh_grad(op, dy):
    return dy * reciprocal(1 - square(conj(op.inputs[0])))  # d atanh x = 1 / (1 - x^2)


@tf_export("math.asinh", "asinh")
def asinh(x, name=None):
    """The y with sinh(y) = x, element-wise.

    >>> tf.math.asinh(tf.constant([0.0, 1.0]))
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([0.       , 0.8813736], dtype=float32)>
    """
    return apply(Asinh, [convert_to_tensor(x)])


@tf_export("math.acosh", "acosh")
def acosh(x, name=None):
    """The y >= 0 with cosh(y) = x (nan for x < 1).

    >>> tf.math.acosh(tf.constant([1.0, 2.0, 0.5]))
    <tf.Tensor: shape=(3,), dtype=float32, numpy=array([0.      , 1.316958,      nan], dtype=float32)>
    """
    return apply(Acosh, [convert_to_tensor(x)])


@tf_export("math.atanh", "atanh")
def atanh(x, name=None):
    """The y with tanh(y) = x (+-inf at +-1, nan beyond).

    >>> tf.math.atanh(tf.constant([0.5, 1.0, 2.0]))
    <tf.Tensor: shape=(3,), dtype=float32, numpy=array([0.54930615,        inf,        nan], dtype=float32)>
    """
    return apply(Atanh, [convert_to_tensor(x)])


# --- atan2 -----------------------------------------------------------------------------------
Atan2 = Op("Atan2", np.arctan2, dtypes=dtypes.FLOATING, shape=broadcast("Atan2"))


@Atan2.def_grad
def _atan2_grad(op, dz):
    y, x = op.inputs  # d atan2(y, x) = (x dy - y dx) / (x^2 + y^2)
    scale = dz * reciprocal(square(x) + square(y))
    return unbroadcast(x * scale, y), unbroadcast(-y * scale, x)


@tf_export("math.atan2", "atan2")
def atan2(y, x, name=None):
    """The angle of the point (x, y) in (-pi, pi]: like atan(y / x), but in the right quadrant.

    Note the order: y first, as in C's atan2 and TF.

    >>> tf.math.atan2(tf.constant([1.0, 0.0]), tf.constant([1.0, -1.0]))
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([0.7853982, 3.1415927], dtype=float32)>
    """
    y, x = binary_args(y, x)
    return apply(Atan2, [y, x])


# --- rint --------------------------------------------------------------------------------------
Rint = Op("Rint", np.rint, dtypes=dtypes.FLOATING, shape=same_shape)  # no gradient, as in TF


@tf_export("math.rint")
def rint(x, name=None):
    """The nearest integer, halves to the even one (0.5 -> 0, 1.5 -> 2, 2.5 -> 2), as a float.

    >>> tf.math.rint(tf.constant([0.5, 1.5, 2.5, -1.7]))
    <tf.Tensor: shape=(4,), dtype=float32, numpy=array([ 0.,  2.,  2., -2.], dtype=float32)>
    """
    return apply(Rint, [convert_to_tensor(x)])


# --- xlog1py -----------------------------------------------------------------------------------
def _xlog1py(x, y):
    with np.errstate(all="ignore"):  # 0 * log1p(-1) = 0 * -inf: the case this op is for
        return np.where(x == 0, np.zeros_like(x), x * np.log1p(y))


Xlog1py = Op("Xlog1py", _xlog1py, dtypes=dtypes.INEXACT, shape=broadcast("Xlog1py"))


@Xlog1py.def_grad
def _xlog1py_grad(op, dz):
    from .clip_ops import xdivy
    from .math_ops import cast, not_equal

    x, y = op.inputs  # d/dx = log1p(y) (0 where x == 0, as TF), d/dy = x / (1 + y)
    gx = cast(not_equal(x, 0), x.dtype) * log1p(y)
    return unbroadcast(dz * gx, x), unbroadcast(dz * xdivy(x, y + 1), y)


@tf_export("math.xlog1py")
def xlog1py(x, y, name=None):
    """x * log(1 + y), but 0 wherever x == 0 (even where y == -1).

    >>> tf.math.xlog1py(tf.constant([0.0, 2.0]), tf.constant([-1.0, 1.0]))
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([0.       , 1.3862944], dtype=float32)>
    """
    x, y = binary_args(x, y)
    return apply(Xlog1py, [x, y])


# --- nextafter ---------------------------------------------------------------------------------
NextAfter = Op("NextAfter", np.nextafter, dtypes={dtypes.float32, dtypes.float64},
               shape=broadcast("NextAfter"))  # TF registers no gradient


@tf_export("math.nextafter")
def nextafter(x1, x2, name=None):
    """The next representable float after x1 in the direction of x2.

    >>> tf.math.nextafter(tf.constant([1.0]), tf.constant([2.0]))
    <tf.Tensor: shape=(1,), dtype=float32, numpy=array([1.0000001], dtype=float32)>
    """
    x1, x2 = binary_args(x1, x2)
    return apply(NextAfter, [x1, x2])


# --- compositions ------------------------------------------------------------------------------
@tf_export("math.reciprocal_no_nan")
def reciprocal_no_nan(x, name=None):
    """1 / x, but 0 where x == 0 (TF's divide_no_nan(1, x)).

    >>> tf.math.reciprocal_no_nan(tf.constant([2.0, 0.0]))
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([0.5, 0. ], dtype=float32)>
    """
    from .clip_ops import DivNoNan

    x = convert_to_tensor(x)
    return apply(DivNoNan, [convert_to_tensor(1, dtype=x.dtype), x])


@tf_export("math.scalar_mul", "scalar_mul")
def scalar_mul(scalar, x, name=None):
    """scalar * x, where `scalar` must be 0-D (a number or a scalar tensor).

    >>> tf.math.scalar_mul(2, tf.constant([1.5, -1.0]))
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([ 3., -2.], dtype=float32)>
    """
    from .math_ops import multiply

    x = convert_to_tensor(x)
    scalar = convert_to_tensor(scalar, dtype=x.dtype)
    if scalar.shape.rank != 0:
        raise ValueError(f"The input scalar must be a 0-D value. Received shape "
                         f"{scalar.shape}.")
    return multiply(scalar, x)

