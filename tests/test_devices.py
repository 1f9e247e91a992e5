"""Devices: tf.config's device functions, tf.device scopes, recorded placement, and
the log of placements - each checked on its own and against real TF 2.21."""
import json
import threading

import pytest

import minitf as tf
from minitf.framework import context, device
from real_tf import run_tf_json

FULL = "/job:localhost/replica:0/task:0/device:CPU:{}"


@pytest.fixture(autouse=True)
def fresh_runtime():
    device._reset()
    yield
    device._reset()


def split_cpu(n):
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * n)


def test_physical_and_logical_devices():
    assert repr(tf.config.list_physical_devices()) == \
        "[PhysicalDevice(name='/physical_device:CPU:0', device_type='CPU')]"
    assert tf.config.list_physical_devices("GPU") == []
    split_cpu(3)
    assert [d.name for d in tf.config.list_logical_devices()] == \
        ["/device:CPU:0", "/device:CPU:1", "/device:CPU:2"]
    assert tf.config.list_logical_devices("GPU") == []
    assert len(tf.config.get_logical_device_configuration(
        tf.config.list_physical_devices()[0])) == 3


def test_configuration_is_frozen_once_initialized():
    split_cpu(2)
    split_cpu(2)  # the same configuration again is fine
    tf.config.list_logical_devices()
    split_cpu(2)
    with pytest.raises(RuntimeError, match="Virtual devices cannot be modified after being"):
        split_cpu(3)
    with pytest.raises(RuntimeError, match="Visible devices cannot be modified"):
        tf.config.set_visible_devices([], "CPU")
    with pytest.raises(RuntimeError, match="Inter op parallelism cannot be modified"):
        tf.config.threading.set_inter_op_parallelism_threads(2)


def test_threads_before_initialization():
    assert tf.config.threading.get_intra_op_parallelism_threads() == 0
    tf.config.threading.set_intra_op_parallelism_threads(3)
    assert tf.config.threading.get_intra_op_parallelism_threads() == 3


def test_bad_configurations():
    cpu = tf.config.list_physical_devices()[0]
    with pytest.raises(ValueError, match="non-GPU and non-Pluggable"):
        tf.config.experimental.set_memory_growth(cpu, True)
    with pytest.raises(ValueError, match="memory limit on CPU"):
        tf.config.set_logical_device_configuration(
            cpu, [tf.config.LogicalDeviceConfiguration(memory_limit=10)])
    fake = tf.config.PhysicalDevice(name="/physical_device:GPU:0", device_type="GPU")
    with pytest.raises(ValueError, match="Unrecognized device"):
        tf.config.set_visible_devices([fake])
    split_cpu(2)
    with pytest.raises(ValueError, match="virtual devices configured"):
        tf.config.experimental.set_memory_growth(cpu, True)


def test_hidden_cpu_cannot_start():
    tf.config.set_visible_devices([], "CPU")
    assert tf.config.get_visible_devices() == []
    with pytest.raises(tf.errors.NotFoundError, match="No CPU devices"):
        tf.config.list_logical_devices()


def test_eager_ops_record_their_device():
    split_cpu(2)
    with tf.device("/CPU:1"):
        a = tf.constant(1.0)
        b = a + 1
        q, r = tf.unstack(tf.constant([1.0, 2.0]))
        v = tf.Variable(2.0)
    assert (a.device, b.device, q.device, r.device, v.device) == (FULL.format(1),) * 5
    assert tf.constant(1.0).device == (b * 2).device == FULL.format(0)
    with tf.device("/GPU:0"):  # soft placement: no such device, so CPU:0
        assert (a + 1).device == FULL.format(0)
    with tf.device("/CPU:7"):
        assert (a + 1).device == FULL.format(0)
    with tf.device("/CPU:1"), tf.device(None):
        assert (a + 1).device == FULL.format(0)


def test_device_strings():
    split_cpu(2)
    for spec in ("CPU:1", "/cpu:1", "/device:CPU:1", FULL.format(1)):
        with tf.device(spec):
            assert tf.constant(1.0).device == FULL.format(1), spec
    with pytest.raises(ValueError, match="Unknown attribute 'nonsense'"):
        tf.device("nonsense:!")
    with pytest.raises(RuntimeError, match="does not support functions"):
        tf.device(lambda op: "/CPU:0")


def test_scopes_cost_nothing_once_left():
    before = context.active
    with tf.device("/CPU:0"):
        assert context.active == before + 1
    assert context.active == before
    tf.debugging.set_log_device_placement(True)
    tf.debugging.set_log_device_placement(True)
    assert context.active == before + 1
    tf.debugging.set_log_device_placement(False)
    assert context.active == before


def test_device_is_per_thread():
    split_cpu(2)
    seen = []
    inside = threading.Event()
    done = threading.Event()

    def worker():
        inside.wait(5)
        seen.append((tf.constant(1.0) + 1).device)
        done.set()

    thread = threading.Thread(target=worker)
    thread.start()
    with tf.device("/CPU:1"):
        inside.set()
        done.wait(5)
        mine = (tf.constant(1.0) + 1).device
    thread.join(5)
    assert seen == [FULL.format(0)] and mine == FULL.format(1)


def test_traced_nodes_record_the_requested_device():
    split_cpu(2)

    @tf.function
    def f(x):
        with tf.device("/CPU:1"):
            y = x * 2.0
        assert y.device == "/device:CPU:1"
        return y + 1.0

    assert f(tf.constant(1.0)).numpy() == 3.0
    graph = f.get_concrete_function(tf.constant(1.0)).graph
    devices = {op.type: op.device for op in graph.get_operations()}
    assert devices["Mul"] == "/device:CPU:1" and devices["AddV2"] == ""


