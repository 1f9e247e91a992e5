"""constant, zeros/ones(_like), fill, range, linspace, eye, identity, add_n, stop_gradient."""
import numpy as np
import pytest
from gradcheck import check_grads

import minitf as tf


def test_constant_with_shape_reshapes_or_fills():
    assert tf.constant([1, 2, 3, 4], shape=[2, 2]).numpy().tolist() == [[1, 2], [3, 4]]
    filled = tf.constant(0.5, shape=[2, 3])
    assert filled.shape == (2, 3) and filled.dtype == tf.float32
    assert filled.numpy().tolist() == [[0.5] * 3] * 2
    with pytest.raises(TypeError, match="has 2 elements, but got `shape`"):
        tf.constant([1, 2], shape=[3])


def test_constant_of_a_tensor_checks_dtype():
    assert tf.constant(tf.constant(1)).dtype == tf.int32
    with pytest.raises(TypeError, match="Expected tensor 1 with dtype tf.float32"):
        tf.constant(tf.constant(1), dtype=tf.float32)


def test_zeros_ones_and_likes():
    assert tf.zeros([2]).dtype == tf.float32 and tf.zeros([2]).numpy().tolist() == [0.0, 0.0]
    assert tf.ones([2], tf.int32).numpy().tolist() == [1, 1]
    assert tf.ones([2, 0]).shape == (2, 0)
    assert tf.zeros_like(tf.constant([1, 2])).dtype == tf.int32
    assert tf.zeros_like([1.0, 2.0], dtype=tf.int32).numpy().tolist() == [0, 0]
    assert tf.ones_like(tf.constant([[1.5]])).numpy().tolist() == [[1.0]]
    with pytest.raises(tf.errors.InvalidArgumentError, match="Dimension -1 must be >= 0"):
        tf.zeros([-1])


def test_fill_takes_the_value_dtype():
    out = tf.fill([2, 2], 3)
    assert out.dtype == tf.int32 and out.numpy().tolist() == [[3, 3], [3, 3]]
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"value must represent a scalar, got shape \[2\]"):
        tf.fill([2], [1, 2])


@pytest.mark.parametrize("args, kwargs, expected, dtype", [
    ((5,), {}, [0, 1, 2, 3, 4], tf.int32),
    ((1.0, 5), {}, [1.0, 2.0, 3.0, 4.0], tf.float32),
    ((5, 0, -2), {}, [5, 3, 1], tf.int32),
    ((3,), {"dtype": tf.float64}, [0.0, 1.0, 2.0], tf.float64),
    ((0, 5, 0.5), {}, [0.0, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 3.5, 4.0, 4.5], tf.float32),
])
def test_range(args, kwargs, expected, dtype):
    out = tf.range(*args, **kwargs)
    assert out.dtype == dtype
    np.testing.assert_allclose(out.numpy(), expected)


def test_range_accumulates_in_its_dtype_like_tf():
    # TF adds delta repeatedly in float32, so the last value is 0.90000004.
    assert tf.range(0.0, 1.0, 0.3).numpy()[-1] == np.float32(0.3) * 3


@pytest.mark.parametrize("args, message", [
    ((5, 1), "Requires start <= limit when delta > 0: 5/1"),
    ((0, 5, 0), "Requires delta != 0: 0"),
    ((0, 5, -1), "Requires start >= limit when delta < 0: 0/5"),
])
def test_range_errors(args, message):
    with pytest.raises(tf.errors.InvalidArgumentError, match=message):
        tf.range(*args)


def test_linspace():
    out = tf.linspace(0.0, 1.0, 5)
    assert out.dtype == tf.float32 and out.numpy().tolist() == [0.0, 0.25, 0.5, 0.75, 1.0]
    assert tf.linspace(0, 1, 5).dtype == tf.float64
    assert tf.linspace(0.0, 1.0, 1).numpy().tolist() == [0.0]
    assert tf.linspace([0.0, 1.0], [1.0, 2.0], 3).numpy().tolist() == [[0.0, 1.0], [0.5, 1.5],
                                                                        [1.0, 2.0]]


def test_eye():
    assert tf.eye(2, 3).numpy().tolist() == [[1, 0, 0], [0, 1, 0]]
    assert tf.eye(2, batch_shape=[3]).shape == (3, 2, 2)
    assert tf.eye(2, dtype=tf.int32).dtype == tf.int32


def test_identity_and_its_gradient():
    assert tf.identity([1, 2]).numpy().tolist() == [1, 2]
    check_grads(lambda x: tf.identity(x) * x, np.array([1.0, 2.0]), order=2)


def test_add_n_and_its_gradient():
    a, b = tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0])
    assert tf.add_n([a, b, a]).numpy().tolist() == [5.0, 8.0]
    check_grads(lambda x, y: tf.add_n([x, y, x * y]), np.array([1.0, 2.0]), np.array([0.5, 3.0]),
                order=2)
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Input 0: \[2\] != input 1: \[3\]"):
        tf.add_n([tf.ones([2]), tf.ones([3])])
    with pytest.raises(ValueError, match="at least one Tensor"):
        tf.add_n([])


def test_stop_gradient_value_is_unchanged():
    x = tf.constant([1.0, -2.0])
    assert tf.stop_gradient(x).numpy().tolist() == [1.0, -2.0]
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.stop_gradient(x * x)
    assert tape.gradient(y, x) is None
