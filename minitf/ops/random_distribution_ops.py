"""More distributions: `tf.random.gamma`, `poisson` and the stateless `stateless_gamma`,
`stateless_poisson`, `stateless_binomial`, `stateless_categorical`,
`stateless_parameterized_truncated_normal`.

Seeds follow `random_ops` (stateful ops: TF's `(seed, seed2)` rules and kernel
counters; stateless ops: a pure function of the seed pair). The numbers come
from NumPy's samplers (PCG64), not TF's Philox streams: the same seed repeats
the same numbers, but not TF's numbers. Shapes, dtypes, edge cases (alpha <= 0,
negative rates, p outside [0, 1]) and errors are TF's.

Gradients through a random draw: a gamma sample x depends on alpha only
through the draw, so TF differentiates it *implicitly* (Figurnov et al.,
2018): x is the u-quantile of Gamma(alpha), F(x; alpha) = u, so

    dx/dalpha = -(dF/dalpha)(x; alpha) / pdf(x; alpha).

minitf computes dF/dalpha (F the regularized lower incomplete gamma
function) in float64 by a central difference, and `beta` enters as x / beta.
The truncated normal's gradient is the same idea with F the normal CDF.

>>> import minitf as tf
>>> alpha = tf.constant([1.0, 3.0])
>>> with tf.GradientTape() as tape:
...     tape.watch(alpha)
...     x = tf.random.stateless_gamma([500, 2], seed=[1, 2], alpha=alpha)
...     mean = tf.reduce_mean(x, axis=0)
>>> tape.gradient(mean, alpha).shape     # d mean / d alpha, about 1 (E[x] = alpha)
TensorShape([2])
"""
import numpy as np

from ..framework import dtypes, errors
from ..framework.op import Op, apply
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export
from .array_ops import broadcast_to, concat, reshape
from .broadcast_shape_ops import broadcast_dynamic_shape
from .creation_ops import ones
from .gamma_ops import _lgamma
from .math_ops import divide, maximum
from .random_ops import (_kernel_generator, _seed_attrs, check_dtype, check_logits,
                         gumbel_max_samples, numpy_generator, shape_argument, stateless_seed)
from .reduction_ops import reduce_sum
from .random_shape_input import apply_random
from .shape_ops import constant_value_as_shape, shape as shape_of
from .shape_rules import broadcast, dims_text

FLOATS = (dtypes.float16, dtypes.float32, dtypes.float64)
_POISSON_DTYPES = FLOATS + (dtypes.int32, dtypes.int64)


def _stateless_rng(op_name, seed):
    return numpy_generator(op_name, int(seed[0]), int(seed[1]))


# --- the incomplete gamma function and the implicit gradient of gamma draws ---------------------
def _igamma(a, x):
    """P(a, x), the regularized lower incomplete gamma function, in float64: the series for
    x < a + 1, the continued fraction (modified Lentz) for Q = 1 - P otherwise."""
    a, x = np.broadcast_arrays(np.asarray(a, np.float64), np.asarray(x, np.float64))
    out = np.full(a.shape, np.nan)
    with np.errstate(all="ignore"):
        log_front = a * np.log(x) - x - _lgamma(a)
        low = x < a + 1
        out[low] = np.exp(log_front[low]) * _igamma_series(a[low], x[low])
        high = (x >= a + 1)
        out[high] = 1 - np.exp(log_front[high]) * _igammac_fraction(a[high], x[high])
    out[(x == 0) & (a > 0)] = 0.0
    return out


def _igamma_series(a, x):
    """sum over n of x^n / (a (a+1) ... (a+n)), to float64 precision."""
    term = 1.0 / a
    total, denom = term.copy(), a.copy()
    for _ in range(5000):
        denom = denom + 1
        term = term * x / denom
        total = total + term
        if np.all(np.abs(term) <= np.abs(total) * 1e-16):
            break
    return total


