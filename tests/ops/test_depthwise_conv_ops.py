"""Depthwise and separable convolutions against loop references; shapes and messages as in
TensorFlow 2.21."""
import numpy as np
import pytest
from gradcheck import check_grads
from strategies import arrays

import minitf as tf


def same_pads(size, k, s, d):
    total = max((-(-size // s) - 1) * s + (k - 1) * d + 1 - size, 0)
    return total // 2, total - total // 2


def ref_depthwise(x, f, strides, padding, rates):
    """out[n, i, j, c*M + m] = sum_{a, b} x_pad[n, i*s + a*d, j*s + b*d, c] * f[a, b, c, m]."""
    n_, h, w, c_ = x.shape
    kh, kw, _, m_ = f.shape
    if padding == "SAME":
        pads = [same_pads(h, kh, strides[0], rates[0]), same_pads(w, kw, strides[1], rates[1])]
    elif padding == "VALID":
        pads = [(0, 0), (0, 0)]
    else:
        pads = padding[1:3]
    xp = np.pad(x, [(0, 0), tuple(pads[0]), tuple(pads[1]), (0, 0)])
    oh = (xp.shape[1] - (kh - 1) * rates[0] - 1) // strides[0] + 1
    ow = (xp.shape[2] - (kw - 1) * rates[1] - 1) // strides[1] + 1
    out = np.zeros([n_, oh, ow, c_ * m_])
    for n in range(n_):
        for i in range(oh):
            for j in range(ow):
                for c in range(c_):
                    for m in range(m_):
                        for a in range(kh):
                            for b in range(kw):
                                out[n, i, j, c * m_ + m] += xp[
                                    n, i * strides[0] + a * rates[0],
                                    j * strides[1] + b * rates[1], c] * f[a, b, c, m]
    return out


CASES = [
    # x, filter, strides, padding, dilations
    ((2, 7, 6, 3), (3, 2, 3, 2), [1, 1, 1, 1], "SAME", None),
    ((2, 7, 6, 3), (3, 2, 3, 2), [1, 2, 2, 1], "VALID", None),
    ((1, 7, 6, 2), (3, 2, 2, 1), [1, 1, 1, 1], "SAME", [2, 1]),
    ((1, 7, 6, 2), (3, 3, 2, 3), [1, 1, 1, 1], "VALID", [2, 2]),
    ((2, 7, 6, 3), (3, 2, 3, 2), [1, 2, 2, 1], [[0, 0], [1, 2], [0, 1], [0, 0]], None),
    ((1, 5, 5, 2), (1, 1, 2, 2), [1, 2, 2, 1], "SAME", None),
]


@pytest.mark.parametrize("xs, fs, strides, padding, dilations", CASES)
def test_depthwise_conv2d_matches_reference(xs, fs, strides, padding, dilations):
    x, f = arrays(xs, seed=1), arrays(fs, seed=2)
    got = tf.nn.depthwise_conv2d(x, f, strides, padding, dilations=dilations)
    expected = ref_depthwise(x, f, strides[1:3], padding, dilations or [1, 1])
    np.testing.assert_allclose(got.numpy(), expected, atol=1e-10)


def test_depthwise_shapes_and_dtypes_match_tensorflow():
    x, f = tf.zeros([2, 7, 7, 3]), tf.zeros([3, 3, 3, 2])
    assert tf.nn.depthwise_conv2d(x, f, [1, 1, 1, 1], "SAME").shape == (2, 7, 7, 6)
    assert tf.nn.depthwise_conv2d(x, f, [1, 2, 2, 1], "VALID").shape == (2, 3, 3, 6)
    explicit = [[0, 0], [1, 1], [2, 0], [0, 0]]
    assert tf.nn.depthwise_conv2d(x, f, [1, 1, 1, 1], explicit).shape == (2, 7, 7, 6)
    x64 = tf.zeros([2, 7, 7, 3], tf.float64)
    out = tf.nn.depthwise_conv2d(x64, tf.zeros([3, 3, 3, 2], tf.float64), [1, 1, 1, 1], "SAME")
    assert out.dtype == tf.float64


def test_separable_conv2d_is_depthwise_then_pointwise():
    x, dw, pw = arrays((2, 6, 5, 3), seed=3), arrays((3, 3, 3, 2), seed=4), arrays((1, 1, 6, 4))
    got = tf.nn.separable_conv2d(x, dw, pw, [1, 2, 2, 1], "SAME")
    depthwise = ref_depthwise(x, dw, [2, 2], "SAME", [1, 1])
    np.testing.assert_allclose(got.numpy(), depthwise @ pw[0, 0], atol=1e-10)
    assert tf.nn.separable_conv2d(tf.zeros([2, 7, 7, 3]), tf.zeros([3, 3, 3, 2]),
                                  tf.zeros([1, 1, 6, 5]), [1, 1, 1, 1], "SAME",
                                  dilations=[2, 2]).shape == (2, 7, 7, 5)


def test_depthwise_backprop_wrappers_are_the_gradients():
    x, f = arrays((1, 5, 4, 2), seed=5), arrays((3, 3, 2, 2), seed=6)
    dy = arrays((1, 3, 2, 4), seed=7)
    xt, ft = tf.constant(x), tf.constant(f)
    with tf.GradientTape() as tape:
        tape.watch([xt, ft])
        y = tf.nn.depthwise_conv2d(xt, ft, [1, 2, 2, 1], "SAME")
    dx, df = tape.gradient(y, [xt, ft], output_gradients=tf.constant(dy))
    bi = tf.nn.depthwise_conv2d_backprop_input([1, 5, 4, 2], f, dy, [1, 2, 2, 1], "SAME")
    bf = tf.nn.depthwise_conv2d_backprop_filter(x, [3, 3, 2, 2], dy, [1, 2, 2, 1], "SAME")
    np.testing.assert_allclose(bi.numpy(), dx.numpy())
    np.testing.assert_allclose(bf.numpy(), df.numpy())
    # Values verified with TensorFlow 2.21: ones everywhere, stride 2, SAME.
    ones_f = tf.nn.depthwise_conv2d_backprop_filter(np.ones((2, 7, 6, 3)), [3, 3, 3, 2],
                                                    np.ones((2, 4, 3, 6)), [1, 2, 2, 1], "SAME")
    ones_x = tf.nn.depthwise_conv2d_backprop_input([2, 7, 6, 3], np.ones((3, 3, 3, 2)),
                                                   np.ones((2, 4, 3, 6)), [1, 2, 2, 1], "SAME")
    np.testing.assert_array_equal(ones_f.numpy()[0, 0], np.full([3, 2], 18.0))
    np.testing.assert_array_equal(ones_x.numpy()[0, 0, :2], np.full([2, 3], 2.0))


@pytest.mark.parametrize("strides, padding, dilations", [
    ([1, 1, 1, 1], "SAME", None), ([1, 2, 2, 1], "VALID", None), ([1, 1, 1, 1], "SAME", [2, 1])])
def test_depthwise_gradients(strides, padding, dilations):
    check_grads(lambda x, f: tf.nn.depthwise_conv2d(x, f, strides, padding, dilations=dilations),
                arrays((1, 4, 4, 2), seed=8), arrays((2, 2, 2, 2), seed=9))


def test_depthwise_second_order_and_backprop_op_gradients():
    check_grads(lambda x, f: tf.nn.depthwise_conv2d(x, f, [1, 2, 2, 1], "SAME") ** 2,
                arrays((1, 3, 4, 2), seed=10), arrays((2, 2, 2, 1), seed=11), order=2)
    check_grads(lambda f, dy: tf.nn.depthwise_conv2d_backprop_input(
        [1, 3, 3, 2], f, dy, [1, 1, 1, 1], "SAME"), arrays((2, 2, 2, 2)), arrays((1, 3, 3, 4)))
    check_grads(lambda x, dy: tf.nn.depthwise_conv2d_backprop_filter(
        x, [2, 2, 2, 2], dy, [1, 1, 1, 1], "VALID"), arrays((1, 3, 3, 2)), arrays((1, 2, 2, 4)))


def test_separable_gradients():
    check_grads(lambda x, d, p: tf.nn.separable_conv2d(x, d, p, [1, 1, 1, 1], "VALID"),
                arrays((1, 3, 3, 2), seed=12), arrays((2, 2, 2, 1), seed=13),
                arrays((1, 1, 2, 2), seed=14))


def dw(xs, fs, strides=(1, 1, 1, 1), padding="SAME", **kw):
    return lambda: tf.nn.depthwise_conv2d(tf.zeros(xs), tf.zeros(fs), strides, padding, **kw)


ERRORS = [
    (dw([2, 7, 7, 3], [3, 3, 4, 2]), tf.errors.InvalidArgumentError,
     r"input and filter must have the same depth: 3 vs 4 \[Op:DepthwiseConv2dNative\]"),
    (dw([7, 7, 3], [3, 3, 3, 2]), tf.errors.InvalidArgumentError,
     r"input must be 4-dimensional\[7,7,3\]"),
    (dw([2, 7, 7, 3], [3, 3, 3]), tf.errors.InvalidArgumentError,
     r"filter must be 4-dimensional: \[3,3,3\]"),
    (dw([2, 7, 7, 3], [3, 3, 3, 2], strides=[1, 2, 1, 1]), tf.errors.InvalidArgumentError,
     r"only supports equal length strides in the row and column dimensions"),
    (dw([2, 7, 7, 3], [3, 3, 3, 2], strides=1), TypeError,
     r"Expected list for 'strides' argument to 'depthwise_conv2d_native' Op, not 1"),
    (dw([2, 7, 7, 3], [3, 3, 3, 2], strides=[2, 2]), tf.errors.InvalidArgumentError,
     r"Sliding window strides field must specify 4 dimensions"),
    (dw([2, 7, 7, 3], [3, 3, 3, 2], strides=[1, 0, 0, 1]), tf.errors.InvalidArgumentError,
     r"Stride must be > 0, but got 0"),
    (dw([2, 7, 7, 3], [3, 3, 3, 2], padding="FOO"), tf.errors.InvalidArgumentError,
     r"""Value for attr 'padding' of "FOO" is not in the list of allowed values"""),
    (dw([2, 7, 7, 3], [3, 3, 3, 2], dilations=[0, 0]), ValueError,
     r"`dilation_rate` must be positive. Received: dilation_rate=\[0 0\]"),
    (dw([2, 7, 7, 3], [3, 3, 3, 2], strides=[1, 2, 2, 1], dilations=[2, 2]), ValueError,
     r"When dilation rate is greater than 1, then all values of strides must be 1"),
    (dw([1, 2, 2, 4], [4, 4, 4, 1], padding="VALID"), tf.errors.InvalidArgumentError,
     r"Computed output size would be negative: -1"),
    (lambda: tf.nn.depthwise_conv2d(tf.zeros([1, 5, 5, 2], tf.int32),
                                    tf.zeros([3, 3, 2, 1], tf.int32), [1, 1, 1, 1], "SAME"),
     tf.errors.InvalidArgumentError, r"Value for attr 'T' of int32 is not in the list"),
    (lambda: tf.nn.separable_conv2d(tf.zeros([2, 7, 7, 3]), tf.zeros([3, 3, 3, 2]),
                                    tf.zeros([1, 1, 5, 5]), [1, 1, 1, 1], "SAME"),
     tf.errors.InvalidArgumentError, r"input depth must be evenly divisible by filter depth: "
                                     r"6 vs 5"),
    (lambda: tf.nn.separable_conv2d(tf.zeros([2, 7, 7, 3]), tf.zeros([3, 3, 3, 2]),
                                    tf.zeros([2, 1, 6, 5]), [1, 1, 1, 1], "SAME"),
     ValueError, r"Dimensions 2 and 1 are not compatible"),
    (lambda: tf.nn.separable_conv2d(tf.zeros([2, 7, 7, 3]), tf.zeros([3, 3, 3, 2]),
                                    tf.zeros([1, 1, 6]), [1, 1, 1, 1], "SAME"),
     ValueError, r"Shape \(1, 1, 6\) must have rank 4"),
    (lambda: tf.nn.depthwise_conv2d_backprop_input([2, 7, 7, 3], tf.zeros([3, 3, 3, 2]),
                                                   tf.zeros([2, 7, 7, 5]), [1, 1, 1, 1], "SAME"),
     tf.errors.InvalidArgumentError,
     r"DepthwiseConv2DBackpropInput: depth_multiplier \* in_depth not equal to out_depth"),
    (lambda: tf.nn.depthwise_conv2d_backprop_input([2, 7, 7, 3], tf.zeros([3, 3, 3, 2]),
                                                   tf.zeros([2, 6, 7, 6]), [1, 1, 1, 1], "SAME"),
     tf.errors.InvalidArgumentError, r"Number of rows of out_backprop doesn't match computed: "
                                     r"actual = 6, computed = 7"),
]


@pytest.mark.parametrize("call, error, message", ERRORS)
def test_errors(call, error, message):
    with pytest.raises(error, match=message):
        call()
