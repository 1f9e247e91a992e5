"""tf.repeat, roll, meshgrid, reverse_sequence, dynamic_partition/stitch, unique_with_counts,
searchsorted, unravel_index, histogram_fixed_width(_bins), truncatediv/mod, bitcast,
saturate_cast: values, dtypes, errors, gradients (finite differences), tf.function; and
every case of CASES run against real TF in test_top_level_real_tf.py.
"""
import numpy as np
import pytest

import minitf as tf
from tests.gradcheck import check_grads


def test_repeat_and_roll_values():
    assert tf.repeat([[1, 2], [3, 4]], 2).numpy().tolist() == [1, 1, 2, 2, 3, 3, 4, 4]
    r = tf.repeat([[1, 2], [3, 4]], [0, 3], axis=1)
    assert r.numpy().tolist() == [[2, 2, 2], [4, 4, 4]] and r.dtype == tf.int32
    assert tf.roll(tf.range(5), -1, 0).numpy().tolist() == [1, 2, 3, 4, 0]
    assert tf.roll([[1, 2], [3, 4]], [1, 1], [1, 1]).numpy().tolist() == [[1, 2], [3, 4]]
    with pytest.raises(ValueError, match="Dimensions 2 and 3 are not compatible"):
        tf.repeat([1, 2], [1, 2, 3])
    with pytest.raises(tf.errors.InvalidArgumentError, match="shift and axis must have"):
        tf.roll([1, 2], [1, 2], [0])


def test_meshgrid_and_reverse_sequence():
    x, y = tf.meshgrid([1.0, 2.0, 3.0], [4.0, 5.0])
    assert x.shape == (2, 3) and y.numpy()[:, 0].tolist() == [4.0, 5.0]
    i, j = tf.meshgrid([1, 2, 3], [4, 5], indexing="ij")
    assert i.shape == (3, 2) and j.numpy()[0].tolist() == [4, 5]
    assert tf.meshgrid() == []
    with pytest.raises(ValueError, match="either 'xy' or 'ij'"):
        tf.meshgrid([1], indexing="yx")
    with pytest.raises(TypeError, match="'axis' is an invalid keyword"):
        tf.meshgrid([1], axis=0)
    r = tf.reverse_sequence([[1, 2, 3], [4, 5, 6]], [3, 0], seq_axis=1, batch_axis=0)
    assert r.numpy().tolist() == [[3, 2, 1], [4, 5, 6]]
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"seq_lens\(0\) > input.dims\(1\)"):
        tf.reverse_sequence([[1, 2, 3]], [4], seq_axis=1)


def test_partition_and_stitch_round_trip():
    data = tf.constant([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])
    parts = tf.dynamic_partition(data, [1, 0, 1], 2)
    assert [p.numpy().tolist() for p in parts] == [[[3.0, 4.0]], [[1.0, 2.0], [5.0, 6.0]]]
    back = tf.dynamic_stitch([[1], [0, 2]], parts)
    assert back.numpy().tolist() == data.numpy().tolist()
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"partitions\[1\] = 3 is not in"):
        tf.dynamic_partition([1, 2], [0, 3], 2)
    with pytest.raises(tf.errors.InvalidArgumentError, match="does not start with"):
        tf.dynamic_stitch([[0, 1]], [[1]])


def test_unique_searchsorted_unravel_histogram():
    y, idx, count = tf.unique_with_counts(tf.constant([3, 1, 3, 3]))
    assert (y.numpy().tolist(), idx.numpy().tolist(), count.numpy().tolist()) == \
        ([3, 1], [0, 1, 0, 0], [3, 1])
    assert tf.searchsorted([[1, 3, 5], [2, 4, 6]], [[3], [3]]).numpy().tolist() == [[1], [1]]
    assert tf.searchsorted([1, 3, 5], [3], side="right").numpy().tolist() == [2]
    assert tf.unravel_index([0, 11], [3, 4]).numpy().tolist() == [[0, 2], [0, 3]]
    h = tf.histogram_fixed_width(tf.constant([0.0, 0.1, 0.9, 2.0]), [0.0, 1.0], nbins=2)
    assert h.numpy().tolist() == [2, 2] and h.dtype == tf.int32
    bins = tf.histogram_fixed_width_bins(tf.constant([[0.0, 0.6]]), [0.0, 1.0], nbins=2)
    assert bins.numpy().tolist() == [[0, 1]]
    with pytest.raises(tf.errors.InvalidArgumentError, match="must not contain NaN"):
        tf.histogram_fixed_width([np.nan], [0.0, 1.0])


