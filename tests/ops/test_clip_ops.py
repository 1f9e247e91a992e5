"""clip_by_value, clip_by_norm and the nan-safe ops divide_no_nan, multiply_no_nan, xlogy, xdivy."""
import inspect
import warnings

import numpy as np
import pytest
from gradcheck import check_grads
from hypothesis import assume, given, settings
from strategies import arrays, broadcasting_pair, small_shapes

import minitf as tf


def _grads(fn, *values):
    """Value and tape gradients of sum(fn(*tensors)) w.r.t. every input (float64)."""
    xs = [tf.constant(np.array(v, dtype=np.float64)) for v in values]
    with tf.GradientTape() as tape:
        for x in xs:
            tape.watch(x)
        y = fn(*xs)
    return y.numpy(), [g.numpy() for g in tape.gradient(y, xs)]


# --- clip_by_value ----------------------------------------------------------------------------
def test_clip_by_value_values_and_dtypes():
    t = np.array([[-10.0, -1.0, 0.0], [0.0, 2.0, 10.0]], np.float32)
    out = tf.clip_by_value(tf.constant(t), -1, 1)
    assert out.dtype == tf.float32
    np.testing.assert_array_equal(out.numpy(), np.clip(t, -1, 1))
    ints = tf.clip_by_value(tf.constant([1, 5, -4]), -3, 3)
    assert ints.dtype == tf.int32
    np.testing.assert_array_equal(ints.numpy(), [1, 3, -3])


def test_clip_by_value_bounds_broadcast_against_t():
    t = tf.constant([[-1, 0.0, 10.0], [-1, 0, 10]])
    out = tf.clip_by_value(t, clip_value_min=[[2], [1]], clip_value_max=100)
    np.testing.assert_array_equal(out.numpy(), [[2.0, 2.0, 10.0], [1.0, 1.0, 10.0]])


def test_clip_by_value_with_min_above_max_gives_min_everywhere():
    # TF computes maximum(minimum(t, max), min): the result is clip_value_min, and the
    # gradient goes to clip_value_min only (values checked against TF 2.21).
    y, (gt, glo, ghi) = _grads(tf.clip_by_value, [-1.0, 0.0, 0.5, 1.0, 2.0], 2.0, 1.0)
    np.testing.assert_array_equal(y, [2.0] * 5)
    np.testing.assert_array_equal(gt, [0.0] * 5)
    assert glo == 5.0 and ghi == 0.0


def test_clip_by_value_gradient_passes_inside_the_range_including_boundaries():
    y, (gt, glo, ghi) = _grads(tf.clip_by_value, [-1.0, 0.0, 0.5, 1.0, 2.0], -1.0, 1.0)
    np.testing.assert_array_equal(y, [-1.0, 0.0, 0.5, 1.0, 1.0])
    np.testing.assert_array_equal(gt, [1.0, 1.0, 1.0, 1.0, 0.0])  # as TF 2.21
    assert glo == 0.0 and ghi == 1.0


@given(shape=small_shapes)
@settings(max_examples=8)
def test_clip_by_value_gradient_check(shape):
    t = arrays(shape, -2.0, 2.0, seed=1)
    t = np.where(np.abs(np.abs(t) - 1.0) < 0.1, 0.0, t)  # stay away from the kinks at +-1
    check_grads(lambda x: tf.clip_by_value(x, -1.0, 1.0), t)


@given(shapes=broadcasting_pair())
@settings(max_examples=8)
def test_clip_by_value_gradient_reaches_broadcast_bounds(shapes):
    t_shape, bound_shape = shapes
    assume(len(bound_shape) <= len(t_shape) and all(  # a bound that enlarges t is an error
        b in (1, t) for b, t in zip(bound_shape[::-1], t_shape[::-1])))
    t = arrays(t_shape, -3.0, 3.0, seed=2)
    low = arrays(bound_shape, -1.5, -0.5, seed=3)
    high = np.full(bound_shape, 1.0)
    t = np.where((np.abs(t - low) < 0.05) | (np.abs(t - 1.0) < 0.05), 0.0, t)
    check_grads(tf.clip_by_value, t, low, high)


