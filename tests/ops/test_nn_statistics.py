"""tf.nn statistics and small helpers, hand-derived (real-TF comparisons: test_nn_real_tf.py):
sufficient_statistics, weighted_moments, batch_norm_with_global_normalization,
compute_average_loss, scale_regularization_loss, crelu, log_poisson_loss, lrn, in_top_k,
approx_max_k / approx_min_k."""
import numpy as np
import pytest
from gradcheck import check_grads
from strategies import arrays

import minitf as tf
from minitf.ops.nn_lrn_ops import _lrn
from minitf.ops.nn_ranking_ops import _top_k_along


# --- sufficient_statistics, weighted_moments, batch_norm_with_global_normalization ------------
def test_sufficient_statistics_feed_normalize_moments():
    x = arrays((3, 4), seed=1)
    count, total, total_sq, shift = tf.nn.sufficient_statistics(x, axes=[0], shift=0.5)
    assert float(count) == 3.0 and float(shift) == 0.5 and count.dtype == tf.float64
    np.testing.assert_allclose(total.numpy(), (x - 0.5).sum(0))
    np.testing.assert_allclose(total_sq.numpy(), ((x - 0.5) ** 2).sum(0))
    mean, var = tf.nn.normalize_moments(count, total, total_sq, shift)
    np.testing.assert_allclose(mean.numpy(), x.mean(0))
    np.testing.assert_allclose(var.numpy(), x.var(0))


def test_sufficient_statistics_keepdims_int_and_unknown_dims():
    count, total, _, shift = tf.nn.sufficient_statistics(tf.constant([[1, 2], [3, 4]]), [0, 1],
                                                         keepdims=True)
    assert count.dtype == tf.int32 and int(count) == 4 and shift is None
    assert total.shape == (1, 1) and int(total[0, 0]) == 10
    fn = tf.function(lambda v: tf.nn.sufficient_statistics(v, [0])[0])
    concrete = fn.get_concrete_function(tf.TensorSpec([None, 3]))
    assert float(concrete(tf.zeros([5, 3]))) == 5.0  # counted when the graph runs


def test_sufficient_statistics_gradient():
    check_grads(lambda v: tf.nn.sufficient_statistics(v, [1], shift=0.3)[2], arrays((2, 3)))


def test_weighted_moments_values_and_zero_weights():
    x, w = arrays((2, 3), seed=2), np.array([[1.0, 2.0, 0.0], [0.0, 0.0, 0.0]])
    mean, var = tf.nn.weighted_moments(x, [1], w)
    expected_mean = (x[0] * w[0]).sum() / 3
    np.testing.assert_allclose(mean.numpy(), [expected_mean, 0.0])  # no weight: 0, not nan
    np.testing.assert_allclose(var.numpy(), [(w[0] * (x[0] - expected_mean) ** 2).sum() / 3, 0])
    mean, var = tf.nn.weighted_moments(x, [0], [[1.0], [3.0]], keepdims=True)
    assert mean.shape == (1, 3)
    np.testing.assert_allclose(mean.numpy()[0], (x[0] + 3 * x[1]) / 4)


def test_weighted_moments_float16_and_gradient():
    mean, var = tf.nn.weighted_moments(tf.constant([1.0, 4.0], tf.float16), [0], [2.0, 1.0])
    assert mean.dtype == var.dtype == tf.float16 and float(mean) == 2.0 and float(var) == 2.0
    check_grads(lambda v, w: tf.nn.weighted_moments(v, [0], w)[1],
                arrays((3, 2), seed=3), arrays((3, 2), 0.5, 2.0, seed=4))


def test_batch_norm_with_global_normalization_scale_switch():
    x, args = arrays((2, 3), seed=5), ([1.0, 0.0, 1.0], [1.0, 4.0, 2.0], [0.0, 1.0, 2.0],
                                       [2.0, 2.0, 3.0])
    mean, var, beta, gamma = (np.array(a) for a in args)
    scaled = tf.nn.batch_norm_with_global_normalization(x, mean, var, beta, gamma, 1e-3, True)
    np.testing.assert_allclose(scaled.numpy(),
                               gamma * (x - mean) / np.sqrt(var + 1e-3) + beta, rtol=1e-6)
    plain = tf.nn.batch_norm_with_global_normalization(x, mean, var, beta, gamma, 1e-3, False)
    np.testing.assert_allclose(plain.numpy(), (x - mean) / np.sqrt(var + 1e-3) + beta,
                               rtol=1e-6)


