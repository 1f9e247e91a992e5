"""argmax/argmin, sort/argsort, top_k and unique: values, ties, dtypes, gradients, errors."""
import numpy as np
import pytest
from gradcheck import check_grads
from hypothesis import given
from hypothesis import strategies as st
from strategies import arrays, small_shapes

import minitf as tf
from minitf.ops.sort_ops import put_along_axis

nonscalar_shapes = small_shapes.filter(lambda s: len(s) > 0)


@st.composite
def shape_and_axis(draw):
    shape = draw(nonscalar_shapes)
    return shape, draw(st.integers(-len(shape), len(shape) - 1))


def test_names():
    assert tf.argmax is tf.math.argmax and tf.argmin is tf.math.argmin
    assert tf.math.top_k is tf.nn.top_k
    assert callable(tf.sort) and callable(tf.argsort) and callable(tf.unique)


# --- argmax / argmin -------------------------------------------------------------------------
@pytest.mark.parametrize("fn,np_fn", [(tf.argmax, np.argmax), (tf.argmin, np.argmin)])
@given(case=shape_and_axis())
def test_arg_reductions_match_numpy(fn, np_fn, case):
    shape, axis = case
    x = arrays(shape, seed=1).astype(np.float32)
    out = fn(tf.constant(x), axis=axis)
    assert out.dtype == tf.int64  # TF's default output_type
    np.testing.assert_array_equal(out.numpy(), np_fn(x, axis=axis))


def test_argmax_defaults_to_axis_0_and_first_tie():
    x = tf.constant([[1.0, 5.0, 3.0], [4.0, 2.0, 6.0]])
    assert tf.argmax(x).numpy().tolist() == [1, 0, 1]
    assert tf.argmin(x).numpy().tolist() == [0, 1, 0]
    assert tf.argmax(tf.constant([0, 0, 0, 0])).numpy() == 0
    assert tf.argmax(tf.constant([1, 3, 3], tf.uint8)).numpy() == 1


@pytest.mark.parametrize("output_type", [tf.int16, tf.uint16, tf.int32, tf.int64])
def test_argmax_output_type(output_type):
    out = tf.argmax(tf.constant([[2.0, 1.0], [0.0, 3.0]]), axis=1, output_type=output_type)
    assert out.dtype == output_type and out.numpy().tolist() == [0, 1]


@pytest.mark.parametrize("output_type", [tf.int32, tf.int64])
def test_argmin_output_type(output_type):
    out = tf.argmin(tf.constant([[2.0, 1.0], [0.0, 3.0]]), axis=1, output_type=output_type)
    assert out.dtype == output_type and out.numpy().tolist() == [1, 0]


def test_arg_reductions_of_bools_and_tensor_axis():
    b = tf.constant([True, False, True])
    assert tf.argmax(b).numpy() == 0 and tf.argmin(b).numpy() == 1
    assert tf.argmax(tf.constant([[1, 9], [8, 2]]), axis=tf.constant(1)).numpy().tolist() == [1, 0]
    assert tf.argmax(tf.zeros([0, 2]), axis=1).shape.as_list() == [0]


def test_arg_reductions_never_pick_nan_like_tf():
    assert tf.argmax(tf.constant([1.0, np.nan, 3.0])).numpy() == 2
    assert tf.argmax(tf.constant([np.nan, 1.0, 3.0])).numpy() == 2
    assert tf.argmin(tf.constant([np.nan, 1.0, 3.0])).numpy() == 1
    assert tf.argmin(tf.constant([1.0, np.nan, 0.0])).numpy() == 2


