"""`tf.train.get_checkpoint_state` and `tf.train.checkpoints_iterator`: watch a directory.

An evaluation job follows a training job through the directory's `checkpoint` file:

>>> import os, tempfile, minitf as tf
>>> d = tempfile.mkdtemp()
>>> ckpt = tf.train.Checkpoint(v=tf.Variable(1.0))
>>> path = ckpt.save(os.path.join(d, "ckpt"))
>>> state = tf.train.get_checkpoint_state(d)
>>> state.model_checkpoint_path == path
True
>>> [p == path for p in tf.train.checkpoints_iterator(d, timeout=0)]  # each new one, once
[True]
"""
import time

from ..framework.tf_export import tf_export
from . import checkpoint_state


def _message_double(value):
    """A double as `str()` of a protobuf message prints it (upb: 15 significant digits, or 17
    when 15 do not give the value back). The `checkpoint` file itself holds Python's shortest
    repr, as TF's `text_format.MessageToString` writes it: 1.0 there is 1 here.

    >>> _message_double(1.0), _message_double(1795778481.6839471), _message_double(0.5)
    ('1', '1795778481.6839471', '0.5')
    """
    text = "%.15g" % value
    return text if float(text) == value else "%.17g" % value


class CheckpointState:
    """The fields of TF's `CheckpointState` protobuf (paths made absolute, as TF's reader)."""

    def __init__(self, model_checkpoint_path="", all_model_checkpoint_paths=(),
                 all_model_checkpoint_timestamps=(), last_preserved_timestamp=0.0):
        self.model_checkpoint_path = model_checkpoint_path
        self.all_model_checkpoint_paths = list(all_model_checkpoint_paths)
        self.all_model_checkpoint_timestamps = list(all_model_checkpoint_timestamps)
        self.last_preserved_timestamp = last_preserved_timestamp

    def __str__(self):  # the protobuf text format, as str() of TF's message
        quote = checkpoint_state._quote
        lines = [f"model_checkpoint_path: {quote(self.model_checkpoint_path)}"]
        lines += [f"all_model_checkpoint_paths: {quote(p)}"
                  for p in self.all_model_checkpoint_paths]
        lines += [f"all_model_checkpoint_timestamps: {_message_double(t)}"
                  for t in self.all_model_checkpoint_timestamps]
        if self.last_preserved_timestamp:
            last = _message_double(self.last_preserved_timestamp)
            lines.append(f"last_preserved_timestamp: {last}")
        return "".join(line + "\n" for line in lines)

    def __eq__(self, other):
        return isinstance(other, CheckpointState) and str(self) == str(other)


@tf_export("train.get_checkpoint_state")
def get_checkpoint_state(checkpoint_dir, latest_filename=None):
    """The directory's `checkpoint` file as a CheckpointState, or None if there is none.

    An unparsable file is warned about and ignored (None); a file without
    `model_checkpoint_path` raises ValueError, as TF.
    """
    state = checkpoint_state.read(str(checkpoint_dir), latest_filename, strict=True)
    if state is None:
        return None
    return CheckpointState(
        state["model_checkpoint_path"], state["all_model_checkpoint_paths"],
        state["all_model_checkpoint_timestamps"], state.get("last_preserved_timestamp", 0.0))


def _wait_for_new_checkpoint(checkpoint_dir, last_checkpoint, seconds_to_sleep, timeout):
    stop_time = time.time() + timeout if timeout is not None else None
    while True:
        path = checkpoint_state.latest_checkpoint(checkpoint_dir)
        if path is not None and path != last_checkpoint:
            return path
        if stop_time is not None and time.time() + seconds_to_sleep > stop_time:
            return None
        time.sleep(seconds_to_sleep)


@tf_export("train.checkpoints_iterator")
def checkpoints_iterator(checkpoint_dir, min_interval_secs=0, timeout=None, timeout_fn=None):
    """Yield each new latest checkpoint of `checkpoint_dir`, polling once a second.

    At most one checkpoint per `min_interval_secs`; after `timeout` seconds with
    nothing new, stop - unless `timeout_fn()` says more will come (returns False).
    Checkpoints written while the caller is busy can be skipped: only the latest counts.
    """
    checkpoint_path = None
    while True:
        new_path = _wait_for_new_checkpoint(checkpoint_dir, checkpoint_path, 1, timeout)
        if new_path:
            start = time.time()
            checkpoint_path = new_path
            yield checkpoint_path
            time_to_next = start + min_interval_secs - time.time()
            if time_to_next > 0:
                time.sleep(time_to_next)
        elif timeout_fn is None:
            return
        if timeout_fn is not None and timeout_fn():
            return
