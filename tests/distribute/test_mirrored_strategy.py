"""MirroredStrategy over logical CPUs: replicas in threads on their own devices,
PerReplica results, reduce, all-reduce, mirrored variables, dataset shards, and the
strategies minitf does not have."""
import threading

import numpy as np
import pytest

import minitf as tf
from minitf.framework import device

FULL = "/job:localhost/replica:0/task:0/device:CPU:{}"


@pytest.fixture(autouse=True)
def two_cpus():
    device._reset()
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
    yield
    device._reset()


@pytest.fixture
def strategy():
    return tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])


def test_contexts(strategy):
    assert isinstance(strategy, tf.distribute.Strategy)
    assert isinstance(strategy.extended, tf.distribute.StrategyExtended)
    assert not tf.distribute.has_strategy()
    assert tf.distribute.get_replica_context().replica_id_in_sync_group == 0
    assert strategy.num_replicas_in_sync == 2
    assert strategy.extended.worker_devices == (FULL.format(0), FULL.format(1))
    with strategy.scope():
        assert tf.distribute.get_strategy() is strategy and tf.distribute.has_strategy()
        assert tf.distribute.in_cross_replica_context()
        assert tf.distribute.get_replica_context() is None
        with pytest.raises(RuntimeError, match="Mixing different tf.distribute.Strategy"):
            with tf.distribute.OneDeviceStrategy("/cpu:0").scope():
                pass
    assert not tf.distribute.in_cross_replica_context()


def test_run_in_one_thread_per_replica(strategy):
    seen = []

    def fn(x):
        ctx = tf.distribute.get_replica_context()
        seen.append((threading.current_thread().name, tf.distribute.get_strategy() is strategy,
                     tf.distribute.in_cross_replica_context()))
        y = x * tf.cast(ctx.replica_id_in_sync_group + 1, tf.float32)
        return y, ctx.replica_id_in_sync_group

    y, ids = strategy.run(fn, args=(tf.constant([1.0, 2.0]),))
    assert isinstance(y, tf.distribute.DistributedValues)
    assert sorted(seen) == [("replica_0", True, False), ("replica_1", True, False)]
    assert [t.numpy().tolist() for t in strategy.experimental_local_results(y)] == \
        [[1.0, 2.0], [2.0, 4.0]]
    assert [t.device for t in y.values] == [FULL.format(0), FULL.format(1)]
    assert [int(i) for i in ids.values] == [0, 1] and ids.values[0].dtype == tf.int32
    assert repr(y) == (
        "PerReplica:{\n"
        "  0: <tf.Tensor: shape=(2,), dtype=float32, numpy=array([1., 2.], dtype=float32)>,\n"
        "  1: <tf.Tensor: shape=(2,), dtype=float32, numpy=array([2., 4.], dtype=float32)>\n}")
    assert str(y).splitlines()[1] == "  0: tf.Tensor([1. 2.], shape=(2,), dtype=float32),"


def test_replicas_really_overlap(strategy):
    # Each replica waits until the other has started: only concurrent threads pass.
    both = threading.Barrier(2, timeout=10)
    out = strategy.run(lambda: tf.constant(float(both.wait() >= 0)))
    assert [float(t) for t in out.values] == [1.0, 1.0]


def test_reduce(strategy):
    r = strategy.run(lambda: tf.constant([1.0, 2.0]) * tf.cast(
        tf.distribute.get_replica_context().replica_id_in_sync_group + 1, tf.float32))
    np.testing.assert_allclose(strategy.reduce(tf.distribute.ReduceOp.SUM, r, axis=None), [3, 6])
    np.testing.assert_allclose(strategy.reduce("MEAN", r, axis=None), [1.5, 3])
    assert float(strategy.reduce("SUM", r, axis=0)) == 9.0
    assert float(strategy.reduce("MEAN", r, axis=0)) == 2.25
    with pytest.raises(ValueError, match="non-DistributedValues value tf.Tensor"):
        strategy.reduce("SUM", tf.constant(3.0), axis=None)
    with pytest.raises(ValueError, match="Invalid reduce_op"):
        strategy.reduce("MAX", r, axis=None)


def test_all_reduce_and_failures(strategy):
    def step():
        ctx = tf.distribute.get_replica_context()
        x = tf.cast(ctx.replica_id_in_sync_group + 1, tf.float32)
        return ctx.all_reduce("SUM", x), ctx.all_reduce("MEAN", {"a": x * 2})["a"]

    total, mean = strategy.run(step)
    assert [float(t) for t in total.values] == [3.0, 3.0]
    assert [float(t) for t in mean.values] == [3.0, 3.0]
    assert [t.device for t in total.values] == [FULL.format(0), FULL.format(1)]

    def one_fails():
        ctx = tf.distribute.get_replica_context()
        if ctx._replica_id == 0:
            raise KeyError("replica 0 broke")
        return ctx.all_reduce("SUM", tf.constant(1.0))  # must not wait forever

    with pytest.raises(KeyError, match="replica 0 broke"):
        strategy.run(one_fails)


