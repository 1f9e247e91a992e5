"""map, filter, batch, padded_batch, unbatch, window, flat_map, interleave, scan."""
import threading
import time

import numpy as np
import pytest

import minitf as tf

D = tf.data.Dataset


def values(ds):
    return list(ds.as_numpy_iterator())


def test_map_is_traced_once_like_tensorflow():
    calls = []

    def f(x):
        calls.append(1)
        return x * 2

    ds = D.range(3).map(f)
    assert len(calls) == 1  # traced when map() is called (verified against TF 2.21)
    assert values(ds) == [0, 2, 4] and values(ds) == [0, 2, 4]
    assert len(calls) == 1


def test_map_unpacks_tuples_and_passes_dicts():
    assert values(D.from_tensor_slices(([1, 2], [3, 4])).map(lambda a, b: a + b)) == [4, 6]
    assert values(D.from_tensor_slices({"a": [1, 2], "b": [3, 4]}).map(
        lambda e: e["a"] * e["b"])) == [3, 8]
    spec = D.range(3).map(lambda x: {"a": x, "b": (x, x)}).element_spec
    assert set(spec) == {"a", "b"} and isinstance(spec["b"], tuple)
    assert D.range(3).map(lambda x: tf.fill([x], x)).element_spec.shape.as_list() == [None]


def test_parallel_map_keeps_order_and_runs_in_threads():
    threads = set()

    def slow(v):
        threads.add(threading.current_thread().name)
        time.sleep(0.01)
        return v

    fn = lambda x: tf.py_function(slow, [x], tf.int64)  # noqa: E731
    ds = D.range(12).map(fn, num_parallel_calls=4)
    start = time.perf_counter()
    assert values(ds) == list(range(12))
    assert time.perf_counter() - start < 0.1  # sequential would take 0.12 s
    assert len(threads) > 1
    unordered = D.range(12).map(fn, num_parallel_calls=4, deterministic=False)
    assert sorted(values(unordered)) == list(range(12))


def test_filter_and_predicate_check():
    assert values(D.range(6).filter(lambda x: x % 2 == 0)) == [0, 2, 4]
    with pytest.raises(ValueError, match="must return a `tf.bool` scalar tensor"):
        D.range(3).filter(lambda x: x)


def test_batch_shapes_and_cardinality():
    # verified against TF 2.21
    assert D.range(10).batch(3).element_spec.shape.as_list() == [None]
    assert D.range(10).batch(3, drop_remainder=True).element_spec.shape.as_list() == [3]
    assert int(D.range(10).batch(3).cardinality()) == 4
    assert int(D.range(10).batch(3, True).cardinality()) == 3
    assert [b.tolist() for b in values(D.range(5).batch(2))] == [[0, 1], [2, 3], [4]]
    spec = D.from_tensor_slices(np.zeros((4, 3), np.float32)).batch(2).element_spec
    assert spec.shape.as_list() == [None, 3]


def test_padded_batch():
    ragged = D.range(1, 5).map(lambda x: tf.fill([x], x))
    # verified against TF 2.21
    assert [b.tolist() for b in values(ragged.padded_batch(2))] == [[[1, 0], [2, 2]],
                                                                     [[3, 3, 3, 0], [4, 4, 4, 4]]]
    fixed = ragged.padded_batch(2, padded_shapes=[5],
                                padding_values=tf.constant(-1, tf.int64))
    assert values(fixed)[0].tolist() == [[1, -1, -1, -1, -1], [2, 2, -1, -1, -1]]
    assert ragged.padded_batch(2).element_spec.shape.as_list() == [None, None]
    assert ragged.padded_batch(2, [5], drop_remainder=True).element_spec.shape.as_list() == [2, 5]
    strings = D.from_tensor_slices(["a", "b"]).padded_batch(2)
    assert strings.element_spec.shape.as_list() == [None]
    with pytest.raises(ValueError, match=r"The padded shape \(None,\) is not compatible"):
        D.range(3).padded_batch(2, padded_shapes=[None])
    with pytest.raises(tf.errors.DataLossError, match="pad to a smaller size"):
        values(D.range(3).map(lambda x: tf.fill([x], x)).padded_batch(3, padded_shapes=[1]))