def _igammac_fraction(a, x):
    """The continued fraction of Q(a, x) e^x x^-a Gamma(a), by the modified Lentz method."""
    tiny = 1e-300
    b = x + 1 - a
    c, d = np.full(a.shape, 1 / tiny), 1.0 / b
    h = d.copy()
    for i in range(1, 5000):
        an = -i * (i - a)
        b = b + 2
        d = an * d + b
        d = np.where(np.abs(d) < tiny, tiny, d)
        c = b + an / c
        c = np.where(np.abs(c) < tiny, tiny, c)
        d = 1.0 / d
        h = h * d * c
        if np.all(np.abs(d * c - 1) < 1e-15):
            break
    return h


def _random_gamma_grad(alpha, sample):
    """d sample / d alpha at fixed quantile: -(dP/dalpha) / pdf, in float64."""
    a, x = np.broadcast_arrays(alpha.astype(np.float64), sample.astype(np.float64))
    step = 1e-5 * np.maximum(a, 1e-3)
    dp_da = (_igamma(a + step, x) - _igamma(a - step, x)) / (2 * step)
    with np.errstate(all="ignore"):
        log_pdf = (a - 1) * np.log(x) - x - _lgamma(a)
        grad = -dp_da / np.exp(log_pdf)
    return grad.astype(sample.dtype)


RandomGammaGrad = Op("RandomGammaGrad", _random_gamma_grad, dtypes={dtypes.float32,
                                                                     dtypes.float64},
                     shape=broadcast("RandomGammaGrad"))


def random_gamma_grad(alpha, sample, name=None):
    """d sample / d alpha of gamma draws, by implicit differentiation (module docstring);
    TF's raw op RandomGammaGrad.

    >>> from minitf.ops.random_distribution_ops import random_gamma_grad
    >>> random_gamma_grad(tf.constant(1.0), tf.constant(2.0)).dtype
    tf.float32
    """
    return apply(RandomGammaGrad, [convert_to_tensor(alpha), convert_to_tensor(sample)])


def _gamma_alpha_grad(alpha, sample, dy, sample_dims):
    """The gradient reaching alpha: dy * dx/dalpha summed over the sample dimensions."""
    alpha_b = reshape(alpha, concat([ones([sample_dims], dtypes.int32), shape_of(alpha)], 0))
    partial = apply(RandomGammaGrad, [broadcast_to(alpha_b, shape_of(sample)), sample])
    return reduce_sum(dy * partial, axis=list(range(sample_dims)))


def _gamma_samples(rng, shape, alpha, dtype):
    with np.errstate(all="ignore"):
        a = alpha.astype(np.float64)
        draws = rng.standard_gamma(np.where(a > 0, a, 1.0), size=shape)
        return np.where(a > 0, draws, np.where(a == 0, 0.0, np.nan)).astype(dtype)


# --- tf.random.gamma --------------------------------------------------------------------------
def _gamma_forward(alpha, shape, seed, seed2, kernel):
    rng = _kernel_generator("RandomGamma", alpha.dtype, seed, seed2, kernel)
    return _gamma_samples(rng, tuple(shape) + alpha.shape, alpha, alpha.dtype)


RandomGamma = Op("RandomGamma", _gamma_forward, dtypes=set(FLOATS), stateful=True,
                 shape=lambda alpha, shape, **attrs: TensorShape(list(shape) + alpha.as_list()))


@RandomGamma.def_grad
def _gamma_grad(op, dy):
    return _gamma_alpha_grad(op.inputs[0], op.outputs[0], dy, len(op.attrs["shape"]))


def _alpha_beta(alpha, beta, dtype):
    dtype = check_dtype(dtype, FLOATS)
    alpha = convert_to_tensor(alpha, dtype=dtype)
    beta = convert_to_tensor(1 if beta is None else beta, dtype=dtype)
    if alpha.shape.is_fully_defined() and beta.shape.is_fully_defined():
        both = list(np.broadcast_shapes(tuple(alpha.shape.as_list()), tuple(beta.shape.as_list())))
    else:  # inside tf.function with unknown sizes: broadcast at run time, as TF does
        both = broadcast_dynamic_shape(shape_of(alpha), shape_of(beta))
    return broadcast_to(alpha, both), beta, dtype


