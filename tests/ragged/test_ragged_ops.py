"""tf.ragged.* functions, ragged math and reductions, and gradients through flat_values.

Expected values are worked out by hand; gradients are checked against finite
differences (tests/gradcheck.py)."""
import numpy as np
import pytest

import minitf as tf
from gradcheck import check_grads

rc = tf.ragged.constant
R = tf.RaggedTensor


# --- tf.ragged.* ----------------------------------------------------------------------------
def test_range():
    assert tf.ragged.range([3, 0, 2]).to_list() == [[0, 1, 2], [], [0, 1]]
    assert tf.ragged.range([1, 5], [4, 2], [1, -1]).to_list() == [[1, 2, 3], [5, 4, 3]]
    assert tf.ragged.range(3).to_list() == [[0, 1, 2]]
    floats = tf.ragged.range(0.5, [2.0, 3.0], 0.5)
    assert floats.dtype == tf.float32 and floats.to_list()[0] == [0.5, 1.0, 1.5]
    with pytest.raises(tf.errors.InvalidArgumentError, match="Requires delta != 0"):
        tf.ragged.range([1], [3], [0])
    with pytest.raises(tf.errors.InvalidArgumentError, match="same shape"):
        tf.ragged.range([1, 2], [3, 4, 5])


def test_stack_and_concat():
    a, b = rc([[1, 2], [3]]), rc([[4]])
    assert tf.ragged.stack([a, b]).to_list() == [[[1, 2], [3]], [[4]]]
    assert tf.ragged.stack([[1, 2], [3, 4, 5]]).to_list() == [[1, 2], [3, 4, 5]]
    assert tf.stack([a, a], axis=1).to_list() == [[[1, 2], [1, 2]], [[3], [3]]]
    assert tf.concat([a, b], axis=0).to_list() == [[1, 2], [3], [4]]
    assert tf.concat([a, rc([[4], [5, 6]])], axis=1).to_list() == [[1, 2, 4], [3, 5, 6]]
    assert tf.concat([a, tf.constant([[7, 8]])], axis=0).to_list() == [[1, 2], [3], [7, 8]]
    with pytest.raises(tf.errors.InvalidArgumentError, match="incompatible shapes"):
        tf.concat([a, b], axis=1)
    with pytest.raises(ValueError, match="may not be empty"):
        tf.ragged.stack([])


def test_boolean_mask():
    assert tf.ragged.boolean_mask([1, 2, 3], [True, False, True]).numpy().tolist() == [1, 3]
    assert tf.ragged.boolean_mask([[1, 2, 3], [4, 5, 6]],
                                  [[True, False, True], [False, False, True]]).to_list() == \
        [[1, 3], [6]]
    data = rc([[1, 2, 3], [4]])
    assert tf.ragged.boolean_mask(data, rc([[True, False, True], [False]])).to_list() == \
        [[1, 3], []]
    assert tf.ragged.boolean_mask(data, [True, False]).to_list() == [[1, 2, 3]]
    with pytest.raises(tf.errors.InvalidArgumentError, match="identical ragged splits"):
        tf.ragged.boolean_mask(data, rc([[True], [False]]))


def test_segment_ids_and_row_splits():
    ids = tf.ragged.row_splits_to_segment_ids([0, 2, 2, 5])
    assert ids.numpy().tolist() == [0, 0, 2, 2, 2] and ids.dtype == tf.int64
    assert tf.ragged.row_splits_to_segment_ids([0, 1], out_type=tf.int32).dtype == tf.int32
    assert tf.ragged.segment_ids_to_row_splits([0, 0, 2, 2]).numpy().tolist() == [0, 2, 2, 4]
    assert tf.ragged.segment_ids_to_row_splits([0, 0, 2], num_segments=5).numpy().tolist() == \
        [0, 2, 2, 3, 3, 3]
    with pytest.raises(ValueError, match="must have rank 1"):
        tf.ragged.row_splits_to_segment_ids([[0, 2]])


def test_map_flat_values():
    a = rc([[1, 2], [3]])
    assert tf.ragged.map_flat_values(tf.ones_like, a).to_list() == [[1, 1], [1]]
    assert tf.ragged.map_flat_values(tf.multiply, a, rc([[5, 6], [7]])).to_list() == \
        [[5, 12], [21]]
    assert tf.ragged.map_flat_values(tf.add, a, 5).to_list() == [[6, 7], [8]]
    assert tf.ragged.map_flat_values(tf.ones_like, [1, 2]).numpy().tolist() == [1, 1]
    with pytest.raises(tf.errors.InvalidArgumentError, match="incompatible row_splits"):
        tf.ragged.map_flat_values(tf.multiply, a, rc([[5], [7, 8]]))
    with pytest.raises(ValueError, match="same outer-dimension size"):
        tf.ragged.map_flat_values(tf.reduce_sum, a)


