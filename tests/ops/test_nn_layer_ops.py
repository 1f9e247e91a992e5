"""tf.nn layer helpers: bias_add, dropout, moments, batch_normalization, normalize_moments."""
import numpy as np
import pytest
from gradcheck import check_grads
from hypothesis import given
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from strategies import arrays

import minitf as tf

rank_2_to_4 = hnp.array_shapes(min_dims=2, max_dims=4, min_side=1, max_side=3)
rank_1_to_3 = hnp.array_shapes(min_dims=1, max_dims=3, min_side=1, max_side=3)


# --- bias_add ----------------------------------------------------------------------------------
def test_bias_add_values_nhwc_and_nchw():
    value = arrays((2, 3, 4), seed=1)
    np.testing.assert_allclose(tf.nn.bias_add(value, np.arange(4.0)).numpy(),
                               value + np.arange(4.0))
    nchw = tf.nn.bias_add(value, np.arange(3.0), data_format="NCHW").numpy()
    np.testing.assert_allclose(nchw, value + np.arange(3.0)[:, None])
    np.testing.assert_allclose(tf.nn.bias_add(value, np.arange(3.0), data_format="NCW").numpy(),
                               nchw)


def test_bias_add_dtypes_and_python_bias():
    out = tf.nn.bias_add(tf.ones([2, 3], tf.int32), tf.ones([3], tf.int32))
    assert out.dtype == tf.int32 and out.numpy().tolist() == [[2, 2, 2]] * 2
    out = tf.nn.bias_add(tf.zeros([2, 2]), [1, 2])  # a Python bias takes value's dtype
    assert out.dtype == tf.float32 and out.numpy().tolist() == [[1.0, 2.0]] * 2


@pytest.mark.parametrize("data_format", ["NHWC", "NCHW"])
@given(shape=rank_2_to_4, seed=st.integers(0, 2**16))
def test_bias_add_gradients(data_format, shape, seed):
    channels = shape[1] if data_format == "NCHW" else shape[-1]
    check_grads(lambda v, b: tf.nn.bias_add(v, b, data_format=data_format),
                arrays(shape, seed=seed), arrays((channels,), seed=seed + 1))


def test_bias_add_gradient_sums_over_all_but_the_channel_axis():
    value, bias = tf.zeros([2, 3, 4]), tf.zeros([3])
    with tf.GradientTape() as tape:
        tape.watch(bias)
        y = tf.nn.bias_add(value, bias, data_format="NCHW")
    assert tape.gradient(y, bias).numpy().tolist() == [8.0, 8.0, 8.0]
    check_grads(tf.nn.bias_add, arrays((2, 3), seed=2), arrays((3,), seed=3), order=2)


@pytest.mark.parametrize("value, bias, data_format, cls, message", [
    ([[0.0] * 3] * 2, [0.0] * 4, None, tf.errors.InvalidArgumentError,
     r"Must provide as many biases as the last dimension of the input tensor: \[4\] vs\. \[2,3\]"),
    (np.zeros([2, 3, 4]), np.zeros([4]), "NCHW", tf.errors.InvalidArgumentError,
     r"Must provide as many biases as the last dimension of the input tensor: \[4\] vs\. "
     r"\[2,3,4\]"),
    ([[0.0] * 3] * 2, [[0.0] * 3], None, tf.errors.InvalidArgumentError,
     r"Biases must be 1D: \[1,3\]"),
    ([0.0] * 3, [0.0] * 3, None, tf.errors.InvalidArgumentError,
     r"Input tensor must be at least 2D: \[3\]"),
    ([[0.0] * 3] * 2, [0.0], None, tf.errors.InvalidArgumentError,
     r"Must provide as many biases .*: \[1\] vs\. \[2,3\]"),
    ([[0.0] * 3] * 2, [0.0] * 3, "CHW", ValueError,
     r"`data_format` must be of the form `N...C` or `NC...`. Received: data_format=CHW"),
])
def test_bias_add_errors(value, bias, data_format, cls, message):
    with pytest.raises(cls, match=message):
        tf.nn.bias_add(value, bias, data_format=data_format)


