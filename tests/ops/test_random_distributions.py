"""tf.random.gamma/poisson and the stateless gamma, poisson, binomial, categorical and
parameterized truncated normal, without real TF: determinism, TF's seed rules, the
distributions themselves (moments, Kolmogorov-Smirnov distance to the exact CDF),
gradients, and graph mode. test_random_real_tf.py compares shapes, dtypes and errors
with TF."""
import math

import numpy as np
import pytest
from gradcheck import check_grads

import minitf as tf
from minitf.ops.random_distribution_ops import _igamma, random_gamma_grad

SEED = [3, 4]


@pytest.fixture(autouse=True)
def no_global_seed():
    tf.random.set_seed(None)
    yield
    tf.random.set_seed(None)


def ks_distance(samples, cdf):
    """max |empirical CDF - cdf| (the Kolmogorov-Smirnov statistic)."""
    x = np.sort(np.asarray(samples, np.float64).ravel())
    n = len(x)
    f = cdf(x)
    return max(np.max(np.arange(1, n + 1) / n - f), np.max(f - np.arange(n) / n))


def ks_bound(n):
    return 1.63 / math.sqrt(n)  # the 1% critical value


STATELESS = {
    "gamma": lambda seed: tf.random.stateless_gamma([50, 2], seed, alpha=[0.5, 3.0]),
    "poisson": lambda seed: tf.random.stateless_poisson([50, 2], seed, lam=[0.5, 30.0]),
    "binomial": lambda seed: tf.random.stateless_binomial([50], seed, counts=20., probs=0.3),
    "categorical": lambda seed: tf.random.stateless_categorical(tf.zeros([2, 9]), 30, seed),
    "ptn": lambda seed: tf.random.stateless_parameterized_truncated_normal([60], seed),
}


@pytest.mark.parametrize("name", sorted(STATELESS))
def test_stateless_draws_are_a_function_of_the_seed(name):
    op = STATELESS[name]
    a, b, c = op(SEED), op(SEED), op([3, 5])
    assert np.array_equal(a.numpy(), b.numpy())
    assert not np.array_equal(a.numpy(), c.numpy())


@pytest.mark.parametrize("name", sorted(STATELESS))
def test_stateless_draws_in_a_function_equal_eager_ones(name):
    op = STATELESS[name]
    traced = tf.function(lambda: op(tf.constant(SEED)))
    assert np.array_equal(traced().numpy(), op(SEED).numpy())


STATEFUL = {
    "gamma": lambda seed=None: tf.random.gamma([20], 2.0, seed=seed),
    "poisson": lambda seed=None: tf.random.poisson([20], 4.0, seed=seed),
}


@pytest.mark.parametrize("name", sorted(STATEFUL))
def test_stateful_draws_follow_tf_seed_rules(name):
    op = STATEFUL[name]
    tf.random.set_seed(5)
    first, second = op(), op()
    tf.random.set_seed(5)
    assert np.array_equal(op().numpy(), first.numpy())
    assert np.array_equal(op().numpy(), second.numpy())
    assert not np.array_equal(first.numpy(), second.numpy())
    tf.random.set_seed(5)
    a1, a2 = op(seed=1), op(seed=1)  # the kernel counts its calls
    assert not np.array_equal(a1.numpy(), a2.numpy())


# --- the distributions -------------------------------------------------------------------------
def test_gamma_mean_variance_and_exponential_cdf():
    x = tf.random.stateless_gamma([20000, 2], SEED, alpha=[1.0, 4.0], beta=[2.0, 0.5]).numpy()
    np.testing.assert_allclose(x.mean(0), [0.5, 8.0], rtol=0.03)
    np.testing.assert_allclose(x.var(0), [0.25, 16.0], rtol=0.08)
    assert ks_distance(x[:, 0], lambda t: 1 - np.exp(-2 * t)) < ks_bound(20000)


