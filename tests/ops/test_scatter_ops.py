"""scatter_nd, tensor_scatter_nd_*, unsorted_segment_sum, segment_sum."""
import re

import numpy as np
import pytest
from hypothesis import given
from hypothesis import strategies as st

import minitf as tf
from minitf.ops.scatter_ops import (ScatterNd, SegmentSum, TensorScatterUpdate,
                                    UnsortedSegmentSum)
from gradcheck import check_grads
from strategies import arrays

P = np.arange(24, dtype=np.float64).reshape(2, 3, 4) / 10.0


def scatter_reference(indices, updates, shape):
    out = np.zeros(shape, dtype=np.asarray(updates).dtype)
    idx = np.asarray(indices)
    rows = np.asarray(updates).reshape((-1,) + tuple(shape[idx.shape[-1]:]))
    for row, u in zip(idx.reshape(-1, idx.shape[-1]), rows):
        out[tuple(row)] += u
    return out


# --- scatter_nd ---------------------------------------------------------------------------
@pytest.mark.parametrize("indices, updates, shape", [
    ([[0], [2], [0]], [1.0, 2.0, 3.0], [4]),
    ([[1, 0]], [5.0], [2, 2]),
    ([[1], [0], [1]], np.arange(24.0).reshape(3, 8), [2, 8]),
    ([[[0, 1]], [[1, 2]]], np.ones([2, 1, 4]), [2, 3, 4]),
    ([[1], [1]], [3, 4], [3]),
])
def test_scatter_nd_values_add_repeats(indices, updates, shape):
    got = tf.scatter_nd(indices, updates, shape)
    expected = scatter_reference(indices, updates, shape)
    assert got.shape == shape
    np.testing.assert_array_equal(got.numpy(), expected)


def test_scatter_nd_dtypes_and_policy():
    got = tf.scatter_nd([[0], [1]], [True, False], [4])
    assert got.dtype == tf.bool
    np.testing.assert_array_equal(got.numpy(), [True, False, False, False])
    assert tf.scatter_nd([[1]], [7], tf.constant([3])).dtype == tf.int32
    words = tf.scatter_nd([[0]], ["b"], [2])
    np.testing.assert_array_equal(words.numpy(), [b"b", b""])
    ignored = tf.scatter_nd([[0], [5]], [1.0, 2.0], [4], bad_indices_policy="IGNORE")
    np.testing.assert_array_equal(ignored.numpy(), [1.0, 0.0, 0.0, 0.0])
    whole = tf.scatter_nd(tf.zeros([2, 0], tf.int32), [[1.0, 2.0], [3.0, 4.0]], [2])
    np.testing.assert_array_equal(whole.numpy(), [4.0, 6.0])


def test_scatter_nd_gradient():
    check_grads(lambda u: tf.scatter_nd([[1], [0], [1]], u, [2, 8]) ** 2, arrays([3, 8]),
                order=2)
    check_grads(lambda u: tf.scatter_nd([[[0, 1]], [[1, 2]]], u, [2, 3, 4]), arrays([2, 1, 4]))
    check_grads(lambda u: tf.scatter_nd([[0], [5]], u, [4], bad_indices_policy="IGNORE"),
                arrays([2]))


# --- tensor_scatter_nd_* -----------------------------------------------------------------
def test_tensor_scatter_values():
    t = np.array([[1.0, 2.0], [3.0, 4.0]])
    twice = ([[0], [0]], [[9.0, 9.0], [8.0, 8.0]])
    np.testing.assert_array_equal(tf.tensor_scatter_nd_update(t, *twice).numpy(),
                                  [[8, 8], [3, 4]])  # the last update wins, as on TF's CPU
    np.testing.assert_array_equal(tf.tensor_scatter_nd_add(t, *twice).numpy(),
                                  [[18, 19], [3, 4]])
    np.testing.assert_array_equal(tf.tensor_scatter_nd_sub(t, *twice).numpy(),
                                  [[-16, -15], [3, 4]])
    np.testing.assert_array_equal(tf.tensor_scatter_nd_update(t, [[1, 0]], [7.0]).numpy(),
                                  [[1, 2], [7, 4]])


