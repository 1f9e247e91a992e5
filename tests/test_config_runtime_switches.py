"""tf.config's runtime switches (soft placement, TF32, device policy, sync, determinism,
memory queries on a CPU, threads, virtual devices), compared with real TF 2.21 in one subprocess."""
import pytest

import minitf as tf
from tests.real_tf import run_tf_json

PROGRAM = '''
def program(tf):
    out = {}
    c, e = tf.config, tf.config.experimental
    out["soft"] = c.get_soft_device_placement()
    c.set_soft_device_placement(False)
    out["soft_off"] = c.get_soft_device_placement()
    try:
        with tf.device("/GPU:0"):
            tf.constant(1.0) + 1.0
        out["hard"] = None
    except Exception as x:
        out["hard"] = [type(x).__name__, str(x).splitlines()[0].split(" [Op")[0]]
    with tf.device("/CPU:0"):
        out["hard_cpu"] = float(tf.constant(1.0) + 1.0)
    c.set_soft_device_placement(True)
    with tf.device("/GPU:0"):
        out["soft_gpu"] = float(tf.constant(1.0) + 1.0)
    out["tf32"] = tf.config.experimental.tensor_float_32_execution_enabled()
    tf.config.experimental.enable_tensor_float_32_execution(False)
    out["tf32_off"] = tf.config.experimental.tensor_float_32_execution_enabled()
    tf.config.experimental.enable_tensor_float_32_execution(True)
    out["policy"] = [tf.config.experimental.get_device_policy()]
    for p in ["warn", "explicit", "silent_for_int32", None]:
        tf.config.experimental.set_device_policy(p)
        out["policy"].append(tf.config.experimental.get_device_policy())
    try:
        tf.config.experimental.set_device_policy("bad")
    except Exception as x:
        out["policy_bad"] = [type(x).__name__, str(x)]
    out["sync"] = [tf.config.experimental.get_synchronous_execution()]
    tf.config.experimental.set_synchronous_execution(False)
    out["sync"].append(tf.config.experimental.get_synchronous_execution())
    tf.config.experimental.set_synchronous_execution(True)
    cpu = c.list_physical_devices("CPU")[0]
    calls = {"get_memory_info": lambda: tf.config.experimental.get_memory_info("CPU:0"),
             "get_memory_usage": lambda: tf.config.experimental.get_memory_usage("CPU:0"),
             "reset_memory_stats": lambda: tf.config.experimental.reset_memory_stats("CPU:0"),
             "get_device_details": lambda: tf.config.experimental.get_device_details(cpu),
             "get_memory_growth": lambda: tf.config.experimental.get_memory_growth(cpu),
             "enable_op_determinism": tf.config.experimental.enable_op_determinism}
    for key, call in calls.items():
        try:
            out[key] = ["ok", repr(call())]
        except Exception as x:
            out[key] = [type(x).__name__, str(x)]
    out["vdc"] = repr(tf.config.experimental.VirtualDeviceConfiguration(memory_limit=10))
    out["vdc_get"] = repr(tf.config.experimental.get_virtual_device_configuration(cpu))
    try:
        tf.config.experimental.set_virtual_device_configuration(
            cpu, [tf.config.experimental.VirtualDeviceConfiguration()] * 2)
        out["vdc_set"] = "ok"
    except Exception as x:
        out["vdc_set"] = type(x).__name__
    out["threads"] = [c.threading.get_inter_op_parallelism_threads(),
                      c.threading.get_intra_op_parallelism_threads()]
    out["eagerly"] = tf.config.experimental_functions_run_eagerly()
    out["logical"] = repr(tf.config.LogicalDevice(name="/device:CPU:0", device_type="CPU"))
    return out
'''


@pytest.fixture(scope="module")
def real():
    return run_tf_json(PROGRAM + "\nimport json, tensorflow as tf\nprint(json.dumps(program(tf)))")


def run_here():
    scope = {}
    exec(PROGRAM, scope)
    try:
        return scope["program"](tf)
    finally:
        tf.config.set_soft_device_placement(True)


def test_soft_placement_switch():
    assert tf.config.get_soft_device_placement() is True
    tf.config.set_soft_device_placement(False)
    try:
        with pytest.raises(tf.errors.InvalidArgumentError, match="Could not satisfy device"):
            with tf.device("/GPU:0"):
                tf.constant([1.0]) * 2.0
        with tf.device("/CPU:0"):
            assert (tf.constant([1.0]) * 2.0).numpy().tolist() == [2.0]
    finally:
        tf.config.set_soft_device_placement(True)
    with tf.device("/GPU:0"):  # soft again: falls back to CPU:0
        assert (tf.constant([1.0]) * 2.0).device.endswith("CPU:0")


def test_switches_round_trip_and_errors():
    e = tf.config.experimental
    tf.config.experimental.enable_tensor_float_32_execution(False)
    assert tf.config.experimental.tensor_float_32_execution_enabled() is False
    tf.config.experimental.enable_tensor_float_32_execution(True)
    tf.config.experimental.set_device_policy("explicit")
    assert tf.config.experimental.get_device_policy() == "explicit"
    tf.config.experimental.set_device_policy(None)
    assert tf.config.experimental.get_device_policy() == "silent"
    with pytest.raises(ValueError, match="Invalid argument `device_policy`"):
        tf.config.experimental.set_device_policy("loud")
    tf.config.experimental.set_synchronous_execution(False)
    assert tf.config.experimental.get_synchronous_execution() is False
    tf.config.experimental.set_synchronous_execution(True)
    assert tf.config.experimental.enable_op_determinism() is None


def test_cpu_memory_queries_raise_as_tf():
    e = tf.config.experimental
    cpu = tf.config.list_physical_devices("CPU")[0]
    with pytest.raises(ValueError, match="Allocator stats not available"):
        tf.config.experimental.get_memory_info("CPU:0")
    with pytest.raises(ValueError, match="Cannot reset memory stats"):
        tf.config.experimental.reset_memory_stats("CPU:0")
    with pytest.raises(KeyError):
        tf.config.experimental.get_memory_growth(cpu)
    assert tf.config.experimental.get_device_details(cpu) == {}
    with pytest.raises(ValueError, match="Unrecognized device"):
        tf.config.experimental.get_device_details("CPU:0")


def test_virtual_device_configuration_is_the_logical_one():
    e = tf.config.experimental
    assert tf.config.experimental.VirtualDeviceConfiguration is tf.config.LogicalDeviceConfiguration
    cpu = tf.config.list_physical_devices("CPU")[0]
    assert tf.config.experimental.get_virtual_device_configuration(cpu) == \
        tf.config.get_logical_device_configuration(cpu)


def test_matches_real_tf(real):
    here = run_here()
    assert here.keys() == real.keys()
    for key in real:
        assert here[key] == real[key], key