def test_stack_dynamic_partitions():
    got = tf.ragged.stack_dynamic_partitions([1, 2, 3, 4, 5], [2, 0, 2, 1, 0], 3)
    assert got.to_list() == [[2, 5], [4], [1, 3]]
    got = tf.ragged.stack_dynamic_partitions(rc([[1], [2, 3], []]), [1, 0, 1], 2)
    assert got.to_list() == [[[2, 3]], [[1], []]]
    with pytest.raises(tf.errors.InvalidArgumentError, match="less than num_partitions"):
        tf.ragged.stack_dynamic_partitions([1, 2, 3, 4, 5], [2, 0, 2, 1, 0], 2)
    with pytest.raises(tf.errors.InvalidArgumentError, match="non-negative"):
        tf.ragged.stack_dynamic_partitions([1, 2], [1, -1], 3)


def test_cross_and_cross_hashed():
    a = rc([["a", "b"], ["c"]])
    d = tf.constant([["d"], ["e"]])
    assert tf.ragged.cross([a, d]).to_list() == [[b"a_X_d", b"b_X_d"], [b"c_X_e"]]
    three = tf.ragged.cross([rc([["a", "b"]]), rc([["c", "d"]]), rc([["e"]])])
    assert three.to_list() == [[b"a_X_c_X_e", b"a_X_d_X_e", b"b_X_c_X_e", b"b_X_d_X_e"]]
    assert tf.ragged.cross([rc([[1, 2]], dtype=tf.int64), rc([["c"]])]).to_list() == \
        [[b"1_X_c", b"2_X_c"]]
    from minitf.ops.hash_ops import fingerprint64, fingerprint_cat64
    key = 0xDECAFCAFFE  # hand-computed bucket of the ("a", "d") combination
    want = fingerprint_cat64(fingerprint_cat64(key, fingerprint64(b"a")), fingerprint64(b"d"))
    hashed = tf.ragged.cross_hashed([a, d], num_buckets=10)
    assert hashed.to_list()[0][0] == want % 10 and hashed.dtype == tf.int64
    with pytest.raises(tf.errors.InvalidArgumentError, match="same batch dimension"):
        tf.ragged.cross([a, tf.constant([["d"], ["e"], ["f"]])])
    with pytest.raises(ValueError, match="Unexpected dtype"):
        tf.ragged.cross([rc([[1.5]])])


def test_gather():
    rt = rc([[1, 2], [3], [4, 5, 6]])
    assert tf.gather(rt, [2, 0, 2]).to_list() == [[4, 5, 6], [1, 2], [4, 5, 6]]
    assert tf.gather([1, 2, 3], rc([[2], [0, 1]])).to_list() == [[3], [1, 2]]
    with pytest.raises(tf.errors.InvalidArgumentError, match="not in"):
        tf.gather(rt, [3])