def test_tensor_scatter_converts_python_updates_to_the_tensors_dtype():
    got = tf.tensor_scatter_nd_update([1.0, 2.0, 3.0], [[1]], [1])
    assert got.dtype == tf.float32
    np.testing.assert_array_equal(got.numpy(), [1.0, 1.0, 3.0])
    ints = tf.tensor_scatter_nd_add(tf.constant([1, 2, 3]), [[2]], [5])
    assert ints.dtype == tf.int32
    np.testing.assert_array_equal(ints.numpy(), [1, 2, 8])
    words = tf.tensor_scatter_nd_update(["a", "b"], [[0]], ["c"])
    np.testing.assert_array_equal(words.numpy(), [b"c", b"b"])
    doubles = tf.tensor_scatter_nd_sub([1.0, 2.0], [[0]], tf.constant([1.0], tf.float64))
    assert doubles.dtype == tf.float64  # the first Tensor argument sets the dtype
    np.testing.assert_array_equal(doubles.numpy(), [0.0, 2.0])


@pytest.mark.parametrize("op", [tf.tensor_scatter_nd_update, tf.tensor_scatter_nd_add,
                                tf.tensor_scatter_nd_sub])
@pytest.mark.parametrize("indices, ushape", [
    ([[0, 1], [1, 2]], [2, 4]), ([[0, 1], [0, 1]], [2, 4]), ([[1]], [1, 3, 4]),
    ([[[0, 1, 2]], [[1, 0, 3]]], [2, 1])])
def test_tensor_scatter_gradients(op, indices, ushape):
    # For update with a repeated position, the overwritten update does not reach the
    # output, so only the tensor's gradient is checked there (see the test below).
    repeated = len({tuple(r) for r in np.reshape(indices, [-1, np.shape(indices)[-1]])}) < \
        int(np.prod(np.shape(indices)[:-1]))
    wrt = [0] if repeated and op is tf.tensor_scatter_nd_update else None
    # Squared, so that the second-order check runs through the gradient's own gradient.
    check_grads(lambda t, u: op(t, indices, u) ** 2, P, arrays(ushape), order=2, wrt=wrt)


def test_tensor_scatter_update_with_repeats_gives_every_update_the_gradient_like_tf():
    t, u = tf.constant([1.0, 2.0, 3.0]), tf.constant([10.0, 20.0])
    with tf.GradientTape() as tape:
        tape.watch([t, u])
        y = tf.tensor_scatter_nd_update(t, [[1], [1]], u)
    dt, du = tape.gradient(y, [t, u])
    np.testing.assert_array_equal(dt.numpy(), [1.0, 0.0, 1.0])
    np.testing.assert_array_equal(du.numpy(), [1.0, 1.0])  # TF 2.21 gives the same


def test_tensor_scatter_update_gradient_blocks_overwritten_positions():
    t = tf.constant([1.0, 2.0, 3.0])
    u = tf.constant([10.0])
    with tf.GradientTape() as tape:
        tape.watch([t, u])
        y = tf.tensor_scatter_nd_update(t, [[1]], u) * tf.constant([1.0, 2.0, 3.0])
    dt, du = tape.gradient(y, [t, u])
    np.testing.assert_array_equal(dt.numpy(), [1.0, 0.0, 3.0])
    np.testing.assert_array_equal(du.numpy(), [2.0])


# --- segment sums ------------------------------------------------------------------------
def test_unsorted_segment_sum_values():
    got = tf.math.unsorted_segment_sum([[1, 2], [3, 4], [5, 6]], [1, 0, 1], 2)
    assert got.dtype == tf.int32
    np.testing.assert_array_equal(got.numpy(), [[3, 4], [6, 8]])
    dropped = tf.math.unsorted_segment_sum([1.0, 2.0, 3.0], [0, -1, 1], 3)  # negative: dropped
    np.testing.assert_array_equal(dropped.numpy(), [1.0, 3.0, 0.0])
    two_d = tf.math.unsorted_segment_sum([[1.0, 2.0, 3.0]], [[0, 1, 0]], 3)
    np.testing.assert_array_equal(two_d.numpy(), [4.0, 2.0, 0.0])
    n64 = tf.math.unsorted_segment_sum([1, 2, 3], tf.constant([0, 1, 0], tf.int64),
                                       tf.constant(2, tf.int64))
    np.testing.assert_array_equal(n64.numpy(), [4, 2])


@given(data=st.data())
def test_unsorted_segment_sum_gradient(data):
    ids_shape = data.draw(st.sampled_from([(2,), (2, 3)]))
    ids = np.array(data.draw(st.lists(st.integers(-1, 3), min_size=int(np.prod(ids_shape)),
                                      max_size=int(np.prod(ids_shape))))).reshape(ids_shape)
    check_grads(lambda x: tf.math.unsorted_segment_sum(x, ids, 4), P)


