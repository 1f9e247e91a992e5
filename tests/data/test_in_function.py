"""Datasets built and reduced inside tf.function from the function's own tensors.

Expected values verified against TF 2.21 (same functions run with `import tensorflow as tf`).
"""
import numpy as np
import pytest

import minitf as tf

D = tf.data.Dataset


def test_from_tensor_slices_of_an_argument_reduce_and_loop():
    @tf.function
    def total(x):
        return D.from_tensor_slices(x).reduce(0.0, lambda s, e: s + e)

    assert total(tf.constant([1.0, 2.0, 3.0])).numpy() == 6.0
    assert total(tf.constant([1.0, 2.0, 3.0]) * 2).numpy() == 12.0  # same trace, new values

    @tf.function
    def loop(x, k):
        s = tf.constant(0.0)
        for a, b in D.from_tensor_slices((x, x * 2)).map(lambda a, b: (a * k, b)):
            s += a + b
        return s

    assert loop(tf.constant([1.0, 2.0]), tf.constant(3.0)).numpy() == 15.0
    assert loop(tf.constant([1.0, 2.0]), tf.constant(0.0)).numpy() == 6.0


def test_symbolic_counts_sources_and_captures():
    add = lambda s, e: s + e  # noqa: E731
    assert int(tf.function(lambda n: D.range(n).reduce(tf.constant(0, tf.int64), add))(
        tf.constant(5, tf.int64))) == 10
    digits = tf.function(lambda n: D.range(10).skip(n).take(n).reduce(
        tf.constant(0, tf.int64), lambda s, e: s * 10 + e))
    assert int(digits(tf.constant(3, tf.int64))) == 345
    tensors = tf.function(lambda x: D.from_tensors(x).repeat(3).reduce(
        tf.constant(0.0), lambda s, e: s + tf.reduce_sum(e)))
    assert tensors(tf.constant([1.0, 2.0])).numpy() == 9.0
    below = tf.function(lambda lim: D.range(10).filter(lambda e: e < lim).reduce(
        tf.constant(0, tf.int64), add))
    assert int(below(tf.constant(4, tf.int64))) == 6 and int(below(tf.constant(5, tf.int64))) == 10
    weighted = tf.function(lambda w: D.range(3).reduce(
        tf.constant(0.0), lambda s, e: s + w * tf.cast(e, tf.float32)))
    assert weighted(tf.constant(2.0)).numpy() == 6.0


def test_threads_see_the_bound_values():
    # parallel map workers and the prefetch producer read the function's tensors too
    f = tf.function(lambda x, k, b: D.from_tensor_slices(x).map(
        lambda e: e * k, num_parallel_calls=2).batch(b).prefetch(2).reduce(
        tf.constant(0.0), lambda s, batch: s * 100 + tf.reduce_sum(batch)))
    assert f(tf.constant([1.0, 2.0, 3.0]), tf.constant(10.0),
             tf.constant(2, tf.int64)).numpy() == 3030.0


def test_cardinality_known_when_the_graph_runs():
    f = tf.function(lambda x, n: D.from_tensor_slices(x).repeat(n).batch(4).cardinality(),
                    input_signature=[tf.TensorSpec([None]), tf.TensorSpec([], tf.int64)])
    assert int(f(tf.constant([1.0, 2.0, 3.0]), tf.constant(3, tf.int64))) == 3
    g = tf.function(lambda x: D.from_tensor_slices(x).cardinality())
    assert int(g(tf.constant([1.0, 2.0]))) == 2  # static rows: a constant


def test_reduce_in_a_function_is_one_node_run_per_call():
    @tf.function
    def order():
        return D.range(6).shuffle(6).reduce(tf.constant(0, tf.int64), lambda s, e: s * 10 + e)

    results = {int(order()) for _ in range(4)}
    assert len(results) > 1  # a fresh pass per call, not a constant baked in at trace time
    graph = tf.function(lambda x: D.from_tensor_slices(x).reduce(0.0, lambda s, e: s + e)) \
        .get_concrete_function(tf.constant([1.0, 2.0])).graph
    assert [n.op.name for n in graph.nodes if n.op.name not in ("Placeholder", "Const")] == \
        ["ReduceDataset"]


def test_bad_input_inside_a_function():
    # verified against TF 2.21: InvalidArgumentError when the graph runs
    f = tf.function(lambda x, y: D.from_tensor_slices((x, y)).reduce(
        tf.constant(0.0), lambda s, e: s + e[0]),
        input_signature=[tf.TensorSpec([None]), tf.TensorSpec([None])])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="All components must have the same size in the 0th dimension"):
        f(tf.constant([1.0, 2.0]), tf.constant([1.0]))
    # static shapes: TF's ValueError while tracing
    with pytest.raises(ValueError, match="Dimensions 2 and 1 are not compatible"):
        tf.function(lambda x, y: D.from_tensor_slices((x, y)).cardinality())(
            tf.constant([1.0, 2.0]), tf.constant([1.0]))


def test_a_dataset_leaked_out_of_its_function_explains_itself():
    kept = []

    @tf.function
    def make(x):
        kept.append(D.from_tensor_slices(x))
        return tf.constant(0)

    make(tf.constant([1.0]))
    with pytest.raises(tf.errors.InvalidArgumentError, match="symbolic tensor .* of a tf.function"):
        list(kept[0])


def test_eager_datasets_are_unchanged():
    ds = D.from_tensor_slices(np.arange(4.0))
    assert float(ds.reduce(0.0, lambda s, e: s + tf.cast(e, tf.float32))) == 6.0
    assert int(ds.cardinality()) == 4


def test_symbolic_shard_window_and_padded_batch():
    # verified against TF 2.21
    i64 = lambda v: tf.constant(v, tf.int64)  # noqa: E731
    digits = lambda s, e: s * 10 + e  # noqa: E731
    shard = tf.function(lambda n, i: D.range(10).shard(n, i).reduce(i64(0), digits))
    assert int(shard(i64(3), i64(1))) == 147
    shard_count = tf.function(lambda n, i: D.range(10).shard(n, i).cardinality())
    assert int(shard_count(i64(3), i64(1))) == 3
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Index must be between 0 and 2 \(currently index = 4\)"):
        shard_count(i64(3), i64(4))
    window = tf.function(lambda k: D.range(7).window(k, shift=2).flat_map(
        lambda w: w.batch(10)).reduce(i64(0), lambda s, b: s * 10 + tf.reduce_sum(b)))
    assert int(window(i64(3))) == 4056
    windows = tf.function(lambda k: D.range(7).window(k, 2, drop_remainder=True).cardinality())
    assert int(windows(i64(3))) == 3
    padded = tf.function(lambda k: D.range(1, 5).map(lambda x: tf.fill([x], x)).padded_batch(
        k).reduce(i64(0), lambda s, b: s + tf.reduce_sum(b) * tf.shape(b, out_type=tf.int64)[1]))
    assert int(padded(i64(2))) == 110
    with pytest.raises(ValueError, match=r"Attempt to convert a value \(None\)"):
        D.range(3).batch(None)