def test_truncate_bitcast_saturate():
    assert tf.truncatediv([-7, 7], [2, 2]).numpy().tolist() == [-3, 3]
    assert tf.truncatemod([-7, 7], [2, 2]).numpy().tolist() == [-1, 1]
    with pytest.raises(tf.errors.InternalError, match="only integer div and mod"):
        tf.truncatediv([1], [0])
    assert tf.bitcast(tf.constant([1, 2], tf.int16), tf.uint8).numpy().tolist() == [[1, 0], [2, 0]]
    with pytest.raises(tf.errors.InvalidArgumentError, match="Cannot bitcast from 4 to 5"):
        tf.bitcast(tf.constant([1, 2, 3], tf.uint8), tf.int16)
    assert tf.saturate_cast([-3.0, 300.0], tf.uint8).numpy().tolist() == [0, 255]
    assert tf.dtypes.saturate_cast(tf.constant([1e10]), tf.int32).numpy().tolist() == [2147483520]


def test_approx_top_k_is_exact_on_the_cpu():
    values, indices = tf.approx_top_k(tf.constant([[1.0, 5.0, 3.0, 2.0]]), 2)
    assert values.numpy().tolist() == [[5.0, 3.0]] and indices.numpy().tolist() == [[1, 2]]
    with pytest.raises(tf.errors.NotFoundError, match="ApproxTopK"):
        tf.approx_top_k(tf.constant([[1.0, 2.0]]), 1, is_max_k=False)
    with pytest.raises(tf.errors.InvalidArgumentError, match="half, bfloat16, float"):
        tf.approx_top_k(tf.constant([3, 1, 2]), 2)
    x = tf.constant([[1.0, 5.0, 3.0]])
    with tf.GradientTape() as tape:
        tape.watch(x)
        top = tf.approx_top_k(x, 2).values * tf.constant([[2.0, 3.0]])
    assert tape.gradient(top, x).numpy().tolist() == [[0.0, 2.0, 3.0]]


def test_gradients_match_finite_differences():
    x = [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]
    check_grads(lambda t: tf.repeat(t, [1, 0, 2], axis=1), x, order=2)
    check_grads(lambda t: tf.repeat(t, 2), x, order=2)
    check_grads(lambda t: tf.roll(t, [1, -1], [0, 1]), x, order=2)
    check_grads(lambda t: tf.reverse_sequence(t, [2, 3], seq_axis=1, batch_axis=0), x, order=2)
    check_grads(lambda a, b: tf.meshgrid(a, b)[0] * tf.meshgrid(a, b)[1], [1.0, 2.0], [3.0],
                order=2)
    check_grads(lambda t: tf.dynamic_partition(t, [1, 0], 2)[1] * 3.0, x, order=2)
    check_grads(lambda a, b: tf.dynamic_stitch([[0, 2], [1]], [a, b]), [1.0, 2.0], [3.0], order=2)


def test_no_gradient_where_tf_has_none():
    x = tf.constant([1.0, 2.0])
    with tf.GradientTape(persistent=True) as tape:
        tape.watch(x)
        div, mod = tf.truncatediv(x, 3.0), tf.truncatemod(x, 3.0)
        uniq = tf.unique_with_counts(x).y
    assert tape.gradient(div, x) is None
    with pytest.raises(LookupError, match="no entry for: TruncateMod"):
        tape.gradient(mod, x)
    with pytest.raises(LookupError, match="no entry for: UniqueWithCounts"):
        tape.gradient(uniq, x)


def test_inside_tf_function_with_unknown_sizes():
    @tf.function
    def f(x, parts, lengths):
        pieces = tf.dynamic_partition(x, parts, 2)
        return (tf.repeat(x, 2), tf.roll(x, 1, 0), tf.reverse_sequence(tf.reshape(x, [1, -1]),
                lengths, seq_axis=1), pieces[0], tf.dynamic_stitch([tf.range(tf.size(x))], [x]),
                tf.searchsorted(x, x), tf.unique_with_counts(parts).count,
                tf.truncatediv(x, 2.0), tf.bitcast(x, tf.int32))

    concrete = f.get_concrete_function(tf.TensorSpec([None]), tf.TensorSpec([None], tf.int32),
                                       tf.TensorSpec([1], tf.int32))
    assert concrete.structured_outputs[0].shape.as_list() == [None]
    out = f(tf.constant([1.0, 2.0, 3.0]), tf.constant([0, 1, 0]), tf.constant([2]))
    assert [t.numpy().tolist() for t in out[:4]] == [
        [1.0, 1.0, 2.0, 2.0, 3.0, 3.0], [3.0, 1.0, 2.0], [[2.0, 1.0, 3.0]], [1.0, 3.0]]
    assert out[4].numpy().tolist() == [1.0, 2.0, 3.0] and out[5].numpy().tolist() == [0, 1, 2]
    assert out[6].numpy().tolist() == [2, 1] and out[7].numpy().tolist() == [0.0, 1.0, 1.0]
    assert out[8].numpy().tolist()[0] == 1065353216