def test_gamma_ks_against_the_incomplete_gamma_function():
    x = tf.random.gamma([4000], alpha=0.3, seed=2).numpy()
    assert ks_distance(x, lambda t: _igamma(0.3, t)) < ks_bound(4000)
    assert ks_distance(x, lambda t: _igamma(0.4, t)) > ks_bound(4000)  # the test can fail


def test_incomplete_gamma_known_values():
    # P(1, x) = 1 - exp(-x); P(0.5, x) = erf(sqrt(x)); both branches of the evaluation
    x = np.array([0.01, 0.5, 2.0, 7.0, 40.0])
    np.testing.assert_allclose(_igamma(1.0, x), 1 - np.exp(-x), rtol=1e-12)
    np.testing.assert_allclose(_igamma(0.5, x), [math.erf(math.sqrt(v)) for v in x], rtol=1e-12)


def test_gamma_edge_alphas_as_tf():
    x = tf.random.gamma([3], [-1.0, 0.0]).numpy()
    assert np.isnan(x[:, 0]).all()
    assert (x[:, 1] == np.finfo(np.float32).tiny).all()


def test_poisson_mean_variance_and_negative_rate():
    x = tf.random.stateless_poisson([20000, 2], SEED, lam=[0.7, 40.0], dtype=tf.float64).numpy()
    np.testing.assert_allclose(x.mean(0), [0.7, 40.0], rtol=0.03)
    np.testing.assert_allclose(x.var(0), [0.7, 40.0], rtol=0.06)
    assert (tf.random.poisson([5], -1.0).numpy() == 0).all()


def test_poisson_nan_rate_is_an_error_not_a_hang():
    # TF's kernel never returns for a NaN rate; minitf says what is wrong.
    with pytest.raises(tf.errors.InvalidArgumentError, match="NaN"):
        tf.random.poisson([2], float("nan"))


def test_binomial_moments_and_edges():
    x = tf.random.stateless_binomial([20000], SEED, counts=20., probs=0.3).numpy()
    assert abs(x.mean() - 6.0) < 0.1 and abs(x.var() - 4.2) < 0.3
    edges = tf.random.stateless_binomial([4], SEED, counts=[10., -1., 10., 10.],
                                         probs=[1.5, 0.5, 0., 1.]).numpy()
    assert edges.tolist() == [10, 0, 0, 10]


def test_stateless_categorical_frequencies():
    logits = tf.math.log([[0.2, 0.5, 0.3]])
    x = tf.random.stateless_categorical(logits, 20000, SEED).numpy()[0]
    np.testing.assert_allclose(np.bincount(x, minlength=3) / 20000, [0.2, 0.5, 0.3], atol=0.015)


def _truncated_cdf(a, b):
    phi = np.vectorize(lambda z: 0.5 * math.erfc(-z / math.sqrt(2)))
    return lambda t: (phi(t) - phi(a)) / (phi(b) - phi(a))


@pytest.mark.parametrize("bounds", [(-2.0, 2.0), (1.0, 4.0), (-30.0, -20.0), (-0.5, 100.0)])
def test_parameterized_truncated_normal_ks(bounds):
    a, b = bounds
    x = tf.random.stateless_parameterized_truncated_normal(
        [3000], SEED, means=1.0, stddevs=2.0, minvals=a, maxvals=b, ).numpy()
    assert x.min() >= a and x.max() <= b
    z = (x.astype(np.float64) - 1.0) / 2.0
    assert ks_distance(z, _truncated_cdf((a - 1) / 2, (b - 1) / 2)) < ks_bound(3000)


def test_parameterized_truncated_normal_bad_parameters():
    with pytest.raises(tf.errors.InvalidArgumentError, match="minval < maxval"):
        tf.random.stateless_parameterized_truncated_normal([2], SEED, minvals=1., maxvals=1.)
    with pytest.raises(tf.errors.InvalidArgumentError, match="stddev"):
        tf.random.stateless_parameterized_truncated_normal([2], SEED, stddevs=-1.)


