"""Slicing: `x[...]`, tf.strided_slice and tf.slice (one StridedSlice op underneath)."""
import re

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import minitf as tf
from minitf.ops.slicing_ops import StridedSlice, spec_from_key
from gradcheck import check_grads

X = np.arange(24, dtype=np.float64).reshape(2, 3, 4)

# (key, the same key for NumPy) -- TF's basic indexing is NumPy's.
KEYS = [
    (0, 0), (-1, -1), (slice(1, None), slice(1, None)), (slice(None, None, -1),) * 2,
    ((slice(None), 0), (slice(None), 0)), ((Ellipsis, 1), (Ellipsis, 1)),
    ((None, Ellipsis, slice(None, None, 2)), (None, Ellipsis, slice(None, None, 2))),
    ((1, None, slice(2, 0, -1)), (1, None, slice(2, 0, -1))),
    ((slice(None), slice(None), slice(None), None),) * 2,
    ((tf.newaxis, slice(-2, None)), (None, slice(-2, None))),
    ((slice(None, None, -2), slice(None, None, -1), slice(1, 3)),) * 2,
    ((slice(-1, -5, -1), -1, 0), (slice(-1, -5, -1), -1, 0)),
    ((slice(5, 10),), (slice(5, 10),)),  # out-of-range slice bounds clamp, as in Python
    ((Ellipsis,), (Ellipsis,)),
    ((1, 2, 3), (1, 2, 3)),
]


@pytest.mark.parametrize("key, np_key", KEYS)
def test_getitem_matches_numpy(key, np_key):
    got = tf.constant(X)[key]
    expected = X[np_key]
    assert got.shape == expected.shape
    np.testing.assert_array_equal(got.numpy(), expected)
    assert got.dtype == tf.float64


def test_getitem_keeps_dtype_and_accepts_int_like_indices():
    x = tf.reshape(tf.range(6), [2, 3])
    assert x[1].dtype == tf.int32
    np.testing.assert_array_equal(x[tf.constant(1)].numpy(), [3, 4, 5])
    np.testing.assert_array_equal(x[np.int64(1), tf.constant(2, tf.int64)].numpy(), 5)
    np.testing.assert_array_equal(x[np.int32(0):tf.constant(1)].numpy(), [[0, 1, 2]])
    # TF reads a Python list key like a tuple: x[[0, 1]] is x[0, 1]
    assert int(x[[0, 1]]) == 1
    b = tf.constant([True, False])
    np.testing.assert_array_equal(b[::-1].numpy(), [False, True])


def test_getitem_on_variable_and_its_gradient():
    v = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
    with tf.GradientTape() as tape:
        y = v[1, ::-1] * tf.constant([10.0, 20.0])
    np.testing.assert_array_equal(tape.gradient(y, v).numpy(), [[0, 0], [20, 10]])


def test_bool_tensor_key_is_boolean_mask():
    x = tf.constant([1, -2, 3])
    np.testing.assert_array_equal(x[x > 0].numpy(), [1, 3])
    np.testing.assert_array_equal(x[np.array([True, False, True])].numpy(), [1, 3])
    m = tf.constant([[True, False], [False, True]])
    np.testing.assert_array_equal(tf.constant([[1, 2], [3, 4]])[m].numpy(), [1, 4])


def test_spec_from_key_matches_tensorflows_attributes():
    # The attributes TF's own `_slice_helper` produces for x[1:, ::-1, tf.newaxis, ..., 0].
    spec = spec_from_key((slice(1, None), slice(None, None, -1), None, Ellipsis, 0))
    assert spec == {"begin": (1, 0, 0, 0, 0), "end": (0, 0, 0, 0, 1),
                    "strides": (1, -1, 1, 1, 1), "begin_mask": 2, "end_mask": 3,
                    "ellipsis_mask": 8, "new_axis_mask": 4, "shrink_axis_mask": 16}


