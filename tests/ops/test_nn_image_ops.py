"""tf.nn dilation2d / erosion2d, isotonic_regression, atrous_conv2d_transpose, hand-derived
(real-TF comparisons: test_nn_real_tf.py)."""
import numpy as np
import pytest
from gradcheck import check_grads

import minitf as tf

ONES = [1, 1, 1, 1]


def _dilation_numpy(x, k, strides, rates, padding):
    """The textbook definition, one output at a time."""
    n, h, w, c = x.shape
    fh, fw, _ = k.shape
    eff_h, eff_w = (fh - 1) * rates[0] + 1, (fw - 1) * rates[1] + 1
    if padding == "VALID":
        out_h, out_w, top, left = (h - eff_h) // strides[0] + 1, (w - eff_w) // strides[1] + 1, 0, 0
    else:
        out_h, out_w = -(-h // strides[0]), -(-w // strides[1])
        top = max((out_h - 1) * strides[0] + eff_h - h, 0) // 2
        left = max((out_w - 1) * strides[1] + eff_w - w, 0) // 2
    out = np.full((n, out_h, out_w, c), -np.inf)
    for y in range(out_h):
        for xx in range(out_w):
            for dy in range(fh):
                for dx in range(fw):
                    i = y * strides[0] + dy * rates[0] - top
                    j = xx * strides[1] + dx * rates[1] - left
                    if 0 <= i < h and 0 <= j < w:
                        out[:, y, xx] = np.maximum(out[:, y, xx], x[:, i, j] + k[dy, dx])
    return out


@pytest.mark.parametrize("strides, rates, padding", [
    ((1, 1), (1, 1), "VALID"), ((2, 1), (1, 2), "SAME"), ((1, 2), (2, 1), "VALID"),
    ((2, 2), (1, 1), "SAME")])
def test_dilation2d_and_erosion2d_match_the_definition(strides, rates, padding):
    rng = np.random.default_rng(0)
    x, k = rng.normal(size=(2, 5, 6, 2)), rng.normal(size=(2, 3, 2))
    args = ([1, *strides, 1], padding, "NHWC", [1, *rates, 1])
    np.testing.assert_allclose(tf.nn.dilation2d(x, k, *args).numpy(),
                               _dilation_numpy(x, k, strides, rates, padding))
    np.testing.assert_allclose(tf.nn.erosion2d(x, k, *args).numpy(),
                               -_dilation_numpy(-x, k[::-1, ::-1], strides, rates, padding))
    check_grads(lambda v, f: tf.nn.dilation2d(v, f, *args), x[:1], k)
    check_grads(lambda v, f: tf.nn.erosion2d(v, f, *args), x[:1], k)


def test_dilation2d_dtypes_and_empty_output():
    x = tf.constant(np.arange(12).reshape(1, 3, 4, 1), tf.int32)
    out = tf.nn.dilation2d(x, tf.zeros([2, 2, 1], tf.int32), ONES, "VALID", "NHWC", ONES)
    assert out.dtype == tf.int32 and out.numpy()[0, :, :, 0].tolist() == [[5, 6, 7], [9, 10, 11]]
    assert tf.nn.dilation2d(tf.ones([1, 2, 2, 1]), tf.ones([3, 1, 1]), ONES, "VALID", "NHWC",
                            ONES).shape == (1, 0, 2, 1)
    traced = tf.function(lambda v: tf.nn.dilation2d(v, tf.zeros([2, 2, 1], tf.int32), ONES,
                                                    "VALID", "NHWC", ONES))
    assert traced(x).numpy().tolist() == out.numpy().tolist()


@pytest.mark.parametrize("call, cls, message", [
    (lambda x, k: tf.nn.dilation2d(x, k, ONES, "VALID", "NCHW", ONES), ValueError,
     "`data_format` values other  than 'NHWC' are not supported"),
    (lambda x, k: tf.nn.erosion2d(x, k, ONES, "VALID", "NCHW", ONES), ValueError,
     "`data_format` values other  than 'NHWC' are not supported"),
    (lambda x, k: tf.nn.dilation2d(x, k, [1, 1, 1], "VALID", "NHWC", ONES),
     tf.errors.InvalidArgumentError, "Length for attr 'strides' of 3 must be at least minimum 4"),
    (lambda x, k: tf.nn.dilation2d(x, k, [2, 1, 1, 1], "VALID", "NHWC", ONES),
     tf.errors.UnimplementedError, "Stride is only supported across spatial dimensions"),
    (lambda x, k: tf.nn.dilation2d(x, k, ONES, "FULL", "NHWC", ONES),
     tf.errors.InvalidArgumentError, "Value for attr 'padding' of \"FULL\" is not in the list"),
    (lambda x, k: tf.nn.dilation2d(x, k[:, :, :1], ONES, "VALID", "NHWC", ONES),
     tf.errors.InvalidArgumentError, "input and filter must have the same depth: 2 vs 1"),
])
def test_dilation2d_errors(call, cls, message):
    with pytest.raises(cls, match=message):
        call(tf.ones([1, 4, 4, 2]), tf.ones([2, 2, 2]))


# --- isotonic_regression ----------------------------------------------------------------------
def _brute_force_decreasing(row):
    """Pool-adjacent-violators written the slow way: merge any violating neighbours."""
    blocks = [[v] for v in row]
    merged = True
    while merged:
        merged = False
        for i in range(len(blocks) - 1):
            if np.mean(blocks[i]) < np.mean(blocks[i + 1]):
                blocks[i:i + 2] = [blocks[i] + blocks[i + 1]]
                merged = True
                break
    return np.concatenate([[np.mean(b)] * len(b) for b in blocks])


def test_isotonic_regression_is_the_monotone_least_squares_fit():
    rng = np.random.default_rng(1)
    y = rng.normal(size=(3, 7)).astype(np.float32)
    out, segments = tf.nn.isotonic_regression(y)
    assert out.dtype == tf.float32 and segments.dtype == tf.int32
    for row, fit, seg in zip(y, out.numpy(), segments.numpy()):
        np.testing.assert_allclose(fit, _brute_force_decreasing(row), rtol=1e-6)
        assert (np.diff(fit) <= 1e-6).all() and seg[0] == 0 and set(np.diff(seg)) <= {0, 1}
    up, _ = tf.nn.isotonic_regression(y, decreasing=False)
    np.testing.assert_allclose(up.numpy(), -tf.nn.isotonic_regression(-y)[0].numpy())
    columns, _ = tf.nn.isotonic_regression(y.T, axis=0)
    np.testing.assert_allclose(columns.numpy(), out.numpy().T)


def test_isotonic_regression_result_types_ties_and_dtypes():
    result = tf.nn.isotonic_regression([[2.0, 2.0, 2.0, 1.0]])
    assert type(result).__name__ == "IsotonicRegression"
    assert result.segments.numpy().tolist() == [[0, 1, 2, 3]]      # equal values: no pooling
    assert type(tf.nn.isotonic_regression([[1.0]], decreasing=False)) is tuple
    assert tf.nn.isotonic_regression(tf.constant([[1, 3]])).output.dtype == tf.float64
    assert tf.nn.isotonic_regression(tf.constant([[1, 3]], tf.int8)).output.dtype == tf.float32
    assert tf.nn.isotonic_regression(tf.constant([[1.0]], tf.float16)).output.dtype == tf.float16
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"`dim` must be in the range"):
        tf.nn.isotonic_regression([[1.0]], axis=2)


