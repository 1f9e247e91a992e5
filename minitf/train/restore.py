"""Restoring: walk the saved object graph and the live objects side by side.

Matching goes by the graph, not by variable names: the checkpoint's root is
the `tf.train.Checkpoint`, and each saved child `name` is looked for among
the live object's children of that name. A matched variable takes the saved
value at once. A saved child that does not exist yet is *deferred*: the
restoration waits on the parent, and when the attribute is assigned later
(`model.v = tf.Variable(0.0)`, a Keras layer building its weights, a
Sequential model being built) the new object gets its value on creation.

>>> import minitf as tf, tempfile, os
>>> m = tf.Module(); m.v = tf.Variable(3.0)
>>> path = tf.train.Checkpoint(model=m).write(os.path.join(tempfile.mkdtemp(), "m"))
>>> fresh = tf.Module()
>>> status = tf.train.Checkpoint(model=fresh).read(path)
>>> fresh.v = tf.Variable(0.0)             # created after the restore...
>>> fresh.v.numpy()                        # ...and restored on creation
np.float32(3.0)

In TensorFlow this is `tensorflow/python/checkpoint/restore.py`
(`CheckpointPosition`) and `Trackable._handle_deferred_dependencies`.
minitf's deferred restoration is triggered by attribute assignment on a
`tf.Module` (so Keras layers and models too); appending to a list that was
already matched is not watched (TF's ListWrapper does watch it) - assign the
list after restoring, or build it before.
"""
import weakref

import numpy as np

from .. import module as _module
from ..framework import errors
from .object_graph import VARIABLE_VALUE, children, is_variable

# id(parent) -> (weakref to parent, {local name: (Restoration, checkpoint node id)})
_PENDING = {}
_TF_DTYPE_NAMES = {"float32": "float", "float64": "double"}


class Restoration:
    """One `read`/`restore` of one checkpoint file into one root object."""

    def __init__(self, checkpoint_file):
        self.file = checkpoint_file
        self.nodes = checkpoint_file.object_graph["nodes"]
        self.matched = {}  # checkpoint node id -> id() of the live object
        self.restored_keys = set()

    def match(self, node_id, obj):
        """Match `obj` to saved node `node_id`, then their children, breadth first."""
        queue = [(node_id, obj)]
        while queue:
            nid, live = queue.pop(0)
            if nid in self.matched:
                continue
            self.matched[nid] = id(live)  # ids only: a pending restore must not keep
            #                                objects alive
            node = self.nodes[nid]
            for attribute in node["attributes"]:
                if attribute.get("name") == VARIABLE_VALUE and is_variable(live):
                    self._restore_value(attribute["checkpoint_key"], live)
            live_children = dict(children(live))
            for child in node["children"]:
                name, child_id = child["local_name"], child["node_id"]
                if name in live_children:
                    queue.append((child_id, live_children[name]))
                elif child_id not in self.matched:
                    _defer(live, name, self, child_id)

    def _restore_value(self, key, variable):
        shape = tuple(self.file.shape(key))
        if not variable.shape.is_compatible_with(shape):
            raise ValueError(
                f"Received incompatible tensor with shape {shape} when attempting to restore "
                f"variable with shape {tuple(variable.shape)} and name {variable.name}. The "
                "checkpoint was saved from a model of a different size; build the same "
                "architecture before restoring.")
        stored = self.file.dtype_name(key)
        if stored != variable.dtype.name:
            raise errors.InvalidArgumentError(
                None, None, f"tensor_name = {key}; expected dtype "
                f"{_TF_DTYPE_NAMES.get(variable.dtype.name, variable.dtype.name)} does not "
                f"equal original dtype {_TF_DTYPE_NAMES.get(stored, stored)} [Op:RestoreV2] "
                "Create the variable with the dtype it was saved with.")
        variable.assign(np.asarray(self.file.tensor(key)))
        self.restored_keys.add(key)

    def path_of(self, node_id):
        """'(root).model.sub.w': the saved node's path, as TF prints it."""
        parents = {c["node_id"]: (i, c["local_name"])
                   for i, node in enumerate(self.nodes) for c in node["children"]}
        names, seen = [], set()
        while node_id in parents and node_id not in seen and node_id != 0:
            seen.add(node_id)
            node_id, name = parents[node_id]
            names.append(name)
        return ".".join(["(root)"] + names[::-1])


def _defer(parent, name, restoration, node_id):
    key = id(parent)
    entry = _PENDING.get(key)
    if entry is None or entry[0]() is not parent:
        try:
            ref = weakref.ref(parent, lambda _, key=key: _forget(key))
        except TypeError:  # lists and dicts cannot be watched
            return
        entry = _PENDING[key] = (ref, {})
    entry[1].setdefault(name, (restoration, node_id))
    _module._on_assign[:] = [attribute_assigned]


def _forget(key, pending=_PENDING, hook=_module._on_assign):
    """The parent is gone: its deferred restorations can never happen."""
    pending.pop(key, None)
    if not pending:
        hook[:] = []


def attribute_assigned(parent, *_):
    """Called by Module/Layer `__setattr__` while anything is pending: restore new children."""
    entry = _PENDING.get(id(parent))
    if entry is None or entry[0]() is not parent:
        return
    waiting = entry[1]
    for name, child in children(parent):
        if name in waiting:
            restoration, node_id = waiting.pop(name)
            restoration.match(node_id, child)
    if not waiting:
        _PENDING.pop(id(parent), None)
    if not _PENDING:
        _module._on_assign[:] = []
