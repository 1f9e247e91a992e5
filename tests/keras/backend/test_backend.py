"""`tf.keras.backend` without real TF: hand-derived values, variables, global settings restored."""
import numpy as np
import pytest

import minitf as tf

K = tf.keras.backend


def test_elementwise_and_reductions_by_hand():
    x = tf.constant([[1.0, -2.0], [3.0, 4.0]])
    assert K.sqrt(tf.constant([-4.0, 9.0])).numpy().tolist() == [0.0, 3.0]
    assert K.clip(x, 2.0, 0.0).numpy().tolist() == [[2.0, 2.0], [2.0, 2.0]]
    assert K.clip(x, None, 0.0).numpy().tolist() == [[0.0, -2.0], [0.0, 0.0]]
    assert K.argmax(x).numpy().tolist() == [0, 1] and K.argmax(x).dtype == tf.int64
    assert K.sum(x, 1).numpy().tolist() == [-1.0, 7.0]
    assert K.prod(x, 0, True).numpy().tolist() == [[3.0, -8.0]]
    assert K.all(tf.constant([[1, 0], [2, 3]]), axis=1).numpy().tolist() == [False, True]
    assert K.cumprod(x, axis=1).numpy().tolist() == [[1.0, -2.0], [3.0, 12.0]]


def test_bool_statistics_are_in_floatx():
    b = tf.constant([True, False, True, True])
    assert K.mean(b).dtype == tf.float32 and K.mean(b).numpy() == 0.75
    np.testing.assert_allclose(K.var(b).numpy(), 0.1875)
    np.testing.assert_allclose(K.std(b).numpy(), 0.1875 ** 0.5, rtol=1e-6)
    old = K.floatx()
    try:
        K.set_floatx("float64")
        assert K.mean(b).dtype == tf.float64
    finally:
        K.set_floatx(old)
    assert K.floatx() == old


def test_sqrt_gradient_is_zero_below_zero():
    x = tf.Variable([-1.0, 4.0])
    with tf.GradientTape() as tape:
        y = K.sum(K.sqrt(x))
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), [0.0, 0.25])
