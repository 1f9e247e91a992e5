"""The regularized incomplete gamma and beta functions: tf.math.igamma, igammac, betainc.

>>> import minitf as tf
>>> tf.math.igamma(2.0, tf.constant([0.0, 1.0, 10.0]))  # P(2, x): the Gamma(2, 1) CDF
<tf.Tensor: shape=(3,), dtype=float32, numpy=array([0.        , 0.26424113, 0.9995006 ], dtype=float32)>

* igamma(a, x) = P(a, x) = integral_0^x t^(a-1) e^(-t) dt / Gamma(a), the lower one;
* igammac(a, x) = Q(a, x) = 1 - P(a, x), the upper one (exact where P is near 1);
* betainc(a, b, x) = I_x(a, b) = integral_0^x t^(a-1) (1-t)^(b-1) dt / B(a, b).
All need a, b > 0 (nan otherwise; P also nan for x < 0, I for x outside [0, 1]). The forwards
are SciPy's gammainc, gammaincc and betainc (Cephes, as TF's Eigen kernels), in float64.
Gradients, as TF: dP/dx = x^(a-1) e^(-x) / Gamma(a), dI/dx = x^(a-1) (1-x)^(b-1) / B(a, b);
dP/da has no closed form: `igamma_grad_a` differentiates the series (x < a + 1) or the
continued fraction (x >= a + 1) that evaluate P and Q, carrying d/da along (forward mode).
TF gives betainc no gradient for a and b (None).
"""
import numpy as np

from ..framework import dtypes, errors
from ..framework.op import Op, apply
from ..framework.tensor import convert_to_tensor
from ..framework.tf_export import tf_export
from .math_ops import binary_args
from .scipy_support import scipy_module
from .shape_rules import broadcast
from .special_math_ops import no_half_kernel
from .unbroadcast import unbroadcast

_FLOAT_DOUBLE = frozenset({dtypes.float32, dtypes.float64})


def _in_float64(op_name, compute):
    def forward(a, x):
        if a.dtype == np.float16:
            raise no_half_kernel(op_name)
        special = scipy_module("special", f"tf.math.{op_name.lower()}")
        with np.errstate(all="ignore"):
            out = compute(special, a.astype(np.float64), x.astype(np.float64))
        return np.asarray(out).astype(a.dtype)
    return forward


def _igamma(sp, a, x):
    out = np.where((a <= 0) | (x < 0), np.nan, sp.gammainc(a, x))
    out = np.where(np.isposinf(a) & np.isposinf(x), 0.0, out)  # Eigen's answer, kept for TF
    return np.where(x == 0, 0.0, out)  # TF: P(a, 0) = 0 whatever a is


def _igammac(sp, a, x):
    out = np.where((a <= 0) | (x < 0), np.nan, sp.gammaincc(a, x))
    return np.where(np.isposinf(a) & np.isposinf(x), 0.0, out)


Igamma = Op("Igamma", _in_float64("Igamma", _igamma), dtypes=dtypes.FLOATING,
            shape=broadcast("Igamma"))
Igammac = Op("Igammac", _in_float64("Igammac", _igammac), dtypes=dtypes.FLOATING,
             shape=broadcast("Igammac"))


# --- dP/da ------------------------------------------------------------------------------------
def _dp_da_series(sp, a, x):
    """P = x^a e^-x / Gamma(a+1) * sum_n t_n, t_n = prod_{k<=n} x / (a+k): d/da of each factor."""
    log_prefactor = a * np.log(x) - x - sp.gammaln(a + 1)
    term, total, d_total, harmonic = np.ones_like(a), np.ones_like(a), np.zeros_like(a), 0.0
    for k in range(1, 2000):
        term = term * x / (a + k)
        harmonic = harmonic + 1 / (a + k)  # d log t_n / da = -sum_k 1 / (a + k)
        total, d_total = total + term, d_total - term * harmonic
        if np.all(term <= 1e-17 * total):
            break
    d_log_prefactor = np.log(x) - sp.digamma(a + 1)
    return np.exp(log_prefactor) * (total * d_log_prefactor + d_total)


def _dp_da_fraction(sp, a, x):
    """Q = x^a e^-x / Gamma(a) / (b_1 + c_1 / (b_2 + c_2 / ...)), b_n = x + 2n - 1 - a and
    c_n = -n (n - a); evaluated from the bottom up with its derivative (db/da = -1,
    dc/da = n). dP/da = -dQ/da."""
    depth = int(min(5000, 60 + 10 * np.sqrt(np.max(a, initial=1.0))))
    f, df = x + 2 * depth - 1 - a, -np.ones_like(a)
    for n in range(depth - 1, 0, -1):
        c = -n * (n - a)
        f, df = x + 2 * n - 1 - a + c / f, -1 + (n * f - c * df) / (f * f)
    fraction, d_fraction = 1 / f, -df / (f * f)
    log_prefactor = a * np.log(x) - x - sp.gammaln(a)
    d_log_prefactor = np.log(x) - sp.digamma(a)
    return -np.exp(log_prefactor) * (fraction * d_log_prefactor + d_fraction)


def _igamma_grad_a(a, x):
    sp = scipy_module("special", "the gradient of tf.math.igamma")
    a64, x64 = np.broadcast_arrays(a.astype(np.float64), x.astype(np.float64))
    with np.errstate(all="ignore"):
        series = x64 < a64 + 1
        out = np.where(series, _dp_da_series(sp, a64, np.where(series, x64, 0.5)),
                       _dp_da_fraction(sp, a64, np.where(series, a64 + 2, x64)))
        out = np.where(x64 == 0, 0.0, out)
        out = np.where((a64 <= 0) | (x64 < 0) | np.isnan(a64 + x64), np.nan, out)
    return out.astype(a.dtype)


