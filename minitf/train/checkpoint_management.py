"""`tf.train.CheckpointManager`: numbered saves in a directory, keeping the last few.

>>> import minitf as tf, tempfile, os
>>> step = tf.Variable(0, dtype=tf.int64)
>>> ckpt = tf.train.Checkpoint(step=step)
>>> manager = tf.train.CheckpointManager(ckpt, tempfile.mkdtemp(), max_to_keep=2)
>>> for _ in range(3):
...     _ = step.assign_add(1)
...     _ = manager.save()
>>> [os.path.basename(p) for p in manager.checkpoints]     # ckpt-1 was deleted
['ckpt-2', 'ckpt-3']
>>> os.path.basename(tf.train.latest_checkpoint(manager.directory))
'ckpt-3'

The `checkpoint` file is rewritten (atomically) after each new checkpoint is
complete and before old ones are deleted, so it never names a missing file.
"""
import os
import time

from ..framework.tf_export import tf_export
from . import checkpoint_state
from .checkpoint_file import DATA_SUFFIX, INDEX_SUFFIX


@tf_export("train.CheckpointManager")
class CheckpointManager:
    """Save `checkpoint` as `directory/checkpoint_name-N`, deleting all but `max_to_keep`.

    keep_checkpoint_every_n_hours: also keep one checkpoint per that many hours.
    step_counter + checkpoint_interval: `save()` writes only when the step has
    advanced by at least `checkpoint_interval` since the last save (else None).
    init_fn: what `restore_or_initialize` calls when there is no checkpoint yet.
    """

    def __init__(self, checkpoint, directory, max_to_keep, keep_checkpoint_every_n_hours=None,
                 checkpoint_name="ckpt", step_counter=None, checkpoint_interval=None,
                 init_fn=None):
        if directory is None:
            raise ValueError("Argument `directory` must be specified: the directory where "
                             "checkpoints are written.")
        if max_to_keep is not None and max_to_keep <= 0:
            raise ValueError(f"Expected a positive integer or `None` for `max_to_keep`, "
                             f"got {max_to_keep}.")
        if checkpoint_interval is not None and step_counter is None:
            raise ValueError("`step_counter` should be passed if `checkpoint_interval` is "
                             "not None.")
        self._checkpoint = checkpoint
        self._directory = os.fspath(directory)
        self._max_to_keep = max_to_keep
        self._keep_checkpoint_every_n_hours = keep_checkpoint_every_n_hours
        self._checkpoint_prefix = os.path.join(self._directory, checkpoint_name)
        self._step_counter = step_counter
        self._checkpoint_interval = checkpoint_interval
        self._init_fn = init_fn
        self._last_checkpoint_step = None
        self._maybe_delete = {}  # prefix -> timestamp, oldest first
        self._latest_checkpoint = None
        self._last_preserved_timestamp = time.time()
        state = checkpoint_state.read(self._directory)
        if state is not None:
            self._latest_checkpoint = state["model_checkpoint_path"]
            stamps = state["all_model_checkpoint_timestamps"]
            paths = state["all_model_checkpoint_paths"]
            for i, path in enumerate(paths):
                if os.path.exists(path + INDEX_SUFFIX):
                    self._maybe_delete[path] = stamps[i] if i < len(stamps) else time.time()
            self._last_preserved_timestamp = state.get("last_preserved_timestamp",
                                                       self._last_preserved_timestamp)

    @property
    def directory(self):
        return self._directory

    @property
    def checkpoint(self):
        return self._checkpoint

    @property
    def checkpoint_interval(self):
        return self._checkpoint_interval

    @property
    def latest_checkpoint(self):
        """The newest checkpoint's prefix (None before the first save)."""
        return self._latest_checkpoint

    @property
    def checkpoints(self):
        """The prefixes this manager keeps, oldest first."""
        return list(self._maybe_delete)

    def save(self, checkpoint_number=None, check_interval=True, options=None):
        """Write a new checkpoint and return its prefix (None when skipped by the interval).

        checkpoint_number: the N in `ckpt-N` (an int or an integer variable);
        by default the checkpoint's `save_counter` after adding one.
        """
        if self._checkpoint_interval is not None and check_interval:
            step = int(self._step_counter.numpy())
            if self._last_checkpoint_step is not None and \
                    step - self._last_checkpoint_step < self._checkpoint_interval:
                return None
            self._last_checkpoint_step = step
        counter = self._checkpoint.save_counter
        counter.assign_add(1)
        if checkpoint_number is None:
            checkpoint_number = counter
        path = self._checkpoint.write(f"{self._checkpoint_prefix}-{int(checkpoint_number)}")
        self._maybe_delete.pop(path, None)  # an overwritten checkpoint becomes the newest
        self._maybe_delete[path] = time.time()
        self._latest_checkpoint = path
        self._record_state()
        self._sweep()
        self._record_state()
        return path

    def restore_or_initialize(self):
        """Restore the latest checkpoint if there is one (returning its path), else call
        `init_fn` (returning None)."""
        if self._latest_checkpoint is not None:
            self._checkpoint.restore(self._latest_checkpoint)
            if self._checkpoint_interval is not None:
                self._last_checkpoint_step = int(self._step_counter.numpy())
            return self._latest_checkpoint
        if self._init_fn is not None:
            self._init_fn()
        return None

    def _record_state(self):
        checkpoint_state.update(self._directory, self._latest_checkpoint,
                                list(self._maybe_delete), list(self._maybe_delete.values()),
                                self._last_preserved_timestamp)

    def _sweep(self):
        """Delete the oldest checkpoints beyond `max_to_keep` (keeping one per n hours)."""
        if self._max_to_keep is None:
            return
        while len(self._maybe_delete) > self._max_to_keep:
            path = next(iter(self._maybe_delete))
            timestamp = self._maybe_delete.pop(path)
            hours = self._keep_checkpoint_every_n_hours
            if hours is not None and \
                    timestamp - hours * 3600.0 >= self._last_preserved_timestamp:
                self._last_preserved_timestamp = timestamp
                continue
            for suffix in (INDEX_SUFFIX, DATA_SUFFIX):  # the index first: never a lone index
                if os.path.exists(path + suffix):
                    os.remove(path + suffix)