def test_unsorted_segment_sum_second_order():
    check_grads(lambda x: tf.math.unsorted_segment_sum(x, [[0, 1, 0], [-1, 3, 1]], 4) ** 2, P,
                order=2)


def test_segment_sum_values_and_gradient():
    got = tf.math.segment_sum([1.0, 2.0, 3.0, 4.0], [0, 0, 1, 3])
    np.testing.assert_array_equal(got.numpy(), [3.0, 3.0, 0.0, 4.0])
    np.testing.assert_array_equal(tf.math.segment_sum([1, 2, 3], [1, 1, 1]).numpy(), [0, 6])
    assert tf.math.segment_sum(tf.zeros([0]), tf.zeros([0], tf.int32)).shape == [0]
    check_grads(lambda x: tf.math.segment_sum(x, [1, 1]) ** 2, P, order=2)
    check_grads(lambda x: tf.math.segment_sum(x, [0, 2]), P)


def test_indices_get_no_gradient():
    d, ids = tf.constant([1.0, 2.0]), tf.constant([1, 0])
    with tf.GradientTape() as tape:
        tape.watch([d, ids])
        y = tf.math.unsorted_segment_sum(d, ids, 2)
    assert tape.gradient(y, ids) is None


# --- shape rules with unknown dims --------------------------------------------------------
def test_shape_rules_tolerate_unknown_dims():
    s = tf.TensorShape
    assert ScatterNd.shape(s([None, 1]), s([None, 4]), shape=(3, 4)).as_list() == [3, 4]
    assert TensorScatterUpdate.shape(s([None, 4]), s([None, 1]), s([None, 4])).as_list() == \
        [None, 4]
    assert UnsortedSegmentSum.shape(s([None, 4]), s([None]), num_segments=5).as_list() == [5, 4]
    assert SegmentSum.shape(s([None, 4]), s([None])).as_list() == [None, 4]


