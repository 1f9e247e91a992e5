"""`tf.io.gfile.GFile`: a file object for local paths, with TensorFlow's modes and errors.

* "r" / "rb": read text (str) / bytes, from the file on disk as you go;
* "w" / "wb": write a new file (replacing one already there);
* "a" / "ab": write after the file's content;
* "r+", "w+", "a+" (with or without "b"): read and write.

Positions (`seek`, `tell`, `size`, `read(n)`) count bytes in every mode; in a
text mode what is read is decoded as UTF-8. `write` takes str or bytes in
either mode. The file is opened on first use (as in TF, a missing file is
reported by the first read, not by `GFile(...)`).

A file opened for writing keeps its content in memory and writes it with
`atomic_write` on `flush()` and `close()`: the path holds the old bytes or the
new ones, never a half-written file - so a large file is best written with
`tf.io.TFRecordWriter` or in parts.

>>> import os, tempfile
>>> import minitf as tf
>>> path = os.path.join(tempfile.mkdtemp(), "a.txt")
>>> with tf.io.gfile.GFile(path, "w") as f:
...     f.write("hello\\nworld")
>>> f = tf.io.gfile.GFile(path)
>>> f.seek(6); f.read(3), f.tell(), f.size()
('wor', 9, 11)
>>> list(tf.io.gfile.GFile(path, "rb"))
[b'hello\\n', b'world']
"""
import io
import os
import re

from ..framework import errors
from ..framework.atomic_file import atomic_write

_MODES = ("r", "w", "a", "r+", "w+", "a+")
_SCHEME = re.compile(r"^([A-Za-z][A-Za-z0-9+.-]*)://")


def local_path(path):
    """The local path of `path`, or TF's UnimplementedError for another URL scheme."""
    text = os.fsdecode(os.fspath(path))
    match = _SCHEME.match(text)
    if match is None:
        return text
    scheme = match.group(1)
    if scheme == "file":
        return text[len("file://"):]
    raise errors.UnimplementedError(
        None, None, f"File system scheme '{scheme}' not implemented (file: '{text}'). minitf "
        "reads and writes local files only: copy the data to a local path first (for "
        "example with gsutil or the AWS CLI), then give that path.")


class GFile:
    """A file at `name` opened in `mode` (see the module docstring). Use it in a `with`
    block, or call `close()` to make sure written bytes reach the disk."""

    def __init__(self, name, mode="r"):
        plain = mode.replace("b", "")
        if plain not in _MODES:
            raise errors.InvalidArgumentError(
                None, None, "mode is not 'r' or 'w' or 'a' or 'r+' or 'w+' or 'a+'")
        self._name, self._mode = name, mode
        self._path = local_path(name)
        self._binary = "b" in mode
        self._readable = plain in ("r", "r+", "w+", "a+")
        self._writable = plain != "r"
        self._append = plain.startswith("a")
        self._file = None  # opened on first use
        self._dirty = False

    @property
    def name(self):
        """The path the file was opened with."""
        return self._name

    @property
    def mode(self):
        """The mode the file was opened with."""
        return self._mode

    def __repr__(self):
        return f"<tf.io.gfile.GFile name={self._name!r} mode={self._mode!r}>"

    # --- opening -----------------------------------------------------------------------
    def _open(self):
        if self._file is not None:
            return self._file
        plain = self._mode.replace("b", "")
        if plain == "r":
            try:
                self._file = open(self._path, "rb")
            except FileNotFoundError:
                raise errors.NotFoundError(
                    None, None, f"{self._name}; No such file or directory") from None
            except IsADirectoryError:
                raise errors.FailedPreconditionError(
                    None, None, f"{self._name}; Is a directory") from None
            return self._file
        old = b""
        if plain in ("a", "a+", "r+") and os.path.exists(self._path):
            with open(self._path, "rb") as f:
                old = f.read()
        elif plain == "r+":
            raise errors.NotFoundError(None, None, f"{self._name}; No such file or directory")
        self._file = io.BytesIO(old)
        self._dirty = plain.startswith("w")  # "w" makes the file even if nothing is written
        if self._append:
            self._file.seek(0, io.SEEK_END)
        return self._file

    def _check(self, readable):
        if readable and not self._readable:
            raise errors.PermissionDeniedError(None, None, "File isn't open for reading")
        if not readable and not self._writable:
            raise errors.PermissionDeniedError(None, None, "File isn't open for writing")
        return self._open()

    def _text(self, data):
        return data if self._binary else data.decode("utf-8")

    # --- reading -----------------------------------------------------------------------
    def read(self, n=-1):
        """Read `n` bytes (all that is left when n is -1): str in text modes, bytes in "b"."""
        return self._text(self._check(True).read(None if n is None or n < 0 else n))

    def readline(self):
        """The next line, with its newline ('' / b'' at the end of the file)."""
        return self._text(self._check(True).readline())

    def readlines(self):
        """All the remaining lines, each with its newline."""
        return [self._text(line) for line in self._check(True).readlines()]

    def __iter__(self):
        return self

    def __next__(self):
        line = self.readline()
        if not line:
            raise StopIteration
        return line

    next = __next__

    # --- writing -----------------------------------------------------------------------
    def write(self, file_content):
        """Write str (as UTF-8) or bytes at the current position (at the end in "a" modes)."""
        f = self._check(False)
        if self._append:
            f.seek(0, io.SEEK_END)
        data = file_content.encode("utf-8") if isinstance(file_content, str) else bytes(
            file_content)
        f.write(data)
        self._dirty = True

    def flush(self):
        """Write what was written so far to the file (atomically)."""
        if self._file is not None and self._writable and self._dirty:
            with atomic_write(self._path) as tmp:
                with open(tmp, "wb") as out:
                    out.write(self._file.getvalue())
            self._dirty = False

    def close(self):
        """Flush and close the file; reading again opens it afresh."""
        if self._file is not None:
            self.flush()
            self._file.close()
            self._file = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    # --- positions ---------------------------------------------------------------------
    def seek(self, offset=None, whence=0, position=None):
        """Move to byte `offset` from the start (whence=0), the current position (1) or
        the end (2). `position` is TF's deprecated name for `offset`."""
        if position is not None:
            offset = position
        self._open().seek(0 if offset is None else offset, whence)

    def tell(self):
        """The current position, in bytes from the start."""
        return self._open().tell()

    def seekable(self):
        """Always True."""
        return True

    def size(self):
        """The file's length in bytes."""
        if self._file is not None and self._writable:
            return len(self._file.getvalue())
        try:
            return os.path.getsize(self._path)
        except FileNotFoundError:
            raise errors.NotFoundError(
                None, None, f"{self._name}; No such file or directory") from None


class FileStatistics:
    """What `stat` returns: `length` (bytes), `mtime_nsec` (last change, ns since
    1970) and `is_directory`."""

    def __init__(self, length, mtime_nsec, is_directory):
        self.length, self.mtime_nsec, self.is_directory = length, mtime_nsec, is_directory

    def __repr__(self):
        return (f"FileStatistics(length={self.length}, mtime_nsec={self.mtime_nsec}, "
                f"is_directory={self.is_directory})")