# --- compute_average_loss, scale_regularization_loss ------------------------------------------
def test_compute_average_loss_divides_by_the_global_batch():
    assert float(tf.nn.compute_average_loss([1.0, 2.0, 3.0])) == 2.0
    assert float(tf.nn.compute_average_loss([1.0, 2.0, 3.0], global_batch_size=6)) == 1.0
    assert float(tf.nn.compute_average_loss([[1.0, 2.0], [3.0, 4.0]])) == 5.0
    weighted = tf.nn.compute_average_loss([1.0, 2.0, 3.0], sample_weight=[1.0, 0.0, 2.0])
    assert float(weighted) == pytest.approx(7 / 3)
    rows = tf.nn.compute_average_loss([[1.0, 2.0], [3.0, 4.0]], sample_weight=[1.0, 2.0])
    assert float(rows) == 8.5  # one weight per example scales its whole row
    assert float(tf.nn.compute_average_loss([1.0, 2.0], global_batch_size=0)) == 0.0
    assert float(tf.nn.compute_average_loss(tf.zeros([0]))) == 0.0
    ints = tf.nn.compute_average_loss(tf.constant([1, 2, 3]))
    assert ints.dtype == tf.float64 and float(ints) == 2.0


@pytest.mark.parametrize("kwargs, cls, message", [
    (dict(per_example_loss=2.0), ValueError, "Expected a tensor with at least rank 1"),
    (dict(per_example_loss=[1.0], global_batch_size=2.5), TypeError,
     "global_batch_size must be an integer"),
    (dict(per_example_loss=[1.0], global_batch_size=-1), tf.errors.InvalidArgumentError,
     "global_batch_size must be non-negative"),
    (dict(per_example_loss=[1.0], global_batch_size=[2]), ValueError, "Expected scalar shape"),
])
def test_compute_average_loss_errors(kwargs, cls, message):
    with pytest.raises(cls, match=message):
        tf.nn.compute_average_loss(**kwargs)


def test_loss_scaling_under_a_mirrored_strategy():
    strategy = tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])
    result = strategy.run(lambda: tf.nn.compute_average_loss(tf.constant([1.0, 2.0])))
    assert [float(v) for v in strategy.experimental_local_results(result)] == [0.75, 0.75]
    reg = strategy.run(lambda: tf.nn.scale_regularization_loss(tf.constant(4.0)))
    assert [float(v) for v in strategy.experimental_local_results(reg)] == [2.0, 2.0]
    with strategy.scope(), pytest.raises(RuntimeError, match="cross replica context"):
        tf.nn.compute_average_loss([1.0])
    with strategy.scope(), pytest.raises(RuntimeError, match="cross replica context"):
        tf.nn.scale_regularization_loss(1.0)


def test_scale_regularization_loss_sums_a_list():
    assert float(tf.nn.scale_regularization_loss([tf.constant(3.0), tf.constant(1.0)])) == 4.0
    assert float(tf.nn.scale_regularization_loss(3.0)) == 3.0


# --- crelu, log_poisson_loss ---------------------------------------------------------------------
def test_crelu_values_axis_and_gradient():
    x = arrays((2, 3), seed=6)
    np.testing.assert_array_equal(tf.nn.crelu(x).numpy(),
                                  np.maximum(np.concatenate([x, -x], -1), 0))
    assert tf.nn.crelu(x, axis=0).shape == (4, 3)
    assert tf.nn.crelu(tf.constant([1, -2])).numpy().tolist() == [1, 0, 0, 2]
    check_grads(lambda v: tf.nn.crelu(v, axis=0), x)


def test_log_poisson_loss_values_full_and_gradient():
    z, c = np.array([0.0, 1.0, 3.0]), np.array([0.5, -1.0, 2.0])
    np.testing.assert_allclose(tf.nn.log_poisson_loss(z, c).numpy(), np.exp(c) - c * z)
    stirling = z * np.log(np.where(z > 0, z, 1)) - z + 0.5 * np.log(2 * np.pi * np.maximum(z, 1))
    full = tf.nn.log_poisson_loss(z, c, compute_full_loss=True).numpy()
    np.testing.assert_allclose(full, np.exp(c) - c * z + np.where(z > 1, stirling, 0))
    check_grads(lambda t, v: tf.nn.log_poisson_loss(t, v, compute_full_loss=True),
                [2.0, 3.0], [0.1, -0.4])
    with pytest.raises(ValueError, match=r"must have the same shape, received \(\(3,\) vs "
                                         r"\(2,\)\)"):
        tf.nn.log_poisson_loss([0.0, 1.0], c)


# --- local_response_normalization -----------------------------------------------------------------
def _lrn_numpy(x, r, bias, alpha, beta):
    padded = np.pad(x ** 2, [(0, 0)] * 3 + [(r, r)])
    sqr_sum = sum(padded[..., i:i + x.shape[-1]] for i in range(2 * r + 1))
    return x / (bias + alpha * sqr_sum) ** beta


def test_lrn_matches_the_formula():
    x = arrays((2, 2, 1, 7), seed=7).astype(np.float32)
    for r, bias, alpha, beta in [(5, 1.0, 1.0, 0.5), (1, 2.0, 0.3, 0.75), (0, 1.0, 1.0, 1.0)]:
        out = tf.nn.local_response_normalization(x, r, bias, alpha, beta)
        assert out.dtype == tf.float32
        np.testing.assert_allclose(out.numpy(), _lrn_numpy(x, r, bias, alpha, beta), rtol=1e-5)
    assert tf.nn.lrn is tf.nn.local_response_normalization
    assert tf.nn.lrn(tf.ones([1, 1, 1, 3], tf.float16)).dtype == tf.float16