# --- errors ------------------------------------------------------------------------------
E = tf.errors.InvalidArgumentError
ERRORS = [
    (lambda: tf.scatter_nd([[0], [5]], [1.0, 2.0], [4]), E,
     "indices[1] = [5] does not index into shape [4]"),
    (lambda: tf.scatter_nd([[0], [-1]], [1.0, 2.0], [4]), E,
     "indices[1] = [-1] does not index into shape [4]"),
    (lambda: tf.scatter_nd([[[0], [5]]], [[1.0, 2.0]], [4]), E,
     "indices[0,1] = [5] does not index into shape [4]"),
    (lambda: tf.scatter_nd([[2, 2], [-1, 2]], np.ones([2, 4]), [2, 3, 4]), E,
     "indices[1] = [-1, 2] does not index into shape [2,3,4]"),
    (lambda: tf.scatter_nd([[0], [1]], [1.0, 2.0, 3.0], [4]), E,
     "Dimensions [0,1) of indices[shape=[2,1]] must match dimensions [0,1) of "
     "updates[shape=[3]]"),
    (lambda: tf.scatter_nd([[0], [1]], [1.0, 2.0], [4, 2]), E,
     "Dimensions [1,2) of input[shape=[4,2]] must match dimensions [1,1) of updates[shape=[2]]"),
    (lambda: tf.scatter_nd([[0, 1, 2]], [1.0], [4, 2]), E,
     "Dimensions [3,2) of input[shape=[4,2]] must match dimensions [1,1) of updates[shape=[1]]"),
    (lambda: tf.scatter_nd([1], np.ones([3, 4]), [2, 3, 4]), E,
     "Dimensions [0,1) of indices[shape=[1]] = 1 must match dimensions [0,1) of "
     "updates[shape=[3,4]] = 3"),
    (lambda: tf.scatter_nd([[0], [1]], [1.0, 2.0], [-4]), E, "Dimension -4 must be >= 0"),
    (lambda: tf.scatter_nd([5], 1.0, [4]), E, "Updates shape must have rank at least one. "
                                              "Found:[]"),
    (lambda: tf.scatter_nd(5, 1.0, [4]), E, "Indices shape must have rank at least one. Found:[]"),
    (lambda: tf.scatter_nd([[0.0], [1]], [1.0, 2.0], [4]), E,
     "Value for attr 'Tindices' of float is not in the list of allowed values: int16, int32, "
     "int64"),
    (lambda: tf.tensor_scatter_nd_update([1.0, 2, 3], [[0], [5]], [1.0, 2.0]), E,
     "indices[1] = [5] does not index into shape [3]"),
    (lambda: tf.tensor_scatter_nd_add([[1.0, 2], [3, 4]], [[0], [7]], [[9.0, 9], [8, 8]]), E,
     "indices[1] = [7] does not index into shape [2,2]"),
    (lambda: tf.tensor_scatter_nd_update([1.0, 2, 3], [[0], [1]], [1.0, 2.0, 3.0]), E,
     "Outer dimensions of indices and update must match. Indices shape: [2,1], updates "
     "shape:[3]"),
    (lambda: tf.tensor_scatter_nd_update([[1.0, 2], [3, 4]], [[0]], [[9.0, 9, 9]]), E,
     "The inner 1 dimensions of output.shape=[2,2] must match the inner 1 dimensions of "
     "updates.shape=[1,3]"),
    (lambda: tf.tensor_scatter_nd_add([[1.0, 2], [3, 4]], [[0, 0, 0]], [9.0]), E,
     "Inner dimensions of output shape must match inner dimensions of updates shape. Output: "
     "[2,2] updates: [1]"),
    (lambda: tf.tensor_scatter_nd_update([1.0, 2, 3], [1], [1.0]), E,
     "Inner dimensions of output shape must match inner dimensions of updates shape. Output: "
     "[3] updates: [1]"),
    (lambda: tf.tensor_scatter_nd_update([1.0, 2, 3], [5], 2.0), E,
     "Updates shape must have rank at least one. Found:[]"),
    (lambda: tf.tensor_scatter_nd_update([1.0, 2, 3], 1, [1.0]), E,
     "Indices shape must have rank at least one. Found:[]"),
    (lambda: tf.tensor_scatter_nd_update([1, 2, 3], [[1]], [1.5]), TypeError,
     "Cannot convert [1.5] to EagerTensor of dtype int32"),
    (lambda: tf.tensor_scatter_nd_update([1.0, 2.0], [[0]], tf.constant([1])), TypeError,
     "Cannot convert [1.0, 2.0] to EagerTensor of dtype int32"),
    (lambda: tf.tensor_scatter_nd_sub(tf.constant([1.0, 2.0]), [[0]],
                                      tf.constant([1.0], tf.float64)), E,
     "cannot compute TensorScatterSub as input #2(zero-based) was expected to be a float tensor "
     "but is a double tensor"),
    (lambda: tf.math.unsorted_segment_sum([1.0, 2, 3], [0, 5, 1], 3), E,
     "segment_ids[1] = 5 is out of range [0, 3)"),
    (lambda: tf.math.unsorted_segment_sum([1.0, 2, 3], [0, 1], 3), E,
     "data.shape = [3] does not start with segment_ids.shape = [2]"),
    (lambda: tf.math.unsorted_segment_sum([1.0, 2, 3], [0, 1, 0], -1), E,
     "Input num_segments == -1 must not be negative."),
    (lambda: tf.math.unsorted_segment_sum([True], [0], 2), E,
     "Value for attr 'T' of bool is not in the list of allowed values"),
    (lambda: tf.math.unsorted_segment_sum([1.0, 2, 3], [0.0, 1, 0], 2), E,
     "Value for attr 'Tindices' of float is not in the list of allowed values: int16, int32, "
     "int64"),
    (lambda: tf.math.segment_sum([1.0, 2, 3], [0, 2, 1]), E, "segment ids are not increasing"),
    (lambda: tf.math.segment_sum([1.0, 2, 3], [1, 2, -1]), E, "segment ids must be >= 0"),
    (lambda: tf.math.segment_sum([1.0, 2, 3], [-1, 0, 0]), E,
     "Segment id -1 out of range [0, 1), possibly because 'segment_ids' input is not sorted."),
    (lambda: tf.math.segment_sum([1.0, 2, 3], [0, 1]), E,
     "segment_ids should be the same size as dimension 0 of input."),
    (lambda: tf.math.segment_sum([[1.0, 2, 3]], [[0, 0, 0]]), E, "segment_ids should be a vector."),
    (lambda: tf.math.segment_sum(tf.constant(1.0), [0]), E, "input must be at least rank 1"),
]


@pytest.mark.parametrize("make, cls, message", ERRORS)
def test_errors(make, cls, message):
    with pytest.raises(cls, match=re.escape(message)):
        make()


def test_error_names_op_and_teaches():
    with pytest.raises(E) as info:
        tf.scatter_nd([[0], [5]], [1.0, 2.0], [4])
    assert "[Op:ScatterNd]" in str(info.value) and "the sizes are [4]" in str(info.value)