def test_clip_by_value_second_order():
    check_grads(lambda x: tf.clip_by_value(x, -1.0, 1.0) ** 2, np.array([-2.0, 0.3, 0.7, 3.0]),
                order=2)


@pytest.mark.parametrize("t, low, high, cls, message", [
    (tf.ones([2, 3]), tf.zeros([1, 2, 3]), 1.0, ValueError,
     r"Shapes \(2, 3\) and \(1, 2, 3\) are incompatible"),
    (tf.ones([2, 3]), 0.0, tf.ones([1, 2, 3]), ValueError,
     r"Shapes \(2, 3\) and \(1, 2, 3\) are incompatible"),
    (tf.ones([2, 3]), tf.zeros([1, 1, 2]), 1.0, tf.errors.InvalidArgumentError,
     r"Incompatible shapes: \[2,3\] vs. \[1,1,2\] \[Op:Maximum\]"),
    (tf.constant([1.0]), tf.constant(0.0, tf.float64), 1.0, tf.errors.InvalidArgumentError,
     r"cannot compute Maximum as input #1\(zero-based\) was expected to be a float tensor "
     r"but is a double tensor"),
])
def test_clip_by_value_errors(t, low, high, cls, message):
    with pytest.raises(cls, match=message):
        tf.clip_by_value(t, low, high)


# --- clip_by_norm -------------------------------------------------------------------------------
M = np.array([[3.0, 4.0], [0.3, 0.4]], np.float32)


@pytest.mark.parametrize("axes, expected", [  # expected values from TF 2.21
    (None, [[0.59702235, 0.7960298], [0.05970224, 0.07960298]]),
    ([1], [[0.6, 0.8], [0.3, 0.4]]),
    (-1, [[0.6, 0.8], [0.3, 0.4]]),
    (tf.constant([0]), [[0.9950372, 0.99503714], [0.09950373, 0.09950372]]),
])
def test_clip_by_norm_values(axes, expected):
    out = tf.clip_by_norm(tf.constant(M), 1.0, axes=axes)
    assert out.dtype == tf.float32 and out.shape == tf.TensorShape([2, 2])
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-6)


def test_clip_by_norm_matches_the_formula_in_float64():
    t = arrays((3, 4), -2.0, 2.0, seed=4)
    for clip in (0.5, 100.0):
        expected = t * clip / max(np.sqrt(np.sum(t * t)), clip)
        np.testing.assert_allclose(tf.clip_by_norm(tf.constant(t), clip).numpy(), expected,
                                   rtol=1e-14)


def test_clip_by_norm_special_cases():
    v = tf.constant([3.0, 4.0])
    np.testing.assert_array_equal(tf.clip_by_norm(tf.zeros([2]), 1.0).numpy(), [0.0, 0.0])
    np.testing.assert_array_equal(tf.clip_by_norm(v, -1.0).numpy(), [0.0, 0.0])  # negative -> 0
    np.testing.assert_array_equal(tf.clip_by_norm(v, tf.constant(-1.0)).numpy(), [0.0, 0.0])
    cast = tf.clip_by_norm(v, tf.constant(1.0, tf.float64))  # clip_norm is cast to t's dtype
    assert cast.dtype == tf.float32
    np.testing.assert_allclose(cast.numpy(), [0.6, 0.8], rtol=1e-6)
    np.testing.assert_allclose(tf.clip_by_norm(v, [1.0, 2.0]).numpy(), [0.6, 1.6], rtol=1e-6)
    half = tf.clip_by_norm(tf.constant([3.0, 4.0], tf.float16), 1.0)
    assert half.dtype == tf.float16
    np.testing.assert_allclose(half.numpy(), [0.6, 0.8], rtol=1e-3)


def test_clip_by_norm_gradient_matches_tensorflow():
    w = np.array([[1.0, 2.0], [3.0, 4.0]])
    _, (g,) = _grads(lambda x: tf.reduce_sum(tf.clip_by_norm(x, 1.0) * w), M)
    np.testing.assert_allclose(g, [[-0.12019261109467194, -0.027585189431564072],
                                   [0.5651023092123265, 0.7534697456164354]], rtol=1e-6)


