"""The `checkpoint` file: which checkpoints of a directory exist, and the latest.

It is TF's own text format (a `CheckpointState` protobuf in text form), so
`tf.train.latest_checkpoint` also reads the file a real TF run wrote:

>>> import os, tempfile
>>> d = tempfile.mkdtemp()
>>> update(d, os.path.join(d, "ckpt-2"), [os.path.join(d, "ckpt-1"), os.path.join(d, "ckpt-2")],
...        timestamps=[1.5, 2.5], last_preserved_timestamp=1.0)
>>> print(open(os.path.join(d, "checkpoint")).read(), end="")
model_checkpoint_path: "ckpt-2"
all_model_checkpoint_paths: "ckpt-1"
all_model_checkpoint_paths: "ckpt-2"
all_model_checkpoint_timestamps: 1.5
all_model_checkpoint_timestamps: 2.5
last_preserved_timestamp: 1.0
>>> read(d)["model_checkpoint_path"] == os.path.join(d, "ckpt-2")
True

Paths inside the directory are written relative to it (TF's
`save_relative_paths=True`) and made absolute again when read.
"""
import os
import re
import warnings

from ..framework.tf_export import tf_export
from .checkpoint_file import INDEX_SUFFIX, atomic_write_bytes

MAX_STATE_BYTES = 1 << 20
_LINE = re.compile(r'^\s*(\w+)\s*:\s*(?:"((?:[^"\\]|\\.)*)"|([-+0-9.eEinfa]+))\s*$')
_REPEATED = ("all_model_checkpoint_paths", "all_model_checkpoint_timestamps")


def _quote(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _relative(directory, path):
    if os.path.dirname(os.path.abspath(path)) == os.path.abspath(directory):
        return os.path.basename(path)
    return path


def update(directory, model_checkpoint_path, all_model_checkpoint_paths, timestamps=None,
           last_preserved_timestamp=None, latest_filename=None):
    """Write the directory's `checkpoint` file atomically (paths relative to it)."""
    lines = [f"model_checkpoint_path: {_quote(_relative(directory, model_checkpoint_path))}"]
    lines += [f"all_model_checkpoint_paths: {_quote(_relative(directory, p))}"
              for p in all_model_checkpoint_paths]
    lines += [f"all_model_checkpoint_timestamps: {float(t)!r}" for t in timestamps or []]
    if last_preserved_timestamp is not None:
        lines.append(f"last_preserved_timestamp: {float(last_preserved_timestamp)!r}")
    text = ("\n".join(lines) + "\n").encode()
    path = os.path.join(directory or ".", latest_filename or "checkpoint")
    atomic_write_bytes(path, lambda f: f.write(text))


def read(directory, latest_filename=None, strict=False):
    """The parsed `checkpoint` file ({field: value or [values]}), or None if absent/unreadable.

    An unreadable file is warned about and ignored, as TF does. `strict`: a file
    without model_checkpoint_path raises TF's ValueError (get_checkpoint_state).
    """
    path = os.path.join(directory, latest_filename or "checkpoint")
    if not os.path.isfile(path):
        return None
    if os.path.getsize(path) > MAX_STATE_BYTES:
        warnings.warn(f"{path}: the checkpoint state file is larger than "
                      f"{MAX_STATE_BYTES} bytes; ignored.")
        return None
    state = {"all_model_checkpoint_paths": [], "all_model_checkpoint_timestamps": []}
    with open(path, "rb") as f:
        raw = f.read(MAX_STATE_BYTES + 1)
    try:
        for line in raw.decode("utf-8").splitlines():
            if not line.strip():
                continue
            match = _LINE.match(line)
            if match is None:
                raise ValueError(f"cannot parse line {line!r}")
            field, text, number = match.groups()
            value = _unquote(text) if text is not None else float(number)
            if field in _REPEATED:
                state[field].append(value)
            else:
                state[field] = value
    except ValueError as e:  # UnicodeDecodeError is a ValueError
        warnings.warn(f"{path}: {e}; Checkpoint ignored")
        return None
    if not state.get("model_checkpoint_path") and strict:
        raise ValueError(f"Invalid checkpoint state loaded from {directory}")
    if not isinstance(state.get("model_checkpoint_path"), str):
        warnings.warn(f"{path}: no model_checkpoint_path; Checkpoint ignored")
        return None
    absolute = lambda p: p if os.path.isabs(p) else os.path.join(directory, p)  # noqa: E731
    state["model_checkpoint_path"] = absolute(state["model_checkpoint_path"])
    state["all_model_checkpoint_paths"] = [absolute(p) for p in
                                           state["all_model_checkpoint_paths"]
                                           if isinstance(p, str)]
    return state


def _unquote(text):
    return re.sub(r"\\(.)", r"\1", text)


@tf_export("train.latest_checkpoint")
def latest_checkpoint(checkpoint_dir, latest_filename=None):
    """The prefix of the newest checkpoint in `checkpoint_dir`, or None.

    Reads the directory's `checkpoint` file (minitf's or real TF's) and
    returns its `model_checkpoint_path` if that checkpoint's index exists.
    """
    state = read(os.fspath(checkpoint_dir), latest_filename)
    if state is None:
        return None
    path = state["model_checkpoint_path"]
    return path if os.path.exists(path + INDEX_SUFFIX) else None