def test_argmax_has_no_gradient():
    x = tf.constant([1.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.cast(tf.argmax(x), tf.float32) * x
    assert tape.gradient(y, x).numpy().tolist() == [1.0, 1.0]  # only through the product


# --- sort / argsort -----------------------------------------------------------------------
@pytest.mark.parametrize("direction", ["ASCENDING", "DESCENDING"])
@given(case=shape_and_axis())
def test_sort_and_argsort_match_numpy(direction, case):
    shape, axis = case
    x = np.round(arrays(shape, -2.0, 2.0, seed=2) * 2).astype(np.float32)  # many ties
    key = x if direction == "ASCENDING" else -x
    order = np.argsort(key, axis=axis, kind="stable")
    values = tf.sort(tf.constant(x), axis=axis, direction=direction)
    indices = tf.argsort(tf.constant(x), axis=axis, direction=direction)
    assert values.dtype == tf.float32 and indices.dtype == tf.int32
    np.testing.assert_array_equal(values.numpy(), np.take_along_axis(x, order, axis))
    np.testing.assert_array_equal(indices.numpy(), order)


def test_ties_keep_their_order_both_ways():
    x = tf.constant([3.0, 1.0, 3.0, 1.0])
    assert tf.argsort(x).numpy().tolist() == [1, 3, 0, 2]
    assert tf.argsort(x, direction="DESCENDING").numpy().tolist() == [0, 2, 1, 3]
    assert tf.argsort(x, direction="DESCENDING", stable=True).numpy().tolist() == [0, 2, 1, 3]


@pytest.mark.parametrize("dtype", ["int8", "int32", "int64", "uint8", "uint16", "float16",
                                   "float64"])
def test_sort_integer_and_float_dtypes(dtype):
    x = np.array([3, 1, 2, 0], dtype=dtype)
    assert tf.sort(tf.constant(x)).dtype.name == dtype
    assert tf.sort(tf.constant(x)).numpy().tolist() == [0, 1, 2, 3]
    assert tf.sort(tf.constant(x), direction="DESCENDING").numpy().tolist() == [3, 2, 1, 0]


def test_sort_along_axis_0_and_empty():
    x = tf.constant([[1.0, 5.0, 3.0], [4.0, 2.0, 6.0]])
    out = tf.sort(x, axis=0, direction="DESCENDING")
    assert out.numpy().tolist() == [[4, 5, 6], [1, 2, 3]]
    assert tf.argsort(x, axis=tf.constant(0)).numpy().tolist() == [[0, 1, 0], [1, 0, 1]]
    assert tf.sort(tf.zeros([2, 0])).shape.as_list() == [2, 0]


def test_ascending_sort_puts_nan_last():
    out = tf.sort(tf.constant([3.0, np.nan, 1.0]))
    assert out.numpy()[:2].tolist() == [1.0, 3.0] and np.isnan(out.numpy()[2])
    assert tf.argsort(tf.constant([3.0, np.nan, 1.0])).numpy().tolist() == [2, 0, 1]


@pytest.mark.parametrize("direction", ["ASCENDING", "DESCENDING"])
@given(case=shape_and_axis())
def test_sort_gradient(direction, case):
    shape, axis = case
    x = arrays(shape, -2.0, 2.0, seed=3)  # distinct values: sort is smooth there
    check_grads(lambda t: tf.sort(t, axis=axis, direction=direction), x)


def test_sort_second_order():
    x = arrays((2, 3), -2.0, 2.0, seed=4)
    check_grads(lambda t: tf.square(tf.sort(t, axis=0)), x, order=2)
    check_grads(lambda t: tf.square(tf.sort(t, direction="DESCENDING")), x, order=2)


def test_sort_gradient_unsorts():
    x = tf.constant([2.0, 1.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.sort(x) * tf.constant([1.0, 10.0, 100.0])
    assert tape.gradient(y, x).numpy().tolist() == [10.0, 1.0, 100.0]


# --- top_k ------------------------------------------------------------------------------
@given(shape=nonscalar_shapes, data=st.data())
def test_top_k_matches_numpy(shape, data):
    k = data.draw(st.integers(0, shape[-1]))
    x = np.round(arrays(shape, -2.0, 2.0, seed=5) * 2).astype(np.float32)  # many ties
    order = np.argsort(-x, axis=-1, kind="stable")[..., :k]
    result = tf.math.top_k(tf.constant(x), k=k)
    values, indices = result  # unpacks like TF's namedtuple
    assert values is result.values and indices is result.indices
    assert values.dtype == tf.float32 and indices.dtype == tf.int32
    np.testing.assert_array_equal(values.numpy(), np.take_along_axis(x, order, -1))
    np.testing.assert_array_equal(indices.numpy(), order)


def test_top_k_examples_from_tf():
    result = tf.math.top_k(tf.constant([1.0, 3.0, 2.0, 3.0]), k=2)
    assert type(result).__name__ == "TopKV2" and result._fields == ("values", "indices")
    assert result.values.numpy().tolist() == [3.0, 3.0]
    assert result.indices.numpy().tolist() == [1, 3]  # ties: lower index first
    assert tf.math.top_k(tf.constant([1.0, 3.0, 2.0])).values.numpy().tolist() == [3.0]  # k=1
    out = tf.nn.top_k(tf.constant([[5.0, 1.0, 5.0], [0.0, 2.0, 9.0]]), k=tf.constant(2))
    assert out.indices.numpy().tolist() == [[0, 2], [2, 1]]


def test_top_k_dtypes():
    out = tf.math.top_k(tf.constant([1, 3]), k=1, index_type=tf.int64)
    assert out.values.dtype == tf.int32 and out.indices.dtype == tf.int64
    out = tf.math.top_k(tf.constant([7, 3, 9], tf.uint8), k=2, sorted=False)
    assert out.values.dtype == tf.uint8 and sorted(out.values.numpy().tolist()) == [7, 9]


@given(shape=nonscalar_shapes, data=st.data())
def test_top_k_gradient(shape, data):
    k = data.draw(st.integers(1, shape[-1]))
    x = arrays(shape, -2.0, 2.0, seed=6)
    check_grads(lambda t: tf.math.top_k(t, k=k).values, x)


def test_top_k_gradient_goes_to_the_chosen_positions():
    x = tf.constant([[1.0, 4.0, 3.0], [2.0, 5.0, 1.0]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.math.top_k(x, k=2).values * tf.constant([1.0, 2.0])
    assert tape.gradient(y, x).numpy().tolist() == [[0, 1, 2], [2, 1, 0]]


def test_top_k_second_order():
    check_grads(lambda t: tf.square(tf.math.top_k(t, k=2).values), arrays((2, 3), seed=7),
                order=2)


def test_put_along_axis_and_its_gradient():
    updates = tf.constant([[10.0, 20.0]])
    out = put_along_axis(updates, tf.constant([[2, 0]]), 1, 3)
    assert out.numpy().tolist() == [[20.0, 0.0, 10.0]]
    check_grads(lambda u: put_along_axis(u, tf.constant([[2, 0], [1, 2]]), 1, 3) ** 2,
                arrays((2, 2), seed=8), order=2)


# --- unique -----------------------------------------------------------------------------
def test_unique_keeps_first_appearance_order():
    y, idx = tf.unique(tf.constant([1, 1, 2, 4, 4, 4, 7, 8, 8]))
    assert y.numpy().tolist() == [1, 2, 4, 7, 8] and y.dtype == tf.int32
    assert idx.numpy().tolist() == [0, 0, 1, 2, 2, 2, 3, 4, 4] and idx.dtype == tf.int32
    result = tf.unique(tf.constant([3.0, 1.0, 3.0]), out_idx=tf.int64)
    assert type(result).__name__ == "Unique" and result._fields == ("y", "idx")
    assert result.y.numpy().tolist() == [3.0, 1.0] and result.idx.dtype == tf.int64


@given(values=st.lists(st.integers(-3, 3), max_size=12))
def test_unique_reconstructs_the_input(values):
    x = np.array(values, np.int64)
    y, idx = tf.unique(tf.constant(x))
    assert y.dtype == tf.int64
    assert y.numpy().tolist() == list(dict.fromkeys(values))
    np.testing.assert_array_equal(y.numpy()[idx.numpy()], x)


def test_unique_of_strings_bools_nans_and_empty():
    y, idx = tf.unique(tf.constant(["b", "a", "b"]))
    assert y.numpy().tolist() == [b"b", b"a"] and idx.numpy().tolist() == [0, 1, 0]
    y, idx = tf.unique(tf.constant([True, False, True]))
    assert y.numpy().tolist() == [True, False]
    y, idx = tf.unique(tf.constant([np.nan, np.nan, 1.0]))  # NaN != NaN: each is new
    assert y.shape.as_list() == [3] and idx.numpy().tolist() == [0, 1, 2]
    y, idx = tf.unique(tf.constant([], tf.int32))
    assert y.shape.as_list() == [0] and idx.shape.as_list() == [0]


# --- errors -----------------------------------------------------------------------------
ERRORS = [
    (lambda: tf.argmax(tf.zeros([2, 3]), axis=2), tf.errors.InvalidArgumentError,
     r"Expected dimension in the range \[-2, 2\), but got 2 \[Op:ArgMax\]"),
    (lambda: tf.argmin(tf.constant(3.0)), tf.errors.InvalidArgumentError,
     r"Expected dimension in the range \[0, 0\), but got 0 \[Op:ArgMin\]"),
    (lambda: tf.argmax(tf.zeros([2, 0]), axis=1), tf.errors.InvalidArgumentError,
     r"Reduction axis 1 is empty in shape \[2,0\] \[Op:ArgMax\]"),
    (lambda: tf.argmax(tf.zeros([2, 3]), axis=[1]), TypeError,
     r"axis must be int or Tensor with integer datatype"),
    (lambda: tf.argmax(tf.zeros([2, 3]), axis=tf.constant([1])), tf.errors.InvalidArgumentError,
     r"dim must be a scalar, but received tensor of shape: \[1\]"),
    (lambda: tf.argmax(tf.zeros([2]), output_type=tf.float32), tf.errors.InvalidArgumentError,
     r"Value for attr 'output_type' of float is not in the list of allowed values: int16, "
     r"uint16, int32, int64"),
    (lambda: tf.argmin(tf.zeros([2]), output_type=tf.int16), tf.errors.InvalidArgumentError,
     r"Value for attr 'output_type' of int16 is not in the list of allowed values: int32, int64"),
    (lambda: tf.argmax(tf.constant([1 + 1j])), tf.errors.InvalidArgumentError,
     r"Value for attr 'T' of complex128 is not in the list of allowed values"),
    (lambda: tf.sort(tf.zeros([2, 3]), direction="UP"), ValueError,
     r"Argument `direction` should be one of ASCENDING, DESCENDING. Received: direction=UP"),
    (lambda: tf.argsort(tf.zeros([2, 3]), axis=[1]), ValueError,
     r"Argument `axis` must be a constant scalar"),
    (lambda: tf.sort(tf.zeros([2, 3]), axis=2), tf.errors.InvalidArgumentError,
     r"slice index 2 of dimension 0 out of bounds."),
    (lambda: tf.argsort(tf.constant(3.0)), tf.errors.InvalidArgumentError,
     r"slice index -1 of dimension 0 out of bounds."),
    (lambda: tf.sort(tf.constant([True, False])), tf.errors.InvalidArgumentError,
     r"Value for attr 'T' of bool is not in the list of allowed values"),
    (lambda: tf.math.top_k(tf.constant([1.0, 3.0, 2.0, 3.0]), k=5),
     tf.errors.InvalidArgumentError,
     r"input must have at least k columns. Had 4, needed 5 \[Op:TopKV2\]"),
    (lambda: tf.math.top_k(tf.constant([1.0, 3.0]), k=-1), tf.errors.InvalidArgumentError,
     r"Need k >= 0, got -1 \[Op:TopKV2\]"),
    (lambda: tf.math.top_k(tf.constant(3.0), k=1), tf.errors.InvalidArgumentError,
     r"input must be >= 1-D, got shape \[\] \[Op:TopKV2\]"),
    (lambda: tf.math.top_k(tf.zeros([2, 3]), k=[1]), tf.errors.InvalidArgumentError,
     r"k must be scalar, got shape \[1\]"),
    (lambda: tf.math.top_k(tf.constant([True, False]), k=1), tf.errors.InvalidArgumentError,
     r"Value for attr 'T' of bool is not in the list of allowed values"),
    (lambda: tf.unique(tf.constant([[1, 1]])), tf.errors.InvalidArgumentError,
     r"unique expects a 1D vector. \[Op:Unique\]"),
    (lambda: tf.unique(tf.constant(1)), tf.errors.InvalidArgumentError,
     r"unique expects a 1D vector."),
    (lambda: tf.unique(tf.constant([1, 1]), out_idx=tf.float32), tf.errors.InvalidArgumentError,
     r"Value for attr 'out_idx' of float is not in the list of allowed values: int32, int64"),
]


@pytest.mark.parametrize("call,error,match", ERRORS)
def test_errors(call, error, match):
    with pytest.raises(error, match=match):
        call()
