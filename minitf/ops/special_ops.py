"""Special functions with no closed form in other ops: tf.math.erfinv.

erfinv(x) is the y with erf(y) = x, for x in (-1, 1) (+-inf at +-1, NaN beyond).
The forward starts from Winitzki's closed-form estimate (relative error ~2e-3)
and refines it with Newton steps in float64 -- on erf near 0 and on erfc near
+-1, where erf(y) - x would cancel. The gradient reuses the output:
d erfinv(x)/dx = sqrt(pi)/2 * exp(y^2).

>>> import minitf as tf
>>> tf.math.erfinv(tf.constant([0.0, 0.5, -0.9]))
<tf.Tensor: shape=(3,), dtype=float32, numpy=array([ 0.        ,  0.47693628, -1.1630871 ], dtype=float32)>

In TensorFlow this is the `Erfinv` kernel (Giles' polynomial approximation).
"""
import numpy as np

from ..framework import dtypes
from ..framework.op import Op, apply
from ..framework.tensor import convert_to_tensor
from ..framework.tf_export import tf_export
from .shape_rules import same_shape
from .unary_ops import _erf_series, _erfc_tail, exp, square

_A = 0.147  # Winitzki's constant


def _estimate(x):
    log_term = np.log((1 - x) * (1 + x))
    first = 2 / (np.pi * _A) + log_term / 2
    return np.sign(x) * np.sqrt(np.sqrt(first * first - log_term / _A) - first)


def _erfc_pos(y):
    """erfc(y) for y >= 0 in float64 (series near 0, continued fraction from 1.5)."""
    return np.where(y >= 1.5, _erfc_tail(np.maximum(y, 1.5)), 1 - _erf_series(y))


def _erfinv(x):
    z = x.astype(np.float64)
    inside = np.abs(z) < 1
    a = np.where(inside, np.abs(z), 0.0)  # solve for |x|, restore the sign at the end
    y = _estimate(a)
    for _ in range(6):  # Newton: y -= (f(y) - target) / f'(y); quadratic convergence
        slope = 2 / np.sqrt(np.pi) * np.exp(-y * y)
        near = _erf_series(y) - a                  # erf(y) - |x|, exact for small |x|
        far = (1 - a) - _erfc_pos(y)                # the same difference, via erfc near 1
        y = y - np.where(a < 0.5, near, far) / slope
    y = np.sign(z) * y
    y = np.where(np.abs(z) == 1, np.sign(z) * np.inf, y)
    return np.where(inside | (np.abs(z) == 1), y, np.nan).astype(x.dtype)


Erfinv = Op("Erfinv", _erfinv, dtypes=dtypes.FLOATING, shape=same_shape)


@Erfinv.def_grad
def _erfinv_grad(op, dy):
    return dy * (np.sqrt(np.pi) / 2) * exp(square(op.outputs[0]))  # 1 / erf'(y), y the output


@tf_export("math.erfinv")
def erfinv(x, name=None):
    """The inverse error function: erfinv(erf(y)) = y.

    >>> tf.math.erfinv(tf.math.erf(tf.constant([0.3, -2.0], tf.float64))).numpy()
    array([ 0.3, -2. ])
    """
    return apply(Erfinv, [convert_to_tensor(x)])


# --- ndtri and erfcinv: the normal distribution's quantile, through erfinv -----------------------
def _ndtri(p):
    return (np.sqrt(2.0) * _erfinv(2 * p.astype(np.float64) - 1)).astype(p.dtype)


Ndtri = Op("Ndtri", _ndtri, dtypes=dtypes.FLOATING, shape=same_shape)


@Ndtri.def_grad
def _ndtri_grad(op, dy):
    y = op.outputs[0]  # p = Phi(y), dp/dy = exp(-y^2 / 2) / sqrt(2 pi)
    return dy * np.sqrt(2 * np.pi) * exp(square(y) / 2)


@tf_export("math.ndtri")
def ndtri(x, name=None):
    """The standard normal quantile: the z with P(Z <= z) = x (+-inf at 0 and 1, nan outside).

    >>> tf.math.ndtri(tf.constant([0.5, 0.975, 0.0]))
    <tf.Tensor: shape=(3,), dtype=float32, numpy=array([0.       , 1.9599644,      -inf], dtype=float32)>
    """
    return apply(Ndtri, [convert_to_tensor(x)])


@tf_export("math.erfcinv")
def erfcinv(x, name=None):
    """The inverse of erfc: erfc(erfcinv(x)) = x, for x in [0, 2] (TF: -ndtri(x / 2) / sqrt(2)).

    >>> tf.math.erfcinv(tf.constant([0.5, 1.0, 2.0]))
    <tf.Tensor: shape=(3,), dtype=float32, numpy=array([ 0.47693625, -0.        ,        -inf], dtype=float32)>
    """
    x = convert_to_tensor(x)
    return -ndtri(0.5 * x) * np.sqrt(0.5).astype(x.dtype.as_numpy_dtype)
