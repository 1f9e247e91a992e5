"""cumsum and cumprod: values (exclusive, reverse, any axis), dtypes, gradients, errors."""
import numpy as np
import pytest
from gradcheck import check_grads
from hypothesis import given
from hypothesis import strategies as st
from strategies import arrays, small_shapes

import minitf as tf


def np_scan(ufunc, x, axis, exclusive, reverse):
    """An independent reference: output i combines the entries the options select."""
    x = np.moveaxis(x, axis, -1)
    n = x.shape[-1]
    out = np.empty_like(x)
    for i in range(n):
        chosen = range(i, n) if reverse else range(0, i + 1)
        chosen = [j for j in chosen if not (exclusive and j == i)]
        out[..., i] = ufunc.reduce(x[..., chosen], axis=-1)  # identity when nothing is chosen
    return np.moveaxis(out, -1, axis)


SCANS = {"cumsum": (tf.cumsum, np.add), "cumprod": (tf.math.cumprod, np.multiply)}


@st.composite
def scan_case(draw):
    shape = draw(small_shapes.filter(lambda s: len(s) > 0))
    axis = draw(st.integers(-len(shape), len(shape) - 1))
    return shape, axis, draw(st.booleans()), draw(st.booleans())


def test_names():
    assert tf.cumsum is tf.math.cumsum
    assert callable(tf.math.cumprod) and not hasattr(tf, "cumprod")  # as in TF 2.21


def test_documented_examples():
    x = tf.constant([[1.0, 5.0, 3.0], [4.0, 2.0, 6.0]])
    assert tf.cumsum(x).numpy().tolist() == [[1, 5, 3], [5, 7, 9]]  # axis defaults to 0
    out = tf.cumsum(x, axis=1, exclusive=True, reverse=True)
    assert out.numpy().tolist() == [[8, 3, 0], [8, 6, 0]]
    out = tf.math.cumprod(x, axis=1, exclusive=True)
    assert out.numpy().tolist() == [[1, 1, 5], [1, 4, 8]]
    out = tf.math.cumprod(x, axis=-1, exclusive=True, reverse=True)
    assert out.numpy().tolist() == [[15, 3, 1], [12, 6, 1]]


