"""Execution state the one door (`op.apply`) consults: the active tapes, the
graphs being traced by `tf.function`, and the open `tf.name_scope`s.

Each thread has its own stacks, as in TensorFlow: a tf.data worker thread
running eager ops while the main thread traces a function must neither add
nodes to that graph nor be recorded by the main thread's tapes.

>>> import threading
>>> from minitf.framework import context
>>> seen = []
>>> worker = threading.Thread(target=lambda: seen.append(context.executing_eagerly()))
>>> context.graph_stack.append("a graph being traced")   # only this thread sees it
>>> worker.start(); worker.join()
>>> seen, context.executing_eagerly()
([True], False)
>>> context.graph_stack.pop()
'a graph being traced'

The hot path (`op.apply`, variable reads) first tests `active`, the number
of tapes and graphs pushed in all threads together: when it is 0 - plain
eager code, the common case - no per-thread lookup is needed at all.
"""
import threading

# Tapes + graphs currently pushed, over all threads (kept by the stack views below).
active = 0
_lock = threading.Lock()


def _adjust(delta):
    global active
    if delta:
        with _lock:
            active += delta


class _ThreadState(threading.local):
    """Per-thread stacks; `__init__` runs once in every thread that touches them."""

    def __init__(self):
        self.tape_stack = []   # GradientTapes currently recording, innermost last
        self.graph_stack = []  # Graphs being traced, innermost last (empty in eager mode)
        self.scope_stack = []  # full names of the open tf.name_scopes ("outer/inner/")
        self.device = None     # the tf.device Placement in effect (framework/device.py)
        self.op_callbacks = []  # called after each op (framework/op_callbacks.py)


_state = _ThreadState()
# The Placement ops use when their thread set none; only log_device_placement sets it.
default_device = None


class _ThreadStack:
    """A list-like view of one of the calling thread's stacks.

    `context.graph_stack` and `context.tape_stack` are these views, so code can
    keep writing `context.graph_stack[-1]`, `.append`, `[:] = []`.
    """

    __slots__ = ("_counted", "_field")

    def __init__(self, field, counted=True):
        self._field = field
        self._counted = counted  # tapes and graphs count in `active`; name scopes do not

    def _resized(self, before):
        if self._counted:
            _adjust(len(self._list()) - before)

    def _list(self):
        return getattr(_state, self._field)

    def __bool__(self):
        return bool(getattr(_state, self._field))

    def __len__(self):
        return len(self._list())

    def __iter__(self):
        return iter(list(self._list()))  # a snapshot: callers may push/pop while iterating

    def __reversed__(self):
        return reversed(list(self._list()))

    def __getitem__(self, index):
        return self._list()[index]

    def __setitem__(self, index, value):
        before = len(self._list())
        self._list()[index] = value
        self._resized(before)

    def __delitem__(self, index):
        before = len(self._list())
        del self._list()[index]
        self._resized(before)

    def __contains__(self, item):
        return item in self._list()

    def append(self, item):
        self._list().append(item)
        self._resized(len(self._list()) - 1)

    def pop(self, index=-1):
        item = self._list().pop(index)
        self._resized(len(self._list()) + 1)
        return item

    def remove(self, item):
        self._list().remove(item)
        self._resized(len(self._list()) + 1)

    def index(self, item):
        return self._list().index(item)

    def __repr__(self):
        return repr(self._list())


tape_stack = _ThreadStack("tape_stack")
graph_stack = _ThreadStack("graph_stack")
scope_stack = _ThreadStack("scope_stack", counted=False)


def executing_eagerly():
    """True outside a `tf.function` trace, as `tf.executing_eagerly()`."""
    return not (active and _state.graph_stack)


def current_name_scope():
    """The full name of the innermost open `tf.name_scope` ("" at top level, else ends in "/")."""
    stack = _state.scope_stack
    return stack[-1] if stack else ""
