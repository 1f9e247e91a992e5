"""`tf.train.Checkpoint`: save and restore the variables of a graph of objects.

>>> import minitf as tf, tempfile, os
>>> model = tf.Module()
>>> model.w = tf.Variable([1.0, 2.0])
>>> ckpt = tf.train.Checkpoint(model=model)
>>> directory = tempfile.mkdtemp()
>>> path = ckpt.save(os.path.join(directory, "ckpt"))     # numbered: ckpt-1, ckpt-2, ...
>>> os.path.basename(path), sorted(os.listdir(directory))
('ckpt-1', ['checkpoint', 'ckpt-1.data-00000-of-00001', 'ckpt-1.index'])
>>> _ = model.w.assign([0.0, 0.0])
>>> ckpt.restore(path).assert_consumed().__class__.__name__
'CheckpointLoadStatus'
>>> model.w.numpy()
array([1., 2.], dtype=float32)

`save` numbers the files with `save_counter` and updates the directory's
`checkpoint` file (what `tf.train.latest_checkpoint` reads); `write` writes
exactly the prefix it is given and touches nothing else. `restore`/`read`
return a status object whose `assert_*` methods say how well the saved graph
and the live objects matched.

The files are TF's layout (`.index` + `.data-00000-of-00001`) but minitf's
own bytes (JSON + `.npz`, see `checkpoint_file.py`): TF cannot read them,
nor minitf TF's. Keys, object graph and the `checkpoint` file are TF's.
"""
import os

from ..framework import dtypes
from ..framework.tf_export import tf_export
from ..framework.variables import Variable
from . import checkpoint_file, checkpoint_state
from .object_graph import build_graph, is_trackable, is_variable
from . import restore
from .restore import Restoration


@tf_export("train.Checkpoint")
class Checkpoint:
    """The root of a checkpoint: `tf.train.Checkpoint(model=m, optimizer=opt)`.

    Each keyword names a child: a tf.Module, Keras layer or model, optimizer,
    variable, a list or dict of those, or another Checkpoint. `root=obj` makes
    `obj`'s own children (as they are at each save or restore) the checkpoint's
    children, next to the keywords.

    minitf differs from TF in one corner: with `root=obj`, an attribute of `obj`
    that only appears after a restore is not restored on creation (TF restores
    it); `assert_consumed` reports it. Create such attributes before restoring.
    """

    def __init__(self, root=None, **kwargs):
        from .object_graph import children as children_of

        if root is not None:
            _check_trackable("root", root)
        named = dict(children_of(root)) if root is not None else {}
        for name, value in sorted(kwargs.items()):
            _check_trackable(name, value)
            if name in named and named[name] is not value:
                raise ValueError(f"Cannot create a Checkpoint with keyword argument {name} "
                                 f"if root.{name} already exists. Use another keyword, or "
                                 "leave the object to `root`.")
        self._root = root
        self._children = dict(sorted(kwargs.items()))
        self._save_counter = None

    def __getattr__(self, name):
        children = self.__dict__.get("_children", {})
        if name in children:
            return children[name]
        root = self.__dict__.get("_root")
        if root is not None and not name.startswith("_"):
            return getattr(root, name)
        raise AttributeError(f"'Checkpoint' object has no attribute '{name}'")

    def _checkpoint_children(self):
        from .object_graph import children as children_of

        items = children_of(self._root) if self._root is not None else []
        items += [(k, v) for k, v in self._children.items() if k not in dict(items)]
        if self._save_counter is not None:
            items.append(("save_counter", self._save_counter))
        return items

    @property
    def save_counter(self):
        """How many times `save` ran: an int64 variable, saved with the checkpoint."""
        if self._save_counter is None:
            self._save_counter = Variable(0, dtype=dtypes.int64, trainable=False,
                                          name="save_counter")
            restore.attribute_assigned(self)  # a restore may be waiting for it
        return self._save_counter

    # --- writing -------------------------------------------------------------------
    def write(self, file_prefix, options=None):
        """Write a checkpoint to exactly `file_prefix` (no numbering, no `checkpoint` file).

        `save_counter` is saved only once it exists (after a `save`, or reading
        the property), as in TF.
        """
        file_prefix = os.fspath(file_prefix)
        graph = build_graph(self)
        tensors = {key: variable.numpy() for key, variable in graph.variables()}
        tensors.update(graph.saved_tensors())  # lookup tables' keys and values
        checkpoint_file.write(file_prefix, tensors, graph.to_json())
        return file_prefix

    def save(self, file_prefix, options=None):
        """Write `file_prefix-N` (N = the new `save_counter`) and record it in `checkpoint`.

        The `checkpoint` file is replaced only after the new files are complete,
        so a failure while saving leaves the previous checkpoint the latest one.
        """
        file_prefix = os.fspath(file_prefix)
        number = int(self.save_counter.numpy()) + 1
        self.save_counter.assign(number)
        try:
            path = self.write(f"{file_prefix}-{number}")
        except BaseException:
            self.save_counter.assign(number - 1)
            raise
        checkpoint_state.update(os.path.dirname(path), path, [path])
        return path

    # --- reading -------------------------------------------------------------------
    def read(self, save_path, options=None):
        """Restore from `save_path` (a prefix); returns a `CheckpointLoadStatus`."""
        restoration = Restoration(checkpoint_file.CheckpointFile(os.fspath(save_path)))
        restoration.match(0, self)
        return CheckpointLoadStatus(self, restoration)

    def restore(self, save_path, options=None):
        """`read`, then make `save_counter` (so `save` continues the numbering: a saved
        counter is restored into it; an unsaved one makes `assert_consumed` fail, as in TF).
        `save_path=None` gives an `InitializationOnlyStatus` (nothing to load).

        A missing file's `NotFoundError` says which path was tried.
        """
        if save_path is None:
            return InitializationOnlyStatus()
        from ..framework import errors
        try:
            status = self.read(save_path, options)
        except errors.NotFoundError as e:
            raise errors.NotFoundError(
                None, None, f"Error when restoring from checkpoint or SavedModel at "
                f"{os.fspath(save_path)}: {e.message}\nPlease double-check that the path is "
                "correct. You may be missing the checkpoint suffix (e.g. the '-1' in "
                "'path/to/ckpt-1').") from None
        self.save_counter  # restore (not read) makes it, so a saved one is restored too
        return status