# --- element-wise math ----------------------------------------------------------------------
def test_elementwise_ops_keep_the_rows():
    a = rc([[1.0, 2.0], [3.0], []])
    assert (a + 1).to_list() == [[2.0, 3.0], [4.0], []]
    assert (2 * a).to_list() == [[2.0, 4.0], [6.0], []]
    assert (a + rc([[10.0, 20.0], [30.0], []])).to_list() == [[11.0, 22.0], [33.0], []]
    assert (a + tf.constant([[10.0], [20.0], [30.0]])).to_list() == [[11.0, 12.0], [23.0], []]
    assert (tf.constant([[10.0], [20.0], [30.0]]) - a).to_list() == [[9.0, 8.0], [17.0], []]
    assert (a + tf.constant([10.0])).to_list() == [[11.0, 12.0], [13.0], []]
    assert (-a).to_list() == [[-1.0, -2.0], [-3.0], []] and abs(-a).to_list() == a.to_list()
    assert (a ** 2).to_list() == [[1.0, 4.0], [9.0], []]
    assert (a > 1).to_list() == [[False, True], [True], []]
    assert (a == 1).to_list() == [[True, False], [False], []]
    assert ((a > 1) & (a < 3)).to_list() == [[False, True], [False], []]
    assert (~(a > 1)).to_list() == [[True, False], [False], []]
    assert (rc([[1, 2], [3]]) / 2).dtype == tf.float64  # integer / gives float64, as in TF
    assert (rc([[1, 2], [3]]) // 2).to_list() == [[0, 1], [1]]
    assert tf.math.maximum(a, 1.5).to_list() == [[1.5, 2.0], [3.0], []]
    assert tf.nn.relu(a - 2).to_list() == [[0.0, 0.0], [1.0], []]
    assert tf.cast(a, tf.int32).to_list() == [[1, 2], [3], []]
    assert tf.clip_by_value(a, 1.5, 2.5).to_list() == [[1.5, 2.0], [2.5], []]
    assert tf.add_n([a, a, a]).to_list() == [[3.0, 6.0], [9.0], []]
    assert tf.where(a > 1.5, a, a * 0).to_list() == [[0.0, 2.0], [3.0], []]
    assert tf.where(a > 1.5).numpy().tolist() == [[0, 1], [1, 0]]
    assert tf.zeros_like(a).to_list() == [[0.0, 0.0], [0.0], []]
    assert tf.ones_like(a, dtype=tf.int32).to_list() == [[1, 1], [1], []]
    assert tf.math.sqrt(rc([[4.0], [9.0]])).to_list() == [[2.0], [3.0]]
    inner = rc([[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0]]], ragged_rank=1)
    assert (inner + tf.constant([100.0, 200.0])).to_list() == \
        [[[101.0, 202.0], [103.0, 204.0]], [[105.0, 206.0]]]
    nested = rc([[[1.0, 2.0], [3.0]], [[4.0]], []])
    assert (nested + tf.constant([[[1.0]], [[2.0]], [[3.0]]])).to_list() == \
        [[[2.0, 3.0], [4.0]], [[6.0]], []]


def test_elementwise_errors():
    a = rc([[1.0, 2.0], [3.0], []])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Condition x == y"):
        a + rc([[10.0], [30.0, 1.0], []])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Condition x == y"):
        a + tf.constant([10.0, 20.0])
    with pytest.raises(tf.errors.InvalidArgumentError, match="AddV2"):
        rc([[1, 2], [3]]) + rc([[1.0, 2.0], [3.0]])


# --- reductions -----------------------------------------------------------------------------
def test_reductions_over_rows_columns_and_all():
    a = rc([[1.0, 2.0], [3.0], []])
    assert tf.reduce_sum(a, axis=1).numpy().tolist() == [3.0, 3.0, 0.0]
    assert tf.reduce_sum(a, axis=0).numpy().tolist() == [4.0, 2.0]
    assert float(tf.reduce_sum(a)) == 6.0
    assert tf.reduce_sum(a, axis=1, keepdims=True).numpy().tolist() == [[3.0], [3.0], [0.0]]
    mean = tf.reduce_mean(a, axis=1).numpy()
    assert mean[:2].tolist() == [1.5, 3.0] and np.isnan(mean[2])
    assert tf.reduce_mean(rc([[1, 2], [3]]), axis=1).dtype == tf.float64
    lowest = np.finfo(np.float32).min
    assert tf.reduce_max(a, axis=1).numpy().tolist() == [2.0, 3.0, lowest]
    assert tf.reduce_min(rc([[1, 2], []]), axis=1).numpy().tolist() == [1, 2 ** 31 - 1]
    assert tf.reduce_prod(a, axis=1).numpy().tolist() == [2.0, 3.0, 1.0]
    assert tf.reduce_max(a, axis=0).numpy().tolist() == [3.0, 2.0]
    assert tf.reduce_any(a > 1, axis=1).numpy().tolist() == [True, True, False]
    assert tf.reduce_all(a > 1, axis=1).numpy().tolist() == [False, True, True]
    assert tf.math.reduce_variance(rc([[1.0, 2.0], [3.0]]), axis=1).numpy().tolist() == \
        [0.25, 0.0]
    assert tf.math.reduce_std(rc([[1.0, 3.0]]), axis=1).numpy().tolist() == [1.0]
    with pytest.raises(ValueError, match="out of bounds"):
        tf.reduce_sum(a, axis=2)


