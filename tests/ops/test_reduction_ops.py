"""Reductions (max, min, prod, all, any, std, variance, logsumexp, euclidean norm,
count_nonzero, and the lead's sum/mean): values, dtypes, axes, gradients, errors."""
import numpy as np
import pytest
from gradcheck import check_grads
from hypothesis import given
from hypothesis import strategies as st
from strategies import arrays, small_shapes

import minitf as tf


@st.composite
def shape_and_axis(draw):
    """A shape with an axis argument: None, [], an int (maybe negative) or a list."""
    shape = draw(small_shapes)
    rank = len(shape)
    kind = draw(st.sampled_from(["none", "empty", "int", "list"] if rank else ["none", "empty"]))
    if kind == "none":
        return shape, None
    if kind == "empty":
        return shape, []
    if kind == "int":
        return shape, draw(st.integers(-rank, rank - 1))
    axes = draw(st.lists(st.integers(0, rank - 1), min_size=1, max_size=rank, unique=True))
    return shape, [a - rank if draw(st.booleans()) else a for a in axes]


def np_axis(axis):
    return tuple(axis) if isinstance(axis, list) else axis


def np_logsumexp(x, axis=None, keepdims=False):
    return np.log(np.sum(np.exp(x), axis=axis, keepdims=keepdims))


def np_euclidean_norm(x, axis=None, keepdims=False):
    return np.sqrt(np.sum(x * x, axis=axis, keepdims=keepdims))


FLOAT_REDUCTIONS = {  # minitf function, NumPy reference
    "reduce_sum": (tf.reduce_sum, np.sum),
    "reduce_mean": (tf.reduce_mean, np.mean),
    "reduce_max": (tf.reduce_max, np.max),
    "reduce_min": (tf.reduce_min, np.min),
    "reduce_prod": (tf.reduce_prod, np.prod),
    "reduce_logsumexp": (tf.reduce_logsumexp, np_logsumexp),
    "reduce_euclidean_norm": (tf.math.reduce_euclidean_norm, np_euclidean_norm),
    "reduce_variance": (tf.math.reduce_variance, np.var),
    "reduce_std": (tf.math.reduce_std, np.std),
}


# --- public names -------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["reduce_max", "reduce_min", "reduce_prod", "reduce_all",
                                  "reduce_any", "reduce_logsumexp"])
def test_math_and_top_level_names_are_the_same_function(name):
    assert getattr(tf.math, name) is getattr(tf, name)


@pytest.mark.parametrize("name", ["reduce_std", "reduce_variance", "reduce_euclidean_norm",
                                  "count_nonzero"])
def test_names_only_under_tf_math(name):
    assert callable(getattr(tf.math, name))
    assert not hasattr(tf, name)  # as in TF 2.21