def test_clip_by_norm_gradient_of_a_zero_tensor_is_finite():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        _, (g,) = _grads(lambda x: tf.clip_by_norm(x, 1.0), [0.0, 0.0])
    np.testing.assert_array_equal(g, [1.0, 1.0])  # the double-where trick: no nan


@pytest.mark.parametrize("axes", [None, 0, -1])
@given(shape=small_shapes)
@settings(max_examples=6)
def test_clip_by_norm_gradient_check(axes, shape):
    t = arrays(shape, 0.5, 2.0, seed=5) * np.sign(arrays(shape, -1, 1, seed=6))
    if axes is not None and len(shape) == 0:
        axes = None
    # clip_norm well below every norm (>= 0.5), so the clipping branch is taken, away from the kink
    check_grads(lambda x: tf.clip_by_norm(x, 0.3, axes=axes), t)
    check_grads(lambda x: tf.clip_by_norm(x, 1e3, axes=axes), t)  # no clipping: identity


@given(shape=small_shapes)
@settings(max_examples=4)
def test_clip_by_norm_second_order(shape):
    t = arrays(shape, 0.5, 2.0, seed=7)
    check_grads(lambda x: tf.clip_by_norm(x, 0.3), t, order=2)


def test_clip_by_norm_second_order_over_axes():
    check_grads(lambda x: tf.clip_by_norm(x, 0.4, axes=[1]), arrays((2, 3), 0.5, 2.0, seed=8),
                order=2)


def test_clip_by_norm_gradient_reaches_clip_norm():
    check_grads(lambda x, c: tf.clip_by_norm(x, c), arrays((3,), 0.5, 2.0, seed=9),
                np.array(0.4), wrt=[0, 1])


@pytest.mark.parametrize("t, clip, axes, cls, message", [
    (tf.constant([3, 4]), 1.0, None, tf.errors.InvalidArgumentError,
     r"Value for attr 'T' of int32 is not in the list of allowed values.*\[Op:Sqrt\]"),
    (tf.constant([3.0, 4.0]), 1.0, [1], tf.errors.InvalidArgumentError,
     r"Invalid reduction dimension \(1 for input with 1 dimension\(s\)"),
    (tf.constant([3.0, 4.0]), [[1.0, 2.0]], None, ValueError,
     r"Shapes \(2,\) and \(1, 2\) are incompatible"),
    (tf.constant([3.0 + 4j]), 1.0, None, tf.errors.InvalidArgumentError,
     r"Value for attr 'T' of complex128 is not in the list.*\[Op:Greater\]"),
])
def test_clip_by_norm_errors(t, clip, axes, cls, message):
    with pytest.raises(cls, match=message):
        tf.clip_by_norm(t, clip, axes=axes)


# --- the nan-safe ops -------------------------------------------------------------------------
def test_divide_no_nan_values():
    x = tf.constant([1.0, 0.0, np.nan, np.inf, 3.0])
    y = tf.constant([0.0, 0.0, 0.0, 0.0, 2.0])
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # 0 / 0 is the point of this op: no RuntimeWarning
        out = tf.math.divide_no_nan(x, y)
    assert out.dtype == tf.float32
    np.testing.assert_array_equal(out.numpy(), [0.0, 0.0, 0.0, 0.0, 1.5])


@pytest.mark.parametrize("x, y, dtype", [
    (tf.constant([1, 3]), tf.constant([0, 2]), tf.float64),
    (tf.constant([1, 3], tf.int8), tf.constant([0, 2], tf.int8), tf.float32),
    (tf.constant([1, 3], tf.uint16), tf.constant([0, 2], tf.uint16), tf.float32),
    (tf.constant([1, 3], tf.int64), tf.constant([0, 2], tf.int64), tf.float64),
    ([1, 3], [0, 2], tf.float64),
])
def test_divide_no_nan_divides_integers_as_floats(x, y, dtype):
    out = tf.math.divide_no_nan(x, y)
    assert out.dtype == dtype
    np.testing.assert_array_equal(out.numpy(), [0.0, 1.5])