def test_log_device_placement(capsys):
    split_cpu(2)
    x = tf.constant([1.0])
    tf.debugging.set_log_device_placement(True)
    y = x * 2
    with tf.device("/CPU:1"):
        y + 1
    tf.debugging.set_log_device_placement(False)
    y - 1
    assert capsys.readouterr().out.splitlines() == [
        "Mul: (Mul): " + FULL.format(0), "AddV2: (AddV2): " + FULL.format(1)]


def test_log_device_placement_of_graph_runs(capsys):
    split_cpu(2)

    @tf.function
    def f(x):
        with tf.device("/CPU:1"):
            y = tf.matmul(x, x)
        return tf.reduce_sum(y)

    x = tf.ones((2, 2))
    f(x)  # traced (and run) before logging starts
    tf.debugging.set_log_device_placement(True)
    f(x)
    tf.debugging.set_log_device_placement(False)
    lines = capsys.readouterr().out.splitlines()
    assert "MatMul: (MatMul): " + FULL.format(1) in lines
    assert "Sum: (Sum): " + FULL.format(0) in lines


# --- against real TF ------------------------------------------------------------------

TF_SNIPPET = r'''
import json, io, contextlib, tensorflow as tf
out = {}
cpu = tf.config.list_physical_devices("CPU")
out["physical"] = repr(tf.config.list_physical_devices())
try:
    tf.config.experimental.set_memory_growth(cpu[0], True)
except ValueError as e:
    out["growth"] = str(e)
tf.config.set_logical_device_configuration(cpu[0], [tf.config.LogicalDeviceConfiguration()] * 2)
out["logical"] = repr(tf.config.list_logical_devices())
out["config"] = repr(tf.config.LogicalDeviceConfiguration())
try:
    tf.config.set_logical_device_configuration(cpu[0], [tf.config.LogicalDeviceConfiguration()] * 3)
except RuntimeError as e:
    out["frozen"] = str(e)
try:
    tf.device("nonsense:!").__enter__()
except ValueError as e:
    out["bad_spec"] = str(e)
devices = {}
with tf.device("/CPU:1"):
    a = tf.constant(1.0)
    devices["const"] = a.device
    devices["op"] = (a + 1).device
    devices["var"] = tf.Variable(1.0).device
with tf.device("/GPU:0"):
    devices["gpu"] = (a + 1).device
with tf.device("/CPU:7"):
    devices["cpu7"] = (a + 1).device
devices["outside"] = (a * 2).device
out["devices"] = devices
@tf.function
def f(x):
    with tf.device("/CPU:1"):
        y = x * 2
    return y + 1
graph = f.get_concrete_function(tf.constant(1.0)).graph
out["nodes"] = {op.type: op.device for op in graph.get_operations() if op.type in ("Mul", "AddV2")}
nested = []
with tf.device("/CPU:1"):
    with tf.device("/job:localhost"):
        nested.append(tf.constant(1.0).device)
    with tf.device("/CPU:0"):
        nested.append((tf.constant(1.0) + 1).device)
@tf.function
def g(x):
    with tf.device("/CPU:1"), tf.device("/job:localhost"):
        return x * 2
nested.append([op.device for op in g.get_concrete_function(tf.constant(1.0)).graph
               .get_operations() if op.type == "Mul"])
out["nested"] = nested
print(json.dumps(out))
'''


@pytest.fixture(scope="module")
def real():
    return run_tf_json(TF_SNIPPET)


def test_against_real_tf(real):
    out = {"physical": repr(tf.config.list_physical_devices())}
    cpu = tf.config.list_physical_devices("CPU")
    with pytest.raises(ValueError) as growth:
        tf.config.experimental.set_memory_growth(cpu[0], True)
    out["growth"] = str(growth.value)
    split_cpu(2)
    out["logical"] = repr(tf.config.list_logical_devices())
    out["config"] = repr(tf.config.LogicalDeviceConfiguration())
    with pytest.raises(RuntimeError) as frozen:
        split_cpu(3)
    out["frozen"] = str(frozen.value)
    with pytest.raises(ValueError) as bad:
        tf.device("nonsense:!")
    assert str(bad.value).startswith(real["bad_spec"])  # minitf adds a hint
    with tf.device("/CPU:1"):
        a = tf.constant(1.0)
        devices = {"const": a.device, "op": (a + 1).device, "var": tf.Variable(1.0).device}
    with tf.device("/GPU:0"):
        devices["gpu"] = (a + 1).device
    with tf.device("/CPU:7"):
        devices["cpu7"] = (a + 1).device
    devices["outside"] = (a * 2).device
    out["devices"] = devices

    @tf.function
    def f(x):
        with tf.device("/CPU:1"):
            y = x * 2
        return y + 1

    graph = f.get_concrete_function(tf.constant(1.0)).graph
    out["nodes"] = {op.type: op.device for op in graph.get_operations()
                    if op.type in ("Mul", "AddV2")}
    nested = []
    with tf.device("/CPU:1"):
        with tf.device("/job:localhost"):
            nested.append(tf.constant(1.0).device)
        with tf.device("/CPU:0"):
            nested.append((tf.constant(1.0) + 1).device)

    @tf.function
    def g(x):
        with tf.device("/CPU:1"), tf.device("/job:localhost"):
            return x * 2

    nested.append([op.device for op in g.get_concrete_function(tf.constant(1.0)).graph
                   .get_operations() if op.type == "Mul"])
    out["nested"] = nested
    expected = dict(real)
    del expected["bad_spec"]
    assert json.loads(json.dumps(out)) == expected
