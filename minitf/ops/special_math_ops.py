"""tf.math.special: Bessel J, Y and K, Dawson's integral, Ei, the Fresnel integrals, Spence.

>>> import minitf as tf
>>> tf.math.special.bessel_j0(tf.constant([0.0, 1.0, 2.0]))  # J_0(0) = 1, like cos(0)
<tf.Tensor: shape=(3,), dtype=float32, numpy=array([1.        , 0.7651977 , 0.22389078], dtype=float32)>

Each forward evaluates SciPy's `scipy.special` function (Cephes, which TF's Eigen kernels
follow) in float64 and casts back; SciPy is imported on the first call (scipy_support.py).
The functions, for real x:
* bessel_j0/j1(x) = J_0, J_1 and bessel_y0/y1(x) = Y_0, Y_1: the Bessel functions of the first
  and second kind (Y is -inf at 0 and, as in TF, -inf for x < 0);
* bessel_k0/k1(x) = K_0, K_1, the modified Bessel functions of the second kind (inf for x <= 0),
  and the scaled bessel_k0e/k1e(x) = e^x K(x), finite for large x;
* dawsn(x) = e^(-x^2) * integral_0^x e^(t^2) dt, Dawson's integral;
* expint(x) = Ei(x) = -integral_{-x}^inf e^(-t)/t dt, the exponential integral (TF: nan for x < 0);
* fresnel_cos(x) = integral_0^x cos(pi t^2 / 2) dt, fresnel_sin(x) = the same with sin;
* spence(x) = integral_1^x log(t) / (1 - t) dt, the dilogarithm Li_2(1 - x) (nan for x < 0).
The gradients are TF's (math_grad.py), side by side below: J_0' = -J_1, J_1' = J_0 - J_1/x,
Y the same, K_0' = -K_1, K_1' = -K_0 - K_1/x, dawsn' = 1 - 2x dawsn(x), Ei'(x) = e^x / x,
C'(x) = cos(pi x^2 / 2), S'(x) = sin(pi x^2 / 2), spence'(x) = log(x) / (1 - x).
"""
import numpy as np

from ..framework import dtypes, errors
from ..framework.op import Op, apply
from ..framework.tensor import convert_to_tensor
from ..framework.tf_export import tf_export
from .scipy_support import scipy_module
from .shape_rules import same_shape


def no_half_kernel(op_name):
    """TF declares these ops for half and bfloat16, but its CPU kernels are float and double."""
    return errors.op_error(
        errors.NotFoundError, op_name,
        f"Could not find device for node: {{{{node {op_name}}}}} = {op_name}[T=DT_HALF]\n"
        f"All kernels registered for op {op_name}:\n  device='CPU'; T in [DT_DOUBLE]\n"
        "  device='CPU'; T in [DT_FLOAT]",
        f"TensorFlow has {op_name} kernels for float32 and float64 only: "
        "tf.cast the input to tf.float32 first.")


def special_op(op_name, compute, half=True):
    """An element-wise op whose forward is `compute(scipy.special, x in float64, dtype)`."""
    feature = f"the {op_name} op"

    def forward(x):
        if x.dtype == np.float16 and not half:
            raise no_half_kernel(op_name)
        special = scipy_module("special", feature)
        with np.errstate(all="ignore"):
            return np.asarray(compute(special, x.astype(np.float64), x.dtype)).astype(x.dtype)

    return Op(op_name, forward, dtypes=dtypes.FLOATING, shape=same_shape)


def _y1(sp, x, dtype):
    y = np.where(x < 0, -np.inf, sp.y1(x))
    return np.where((x == 0) & (dtype != np.float64), np.nan, y)  # TF's float kernel: nan at 0


def _k(name):
    return lambda sp, x, dtype: np.where(x < 0, np.inf, getattr(sp, name)(x))


BesselJ0 = special_op("BesselJ0", lambda sp, x, dtype: sp.j0(x))
BesselJ1 = special_op("BesselJ1", lambda sp, x, dtype: sp.j1(x))
BesselY0 = special_op("BesselY0", lambda sp, x, dtype: np.where(x < 0, -np.inf, sp.y0(x)))
BesselY1 = special_op("BesselY1", _y1)
BesselK0 = special_op("BesselK0", _k("k0"))
BesselK0e = special_op("BesselK0e", _k("k0e"))
BesselK1 = special_op("BesselK1", _k("k1"))
BesselK1e = special_op("BesselK1e", _k("k1e"))
Dawsn = special_op("Dawsn", lambda sp, x, dtype: sp.dawsn(x), half=False)
Expint = special_op("Expint", lambda sp, x, dtype: np.where((x < 0) | np.isinf(x), np.nan,
                                                            sp.expi(x)), half=False)
