"""`tf.config` switches for the runtime: soft placement, TF32, device policy, sync, memory.

Most of them matter on GPUs; minitf runs on one CPU, so they are recorded and
reported back as TF reports them, and the memory queries raise what TF raises
for a CPU (its allocator keeps no statistics there):

>>> import minitf as tf
>>> tf.config.experimental.get_device_policy()
'silent'
>>> tf.config.experimental.get_memory_info("CPU:0")
Traceback (most recent call last):
...
ValueError: Allocator stats not available for device 'CPU:0'
"""
from . import device as _device
from .config_devices import _known
from .tf_export import tf_export

_state = {"tf32": True, "policy": "silent", "sync": True, "determinism": False}
_POLICIES = ("silent", "warn", "explicit", "silent_for_int32")


@tf_export("config.set_soft_device_placement")
def set_soft_device_placement(enabled):
    """On (the default): an op on a device that does not exist runs on CPU:0 instead.

    Off: such an op raises TF's InvalidArgumentError ("Could not satisfy device
    specification ...").
    """
    _device.runtime.soft_placement = bool(enabled)


@tf_export("config.get_soft_device_placement")
def get_soft_device_placement():
    """Whether soft device placement is on (True by default).

    >>> tf.config.get_soft_device_placement()
    True
    """
    return _device.runtime.soft_placement


@tf_export("config.experimental.enable_tensor_float_32_execution")
def enable_tensor_float_32_execution(enabled):
    """TF32 matmuls on Ampere GPUs; minitf computes in full float32 on the CPU either way."""
    _state["tf32"] = bool(enabled)


@tf_export("config.experimental.tensor_float_32_execution_enabled")
def tensor_float_32_execution_enabled():
    """Whether TF32 is allowed (True by default, as TF)."""
    return _state["tf32"]


@tf_export("config.experimental.enable_op_determinism")
def enable_op_determinism():
    """Ask for deterministic ops. minitf's NumPy kernels already are: same inputs, same bits."""
    _state["determinism"] = True


@tf_export("config.experimental.get_device_policy")
def get_device_policy():
    """How tensors on the wrong device are handled: 'silent' (copy) by default."""
    return _state["policy"]


@tf_export("config.experimental.set_device_policy")
def set_device_policy(device_policy):
    """'silent', 'warn', 'explicit', 'silent_for_int32', or None (the default: 'silent')."""
    if device_policy is not None and device_policy not in _POLICIES:
        raise ValueError(
            f"Invalid argument `device_policy`: {device_policy!r}. Please refer to "
            "https://www.tensorflow.org/api_docs/python/tf/config/experimental/"
            "set_device_policy for valid `device_policy` arguments.")
    _state["policy"] = device_policy or "silent"


@tf_export("config.experimental.get_synchronous_execution")
def get_synchronous_execution():
    """Whether eager ops finish before returning (True; minitf is always synchronous)."""
    return _state["sync"]


@tf_export("config.experimental.set_synchronous_execution")
def set_synchronous_execution(enable):
    """Record TF's async-eager switch; minitf still runs each op before returning."""
    _state["sync"] = bool(enable)


@tf_export("config.experimental.get_memory_info")
def get_memory_info(device):
    """GPU allocator statistics ({'current', 'peak'} bytes); a CPU has none, as in TF."""
    raise ValueError(f"Allocator stats not available for device {device!r}")


@tf_export("config.experimental.get_memory_usage")
def get_memory_usage(device):
    """Deprecated form of get_memory_info(device)['current']; a CPU has no stats."""
    raise ValueError(f"Allocator stats not available for device {device!r}")


@tf_export("config.experimental.reset_memory_stats")
def reset_memory_stats(device):
    """Reset a GPU's peak memory statistic; a CPU has none, as in TF."""
    raise ValueError(f"Cannot reset memory stats for device {device!r}")


@tf_export("config.experimental.get_device_details")
def get_device_details(device):
    """Details of a physical GPU ('device_name', 'compute_capability'); {} for the CPU."""
    _known(device)
    return {}


@tf_export("config.experimental.get_memory_growth")
def get_memory_growth(device):
    """Memory growth is a GPU setting: TF's map has no entry for the CPU (KeyError)."""
    _known(device)
    raise KeyError(device)
