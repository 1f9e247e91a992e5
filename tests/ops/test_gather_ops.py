"""gather, gather_nd, boolean_mask and tf.where: values, gradients, errors."""
import re

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import minitf as tf
from minitf.ops.gather_ops import GatherNd, GatherV2, Where
from gradcheck import check_grads
from strategies import arrays, small_shapes

P = np.arange(24, dtype=np.float64).reshape(2, 3, 4) / 10.0


def batch_gather_reference(params, indices, axis, batch_dims):
    """output[b..., o..., i..., n...] = params[b..., o..., indices[b..., i...], n...], by loops."""
    batch = params.shape[:batch_dims]
    out = [np.take(params[b], indices[b], axis=axis - batch_dims) for b in np.ndindex(*batch)]
    return np.array(out).reshape(batch + out[0].shape)


# --- gather ----------------------------------------------------------------------------
@pytest.mark.parametrize("indices, axis", [
    (1, 0), ([1, 0, 1], 0), ([[2, 0], [2, 2]], 1), ([3, 3, 0], -1), (np.zeros([0], np.int32), 1),
    ([[0]], 2)])
def test_gather_matches_numpy_take(indices, axis):
    got = tf.gather(P, indices, axis=axis)
    expected = np.take(P, np.array(indices, dtype=np.int64), axis=axis)
    assert got.shape == expected.shape and got.dtype == tf.float64
    np.testing.assert_array_equal(got.numpy(), expected)


@pytest.mark.parametrize("indices, axis, batch_dims", [
    ([[2, 0, 2], [1, 1, 0]], 1, 1),
    ([[3, 0], [1, 1]], 2, 1),
    ([[3, 0], [1, 1]], -1, 1),
    ([[[3, 0], [1, 1], [0, 0]], [[3, 0], [1, 1], [2, 2]]], 2, 2),
    ([[[3, 0], [1, 1], [0, 0]], [[3, 0], [1, 1], [2, 2]]], 2, -1),
    ([[1], [0]], None, 1),  # axis defaults to batch_dims
])
def test_gather_batch_dims(indices, axis, batch_dims):
    idx = np.array(indices)
    b = batch_dims % idx.ndim if batch_dims < 0 else batch_dims
    a = b if axis is None else axis % 3
    got = tf.gather(P, indices, axis=axis, batch_dims=batch_dims)
    np.testing.assert_array_equal(got.numpy(), batch_gather_reference(P, idx, a, b))


def test_gather_drops_batch_dims_when_axis_is_zero():
    # TF's Python wrapper ignores batch_dims when axis == 0 (verified against TF 2.21).
    got = tf.gather([[1, 2, 3], [4, 5, 6]], [[0, 1], [1, 0]], axis=0, batch_dims=1)
    assert got.shape == [2, 2, 3]
    np.testing.assert_array_equal(got.numpy()[1, 0], [4, 5, 6])


def test_gather_dtypes():
    words = tf.constant(["a", "b", "c"])
    np.testing.assert_array_equal(tf.gather(words, [2, 0]).numpy(), [b"c", b"a"])
    for dtype in (tf.int16, tf.int32, tf.int64):
        got = tf.gather(tf.constant([1, 2, 3]), tf.constant([2, 0], dtype))
        assert got.dtype == tf.int32
        np.testing.assert_array_equal(got.numpy(), [3, 1])
    v = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
    np.testing.assert_array_equal(tf.gather(v, [1]).numpy(), [[3.0, 4.0]])


@given(shape=small_shapes.filter(lambda s: len(s) >= 1), data=st.data())
def test_gather_gradient_sums_repeated_indices(shape, data):
    axis = data.draw(st.integers(0, len(shape) - 1))
    n = shape[axis]
    idx_shape = data.draw(st.lists(st.integers(1, 3), max_size=2))
    indices = np.array(data.draw(st.lists(st.integers(0, n - 1), min_size=int(np.prod(idx_shape)),
                                          max_size=int(np.prod(idx_shape))))).reshape(idx_shape)
    check_grads(lambda p: tf.gather(p, indices, axis=axis), arrays(shape))