FresnelCos = special_op("FresnelCos", lambda sp, x, dtype: sp.fresnel(x)[1], half=False)
FresnelSin = special_op("FresnelSin", lambda sp, x, dtype: sp.fresnel(x)[0], half=False)
Spence = special_op("Spence", lambda sp, x, dtype: sp.spence(x), half=False)


def _where_zero(x, value_at_zero, value):
    """value, but value_at_zero where x == 0 (TF's guard against dividing by x)."""
    from .math_ops import equal, where

    return where(equal(x, 0), convert_to_tensor(value_at_zero, x.dtype) + 0 * x, value)


@BesselJ0.def_grad
def _j0_grad(op, dy):
    return dy * -bessel_j1(op.inputs[0])


@BesselJ1.def_grad
def _j1_grad(op, dy):
    x, y = op.inputs[0], op.outputs[0]
    return dy * _where_zero(x, 0.5, bessel_j0(x) - y / x)


@BesselY0.def_grad
def _y0_grad(op, dy):
    return dy * -bessel_y1(op.inputs[0])


@BesselY1.def_grad
def _y1_grad(op, dy):
    x, y = op.inputs[0], op.outputs[0]
    return dy * (bessel_y0(x) - y / x)  # nan at 0, where Y_1 has no derivative


@BesselK0.def_grad
def _k0_grad(op, dy):
    return dy * -bessel_k1(op.inputs[0])


@BesselK0e.def_grad
def _k0e_grad(op, dy):
    return dy * (op.outputs[0] - bessel_k1e(op.inputs[0]))


@BesselK1.def_grad
def _k1_grad(op, dy):
    x, y = op.inputs[0], op.outputs[0]
    return dy * (-bessel_k0(x) - y / x)


@BesselK1e.def_grad
def _k1e_grad(op, dy):
    x, y = op.inputs[0], op.outputs[0]
    return dy * (y * (1.0 - 1.0 / x) - bessel_k0e(x))


@Dawsn.def_grad
def _dawsn_grad(op, dy):
    return dy * (1.0 - 2 * op.inputs[0] * op.outputs[0])


@Expint.def_grad
def _expint_grad(op, dy):
    from .unary_ops import exp

    x = op.inputs[0]
    return dy * exp(x) / x


@FresnelCos.def_grad
def _fresnel_cos_grad(op, dy):
    from .unary_ops import cos, square

    return dy * cos((np.pi / 2.0) * square(op.inputs[0]))


@FresnelSin.def_grad
def _fresnel_sin_grad(op, dy):
    from .unary_ops import sin, square

    return dy * sin((np.pi / 2.0) * square(op.inputs[0]))


@Spence.def_grad
def _spence_grad(op, dy):
    from .math_ops import equal, log, where

    x = op.inputs[0]
    return dy * where(equal(x, 1.0), -1.0 + 0 * x, log(x) / (1.0 - x))  # the limit -1 at x = 1


@tf_export("math.special.bessel_j0")
def bessel_j0(x, name=None):
    """J_0(x), the Bessel function of the first kind of order 0 (even, oscillating, decaying).

    >>> tf.math.special.bessel_j0(tf.constant([0.5, -1.0, 2.0], tf.float64)).numpy()
    array([0.93846981, 0.76519769, 0.22389078])
    """
    return apply(BesselJ0, [convert_to_tensor(x)])


@tf_export("math.special.bessel_j1")
def bessel_j1(x, name=None):
    """J_1(x), the Bessel function of the first kind of order 1 (odd).

    >>> tf.math.special.bessel_j1(tf.constant([0.5, -1.0, 2.0], tf.float64)).numpy()
    array([ 0.24226846, -0.44005059,  0.57672481])
    """
    return apply(BesselJ1, [convert_to_tensor(x)])


@tf_export("math.special.bessel_y0")
def bessel_y0(x, name=None):
    """Y_0(x), the Bessel function of the second kind of order 0 (-inf at 0 and below).

    >>> tf.math.special.bessel_y0(tf.constant([0.5, 1.0, 0.0], tf.float64)).numpy()
    array([-0.44451873,  0.08825696,        -inf])
    """
    return apply(BesselY0, [convert_to_tensor(x)])


