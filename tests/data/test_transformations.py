"""map, filter, batch, padded_batch, unbatch, window, flat_map, interleave, scan."""
import threading

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
    # No clock: four calls must be in flight at once, or the barrier breaks.
    barrier = threading.Barrier(4, timeout=10)
    threads = set()

    def meet(v):
        threads.add(threading.current_thread().name)
        if int(v) < 4:
            barrier.wait()  # raises BrokenBarrierError if the calls ran one by one
        return v

    fn = lambda x: tf.py_function(meet, [x], tf.int64)  # noqa: E731
    ds = D.range(12).map(fn, num_parallel_calls=4)
    assert values(ds) == list(range(12))
    assert len(threads) >= 4 and all(t.startswith("ParallelMap") for t in threads)
    unordered = D.range(12).map(lambda x: x + 1, num_parallel_calls=4, deterministic=False)
    assert sorted(values(unordered)) == list(range(1, 13))
    barrier = threading.Barrier(4, timeout=0.5)  # the control: one call at a time fails
    with pytest.raises(threading.BrokenBarrierError):
        values(D.range(4).map(lambda x: tf.py_function(meet, [x], tf.int64)))


def test_parallel_interleave_reads_sources_at_once():
    barrier = threading.Barrier(3, timeout=10)

    def source(i):
        def gen():
            barrier.wait()  # every file's reader must be running at the same time
            yield i
        return gen

    ds = D.range(3).interleave(lambda i: D.from_generator(
        lambda n: source(n)(), args=(i,), output_signature=tf.TensorSpec((), tf.int64)),
        cycle_length=3, num_parallel_calls=3)
    assert values(ds) == [0, 1, 2]


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


def test_padded_shapes_rules_as_tensorflow():
    # verified against TF 2.21: a padded dim may exceed (not undercut) a known input dim
    rows = D.from_tensor_slices([[1, 2]])
    assert values(rows.padded_batch(1, padded_shapes=[3]))[0].tolist() == [[1, 2, 0]]
    with pytest.raises(ValueError, match=r"The padded shape \(1,\) is not compatible"):
        rows.padded_batch(1, padded_shapes=[1])
    pairs = D.range(3).map(lambda x: (x, [x]))  # a list inside the result is one tensor
    assert pairs.element_spec[1].shape.as_list() == [1]
    padded = pairs.padded_batch(1, padded_shapes=([], [3]))
    assert padded.element_spec[1].shape.as_list() == [None, 3]
    assert [b.tolist() for b in values(padded)[0]] == [[0], [[0, 0, 0]]]
    assert values(D.range(1, 3).map(lambda x: tf.fill([x], x)).padded_batch(
        2, padded_shapes=[-1]))[0].tolist() == [[1, 0], [2, 2]]
    assert values(D.range(1, 3).map(lambda x: tf.fill([x], x)).padded_batch(
        2, padded_shapes=tf.TensorShape([3])))[0].tolist() == [[1, 0, 0], [2, 2, 0]]
    with pytest.raises(TypeError, match="structure of `padded_shapes` must match"):
        pairs.padded_batch(1, padded_shapes=[3])


def test_lists_in_function_results_and_datasets():
    # verified against TF 2.21: a top-level list is a tuple, inner lists are tensors
    spec = D.range(3).map(lambda x: [x, [x, x]]).element_spec
    assert isinstance(spec, tuple) and spec[1].shape.as_list() == [2]
    assert D.range(3).map(lambda x: {"a": [x, x]}).element_spec["a"].shape.as_list() == [2]
    # from_tensor_slices of a list of (symbolic) tensors stacks them
    ds = D.from_tensor_slices(([1, 2], [3, 4])).flat_map(lambda a, b: D.from_tensor_slices([a, b]))
    assert values(ds) == [1, 3, 2, 4]


def test_flat_map_and_interleave_functions_are_traced_once():
    # verified against TF 2.21: the function runs once (tracing), whatever the elements
    calls = []

    def f(x):
        calls.append(1)
        return D.range(x * 2)

    ds = D.range(1, 4).flat_map(f)
    assert len(calls) == 1
    assert values(ds) == [0, 1, 0, 1, 2, 3, 0, 1, 2, 3, 4, 5] and values(ds) == values(ds)
    assert len(calls) == 1
    parallel = D.range(3).interleave(lambda x: calls.append(1) or D.from_tensors(x).repeat(x + 1),
                                     cycle_length=2, num_parallel_calls=2)
    assert values(parallel) == [0, 1, 1, 2, 2, 2] and len(calls) == 2
    # nested functions, windows inside windows, generator args (verified against TF 2.21)
    nested = D.range(1, 3).flat_map(
        lambda x: D.range(x).flat_map(lambda y: D.from_tensors(x * 10 + y)))
    assert values(nested) == [10, 20, 21]
    inner = D.range(7).window(4, shift=3).flat_map(
        lambda w: w.window(2).flat_map(lambda ww: ww.batch(2)))
    assert [b.tolist() for b in values(inner)] == [[0, 1], [2, 3], [3, 4], [5, 6], [6]]
    gens = D.range(3).interleave(lambda i: D.from_generator(
        lambda n: iter(range(n)), args=(i,), output_signature=tf.TensorSpec((), tf.int64)),
        cycle_length=2)
    assert values(gens) == [0, 0, 1]
    summed = tf.function(lambda k: D.range(3).flat_map(lambda x: D.range(x + k)).reduce(
        tf.constant(0, tf.int64), lambda s, e: s * 10 + e))
    assert int(summed(tf.constant(1, tf.int64))) == 1012


def test_parallel_interleave_keeps_the_sequential_order():
    uneven = lambda x: D.from_tensors(x).repeat((x * 7) % 5)  # noqa: E731 - 0..4 copies
    for cycle in (1, 2, 3, 5):
        for block in (1, 2, 3):
            sequential = D.range(9).interleave(uneven, cycle_length=cycle, block_length=block)
            parallel = D.range(9).interleave(uneven, cycle_length=cycle, block_length=block,
                                             num_parallel_calls=3)
            assert values(parallel) == values(sequential), (cycle, block)
    # verified against TF 2.21
    assert values(D.range(1, 6).interleave(lambda x: D.from_tensors(x).repeat(x), cycle_length=3,
                                           block_length=2)) == \
        [1, 2, 2, 3, 3, 4, 4, 3, 4, 4, 5, 5, 5, 5, 5]