def test_gather_gradient_counts_repeats_exactly():
    p = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(p)
        y = tf.gather(p, [2, 0, 2, 2])
    np.testing.assert_array_equal(tape.gradient(y, p).numpy(), [1.0, 0.0, 3.0])


@pytest.mark.parametrize("indices, axis, batch_dims", [
    ([[2, 0, 2], [1, 1, 0]], 1, 1),
    ([[3, 0], [1, 1]], 2, 1),
    ([[[3, 0], [1, 1], [0, 0]], [[3, 0], [1, 1], [2, 2]]], 2, 2),
])
def test_batched_gather_gradient(indices, axis, batch_dims):
    check_grads(lambda p: tf.gather(p, indices, axis=axis, batch_dims=batch_dims), P)


def test_gather_second_order():
    check_grads(lambda p: tf.gather(p, [[2, 0], [2, 2]], axis=1) ** 2, P, order=2)
    check_grads(lambda p: tf.gather(p, [[3, 0], [1, 1]], axis=2, batch_dims=1) ** 3, P, order=2)


def test_gather_has_no_gradient_for_indices():
    p, i = tf.constant([1.0, 2.0]), tf.constant([1, 0])
    with tf.GradientTape() as tape:
        tape.watch([p, i])
        y = tf.gather(p, i)
    dp, di = tape.gradient(y, [p, i])
    assert di is None and dp is not None


# --- gather_nd -------------------------------------------------------------------------
@pytest.mark.parametrize("indices", [
    [[0, 1], [1, 2], [0, 1]], [[1], [0]], [[[0, 1, 2]], [[1, 2, 3]]], [1, 2], [[0, 0, 0]]])
def test_gather_nd_values(indices):
    idx = np.array(indices)
    expected = P[tuple(np.moveaxis(idx, -1, 0))]
    np.testing.assert_array_equal(tf.gather_nd(P, indices).numpy(), expected)


def test_gather_nd_with_no_coordinates_repeats_params():
    got = tf.gather_nd([[1, 2], [3, 4]], tf.zeros([2, 0], tf.int32))
    np.testing.assert_array_equal(got.numpy(), [[[1, 2], [3, 4]]] * 2)


def test_gather_nd_batch_dims():
    np.testing.assert_array_equal(
        tf.gather_nd([[1, 2], [3, 4]], [[0], [1]], batch_dims=1).numpy(), [1, 4])
    got = tf.gather_nd(P, [[[1], [2]], [[0], [0]]], batch_dims=1)  # [2, 2, 4]
    np.testing.assert_array_equal(got.numpy(), np.stack([P[0][[1, 2]], P[1][[0, 0]]]))
    got = tf.gather_nd(P, [[[0], [3], [1]], [[2], [2], [0]]], batch_dims=2)  # [2, 3]
    np.testing.assert_array_equal(got.numpy(), [[P[0, 0, 0], P[0, 1, 3], P[0, 2, 1]],
                                                [P[1, 0, 2], P[1, 1, 2], P[1, 2, 0]]])


def test_gather_nd_ignore_policy_reads_zeros():
    got = tf.gather_nd([[1.0, 2.0], [3.0, 4.0]], [[0, 5], [1, 1]], bad_indices_policy="IGNORE")
    np.testing.assert_array_equal(got.numpy(), [0.0, 4.0])


@pytest.mark.parametrize("f", [
    lambda p: tf.gather_nd(p, [[0, 1], [1, 2], [0, 1]]),
    lambda p: tf.gather_nd(p, [[[0, 1, 2]], [[0, 1, 2]]]),
    lambda p: tf.gather_nd(p, [1, 2]),  # TF itself fails on this gradient; minitf does not
    lambda p: tf.gather_nd(p, [[[1], [2]], [[0], [0]]], batch_dims=1),
    lambda p: tf.gather_nd(p, tf.zeros([3, 0], tf.int32)),
    lambda p: tf.gather_nd(p, [[0, 1], [5, 0]], bad_indices_policy="IGNORE"),
])
def test_gather_nd_gradient(f):
    check_grads(f, P)


def test_gather_nd_second_order():
    check_grads(lambda p: tf.gather_nd(p, [[0, 1], [1, 2], [0, 1]]) ** 2, P, order=2)


