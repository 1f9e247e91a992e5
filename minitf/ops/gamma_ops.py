"""The gamma function's family: lgamma, digamma, polygamma, zeta, lbeta.

>>> import minitf as tf
>>> tf.math.lgamma(tf.constant([1.0, 5.0, 0.5]))  # log(0!), log(4!), log(sqrt(pi))
<tf.Tensor: shape=(3,), dtype=float32, numpy=array([0.       , 3.1780539, 0.5723649], dtype=float32)>

Each forward runs in float64 NumPy and is cast back:
* lgamma(x) = log|Gamma(x)|, from Python's `math.lgamma` (inf at the poles 0, -1, -2, ...);
* digamma(x) = Gamma'(x) / Gamma(x): the recurrence psi(x) = psi(x + 1) - 1/x moves x
  up to 10, where the asymptotic series log x - 1/(2x) - sum B_2k / (2k x^2k) is exact to
  float64; negative x use the reflection psi(1 - x) - pi / tan(pi x);
* zeta(x, q) = sum_k (q + k)^-x, Hurwitz's zeta: the first terms summed, the rest by the
  Euler-Maclaurin formula (as Cephes, which TF's kernel follows);
* polygamma(n, x) = (-1)^(n+1) n! zeta(n + 1, x) for n >= 1, digamma for n = 0.
Their gradients chain into each other: lgamma' = digamma, digamma' = polygamma(1, .),
polygamma(n, .)' = polygamma(n + 1, .), d zeta(x, q)/dq = -x zeta(x + 1, q).
"""
import math

import numpy as np

from ..framework import dtypes
from ..framework.op import Op, apply
from ..framework.tensor import convert_to_tensor
from ..framework.tf_export import tf_export
from .math_ops import binary_args
from .shape_rules import broadcast, same_shape
from .unbroadcast import unbroadcast

_FLOAT_DOUBLE = {dtypes.float32, dtypes.float64}


def _in_float64(fn):
    """Run fn on float64 copies of the arrays; cast the result back to the first's dtype."""
    def forward(*arrays):
        with np.errstate(all="ignore"):
            return np.asarray(fn(*[a.astype(np.float64) for a in arrays])).astype(arrays[0].dtype)
    return forward


def _is_pole(x):
    return (x <= 0) & (x == np.floor(x))


# --- lgamma ----------------------------------------------------------------------------------
_lgamma_scalar = np.frompyfunc(lambda v: math.inf if _is_pole(v) or math.isinf(v)
                               else (math.lgamma(v) if not math.isnan(v) else math.nan), 1, 1)


def _lgamma(x):
    return np.asarray(_lgamma_scalar(x), dtype=np.float64)


# --- digamma -----------------------------------------------------------------------------------
_PSI_SERIES = [1 / 12, -1 / 120, 1 / 252, -1 / 240, 1 / 132, -691 / 32760, 1 / 12]  # B_2k / 2k


def _digamma_positive(x):
    shift = np.zeros_like(x)
    for _ in range(10):  # psi(x) = psi(x + 1) - 1/x until x >= 10
        small = x < 10
        shift = shift - np.where(small, 1 / x, 0.0)
        x = np.where(small, x + 1, x)
    inv2 = 1 / (x * x)
    series = sum(c * inv2 ** (k + 1) for k, c in enumerate(_PSI_SERIES))
    return shift + np.log(x) - 0.5 / x - series


def _digamma(x):
    reflected = _digamma_positive(np.where(x > 0, x, 1 - x))
    negative = reflected - np.pi / np.tan(np.pi * x)  # psi(x) = psi(1 - x) - pi cot(pi x)
    return np.where(_is_pole(x), np.nan, np.where(x > 0, reflected, negative))


# --- Hurwitz zeta ------------------------------------------------------------------------------
_EULER_MACLAURIN = [12.0, -720.0, 30240.0, -1209600.0, 47900160.0, -1.8924375803183791606e9,
                    7.47242496e10, -2.950130727918164224e12, 1.1646782814350067249e14,
                    -4.5979787224074726105e15, 1.8152105401943546773e17,
                    -7.1661652561756670113e18]  # (2k)! / B_2k, Cephes' table


def _zeta(x, q):
    x, q = np.broadcast_arrays(x, q)
    terms = int(max(16, np.ceil(16 - np.nanmin(q, initial=0.0))))  # so that q + terms >= 16
    k = np.arange(terms + 1).reshape((terms + 1,) + (1,) * x.ndim)
    s = np.sum((q + k) ** -x, axis=0)  # up to and including w = q + terms, counted half:
    w = q + terms
    b = w ** -x
    s = s + b * w / (x - 1) - 0.5 * b  # + the integral from w on, - half the last term
    a, power = np.ones_like(x), 0.0
    for coefficient in _EULER_MACLAURIN:  # the tail: sum_j B_2j/(2j)! x(x+1).. w^(-x-2j+1)
        a = a * (x + power)
        b = b / w
        s = s + a * b / coefficient
        a = a * (x + power + 1)
        b = b / w
        power += 2
    integer_x = x == np.floor(x)
    s = np.where(x == 1, np.inf, np.where(x < 1, np.nan, s))
    s = np.where((q <= 0) & (x > 1) & ~integer_x, np.nan, s)  # (q + k)^-x is not real
    return np.where(_is_pole(q) & (x > 1), np.inf, s)


