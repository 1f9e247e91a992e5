"""`for x in dataset` inside tf.function runs in the graph, once per call (as in TF 2.21)."""
import numpy as np
import pytest

import minitf as tf


def _summing_function(traces):
    @tf.function
    def total_and_order(ds):
        traces.append(1)
        s = tf.constant(0, tf.int64)
        order = tf.constant(0, tf.int64)
        for x in ds:
            s += x
            order = order * 10 + x
        return s, order

    return total_and_order


def test_shuffled_dataset_gives_a_new_order_each_call_with_one_trace():
    traces = []
    f = _summing_function(traces)
    ds = tf.data.Dataset.range(10).shuffle(10)
    results = [f(ds) for _ in range(4)]
    assert [int(s) for s, _ in results] == [45] * 4
    orders = {int(order) for _, order in results}
    assert len(orders) > 1  # 4 shuffles of 10 elements: identical with probability ~1e-19
    for order in orders:  # each is a permutation of 0..9
        assert sorted(str(order).zfill(10)) == list("0123456789")
    assert len(traces) == 1


def test_the_loop_is_one_reduce_dataset_node():
    f = _summing_function([])
    graph = f.get_concrete_function(tf.data.Dataset.range(3)).graph
    # the two initial values, then the loop: no element is baked in as a constant
    assert [node.op.name for node in graph.nodes] == ["Const", "Const", "ReduceDataset"]
    body = graph.nodes[-1].attrs["f"]
    assert [n.op.name for n in body.nodes if n.op.name not in ("Placeholder", "Const")] == [
        "AddV2", "Mul", "AddV2"]


def test_generator_dataset_gives_fresh_elements_each_call():
    calls = []

    def gen():
        calls.append(1)
        for i in range(3):
            yield float(len(calls) * 10 + i)

    ds = tf.data.Dataset.from_generator(gen, output_signature=tf.TensorSpec((), tf.float32))

    @tf.function
    def total(ds):
        s = 0.0
        for x in ds:
            s += x
        return s

    assert total(ds).numpy() == 10 + 11 + 12
    assert total(ds).numpy() == 20 + 21 + 22
    assert total(ds).numpy() == 30 + 31 + 32


def test_break_stops_pulling_elements():
    ds = tf.data.Dataset.range(1000000000)  # effectively infinite: break must stop it

    @tf.function
    def first_over_ten(ds):
        s = tf.constant(0, tf.int64)
        for x in ds:
            s += x
            if s > 10:
                break
        return s

    assert int(first_over_ten(ds)) == 15  # verified against TF 2.21 (range(100))


def test_tuple_elements_and_captured_tensors():
    ds = tf.data.Dataset.from_tensor_slices(
        (np.array([1.0, 2.0, 3.0], np.float32), np.array([10, 20, 30], np.int32)))
    scale = tf.constant(2.0)

    @tf.function
    def f(ds, scale):
        acc = tf.zeros([2])
        for a, b in ds:
            acc += tf.stack([a * scale, tf.cast(b, tf.float32)])
        return acc

    assert f(ds, scale).numpy().tolist() == [12.0, 60.0]
    assert f(ds, tf.constant(1.0)).numpy().tolist() == [6.0, 60.0]


def test_loop_for_its_effects_on_a_variable():
    v = tf.Variable(0.0)

    @tf.function
    def accumulate():
        for x in tf.data.Dataset.from_tensor_slices([1.0, 2.0]):
            v.assign_add(x)

    accumulate()
    accumulate()
    assert v.numpy() == 6.0


def test_batched_dataset_with_unknown_batch_dimension():
    ds = tf.data.Dataset.range(5).batch(2)

    @tf.function
    def total(ds):
        s = tf.constant(0, tf.int64)
        for batch in ds:
            s += tf.reduce_sum(batch)
        return s

    assert int(total(ds)) == 10


def test_loop_variable_changing_dtype_is_the_autograph_error():
    @tf.function
    def bad():
        s = 0
        for x in tf.data.Dataset.from_tensor_slices([1.0, 2.0]):
            s = x
        return s

    # verified against TF 2.21: TypeError with this message
    with pytest.raises(TypeError, match="'s' has dtype int32 before the loop, but dtype "
                                        "float32 after one iteration"):
        bad()


def test_eager_loop_is_plain_python():
    s = 0
    for x in tf.data.Dataset.range(4):
        s += int(x)
    assert s == 6


def test_two_datasets_with_the_same_spec_are_not_confused():
    @tf.function
    def total(ds):
        s = tf.constant(0, tf.int64)
        for x in ds:
            s += x
        return s

    short, long_ = tf.data.Dataset.range(3), tf.data.Dataset.range(5)
    assert repr(short) == repr(long_)  # they print alike, but each has its own trace
    assert (int(total(short)), int(total(long_)), int(total(short))) == (3, 10, 3)