# (strided_slice arguments, the equivalent NumPy key) -- each checked against TF 2.21.
STRIDED = [
    (([0, 1], [2, 3]), (slice(0, 2), slice(1, 3))),
    (([0, 1], [2, 3], [1, 1]), (slice(0, 2), slice(1, 3))),
    (([0, 1], [2, 3], [1, 1], 0, 0, 0, 0, 1), (0, slice(1, 3))),
    (([0, 1], [2, 3], [1, 1], 0, 0, 0, 0, 3), (0, 1)),
    (([0, 1], [2, 3], [1, 1], 3, 1), (slice(None), slice(None, 3))),
    (([0, 1], [2, 3], None, 0, 0, 1), (Ellipsis, slice(1, 3))),
    (([0, 0, 1], [0, 2, 3], None, 0, 0, 0, 1), (None, slice(0, 2), slice(1, 3))),
    (([0], [1], [1], 0, 0, 0, 1, 1), (None,)),  # new axis wins over shrink
    (([0, 1], [2, 3], None, 0, 0, 1, 1), (Ellipsis, slice(1, 3))),  # ellipsis wins
    (([-1], [0], [-1]), (slice(-1, 0, -1),)),
    (([1, 2], [0, 0], [-1, -1], 0, 2), (slice(1, 0, -1), slice(2, None, -1))),
    (([0, 1], [2, 3], [1, 2], 0, 0, 0, 0, 2), (slice(0, 2), 1)),
    (([0, 0], [1, 1], [1, 1], 1, 1, 0, 0, 1), (0, slice(0, 1))),  # masks ignored on shrink
    (([-1, 0], [1, 1], [1, 1], 0, 0, 0, 0, 1), (-1, slice(0, 1))),
    (([0], [1], [1], 2), (slice(0, 1),)),  # mask bits past the spec do nothing
]


@pytest.mark.parametrize("args, np_key", STRIDED)
def test_strided_slice_masks(args, np_key):
    x = np.arange(6).reshape(2, 3).astype(np.int32)
    got = tf.strided_slice(tf.constant(x), *args)
    assert got.shape == x[np_key].shape
    np.testing.assert_array_equal(got.numpy(), x[np_key])


def test_strided_slice_is_the_getitem_op():
    x = tf.constant(X)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = tf.strided_slice(x, [0, 2], [2, 0], [1, -1], end_mask=1)
    (record,) = tape.recorded_operations()
    assert record.op_def is StridedSlice
    np.testing.assert_array_equal(y.numpy(), X[0:, 2:0:-1])


def test_slice_values():
    x = tf.reshape(tf.range(6), [2, 3])
    np.testing.assert_array_equal(tf.slice(x, [0, 1], [2, -1]).numpy(), [[1, 2], [4, 5]])
    np.testing.assert_array_equal(tf.slice(x, [1, 1], [-1, -1]).numpy(), [[4, 5]])
    np.testing.assert_array_equal(tf.slice(x, [1, 0], [0, 3]).numpy().shape, (0, 3))
    np.testing.assert_array_equal(tf.slice(x, tf.constant([1, 2]), [1, 1]).numpy(), [[5]])


# --- gradients --------------------------------------------------------------------------
@pytest.mark.parametrize("key, _", KEYS)
def test_getitem_gradient(key, _):
    check_grads(lambda x: x[key], X / 10.0)


@st.composite
def basic_keys(draw, rank):
    """A random tuple of ints, slices (any stride), None and at most one Ellipsis."""
    parts, axis = [], 0
    while axis < rank and draw(st.booleans()):
        kind = draw(st.sampled_from(["int", "slice", "new"]))
        if kind == "int":
            parts.append(draw(st.integers(-1, 0)))
            axis += 1
        elif kind == "slice":
            bound = st.none() | st.integers(-4, 4)
            step = st.none() | st.sampled_from([-2, -1, 1, 2])
            parts.append(slice(draw(bound), draw(bound), draw(step)))
            axis += 1
        else:
            parts.append(None)
    if draw(st.booleans()):
        parts.insert(draw(st.integers(0, len(parts))), Ellipsis)
    return tuple(parts)


@given(st.data())
def test_random_keys_match_numpy_and_differentiate(data):
    shape = data.draw(st.lists(st.integers(1, 3), min_size=1, max_size=3))
    key = data.draw(basic_keys(len(shape)))
    x = np.arange(np.prod(shape), dtype=np.float64).reshape(shape)
    np.testing.assert_array_equal(tf.constant(x)[key].numpy(), x[key])
    check_grads(lambda t: t[key], x)


def test_strided_slice_and_slice_gradients():
    check_grads(lambda x: tf.strided_slice(x, [1, 0], [0, 3], [-1, 2], end_mask=1), X)
    check_grads(lambda x: tf.strided_slice(x, [0, 2], [1, 3], shrink_axis_mask=3), X)
    check_grads(lambda x: tf.slice(x, [0, 1, 1], [2, -1, 2]), X)


def test_second_order():
    # y = sum(x[::-1, 1]^3): the slice's gradient must itself be differentiable.
    check_grads(lambda x: x[::-1, 1, tf.newaxis] ** 3, X / 10.0, order=2)
    check_grads(lambda x: tf.slice(x, [0, 1, 1], [2, 2, 2]) ** 2, X / 10.0, order=2)


def test_gradient_of_integer_slice_is_none():
    x = tf.constant([1, 2, 3])
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = x[1:]
    assert tape.gradient(y, x) is None


