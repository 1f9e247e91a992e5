"""Pooling: max/avg pooling in 1-D, 2-D and 3-D, tf.nn.pool and max_pool_with_argmax,
against loop references; shapes, tie-breaking and messages verified with TensorFlow 2.21."""
import numpy as np
import pytest
from gradcheck import check_grads
from hypothesis import given, settings
from hypothesis import strategies as st
from strategies import arrays

import minitf as tf
from minitf.framework.op import apply
from minitf.ops.pool_ops import MaxPoolGradGradWithArgmax, MaxPoolGradWithArgmax


def same_pads(size, k, s):
    total = max((-(-size // s) - 1) * s + k - size, 0)
    return total // 2


def ref_pool(x, ksize, strides, padding, kind, rates=None):
    """Each output = max or mean of the window's elements that lie inside x (padding ignored)."""
    r = x.ndim - 2
    rates = rates or [1] * r
    spatial = x.shape[1:-1]
    if padding == "SAME":
        before = [same_pads(n, k, s) for n, k, s in zip(spatial, ksize, strides)]
        out_sp = [-(-n // s) for n, s in zip(spatial, strides)]
    elif padding == "VALID":
        before = [0] * r
        out_sp = [(n - (k - 1) * d - 1) // s + 1 for n, k, s, d in zip(spatial, ksize, strides,
                                                                         rates)]
    else:
        before = [p[0] for p in padding[1:-1]]
        out_sp = [(n + p[0] + p[1] - k) // s + 1 for n, p, k, s in zip(spatial, padding[1:-1],
                                                                        ksize, strides)]
    out = np.zeros([x.shape[0], *out_sp, x.shape[-1]])
    for n in range(x.shape[0]):
        for pos in np.ndindex(*out_sp):
            for c in range(x.shape[-1]):
                values = []
                for tap in np.ndindex(*ksize):
                    idx = [p * s + t * d - b for p, s, t, d, b in zip(pos, strides, tap, rates,
                                                                       before)]
                    if all(0 <= i < size for i, size in zip(idx, spatial)):
                        values.append(x[(n, *idx, c)])
                out[(n, *pos, c)] = max(values) if kind == "MAX" else np.mean(values)
    return out


def distinct(shape, seed=0):
    """Values at least 0.1 apart, so no window has a tie (max pooling is smooth there)."""
    rng = np.random.default_rng(seed)
    return rng.permutation(int(np.prod(shape))).reshape(shape) * 0.1 - 1.0


def two(v):
    return [v, v] if np.ndim(v) == 0 else list(v)


# --- values ---------------------------------------------------------------------------------------
CASES = [
    # x shape, ksize, strides, padding
    ((2, 7, 6, 3), 2, 2, "SAME"),
    ((2, 7, 6, 3), 3, 2, "SAME"),
    ((2, 7, 6, 3), 3, 1, "SAME"),
    ((2, 7, 6, 3), [3, 2], [1, 2], "VALID"),
    ((1, 5, 5, 2), [1, 3], 2, "VALID"),
    ((1, 4, 4, 1), 1, 1, "SAME"),
]


@pytest.mark.parametrize("xs, ksize, strides, padding", CASES)
def test_max_and_avg_pool2d_match_reference(xs, ksize, strides, padding):
    x = arrays(xs, seed=1)
    for fn, kind in [(tf.nn.max_pool2d, "MAX"), (tf.nn.avg_pool2d, "AVG")]:
        got = fn(x, ksize, strides, padding)
        assert got.dtype == tf.float64
        np.testing.assert_allclose(got.numpy(), ref_pool(x, two(ksize), two(strides), padding,
                                                         kind), atol=1e-12)


@st.composite
def pool_config(draw):
    k = [draw(st.integers(1, 3)) for _ in range(2)]
    s = [draw(st.integers(1, 3)) for _ in range(2)]
    padding = draw(st.sampled_from(["SAME", "VALID"]))
    spatial = [draw(st.integers(ki, 6)) for ki in k]
    shape = (draw(st.integers(1, 2)), *spatial, draw(st.integers(1, 2)))
    return shape, k, s, padding, draw(st.integers(0, 1000))


@given(pool_config())
def test_pool2d_random_configs_match_reference(config):
    shape, k, s, padding, seed = config
    x = arrays(shape, seed=seed).astype(np.float32)
    np.testing.assert_allclose(tf.nn.max_pool2d(x, k, s, padding).numpy(),
                               ref_pool(x, k, s, padding, "MAX"), rtol=1e-6)
    np.testing.assert_allclose(tf.nn.avg_pool2d(x, k, s, padding).numpy(),
                               ref_pool(x, k, s, padding, "AVG"), rtol=1e-5, atol=1e-6)


def test_avg_pool_same_divides_by_the_valid_count():
    # Numbers from TensorFlow 2.21: padding is never counted in the mean.
    x = tf.reshape(tf.range(1.0, 17.0), [1, 4, 4, 1])
    np.testing.assert_allclose(tf.nn.avg_pool2d(x, 3, 1, "SAME").numpy()[0, :, :, 0],
                               [[3.5, 4, 5, 5.5], [5.5, 6, 7, 7.5], [9.5, 10, 11, 11.5],
                                [11.5, 12, 13, 13.5]])
    x = tf.reshape(tf.range(1.0, 10.0), [1, 3, 3, 1])
    np.testing.assert_allclose(tf.nn.avg_pool2d(x, 2, 2, "SAME").numpy()[0, :, :, 0],
                               [[3, 4.5], [7.5, 9]])


def test_max_pool_explicit_padding_pads_with_minus_infinity():
    x = -np.arange(1.0, 10.0).reshape(1, 3, 3, 1)
    got = tf.nn.max_pool2d(x, 2, 1, [[0, 0], [1, 1], [1, 1], [0, 0]])
    np.testing.assert_array_equal(got.numpy()[0, :, :, 0], [[-1, -1, -2, -3], [-1, -1, -2, -3],
                                                            [-4, -4, -5, -6], [-7, -7, -8, -9]])
    padding = [[0, 0], [1, 1], [0, 1], [0, 0]]
    x = arrays((2, 5, 4, 2), seed=2)
    np.testing.assert_allclose(tf.nn.max_pool2d(x, 2, [1, 2], padding).numpy(),
                               ref_pool(x, [2, 2], [1, 2], padding, "MAX"))


def test_integer_and_half_max_pool():
    x = np.arange(16, dtype=np.int32).reshape(1, 4, 4, 1)
    got = tf.nn.max_pool2d(x, 2, 2, "SAME")
    assert got.dtype == tf.int32
    np.testing.assert_array_equal(got.numpy()[0, :, :, 0], [[5, 7], [13, 15]])
    low = np.full([1, 3, 3, 1], np.iinfo(np.int32).min, np.int32)
    assert np.all(tf.nn.max_pool2d(low, 2, 1, "SAME").numpy() == np.iinfo(np.int32).min)
    half = tf.nn.avg_pool2d(tf.ones([1, 4, 4, 1], tf.float16), 2, 2, "VALID")
    assert half.dtype == tf.float16


def test_pool1d_pool3d_and_rank_dispatch():
    x1 = arrays((2, 7, 3), seed=3)
    np.testing.assert_allclose(tf.nn.max_pool1d(x1, 3, 2, "SAME").numpy(),
                               ref_pool(x1, [3], [2], "SAME", "MAX"))
    np.testing.assert_allclose(tf.nn.avg_pool1d(x1, [3], [1, 2, 1], "VALID").numpy(),
                               ref_pool(x1, [3], [2], "VALID", "AVG"))
    np.testing.assert_allclose(tf.nn.max_pool1d(x1, 3, 2, [[0, 0], [1, 2], [0, 0]]).numpy(),
                               ref_pool(x1, [3], [2], [[0, 0], [1, 2], [0, 0]], "MAX"))
    x3 = arrays((1, 4, 5, 3, 2), seed=4)
    np.testing.assert_allclose(tf.nn.max_pool3d(x3, [2, 3, 2], 2, "SAME").numpy(),
                               ref_pool(x3, [2, 3, 2], [2, 2, 2], "SAME", "MAX"))
    np.testing.assert_allclose(tf.nn.avg_pool3d(x3, 2, [1, 2, 1], "SAME").numpy(),
                               ref_pool(x3, [2, 2, 2], [1, 2, 1], "SAME", "AVG"))
    x2 = arrays((1, 5, 5, 2), seed=5)
    for x, pool1, pool2 in [(x1, tf.nn.max_pool, tf.nn.max_pool1d), (x1, tf.nn.avg_pool,
                            tf.nn.avg_pool1d), (x2, tf.nn.max_pool, tf.nn.max_pool2d),
                            (x3, tf.nn.avg_pool, tf.nn.avg_pool3d)]:
        np.testing.assert_array_equal(pool1(x, 2, 2, "SAME").numpy(),
                                      pool2(x, 2, 2, "SAME").numpy())


def test_nn_pool_with_dilations():
    x = arrays((1, 7, 6, 2), seed=6)
    np.testing.assert_allclose(tf.nn.pool(x, [2, 3], "MAX", dilations=[2, 1]).numpy(),
                               ref_pool(x, [2, 3], [1, 1], "VALID", "MAX", [2, 1]))
    np.testing.assert_allclose(tf.nn.pool(x, [2, 2], "AVG", dilations=[2, 2]).numpy(),
                               ref_pool(x, [2, 2], [1, 1], "VALID", "AVG", [2, 2]))
    np.testing.assert_allclose(tf.nn.pool(x, [2, 2], "MAX", [2, 2], "SAME").numpy(),
                               ref_pool(x, [2, 2], [2, 2], "SAME", "MAX"))
    np.testing.assert_allclose(tf.nn.pool(x[0], [2], "AVG", [2], "SAME").numpy(),
                               ref_pool(x[0], [2], [2], "SAME", "AVG"))
    x3 = arrays((1, 5, 4, 4, 2), seed=7)
    np.testing.assert_allclose(tf.nn.pool(x3, [2, 2, 2], "MAX", [2, 2, 2], "SAME").numpy(),
                               ref_pool(x3, [2, 2, 2], [2, 2, 2], "SAME", "MAX"))
    np.testing.assert_allclose(tf.nn.pool(x3, [2, 2, 1], "AVG", dilations=[2, 1, 1]).numpy(),
                               ref_pool(x3, [2, 2, 1], [1, 1, 1], "VALID", "AVG", [2, 1, 1]))
    # Shape verified with TensorFlow 2.21.
    assert tf.nn.pool(tf.zeros([1, 5, 5, 5, 2]), [2, 2, 2], "AVG",
                      dilations=[2, 1, 1]).shape == (1, 3, 4, 4, 2)


# --- output shapes, verified with TensorFlow 2.21 ------------------------------------------------
SHAPES = [
    ("max_pool2d", (2, 7, 6, 3), 2, 2, "SAME", (2, 4, 3, 3)),
    ("max_pool2d", (2, 7, 6, 3), 3, 2, "VALID", (2, 3, 2, 3)),
    ("max_pool2d", (2, 7, 6, 3), [3, 1], [1, 2], "SAME", (2, 7, 3, 3)),
    ("max_pool2d", (2, 7, 6, 3), 2, 1, [[0, 0], [1, 1], [0, 1], [0, 0]], (2, 8, 6, 3)),
    ("avg_pool2d", (2, 7, 6, 3), 2, 2, "SAME", (2, 4, 3, 3)),
    ("avg_pool2d", (2, 7, 6, 3), 3, 3, "VALID", (2, 2, 2, 3)),
    ("avg_pool2d", (1, 2, 2, 1), 5, 2, "VALID", (1, 0, 0, 1)),
    ("max_pool1d", (2, 7, 3), 3, 2, "SAME", (2, 4, 3)),
    ("avg_pool1d", (2, 7, 3), 3, 2, "VALID", (2, 3, 3)),
    ("max_pool3d", (2, 5, 6, 7, 3), [2, 3, 2], 2, "SAME", (2, 3, 3, 4, 3)),
    ("avg_pool3d", (2, 5, 6, 7, 3), 2, [1, 2, 3], "VALID", (2, 4, 3, 2, 3)),
]


@pytest.mark.parametrize("name, xs, ksize, strides, padding, expected", SHAPES)
def test_output_shapes_match_tensorflow(name, xs, ksize, strides, padding, expected):
    got = getattr(tf.nn, name)(tf.zeros(xs), ksize, strides, padding)
    assert tuple(got.shape.as_list()) == expected


# --- argmax and tie-breaking (TF gives the first maximum) ----------------------------------------
def test_max_pool_gradient_goes_to_the_first_maximum():
    x = tf.ones([1, 3, 3, 1])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.max_pool2d(x, 2, 1, "VALID")
    np.testing.assert_array_equal(tape.gradient(y, x).numpy()[0, :, :, 0],
                                  [[1, 1, 0], [1, 1, 0], [0, 0, 0]])
    x = tf.constant([[[[1.0], [3.0], [3.0], [2.0]]]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.max_pool2d(x, [1, 3], 1, "VALID")
    np.testing.assert_array_equal(tape.gradient(y, x).numpy().ravel(), [0, 2, 0, 0])


def test_max_pool_with_argmax_indices():
    out, argmax = tf.nn.max_pool_with_argmax(tf.ones([2, 3, 3, 2]), 2, 1, "VALID")
    assert argmax.dtype == tf.int64 and out.shape == (2, 2, 2, 2)
    np.testing.assert_array_equal(argmax.numpy().ravel(), [0, 1, 2, 3, 6, 7, 8, 9] * 2)
    _, argmax = tf.nn.max_pool_with_argmax(tf.ones([2, 3, 3, 2]), 2, 1, "VALID",
                                           include_batch_in_index=True)
    np.testing.assert_array_equal(argmax.numpy().ravel(),
                                  [0, 1, 2, 3, 6, 7, 8, 9, 18, 19, 20, 21, 24, 25, 26, 27])
    _, argmax = tf.nn.max_pool_with_argmax(tf.ones([2, 3, 3, 2]), 2, 1, "SAME",
                                           output_dtype=tf.int32)
    assert argmax.dtype == tf.int32
    np.testing.assert_array_equal(argmax.numpy().ravel(), list(range(18)) * 2)
    # Windows whose maximum equals the padding value still point inside the input.
    # (TF 2.21's numbers; with SAME padding before the input, the padding must never win.)
    minus_inf = np.full([1, 3, 3, 1], -np.inf)
    np.testing.assert_array_equal(
        tf.nn.max_pool_with_argmax(minus_inf, 2, 1, "SAME")[1].numpy().ravel(), range(9))
    np.testing.assert_array_equal(
        tf.nn.max_pool_with_argmax(minus_inf, 3, 1, "SAME")[1].numpy().ravel(),
        [0, 0, 1, 0, 0, 1, 3, 3, 4])
    lowest = np.full([1, 3, 4, 2], np.iinfo(np.int32).min, np.int32)
    np.testing.assert_array_equal(
        tf.nn.max_pool_with_argmax(lowest, 3, 2, "SAME")[1].numpy().ravel(),
        [0, 1, 4, 5, 8, 9, 12, 13])
    x = tf.constant(np.full([1, 4, 4, 1], -np.inf))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.max_pool2d(x, 3, 1, "SAME")
    np.testing.assert_array_equal(tape.gradient(y, x).numpy().ravel(),
                                  [4, 2, 2, 0, 2, 1, 1, 0, 2, 1, 1, 0, 0, 0, 0, 0])


def test_max_pool_with_argmax_gradient_scatters_to_argmax():
    x = distinct((1, 4, 4, 2), seed=7)
    check_grads(lambda x: tf.nn.max_pool_with_argmax(x, 2, 2, "SAME")[0] ** 2, x)
    check_grads(lambda x: tf.nn.max_pool_with_argmax(x, 3, 1, "SAME",
                                                     include_batch_in_index=True)[0], x)


# --- gradients -----------------------------------------------------------------------------------
GRAD_CASES = [((1, 4, 4, 2), 2, 2, "VALID"), ((2, 5, 4, 1), 3, 2, "SAME"),
              ((1, 4, 5, 1), [2, 3], 1, "SAME"), ((1, 1, 1, 1), 1, 1, "VALID")]


@pytest.mark.parametrize("xs, ksize, strides, padding", GRAD_CASES)
def test_pool2d_gradients(xs, ksize, strides, padding):
    x = distinct(xs, seed=8)
    check_grads(lambda x: tf.nn.max_pool2d(x, ksize, strides, padding), x)
    check_grads(lambda x: tf.nn.avg_pool2d(x, ksize, strides, padding), x)


def test_empty_outputs_give_zero_gradients():
    x = tf.ones([1, 2, 2, 1])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.max_pool2d(x, 5, 2, "VALID")  # TF: shape (1, 0, 0, 1), no error
        z = tf.nn.avg_pool2d(x, 5, 2, "VALID")
    assert y.shape == (1, 0, 0, 1) and z.shape == (1, 0, 0, 1)
    np.testing.assert_array_equal(tape.gradient([y, z], x).numpy(), np.zeros([1, 2, 2, 1]))


def test_pool1d_pool3d_and_nn_pool_gradients():
    check_grads(lambda x: tf.nn.max_pool1d(x, 3, 2, "SAME"), distinct((2, 5, 2), seed=9))
    check_grads(lambda x: tf.nn.avg_pool1d(x, 2, 1, "VALID"), distinct((2, 5, 2), seed=9))
    x3 = distinct((1, 3, 4, 3, 1), seed=10)
    check_grads(lambda x: tf.nn.max_pool3d(x, 2, 2, "SAME"), x3)
    check_grads(lambda x: tf.nn.avg_pool3d(x, [2, 1, 2], 1, "SAME"), x3)
    x = distinct((1, 5, 5, 1), seed=11)
    check_grads(lambda x: tf.nn.pool(x, [2, 2], "MAX", dilations=[2, 2]), x)
    check_grads(lambda x: tf.nn.pool(x, [2, 2], "AVG", dilations=[1, 2]), x)
    check_grads(lambda x: tf.nn.pool(x, [2, 2, 1], "MAX", dilations=[1, 2, 1]), x3)


def test_pool2d_second_order():
    x = distinct((1, 4, 4, 2), seed=12)
    check_grads(lambda x: tf.nn.max_pool2d(x, 2, 1, "SAME") ** 2, x, order=2)
    check_grads(lambda x: tf.nn.avg_pool2d(x, 3, 2, "SAME") ** 2, x, order=2)
    check_grads(lambda x: tf.nn.max_pool3d(x[..., None], [1, 2, 2], 2, "VALID") ** 2, x,
                order=2)


def test_max_pool_grad_ops_are_differentiable_in_the_gradient():
    x = tf.constant(distinct((1, 4, 4, 1), seed=13))
    _, argmax = tf.nn.max_pool_with_argmax(x, 2, 1, "SAME")
    attrs = {"include_batch_in_index": False}
    scatter = lambda g: apply(MaxPoolGradWithArgmax, [x, g, argmax], attrs)  # noqa
    gather = lambda g: apply(MaxPoolGradGradWithArgmax, [x, g, argmax], attrs)  # noqa
    check_grads(scatter, arrays((1, 4, 4, 1), seed=14))
    check_grads(gather, arrays((1, 4, 4, 1), seed=15))
    # scatter and gather are adjoint: <scatter(g), h> = <g, gather(h)>
    g, h = arrays((1, 4, 4, 1), seed=16), arrays((1, 4, 4, 1), seed=17)
    np.testing.assert_allclose(np.sum(scatter(tf.constant(g)).numpy() * h),
                               np.sum(g * gather(tf.constant(h)).numpy()))


# --- errors --------------------------------------------------------------------------------------
def pool(fn, xs, ksize=2, strides=1, padding="SAME", dtype=tf.float32, **kw):
    return lambda: fn(tf.zeros(xs, dtype), ksize, strides, padding, **kw)


ERRORS = [
    (pool(tf.nn.max_pool2d, [1, 2, 2, 4], 4, 1, "VALID"), tf.errors.InvalidArgumentError,
     r"Computed output size would be negative: -1 \[input_size: 2, effective_filter_size: 4, "
     r"stride: 1\] \[Op:MaxPool\]"),
    (pool(tf.nn.avg_pool2d, [1, 2, 2, 4], 4, 1, "VALID"), tf.errors.InvalidArgumentError,
     r"Computed output size would be negative: -1 .* \[Op:AvgPool\]"),
    (pool(tf.nn.max_pool2d, [1, 5, 5, 4], padding="FOO"), tf.errors.InvalidArgumentError,
     'Value for attr \'padding\' of "FOO" is not in the list of allowed values: "SAME", '
     '"VALID", "EXPLICIT"'),
    (pool(tf.nn.avg_pool2d, [1, 5, 5, 4], padding="same"), tf.errors.InvalidArgumentError,
     'Value for attr \'padding\' of "same" is not in the list of allowed values: "SAME", '
     '"VALID"'),
    (pool(tf.nn.max_pool2d, [5, 5, 4]), tf.errors.InvalidArgumentError,
     r"tensor_in_shape must have 2 spatial dimensions. 3 0"),
    (pool(tf.nn.max_pool2d, [1, 5, 5, 4], ksize=[1, 2, 3]), ValueError,
     r"ksize should be of length 1, 2 or 4. Received: ksize=\[1, 2, 3\] of length 3"),
    (pool(tf.nn.max_pool2d, [1, 5, 5, 4], ksize=[2, 2, 3, 1]), tf.errors.UnimplementedError,
     r"Pooling is not yet supported on the batch dimension"),
    (pool(tf.nn.avg_pool2d, [1, 5, 5, 4], ksize=[1, 1, 1, 2]), tf.errors.UnimplementedError,
     r"Non-spatial pooling is not yet supported"),
    (pool(tf.nn.max_pool2d, [1, 5, 5, 4], ksize=0), tf.errors.InvalidArgumentError,
     r"Sliding window ksize must be positive. The specified or inferred ksize is: 1,0,0,1"),
    (pool(tf.nn.avg_pool2d, [1, 5, 5, 4], ksize=0), tf.errors.InvalidArgumentError,
     r"ksize must be a positive int32 value, got:0"),
    (pool(tf.nn.max_pool2d, [1, 5, 5, 4], strides=0), tf.errors.InvalidArgumentError,
     r"Stride must be > 0, but got 0"),
    (pool(tf.nn.max_pool2d, [1, 5, 5, 4], padding=[[0, 0], [1, 1], [2, 2], [0, 0]]),
     tf.errors.InvalidArgumentError, r"Left padding 2 needs to be smaller than the window size 2"),
    (pool(tf.nn.max_pool2d, [1, 5, 5, 4], padding=[[0, 0], [1, 1], [0, 0]]), ValueError,
     r"When padding is a list, it must be of size 4"),
    (pool(tf.nn.avg_pool2d, [1, 5, 5, 4], padding=[[0, 0], [1, 1], [1, 1], [0, 0]]), TypeError,
     r"Expected string for argument 'padding'"),
    (pool(tf.nn.max_pool2d, [1, 5, 5, 4], data_format="NCHW"), tf.errors.InvalidArgumentError,
     r"Default MaxPoolingOp only supports NHWC on device type CPU"),
    (pool(tf.nn.avg_pool2d, [1, 5, 5, 4], dtype=tf.int32), tf.errors.InvalidArgumentError,
     r"Value for attr 'T' of int32 is not in the list of allowed values: half, float, double"),
    (pool(tf.nn.max_pool2d, [1, 5, 5, 4], dtype=tf.bool), tf.errors.InvalidArgumentError,
     r"Value for attr 'T' of bool is not in the list"),
    (pool(tf.nn.max_pool, [7, 3]), ValueError,
     r"`input.shape.rank` must be 3, 4 or 5. Received: input.shape=\(7, 3\) of rank 2"),
    (pool(tf.nn.avg_pool, [2, 7, 7, 7, 3], ksize=[2, 2]), ValueError,
     r"ksize should be of length 1, 3 or 5"),
    (pool(tf.nn.max_pool3d, [2, 7, 7, 7, 3], ksize=[1, 3, 3, 3, 2]), tf.errors.UnimplementedError,
     r"Pooling is not yet supported on the depth dimension"),
    (lambda: tf.nn.pool(tf.zeros([1, 7, 7, 2]), [2, 2], "AVG", padding="SAME", dilations=[2, 2]),
     ValueError, r"pooling with 'SAME' padding is not implemented for `dilation_rate` > 1"),
    (lambda: tf.nn.pool(tf.zeros([1, 7, 7, 2]), [2, 2], "MAX", [2, 2], dilations=[2, 2]),
     ValueError, r"`strides > 1` not supported in conjunction with `dilation_rate > 1`"),
    (pool(tf.nn.avg_pool2d, [1, 5, 5, 4], data_format="NCHW"), tf.errors.InvalidArgumentError,
     r"Default AvgPoolingOp only supports NHWC on device type CPU"),
    (pool(tf.nn.max_pool3d, [1, 5, 5, 5, 4], data_format="NCDHW"),
     tf.errors.InvalidArgumentError, r"Default Pooling3DOp only supports NDHWC on device type CPU"),
    (pool(tf.nn.max_pool3d, [1, 5, 5, 5, 4], data_format="XYZ"), tf.errors.InvalidArgumentError,
     'Value for attr \'data_format\' of "XYZ" is not in the list of allowed values: "NDHWC"'),
    (pool(tf.nn.max_pool1d, [1, 5, 4], data_format="XYZ"), ValueError,
     r"`data_format` must be 'NWC' or 'NCW'. Received: data_format=XYZ"),
    (lambda: tf.nn.pool(tf.zeros([1, 7, 7, 2]), [2, 2], "MIN"), ValueError,
     r"2-D MIN pooling is not supported"),
    (lambda: tf.nn.pool(tf.zeros([1, 7, 7, 2]), [2], "MAX"), ValueError,
     r"Shape \(1, 7, 7, 2\) must have rank 3"),
]


@pytest.mark.parametrize("call, error, message", ERRORS)
def test_errors(call, error, message):
    with pytest.raises(error, match=message):
        call()


def test_max_pool_gradient_inside_tf_function_recomputes_positions():
    x = tf.constant(np.random.default_rng(3).random((2, 4, 4, 3)).astype(np.float32))
    volume = tf.constant(np.random.default_rng(4).random((1, 4, 4, 4, 2)).astype(np.float32))

    def grad_of(pool, value):
        with tf.GradientTape() as tape:
            tape.watch(value)
            y = tf.reduce_sum(pool(value) ** 2)
        return tape.gradient(y, value)

    for pool, value in [(lambda v: tf.nn.max_pool2d(v, 2, 2, "VALID"), x),
                        (lambda v: tf.nn.max_pool3d(v, 2, 2, "SAME"), volume)]:
        eager = grad_of(pool, value)
        graph = tf.function(lambda v, pool=pool: grad_of(pool, v), autograph=False)(value)
        np.testing.assert_allclose(graph.numpy(), eager.numpy(), rtol=1e-6)
        assert np.count_nonzero(eager.numpy()) > 0


# --- the fast tap-loop kernels ---------------------------------------------------------------
def test_max_pool_skips_nan_like_tensorflow():
    # verified against TF 2.21: a NaN never wins a window (the kernel keeps v > max only).
    x = np.array([1, np.nan, 3, 0, 5, np.nan, 2, 7], np.float32).reshape(1, 1, 8, 1)
    np.testing.assert_array_equal(tf.nn.max_pool2d(x, [1, 2], [1, 2], "VALID").numpy().ravel(),
                                  [1, 3, 5, 7])
    np.testing.assert_array_equal(tf.nn.max_pool2d(x, [1, 3], 1, "VALID").numpy().ravel(),
                                  [3, 3, 5, 5, 5, 7])
    _, argmax = tf.nn.max_pool_with_argmax(x, [1, 2], [1, 2], "VALID")
    np.testing.assert_array_equal(argmax.numpy().ravel(), [0, 2, 4, 7])
    xt = tf.constant(x)
    with tf.GradientTape() as tape:
        tape.watch(xt)
        y = tf.nn.max_pool2d(xt, [1, 2], [1, 2], "VALID")
    np.testing.assert_array_equal(tape.gradient(y, xt).numpy().ravel(), [1, 0, 1, 0, 1, 0, 0, 1])


@settings(max_examples=40, deadline=None)
@given(st.integers(1, 3), st.integers(1, 3), st.integers(1, 3), st.sampled_from([2, 3]),
       st.sampled_from(["SAME", "VALID"]), st.integers(0, 1000))
def test_max_pool_positions_match_first_maximum_reference(kh, kw, s, r, padding, seed):
    # Small integers make many ties: the first maximum (row-major over the window) wins.
    k = [kh, kw, 2][:r]
    x = np.random.default_rng(seed).integers(-2, 2, (2, *([4] * r), 2)).astype(np.float64)
    y, where = (tf.nn.max_pool_with_argmax(x, k, s, padding, include_batch_in_index=True)
                if r == 2 else (None, None))
    pooled = tf.nn.max_pool(x, k, s, padding).numpy()
    np.testing.assert_array_equal(pooled, ref_pool(x, k, [s] * r, padding, "MAX"))
    if r == 2:
        flat = x.reshape(-1)[where.numpy().ravel()]
        np.testing.assert_array_equal(flat, y.numpy().ravel())
        first = _first_max_positions(x, k, s, padding)
        np.testing.assert_array_equal(where.numpy().ravel(), first)


def _first_max_positions(x, k, s, padding):
    """Loop reference: flat index of the first in-image maximum of every 2-D window."""
    n_, h, w, c = x.shape
    top = same_pads(h, k[0], s) if padding == "SAME" else 0
    left = same_pads(w, k[1], s) if padding == "SAME" else 0
    oh = -(-h // s) if padding == "SAME" else (h - k[0]) // s + 1
    ow = -(-w // s) if padding == "SAME" else (w - k[1]) // s + 1
    result = []
    for n, i, j, ch in np.ndindex(n_, oh, ow, c):
        best = None
        for a, b in np.ndindex(*k):
            row, col = i * s - top + a, j * s - left + b
            if 0 <= row < h and 0 <= col < w and (best is None or x[n, row, col, ch] > best[0]):
                best = (x[n, row, col, ch], ((n * h + row) * w + col) * c + ch)
        result.append(best[1])
    return result


def test_avg_pool_tap_loop_matches_reference_with_dilated_windows():
    x = arrays((2, 7, 6, 3), seed=5)
    got = tf.nn.pool(x, [2, 3], "AVG", strides=None, padding="VALID", dilations=[2, 1])
    np.testing.assert_allclose(got.numpy(), ref_pool(x, [2, 3], [1, 1], "VALID", "AVG", [2, 1]))