# --- gradients -----------------------------------------------------------------------------------
def truncated(mean, stddev, lo, hi):
    return tf.random.stateless_parameterized_truncated_normal(
        [4, 2], SEED, means=mean, stddevs=stddev, minvals=lo, maxvals=hi)


def test_truncated_normal_bound_gradients_match_finite_differences():
    # inverse-CDF sampling is smooth in the bounds: the implicit gradient is the exact one
    check_grads(truncated, [0.3, -0.2], 1.5, [-1.0, -2.0], 2.5, rtol=1e-4, wrt=[2, 3])


def test_truncated_normal_mean_and_stddev_gradients_are_tfs_location_scale_ones():
    params = [tf.constant(v, tf.float64) for v in ([0.3, -0.2], 1.5, [-1.0, -2.0], 2.5)]
    with tf.GradientTape() as tape:
        tape.watch(params)
        x = truncated(*params)
    d_mean, d_stddev = tape.gradient(x, params[:2])
    np.testing.assert_allclose(d_mean.numpy(), [4.0, 4.0])  # dx/dmean = 1, four rows
    expected = np.sum((x.numpy() - params[0].numpy()) / 1.5)
    np.testing.assert_allclose(d_stddev.numpy(), expected, rtol=1e-12)


def test_gamma_gradient_in_beta_matches_finite_differences():
    check_grads(lambda b: tf.random.stateless_gamma([5, 2], SEED, alpha=[0.7, 2.0], beta=b,
                                                    dtype=tf.float64), [1.5, 0.5])


def test_gamma_alpha_gradient_is_the_quantile_derivative():
    # x = F^-1(u; alpha): dx/dalpha by differencing the quantile at fixed u
    alpha, x = 2.5, 1.7
    u = _igamma(alpha, x)

    def quantile(a):
        lo, hi = 0.0, 50.0
        for _ in range(200):
            mid = (lo + hi) / 2
            lo, hi = (mid, hi) if _igamma(a, mid) < u else (lo, mid)
        return (lo + hi) / 2

    expected = (quantile(alpha + 1e-4) - quantile(alpha - 1e-4)) / 2e-4
    got = random_gamma_grad(tf.constant(alpha, tf.float64), tf.constant(x, tf.float64))
    np.testing.assert_allclose(float(got), expected, rtol=1e-6)


def test_gamma_gradient_of_the_mean_is_one_over_beta():
    alpha = tf.constant([0.5, 4.0])
    with tf.GradientTape() as tape:
        tape.watch(alpha)
        mean = tf.reduce_mean(tf.random.gamma([5000], alpha, beta=2.0, seed=1), axis=0)
    np.testing.assert_allclose(tape.gradient(mean, alpha).numpy(), [0.5, 0.5], rtol=0.06)


def test_poisson_and_binomial_have_no_gradient():
    lam = tf.constant(3.0)
    with tf.GradientTape() as tape:
        tape.watch(lam)
        y = tf.random.stateless_poisson([4], SEED, lam, dtype=tf.float32)
    assert tape.gradient(y, lam) is None


def test_gamma_gradient_in_a_function_with_unknown_sizes():
    @tf.function(input_signature=[tf.TensorSpec([None])])
    def grad_of_sum(alpha):
        with tf.GradientTape() as tape:
            tape.watch(alpha)
            total = tf.reduce_sum(tf.random.stateless_gamma([400, 3], SEED, alpha))
        return tape.gradient(total, alpha)

    alpha = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(alpha)
        total = tf.reduce_sum(tf.random.stateless_gamma([400, 3], SEED, alpha))
    np.testing.assert_allclose(grad_of_sum(alpha).numpy(), tape.gradient(total, alpha).numpy(),
                               rtol=1e-6)
    np.testing.assert_allclose(grad_of_sum(alpha).numpy(), [400, 400, 400], rtol=0.1)