def test_reductions_of_a_rank_3_ragged_tensor():
    r3 = rc([[[1.0, 2.0], [3.0]], [[4.0]], []])
    assert tf.reduce_sum(r3, axis=2).to_list() == [[3.0, 3.0], [4.0], []]
    assert tf.reduce_sum(r3, axis=1).to_list() == [[4.0, 2.0], [4.0], []]
    assert tf.reduce_sum(r3, axis=0).to_list() == [[5.0, 2.0], [3.0]]
    inner = rc([[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0]]], ragged_rank=1)
    assert tf.reduce_sum(inner, axis=2).to_list() == [[3.0, 7.0], [11.0]]
    assert tf.reduce_sum(inner, axis=1).numpy().tolist() == [[4.0, 6.0], [5.0, 6.0]]
    assert tf.reduce_mean(inner, axis=0).numpy().tolist() == [[3.0, 4.0], [3.0, 4.0]]


def test_shape_helpers():
    i = rc([[1, 2], [3]])
    assert tf.expand_dims(i, 0).to_list() == [[[1, 2], [3]]]
    assert tf.expand_dims(i, 1).to_list() == [[[1, 2]], [[3]]]
    assert tf.expand_dims(i, -1).to_list() == [[[1], [2]], [[3]]]
    assert int(tf.size(i)) == 3 and tf.size(i, out_type=tf.int64).dtype == tf.int64
    assert int(tf.rank(i)) == 2


def test_shape_of_a_ragged_tensor():
    shape = tf.shape(rc([[[1, 2], [3]], [[4]]]))
    assert isinstance(shape, tf.experimental.DynamicRaggedShape)
    assert shape.static_lengths() == [2, (2, 1), (2, 1, 1)] and shape.num_row_partitions == 2
    assert int(shape[0]) == 2 and shape.rank == 3 and shape.dtype == tf.int32
    with pytest.raises(ValueError, match="Index 1 is not uniform"):
        shape[1]
    inner = tf.shape(rc([[[1, 2], [3, 4]], [[5, 6]]], ragged_rank=1))
    assert int(inner[2]) == 2 and inner.inner_shape.numpy().tolist() == [3, 2]
    assert tf.shape(tf.constant([[1, 2]])).numpy().tolist() == [1, 2]  # dense: unchanged


def test_dense_calls_still_reach_the_dense_ops():
    assert tf.add(1, 2).numpy() == 3 and tf.reduce_sum([[1, 2]], axis=1).numpy().tolist() == [3]
    assert tf.math.add.__wrapped__.__module__ == "minitf.ops.math_ops"
    assert tf.add is tf.math.add


# --- gradients ------------------------------------------------------------------------------
LENGTHS = [2, 0, 3, 1]


def _ragged(x):
    return R.from_row_lengths(x, LENGTHS)


@pytest.mark.parametrize("f", [
    lambda x: _ragged(x).to_tensor(),
    lambda x: tf.reduce_sum(_ragged(x) * _ragged(x), axis=1),
    lambda x: tf.reduce_sum(_ragged(x), axis=0),
    lambda x: tf.reduce_max(_ragged(x), axis=1)[:1],
    lambda x: tf.reduce_mean(_ragged(x), axis=1)[:1],
    lambda x: tf.reduce_prod(_ragged(x), axis=0),
    lambda x: tf.math.exp(_ragged(x))[:, :1].to_tensor(),
    lambda x: (_ragged(x) + tf.constant([[1.0], [2.0], [3.0], [4.0]], tf.float64)).flat_values,
    lambda x: tf.concat([_ragged(x), _ragged(x)], axis=1).to_tensor(),
    lambda x: tf.gather(_ragged(x), [2, 0]).to_tensor(),
    lambda x: R.from_tensor(tf.reshape(x, [2, 3]), lengths=[1, 3]).flat_values,
])
def test_gradients_reach_the_values(f):
    x = np.array([0.3, -1.2, 0.7, 2.0, 1.1, 0.5])
    check_grads(f, x)


def test_gradient_through_the_default_value_and_nested_values():
    check_grads(lambda x, d: _ragged(x).to_tensor(default_value=d),
                np.array([0.3, -1.2, 0.7, 2.0, 1.1, 0.5]), np.array(0.25))
    check_grads(lambda x: tf.reduce_sum(
        R.from_nested_row_lengths(x, [[2, 1], [1, 2, 3]]), axis=1).to_tensor(),
        np.array([0.3, -1.2, 0.7, 2.0, 1.1, 0.5]))