def test_unbatch():
    assert values(D.from_tensor_slices([[1, 2], [3, 4]]).batch(2).unbatch())[0].tolist() == [1, 2]
    assert values(D.range(5).batch(2).unbatch()) == [0, 1, 2, 3, 4]
    assert int(D.range(3).batch(2).unbatch().cardinality()) == -2
    with pytest.raises(ValueError, match="Cannot unbatch an input with scalar components"):
        D.range(3).unbatch()


def test_window_and_flat_map():
    w = D.range(10).window(3, shift=2)
    # verified against TF 2.21
    assert [b.tolist() for b in values(w.flat_map(lambda x: x.batch(3)))] == \
        [[0, 1, 2], [2, 3, 4], [4, 5, 6], [6, 7, 8], [8, 9]]
    assert int(D.range(10).window(3).cardinality()) == 4
    strided = D.range(8).window(3, shift=1, stride=2, drop_remainder=True)
    assert [b.tolist() for b in values(strided.flat_map(lambda x: x.batch(3)))] == \
        [[0, 2, 4], [1, 3, 5], [2, 4, 6], [3, 5, 7]]
    assert int(strided.cardinality()) == 4
    first = next(iter(D.range(10).window(3)))
    assert repr(first).startswith("<_VariantDataset")
    pairs = D.from_tensor_slices(([1, 2], [3, 4])).window(2)
    zipped = pairs.flat_map(lambda a, b: D.zip((a.batch(2), b.batch(2))))
    assert [(a.tolist(), b.tolist()) for a, b in values(zipped)] == [([1, 2], [3, 4])]
    with pytest.raises(TypeError, match="must return a `tf.data.Dataset`"):
        D.range(3).flat_map(lambda x: x)


def test_interleave_order():
    ds = D.range(1, 4).interleave(lambda x: D.from_tensors(x).repeat(x), cycle_length=2)
    assert values(ds) == [1, 2, 2, 3, 3, 3]  # verified against TF 2.21
    blocks = D.range(3).interleave(lambda x: D.from_tensors(x).repeat(4), cycle_length=2,
                                   block_length=2)
    assert values(blocks) == [0, 0, 1, 1, 0, 0, 1, 1, 2, 2, 2, 2]
    parallel = D.range(3).interleave(lambda x: D.from_tensors(x).repeat(4), cycle_length=2,
                                     block_length=2, num_parallel_calls=2)
    assert values(parallel) == values(blocks)


def test_scan_and_take_while():
    ds = D.range(10).scan(tf.constant(0, tf.int64), lambda s, x: (s + x, s * 10))
    assert values(ds)[:4] == [0, 0, 10, 30]  # verified against TF 2.21
    assert values(D.range(10).take_while(lambda x: x < 3)) == [0, 1, 2]
    assert int(D.range(10).take_while(lambda x: x < 3).cardinality()) == -2


def test_debug_mode_runs_eagerly_and_names_bad_element():
    tf.data.experimental.enable_debug_mode()
    try:
        calls = []
        ds = D.range(3).map(lambda x: calls.append(1) or x + 1)
        assert values(ds) == [1, 2, 3] and len(calls) == 4  # 1 trace + 3 elements
        sizes = iter([2, 2, 3])  # traced with 2, element 0 gives 2, element 1 gives 3
        shapes = D.range(1, 3).map(lambda x: tf.zeros([next(sizes)]))
        with pytest.raises(tf.errors.InvalidArgumentError, match="element"):
            values(shapes)
    finally:
        tf.data.experimental.disable_debug_mode()
