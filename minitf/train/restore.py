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
`tf.Module` (so Keras layers and models too) and by a Keras optimizer making a
variable; a list's children wait on the module or optimizer holding the list.
Differences from TF 2.21: appending to a plain list of a tf.Module after the
restore is noticed only at the module's next attribute assignment (TF's
ListWrapper notices the append itself); and minitf also restores the weights
of a subclassed Keras model's layers built after the restore, which TF 2.21 +
Keras 3.15 leave at their initial values (`assert_consumed` fails there).
"""
import collections
import weakref

import numpy as np

from .. import module as _module
from ..framework import errors
from .object_graph import VARIABLE_VALUE, children, is_variable, saves_tensors

# id(owner) -> (weakref to owner, {path below owner: (Restoration, checkpoint node id)}).
# The owner is the nearest module, optimizer or checkpoint: lists and dicts cannot be
# watched themselves, so a missing `_variables/3` waits on the optimizer holding the list.
_PENDING = {}
_TF_DTYPE_NAMES = {"float32": "float", "float64": "double"}


def _is_owner(obj):
    return not isinstance(obj, (list, tuple, dict)) and not is_variable(obj) and \
        getattr(obj, "_checkpoint_owner", True)


class Restoration:
    """One `read`/`restore` of one checkpoint file into one root object."""

    def __init__(self, checkpoint_file):
        self.file = checkpoint_file
        self.nodes = checkpoint_file.object_graph["nodes"]
        self.matched = {}  # checkpoint node id -> id() of the live object
        self.restored_keys = set()

    def match(self, node_id, obj, owner=None, path=()):
        """Match `obj` to saved node `node_id`, then their children, breadth first.

        `owner`/`path`: where `obj` hangs, for children that must wait (see `_defer`).
        """
        queue = collections.deque([(node_id, obj, owner, path)])
        while queue:
            nid, live, owner, path = queue.popleft()
            if nid in self.matched:
                continue
            self.matched[nid] = id(live)  # ids only: a pending restore must not keep
            #                                objects alive
            if _is_owner(live):
                owner, path = live, ()
            node = self.nodes[nid]
            for attribute in node["attributes"]:
                if attribute.get("name") == VARIABLE_VALUE and is_variable(live):
                    self._restore_value(attribute["checkpoint_key"], live)
            if saves_tensors(live) and node["attributes"]:
                self._restore_tensors(node["attributes"], live)
            live_children = dict(children(live))
            for child in node["children"]:
                name, child_id = child["local_name"], child["node_id"]
                if name in live_children:
                    queue.append((child_id, live_children[name], owner, path + (name,)))
                elif child_id not in self.matched and owner is not None:
                    _defer(owner, path + (name,), self, child_id)

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

    def _restore_tensors(self, attributes, live):
        """Hand a table (or other object saving named tensors) all of its saved tensors."""
        keys = {a["name"]: a["checkpoint_key"] for a in attributes}
        live._restore_tensors({name: self.file.tensor(key) for name, key in keys.items()})
        self.restored_keys.update(keys.values())

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


def _defer(owner, path, restoration, node_id):
    key = id(owner)
    entry = _PENDING.get(key)
    if entry is None or entry[0]() is not owner:
        try:
            ref = weakref.ref(owner, lambda _, key=key: _forget(key))
        except TypeError:  # an object that cannot be watched: its children are not deferred
            return
        entry = _PENDING[key] = (ref, {})
    entry[1].setdefault(path, (restoration, node_id))
    _module._on_assign[:] = [attribute_assigned]


def _forget(key, pending=_PENDING, hook=_module._on_assign):
    """The owner is gone: its deferred restorations can never happen."""
    pending.pop(key, None)
    if not pending:
        hook[:] = []


def _resolve(owner, path):
    obj = owner
    for name in path:
        obj = dict(children(obj)).get(name)
        if obj is None:
            return None
    return obj


def attribute_assigned(owner, *_):
    """Called when an owner's attributes change while restores wait: match what appeared."""
    entry = _PENDING.get(id(owner))
    if entry is None or entry[0]() is not owner:
        return
    waiting = entry[1]
    for path, (restoration, node_id) in list(waiting.items()):
        child = _resolve(owner, path)
        if child is not None:
            del waiting[path]
            if node_id not in restoration.matched:
                restoration.match(node_id, child, owner, path)
    if not waiting:
        _PENDING.pop(id(owner), None)
    if not _PENDING:
        _module._on_assign[:] = []