# --- shape rule -------------------------------------------------------------------------
def test_shape_rule_tolerates_unknown_dims():
    rule = StridedSlice.shape
    spec = spec_from_key((slice(None, None, -1), 0, None))
    assert rule(tf.TensorShape([None, 3, 4]), **spec).as_list() == [None, 1, 4]
    assert rule(tf.TensorShape([2, None]), **spec_from_key((1, -1))).as_list() == []
    assert rule(tf.TensorShape(None), **spec).rank is None
    with pytest.raises(tf.errors.InvalidArgumentError, match="dimension 1 out of bounds"):
        rule(tf.TensorShape([None, 3]), **spec_from_key((0, 3)))


# --- errors -----------------------------------------------------------------------------
E = tf.errors.InvalidArgumentError
V = tf.constant([1, 2, 3])
M = tf.constant([[1, 2, 3], [4, 5, 6]])
ERRORS = [
    (lambda: V[5], E, "slice index 5 of dimension 0 out of bounds."),
    (lambda: V[-5], E, "slice index -2 of dimension 0 out of bounds."),
    (lambda: M[1, 5], E, "slice index 5 of dimension 1 out of bounds."),
    (lambda: tf.constant(3)[0], E, "Attempting to slice scalar input."),
    (lambda: tf.constant(3)[::0], E, "Attempting to slice scalar input."),
    (lambda: M[0, 0, 0], E, "Index out of range using input dim 2; input has only 2 dims"),
    (lambda: M[..., ...], E, "Multiple ellipses in slice spec not allowed"),
    (lambda: M[0, ::0], E, "strides[1] must be non-zero"),
    (lambda: M[None, ::0], E, "strides[0] must be non-zero"),
    (lambda: V[1.0], TypeError, "Only integers, slices (`:`), ellipsis (`...`), tf.newaxis "
                                "(`None`) and scalar tf.int32/tf.int64 tensors are valid "
                                "indices, got 1.0"),
    (lambda: V[0.5:], TypeError, "valid indices, got 0.5"),
    (lambda: M[[0], 1], TypeError, "valid indices, got [0]"),
    (lambda: V[np.bool_(True)], TypeError, "Only integers, slices"),
    (lambda: V[tf.constant([0, 1])], TypeError, "Only integers, slices"),
    (lambda: V[tf.constant(1.0)], TypeError, "Only integers, slices"),
    (lambda: V["a"], TypeError, "got 'a'"),
    (lambda: V[True], ValueError, "mask cannot be scalar."),
    (lambda: V[[True, False, True]], E, "Value for attr 'Index' of bool is not in the list of "
                                        "allowed values: int16, int32, int64"),
    (lambda: tf.strided_slice(M, [0, 1], [2, 3, 4]), E,
     "Expected begin, end, and strides to be 1D equal size tensors, but got shapes [2], [3], "
     "and [2] instead."),
    (lambda: tf.strided_slice(M, 0, 1), E, "but got shapes [], [], and [] instead."),
    (lambda: tf.strided_slice(M, [0, 1], [2, 3], [1, -1], shrink_axis_mask=2), E,
     "only stride 1 allowed on non-range indexing."),
    (lambda: tf.strided_slice(M, [0.0, 1], [2, 3]), E,
     "Value for attr 'Index' of float is not in the list of allowed values: int16, int32, int64"),
    (lambda: tf.strided_slice(M, [0, 0, 0], [1, 1, 1], shrink_axis_mask=7), E,
     "Index out of range using input dim 2; input has only 2 dims"),
    (lambda: tf.strided_slice(M, [5], [6], shrink_axis_mask=1), E,
     "slice index 5 of dimension 0 out of bounds."),
    (lambda: tf.slice(M, [1, 1], [1, 5]), E, "Expected size[1] in [0, 2], but got 5"),
    (lambda: tf.slice(M, [1, 1], [-2, 1]), E, "Expected size[0] in [0, 1], but got -2"),
    (lambda: tf.slice(M, [-1, 1], [1, 1]), E, "Expected begin[0] in [0, 2], but got -1"),
    (lambda: tf.slice(M, [3, 1], [1, 1]), E, "Expected begin[0] in [0, 2], but got 3"),
    (lambda: tf.slice(M, [1], [-1]), E, "Expected begin and size arguments to be 1-D tensors "
                                        "of size 2, but got shapes [1] and [1] instead."),
]


@pytest.mark.parametrize("make, cls, message", ERRORS)
def test_errors(make, cls, message):
    with pytest.raises(cls, match=re.escape(message)):
        make()


def test_errors_name_the_op_and_teach():
    with pytest.raises(E) as info:
        V[5]
    text = str(info.value)
    assert "[Op:StridedSlice]" in text and "valid indices are -3..2" in text