def _polygamma(n, x):
    n_int = np.round(n)
    order = np.maximum(n_int, 1)
    factorial = np.exp(_lgamma(order + 1))
    higher = (-1.0) ** (order + 1) * factorial * _zeta(order + 1, x)
    out = np.where(n_int == 0, _digamma(x), higher)
    return np.where((n != n_int) | (n < 0), np.nan, out)


Lgamma = Op("Lgamma", _in_float64(_lgamma), dtypes=dtypes.FLOATING, shape=same_shape)
Digamma = Op("Digamma", _in_float64(_digamma), dtypes=dtypes.FLOATING, shape=same_shape)
Zeta = Op("Zeta", _in_float64(_zeta), dtypes=_FLOAT_DOUBLE, shape=broadcast("Zeta"))
Polygamma = Op("Polygamma", _in_float64(_polygamma), dtypes=_FLOAT_DOUBLE,
               shape=broadcast("Polygamma"))


@Lgamma.def_grad
def _lgamma_grad(op, dy):
    return dy * digamma(op.inputs[0])


@Digamma.def_grad
def _digamma_grad(op, dy):
    x = op.inputs[0]
    return dy * polygamma(convert_to_tensor(1, dtype=x.dtype), x)


@Polygamma.def_grad
def _polygamma_grad(op, dy):
    n, x = op.inputs  # TF: no gradient for the order n
    return None, unbroadcast(dy * polygamma(n + 1, x), x)


@Zeta.def_grad
def _zeta_grad(op, dy):
    x, q = op.inputs  # TF: no gradient for x
    return None, unbroadcast(dy * -x * zeta(x + 1, q), q)


@tf_export("math.lgamma")
def lgamma(x, name=None):
    """log|Gamma(x)|: lgamma(n + 1) = log(n!), without overflowing; inf at 0, -1, -2, ...

    >>> tf.math.lgamma(tf.constant([0.0, -0.5, 30.0]))
    <tf.Tensor: shape=(3,), dtype=float32, numpy=array([       inf,  1.2655121, 71.25704  ], dtype=float32)>
    """
    return apply(Lgamma, [convert_to_tensor(x)])


@tf_export("math.digamma")
def digamma(x, name=None):
    """psi(x) = d lgamma(x) / dx (nan at the poles 0, -1, -2, ...).

    >>> tf.math.digamma(tf.constant([1.0, 0.5], tf.float64))  # -Euler's gamma, -gamma - 2 log 2
    <tf.Tensor: shape=(2,), dtype=float64, numpy=array([-0.57721566, -1.96351003])>
    """
    return apply(Digamma, [convert_to_tensor(x)])


@tf_export("math.polygamma")
def polygamma(a, x, name=None):
    """The a-th derivative of digamma at x; `a` a whole number >= 0 (nan otherwise).

    >>> tf.math.polygamma(tf.constant([1.0, 2.0]), tf.constant([1.0, 1.0]))  # pi^2/6, -2 zeta(3)
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([ 1.644934 , -2.4041138], dtype=float32)>
    """
    a, x = binary_args(a, x)
    return apply(Polygamma, [a, x])


@tf_export("math.zeta")
def zeta(x, q, name=None):
    """Hurwitz's zeta: sum over k >= 0 of (q + k)^-x, for x > 1 (inf at x = 1, nan below).

    >>> tf.math.zeta(tf.constant([2.0, 4.0], tf.float64), 1.0)  # pi^2/6, pi^4/90
    <tf.Tensor: shape=(2,), dtype=float64, numpy=array([1.64493407, 1.08232323])>
    """
    x, q = binary_args(x, q)
    return apply(Zeta, [x, q])


@tf_export("math.lbeta")
def lbeta(x, name=None):
    """log|B(x)| along the last axis: sum(lgamma(x)) - lgamma(sum(x)) (as TF composes it).

    >>> tf.math.lbeta(tf.constant([[1.0, 2.0], [3.0, 4.0]]))  # log(1/2), log(1/60)
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([-0.6931472, -4.0943446], dtype=float32)>
    """
    from .reduction_ops import reduce_sum

    x = convert_to_tensor(x)
    return reduce_sum(lgamma(x), axis=[-1]) - lgamma(reduce_sum(x, axis=[-1]))
