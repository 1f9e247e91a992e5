"""Devices: the CPU, its logical parts, `tf.device` scopes and where ops ran.

TensorFlow places every op on a device. minitf has one CPU, which - as in
TF - can be split into several *logical* devices before first use
(`tf.config.set_logical_device_configuration`, framework/config_devices.py).
Inside `with tf.device("/CPU:1"):` every eager op records that device on its
results, and every traced op records it on its graph node:

>>> import minitf as tf
>>> with tf.device("/CPU:0"):
...     y = tf.constant([1.0, 2.0]) * 2
>>> y.device
'/job:localhost/replica:0/task:0/device:CPU:0'

Placement is *recorded*, not enforced: all logical devices share the one
process and NumPy, so an op "on" CPU:1 computes exactly what it would on CPU:0.
Like TF with soft device placement (on by default in TF 2), a device that does
not exist (`/GPU:0`, `/CPU:7`) falls back to CPU:0 instead of failing.

The hot path pays nothing for this: a scope bumps `context.active` (as tapes
and graphs do), so plain eager code never looks at devices, and a result
stores its device only when it is not the default one.
"""
import collections
import threading

from . import context
from .tensor import DEFAULT_DEVICE

_VALID_DEVICE_TYPES = frozenset({"CPU", "GPU", "TPU", "CUSTOM", "EPHEMERAL"})

PhysicalDevice = collections.namedtuple("PhysicalDevice", ["name", "device_type"])
PhysicalDevice.__doc__ = "A device the process can see, as `tf.config.PhysicalDevice`."
LogicalDevice = collections.namedtuple("LogicalDevice", ["name", "device_type"])
LogicalDevice.__doc__ = "A device ops can be placed on, as `tf.config.LogicalDevice`."


class LogicalDeviceConfiguration(collections.namedtuple(
        "LogicalDeviceConfiguration",
        ["memory_limit", "experimental_priority", "experimental_device_ordinal"])):
    """One logical device to carve out of a physical one (all fields must stay None on
    a CPU, as in TF).

    >>> tf.config.LogicalDeviceConfiguration()
    LogicalDeviceConfiguration(memory_limit=None, experimental_priority=None, experimental_device_ordinal=None)
    """

    def __new__(cls, memory_limit=None, experimental_priority=None,
                experimental_device_ordinal=None):
        return super().__new__(cls, memory_limit, experimental_priority,
                               experimental_device_ordinal)


CPU = PhysicalDevice(name="/physical_device:CPU:0", device_type="CPU")


class _Runtime:
    """What TF's eager context knows about devices; frozen by the first device use."""

    def __init__(self):
        self.initialized = False
        self.logical_config = {}  # PhysicalDevice -> list of LogicalDeviceConfiguration
        self.visible = [CPU]
        self.inter_op_threads = 0
        self.intra_op_threads = 0
        self.log_placement = False
        self.soft_placement = True  # tf.config.set_soft_device_placement

    def num_cpus(self):
        return len(self.logical_config.get(CPU, ())) or 1


runtime = _Runtime()
_lock = threading.Lock()


def initialize():
    """Freeze the device configuration, as TF's runtime does when it first starts.

    In TF any op starts the runtime; minitf's ops skip that check to keep the eager
    path fast, so only device-aware calls (`list_logical_devices`, `tf.device`,
    strategies, log placement) initialize it.
    """
    from . import errors
    if CPU not in runtime.visible:
        raise errors.NotFoundError(None, None, "No CPU devices are available in this process")
    runtime.initialized = True


def _reset():
    """Forget the configuration (tests only: TF needs a new process for this)."""
    global runtime
    if runtime.log_placement:
        set_log_device_placement(False)
    runtime = _Runtime()


def logical_cpu_names():
    """The full names of the logical CPUs: '/job:localhost/replica:0/task:0/device:CPU:i'."""
    return [f"/job:localhost/replica:0/task:0/device:CPU:{i}" for i in range(runtime.num_cpus())]


# --- device strings -----------------------------------------------------------------


def parse(spec):
    """A device string's parts as a dict, the way TF's `DeviceSpec.from_string` reads it.

    >>> parse("/cpu:1")
    {'job': None, 'replica': None, 'task': None, 'device_type': 'CPU', 'device_index': 1}
    >>> parse("/job:localhost/replica:0/task:0/device:CPU:0")["job"]
    'localhost'
    """
    parts = dict(job=None, replica=None, task=None, device_type=None, device_index=None)
    for piece in (spec or "").split("/"):
        y = piece.split(":")
        if y == [""]:
            continue
        if len(y) == 2 and y[0] in ("job", "replica", "task"):
            parts[y[0]] = y[1] if y[0] == "job" else int(y[1])
        elif len(y) in (1, 2) and y[0].upper() in _VALID_DEVICE_TYPES:
            if parts["device_type"] is not None:
                raise ValueError("Multiple device types are not allowed while parsing the "
                                 f"device spec: {spec}.")
            parts["device_type"] = y[0].upper()
            if len(y) == 2 and y[1] != "*":
                parts["device_index"] = int(y[1])
        elif len(y) == 3 and y[0] == "device":
            parts["device_type"] = y[1]
            if y[2] != "*":
                parts["device_index"] = int(y[2])
        else:
            raise ValueError(f"Unknown attribute '{y[0]}' is encountered while parsing the "
                             f"device spec: '{spec}'. A device string looks like '/CPU:1' or "
                             "'/job:localhost/replica:0/task:0/device:CPU:1'.")
    return parts


