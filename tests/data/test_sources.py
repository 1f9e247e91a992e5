"""Dataset sources, element_spec and repr (expected texts verified against TF 2.21)."""
import collections

import numpy as np
import pytest

import minitf as tf

D = tf.data.Dataset


def values(ds):
    return list(ds.as_numpy_iterator())


def test_reprs_match_tensorflow():
    # verified against TF 2.21
    assert repr(D.from_tensor_slices([1, 2, 3])) == \
        "<_TensorSliceDataset element_spec=TensorSpec(shape=(), dtype=tf.int32, name=None)>"
    assert repr(D.range(5)) == \
        "<_RangeDataset element_spec=TensorSpec(shape=(), dtype=tf.int64, name=None)>"
    assert repr(D.from_tensors([1, 2])) == \
        "<_TensorDataset element_spec=TensorSpec(shape=(2,), dtype=tf.int32, name=None)>"
    assert repr(D.range(3).cache()).startswith("<CacheDataset ")
    assert repr(D.range(3).enumerate()).startswith("<_ZipDataset ")
    assert repr(D.range(3).window(2)) == ("<_WindowDataset element_spec=DatasetSpec(TensorSpec("
                                          "shape=(), dtype=tf.int64, name=None), TensorShape([]))>")
    for ds, name in [(D.range(3).map(lambda x: x), "_MapDataset"),
                     (D.range(3).map(lambda x: x, num_parallel_calls=2), "_ParallelMapDataset"),
                     (D.range(3).shuffle(2), "_ShuffleDataset"), (D.range(3).repeat(), "_RepeatDataset"),
                     (D.range(3).take(1), "_TakeDataset"), (D.range(3).skip(1), "_SkipDataset"),
                     (D.range(3).filter(lambda x: x > 0), "_FilterDataset"),
                     (D.range(3).prefetch(1), "_PrefetchDataset"),
                     (D.range(3).padded_batch(2), "_PaddedBatchDataset"),
                     (D.range(4).batch(2).unbatch(), "_UnbatchDataset"),
                     (D.range(3).concatenate(D.range(2)), "_ConcatenateDataset"),
                     (D.range(3).shard(2, 0), "_ShardDataset"),
                     (D.range(3).flat_map(lambda x: D.range(x)), "_FlatMapDataset"),
                     (D.range(3).interleave(lambda x: D.range(x)), "_InterleaveDataset"),
                     (D.range(3).interleave(lambda x: D.range(x), num_parallel_calls=2),
                      "_ParallelInterleaveDataset")]:
        assert repr(ds).startswith(f"<{name} element_spec=")


def test_from_tensor_slices_structures():
    ds = D.from_tensor_slices({"a": [1, 2], "b": [[1.0, 2.0], [3.0, 4.0]]})
    assert repr(ds.element_spec) == ("{'a': TensorSpec(shape=(), dtype=tf.int32, name=None), "
                                     "'b': TensorSpec(shape=(2,), dtype=tf.float32, name=None)}")
    first = values(ds)[0]
    assert first["a"] == 1 and first["b"].tolist() == [1.0, 2.0]
    assert values(D.from_tensor_slices(([1, 2], [3, 4]))) == [(1, 3), (2, 4)]
    assert D.from_tensor_slices(np.array([1.0, 2.0])).element_spec.dtype == tf.float64
    assert values(D.from_tensor_slices(["a", "b"])) == [b"a", b"b"]
    Point = collections.namedtuple("Point", "x y")
    p = values(D.from_tensor_slices(Point([1, 2], [3, 4])))[1]
    assert isinstance(p, Point) and (p.x, p.y) == (2, 4)


def test_range_and_from_tensors():
    assert values(D.range(2, 10, 3)) == [2, 5, 8]
    assert D.range(5, output_type=tf.int32).element_spec.dtype == tf.int32
    assert values(D.range(5, 0, -2)) == [5, 3, 1]
    assert [v.tolist() for v in values(D.from_tensors([1, 2]))] == [[1, 2]]
    assert D.from_tensors(np.float64(1)).element_spec.dtype == tf.float64