def test_mirrored_variables(strategy):
    with strategy.scope():
        v = tf.Variable([1.0, 2.0], name="w")
        total = tf.Variable(0.0, aggregation=tf.VariableAggregation.SUM)
    plain = tf.Variable(1.0)
    assert type(v).__name__ == "MirroredVariable" and isinstance(v, tf.Variable)
    assert type(plain) is tf.Variable
    assert [c.name for c in v.values] == ["w:0", "w/replica_1:0"]
    assert [c.device for c in v.values] == [FULL.format(0), FULL.format(1)]
    assert repr(v).startswith("MirroredVariable:{\n  0: <tf.Variable 'w:0' shape=(2,)")
    v.assign([3.0, 4.0])  # cross-replica: every copy
    assert [c.numpy().tolist() for c in v.values] == [[3.0, 4.0]] * 2
    strategy.run(lambda: v.assign_add([1.0, 1.0]))  # NONE: each replica its own copy
    assert [c.numpy().tolist() for c in v.values] == [[4.0, 5.0]] * 2
    strategy.run(lambda: total.assign_add(tf.cast(
        tf.distribute.get_replica_context().replica_id_in_sync_group + 1, tf.float32)))
    assert [float(c.numpy()) for c in total.values] == [3.0, 3.0]  # SUM: 1 + 2 on each copy


def test_tapes_in_replica_threads(strategy):
    with strategy.scope():
        v = tf.Variable([3.0, 4.0])

    def grad():
        k = tf.cast(tf.distribute.get_replica_context().replica_id_in_sync_group + 1,
                    tf.float32)
        with tf.GradientTape() as tape:
            y = tf.reduce_sum(v * v) * k
        return tape.gradient(y, v)

    g = strategy.run(grad)
    assert [t.numpy().tolist() for t in g.values] == [[6.0, 8.0], [12.0, 16.0]]


def test_run_a_tf_function_eagerly(strategy):
    with strategy.scope():
        v = tf.Variable([1.0, 2.0])

    @tf.function
    def step(x):
        with tf.GradientTape() as tape:
            y = tf.reduce_sum(v * x)
        return tf.distribute.get_replica_context().all_reduce("SUM", tape.gradient(y, v))

    out = strategy.run(step, args=(tf.constant([1.0, 3.0]),))
    assert [t.numpy().tolist() for t in out.values] == [[2.0, 6.0]] * 2


def test_run_inside_tf_function_traces_every_replica(strategy):
    with strategy.scope():
        v = tf.Variable([1.0, 2.0])

    def step(x):
        ctx = tf.distribute.get_replica_context()
        with tf.GradientTape() as tape:
            y = tf.reduce_sum(v * x) * tf.cast(ctx.replica_id_in_sync_group + 1, tf.float32)
        v.assign_sub(0.1 * ctx.all_reduce("SUM", tape.gradient(y, v)))
        return y

    @tf.function
    def train(x):
        return strategy.reduce("SUM", strategy.run(step, args=(x,)), axis=None)

    assert float(train(tf.constant([1.0, 2.0]))) == 15.0  # 5 * 1 + 5 * 2
    for copy in v.values:  # the gradient 1*x + 2*x, applied on each copy
        np.testing.assert_allclose(copy.numpy(), [0.7, 1.4], rtol=1e-6)
    graph = train.get_concrete_function(tf.constant([1.0, 2.0])).graph
    muls = {op.device for op in graph.get_operations() if op.type == "Mul"}
    assert muls == {FULL.format(0), FULL.format(1)}


@pytest.mark.parametrize("size,expected", [(7, [4, 3]), (5, [3, 2]), (1, [1, 0]), (4, [2, 2])])
def test_distribute_dataset_shards(strategy, size, expected):
    dataset = tf.data.Dataset.range(size).batch(size)
    (batch,) = list(strategy.experimental_distribute_dataset(dataset))
    parts = strategy.experimental_local_results(batch)
    assert [int(t.shape[0]) for t in parts] == expected
    assert np.concatenate([t.numpy() for t in parts]).tolist() == list(range(size))
    assert [t.device for t in parts] == [FULL.format(0), FULL.format(1)]


def test_distribute_dataset_of_pairs(strategy):
    dataset = tf.data.Dataset.from_tensor_slices((np.arange(4.0), np.arange(4))).batch(4)
    (x, y), = list(strategy.experimental_distribute_dataset(dataset))
    assert [t.numpy().tolist() for t in y.values] == [[0, 1], [2, 3]]
    local = strategy.experimental_local_results((x, y))
    assert local[1][0].numpy().tolist() == [2.0, 3.0]


def test_default_and_one_device_strategies():
    default = tf.distribute.get_strategy()
    assert default.num_replicas_in_sync == 1
    assert default.run(lambda x: x + 1, args=(tf.constant(1.0),)).numpy() == 2.0
    assert float(default.reduce("SUM", tf.constant([1.0, 2.0]), axis=0)) == 3.0
    one = tf.distribute.OneDeviceStrategy("/cpu:1")
    out = one.run(lambda: tf.constant(1.0) + 1)
    assert out.numpy() == 2.0 and out.device == FULL.format(1)
    assert tf.distribute.MirroredStrategy().num_replicas_in_sync == 2  # every logical CPU
    with pytest.raises(ValueError, match="No duplicates"):
        tf.distribute.MirroredStrategy(["/cpu:0", "/CPU:0"])


@pytest.mark.parametrize("name", ["TPUStrategy", "MultiWorkerMirroredStrategy",
                                  "ParameterServerStrategy"])
def test_no_fake_clusters(name):
    with pytest.raises(NotImplementedError, match="does not pretend to be a cluster"):
        getattr(tf.distribute, name)()
    with pytest.raises(NotImplementedError, match="needs"):
        getattr(tf.distribute.experimental, name)(num_gpus=2)
    with pytest.raises(NotImplementedError, match="Cloud TPU"):
        tf.distribute.cluster_resolver.TPUClusterResolver(tpu="")
