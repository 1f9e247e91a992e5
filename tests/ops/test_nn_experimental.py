"""tf.nn.experimental.stateless_dropout and general_dropout (real-TF comparisons of
general_dropout with a fixed sampler: test_nn_real_tf.py)."""
import numpy as np
import pytest
from gradcheck import check_grads

import minitf as tf


def test_stateless_dropout_mask_is_the_seeded_uniform():
    x = tf.constant(np.arange(1.0, 13.0).reshape(3, 4), tf.float32)
    out = tf.nn.experimental.stateless_dropout(x, 0.25, seed=[5, 6]).numpy()
    keep = tf.random.stateless_uniform([3, 4], seed=[5, 6]).numpy() >= 0.25
    np.testing.assert_allclose(out, np.where(keep, x.numpy() / 0.75, 0.0), rtol=1e-6)
    again = tf.nn.experimental.stateless_dropout(x, 0.25, seed=[5, 6]).numpy()
    np.testing.assert_array_equal(out, again)
    other = tf.nn.experimental.stateless_dropout(tf.ones([50]), 0.5, seed=[7, 8]).numpy()
    assert 0 < (other == 0).sum() < 50
    rows = tf.nn.experimental.stateless_dropout(tf.ones([6, 3]), 0.5, seed=[1, 2],
                                                noise_shape=[6, 1]).numpy()
    assert (rows == rows[:, :1]).all()


def test_general_dropout_uses_the_sampler():
    ramp = lambda shape, dtype: tf.reshape(tf.cast(tf.range(np.prod(shape)), dtype) / 4.0, shape)
    out = tf.nn.experimental.general_dropout(tf.ones([4]), 0.5, ramp).numpy()
    assert out.tolist() == [0.0, 0.0, 2.0, 2.0]
    assert tf.nn.experimental.general_dropout(tf.ones([2]), 0.0, ramp).numpy().tolist() == [1, 1]
    scaled = tf.nn.experimental.general_dropout(tf.ones([4]), tf.constant(0.5), ramp)
    assert scaled.numpy().tolist() == [0.0, 0.0, 2.0, 2.0]
    check_grads(lambda v: tf.nn.experimental.general_dropout(v, 0.5, ramp), np.ones([4]))


@pytest.mark.parametrize("x, rate, message", [
    (tf.ones([2]), 1.0, r"`rate` must be a scalar tensor or a float in the range \[0, 1\)"),
    (tf.ones([2]), -0.1, r"`rate` must be a scalar tensor"),
    (tf.ones([2], tf.int32), 0.5, "`x.dtype` must be a floating point tensor"),
    (tf.ones([2]), tf.constant([0.5]), "must have rank 0"),
    (tf.ones([2]), [0.5], r"`rate` must be a scalar or scalar tensor. Received: rate=\[0.5\]"),
    (tf.ones([2]), None, "`rate` must be a scalar or scalar tensor. Received: rate=None"),
])
def test_experimental_dropout_errors(x, rate, message):
    with pytest.raises(ValueError, match=message):
        tf.nn.experimental.stateless_dropout(x, rate, seed=[1, 2])