def test_dataset_iterates_many_times_and_with_next():
    ds = D.range(3)
    assert [int(x) for x in ds] == [0, 1, 2]
    assert [int(x) for x in ds] == [0, 1, 2]
    it = iter(ds)
    assert int(next(it)) == 0 and int(next(it)) == 1 and int(next(it)) == 2
    with pytest.raises(StopIteration):
        next(it)
    with pytest.raises(tf.errors.OutOfRangeError):
        it.get_next()
    assert len(ds) == 3


def test_from_generator_signature_and_types():
    def gen():
        for i in range(3):
            yield i, [i] * 2
    ds = D.from_generator(gen, output_signature=(tf.TensorSpec((), tf.int32),
                                                 tf.TensorSpec((None,), tf.int32)))
    assert repr(ds).startswith("<_FlatMapDataset")  # verified against TF 2.21
    assert int(ds.cardinality()) == -2
    assert [(a, b.tolist()) for a, b in values(ds)] == [(0, [0, 0]), (1, [1, 1]), (2, [2, 2])]
    old = D.from_generator(gen, output_types=(tf.int32, tf.int32))
    assert str(old.element_spec[1].shape) == "<unknown>"
    shaped = D.from_generator(gen, output_types=(tf.int32, tf.int32), output_shapes=((), (2,)))
    assert shaped.element_spec[1].shape == tf.TensorShape([2])
    # TF converts like NumPy: 2.5 becomes int32 2 (verified against TF 2.21)
    floats = D.from_generator(lambda: iter([1, 2.5]), output_signature=tf.TensorSpec((), tf.int32))
    assert values(floats) == [1, 2]
    args = D.from_generator(lambda n: iter(range(n)), output_signature=tf.TensorSpec((), tf.int64),
                            args=(3,))
    assert values(args) == [0, 1, 2]


def test_zip_concatenate_enumerate():
    a, b = D.range(3), D.range(10, 15)
    assert values(D.zip(a, b)) == [(0, 10), (1, 11), (2, 12)]
    assert values(D.zip((a, b))) == [(0, 10), (1, 11), (2, 12)]
    assert values(D.zip({"x": a, "y": b}))[0] == {"x": 0, "y": 10}
    assert int(D.zip((D.range(3), D.range(5))).cardinality()) == 3
    assert values(a.concatenate(b.take(1))) == [0, 1, 2, 10]
    assert int(D.range(3).concatenate(D.range(4)).cardinality()) == 7
    e = D.range(5).enumerate(start=3)
    assert values(e)[:2] == [(3, 0), (4, 1)]
    assert e.element_spec[0].dtype == tf.int64
    mixed = D.from_tensors([1, 2]).concatenate(D.from_tensors([1, 2, 3]))
    assert mixed.element_spec.shape.as_list() == [None]


def test_constants():
    # verified against TF 2.21
    assert tf.data.AUTOTUNE == -1
    assert tf.data.INFINITE_CARDINALITY == -1
    assert tf.data.UNKNOWN_CARDINALITY == -2
    assert tf.data.experimental.AUTOTUNE == -1


def test_apply_and_reduce():
    add_one = lambda ds: ds.map(lambda x: x + 1)  # noqa: E731
    assert values(D.range(3).apply(add_one)) == [1, 2, 3]
    assert int(D.range(10).reduce(np.int64(0), lambda s, x: s + x)) == 45
    grown = D.range(3).batch(2).reduce(tf.zeros([0], tf.int64), lambda s, x: tf.concat([s, x], 0))
    assert grown.numpy().tolist() == [0, 1, 2]
    with pytest.raises(TypeError, match="Expected <dtype: 'int64'> but got <dtype: 'float32'>"):
        D.range(3).reduce(np.int64(0), lambda s, x: tf.cast(s, tf.float32))