# --- against real TF (one subprocess for every case) --------------------------------------------
CASES = [
    "tf.repeat([1, 2, 3], 2)",
    "tf.repeat([[1, 2], [3, 4]], [1, 2], axis=0)",
    "tf.repeat([[1, 2], [3, 4]], 3)",
    "tf.repeat(3, 4)",
    "tf.repeat([1, 2], [1, 2, 3])",
    "tf.repeat([1., 2.], tf.constant([2, 3], tf.int64))",
    "tf.repeat([[1, 2]], 2, axis=2)",
    "tf.repeat([1, 2], -1)",
    "tf.repeat([[1., 2.], [3., 4.]], [2, 0], axis=-1)",
    "tf.roll([1, 2, 3, 4, 5], 2, 0)",
    "tf.roll([[1, 2], [3, 4]], [1, -1], [0, 1])",
    "tf.roll([1, 2], 1, 3)",
    "tf.roll([1, 2], [1, 2], [0])",
    "tf.roll([[1, 2], [3, 4]], [1, 1], [0, 0])",
    "tf.roll([[1., 2., 3.]], 5, -1)",
    "tf.meshgrid([1, 2, 3], [4, 5])",
    "tf.meshgrid([1, 2, 3], [4, 5], indexing='ij')",
    "tf.meshgrid([1, 2], [4., 5])",
    "tf.meshgrid([1, 2], indexing='xy')",
    "tf.meshgrid()",
    "tf.meshgrid([1, 2], [3], indexing='zz')",
    "tf.meshgrid([1., 2.], [3.], [4., 5., 6.])",
    "tf.reverse_sequence([[1, 2, 3, 4], [5, 6, 7, 8]], [2, 3], seq_axis=1, batch_axis=0)",
    "tf.reverse_sequence([[1, 2], [3, 4], [5, 6]], [3, 1], seq_axis=0, batch_axis=1)",
    "tf.reverse_sequence([[1, 2, 3]], [4], seq_axis=1)",
    "tf.reverse_sequence([[1, 2, 3]], [2, 2], seq_axis=1)",
    "tf.reverse_sequence([[1, 2, 3]], [2], seq_axis=1, batch_axis=1)",
    "tf.reverse_sequence([[1., 2., 3.]], tf.constant([2], tf.int64), seq_axis=1)",
    "tf.dynamic_partition([10, 20, 30, 40], [0, 1, 0, 2], 3)",
    "tf.dynamic_partition([[1, 2], [3, 4]], [1, 0], 2)",
    "tf.dynamic_partition([1, 2], [0, 3], 2)",
    "tf.dynamic_partition([[1, 2], [3, 4]], [[0, 1], [1, 0]], 2)",
    "tf.dynamic_partition([1, 2], [0], 2)",
    "tf.dynamic_stitch([[0, 2], [1]], [[10, 30], [20]])",
    "tf.dynamic_stitch([[0, 1], [1]], [[10, 30], [20]])",
    "tf.dynamic_stitch([[0, 3]], [[[1, 2], [3, 4]]])",
    "tf.dynamic_stitch([[0, 1]], [[1]])",
    "tf.dynamic_stitch([[0], [1]], [[1.], [2]])",
    "tf.dynamic_stitch([[0, -1]], [[1, 2]])",
    "tf.histogram_fixed_width([-1.0, 0.0, 1.5, 2.0, 5.0, 15], [0.0, 5.0], nbins=5)",
    "tf.histogram_fixed_width([1, 2, 3], [0, 4], nbins=2, dtype=tf.int64)",
    "tf.histogram_fixed_width_bins([-1.0, 0.0, 1.5, 2.0, 5.0, 15], [0.0, 5.0], nbins=5)",
    "tf.histogram_fixed_width_bins([[1., 2], [3, 4]], [0., 4], nbins=2)",
    "tf.histogram_fixed_width([1.], [1., 0.])",
    "tf.histogram_fixed_width([1.], [0., 1.], nbins=0)",
    "tf.histogram_fixed_width([1.], [0, 1], nbins=2)",
    "tf.histogram_fixed_width([np.nan, 1.], [0., 1.], nbins=2)",
    "tf.histogram_fixed_width(tf.constant(np.arange(50) * 0.0213 - 0.1), [0., 1.], nbins=7)",
    "tf.unique_with_counts([1, 1, 2, 4, 4, 4, 7, 8, 8])",
    "tf.unique_with_counts(['a', 'b', 'a'], out_idx=tf.int64)",
    "tf.unique_with_counts([[1]])",
    "tf.unique_with_counts([2., np.nan, 2.])",
    "tf.searchsorted([[1, 2, 3], [1, 5, 6]], [[2, 2.5], [5, 0]])",
    "tf.searchsorted([1., 2, 3], [[2.]])",
    "tf.searchsorted([1., 2, 3], [2., 2.5], side='right', out_type=tf.int64)",
    "tf.searchsorted([1, 2, 3], [2.])",
    "tf.searchsorted([1, 2, 3], [2], side='middle')",
    "tf.searchsorted([[1, 2, 3]], [[2], [3]])",
    "tf.searchsorted([[1, 2, 3], [4, 5, 6]], [[0, 9], [4, 5]])",
    "tf.unravel_index([5, 7], [3, 4])",
    "tf.unravel_index(5, [3, 4])",
    "tf.unravel_index([12], [3, 4])",
    "tf.unravel_index(tf.constant([5], tf.int64), [3, 4])",
    "tf.unravel_index([1.], [3])",
    "tf.truncatediv([-7, 7], [2, -2])",
    "tf.truncatemod([-7, 7], [2, -2])",
    "tf.truncatemod([-7.5, 7.5], [2., -2.])",
    "tf.truncatediv([-7., 7.], [2., -2.])",
    "tf.truncatediv([1], [0])",
    "tf.truncatemod([1], [0])",
    "tf.truncatediv(tf.constant([1], tf.uint8), tf.constant([0], tf.uint8))",
    "tf.truncatediv(tf.constant([-2**62 - 1], tf.int64), tf.constant([3], tf.int64))",
    "tf.truncatediv([[-9], [9]], [4, -4])",
    "tf.truncatemod(tf.constant([5], tf.uint8), tf.constant([3], tf.uint8))",
    "tf.saturate_cast([-3., 300.], tf.uint8)",
    "tf.saturate_cast([1e10], tf.int32)",
    "tf.dtypes.saturate_cast([300], tf.int8)",
    "tf.saturate_cast([1.5 + 2j], tf.float32)",
    "tf.saturate_cast([3e38], tf.float16)",
    "tf.saturate_cast([-1], tf.uint32)",
    "tf.bitcast(tf.constant(1.0), tf.int32)",
    "tf.bitcast(tf.constant([1, 2], tf.int32), tf.int8)",
    "tf.bitcast(tf.constant([[1, 2, 3, 4]], tf.uint8), tf.int32)",
    "tf.bitcast(tf.constant([1, 2, 3], tf.uint8), tf.int16)",
    "tf.bitcast(tf.constant([1.], tf.float32), tf.int64)",
    "tf.bitcast(tf.constant([[1, 2], [3, 4]], tf.uint8), tf.int16)",
    "tf.bitcast(tf.constant([1.5], tf.float64), tf.uint32)",
    "tf.approx_top_k(tf.constant([[1., 5., 3., 2.], [4., 0., 9., 1.]]), 2)",
    "tf.approx_top_k(tf.constant([[1., 5., 3., 2.]]), 2, is_max_k=False)",
    "tf.approx_top_k(tf.constant([[1., 5.]]), 1, reduction_dimension=0)",
    "tf.approx_top_k(tf.constant([3, 1, 2]), 3)", "tf.approx_top_k(tf.constant([3., 1, 2]), 3)",
    "grad(lambda x: tf.approx_top_k(tf.cast(x, tf.float32), 2).values * [2., 3.], [1., 5., 3.])",
    # gradients (the tape's, with the weights w), as real TF computes them
    "grad(lambda x: tf.saturate_cast(x, tf.float32), [1.0, 1e39, -1e39])",
    "grad(lambda x: tf.saturate_cast(x, tf.int8), [1.0])",
    "grad(lambda x: tf.repeat(x, [2, 0, 1]) * w(3), [1.0, 2.0, 3.0])",
    "grad(lambda x: tf.roll(x, 1, 0) * w(3), [1.0, 2.0, 3.0])",
    "grad(lambda x: tf.reverse_sequence(tf.stack([x, x]), [2, 3], 1) * w(3), [1.0, 2.0, 3.0])",
    "grad(lambda x: tf.dynamic_partition(x, [1, 0, 1], 2)[1] * w(2), [1.0, 2.0, 3.0])",
    "grad(lambda x: tf.dynamic_stitch([[0, 1], [1]], [x[:2], x[2:] * 3]) * w(2), [1.0, 2.0, 3.0])",
    "grad(lambda x: tf.meshgrid(x, x[:2])[0] * w(2)[:, None], [1.0, 2.0, 3.0])",
    "grad(lambda x: tf.truncatediv(x, 2.0), [1.0, 3.0])",
]
SETUP = """
def w(n):
    return tf.constant(np.arange(1.0, n + 1.0) ** 1.5)
def grad(f, x):
    x = tf.constant(x, tf.float64)
    with tf.GradientTape() as tape:
        tape.watch(x)
        y = f(x)
    return tape.gradient(y, x)
"""
