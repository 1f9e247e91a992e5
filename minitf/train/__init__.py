"""`tf.train`: checkpoints - save and restore the variables of a graph of objects.

* `checkpoint.py` - `tf.train.Checkpoint` (`save`, `write`, `restore`, `read`)
  and the status objects `restore` returns;
* `object_graph.py` - which objects a checkpoint reaches, and their keys;
* `restore.py` - matching saved nodes to live objects, deferred restoration;
* `checkpoint_file.py` - the files: `.index` (JSON) + `.data-00000-of-00001` (`.npz`);
* `checkpoint_state.py` - the directory's `checkpoint` file, `latest_checkpoint`;
* `checkpoint_utils.py` - `load_checkpoint`, `list_variables`, `load_variable`;
* `checkpoint_management.py` - `CheckpointManager`;
* `checkpoint_watch.py` - `get_checkpoint_state`, `checkpoints_iterator`;
* `checkpoint_options.py`, `coordinator.py`, `moving_averages.py` - `CheckpointOptions`,
  `Coordinator` (threads), `ExponentialMovingAverage`.
"""
from . import checkpoint_management  # noqa: F401 - registers tf.train.CheckpointManager
from .checkpoint import Checkpoint  # noqa: F401
from .checkpoint_management import CheckpointManager  # noqa: F401
from .checkpoint_state import latest_checkpoint  # noqa: F401
from .checkpoint_utils import list_variables, load_checkpoint, load_variable  # noqa: F401
from .moving_averages import ExponentialMovingAverage  # noqa: F401
from .checkpoint_options import CheckpointOptions  # noqa: F401
from .checkpoint_watch import checkpoints_iterator, get_checkpoint_state  # noqa: F401
from .coordinator import Coordinator  # noqa: F401


from . import example as _example  # noqa: E402 - protobuf itself loads on first use


def __getattr__(name):
    """`tf.train.Example`, `Feature`, ...: protobuf classes, made on first use (example.py)."""
    if name in _example.NAMES:
        return _example.message_classes()[name]
    raise AttributeError(f"module 'minitf.train' has no attribute {name!r}")


def __dir__():
    return sorted(set(globals()) | set(_example.NAMES))