def test_isotonic_regression_gradient_is_the_segment_mean():
    y = tf.constant([[1.0, 3.0, 2.0, 4.0, 0.5]])
    with tf.GradientTape() as tape:
        tape.watch(y)
        loss = tf.reduce_sum(tf.nn.isotonic_regression(y).output * [[1.0, 2.0, 3.0, 4.0, 5.0]])
    assert tape.gradient(loss, y).numpy().tolist() == [[2.5, 2.5, 2.5, 2.5, 5.0]]
    check_grads(lambda v: tf.nn.isotonic_regression(v, decreasing=False, axis=0)[0],
                np.random.default_rng(2).normal(size=(5, 2)))


# --- atrous_conv2d_transpose ----------------------------------------------------------------------
def test_atrous_conv2d_transpose_is_the_adjoint_of_atrous_conv2d():
    rng = np.random.default_rng(3)
    filters = rng.normal(size=(2, 3, 3, 2))          # [kh, kw, out, in] for the transpose
    for padding, size in (("VALID", (7, 8)), ("SAME", (5, 6))):
        x = rng.normal(size=(1, *size, 3))
        y = tf.nn.atrous_conv2d(x, filters.transpose(0, 1, 2, 3), rate=2, padding=padding)
        dy = rng.normal(size=y.shape)
        back = tf.nn.atrous_conv2d_transpose(dy, filters, [1, *size, 3], rate=2, padding=padding)
        # <conv(x), dy> == <x, conv_transpose(dy)>
        np.testing.assert_allclose(np.sum(y.numpy() * dy), np.sum(x * back.numpy()), rtol=1e-9)
    check_grads(lambda v, f: tf.nn.atrous_conv2d_transpose(v, f, [1, 5, 6, 3], 2, "SAME"),
                rng.normal(size=(1, 5, 6, 2)), filters)


@pytest.mark.parametrize("kwargs, message", [
    (dict(rate=0), "`rate` cannot be less than one. Received: rate=0"),
    (dict(padding="FULL"), "`padding` must be either 'VALID' or 'SAME'. Received: padding=FULL"),
    (dict(filters=np.ones([2, 2, 3, 3])), "`value` channel count must be compatible"),
    (dict(output_shape=[1, 5, 6, 4]), "`output_shape` channel count must be compatible"),
])
def test_atrous_conv2d_transpose_errors(kwargs, message):
    args = dict(value=np.ones([1, 4, 5, 2]), filters=np.ones([2, 2, 3, 2]),
                output_shape=[1, 5, 6, 3], rate=2, padding="VALID")
    with pytest.raises(ValueError, match=message):
        tf.nn.atrous_conv2d_transpose(**{**args, **kwargs})