def test_multiply_no_nan_values():
    out = tf.math.multiply_no_nan(tf.constant([np.nan, np.inf, 2.0, np.nan]),
                                  tf.constant([0.0, 0.0, 3.0, 1.0]))
    assert out.dtype == tf.float32
    np.testing.assert_array_equal(out.numpy(), [0.0, 0.0, 6.0, np.nan])
    assert tf.math.multiply_no_nan(3.0, 2).numpy() == 6.0


def test_xlogy_and_xdivy_values():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        a = tf.math.xlogy(tf.constant([0.0, 0.0, 0.0, 2.0, 2.0, np.nan]),
                          tf.constant([0.0, -1.0, np.nan, 3.0, 0.0, 0.0]))
        b = tf.math.xdivy(tf.constant([0.0, 0.0, 0.0, 2.0, 2.0]),
                          tf.constant([0.0, -1.0, np.nan, 4.0, 0.0]))
    np.testing.assert_allclose(a.numpy(), [0.0, 0.0, 0.0, 2 * np.log(3.0), -np.inf, np.nan],
                               rtol=1e-6)
    np.testing.assert_array_equal(b.numpy(), [0.0, 0.0, 0.0, 0.5, np.inf])
    np.testing.assert_allclose(tf.math.xlogy(tf.constant([3.0]), 2).numpy(), [3 * np.log(2)],
                               rtol=1e-6)
    np.testing.assert_allclose(tf.math.xlogy(2, tf.constant([3.0])).numpy(), [2 * np.log(3)],
                               rtol=1e-6)


def test_complex_inputs_are_allowed():
    x = tf.constant([1 + 1j, 2 + 0j], tf.complex64)
    y = tf.constant([0j, 1 - 1j], tf.complex64)
    for fn in (tf.math.divide_no_nan, tf.math.multiply_no_nan, tf.math.xdivy):
        out = fn(x, y)
        assert out.dtype == tf.complex64
    np.testing.assert_allclose(tf.math.divide_no_nan(x, y).numpy(), [0, (2 + 0j) / (1 - 1j)],
                               rtol=1e-6)


SAFE = {
    "divide_no_nan": tf.math.divide_no_nan,
    "multiply_no_nan": tf.math.multiply_no_nan,
    "xlogy": tf.math.xlogy,
    "xdivy": tf.math.xdivy,
}


@pytest.mark.parametrize("name", sorted(SAFE))
@given(shapes=broadcasting_pair())
@settings(max_examples=8)
def test_safe_op_gradients_over_broadcasting_pairs(name, shapes):
    x = arrays(shapes[0], 0.5, 2.0, seed=10) * np.sign(arrays(shapes[0], -1, 1, seed=11))
    y = arrays(shapes[1], 0.5, 2.0, seed=12)
    check_grads(SAFE[name], x, y)


@pytest.mark.parametrize("name", sorted(SAFE))
def test_safe_op_second_order(name):
    check_grads(SAFE[name], arrays((2, 3), 0.5, 2.0, seed=13), arrays((3,), 0.5, 2.0, seed=14),
                order=2)


@pytest.mark.parametrize("name, gx, gy", [  # gradients at the special points, from TF 2.21
    ("divide_no_nan", [0.0, 0.5, 0.0, 2.0, -1.0, 0.0, 1 / 3, 0.0, np.nan],
     [0.0, -0.0, 0.0, -8.0, -3.0, 0.0, -0.0, 0.0, np.nan]),
    ("multiply_no_nan", [0.0, 2.0, 0.0, 0.5, -1.0, 0.0, 3.0, 0.0, np.nan],
     [0.0, 0.0, 1.5, 2.0, 3.0, np.nan, 0.0, np.inf, 1.0]),
    ("xlogy", [0.0, 0.0, -np.inf, -0.6931471805599453, np.nan, -np.inf, 0.0, -np.inf, np.nan],
     [0.0, 0.0, np.inf, 4.0, -3.0, np.nan, 0.0, np.inf, np.nan]),
    ("xdivy", [0.0, 0.0, np.inf, 2.0, -1.0, np.inf, 0.0, np.inf, np.nan],
     [-0.0, -0.0, -np.inf, -8.0, -3.0, np.nan, -0.0, -np.inf, np.nan]),
])
def test_safe_op_gradients_at_zeros_match_tensorflow(name, gx, gy):
    x = [0.0, 0.0, 1.5, 2.0, 3.0, np.nan, 0.0, np.inf, 1.0]
    y = [0.0, 2.0, 0.0, 0.5, -1.0, 0.0, 3.0, 0.0, np.nan]
    with np.errstate(all="ignore"):
        _, (got_x, got_y) = _grads(SAFE[name], x, y)
    np.testing.assert_allclose(got_x, gx, rtol=1e-12)
    np.testing.assert_allclose(got_y, gy, rtol=1e-12)


