"""Modified Bessel functions of the first kind: bessel_i0, bessel_i1 and their scaled forms.

>>> import minitf as tf
>>> tf.math.bessel_i0(tf.constant([0.0, 1.0, -2.0]))
<tf.Tensor: shape=(3,), dtype=float32, numpy=array([1.       , 1.2660658, 2.2795854], dtype=float32)>

I_v(x) = sum_k (x/2)^(2k+v) / (k! (k+v)!) for v = 0, 1. The `e` forms are scaled:
bessel_i0e(x) = exp(-|x|) I_0(x), finite where I_0 overflows. The forward works in
float64: the power series (each term from the last) for |x| <= 30, and beyond it
the asymptotic series e^|x| / sqrt(2 pi |x|) (1 - (4v^2 - 1) / (8|x|) + ...).
Gradients as in TF: I_0' = I_1, I_1' = I_0 - I_1 / x (1/2 at 0).
"""
import numpy as np

from ..framework import dtypes
from ..framework.op import Op, apply
from ..framework.tensor import convert_to_tensor
from ..framework.tf_export import tf_export
from .shape_rules import same_shape

_SWITCH = 30.0


def _scaled_series(a, order):
    """exp(-a) I_order(a) for 0 <= a <= 30 by the power series (90 terms: 1e-17 at a = 30)."""
    half_sq = (a / 2) ** 2
    term = (a / 2) ** order  # the k = 0 term: (a/2)^v / v!
    total = term.copy()
    for k in range(1, 90):
        term = term * half_sq / (k * (k + order))
        total = total + term
    return total * np.exp(-a)


def _scaled_asymptotic(a, order):
    """exp(-a) I_order(a) for large a (mu = 4 order^2):

    1/sqrt(2 pi a) * sum_k (-1)^k (mu - 1)(mu - 9)...(mu - (2k-1)^2) / (k! (8a)^k).
    """
    mu = 4.0 * order * order
    term = np.ones_like(a)
    total = term.copy()
    for k in range(1, 20):
        term = -term * (mu - (2 * k - 1) ** 2) / (k * 8 * a)
        total = total + term
    return total / np.sqrt(2 * np.pi * a)


def _scaled(x, order):
    a = np.abs(x.astype(np.float64))
    small = a <= _SWITCH
    value = np.where(small, _scaled_series(np.where(small, a, 0.0), order),
                     _scaled_asymptotic(np.where(small, _SWITCH + 1, a), order))
    return np.sign(x) * value if order == 1 else value  # I_1 is odd, I_0 even


def _forward(order, scaled):
    def forward(x):
        with np.errstate(over="ignore", invalid="ignore"):
            value = _scaled(x, order)
            if not scaled:
                value = value * np.exp(np.abs(x.astype(np.float64)))
        return value.astype(x.dtype)
    return forward


BesselI0 = Op("BesselI0", _forward(0, False), dtypes=dtypes.FLOATING, shape=same_shape)
BesselI0e = Op("BesselI0e", _forward(0, True), dtypes=dtypes.FLOATING, shape=same_shape)
BesselI1 = Op("BesselI1", _forward(1, False), dtypes=dtypes.FLOATING, shape=same_shape)
BesselI1e = Op("BesselI1e", _forward(1, True), dtypes=dtypes.FLOATING, shape=same_shape)


@BesselI0.def_grad
def _i0_grad(op, dy):
    return dy * bessel_i1(op.inputs[0])


@BesselI0e.def_grad
def _i0e_grad(op, dy):
    from .math_ops import sign

    x = op.inputs[0]
    return dy * (bessel_i1e(x) - sign(x) * op.outputs[0])


def _i1_grad_with(op, dy, i0, extra_sign):
    from .math_ops import equal, sign, where
    from .unary_ops import reciprocal

    x, y = op.inputs[0], op.outputs[0]
    at_zero = equal(x, 0)
    safe_x = where(at_zero, x + 1, x)  # any non-zero stand-in: its result is discarded
    slope = i0(safe_x) - y * ((sign(safe_x) if extra_sign else 0) + reciprocal(safe_x))
    return dy * where(at_zero, convert_to_tensor(0.5, x.dtype) + 0 * x, slope)


@BesselI1.def_grad
def _i1_grad(op, dy):
    return _i1_grad_with(op, dy, bessel_i0, False)


@BesselI1e.def_grad
def _i1e_grad(op, dy):
    return _i1_grad_with(op, dy, bessel_i0e, True)


@tf_export("math.bessel_i0", "math.special.bessel_i0")
def bessel_i0(x, name=None):
    """I_0(x), the modified Bessel function of order 0 (even; grows like e^|x|).

    >>> tf.math.special.bessel_i0(tf.constant([0.5], tf.float64)).numpy()
    array([1.06348337])
    """
    return apply(BesselI0, [convert_to_tensor(x)])


@tf_export("math.bessel_i0e", "math.special.bessel_i0e")
def bessel_i0e(x, name=None):
    """exp(-|x|) I_0(x): I_0 scaled so that it stays finite (about 1/sqrt(2 pi |x|)).

    >>> tf.math.bessel_i0e(tf.constant([0.0, 1000.0])).numpy()
    array([1.        , 0.01261724], dtype=float32)
    """
    return apply(BesselI0e, [convert_to_tensor(x)])


@tf_export("math.bessel_i1", "math.special.bessel_i1")
def bessel_i1(x, name=None):
    """I_1(x), the modified Bessel function of order 1 (odd).

    >>> tf.math.bessel_i1(tf.constant([0.0, 1.0, -1.0])).numpy()
    array([ 0.       ,  0.5651591, -0.5651591], dtype=float32)
    """
    return apply(BesselI1, [convert_to_tensor(x)])


@tf_export("math.bessel_i1e", "math.special.bessel_i1e")
def bessel_i1e(x, name=None):
    """exp(-|x|) I_1(x).

    >>> tf.math.bessel_i1e(tf.constant([1.0, 50.0])).numpy()
    array([0.20791042, 0.05599312], dtype=float32)
    """
    return apply(BesselI1e, [convert_to_tensor(x)])