def to_string(parts):
    """TF's canonical form of a (partial) spec: '/device:CPU:1', '/job:localhost/...'."""
    text = ""
    for key in ("job", "replica", "task"):
        if parts[key] is not None:
            text += f"/{key}:{parts[key]}"
    if parts["device_type"] is not None:
        index = "*" if parts["device_index"] is None else parts["device_index"]
        text += f"/device:{parts['device_type']}:{index}"
    return text


def resolve(parts):
    """The full name of the logical device a spec lands on (soft placement: CPU:0 when
    the requested device does not exist)."""
    index = parts["device_index"]
    if parts["device_type"] in (None, "CPU") and index is not None and \
            0 <= index < runtime.num_cpus():
        return f"/job:localhost/replica:0/task:0/device:CPU:{index}"
    return DEFAULT_DEVICE


# --- placement ----------------------------------------------------------------------


class Placement:
    """Where ops of one thread go now: the requested `spec` (graph nodes keep it, as in
    TF) and the resolved full device `name` (eager results report it)."""

    __slots__ = ("spec", "name", "parts")

    def __init__(self, spec, name, parts=None):
        self.spec, self.name, self.parts = spec, name, parts

    def place(self, op_name, outputs):
        """Record this device on an eager op's results; print it if logging is on."""
        if not runtime.soft_placement and self.parts is not None:
            _check_hard_placement(self.parts)
        if self.name != DEFAULT_DEVICE:
            if type(outputs) is tuple:
                for t in outputs:
                    t._device = self.name
            else:
                outputs._device = self.name
        if runtime.log_placement:
            print(f"{op_name}: ({op_name}): {self.name}")

    def __repr__(self):
        return f"<Placement {self.name}>"


_DEFAULT_PLACEMENT = Placement("", DEFAULT_DEVICE)


def _check_hard_placement(parts):
    """Without soft placement, a device that does not exist is an error (TF's text)."""
    index = parts["device_index"]
    if parts["device_type"] in (None, "CPU") and (index is None or 0 <= index < runtime.num_cpus()):
        return
    from .errors import InvalidArgumentError
    full = dict(parts, job=parts["job"] or "localhost", replica=parts["replica"] or 0,
                task=parts["task"] or 0)
    cpus = ", ".join(f"/job:localhost/replica:0/task:0/device:CPU:{i}"
                     for i in range(runtime.num_cpus()))
    raise InvalidArgumentError(None, None, (
        f"Could not satisfy device specification '{to_string(full)}'. "
        f"enable_soft_placement=0. Supported device types [CPU]. All available devices "
        f"[{cpus}]."))


def place_new(tensor):
    """Record the current device on a tensor made without an op (tf.constant)."""
    if context._state.graph_stack:
        return tensor  # a constant inside tf.function becomes a Const node, placed there
    placement = context._state.device or context.default_device
    if placement is not None:
        placement.place("_EagerConst", tensor)
    return tensor


def current_device_name():
    """The full name of the calling thread's device (the default CPU:0 outside scopes)."""
    placement = context._state.device if context.active else None
    return placement.name if placement is not None else DEFAULT_DEVICE


def current_spec():
    """The requested device string for a graph node ('' outside tf.device)."""
    placement = context._state.device
    return placement.spec if placement is not None else ""


class device:  # noqa: N801 - TF's name
    """`with tf.device("/CPU:1"):` - ops inside record that device.

    `device_name` is a string such as "/CPU:1", "CPU:1", "/device:CPU:1",
    "/job:localhost/replica:0/task:0/device:CPU:1", or None for the default.
    Placement is recorded, not enforced: minitf runs every op on the one CPU.

    >>> with tf.device("/CPU:0"):
    ...     print(tf.constant(1.0).device)
    /job:localhost/replica:0/task:0/device:CPU:0
    """

    def __init__(self, device_name):
        if callable(device_name):
            raise RuntimeError("tf.device does not support functions when eager execution "
                               "is enabled. Pass a device string such as '/CPU:0'.")
        self._parts = parse(device_name) if device_name else None
        self._saved = []

    def __enter__(self):
        initialize()
        parts, placement = self._parts, None
        outer = context._state.device
        if parts is not None:
            if outer is not None and outer.parts is not None:  # nested: TF merges the specs
                parts = {k: parts[k] if parts[k] is not None else v
                         for k, v in outer.parts.items()}
            placement = Placement(to_string(parts), resolve(parts), parts)
        enter(placement, self._saved)
        return self

    def __exit__(self, *exc):
        leave(self._saved)
        return False


def enter(placement, saved):
    """Make `placement` (or None: the default) the calling thread's device."""
    state = context._state
    saved.append(state.device)
    state.device = placement
    context._adjust((placement is not None) - (saved[-1] is not None))


def leave(saved):
    state = context._state
    before = state.device
    state.device = saved.pop()
    context._adjust((state.device is not None) - (before is not None))


def set_log_device_placement(enabled):
    """`tf.debugging.set_log_device_placement(True)`: print each op's device as it runs.

    Lines read as TF's: `Mul: (Mul): /job:localhost/replica:0/task:0/device:CPU:0`
    (TF also prints lines for the `_Arg`/`_Retval` nodes of the small function it
    wraps each eager op in; minitf prints the op alone).

    >>> tf.debugging.set_log_device_placement(True)
    >>> y = tf.constant(1.0) * 2
    _EagerConst: (_EagerConst): /job:localhost/replica:0/task:0/device:CPU:0
    Mul: (Mul): /job:localhost/replica:0/task:0/device:CPU:0
    >>> tf.debugging.set_log_device_placement(False)
    """
    enabled = bool(enabled)
    with _lock:
        if enabled == runtime.log_placement:
            return
        runtime.log_placement = enabled
        context.default_device = _DEFAULT_PLACEMENT if enabled else None
    context._adjust(1 if enabled else -1)