@tf_export("math.special.bessel_y1")
def bessel_y1(x, name=None):
    """Y_1(x), the Bessel function of the second kind of order 1 (-inf for x < 0).

    >>> tf.math.special.bessel_y1(tf.constant([0.5, 1.0, 2.0], tf.float64)).numpy()
    array([-1.47147239, -0.78121282, -0.10703243])
    """
    return apply(BesselY1, [convert_to_tensor(x)])


@tf_export("math.special.bessel_k0")
def bessel_k0(x, name=None):
    """K_0(x), the modified Bessel function of the second kind of order 0 (inf for x <= 0).

    >>> tf.math.special.bessel_k0(tf.constant([0.5, 1.0, 2.0], tf.float64)).numpy()
    array([0.92441907, 0.42102444, 0.11389387])
    """
    return apply(BesselK0, [convert_to_tensor(x)])


@tf_export("math.special.bessel_k0e")
def bessel_k0e(x, name=None):
    """e^x K_0(x): K_0 scaled so that it stays representable for large x.

    >>> tf.math.special.bessel_k0e(tf.constant([0.5, 1.0, 800.0], tf.float64)).numpy()
    array([1.52410939, 1.14446308, 0.04430443])
    """
    return apply(BesselK0e, [convert_to_tensor(x)])


@tf_export("math.special.bessel_k1")
def bessel_k1(x, name=None):
    """K_1(x), the modified Bessel function of the second kind of order 1 (inf for x <= 0).

    >>> tf.math.special.bessel_k1(tf.constant([0.5, 1.0, 2.0], tf.float64)).numpy()
    array([1.65644112, 0.60190723, 0.13986588])
    """
    return apply(BesselK1, [convert_to_tensor(x)])


@tf_export("math.special.bessel_k1e")
def bessel_k1e(x, name=None):
    """e^x K_1(x).

    >>> tf.math.special.bessel_k1e(tf.constant([0.5, 1.0, 2.0], tf.float64)).numpy()
    array([2.73100971, 1.63615349, 1.03347685])
    """
    return apply(BesselK1e, [convert_to_tensor(x)])


@tf_export("math.special.dawsn")
def dawsn(x, name=None):
    """Dawson's integral e^(-x^2) * integral_0^x e^(t^2) dt (odd; about 1/(2x) for large x).

    >>> tf.math.special.dawsn(tf.constant([0.5, -1.0, 100.0], tf.float64)).numpy()
    array([ 0.42443638, -0.53807951,  0.00500025])
    """
    return apply(Dawsn, [convert_to_tensor(x)])


@tf_export("math.special.expint")
def expint(x, name=None):
    """Ei(x), the exponential integral, for x >= 0 (-inf at 0; nan for x < 0, as in TF).

    >>> tf.math.special.expint(tf.constant([0.5, 1.0, 2.0], tf.float64)).numpy()
    array([0.4542199 , 1.89511782, 4.95423436])
    """
    return apply(Expint, [convert_to_tensor(x)])


@tf_export("math.special.fresnel_cos")
def fresnel_cos(x, name=None):
    """C(x) = integral_0^x cos(pi t^2 / 2) dt (odd; tends to 1/2).

    >>> tf.math.special.fresnel_cos(tf.constant([0.5, 1.0, 2.0], tf.float64)).numpy()
    array([0.49234423, 0.7798934 , 0.48825341])
    """
    return apply(FresnelCos, [convert_to_tensor(x)])


@tf_export("math.special.fresnel_sin")
def fresnel_sin(x, name=None):
    """S(x) = integral_0^x sin(pi t^2 / 2) dt (odd; tends to 1/2).

    >>> tf.math.special.fresnel_sin(tf.constant([0.5, 1.0, 2.0], tf.float64)).numpy()
    array([0.06473243, 0.43825915, 0.34341568])
    """
    return apply(FresnelSin, [convert_to_tensor(x)])


@tf_export("math.special.spence")
def spence(x, name=None):
    """Spence's function integral_1^x log(t) / (1 - t) dt = Li_2(1 - x) (nan for x < 0).

    >>> tf.math.special.spence(tf.constant([0.0, 1.0, 2.0], tf.float64)).numpy()  # pi^2/6, 0, ...
    array([ 1.64493407,  0.        , -0.82246703])
    """
    return apply(Spence, [convert_to_tensor(x)])
