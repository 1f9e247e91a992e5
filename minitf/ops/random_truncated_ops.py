"""`tf.random.stateless_parameterized_truncated_normal`: normal draws kept inside
[minval, maxval], with a mean, stddev and bounds per element.

minitf samples by the inverse CDF: with a = (minval - mean) / stddev,
b = (maxval - mean) / stddev and u ~ U(0, 1) fixed by the seed,

    x = mean + stddev * ndtri(Phi(a) + u * (Phi(b) - Phi(a)))

(computed in float64, on the lower tail by symmetry, so far tails stay
accurate). TF samples the same distribution with rejection methods and its
Philox stream, so the numbers differ from TF's; the distribution, shapes,
dtypes and errors are TF's.

The gradient is TF's implicit one (`_StatelessParameterizedTruncatedNormalGrad`):
with c the sample's CDF inside the bounds and s the standardized sample,
dx/dmaxval = exp((s^2 - b^2) / 2) * c and dx/dminval = exp((s^2 - a^2) / 2) * (1 - c)
(the exact derivatives), while dx/dmean = 1 and dx/dstddev = s are the
location-scale derivatives, which hold the *standardized* bounds a, b fixed:
TF does not subtract the part that moves through a and b when the mean or
stddev moves with fixed minval and maxval, so neither does minitf. Each is
summed over the dimensions the parameter was broadcast along.

>>> import minitf as tf
>>> x = tf.random.stateless_parameterized_truncated_normal(
...     [1000], seed=[7, 17], means=0.0, stddevs=1.0, minvals=-1.0, maxvals=1.0)
>>> bool(tf.reduce_all((x >= -1.0) & (x <= 1.0)))
True
"""
import numpy as np

from ..framework import dtypes, errors
from ..framework.op import Op, apply
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export
from .creation_ops import ones_like
from .math_ops import divide, log, subtract
from .clip_ops import clip_by_value
from .random_distribution_ops import _check_trailing, _stateless_rng
from .random_ops import shape_argument, stateless_seed
from .random_shape_input import apply_random
from .special_ops import _erfinv
from .unary_ops import erfc, exp, log1p
from .unbroadcast import unbroadcast

_FLOATS = (dtypes.float16, dtypes.float32, dtypes.float64)


def _phi(z):
    """The standard normal CDF, accurate on the lower tail (through erfc)."""
    from math import erfc as _erfc
    return 0.5 * np.vectorize(_erfc, otypes=[np.float64])(-z / np.sqrt(2.0))


def _ndtri(p, a, b):
    """z in [a, b] with Phi(z) = p. erfinv(2p - 1) loses tiny p (2p - 1 rounds to -1), so
    there the answer is found by bisection on log Phi, which stays accurate to z ~ -37."""
    with np.errstate(all="ignore"):
        z = np.sqrt(2.0) * _erfinv(2 * p - 1)
    tiny = p < 1e-8
    if tiny.any():
        lo, hi, target = a[tiny].copy(), b[tiny].copy(), np.log(p[tiny])
        for _ in range(80):
            mid = 0.5 * (lo + hi)
            below = np.log(_phi(mid)) < target
            lo, hi = np.where(below, mid, lo), np.where(below, hi, mid)
        z[tiny] = 0.5 * (lo + hi)
    return np.clip(z, a, b)


def _ptn_forward(seed, means, stddevs, minvals, maxvals, shape):
    mean, std, lo, hi = (np.broadcast_to(v, shape).astype(np.float64)
                         for v in (means, stddevs, minvals, maxvals))
    if np.any(~(std > 0)) or np.any(~(lo < hi)):
        raise errors.InvalidArgumentError(
            None, None, "StatelessParameterizedTruncatedNormal: Invalid parameters: every "
            "stddev must be > 0 and every minval < maxval, or there is nothing to draw from.")
    a, b = (lo - mean) / std, (hi - mean) / std
    flip = a + b > 0  # mostly above the mean: sample the mirror image on the lower side
    a, b = np.where(flip, -b, a), np.where(flip, -a, b)
    u = _stateless_rng("StatelessParameterizedTruncatedNormal", seed).random(shape)
    pa, pb = _phi(a), _phi(b)
    z = _ndtri(pa + u * (pb - pa), a, b)
    z = np.where(flip, -z, z)
    return (mean + std * z).astype(means.dtype)


StatelessParameterizedTruncatedNormal = Op(
    "StatelessParameterizedTruncatedNormal", _ptn_forward, typed=(1, 2, 3, 4),
    dtypes=set(_FLOATS), shape=lambda seed, *params, shape: TensorShape(shape))


def _ndtr(x):
    """TF's _Ndtr in minitf ops (so the gradient is itself differentiable)."""
    half_sqrt_2 = 0.5 * np.sqrt(2.0)
    return 0.5 * erfc(-x * half_sqrt_2)


@StatelessParameterizedTruncatedNormal.def_grad
def _ptn_grad(op, dy):
    _, mean, stddev, minval, maxval = op.inputs
    sample = op.outputs[0]
    minval_std = divide(subtract(minval, mean), stddev)
    maxval_std = divide(subtract(maxval, mean), stddev)
    sample_std = divide(subtract(sample, mean), stddev)
    cdf = divide(_ndtr(sample_std) - _ndtr(minval_std), _ndtr(maxval_std) - _ndtr(minval_std))
    info = np.finfo(mean.dtype.as_numpy_dtype)
    cdf = clip_by_value(cdf, info.tiny, 1 - info.eps)
    dmaxval = exp(0.5 * (sample_std * sample_std - maxval_std * maxval_std) + log(cdf))
    dminval = exp(0.5 * (sample_std * sample_std - minval_std * minval_std) + log1p(-cdf))
    grads = [dy * ones_like(sample_std), dy * sample_std, dy * dminval, dy * dmaxval]
    return [None] + [unbroadcast(g, p) for g, p in zip(grads, (mean, stddev, minval,
                                                                        maxval))]


@tf_export("random.stateless_parameterized_truncated_normal")
def stateless_parameterized_truncated_normal(shape, seed, means=0.0, stddevs=1.0, minvals=-2.0,
                                             maxvals=2.0, name=None):
    """Normal(means, stddevs) draws kept inside [minvals, maxvals], fixed by `seed`.

    The four parameters broadcast together to the last dimensions of `shape` and
    must share one float dtype. Differentiable in all four (module docstring).

    >>> tf.random.stateless_parameterized_truncated_normal(
    ...     [10, 2, 3], seed=[7, 17], minvals=[-1., -2., -1000.], maxvals=[[10000.], [1.]]).shape
    TensorShape([10, 2, 3])
    """
    params = [convert_to_tensor(v) for v in (means, stddevs, minvals, maxvals)]
    dims = shape_argument("StatelessParameterizedTruncatedNormal", shape)
    both = np.broadcast_shapes(*(tuple(p.shape.as_list()) for p in params))
    _check_trailing("StatelessParameterizedTruncatedNormal", dims, both, "parameter")
    return apply_random(StatelessParameterizedTruncatedNormal, [stateless_seed(seed)] + params,
                 {"shape": dims})