@tf_export("random.gamma")
def gamma(shape, alpha, beta=None, dtype=dtypes.float32, seed=None, name=None):
    """Draws from Gamma(alpha, beta) (shape alpha, rate beta): the result has shape
    `shape + broadcast(alpha, beta).shape` and is never below the dtype's smallest normal
    number. alpha <= 0 gives nan (alpha == 0 gives that smallest number, as in TF).

    >>> tf.random.gamma([10], alpha=[0.5, 1.5], seed=1).shape
    TensorShape([10, 2])
    """
    alpha, beta, dtype = _alpha_beta(alpha, beta, dtype)
    attrs = {"shape": shape_argument("RandomGamma", shape), **_seed_attrs(seed)}
    draws = apply_random(RandomGamma, [alpha], attrs)
    return maximum(np.finfo(dtype.as_numpy_dtype).tiny, divide(draws, beta))


# --- tf.random.poisson --------------------------------------------------------------------------
def _poisson_samples(rng, shape, lam, dtype):
    rate = lam.astype(np.float64)
    if np.isnan(rate).any():
        raise errors.InvalidArgumentError(None, None, "RandomPoissonV2: the rate lam must not "
                                          "be NaN; a Poisson count needs a number of events.")
    draws = rng.poisson(np.maximum(rate, 0.0), size=shape)  # TF: a rate <= 0 gives 0
    return draws.astype(dtype.as_numpy_dtype)


def _poisson_forward(lam, shape, dtype, seed, seed2, kernel):
    rng = _kernel_generator("RandomPoissonV2", dtype, seed, seed2, kernel)
    return _poisson_samples(rng, tuple(shape) + lam.shape, lam, dtype)


RandomPoissonV2 = Op("RandomPoissonV2", _poisson_forward, dtypes=set(_POISSON_DTYPES),
                     shape=lambda lam, shape, **a: TensorShape(list(shape) + lam.as_list()),
                     dtype=lambda lam, dtype, **a: dtype, stateful=True)  # no gradient, as in TF


def _poisson_dtype(op_name, dtype):
    dtype = dtypes.as_dtype(dtype)
    if dtype not in _POISSON_DTYPES:
        raise errors.op_error(
            errors.InvalidArgumentError, op_name,
            f"Value for attr 'dtype' of {dtype.name} is not in the list of allowed values: "
            "half, float, double, int32, int64", "Poisson counts are numbers: pick an int or "
            "float dtype.")
    return dtype


@tf_export("random.poisson")
def poisson(shape, lam, dtype=dtypes.float32, seed=None, name=None):
    """Draws from Poisson(lam): the result has shape `shape + lam.shape`. A rate
    `lam <= 0` gives 0 (TF's kernel does the same).

    >>> tf.random.poisson([4], lam=[1.0, 20.0], dtype=tf.int32, seed=1).shape
    TensorShape([4, 2])
    """
    dtype = _poisson_dtype("RandomPoissonV2", dtype)
    lam = convert_to_tensor(lam, dtype_hint=dtypes.float32)
    attrs = {"shape": shape_argument("RandomPoissonV2", shape), "dtype": dtype,
             **_seed_attrs(seed)}
    return apply_random(RandomPoissonV2, [lam], attrs)


