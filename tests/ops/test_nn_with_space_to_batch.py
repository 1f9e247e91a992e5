"""tf.nn.with_space_to_batch (real-TF comparisons: test_nn_real_tf.py)."""
import numpy as np
import pytest
from gradcheck import check_grads

import minitf as tf

X = np.random.default_rng(0).normal(size=(2, 9, 8, 3)).astype(np.float32)
F = np.random.default_rng(1).normal(size=(3, 2, 3, 4)).astype(np.float32)


def _conv(filters):
    return lambda inp, num_spatial_dims, padding: tf.nn.convolution(inp, filters,
                                                                    padding=padding)


@pytest.mark.parametrize("padding", ["SAME", "VALID"])
def test_space_to_batch_convolution_is_the_dilated_convolution(padding):
    out = tf.nn.with_space_to_batch(X, [2, 3], padding, _conv(F), filter_shape=[3, 2])
    want = tf.nn.convolution(X, F, padding=padding, dilations=[2, 3])
    assert out.shape == want.shape
    np.testing.assert_allclose(out.numpy(), want.numpy(), rtol=1e-5, atol=1e-6)


def test_rate_one_calls_the_op_directly_and_spatial_dims_can_move():
    seen = []
    out = tf.nn.with_space_to_batch(X, [1, 1], "SAME", lambda i, n, p: seen.append((n, p)) or i)
    assert seen == [(2, "SAME")] and out.shape == X.shape
    channels_first = np.transpose(X, [0, 3, 1, 2])
    pool = lambda inp, n, padding: tf.transpose(tf.nn.max_pool2d(
        tf.transpose(inp, [0, 2, 3, 1]), 2, 1, padding), [0, 3, 1, 2])
    out = tf.nn.with_space_to_batch(channels_first, [2, 2], "VALID", pool, data_format="NCHW")
    want = tf.nn.pool(X, [2, 2], "MAX", padding="VALID", dilations=[2, 2])
    np.testing.assert_allclose(out.numpy(), np.transpose(want.numpy(), [0, 3, 1, 2]))


def test_with_space_to_batch_gradient_and_errors():
    f = np.random.default_rng(2).normal(size=(2, 2, 3, 2))
    check_grads(lambda x: tf.nn.with_space_to_batch(x, [2, 2], "SAME", _conv(f), [2, 2]),
                np.random.default_rng(3).normal(size=(1, 5, 4, 3)))
    with pytest.raises(ValueError, match="`filter_shape` must be specified for `padding='SAME'`"):
        tf.nn.with_space_to_batch(X, [2, 2], "SAME", _conv(F))
    with pytest.raises(ValueError, match="Invalid padding method 'FULL'"):
        tf.nn.with_space_to_batch(X, [2, 2], "FULL", _conv(F))