# --- values and dtypes ------------------------------------------------------------------------
@pytest.mark.parametrize("name", sorted(FLOAT_REDUCTIONS))
@given(case=shape_and_axis(), keepdims=st.booleans())
def test_float_reductions_match_numpy(name, case, keepdims):
    shape, axis = case
    tf_fn, np_fn = FLOAT_REDUCTIONS[name]
    x = arrays(shape, -2.0, 2.0, seed=1).astype(np.float32)
    out = tf_fn(tf.constant(x), axis=axis, keepdims=keepdims)
    expected = np_fn(x.astype(np.float64), axis=np_axis(axis), keepdims=keepdims)
    assert out.dtype == tf.float32
    assert out.shape.as_list() == list(np.shape(expected))
    np.testing.assert_allclose(out.numpy(), expected, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("fn,np_fn", [(tf.reduce_all, np.all), (tf.reduce_any, np.any)])
@given(case=shape_and_axis(), keepdims=st.booleans())
def test_logical_reductions_match_numpy(fn, np_fn, case, keepdims):
    shape, axis = case
    x = arrays(shape, seed=2) > 0.5
    out = fn(tf.constant(x), axis=axis, keepdims=keepdims)
    assert out.dtype == tf.bool
    np.testing.assert_array_equal(out.numpy(), np_fn(x, axis=np_axis(axis), keepdims=keepdims))


@pytest.mark.parametrize("dtype", ["int32", "int64", "uint8", "float64", "float16"])
@pytest.mark.parametrize("fn,np_fn", [(tf.reduce_max, np.max), (tf.reduce_min, np.min),
                                      (tf.reduce_prod, np.prod)])
def test_max_min_prod_keep_the_dtype(fn, np_fn, dtype):
    x = np.array([[1, 5, 3], [4, 2, 6]], dtype=dtype)
    out = fn(tf.constant(x), axis=1)
    assert out.dtype.name == dtype
    np.testing.assert_array_equal(out.numpy(), np_fn(x, axis=1).astype(dtype))


def test_integer_prod_wraps_around_like_tf():
    out = tf.reduce_prod(tf.constant([200, 2], tf.uint8))
    assert out.dtype == tf.uint8 and out.numpy() == 144  # 400 mod 256


def test_complex_prod():
    out = tf.reduce_prod(tf.constant([1 + 2j, 3j]))
    assert out.dtype == tf.complex128 and out.numpy() == (-6 + 3j)


def test_axis_as_tensor_and_nested_list():
    x = tf.constant([[1.0, 5.0, 3.0], [4.0, 2.0, 6.0]])
    assert tf.reduce_max(x, axis=tf.constant(1, tf.int64)).numpy().tolist() == [5.0, 6.0]
    assert tf.reduce_min(x, axis=tf.constant([0, 1])).numpy() == 1.0
    assert tf.reduce_prod(x, axis=[[0], [1]]).numpy() == 720.0  # TF flattens axis lists


def test_scalar_input_with_no_axis():
    for fn in (tf.reduce_max, tf.reduce_min, tf.reduce_prod, tf.reduce_logsumexp):
        out = fn(tf.constant(3.0))
        assert out.shape == tf.TensorShape([]) and out.numpy() == pytest.approx(3.0)


@pytest.mark.parametrize("fn,float_value,int_value", [
    (tf.reduce_max, -np.inf, np.iinfo(np.int32).min),
    (tf.reduce_min, np.inf, np.iinfo(np.int32).max),
    (tf.reduce_prod, 1.0, 1),
    (tf.math.reduce_euclidean_norm, 0.0, 0),
])
def test_reducing_an_empty_axis_gives_the_identity(fn, float_value, int_value):
    out = fn(tf.zeros([2, 0]), axis=1)
    assert out.shape.as_list() == [2] and out.numpy().tolist() == [float_value] * 2
    out = fn(tf.zeros([2, 0], tf.int32), axis=1)
    assert out.dtype == tf.int32 and out.numpy().tolist() == [int_value] * 2


def test_empty_axis_special_values():
    empty = tf.zeros([2, 0])
    assert tf.reduce_logsumexp(empty, axis=1).numpy().tolist() == [-np.inf, -np.inf]
    assert np.isnan(tf.math.reduce_variance(empty, axis=1).numpy()).all()
    assert np.isnan(tf.math.reduce_std(empty, axis=1).numpy()).all()
    assert tf.reduce_all(tf.zeros([2, 0], tf.bool), axis=1).numpy().tolist() == [True, True]
    assert tf.reduce_any(tf.zeros([2, 0], tf.bool), axis=1).numpy().tolist() == [False, False]
    assert tf.math.count_nonzero(empty, axis=1).numpy().tolist() == [0, 0]


def test_an_empty_axis_list_reduces_nothing():
    x = np.array([[1.0, 5.0], [4.0, 2.0]], np.float32)
    for fn in (tf.reduce_max, tf.reduce_min, tf.reduce_prod, tf.reduce_logsumexp,
               tf.math.reduce_euclidean_norm):
        np.testing.assert_allclose(fn(tf.constant(x), axis=[]).numpy(), x, rtol=1e-6)
    assert tf.math.reduce_variance(tf.constant(x), axis=[]).numpy().tolist() == [[0, 0], [0, 0]]


def test_nan_propagates_through_max_and_min():
    assert np.isnan(tf.reduce_max(tf.constant([1.0, np.nan, 2.0])).numpy())
    assert np.isnan(tf.reduce_min(tf.constant([np.nan, 1.0])).numpy())


def test_logsumexp_is_stable():
    out = tf.reduce_logsumexp(tf.constant([1000.0, 1000.0]))
    assert out.numpy() == pytest.approx(1000.0 + np.log(2.0))
    out = tf.reduce_logsumexp(tf.constant([-1000.0, -1000.0], tf.float64))
    assert out.numpy() == pytest.approx(-1000.0 + np.log(2.0))
    assert tf.reduce_logsumexp(tf.constant([-np.inf, -np.inf])).numpy() == -np.inf
    assert tf.reduce_logsumexp(tf.constant([np.inf, 1.0])).numpy() == np.inf


def test_logsumexp_float16_and_float64():
    x = np.array([[1.0, 2.0], [3.0, 5.0]])
    for dtype in (tf.float16, tf.float64):
        out = tf.reduce_logsumexp(tf.constant(x, dtype), axis=1)
        assert out.dtype == dtype
        np.testing.assert_allclose(out.numpy(), np_logsumexp(x, axis=1), rtol=1e-3)


def test_euclidean_norm_of_integers_truncates_and_wraps_like_tf():
    x = tf.constant([[1, 2, 3], [1, 1, 1]])
    out = tf.math.reduce_euclidean_norm(x)
    assert out.dtype == tf.int32 and out.numpy() == 4  # sqrt(17) = 4.12...
    assert tf.math.reduce_euclidean_norm(tf.constant([[-3, 4]]), axis=1).numpy().tolist() == [5]
    # TF sums the squares in uint8: 400 + 400 = 800 wraps to 32, sqrt(32) = 5.66 -> 5
    assert tf.math.reduce_euclidean_norm(tf.constant([20, 20], tf.uint8)).numpy() == 5


def test_variance_and_std_values():
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    assert tf.math.reduce_variance(x).numpy() == pytest.approx(1.25)
    assert tf.math.reduce_std(x, axis=0).numpy().tolist() == [1.0, 1.0]
    out = tf.math.reduce_variance(tf.constant([[1.0, 2.0], [3.0, 5.0]]), axis=-1, keepdims=True)
    assert out.shape.as_list() == [2, 1] and out.numpy().ravel().tolist() == [0.25, 1.0]
    assert tf.math.reduce_std(tf.constant([1.0, 2.0], tf.float16)).dtype == tf.float16


def test_complex_variance_and_std_are_real():
    out = tf.math.reduce_variance(tf.constant([1 + 2j, 3j]))
    assert out.dtype == tf.float64 and out.numpy() == pytest.approx(0.5)
    x = tf.constant([[1 + 2j, 3j], [2 - 1j, 0.5 + 0j]], tf.complex64)
    out = tf.math.reduce_variance(x, axis=0)
    assert out.dtype == tf.float32 and out.numpy().tolist() == [2.5, 2.3125]
    out = tf.math.reduce_std(x, axis=1, keepdims=True)
    assert out.dtype == tf.float32 and out.shape.as_list() == [2, 1]
    np.testing.assert_allclose(out.numpy().ravel(), [0.70710677, 0.9013878], rtol=1e-6)


def test_complex_std_gradient_matches_tf():
    x = tf.constant([[1 + 2j, 3j], [2 - 1j, 0.5 + 0j]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.math.reduce_std(x, axis=0) * tf.constant([1.0, 2.0], tf.float64)
    expected = [[-0.15811388 + 0.47434165j, -0.16439899 + 0.98639392j],
                [0.15811388 - 0.47434165j, 0.16439899 - 0.98639392j]]  # from TF 2.21
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), expected, rtol=1e-6)


def test_integer_variance_is_a_type_error():
    for fn in (tf.math.reduce_variance, tf.math.reduce_std):
        with pytest.raises(TypeError, match="Input must be either real or complex. Received "
                                            "integer type"):
            fn(tf.constant([[1, 2], [3, 4]]), axis=0)


@given(case=shape_and_axis(), keepdims=st.booleans())
def test_count_nonzero_matches_numpy(case, keepdims):
    shape, axis = case
    x = np.round(arrays(shape, -1.0, 1.0, seed=3)).astype(np.float32)  # plenty of zeros
    out = tf.math.count_nonzero(tf.constant(x), axis=axis, keepdims=keepdims)
    expected = np.sum(x != 0, axis=np_axis(axis), keepdims=keepdims)
    assert out.dtype == tf.int64
    np.testing.assert_array_equal(out.numpy(), expected)


def test_count_nonzero_dtypes_and_inputs():
    x = tf.constant([[0, 1], [0, 2]])
    out = tf.math.count_nonzero(x, axis=1, dtype=tf.int32)
    assert out.dtype == tf.int32 and out.numpy().tolist() == [1, 1]
    assert tf.math.count_nonzero(x, keepdims=True).numpy().tolist() == [[2]]
    assert tf.math.count_nonzero(tf.constant([True, False, True])).numpy() == 2
    assert tf.math.count_nonzero(tf.constant(["", "a", "  "])).numpy() == 2
    assert tf.math.count_nonzero(tf.constant([1 + 0j, 0j])).numpy() == 1
    out = tf.math.count_nonzero(tf.constant([1.0, 0.0]), dtype=tf.float32)
    assert out.dtype == tf.float32 and out.numpy() == 1.0


def test_sum_and_mean_still_behave():
    x = tf.constant([[1, 2], [3, 4]])
    assert tf.reduce_sum(x, axis=0).numpy().tolist() == [4, 6]
    assert tf.reduce_mean(x, axis=1).numpy().tolist() == [1, 3]  # truncated integer mean
    assert tf.reduce_sum(x).dtype == tf.int32


# --- gradients ------------------------------------------------------------------------------
SMOOTH = ["reduce_sum", "reduce_mean", "reduce_prod", "reduce_logsumexp", "reduce_variance",
          "reduce_max", "reduce_min", "reduce_euclidean_norm"]


@pytest.mark.parametrize("name", SMOOTH)
@given(case=shape_and_axis(), keepdims=st.booleans())
def test_first_order_gradients(name, case, keepdims):
    shape, axis = case
    tf_fn = FLOAT_REDUCTIONS[name][0]
    x = arrays(shape, 0.5, 1.5, seed=4) * np.where(arrays(shape, seed=5) > 0, 1, -1)
    check_grads(lambda t: tf_fn(t, axis=axis, keepdims=keepdims), x)


@pytest.mark.parametrize("shape,axis,keepdims", [((3,), None, False), ((2, 3), 1, True),
                                                 ((2, 3, 2), [0, -1], False), ((4, 1), 0, False)])
def test_std_gradient(shape, axis, keepdims):
    x = arrays(shape, -2.0, 2.0, seed=6)  # every reduced slice has >= 2 distinct values
    check_grads(lambda t: tf.math.reduce_std(t, axis=axis, keepdims=keepdims), x)


@pytest.mark.parametrize("name", ["reduce_logsumexp", "reduce_prod", "reduce_variance"])
@pytest.mark.parametrize("shape,axis,keepdims", [((3,), None, False), ((2, 3), 1, True),
                                                 ((2, 1, 3), [0, 2], False)])
def test_second_order_gradients(name, shape, axis, keepdims):
    tf_fn = FLOAT_REDUCTIONS[name][0]
    x = arrays(shape, 0.5, 1.5, seed=7) * np.where(arrays(shape, seed=8) > 0, 1, -1)
    check_grads(lambda t: tf_fn(t, axis=axis, keepdims=keepdims), x, order=2)


def gradient(f, x):
    x = tf.constant(np.array(x, np.float64))
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return tape.gradient(y, x).numpy()


def test_max_and_min_split_the_gradient_among_ties():
    x = [[1.0, 3.0, 3.0], [2.0, 2.0, 2.0]]
    np.testing.assert_allclose(gradient(lambda t: tf.reduce_max(t, axis=1), x),
                               [[0, 0.5, 0.5], [1 / 3, 1 / 3, 1 / 3]])
    x = [[1.0, 3.0, 3.0], [1.0, 2.0, 0.0]]
    np.testing.assert_allclose(gradient(lambda t: tf.reduce_min(t, axis=0, keepdims=True), x),
                               [[0.5, 0, 0], [0.5, 1, 1]])


@pytest.mark.parametrize("x", [[[1.0, 0.0, 3.0], [2.0, 0.0, 0.0]],
                               [[0.0, 2.0, -1.5], [1.0, 0.5, 4.0]]])
def test_prod_gradient_with_zeros(x):
    check_grads(lambda t: tf.reduce_prod(t, axis=1), np.array(x))
    check_grads(lambda t: tf.reduce_prod(t), np.array(x))
    # one zero: only the zero entry gets a gradient, the product of the others
    np.testing.assert_allclose(gradient(lambda t: tf.reduce_prod(t), [[1.0, 0.0, 3.0]]),
                               [[0.0, 3.0, 0.0]])


def test_logsumexp_gradient_is_the_softmax():
    x = np.array([[1.0, 2.0, 3.0], [-np.inf, 0.0, 1.0]])
    softmax = np.exp(x) / np.sum(np.exp(x), axis=1, keepdims=True)
    np.testing.assert_allclose(gradient(lambda t: tf.reduce_logsumexp(t, axis=1), x), softmax)
    big = gradient(lambda t: tf.reduce_logsumexp(t), [1000.0, 1000.0])
    np.testing.assert_allclose(big, [0.5, 0.5])


@pytest.mark.filterwarnings("ignore:invalid value:RuntimeWarning")  # 0 / 0, silent in TF
def test_euclidean_norm_gradient_at_zero_is_nan_like_tf():
    g = gradient(lambda t: tf.math.reduce_euclidean_norm(t, axis=1), [[3.0, 4.0], [0.0, 0.0]])
    np.testing.assert_allclose(g[0], [0.6, 0.8])
    assert np.isnan(g[1]).all()


def test_integer_and_bool_reductions_have_no_gradient():
    x = tf.constant([1, 2, 3])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.reduce_max(x)
    assert tape.gradient(y, x) is None


# --- errors ---------------------------------------------------------------------------------
ERRORS = [
    (lambda: tf.reduce_max(tf.constant([1.0, 2.0]), axis=3), tf.errors.InvalidArgumentError,
     r"Invalid reduction dimension \(3 for input with 1 dimension\(s\) \[Op:Max\]"),
    (lambda: tf.reduce_min(tf.zeros([2, 3]), axis=-3), tf.errors.InvalidArgumentError,
     r"Invalid reduction dimension \(-3 for input with 2 dimension\(s\) \[Op:Min\]"),
    (lambda: tf.reduce_prod(tf.constant(3.0), axis=0), tf.errors.InvalidArgumentError,
     r"Invalid reduction dimension \(0 for input with 0 dimension\(s\) \[Op:Prod\]"),
    (lambda: tf.reduce_logsumexp(tf.zeros([2]), axis=[1]), tf.errors.InvalidArgumentError,
     r"Invalid reduction dimension \(1 for input with 1 dimension\(s\)"),
    (lambda: tf.math.reduce_variance(tf.zeros([2]), axis=3), tf.errors.InvalidArgumentError,
     r"Invalid reduction dimension \(3 for input with 1 dimension\(s\) \[Op:Mean\]"),
    (lambda: tf.math.count_nonzero(tf.zeros([2]), axis=5), tf.errors.InvalidArgumentError,
     r"Invalid reduction dimension \(5 for input with 1 dimension\(s\) \[Op:Sum\]"),
    (lambda: tf.math.reduce_euclidean_norm(tf.zeros([2]), axis=1),
     tf.errors.InvalidArgumentError, r"\(1 for input with 1 dimension\(s\) \[Op:EuclideanNorm\]"),
    (lambda: tf.reduce_all(tf.constant([True]), axis=3), tf.errors.InvalidArgumentError,
     r"Invalid reduction dimension \(3 for input with 1 dimension\(s\) \[Op:All\]"),
    (lambda: tf.reduce_prod(tf.zeros([2, 3]), axis=[0, -2]), tf.errors.InvalidArgumentError,
     r"Axes contains duplicate dimension: 0"),
    (lambda: tf.reduce_max(tf.zeros([2, 3]), axis=1.5), TypeError,
     r"Cannot convert 1.5 to EagerTensor of dtype int32"),
    (lambda: tf.reduce_max(tf.constant([True])), tf.errors.InvalidArgumentError,
     r"Value for attr 'T' of bool is not in the list of allowed values.*\[Op:Max\]"),
    (lambda: tf.reduce_min(tf.constant([1 + 2j])), tf.errors.InvalidArgumentError,
     r"attr 'T' of complex128 is not in the list of allowed values"),
    (lambda: tf.reduce_prod(tf.constant([True])), tf.errors.InvalidArgumentError,
     r"attr 'T' of bool is not in the list of allowed values.*\[Op:Prod\]"),
    (lambda: tf.reduce_logsumexp(tf.constant([1, 2])), tf.errors.InvalidArgumentError,
     r"attr 'T' of int32 is not in the list of allowed values: half, float, double"),
    (lambda: tf.reduce_all(tf.constant([1.0])), tf.errors.InvalidArgumentError,
     r"cannot compute All as input #0\(zero-based\) was expected to be a bool tensor but is a "
     r"float tensor \[Op:All\]"),
    (lambda: tf.reduce_any(tf.constant([1])), tf.errors.InvalidArgumentError,
     r"cannot compute Any as input #0\(zero-based\) was expected to be a bool tensor but is a "
     r"int32 tensor"),
]


@pytest.mark.parametrize("call,error,match", ERRORS)
def test_errors(call, error, match):
    with pytest.raises(error, match=match):
        call()