# --- stateless versions: `shape` must end with the parameters' broadcast shape -----------------
def _check_trailing(op_name, shape, param_shape, what):
    """The stateless samplers' rule: the parameters broadcast to the *end* of `shape`."""
    if type(shape) is not tuple:  # a shape tensor inside tf.function: what is known of it
        shape = constant_value_as_shape(shape)
        if shape.rank is None:
            return
        shape = shape.as_list()
    param = tuple(param_shape)
    ok = len(param) <= len(shape)
    if ok:
        tail = shape[len(shape) - len(param):]
        ok = all(p in (1, s) or None in (p, s) for p, s in zip(param, tail))
    if not ok:
        raise errors.op_error(
            errors.InvalidArgumentError, op_name,
            f"Shape passed in must end with broadcasted shape. {what} shape "
            f"{dims_text(param)} does not broadcast to the end of shape {dims_text(shape)}",
            "The stateless samplers draw one value per element of `shape`; the parameters "
            "cover its last dimensions.")


def _stateless_gamma_forward(seed, alpha, shape):
    rng = _stateless_rng("StatelessRandomGammaV3", seed)
    return _gamma_samples(rng, shape, np.broadcast_to(alpha, shape), alpha.dtype)


StatelessRandomGammaV3 = Op("StatelessRandomGammaV3", _stateless_gamma_forward, typed=(1,),
                            dtypes=set(FLOATS), shape=lambda seed, alpha, shape: TensorShape(shape))


@StatelessRandomGammaV3.def_grad
def _stateless_gamma_grad(op, dy):
    alpha = op.inputs[1]
    sample_dims = len(op.attrs["shape"]) - alpha.shape.rank
    return None, _gamma_alpha_grad(alpha, op.outputs[0], dy, sample_dims)


@tf_export("random.stateless_gamma")
def stateless_gamma(shape, seed, alpha, beta=None, dtype=dtypes.float32, name=None):
    """Gamma(alpha, beta) draws fixed by `seed`. Unlike `tf.random.gamma`, `shape` is the
    whole result shape: alpha and beta broadcast to its last dimensions. Differentiable
    in alpha and beta (module docstring).

    >>> tf.random.stateless_gamma([10, 2], seed=[12, 34], alpha=[0.5, 1.5]).shape
    TensorShape([10, 2])
    """
    if dtypes.as_dtype(dtype) not in FLOATS:  # TF: the kernel's attr check, not Python's
        raise errors.op_error(
            errors.InvalidArgumentError, "StatelessRandomGammaV3",
            f"Value for attr 'dtype' of {dtypes.as_dtype(dtype).name} is not in the list of "
            "allowed values: half, float, double", "Gamma draws are real numbers: use a float "
            "dtype.")
    alpha, beta, dtype = _alpha_beta(alpha, beta, dtype)
    dims = shape_argument("StatelessRandomGammaV3", shape)
    _check_trailing("StatelessRandomGammaV3", dims, alpha.shape.as_list(), "alpha")
    draws = apply_random(StatelessRandomGammaV3, [stateless_seed(seed), alpha], {"shape": dims})
    return maximum(np.finfo(dtype.as_numpy_dtype).tiny, divide(draws, beta))


def _stateless_poisson_forward(seed, lam, shape, dtype):
    rng = _stateless_rng("StatelessRandomPoisson", seed)
    return _poisson_samples(rng, shape, np.broadcast_to(lam, shape), dtype)


StatelessRandomPoisson = Op("StatelessRandomPoisson", _stateless_poisson_forward, typed=(1,),
                            dtypes=set(_POISSON_DTYPES), dtype=lambda s, lam, dtype, **a: dtype,
                            shape=lambda seed, lam, shape, dtype: TensorShape(shape))


@tf_export("random.stateless_poisson")
def stateless_poisson(shape, seed, lam, dtype=dtypes.int32, name=None):
    """Poisson(lam) draws fixed by `seed`; `lam` covers the last dimensions of `shape`.

    >>> tf.random.stateless_poisson([10, 2], seed=[12, 34], lam=[5, 15]).dtype
    tf.int32
    """
    dtype = _poisson_dtype("StatelessRandomPoisson", dtype)
    lam = convert_to_tensor(lam, dtype_hint=dtypes.float32)
    dims = shape_argument("StatelessRandomPoisson", shape)
    _check_trailing("StatelessRandomPoisson", dims, lam.shape.as_list(), "lam")
    return apply_random(StatelessRandomPoisson, [stateless_seed(seed), lam],
                 {"shape": dims, "dtype": dtype})