def test_lrn_gradient_first_and_second_order():
    check_grads(lambda v: _lrn(v, 1, 1.0, 0.5, 0.75), arrays((1, 2, 1, 4), seed=8), order=2)


@pytest.mark.parametrize("x, message", [
    (tf.ones([1, 2, 3]), "in must be 4-dimensional"),
    (tf.ones([1, 1, 1, 3], tf.float64), "Value for attr 'T' of double is not in the list"),
    (tf.ones([1, 1, 1, 3], tf.int32), "Value for attr 'T' of int32 is not in the list"),
])
def test_lrn_errors(x, message):
    with pytest.raises(tf.errors.InvalidArgumentError, match=message):
        tf.nn.lrn(x)


# --- in_top_k ------------------------------------------------------------------------------------
def test_in_top_k_counts_ties_in_favour():
    predictions = [[0.1, 0.5, 0.4], [0.3, 0.3, 0.3], [0.2, 0.2, 0.6]]
    out = tf.nn.in_top_k([2, 2, 1], predictions, 1)
    assert out.dtype == tf.bool and out.numpy().tolist() == [False, True, False]
    assert tf.nn.in_top_k([2, 2, 1], predictions, 2).numpy().tolist() == [True, True, True]
    assert tf.math.in_top_k is tf.nn.in_top_k
    with pytest.raises(ValueError, match="requested dtype float32 for Tensor with dtype float64"):
        tf.nn.in_top_k([0], tf.constant([[0.1, 0.5]], tf.float64), 1)
    assert tf.nn.in_top_k(tf.constant([0], tf.int64), [[0.1, 0.5]], 2).numpy().tolist() == [True]


def test_in_top_k_false_for_bad_targets_and_non_finite_rows():
    assert tf.nn.in_top_k([5, -1], [[0.1, 0.5], [0.1, 0.5]], 2).numpy().tolist() == [False] * 2
    assert tf.nn.in_top_k([1, 1], [[np.nan, 0.5], [np.inf, 0.5]], 2).numpy().tolist() == \
        [False, False]
    assert tf.nn.in_top_k([1], [[0.1, 0.5]], 0).numpy().tolist() == [False]


@pytest.mark.parametrize("targets, predictions, message", [
    ([0], [0.1, 0.5], "predictions must be 2-dimensional"),
    ([0, 1], [[0.1, 0.5]], "First dimension of predictions 1 must match length of targets 2"),
    (tf.constant([0.0]), [[0.1, 0.5]], "Value for attr 'T' of float is not in the list"),
])
def test_in_top_k_errors(targets, predictions, message):
    with pytest.raises(tf.errors.InvalidArgumentError, match=message):
        tf.nn.in_top_k(targets, predictions, 1)


def test_in_top_k_in_a_graph():
    fn = tf.function(lambda t, p: tf.nn.in_top_k(t, p, 1))
    assert fn(tf.constant([1]), tf.constant([[0.1, 0.5]])).numpy().tolist() == [True]


# --- approx_max_k, approx_min_k -----------------------------------------------------------------
def test_approx_top_k_is_exact_along_any_axis():
    x = arrays((3, 4, 5), seed=9).astype(np.float32)
    values, indices = tf.nn.approx_max_k(x, 2, reduction_dimension=1)
    assert values.shape == (3, 2, 5) and indices.dtype == tf.int32
    np.testing.assert_array_equal(indices.numpy(), np.argsort(-x, axis=1, kind="stable")[:, :2])
    np.testing.assert_array_equal(values.numpy(), -np.sort(-x, axis=1)[:, :2])
    values, indices = tf.nn.approx_min_k(x, 3)
    np.testing.assert_array_equal(indices.numpy(), np.argsort(x, axis=-1, kind="stable")[..., :3])
    np.testing.assert_array_equal(values.numpy(), np.sort(x, axis=-1)[..., :3])
    ties = tf.nn.approx_min_k(tf.constant([[1.0, 1.0, 5.0, 2.0]]), 2)
    assert ties.indices.numpy().tolist() == [[0, 1]]
    assert type(ties).__name__ == "ApproxTopK" and tf.math.approx_max_k is tf.nn.approx_max_k


def test_approx_top_k_gradient():
    check_grads(lambda v: _top_k_along(v, 2, 0, True).values, arrays((4, 3), seed=10))
    check_grads(lambda v: _top_k_along(v, 1, -1, False).values, arrays((4, 3), seed=11))


@pytest.mark.parametrize("operand, k, message", [
    (tf.constant([[1, 5]]), 1, "Value for attr 'T' of int32 is not in the list"),
    (tf.constant([[1.0, 5.0]]), -1, "Value for attr 'k' of -1 must be at least minimum 0"),
    (tf.constant([[1.0, 5.0]]), 3, "input must have at least k columns. Had 2, needed 3"),
])
def test_approx_top_k_errors(operand, k, message):
    with pytest.raises(tf.errors.InvalidArgumentError, match=message):
        tf.nn.approx_max_k(operand, k)