@pytest.mark.parametrize("name", sorted(SCANS))
@given(case=scan_case())
def test_values_match_reference(name, case):
    shape, axis, exclusive, reverse = case
    tf_fn, ufunc = SCANS[name]
    x = arrays(shape, -2.0, 2.0, seed=1).astype(np.float32)
    out = tf_fn(tf.constant(x), axis=axis, exclusive=exclusive, reverse=reverse)
    assert out.dtype == tf.float32 and out.shape.as_list() == list(shape)
    np.testing.assert_allclose(out.numpy(), np_scan(ufunc, x, axis, exclusive, reverse),
                               rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("dtype", ["int32", "int64", "uint8", "float16", "float64",
                                   "complex64"])
@pytest.mark.parametrize("name", sorted(SCANS))
def test_dtypes_are_kept(name, dtype):
    tf_fn, ufunc = SCANS[name]
    x = np.array([[1, 2, 3], [4, 5, 6]], dtype=dtype)
    out = tf_fn(tf.constant(x), axis=1)
    assert out.dtype.name == dtype
    np.testing.assert_array_equal(out.numpy(), ufunc.accumulate(x, axis=1, dtype=dtype))


def test_integer_overflow_wraps_like_tf():
    assert tf.cumsum(tf.constant([200, 200], tf.uint8)).numpy().tolist() == [200, 144]


def test_axis_as_a_tensor_and_empty_axis():
    x = tf.constant([[1.0, 5.0, 3.0], [4.0, 2.0, 6.0]])
    assert tf.cumsum(x, axis=tf.constant(1)).numpy().tolist() == [[1, 6, 9], [4, 6, 12]]
    assert tf.cumsum(tf.zeros([0, 2]), exclusive=True).shape.as_list() == [0, 2]


# --- gradients ---------------------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(SCANS))
@given(case=scan_case())
def test_first_order_gradients(name, case):
    shape, axis, exclusive, reverse = case
    tf_fn = SCANS[name][0]
    x = arrays(shape, 0.5, 1.5, seed=2) * np.where(arrays(shape, seed=3) > 0, 1, -1)
    check_grads(lambda t: tf_fn(t, axis=axis, exclusive=exclusive, reverse=reverse), x)


@pytest.mark.parametrize("name", sorted(SCANS))
@pytest.mark.parametrize("axis,exclusive,reverse", [(0, False, False), (1, True, False),
                                                    (-1, False, True), (0, True, True)])
def test_second_order_gradients(name, axis, exclusive, reverse):
    tf_fn = SCANS[name][0]
    x = arrays((2, 3), 0.5, 1.5, seed=4)
    # square the scan so the second derivative is not zero
    check_grads(lambda t: tf.square(tf_fn(t, axis=axis, exclusive=exclusive, reverse=reverse)),
                x, order=2)


def gradient(f, x):
    x = tf.constant(np.array(x, np.float64))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return tape.gradient(y, x).numpy()


def test_cumsum_gradient_is_a_reverse_cumsum():
    g = gradient(lambda t: tf.cumsum(t) * tf.constant([1.0, 10.0, 100.0], tf.float64),
                 [1.0, 2.0, 3.0])
    assert g.tolist() == [111.0, 110.0, 100.0]


def test_cumprod_gradient_at_an_exact_zero_is_zero_like_tf():
    # TF divides by x with div_no_nan, so the entry that is exactly 0 gets gradient 0
    # (the true partial derivative there is 1 + 3 = 4), the others are exact.
    g = gradient(lambda t: tf.math.cumprod(t, axis=1), [[1.0, 0.0, 3.0], [2.0, 0.0, 0.0]])
    assert g.tolist() == [[1.0, 0.0, 0.0], [1.0, 0.0, 0.0]]


def test_integer_scans_have_no_gradient():
    x = tf.constant([1, 2, 3])
    for fn in (tf.cumsum, tf.math.cumprod):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = fn(x)
        assert tape.gradient(y, x) is None


# --- errors ----------------------------------------------------------------------------
ERRORS = [
    (lambda: tf.cumsum(tf.zeros([2, 3]), axis=2), tf.errors.InvalidArgumentError,
     r"ScanOp: Expected scan axis in the range \[-2, 2\), but got 2 \[Op:Cumsum\]"),
    (lambda: tf.cumsum(tf.zeros([2, 3]), axis=-3), tf.errors.InvalidArgumentError,
     r"ScanOp: Expected scan axis in the range \[-2, 2\), but got -1"),
    (lambda: tf.math.cumprod(tf.zeros([2, 3]), axis=7), tf.errors.InvalidArgumentError,
     r"ScanOp: Expected scan axis in the range \[-2, 2\), but got 7 \[Op:Cumprod\]"),
    (lambda: tf.cumsum(tf.constant(3.0)), tf.errors.InvalidArgumentError,
     r"ScanOp: Expected scan axis in the range \[0, 0\), but got 0"),
    (lambda: tf.cumsum(tf.zeros([2, 3]), axis=[1]), tf.errors.InvalidArgumentError,
     r"ScanOp: axis must be a scalar, not \[1\]"),
    (lambda: tf.cumsum(tf.zeros([2, 3]), axis=1.0), TypeError,
     r"Cannot convert 1.0 to EagerTensor of dtype int32"),
    (lambda: tf.cumsum(tf.constant([True])), tf.errors.InvalidArgumentError,
     r"Value for attr 'T' of bool is not in the list of allowed values.*\[Op:Cumsum\]"),
    (lambda: tf.math.cumprod(tf.constant(["a"])), tf.errors.InvalidArgumentError,
     r"Value for attr 'T' of string is not in the list of allowed values"),
]


@pytest.mark.parametrize("call,error,match", ERRORS)
def test_errors(call, error, match):
    with pytest.raises(error, match=match):
        call()