IgammaGradA = Op("IgammaGradA", _igamma_grad_a, dtypes=_FLOAT_DOUBLE,
                 shape=broadcast("IgammaGradA"))


@IgammaGradA.def_grad
def _igamma_grad_a_grad(op, dy):
    raise LookupError("gradient registry has no entry for: IgammaGradA (TensorFlow defines no "
                      "second derivative of igamma with respect to a)")


@Igamma.def_grad
def _igamma_grad(op, dy):
    from .gamma_ops import lgamma
    from .math_ops import log
    from .unary_ops import exp

    a, x = op.inputs
    partial_a = apply(IgammaGradA, [a, x])
    partial_x = exp(-x + (a - 1) * log(x) - lgamma(a))  # in log space: Gamma(a) grows large
    return unbroadcast(dy * partial_a, a), unbroadcast(dy * partial_x, x)


@Igammac.def_grad
def _igammac_grad(op, dy):
    grad_a, grad_x = _igamma_grad(op, dy)  # Q = 1 - P
    return -grad_a, -grad_x


@tf_export("math.igamma")
def igamma(a, x, name=None):
    """P(a, x), the lower regularized incomplete gamma function (broadcasting a against x).

    >>> tf.math.igamma(tf.constant([0.5, 2.0, 3.0], tf.float64), 1.0).numpy()
    array([0.84270079, 0.26424112, 0.0803014 ])
    """
    a, x = binary_args(a, x)
    return apply(Igamma, [a, x])


@tf_export("math.igammac")
def igammac(a, x, name=None):
    """Q(a, x) = 1 - P(a, x), the upper regularized incomplete gamma function.

    >>> tf.math.igammac(tf.constant([0.5, 2.0, 3.0], tf.float64), 1.0).numpy()
    array([0.15729921, 0.73575888, 0.9196986 ])
    """
    a, x = binary_args(a, x)
    return apply(Igammac, [a, x])


# --- betainc --------------------------------------------------------------------------------
def _betainc_shape(a, b, x):
    """TF's Betainc does not broadcast: each non-scalar shape must equal the others."""
    for (first, s), (second, t) in [(("a", a), ("b", b)), (("a", a), ("x", x)),
                                    (("b", b), ("x", x))]:
        if s.rank and t.rank and s.is_fully_defined() and t.is_fully_defined() and s != t:
            raise errors.op_error(
                errors.InvalidArgumentError, "Betainc",
                f"Shapes of {first} and {second} are inconsistent: "
                f"[{','.join(map(str, s.as_list()))}] vs. [{','.join(map(str, t.as_list()))}]",
                "betainc does not broadcast: give a, b and x one shape (scalars may mix in), "
                "e.g. with tf.broadcast_to.")
    return next((s for s in (x, b, a) if s.rank != 0), a)


def _betainc(a, b, x):
    from ..framework.tensor_shape import TensorShape

    _betainc_shape(TensorShape(a.shape), TensorShape(b.shape), TensorShape(x.shape))
    sp = scipy_module("special", "tf.math.betainc")
    a64, b64, x64 = (v.astype(np.float64) for v in (a, b, x))
    with np.errstate(all="ignore"):
        out = sp.betainc(a64, b64, x64)
        out = np.where(np.isinf(a64) | np.isinf(b64), np.nan, out)  # TF: nan inside (0, 1) ...
        out = np.where(x64 == 0, 0.0, np.where(x64 == 1, 1.0, out))  # ... and 0, 1 at the ends
        out = np.where((a64 <= 0) | (b64 <= 0) | (x64 < 0) | (x64 > 1), np.nan, out)
    return np.asarray(out).astype(a.dtype)


Betainc = Op("Betainc", _betainc, dtypes=_FLOAT_DOUBLE, shape=_betainc_shape)


@Betainc.def_grad
def _betainc_grad(op, dy):
    from .clip_ops import xlogy
    from .gamma_ops import lgamma
    from .math_more_ops import xlog1py
    from .unary_ops import exp

    a, b, x = op.inputs
    log_beta = lgamma(a) + lgamma(b) - lgamma(a + b)
    # xlogy and xlog1py: 0 * log(0) = 0, so the slope at x = 0 or 1 is right when a or b is 1
    partial_x = exp(xlog1py(b - 1, -x) + xlogy(a - 1, x) - log_beta)
    return None, None, unbroadcast(dy * partial_x, x)


@tf_export("math.betainc")
def betainc(a, b, x, name=None):
    """I_x(a, b), the regularized incomplete beta function: the Beta(a, b) CDF at x.

    a, b and x have one dtype (float32 or float64) and one shape, or are scalars.

    >>> tf.math.betainc(2.0, 3.0, tf.constant([0.0, 0.5, 1.0])).numpy()
    array([0.    , 0.6875, 1.    ], dtype=float32)
    """
    from ..framework.tensor import Tensor

    first = next((v for v in (a, b, x) if isinstance(v, Tensor)), None)  # it fixes the dtype
    dtype = convert_to_tensor(a).dtype if first is None else first.dtype
    return apply(Betainc, [convert_to_tensor(v, dtype) for v in (a, b, x)])
