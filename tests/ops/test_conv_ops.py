"""Convolutions: conv2d, conv1d, conv3d, convolution, atrous_conv2d and the transposed
convolutions, against slow loop references; shapes checked against TensorFlow 2.21."""
import numpy as np
import pytest
from gradcheck import check_grads
from hypothesis import given
from hypothesis import strategies as st
from strategies import arrays

import minitf as tf
from minitf.ops.conv_ops import CONV2D_FAMILY, CONV3D_FAMILY, Conv2D


# --- slow, obviously-correct references -------------------------------------------------------
def same_pads(size, k, s, d):
    """TF's SAME rule: total = max((ceil(in/s)-1)*s + (k-1)*d + 1 - in, 0), before = total//2."""
    total = max((-(-size // s) - 1) * s + (k - 1) * d + 1 - size, 0)
    return total // 2, total - total // 2


def resolve_pads(spatial, ksize, strides, padding, dilations):
    if padding == "SAME":
        return [same_pads(n, k, s, d) for n, k, s, d in zip(spatial, ksize, strides, dilations)]
    if padding == "VALID":
        return [(0, 0)] * len(spatial)
    return [tuple(p) for p in padding[1:-1]]


def pad_array(x, pads):
    return np.pad(x, [(0, 0)] + list(pads) + [(0, 0)])


def ref_conv(x, f, strides, padding, dilations):
    """out[n, *i, o] = sum over taps t, channels c: x_pad[n, *(i*s + t*d), g*cg + c] f[*t, c, o]"""
    r = x.ndim - 2
    ksize, cg, o_depth = f.shape[:r], f.shape[r], f.shape[r + 1]
    og = o_depth // (x.shape[-1] // cg)
    xp = pad_array(x, resolve_pads(x.shape[1:-1], ksize, strides, padding, dilations))
    out_sp = [(xp.shape[1 + a] - (ksize[a] - 1) * dilations[a] - 1) // strides[a] + 1
              for a in range(r)]
    out = np.zeros([x.shape[0], *out_sp, o_depth])
    for n in range(x.shape[0]):
        for pos in np.ndindex(*out_sp):
            for o in range(o_depth):
                g = o // og
                for tap in np.ndindex(*ksize):
                    idx = tuple(p * s + t * d for p, s, t, d in zip(pos, strides, tap, dilations))
                    for c in range(cg):
                        out[(n, *pos, o)] += xp[(n, *idx, g * cg + c)] * f[(*tap, c, o)]
    return out


def ref_conv_transpose(y, f, output_shape, strides, padding, dilations):
    """Scatter: every y[n, *i, o] adds y * f[*t, c, o] onto x_pad[n, *(i*s + t*d), c]."""
    r = y.ndim - 2
    ksize, c_depth = f.shape[:r], f.shape[r]
    pads = resolve_pads(output_shape[1:-1], ksize, strides, padding, dilations)
    xp = np.zeros([output_shape[0]] + [n + b + a for n, (b, a) in zip(output_shape[1:-1], pads)]
                  + [c_depth])
    for n in range(y.shape[0]):
        for pos in np.ndindex(*y.shape[1:-1]):
            for o in range(y.shape[-1]):
                for tap in np.ndindex(*ksize):
                    idx = tuple(p * s + t * d for p, s, t, d in zip(pos, strides, tap, dilations))
                    xp[(n, *idx)] += y[(n, *pos, o)] * f[(*tap, slice(None), o)]
    crop = tuple(slice(b, b + n) for n, (b, a) in zip(output_shape[1:-1], pads))
    return xp[(slice(None), *crop)]


def two(v):
    return [v, v] if np.ndim(v) == 0 else list(v)


# --- conv2d values -----------------------------------------------------------------------------
CONV2D_CASES = [
    # x shape, filter shape, strides, padding, dilations
    ((2, 7, 6, 3), (3, 2, 3, 4), 1, "SAME", 1),
    ((2, 7, 6, 3), (3, 2, 3, 4), 2, "SAME", 1),
    ((2, 7, 6, 3), (3, 2, 3, 4), [2, 1], "VALID", 1),
    ((1, 8, 8, 2), (3, 3, 2, 3), 1, "SAME", 2),
    ((2, 9, 9, 2), (3, 3, 2, 3), 2, "VALID", [2, 1]),
    ((2, 5, 5, 3), (1, 1, 3, 4), 2, "SAME", 1),
    ((1, 6, 5, 2), (1, 3, 2, 2), 1, "VALID", 1),
    ((2, 6, 5, 3), (3, 3, 3, 2), 2, [[0, 0], [1, 2], [0, 3], [0, 0]], 1),
    ((1, 5, 5, 4), (3, 3, 2, 6), 1, "SAME", 1),      # grouped: 2 groups
    ((1, 5, 4, 3), (2, 2, 1, 6), 2, "VALID", 1),     # one group per channel
]


@pytest.mark.parametrize("xs, fs, strides, padding, dilations", CONV2D_CASES)
def test_conv2d_matches_loop_reference(xs, fs, strides, padding, dilations):
    x, f = arrays(xs, seed=1), arrays(fs, seed=2)
    got = tf.nn.conv2d(x, f, strides, padding, dilations=dilations)
    expected = ref_conv(x, f, two(strides), padding, two(dilations))
    assert got.dtype == tf.float64
    np.testing.assert_allclose(got.numpy(), expected, atol=1e-10)


@st.composite
def conv2d_config(draw):
    k = [draw(st.integers(1, 3)) for _ in range(2)]
    d = [draw(st.integers(1, 2)) for _ in range(2)]
    s = [draw(st.integers(1, 3)) for _ in range(2)]
    padding = draw(st.sampled_from(["SAME", "VALID"]))
    # VALID needs the input at least as large as the dilated kernel.
    spatial = [draw(st.integers((ki - 1) * di + 1, 7)) for ki, di in zip(k, d)]
    batch, c, o = draw(st.integers(1, 2)), draw(st.integers(1, 3)), draw(st.integers(1, 3))
    return (batch, *spatial, c), (*k, c, o), s, padding, d, draw(st.integers(0, 1000))


@given(conv2d_config())
def test_conv2d_random_configs_match_reference(config):
    xs, fs, s, padding, d, seed = config
    x, f = arrays(xs, seed=seed), arrays(fs, seed=seed + 1)
    got = tf.nn.conv2d(x.astype(np.float32), f.astype(np.float32), s, padding, dilations=d)
    assert got.dtype == tf.float32
    np.testing.assert_allclose(got.numpy(), ref_conv(x, f, s, padding, d), rtol=1e-5, atol=1e-5)


def test_conv2d_dtypes():
    x, f = np.ones([1, 3, 3, 2]), np.ones([2, 2, 2, 1])
    for dtype in (tf.float16, tf.float32, tf.float64, tf.int32):
        got = tf.nn.conv2d(tf.constant(x, dtype), tf.constant(f, dtype), 1, "VALID")
        assert got.dtype == dtype
        np.testing.assert_array_equal(got.numpy(), np.full([1, 2, 2, 1], 8))


def test_conv2d_python_filters_follow_input_dtype_and_extra_batch_axes():
    x = arrays((3, 2, 5, 5, 2), seed=3)
    f = arrays((3, 3, 2, 4), seed=4)
    got = tf.nn.conv2d(x, f.tolist(), 1, "SAME")
    assert got.dtype == tf.float64 and got.shape == (3, 2, 5, 5, 4)
    np.testing.assert_allclose(got.numpy()[1], ref_conv(x[1], f, [1, 1], "SAME", [1, 1]),
                               atol=1e-10)


def test_conv2d_docstring_example():
    x = tf.reshape(tf.range(16.0), [1, 4, 4, 1])
    got = tf.nn.conv2d(x, tf.ones([2, 2, 1, 1]), strides=2, padding="VALID")
    np.testing.assert_array_equal(got.numpy()[0, :, :, 0], [[10, 18], [42, 50]])


# --- output shapes, verified with TensorFlow 2.21 -------------------------------------------------
SHAPES = [
    ("conv2d", (2, 7, 6, 3), (3, 2, 3, 4), 1, "SAME", 1, (2, 7, 6, 4)),
    ("conv2d", (2, 7, 6, 3), (3, 2, 3, 4), 2, "SAME", 1, (2, 4, 3, 4)),
    ("conv2d", (2, 7, 6, 3), (3, 2, 3, 4), [2, 3], "VALID", 1, (2, 3, 2, 4)),
    ("conv2d", (1, 9, 9, 2), (3, 3, 2, 5), 2, "VALID", 2, (1, 3, 3, 5)),
    ("conv2d", (1, 9, 9, 2), (3, 3, 2, 5), 3, "SAME", 2, (1, 3, 3, 5)),
    ("conv2d", (1, 5, 5, 2), (1, 1, 2, 5), 2, "SAME", 1, (1, 3, 3, 5)),
    ("conv2d", (1, 5, 5, 2), (5, 5, 2, 1), 1, "VALID", 1, (1, 1, 1, 1)),
    ("conv2d", (1, 4, 4, 2), (5, 5, 2, 1), 2, "VALID", 1, (1, 0, 0, 1)),
    ("conv2d", (1, 9, 9, 2), (3, 3, 2, 5), 1, [[0, 0], [1, 2], [0, 3], [0, 0]], 1, (1, 10, 10, 5)),
    ("conv2d", (1, 9, 9, 4), (3, 3, 2, 6), 1, "SAME", 1, (1, 9, 9, 6)),
    ("conv2d", (3, 2, 5, 5, 2), (3, 3, 2, 4), 1, "SAME", 1, (3, 2, 5, 5, 4)),
    ("conv1d", (2, 7, 3), (3, 3, 4), 2, "SAME", 1, (2, 4, 4)),
    ("conv1d", (2, 7, 3), (3, 3, 4), 1, "VALID", 2, (2, 3, 4)),
    ("conv3d", (2, 5, 6, 7, 3), (2, 3, 3, 3, 4), [1, 1, 2, 2, 1], "SAME", None, (2, 5, 3, 4, 4)),
    ("conv3d", (2, 5, 6, 7, 3), (2, 3, 3, 3, 4), [1, 2, 1, 3, 1], "VALID", None, (2, 2, 4, 2, 4)),
]


@pytest.mark.parametrize("name, xs, fs, strides, padding, dilations, expected", SHAPES)
def test_output_shapes_match_tensorflow(name, xs, fs, strides, padding, dilations, expected):
    fn = getattr(tf.nn, name)
    got = fn(tf.zeros(xs), tf.zeros(fs), strides, padding, dilations=dilations)
    assert tuple(got.shape.as_list()) == expected


def test_conv2d_shape_rule_keeps_unknown_dims():
    attrs = {"strides": (1, 2, 2, 1), "padding": "SAME", "explicit_paddings": (),
             "dilations": (1, 1, 1, 1)}
    shape = Conv2D.shape(
        tf.TensorShape([None, 7, None, 3]), tf.TensorShape([3, 3, 3, 5]), **attrs)
    assert shape.as_list() == [None, 4, None, 5]


# --- conv1d, conv3d, convolution, atrous ---------------------------------------------------------
def test_conv1d_is_conv2d_on_a_height_one_image():
    x, f = arrays((2, 9, 3), seed=5), arrays((3, 3, 4), seed=6)
    got = tf.nn.conv1d(x, f, 2, "SAME", dilations=1)
    np.testing.assert_allclose(got.numpy(), ref_conv(x, f, [2], "SAME", [1]), atol=1e-10)
    got = tf.nn.conv1d(x, f, [1], "VALID", dilations=2)
    np.testing.assert_allclose(got.numpy(), ref_conv(x, f, [1], "VALID", [2]), atol=1e-10)


def test_conv3d_matches_reference():
    x, f = arrays((2, 4, 5, 4, 2), seed=7), arrays((2, 3, 2, 2, 3), seed=8)
    for strides, padding in [([1, 1, 2, 1, 1], "SAME"), ([1, 2, 1, 2, 1], "VALID")]:
        got = tf.nn.conv3d(x, f, strides, padding)
        expected = ref_conv(x, f, strides[1:-1], padding, [1, 1, 1])
        np.testing.assert_allclose(got.numpy(), expected, atol=1e-10)


def test_convolution_dispatches_on_filter_rank():
    x1, f1 = arrays((2, 7, 2), seed=9), arrays((3, 2, 3), seed=10)
    np.testing.assert_allclose(tf.nn.convolution(x1, f1, 2, "SAME").numpy(),
                               ref_conv(x1, f1, [2], "SAME", [1]), atol=1e-10)
    x2, f2 = arrays((1, 6, 6, 2), seed=11), arrays((3, 3, 2, 2), seed=12)
    np.testing.assert_allclose(tf.nn.convolution(x2, f2, padding="SAME", dilations=2).numpy(),
                               ref_conv(x2, f2, [1, 1], "SAME", [2, 2]), atol=1e-10)
    x3, f3 = arrays((1, 4, 4, 4, 1), seed=13), arrays((2, 2, 2, 1, 2), seed=14)
    np.testing.assert_allclose(tf.nn.convolution(x3, f3, [1, 2, 1]).numpy(),
                               ref_conv(x3, f3, [1, 2, 1], "VALID", [1, 1, 1]), atol=1e-10)


def test_atrous_conv2d_is_dilated_conv2d():
    x, f = arrays((1, 7, 7, 2), seed=15), arrays((3, 3, 2, 2), seed=16)
    np.testing.assert_allclose(tf.nn.atrous_conv2d(x, f, 2, "SAME").numpy(),
                               ref_conv(x, f, [1, 1], "SAME", [2, 2]), atol=1e-10)


# --- transposed convolutions ---------------------------------------------------------------------
TRANSPOSE_CASES = [
    # y shape, filter shape, output_shape, strides, padding, dilations
    ((2, 4, 4, 3), (3, 3, 5, 3), (2, 8, 8, 5), 2, "SAME", 1),
    ((2, 4, 4, 3), (3, 3, 5, 3), (2, 7, 7, 5), 2, "SAME", 1),
    ((1, 4, 4, 2), (3, 2, 3, 2), (1, 13, 9, 3), [3, 2], "VALID", 1),
    ((1, 4, 4, 2), (3, 3, 2, 2), (1, 7, 7, 2), 2, [[0, 0], [1, 1], [1, 1], [0, 0]], 1),
    ((1, 4, 4, 2), (3, 3, 2, 2), (1, 4, 4, 2), 1, "SAME", 2),
]


@pytest.mark.parametrize("ys, fs, out_shape, strides, padding, dilations", TRANSPOSE_CASES)
def test_conv2d_transpose_matches_scatter_reference(ys, fs, out_shape, strides, padding,
                                                    dilations):
    y, f = arrays(ys, seed=17), arrays(fs, seed=18)
    got = tf.nn.conv2d_transpose(y, f, out_shape, strides, padding, dilations=dilations)
    assert got.shape == out_shape
    expected = ref_conv_transpose(y, f, out_shape, two(strides), padding, two(dilations))
    np.testing.assert_allclose(got.numpy(), expected, atol=1e-10)


def test_conv2d_transpose_is_the_adjoint_of_conv2d():
    # <conv2d_transpose(y), z> == <y, conv2d(z)> for every z: the defining property.
    y, f, z = arrays((2, 3, 3, 4), seed=19), arrays((3, 3, 2, 4), seed=20), arrays((2, 6, 5, 2))
    lhs = np.sum(tf.nn.conv2d_transpose(y, f, [2, 6, 5, 2], 2, "SAME").numpy() * z)
    rhs = np.sum(y * tf.nn.conv2d(z, f, 2, "SAME").numpy())
    np.testing.assert_allclose(lhs, rhs)


def test_conv1d_conv3d_and_nd_transpose():
    y, f = arrays((2, 4, 3), seed=21), arrays((3, 5, 3), seed=22)
    got = tf.nn.conv1d_transpose(y, f, [2, 8, 5], 2, "SAME")
    np.testing.assert_allclose(got.numpy(), ref_conv_transpose(y, f, (2, 8, 5), [2], "SAME", [1]),
                               atol=1e-10)
    np.testing.assert_allclose(tf.nn.conv_transpose(y, f, [2, 8, 5], 2).numpy(), got.numpy())
    y3, f3 = arrays((1, 2, 3, 2, 2), seed=23), arrays((2, 3, 2, 3, 2), seed=24)
    got = tf.nn.conv3d_transpose(y3, f3, tf.constant([1, 4, 6, 4, 3]), [2, 2, 2], "SAME")
    expected = ref_conv_transpose(y3, f3, (1, 4, 6, 4, 3), [2, 2, 2], "SAME", [1, 1, 1])
    np.testing.assert_allclose(got.numpy(), expected, atol=1e-10)
    np.testing.assert_allclose(tf.nn.conv_transpose(y3, f3, [1, 4, 6, 4, 3], 2).numpy(),
                               expected, atol=1e-10)


# --- gradients -----------------------------------------------------------------------------------
GRAD_CASES = [
    ((1, 4, 4, 2), (2, 3, 2, 2), 1, "SAME", 1),
    ((2, 5, 4, 1), (3, 2, 1, 2), 2, "VALID", 1),
    ((1, 5, 5, 2), (2, 2, 2, 2), 1, "SAME", 2),          # dilated (TF's CPU cannot)
    ((1, 5, 4, 2), (2, 2, 2, 1), 2, [[0, 0], [1, 0], [2, 1], [0, 0]], 1),
    ((1, 4, 4, 4), (2, 2, 2, 2), 1, "SAME", 1),          # grouped (TF's CPU cannot)
    ((1, 3, 3, 2), (1, 1, 2, 3), 2, "SAME", 1),
]


@pytest.mark.parametrize("xs, fs, strides, padding, dilations", GRAD_CASES)
def test_conv2d_gradients(xs, fs, strides, padding, dilations):
    check_grads(lambda x, f: tf.nn.conv2d(x, f, strides, padding, dilations=dilations),
                arrays(xs, seed=25), arrays(fs, seed=26))


def test_conv2d_second_order():
    check_grads(lambda x, f: tf.nn.conv2d(x, f, 2, "SAME") ** 2,
                arrays((1, 4, 3, 2), seed=27), arrays((2, 2, 2, 2), seed=28), order=2)
    check_grads(lambda x, f: tf.nn.conv2d(x, f, 1, "VALID", dilations=2),
                arrays((1, 4, 4, 1), seed=29), arrays((2, 2, 1, 2), seed=30), order=2)


def test_conv2d_transpose_gradients_first_and_second_order():
    fn = lambda y, f: tf.nn.conv2d_transpose(y, f, [1, 5, 4, 2], 2, "SAME")  # noqa: E731
    check_grads(fn, arrays((1, 3, 2, 3), seed=31), arrays((3, 2, 2, 3), seed=32))
    check_grads(lambda y, f: fn(y, f) ** 2, arrays((1, 3, 2, 3), seed=31),
                arrays((3, 2, 2, 3), seed=32), order=2)


def test_conv2d_backprop_filter_op_gradients():
    def backprop_filter(x, dy):
        return CONV2D_FAMILY.filter_grad(x, [2, 2, 2, 3], dy, {
            "strides": (1, 2, 1, 1), "padding": "SAME", "explicit_paddings": (),
            "dilations": (1, 1, 1, 1)})

    check_grads(backprop_filter, arrays((1, 4, 3, 2), seed=33), arrays((1, 2, 3, 3), seed=34))
    check_grads(lambda x, dy: backprop_filter(x, dy) ** 2, arrays((1, 3, 3, 2), seed=33),
                arrays((1, 2, 3, 3), seed=34), order=2)


def test_conv1d_conv3d_convolution_gradients():
    check_grads(lambda x, f: tf.nn.conv1d(x, f, 2, "SAME"),
                arrays((2, 5, 2), seed=35), arrays((3, 2, 2), seed=36))
    check_grads(lambda x, f: tf.nn.conv3d(x, f, [1, 1, 2, 1, 1], "SAME"),
                arrays((1, 3, 3, 2, 1), seed=37), arrays((2, 2, 1, 1, 2), seed=38))
    check_grads(lambda x, f: tf.nn.convolution(x, f, padding="VALID", dilations=[2]),
                arrays((1, 5, 2), seed=39), arrays((2, 2, 1), seed=40))


def test_conv3d_transpose_and_backprop_filter_gradients():
    check_grads(lambda y, f: tf.nn.conv3d_transpose(y, f, [1, 4, 3, 2, 2], 2, "SAME"),
                arrays((1, 2, 2, 1, 2), seed=41), arrays((2, 2, 1, 2, 2), seed=42))
    attrs = {"strides": (1, 1, 1, 1, 1), "padding": "VALID", "explicit_paddings": (),
             "dilations": (1, 1, 1, 1, 1)}
    check_grads(lambda x, dy: CONV3D_FAMILY.filter_grad(x, [2, 1, 2, 1, 2], dy, attrs),
                arrays((1, 3, 2, 3, 1), seed=43), arrays((1, 2, 2, 2, 2), seed=44))


@pytest.mark.parametrize("xs, fs, strides", [((1, 4, 4, 2), (5, 5, 2, 3), 2),
                                              ((0, 4, 4, 2), (3, 3, 2, 3), 1)])
def test_empty_outputs_give_zero_gradients(xs, fs, strides):
    x, f = tf.ones(xs), tf.ones(fs)
    with tf.GradientTape() as tape:
        tape.watch([x, f])
        y = tf.nn.conv2d(x, f, strides, "VALID")
    assert y.shape.num_elements() == 0
    dx, df = tape.gradient(y, [x, f])
    np.testing.assert_array_equal(dx.numpy(), np.zeros(xs))
    np.testing.assert_array_equal(df.numpy(), np.zeros(fs))


def test_integer_conv_has_no_gradient():
    x = tf.constant(np.ones([1, 3, 3, 1], np.int32))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.nn.conv2d(x, tf.ones([2, 2, 1, 1], tf.int32), 1, "VALID")
    assert tape.gradient(y, x) is None


# --- errors --------------------------------------------------------------------------------------
def conv(xs, fs, strides=1, padding="SAME", **kw):
    return lambda: tf.nn.conv2d(tf.zeros(xs), tf.zeros(fs), strides, padding, **kw)


ERRORS = [
    (conv([1, 5, 5, 3], [3, 3, 4, 2]), tf.errors.InvalidArgumentError,
     r"input depth must be evenly divisible by filter depth: 3 vs 4 \[Op:Conv2D\]"),
    (conv([1, 5, 5, 4], [3, 3, 2, 5]), tf.errors.InvalidArgumentError,
     r"output depth must be evenly divisible by number of groups: 5 vs 2"),
    (conv([1, 5, 5, 3], [3, 3, 3, 2], padding="FOO"), tf.errors.InvalidArgumentError,
     'Value for attr \'padding\' of "FOO" is not in the list of allowed values: "SAME", '
     '"VALID", "EXPLICIT"'),
    (conv([1, 5, 5, 3], [3, 3, 3, 2], padding="same"), tf.errors.InvalidArgumentError,
     'attr \'padding\' of "same" is not in the list'),
    (conv([5, 5, 3], [3, 3, 3, 2]), tf.errors.InvalidArgumentError,
     r"convolution input must be 4-dimensional: \[5,5,3\]"),
    (conv([1, 5, 5, 3], [3, 3, 2]), tf.errors.InvalidArgumentError,
     r"convolution filter must be 4-dimensional: \[3,3,2\]"),
    (conv([1, 2, 2, 3], [4, 4, 3, 1], padding="VALID"), tf.errors.InvalidArgumentError,
     r"Computed output size would be negative: -1 \[input_size: 2, effective_filter_size: 4, "
     r"stride: 1\]"),
    (conv([1, 5, 5, 3], [3, 3, 3, 1], data_format="NCHW"), tf.errors.UnimplementedError,
     r"The Conv2D op currently only supports the NHWC tensor format on the CPU. The op was "
     r"given the format: NCHW"),
    (conv([1, 5, 5, 3], [3, 3, 3, 1], data_format="XYZ"), tf.errors.InvalidArgumentError,
     'Value for attr \'data_format\' of "XYZ" is not in the list of allowed values: "NHWC", '
     '"NCHW"'),
    (lambda: tf.nn.conv1d(tf.zeros([1, 5, 2]), tf.zeros([2, 2, 2]), 1, "SAME", "XYZ"),
     ValueError, r"`data_format` must be 'NWC' or 'NCW'. Received: data_format=XYZ"),
    (lambda: tf.nn.conv2d_transpose(tf.zeros([2, 4, 4, 3]), tf.zeros([3, 3, 5, 3]),
                                    [2, 8, 8, 5], 2, "SAME", data_format="NCHW"),
     tf.errors.InvalidArgumentError, r"Conv2DCustomBackpropInputOp only supports NHWC\."),
    (conv([1, 5, 5, 3], [3, 3, 3, 1], strides=[2, 1, 1, 1]), tf.errors.UnimplementedError,
     r"does not yet support strides in the batch and depth dimensions"),
    (conv([1, 5, 5, 3], [3, 3, 3, 1], strides=0), tf.errors.InvalidArgumentError,
     r"Row and column strides should be larger than 0\."),
    (conv([1, 5, 5, 3], [3, 3, 3, 1], dilations=0), tf.errors.InvalidArgumentError,
     r"Dilated rates should be larger than 0\."),
    (conv([1, 5, 5, 3], [3, 3, 3, 1], strides=[1, 2, 3]), ValueError,
     r"strides should be of length 1, 2 or 4. Received: strides=\[1, 2, 3\] of length 3"),
    (conv([1, 5, 5, 3], [3, 3, 3, 1], padding=[[1, 2], [3, 0]]), ValueError,
     r"When padding is a list, it must be of size 4"),
    (conv([1, 5, 5, 3], [3, 3, 3, 1], padding=[[0, 0], [1, 1], [1, 1], [0, 1]]),
     tf.errors.InvalidArgumentError, r"Nonzero explicit padding in the batch or depth"),
    (conv([1, 5, 5, 3], [3, 3, 3, 1], padding=[[0, 0], [-1, 1], [1, 1], [0, 0]]),
     tf.errors.InvalidArgumentError, r"All elements of explicit_paddings must be nonnegative"),
    (conv([1, 5, 5, 3], [3, 3, 3, 1], padding="EXPLICIT"), ValueError,
     r"'EXPLICIT' is not a valid value for `padding`"),
    (lambda: tf.nn.conv2d(tf.zeros([1, 3, 3, 1]), tf.zeros([1, 1, 1, 1], tf.float64), 1, "SAME"),
     tf.errors.InvalidArgumentError, r"cannot compute Conv2D as input #1\(zero-based\) was "
                                     r"expected to be a float tensor but is a double tensor"),
    (lambda: tf.nn.conv2d(tf.zeros([1, 3, 3, 1], tf.int64), tf.zeros([1, 1, 1, 1], tf.int64), 1,
                          "SAME"),
     tf.errors.InvalidArgumentError, r"Value for attr 'T' of int64 is not in the list"),
    (lambda: tf.nn.conv1d(tf.zeros([7, 3]), tf.zeros([3, 3, 4]), 1, "SAME"),
     tf.errors.InvalidArgumentError, r"convolution input must be 4-dimensional: \[1,7,3\]"),
    (lambda: tf.nn.conv1d(tf.zeros([2, 7, 3]), tf.zeros([3, 3, 4]), [1, 2], "SAME"),
     ValueError, r"stride should be of length 1, 1 or 3"),
    (lambda: tf.nn.conv3d(tf.zeros([2, 5, 6, 7, 5]), tf.zeros([2, 3, 3, 3, 4]), [1] * 5, "VALID"),
     tf.errors.InvalidArgumentError, r"Input depth must be evenly divisible by filter depth: "
                                     r"5 vs 3"),
    (lambda: tf.nn.conv3d(tf.zeros([2, 5, 6, 7, 3]), tf.zeros([2, 3, 3, 3, 4]), 1, "VALID"),
     TypeError, r"Expected list for 'strides' argument to 'conv3d' Op, not 1"),
    (lambda: tf.nn.conv3d(tf.zeros([5, 6, 7, 3]), tf.zeros([2, 3, 3, 3, 4]), [1] * 5, "VALID"),
     tf.errors.InvalidArgumentError, r"input must be 5-dimensional"),
    (lambda: tf.nn.convolution(tf.zeros([2, 7, 7, 3]), tf.zeros([3, 3, 3, 4]), [2, 1], "SAME",
                               dilations=[1, 2]),
     ValueError, r"`strides > 1` not supported in conjunction with `dilation_rate > 1`"),
    (lambda: tf.nn.convolution(tf.zeros([2, 7, 7, 7, 7, 3]), tf.zeros([3, 3, 3, 3, 3, 4])),
     ValueError, r"`num_spatial_dims` must be 1, 2, or 3. Received: num_spatial_dims=4"),
    (lambda: tf.nn.conv2d_transpose(tf.zeros([2, 4, 4, 3]), tf.zeros([3, 3, 5, 3]),
                                    [2, 6, 6, 5], 2, "SAME"),
     tf.errors.InvalidArgumentError,
     r"Conv2DCustomBackpropInput: Size of out_backprop doesn't match computed: actual = 4, "
     r"computed = 3 spatial_dim: 1 input: 6 filter: 3 output: 4 stride: 2 dilation: 1"),
    (lambda: tf.nn.conv2d_transpose(tf.zeros([2, 4, 4, 3]), tf.zeros([3, 3, 5, 2]),
                                    [2, 8, 8, 5], 2, "SAME"),
     tf.errors.InvalidArgumentError, r"filter and out_backprop must have the same out_depth"),
    (lambda: tf.nn.conv2d_transpose(tf.zeros([2, 4, 4, 3]), tf.zeros([3, 3, 5, 3]),
                                    [3, 8, 8, 5], 2, "SAME"),
     tf.errors.InvalidArgumentError, r"Input batch: 3, outbackprop batch: 2"),
    (lambda: tf.nn.conv2d_transpose(tf.zeros([2, 4, 4, 3]), tf.zeros([3, 3, 5, 3]),
                                    [8, 8, 5], 2, "SAME"),
     tf.errors.InvalidArgumentError, r"requires input_sizes to contain 4 values or 2 values, "
                                     r"but got: 3"),
]


@pytest.mark.parametrize("call, error, message", ERRORS)
def test_errors(call, error, message):
    with pytest.raises(error, match=message):
        call()


# --- the fast kernels: both routes of Conv2DBackpropInput ------------------------------------
BACKPROP_INPUT_CASES = [
    # y shape, filter shape, output_shape, strides, padding, dilations
    ((2, 5, 4, 2), (3, 3, 3, 2), (2, 5, 4, 3), 1, "SAME", 1),     # C >= O: as a convolution
    ((2, 5, 4, 4), (3, 2, 2, 4), (2, 5, 4, 2), 1, "SAME", 1),     # C < O: col2im
    ((1, 3, 4, 2), (3, 3, 3, 2), (1, 7, 6, 3), 1, "VALID", [2, 1]),
    ((1, 3, 4, 2), (3, 3, 1, 2), (1, 7, 6, 1), 1, "VALID", [2, 1]),
    # padding larger than the kernel span: some outputs saw only padding (dy is cropped)
    ((1, 6, 9, 1), (2, 2, 2, 1), (1, 3, 3, 2), 1, [[0, 0], [3, 1], [4, 3], [0, 0]], 1),
    ((1, 6, 9, 3), (2, 2, 2, 3), (1, 3, 3, 2), 1, [[0, 0], [3, 1], [4, 3], [0, 0]], 1),
]


@pytest.mark.parametrize("ys, fs, out_shape, strides, padding, dilations", BACKPROP_INPUT_CASES)
def test_backprop_input_routes_match_scatter_reference(ys, fs, out_shape, strides, padding,
                                                       dilations):
    y, f = arrays(ys, seed=51), arrays(fs, seed=52)
    got = tf.nn.conv2d_transpose(y, f, out_shape, strides, padding, dilations=dilations)
    expected = ref_conv_transpose(y, f, out_shape, two(strides), padding, two(dilations))
    np.testing.assert_allclose(got.numpy(), expected, atol=1e-10)


@pytest.mark.parametrize("xs, fs, strides, padding", [
    ((2, 5, 6, 4), (3, 3, 2, 2), 1, "SAME"),     # 2 groups, C >= O: as a convolution
    ((2, 5, 6, 4), (3, 3, 2, 6), 1, "SAME"),     # 2 groups, C < O: col2im
    ((1, 6, 5, 6), (2, 3, 2, 9), 2, "VALID"),    # 3 groups, strided
    ((1, 4, 3, 3, 2), (2, 2, 2, 2, 3), 1, "SAME"),  # 3-D, C < O
])
def test_backprop_ops_are_adjoints_of_the_convolution(xs, fs, strides, padding):
    # <dx(dy), z> == <dy, conv(z)> and <df(x, dy), g> == <dy, conv(x, g)>: the defining
    # property of both gradient ops, for grouped and 3-D convolutions too.
    family = CONV2D_FAMILY if len(xs) == 4 else CONV3D_FAMILY
    r = len(xs) - 2
    attrs = {"strides": (1,) + (strides,) * r + (1,), "padding": padding,
             "explicit_paddings": (), "dilations": (1,) * (r + 2)}
    x, f, z, g = arrays(xs, seed=53), arrays(fs, seed=54), arrays(xs, seed=55), arrays(fs, seed=56)
    dy = arrays(family.forward(tf.constant(x), tf.constant(f), attrs).shape.as_list(), seed=57)
    dx = family.input_grad(list(xs), tf.constant(f), tf.constant(dy), attrs).numpy()
    conv_z = family.forward(tf.constant(z), tf.constant(f), attrs).numpy()
    np.testing.assert_allclose(np.sum(dx * z), np.sum(dy * conv_z))
    df = family.filter_grad(tf.constant(x), list(fs), tf.constant(dy), attrs).numpy()
    conv_g = family.forward(tf.constant(x), tf.constant(g), attrs).numpy()
    np.testing.assert_allclose(np.sum(df * g), np.sum(dy * conv_g))


def test_conv_gradients_are_identical_in_eager_and_graph_mode():
    x, f = tf.constant(arrays((2, 6, 6, 3), seed=58)), tf.constant(arrays((3, 3, 3, 4), seed=59))

    def grads(x, f):
        with tf.GradientTape() as tape:
            tape.watch([x, f])
            y = tf.reduce_sum(tf.nn.relu(tf.nn.conv2d(x, f, 1, "SAME")) ** 2)
        return tape.gradient(y, [x, f])

    for eager, graph in zip(grads(x, f), tf.function(grads)(x, f)):
        np.testing.assert_array_equal(eager.numpy(), graph.numpy())