def test_bias_add_rejects_mixed_dtypes():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"input #1\(zero-based\) was expected to be a float tensor but is "
                             r"a double tensor \[Op:BiasAdd\]"):
        tf.nn.bias_add(tf.zeros([2, 3]), tf.zeros([3], tf.float64))


# --- dropout -----------------------------------------------------------------------------------
def test_dropout_zeroes_about_rate_and_scales_the_rest():
    x = tf.ones([100, 100])
    y = tf.nn.dropout(x, rate=0.3, seed=5).numpy()
    assert set(np.unique(y).tolist()) == {0.0, np.float32(1 / 0.7)}
    assert abs((y == 0).mean() - 0.3) < 0.03
    assert y.dtype == np.float32


def test_dropout_follows_tf_seed_semantics():
    x = tf.ones([50])

    def program():
        tf.random.set_seed(42)
        return tf.nn.dropout(x, 0.5, seed=1).numpy(), tf.nn.dropout(x, 0.5, seed=1).numpy()

    first, second = program()
    assert not np.array_equal(first, second)  # the same op seed advances, as in TF
    again = program()
    np.testing.assert_array_equal(first, again[0])  # re-seeding replays the masks
    np.testing.assert_array_equal(second, again[1])


def test_dropout_rate_zero_returns_the_input():
    x = tf.constant([1.0, 2.0])
    assert tf.nn.dropout(x, rate=0) is x


def test_dropout_noise_shape_shares_decisions():
    y = tf.nn.dropout(tf.ones([4, 6]), rate=0.5, noise_shape=[4, 1], seed=3).numpy()
    assert all(len(set(row.tolist())) == 1 for row in y)  # whole rows kept or dropped
    y = tf.nn.dropout(tf.ones([4, 6]), rate=0.5, noise_shape=[None, 1], seed=3).numpy()
    assert all(len(set(row.tolist())) == 1 for row in y)
    y = tf.nn.dropout(tf.ones([3, 4]), rate=0.5, noise_shape=[4], seed=3).numpy()
    assert all(len(set(col.tolist())) == 1 for col in y.T)  # broadcast over rows


def test_dropout_with_a_tensor_rate():
    y = tf.nn.dropout(tf.ones([1000], tf.float64), rate=tf.constant(0.25), seed=4).numpy()
    assert set(np.unique(y).tolist()) == {0.0, 1 / 0.75}


def test_dropout_mask_is_uniform_at_least_rate():
    tf.random.set_seed(3)
    expected = tf.random.uniform([40], seed=9) >= 0.4
    tf.random.set_seed(3)
    y = tf.nn.dropout(tf.ones([40]), 0.4, seed=9)
    np.testing.assert_array_equal(y.numpy() != 0, expected.numpy())


def test_dropout_gradient_is_mask_times_scale():
    x = tf.constant(arrays((5, 4), 1.0, 2.0, seed=6))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.dropout(x, rate=0.4, seed=7)
    expected = (y.numpy() != 0) / 0.6
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), expected, rtol=1e-12)

    def replayed_dropout(v):  # re-seeding replays the same mask on every evaluation
        tf.random.set_seed(0)
        return tf.nn.dropout(v, rate=0.4, seed=7)

    check_grads(replayed_dropout, x.numpy(), order=2)


@pytest.mark.parametrize("rate", [1.5, 1, -0.1])
def test_dropout_rate_must_be_in_0_1(rate):
    with pytest.raises(ValueError, match=rf"`rate` must be a scalar tensor or a float in the "
                                         rf"range \[0, 1\)\. Received: rate={rate}"):
        tf.nn.dropout(tf.ones([3]), rate=rate)


def test_dropout_needs_floats():
    with pytest.raises(ValueError, match=r"`x.dtype` must be a floating point tensor as `x` "
                                         r"will be scaled. Received: x_dtype=<dtype: 'int32'>"):
        tf.nn.dropout(tf.ones([3], tf.int32), rate=0.5)