# --- boolean_mask and getitem with a mask -----------------------------------------------
def test_boolean_mask_values():
    x = np.arange(12).reshape(2, 3, 2)
    m2 = np.array([[True, False, True], [False, True, False]])
    np.testing.assert_array_equal(tf.boolean_mask(x, m2).numpy(), x[m2])
    np.testing.assert_array_equal(tf.boolean_mask(x, [True, False], axis=2).numpy(),
                                  x[:, :, [True, False]])
    m = np.array([[True, False], [True, True], [True, False]])
    np.testing.assert_array_equal(tf.boolean_mask(x, m, axis=1).numpy(), x[:, m])
    np.testing.assert_array_equal(tf.boolean_mask([1, 2, 3], [1, 0, 1]).numpy(), [1, 3])
    assert tf.boolean_mask(x, np.zeros([2], bool)).shape == [0, 3, 2]


def test_boolean_mask_gradient():
    check_grads(lambda p: tf.boolean_mask(p, [[True, False, True], [False, False, True]]), P)
    check_grads(lambda p: tf.boolean_mask(p, [True, False, True, True], axis=2) ** 2, P,
                order=2)
    check_grads(lambda p: p[p > 1.05], P)  # no value sits at the threshold


# --- where -------------------------------------------------------------------------------
def test_where_coordinates():
    got = tf.where([[True, False], [False, True]])
    assert got.dtype == tf.int64
    np.testing.assert_array_equal(got.numpy(), [[0, 0], [1, 1]])
    np.testing.assert_array_equal(tf.where([1.5, 0.0, -2.0]).numpy(), [[0], [2]])
    assert tf.where(tf.zeros([2, 0, 3])).shape == [0, 3]
    x = np.array([[[1, 0]], [[0, 1]]])
    np.testing.assert_array_equal(tf.where(x).numpy(), np.argwhere(x))
    assert Where.shape(tf.TensorShape([None, 2])).as_list() == [None, 2]


def test_where_three_arguments_selects_and_differentiates():
    got = tf.where([True, False], [1, 2], [10, 20])
    np.testing.assert_array_equal(got.numpy(), [1, 20])
    cond = np.array([[True], [False]])
    check_grads(lambda x, y: tf.where(cond, x, y), arrays([2, 3]), arrays([3], seed=1))


# --- shape rules with unknown dims --------------------------------------------------------
def test_shape_rules_tolerate_unknown_dims():
    s = tf.TensorShape
    assert GatherV2.shape(s([None, 3, 4]), s([5, None]), axis=1, batch_dims=0).as_list() == \
        [None, 5, None, 4]
    assert GatherV2.shape(s(None), s([2]), axis=0, batch_dims=0).rank is None
    assert GatherNd.shape(s([None, 3, 4]), s([7, 2])).as_list() == [7, 4]
    assert GatherNd.shape(s([2, 3]), s([7, None])).rank is None


