"""tf.nn.fractional_max_pool / fractional_avg_pool: sequences, pooling, seeds, gradients,
errors (pooling over real TF's sequences: test_nn_real_tf.py)."""
import numpy as np
import pytest
from gradcheck import check_grads

import minitf as tf
from minitf.ops.nn_fractional_pool_ops import pooling_sequence

X = np.random.default_rng(6).normal(size=(2, 7, 9, 3)).astype(np.float32)


@pytest.mark.parametrize("pseudo_random", [False, True])
def test_pooling_sequences_cut_k_or_k_plus_one(pseudo_random):
    rng = np.random.default_rng(0)
    for size, out in [(7, 4), (9, 6), (10, 3), (8, 4), (25, 17)]:
        seq = pooling_sequence(size, out, rng, pseudo_random)
        k = size // out
        assert seq[0] == 0 and seq[-1] == size and len(seq) == out + 1
        assert set(np.diff(seq)) <= {k, k + 1}


@pytest.mark.parametrize("overlapping", [False, True])
def test_fractional_pools_reduce_each_window(overlapping):
    out, rows, cols = tf.nn.fractional_max_pool(X, [1.0, 1.6, 1.4, 1.0],
                                                overlapping=overlapping, seed=3)
    avg, rows2, cols2 = tf.nn.fractional_avg_pool(X, [1.0, 1.6, 1.4, 1.0],
                                                  overlapping=overlapping, seed=3)
    assert out.shape == avg.shape == (2, 4, 6, 3) and rows.dtype == tf.int64
    assert rows.numpy().tolist() == rows2.numpy().tolist()   # one seed, one sequence
    r, c = rows.numpy(), cols.numpy()
    extra = 1 if overlapping else 0
    for i in range(4):
        for j in range(6):
            window = X[:, r[i]:min(r[i + 1] + extra, 7), c[j]:min(c[j + 1] + extra, 9)]
            np.testing.assert_array_equal(out.numpy()[:, i, j], window.max(axis=(1, 2)))
            np.testing.assert_allclose(avg.numpy()[:, i, j], window.mean(axis=(1, 2)),
                                       rtol=1e-5)


def test_fractional_pool_seeds_and_result_types():
    first = tf.nn.fractional_max_pool(X, [1.0, 1.5, 1.5, 1.0], seed=11)
    again = tf.nn.fractional_max_pool(X, [1.0, 1.5, 1.5, 1.0], seed=11)
    assert type(first).__name__ == "FractionalMaxPool"
    assert (first.row_pooling_sequence.numpy().tolist() ==
            again.row_pooling_sequence.numpy().tolist())
    assert type(tf.nn.fractional_avg_pool(X, [1.0, 2.0, 2.0, 1.0])).__name__ == "FractionalAvgPool"
    plain = tf.nn.fractional_max_pool(X[:, :4, :4], 2.0).output.numpy()
    np.testing.assert_array_equal(plain, X[:, :4, :4].reshape(2, 2, 2, 2, 2, 3).max(axis=(2, 4)))
    ints = tf.nn.fractional_avg_pool(tf.constant([[[[0], [3]], [[12], [16]]]]),
                                     [1.0, 2.0, 2.0, 1.0])
    assert ints.output.dtype == tf.int32 and ints.output.numpy().ravel().tolist() == [7]


def test_fractional_pool_gradients():
    x = np.random.default_rng(7).normal(size=(1, 5, 5, 2))
    for fn in (tf.nn.fractional_max_pool, tf.nn.fractional_avg_pool):
        for overlapping in (False, True):
            check_grads(lambda v: fn(v, [1.0, 1.5, 1.3, 1.0], overlapping=overlapping,
                                     seed=2)[0], x)


@pytest.mark.parametrize("fn, ratio, cls, message", [
    (tf.nn.fractional_max_pool, [2.0, 1.5, 1.5, 1.0], ValueError,
     "`pooling_ratio` should have first and last elements with value 1.0"),
    (tf.nn.fractional_max_pool, [1.0, 0.5, 1.5, 1.0], ValueError,
     "`pooling_ratio` elements should be >= 1.0"),
    (tf.nn.fractional_max_pool, "a", ValueError, "`pooling_ratio` should be an int or a list"),
    (tf.nn.fractional_max_pool, [1.0, 8.0, 1.5, 1.0], tf.errors.InvalidArgumentError,
     "Pooling ratio is higher than input dimension size for dimension 1. Input dim size: 7 "
     "pooling ratio: 8"),
    (tf.nn.fractional_avg_pool, 2.0, TypeError, "Expected list for 'pooling_ratio'"),
    (tf.nn.fractional_avg_pool, [1.0, 0.5, 2.0, 1.0], tf.errors.InvalidArgumentError,
     "pooling_ratio cannot be smaller than 1, got: 0.5"),
    (tf.nn.fractional_avg_pool, [2.0, 2.0, 2.0, 1.0], tf.errors.UnimplementedError,
     "not yet supported on the batch nor channel dimension"),
])
def test_fractional_pool_errors(fn, ratio, cls, message):
    with pytest.raises(cls, match=message):
        fn(X, ratio)
    with pytest.raises(tf.errors.InvalidArgumentError, match="not in the list of allowed"):
        tf.nn.fractional_max_pool(tf.cast(X, tf.float16), 1.5)