def _binomial_forward(seed, counts, probs, shape, dtype):
    n = np.broadcast_to(counts, shape).astype(np.float64)
    p = np.broadcast_to(probs, shape).astype(np.float64)
    rng = _stateless_rng("StatelessRandomBinomial", seed)
    # As TF's kernel: a negative count gives 0 successes, p outside [0, 1] is clipped.
    draws = rng.binomial(np.maximum(n, 0).astype(np.int64), np.clip(p, 0.0, 1.0))
    return draws.astype(dtype.as_numpy_dtype)


StatelessRandomBinomial = Op("StatelessRandomBinomial", _binomial_forward, typed=(1, 2),
                             dtypes=set(_POISSON_DTYPES), dtype=lambda *a, dtype, **k: dtype,
                             shape=lambda *a, shape, dtype: TensorShape(shape))


@tf_export("random.stateless_binomial")
def stateless_binomial(shape, seed, counts, probs, output_dtype=dtypes.int32, name=None):
    """Binomial(counts, probs) draws fixed by `seed`: successes in `counts` trials with
    success probability `probs`. Both broadcast to the last dimensions of `shape`.

    >>> x = tf.random.stateless_binomial([2], seed=[123, 456], counts=[10., 20.], probs=[0.8])
    >>> x.dtype, bool(tf.reduce_all(x <= [10, 20]))
    (tf.int32, True)
    """
    dtype = _poisson_dtype("StatelessRandomBinomial", output_dtype)
    probs = convert_to_tensor(probs, dtype_hint=dtypes.float32)
    counts = convert_to_tensor(counts, dtype_hint=probs.dtype)
    dims = shape_argument("StatelessRandomBinomial", shape)
    for what, t in (("counts", counts), ("probs", probs)):
        _check_trailing("StatelessRandomBinomial", dims, t.shape.as_list(), what)
    return apply_random(StatelessRandomBinomial, [stateless_seed(seed), counts, probs],
                 {"shape": dims, "dtype": dtype})


# --- stateless categorical --------------------------------------------------------------------
def _stateless_multinomial_forward(logits, seed, num_samples, output_dtype):
    rng = _stateless_rng("StatelessMultinomial", seed)
    return gumbel_max_samples(rng, logits, num_samples, output_dtype)


StatelessMultinomial = Op(
    "StatelessMultinomial", _stateless_multinomial_forward, typed=(0,), dtypes=dtypes.FLOATING,
    dtype=lambda *a, output_dtype, **k: output_dtype,
    shape=lambda logits, seed, num_samples, **a: TensorShape(
        [logits[0] if logits.rank else None, num_samples]))


@tf_export("random.stateless_categorical")
def stateless_categorical(logits, num_samples, seed, dtype=dtypes.int64, name=None):
    """Class indices fixed by `seed`: row i holds `num_samples` draws from softmax(logits[i]).

    >>> tf.random.stateless_categorical(tf.math.log([[0.5, 0.5]]), 5, seed=[7, 17]).shape
    TensorShape([1, 5])
    """
    dtype = dtypes.as_dtype(dtype) if dtype else dtypes.int64
    if dtype not in (dtypes.int32, dtypes.int64):
        raise ValueError(f"Argument `dtype` got invalid value {dtype}. Accepted dtypes are "
                         f"({dtypes.int32!r}, {dtypes.int64!r}).")
    logits = convert_to_tensor(logits)
    num_samples, dtype = check_logits("StatelessMultinomial", logits, num_samples, dtype)
    return apply(StatelessMultinomial, [logits, stateless_seed(seed)],
                 {"num_samples": num_samples, "output_dtype": dtype})