# --- errors ------------------------------------------------------------------------------
E = tf.errors.InvalidArgumentError
ERRORS = [
    (lambda: tf.gather([1, 2, 3], 5), E, "indices = 5 is not in [0, 3)"),
    (lambda: tf.gather([1, 2, 3], [5]), E, "indices[0] = 5 is not in [0, 3)"),
    (lambda: tf.gather([1, 2, 3], [0, 5]), E, "indices[1] = 5 is not in [0, 3)"),
    (lambda: tf.gather([1, 2, 3], -1), E, "indices = -1 is not in [0, 3)"),
    (lambda: tf.gather([[1, 2, 3]], [[0, 5]], axis=1), E, "indices[0,1] = 5 is not in [0, 3)"),
    (lambda: tf.gather([[1, 2, 3], [4, 5, 6]], [[0, 1], [5, 0]], axis=1, batch_dims=1), E,
     "indices[1,0] = 5 is not in [0, 3)"),
    (lambda: tf.gather([1.0, 2.0], [0, 1], axis=1), E,
     "Shape must be at least rank 2 but is rank 1"),
    (lambda: tf.gather([[1, 2]], [0], axis=-3), E, "Shape must be at least rank 3 but is rank 2"),
    (lambda: tf.gather([[1.0, 2.0, 3.0]], [[0, 1]], axis=1, batch_dims=2), E,
     "batch_dims (2) must be less than rank(params) (2)."),
    (lambda: tf.gather(np.zeros([2, 3, 4]), [[0, 1, 0], [1, 0, 1]], axis=1, batch_dims=2), E,
     "batch_dims (2) must be less than or equal to axis (1)."),
    (lambda: tf.gather([[1, 2, 3], [4, 5, 6]], [[0, 1], [2, 0]], axis=1, batch_dims=3), E,
     "Expected batch_dims in the range [-2, 2], but got 3"),
    (lambda: tf.gather([[1, 2, 3], [4, 5, 6]], [[0, 1]], axis=1, batch_dims=1), E,
     "params.shape[0]: 2 should be equal to indices.shape[0]: 1"),
    (lambda: tf.gather([1.0, 2.0, 3.0], [0.0, 1.0]), E,
     "Value for attr 'Tindices' of float is not in the list of allowed values: int16, int32, "
     "int64"),
    (lambda: tf.gather([1, 2, 3], tf.constant([0, 1], tf.uint8)), E,
     "Value for attr 'Tindices' of uint8 is not in the list of allowed values"),
    (lambda: tf.gather_nd([[1, 2], [3, 4]], [[0, 5]]), E,
     "indices[0] = [0, 5] does not index into param shape [2,2], node name: GatherNd"),
    (lambda: tf.gather_nd([[1, 2], [3, 4]], [5]), E,
     "indices = [5] does not index into param shape [2,2]"),
    (lambda: tf.gather_nd([[1, 2], [3, 4]], [[[0, 0], [0, 5]]]), E,
     "indices[0,1] = [0, 5] does not index into param shape [2,2]"),
    (lambda: tf.gather_nd([[1, 2], [3, 4]], [[5, 0], [0, 7]]), E,
     "indices[1] = [0, 7] does not index into param shape [2,2]"),
    (lambda: tf.gather_nd([[1, 2], [3, 4]], [[-1, 0]]), E, "indices[0] = [-1, 0] does not"),
    (lambda: tf.gather_nd([[1, 2], [3, 4]], [[0, 1, 1]]), E,
     "index innermost dimension length must be <= params rank; saw: 3 vs. 2"),
    (lambda: tf.gather_nd([[1, 2], [3, 4]], 0), E, "indices must be at least a vector"),
    (lambda: tf.gather_nd([[1, 2], [3, 4]], [[0.0, 0]]), E,
     "Value for attr 'Tindices' of float is not in the list of allowed values"),
    (lambda: tf.gather_nd([[1, 2], [3, 4]], [[1], [0]], batch_dims=2), ValueError,
     "Argument `batch_dims` = 2 must be less than rank(`indices`) = 2"),
    (lambda: tf.gather_nd([[1, 2], [3, 4]], [[1], [0]], bad_indices_policy="bogus"),
     tf.errors.NotFoundError, "Could not find device for node"),
    (lambda: tf.boolean_mask([1, 2, 3], [True, False]), ValueError,
     "Shapes (3,) and (2,) are incompatible"),
    (lambda: tf.boolean_mask(np.zeros([2, 3, 2]), [[True, False]]), ValueError,
     "Shapes (2, 3) and (1, 2) are incompatible"),
    (lambda: tf.boolean_mask(np.zeros([2, 3, 2]), [True, False], axis=-1), ValueError,
     "Shapes () and (2,) are incompatible"),
    (lambda: tf.boolean_mask([1, 2, 3], True), ValueError, "mask cannot be scalar."),
    (lambda: tf.where(3), E, "WhereOp : Unhandled input dimensions: 0"),
    (lambda: tf.where([True, False], [1, 2]), ValueError,
     "x and y must both be non-None or both be None."),
    (lambda: tf.where(["a", ""]), E, "Value for attr 'T' of string is not in the list of "
                                     "allowed values"),
]


@pytest.mark.parametrize("make, cls, message", ERRORS)
def test_errors(make, cls, message):
    with pytest.raises(cls, match=re.escape(message)):
        make()


def test_error_names_op_and_teaches():
    with pytest.raises(E) as info:
        tf.gather([1, 2, 3], [0, 5])
    assert "[Op:GatherV2]" in str(info.value)
    assert "does not wrap negative indices" in str(info.value)
