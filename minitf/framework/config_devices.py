"""`tf.config`'s device functions: list, hide and split devices; thread counts.

The configuration must be settled before the runtime starts, as in TF: the
first device-aware call (`list_logical_devices`, `tf.device`, a strategy)
freezes it, and changing it afterwards raises TF's RuntimeError.

>>> import minitf as tf
>>> tf.config.list_physical_devices("CPU")
[PhysicalDevice(name='/physical_device:CPU:0', device_type='CPU')]
>>> tf.config.list_physical_devices("GPU")
[]

Splitting the CPU into two logical devices (before first use) is how
`tf.distribute.MirroredStrategy` gets two replicas on one machine:

    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(
        cpu, [tf.config.LogicalDeviceConfiguration()] * 2)
    tf.config.list_logical_devices()   # [LogicalDevice(name='/device:CPU:0', ...), .../CPU:1]

minitf has no GPU: the lists of GPUs are always empty.
"""
from . import device as _device
from .device import CPU, LogicalDevice, LogicalDeviceConfiguration, PhysicalDevice
from .tf_export import tf_export

tf_export("config.PhysicalDevice")(PhysicalDevice)
tf_export("config.LogicalDevice")(LogicalDevice)
tf_export("config.LogicalDeviceConfiguration",
          "config.experimental.VirtualDeviceConfiguration")(LogicalDeviceConfiguration)
tf_export("device")(_device.device)
tf_export("debugging.set_log_device_placement")(_device.set_log_device_placement)


@tf_export("debugging.get_log_device_placement")
def get_log_device_placement():
    """Whether `tf.debugging.set_log_device_placement(True)` is in effect.

    >>> tf.debugging.get_log_device_placement()
    False
    """
    return _device.runtime.log_placement


def _known(dev):
    if dev != CPU:
        raise ValueError(f"Unrecognized device: {dev!r}. Pass one of "
                         "tf.config.list_physical_devices().")


@tf_export("config.list_physical_devices", "config.experimental.list_physical_devices")
def list_physical_devices(device_type=None):
    """The physical devices (minitf: the one CPU), optionally of one type ("CPU", "GPU")."""
    return [CPU] if device_type in (None, "CPU") else []


@tf_export("config.get_visible_devices", "config.experimental.get_visible_devices")
def get_visible_devices(device_type=None):
    """The physical devices the runtime will use.

    >>> tf.config.get_visible_devices()
    [PhysicalDevice(name='/physical_device:CPU:0', device_type='CPU')]
    """
    return [d for d in _device.runtime.visible if device_type in (None, d.device_type)]


@tf_export("config.set_visible_devices", "config.experimental.set_visible_devices")
def set_visible_devices(devices, device_type=None):
    """Choose which physical devices the runtime uses (before it starts)."""
    if not isinstance(devices, list):
        devices = [devices]
    for dev in devices:
        _known(dev)
        if device_type is not None and dev.device_type != device_type:
            raise ValueError(f"Unrecognized device: {dev!r}")
    runtime = _device.runtime
    visible = [d for d in runtime.visible if device_type is not None
               and d.device_type != device_type] + devices
    if visible == runtime.visible:
        return
    if runtime.initialized:
        raise RuntimeError("Visible devices cannot be modified after being initialized")
    runtime.visible = visible


@tf_export("config.list_logical_devices", "config.experimental.list_logical_devices")
def list_logical_devices(device_type=None):
    """The devices ops can be placed on; starts the runtime (as in TF).

    >>> tf.config.list_logical_devices("CPU")[0]
    LogicalDevice(name='/device:CPU:0', device_type='CPU')
    """
    _device.initialize()
    if device_type not in (None, "CPU"):
        return []
    return [LogicalDevice(name=f"/device:CPU:{i}", device_type="CPU")
            for i in range(_device.runtime.num_cpus())]


@tf_export("config.set_logical_device_configuration",
           "config.experimental.set_virtual_device_configuration")
def set_logical_device_configuration(device, logical_devices):
    """Split a physical device into `len(logical_devices)` logical ones (before first use).

    On a CPU every `LogicalDeviceConfiguration` field must stay None (TF's rule).
    """
    _known(device)
    for config in logical_devices:
        for field in ("memory_limit", "experimental_priority", "experimental_device_ordinal"):
            if getattr(config, field) is not None:
                what = "memory limit" if field == "memory_limit" else field
                raise ValueError(f"Setting {what} on CPU virtual devices is currently not "
                                 "supported")
    runtime = _device.runtime
    logical_devices = list(logical_devices)
    if runtime.logical_config.get(device) == logical_devices:
        return
    if runtime.initialized:
        raise RuntimeError("Virtual devices cannot be modified after being initialized")
    runtime.logical_config[device] = logical_devices


@tf_export("config.get_logical_device_configuration",
           "config.experimental.get_virtual_device_configuration")
def get_logical_device_configuration(device):
    """The list set by `set_logical_device_configuration` (None if the device is whole)."""
    _known(device)
    return _device.runtime.logical_config.get(device)


@tf_export("config.experimental.set_memory_growth")
def set_memory_growth(device, enable):
    """GPU memory policy; a CPU has none, so TF (and minitf) refuse it there."""
    _known(device)
    if device in _device.runtime.logical_config:
        raise ValueError("Cannot set memory growth on device when virtual devices configured")
    raise ValueError("Cannot set memory growth on non-GPU and non-Pluggable devices")


def _threads(kind):
    def getter():
        return getattr(_device.runtime, f"{kind}_op_threads")

    def setter(num_threads):
        runtime = _device.runtime
        if getattr(runtime, f"{kind}_op_threads") == num_threads:
            return
        if runtime.initialized:
            raise RuntimeError(f"{kind.capitalize()} op parallelism cannot be modified after "
                               "initialization.")
        setattr(runtime, f"{kind}_op_threads", num_threads)

    getter.__name__ = f"get_{kind}_op_parallelism_threads"
    setter.__name__ = f"set_{kind}_op_parallelism_threads"
    getter.__doc__ = (f"The {kind}-op thread count asked for (0: TF chooses). minitf records "
                      "it and runs ops on NumPy as always.")
    setter.__doc__ = f"Set the {kind}-op thread count (before the runtime starts)."
    tf_export(f"config.threading.{getter.__name__}")(getter)
    tf_export(f"config.threading.{setter.__name__}")(setter)
    return getter, setter


get_inter_op_parallelism_threads, set_inter_op_parallelism_threads = _threads("inter")
get_intra_op_parallelism_threads, set_intra_op_parallelism_threads = _threads("intra")


from . import config_experimental  # noqa: E402,F401 - registers the runtime switches