def _check_trackable(name, value):
    if not is_trackable(value) and not isinstance(value, (list, tuple, dict)):
        raise ValueError(
            f"`Checkpoint` was expecting {name} to be a trackable object (an object derived "
            f"from `Trackable`), got {value!r}. If you believe this object should be "
            "trackable (i.e. it is part of the TensorFlow Python API and manages state), "
            "please open an issue. (Checkpoints hold variables, tf.Modules, Keras layers, "
            "models and optimizers; wrap plain values in a tf.Variable.)")


class CheckpointLoadStatus:
    """What `restore`/`read` matched; its `assert_*` methods raise `AssertionError`."""

    def __init__(self, checkpoint, restoration):
        self._checkpoint = checkpoint
        self._restoration = restoration

    def _unmatched_objects(self):
        matched = set(self._restoration.matched.values())
        graph = build_graph(self._checkpoint)
        return [obj for obj in graph.objects if is_variable(obj) and id(obj) not in matched]

    def assert_existing_objects_matched(self):
        """Every variable that exists now got a value from the checkpoint."""
        unmatched = self._unmatched_objects()
        if unmatched:
            raise AssertionError(
                f"Found {len(unmatched)} Python objects that were not bound to checkpointed "
                "values, likely due to changes in the Python program. Showing "
                f"{min(len(unmatched), 10)} of {len(unmatched)} unmatched objects: "
                f"{unmatched[:10]}")
        return self

    def assert_consumed(self):
        """`assert_existing_objects_matched`, and every saved value found its object."""
        self.assert_existing_objects_matched()
        restoration = self._restoration
        for node_id, node in enumerate(restoration.nodes):
            for attribute in node["attributes"]:
                if attribute["checkpoint_key"] not in restoration.restored_keys:
                    raise AssertionError(
                        f"Unresolved object in checkpoint {restoration.path_of(node_id)}: "
                        f"attributes {{ name: \"{attribute.get('name')}\" checkpoint_key: "
                        f"\"{attribute['checkpoint_key']}\" }} (the program has no object "
                        "at this path yet; create it, or call expect_partial())")
        return self

    def assert_nontrivial_match(self):
        """Something besides the root object matched a saved object (`save_counter` counts,
        as in TF)."""
        if len(self._restoration.matched) < 2:
            raise AssertionError(
                f"Nothing except the root object matched a checkpointed value. Typically "
                f"this means that the checkpoint does not match the Python program. The "
                f"following objects have checkpointed values: "
                f"{sorted(self._restoration.file.entries)}")
        return self

    def expect_partial(self):
        """Say that an incomplete match is intended (TF then stops warning about it)."""
        return self

    def run_restore_ops(self, session=None):
        """Eager restores run at once: nothing left to do (kept for TF1 code)."""


class InitializationOnlyStatus:
    """`restore(None)`: nothing was loaded; asserting a match fails."""

    def assert_consumed(self):
        raise AssertionError("No checkpoint specified (save_path=None); nothing is being "
                             "restored.")

    assert_existing_objects_matched = assert_consumed
    assert_nontrivial_match = assert_consumed

    def expect_partial(self):
        return self

    def run_restore_ops(self, session=None):
        """Nothing to run."""

    def initialize_or_restore(self, session=None):
        """Variables are initialised on creation in eager mode: nothing to do."""
