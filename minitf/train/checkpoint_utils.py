"""Looking inside a checkpoint without restoring it: `tf.train.load_checkpoint` & co.

>>> import minitf as tf, tempfile, os
>>> m = tf.Module(); m.w = tf.Variable([[1.0, 2.0]])
>>> path = tf.train.Checkpoint(model=m).write(os.path.join(tempfile.mkdtemp(), "m"))
>>> tf.train.list_variables(path)
[('_CHECKPOINTABLE_OBJECT_GRAPH', []), ('model/w/.ATTRIBUTES/VARIABLE_VALUE', [1, 2])]
>>> reader = tf.train.load_checkpoint(path)
>>> reader.get_tensor("model/w/.ATTRIBUTES/VARIABLE_VALUE")
array([[1., 2.]], dtype=float32)

`get_tensor("_CHECKPOINTABLE_OBJECT_GRAPH")` returns the object graph as
bytes: JSON in minitf, a serialized protobuf in TensorFlow.
"""
import os

from ..framework import dtypes
from ..framework.tf_export import tf_export
from .checkpoint_file import CheckpointFile
from .checkpoint_state import latest_checkpoint


class CheckpointReader:
    """TF's reader API over one checkpoint (`tf.train.load_checkpoint` returns it)."""

    def __init__(self, prefix):
        self._file = CheckpointFile(prefix)

    def get_tensor(self, tensor_str):
        """The saved value of a key, as a NumPy array (NotFoundError if absent)."""
        return self._file.tensor(tensor_str)

    def has_tensor(self, tensor_str):
        return self._file.has(tensor_str)

    def get_variable_to_shape_map(self):
        return {key: self._file.shape(key) for key in self._file.keys()}

    def get_variable_to_dtype_map(self):
        return {key: dtypes.as_dtype(self._file.dtype_name(key)) for key in self._file.keys()}


def _prefix(ckpt_dir_or_file):
    path = os.fspath(ckpt_dir_or_file)
    if os.path.isdir(path):
        latest = latest_checkpoint(path)
        if latest is None:
            raise ValueError(f"Couldn't find 'checkpoint' file or checkpoints in given "
                             f"directory {path}. Pass a checkpoint prefix such as "
                             "'dir/ckpt-1', or a directory that `save` wrote to.")
        return latest
    return path


@tf_export("train.load_checkpoint")
def load_checkpoint(ckpt_dir_or_file):
    """A `CheckpointReader` for a prefix, or for a directory's latest checkpoint."""
    return CheckpointReader(_prefix(ckpt_dir_or_file))


@tf_export("train.list_variables")
def list_variables(ckpt_dir_or_file):
    """[(key, shape)] of every tensor in the checkpoint, sorted by key."""
    reader = load_checkpoint(ckpt_dir_or_file)
    return sorted(reader.get_variable_to_shape_map().items())


@tf_export("train.load_variable")
def load_variable(ckpt_dir_or_file, name):
    """The value saved under `name` (a trailing ':0' is dropped, as TF does)."""
    if name.endswith(":0"):
        name = name[:-2]
    return load_checkpoint(ckpt_dir_or_file).get_tensor(name)