# --- moments -----------------------------------------------------------------------------------
@given(shape=rank_1_to_3, seed=st.integers(0, 2**16), data=st.data())
def test_moments_values_and_gradients(shape, seed, data):
    axes = data.draw(st.lists(st.integers(0, len(shape) - 1), min_size=1, unique=True))
    keepdims = data.draw(st.booleans())
    x = arrays(shape, seed=seed)
    mean, variance = tf.nn.moments(tf.constant(x), axes=axes, keepdims=keepdims)
    np.testing.assert_allclose(mean.numpy(), x.mean(axis=tuple(axes), keepdims=keepdims),
                               rtol=1e-12, atol=1e-15)
    np.testing.assert_allclose(variance.numpy(), x.var(axis=tuple(axes), keepdims=keepdims),
                               rtol=1e-10, atol=1e-15)
    check_grads(lambda v: tf.nn.moments(v, axes, keepdims=keepdims)[0], x)
    check_grads(lambda v: tf.nn.moments(v, axes, keepdims=keepdims)[1], x)


def test_moments_second_order():
    x = arrays((3, 2), seed=8)
    check_grads(lambda v: tf.nn.moments(v, [0])[1], x, order=2)
    check_grads(lambda v: tf.nn.moments(v, [0, 1])[0], x, order=2)


def test_moments_dtypes_int_axis_and_bad_axis():
    x = [[1.0, 2.0], [3.0, 5.0]]
    mean, variance = tf.nn.moments(tf.constant(x), axes=1)
    assert mean.numpy().tolist() == [1.5, 4.0] and variance.numpy().tolist() == [0.25, 1.0]
    mean, variance = tf.nn.moments(tf.constant(x, tf.float16), axes=[1])
    assert mean.dtype == tf.float16 and variance.dtype == tf.float16
    mean, variance = tf.nn.moments(tf.constant([[1, 2], [3, 5]]), axes=[0])  # integer, as TF
    assert mean.dtype == tf.int32 and variance.numpy().tolist() == [1, 2]
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Invalid reduction dimension \(2 for input with 2 dimension\(s\)"):
        tf.nn.moments(tf.constant(x), axes=[2])


# --- batch_normalization, normalize_moments ----------------------------------------------------
def test_batch_normalization_values():
    x = arrays((4, 3), seed=9)
    mean, var = x.mean(0), x.var(0)
    offset, scale = arrays((3,), seed=10), arrays((3,), 0.5, 2.0, seed=11)
    out = tf.nn.batch_normalization(x, mean, var, offset, scale, 1e-3).numpy()
    np.testing.assert_allclose(out, scale * (x - mean) / np.sqrt(var + 1e-3) + offset, rtol=1e-12)
    bare = tf.nn.batch_normalization(tf.constant([[1.0, 2.0], [3.0, 5.0]]), 1.0, 4.0, None, None,
                                     1e-3)
    np.testing.assert_allclose(bare.numpy(), (np.array([[1, 2], [3, 5]]) - 1) / np.sqrt(4.001),
                               rtol=1e-6)
    assert bare.dtype == tf.float32


def test_batch_normalization_gradients_for_all_inputs():
    x = arrays((4, 3), seed=12)
    stats = [arrays((3,), seed=13), arrays((3,), 0.5, 2.0, seed=14), arrays((3,), seed=15),
             arrays((3,), 0.5, 2.0, seed=16)]

    def bn(v, mean, var, offset, scale):
        return tf.nn.batch_normalization(v, mean, var, offset, scale, 1e-3)

    check_grads(bn, x, *stats)
    check_grads(bn, arrays((2, 2), seed=17), *[s[:2] for s in stats], order=2)


def test_normalize_moments():
    x = arrays((6, 2), seed=18)
    shift = 0.5
    count = tf.constant(6.0, tf.float64)
    mean, var = tf.nn.normalize_moments(count, tf.constant((x - shift).sum(0)),
                                        tf.constant(((x - shift) ** 2).sum(0)), shift)
    np.testing.assert_allclose(mean.numpy(), x.mean(0), rtol=1e-12)
    np.testing.assert_allclose(var.numpy(), x.var(0), rtol=1e-10)
    mean, var = tf.nn.normalize_moments(tf.constant(4.0), tf.constant([4.0, 8.0]),
                                        tf.constant([10.0, 20.0]), None)
    assert mean.numpy().tolist() == [1.0, 2.0] and var.numpy().tolist() == [1.5, 1.0]
    check_grads(lambda m, v: tf.nn.normalize_moments(tf.constant(4.0, tf.float64), m, v, None)[1],
                np.array([4.0, 8.0]), np.array([10.0, 20.0]), order=2)
