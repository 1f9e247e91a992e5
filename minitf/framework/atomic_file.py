"""Write a file so that readers see the old file or the new one, never half of either
(Keras files, `tf.train` checkpoints and their `checkpoint` state file all use it).

The bytes go to a temporary file in the target's directory (same filesystem),
which is flushed to disk and then `os.replace`d onto the target in one step.
If anything fails on the way, the temporary file is removed and the old
target is untouched.

>>> import os, tempfile
>>> path = os.path.join(tempfile.mkdtemp(), "notes.txt")
>>> with atomic_write(path) as tmp:
...     with open(tmp, "w") as f:
...         _ = f.write("hello")
>>> open(path).read(), os.listdir(os.path.dirname(path))
('hello', ['notes.txt'])
"""
import contextlib
import os
import tempfile


@contextlib.contextmanager
def atomic_write(path):
    """Yield a temporary path next to `path`; on success it replaces `path`."""
    path = os.fspath(path)
    folder = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(prefix="." + os.path.basename(path) + ".", suffix=".tmp",
                               dir=folder)
    os.close(fd)
    try:
        yield tmp
        with open(tmp, "rb+") as f:
            os.fsync(f.fileno())
        os.replace(tmp, path)
    finally:
        if os.path.exists(tmp):
            os.remove(tmp)