def test_multiply_no_nan_gradient_ignores_nan_where_the_upstream_gradient_is_zero():
    x = tf.constant([np.inf, np.nan, 2.0], tf.float64)
    y = tf.constant([1.0, 2.0, 3.0], tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(y)
        z = tf.math.multiply_no_nan(x, y)
    g = tape.gradient(z, y, output_gradients=tf.constant([0.0, 0.0, 1.0], tf.float64))
    np.testing.assert_array_equal(g.numpy(), [0.0, 0.0, 2.0])  # TF: mul_no_nan(x, dy)


@pytest.mark.parametrize("call, cls, message", [
    (lambda: tf.math.divide_no_nan(tf.constant([3.0]), tf.constant([0.0], tf.float64)),
     TypeError, r"`x` and `y` must have the same dtype, got tf.float32 != tf.float64"),
    (lambda: tf.math.divide_no_nan(tf.constant([True]), tf.constant([True])),
     TypeError, r"Invalid dtype tf.bool in tf.math.divide_no_nan"),
    (lambda: tf.math.divide_no_nan(tf.ones([2, 3]), tf.ones([2])),
     tf.errors.InvalidArgumentError, r"Incompatible shapes: \[2,3\] vs. \[2\] \[Op:DivNoNan\]"),
    (lambda: tf.math.multiply_no_nan(tf.constant([3.0]), tf.constant([0.0], tf.float64)),
     ValueError, r"requested dtype float32 for Tensor with dtype float64"),
    (lambda: tf.math.multiply_no_nan(3, 2.0), TypeError,  # y is converted to x's dtype
     r"Cannot convert 2.0 to EagerTensor of dtype int32"),
    (lambda: tf.math.multiply_no_nan(tf.constant([3]), tf.constant([2])),
     tf.errors.InvalidArgumentError,
     r"Value for attr 'T' of int32 is not in the list of allowed values: half, float, double, "
     r"complex64, complex128 \[Op:MulNoNan\]"),
    (lambda: tf.math.xlogy(tf.constant([3.0]), tf.constant([0.0], tf.float64)),
     tf.errors.InvalidArgumentError,
     r"cannot compute Xlogy as input #1\(zero-based\) was expected to be a float tensor but is "
     r"a double tensor"),
    (lambda: tf.math.xlogy(2, 3), tf.errors.InvalidArgumentError,
     r"Value for attr 'T' of int32 is not in the list of allowed values.*\[Op:Xlogy\]"),
    (lambda: tf.math.xdivy(tf.ones([2, 3]), tf.ones([2])),
     tf.errors.InvalidArgumentError, r"Incompatible shapes: \[2,3\] vs. \[2\] \[Op:Xdivy\]"),
])
def test_safe_op_errors(call, cls, message):
    with pytest.raises(cls, match=message):
        call()


def test_public_names():
    assert tf.clip_by_value.__name__ == "clip_by_value"
    assert tf.clip_by_norm.__name__ == "clip_by_norm"
    for name in SAFE:
        # unwrap: once tf.ragged is imported, its dispatch wraps the ops TF lets take ragged input
        assert inspect.unwrap(getattr(tf.math, name)) is inspect.unwrap(SAFE[name])
