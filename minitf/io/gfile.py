"""`tf.io.gfile`: TensorFlow's file API - here, for local files only.

TensorFlow code reads and writes files through `tf.io.gfile` so the same line
works on a laptop and on cloud storage (`gs://`, `s3://`, ...). minitf has the
local file system only: a path is a local path (or `file://...`), and any
other scheme raises `tf.errors.UnimplementedError`, as TensorFlow does for a
scheme it has no file system for.

>>> import os, tempfile
>>> import minitf as tf
>>> folder = tempfile.mkdtemp()
>>> path = tf.io.gfile.join(folder, "notes", "a.txt")
>>> tf.io.gfile.makedirs(os.path.dirname(path))
>>> with tf.io.gfile.GFile(path, "w") as f:
...     f.write("hello\\nworld\\n")
>>> with tf.io.gfile.GFile(path) as f:
...     f.readlines()
['hello\\n', 'world\\n']
>>> [os.path.basename(p) for p in tf.io.gfile.glob(os.path.join(folder, "*", "*.txt"))]
['a.txt']
>>> tf.io.gfile.stat(path).length
12

Errors are TF's classes with TF's text: a missing file is `NotFoundError`, an
existing target of `copy`/`rename` without `overwrite=True` is
`AlreadyExistsError`, reading a file opened for writing is `PermissionDeniedError`.
A `GFile` opened for writing writes atomically: its bytes go to the file when it
is flushed or closed, replacing the old content in one step (minitf's rule for
every writer), never half-written.

In TensorFlow this is tensorflow/python/lib/io/file_io.py.
"""
import fnmatch
import glob as _glob
import os
import shutil

from ..framework import errors
from ..framework.atomic_file import atomic_write as _atomic_write
from ..framework.tf_export import tf_export
from .file_io import FileStatistics as _FileStatistics, GFile, local_path as _local_path

__all__ = ["GFile", "copy", "exists", "get_registered_schemes", "glob", "isdir", "join",
           "listdir", "makedirs", "mkdir", "remove", "rename", "rmtree", "stat", "walk"]

tf_export("io.gfile.GFile")(GFile)
_OP = "gfile"


def _not_found(path):
    return errors.NotFoundError(None, None, f"{path}; No such file or directory")


@tf_export("io.gfile.get_registered_schemes")
def get_registered_schemes():
    """The URL schemes paths may use: only the local file system ("file", and no scheme).

    >>> get_registered_schemes()
    ['file', '']
    """
    return ["file", ""]


@tf_export("io.gfile.exists")
def exists(path):
    """Whether a file or directory is at `path`."""
    return os.path.exists(_local_path(path))


@tf_export("io.gfile.isdir")
def isdir(path):
    """Whether `path` is a directory (False if nothing is there)."""
    return os.path.isdir(_local_path(path))


@tf_export("io.gfile.join")
def join(path, *paths):
    """Join path components with '/': `join("a", "b")` is 'a/b'; a component starting
    with '/' starts again from there, as `os.path.join` does.

    >>> join("logs", "run1", "events.out")
    'logs/run1/events.out'
    """
    return os.path.join(os.fspath(path), *(os.fspath(p) for p in paths))


@tf_export("io.gfile.listdir")
def listdir(path):
    """The names (not paths) of the entries of the directory `path`, in no set order."""
    local = _local_path(path)
    if not os.path.isdir(local):
        raise errors.NotFoundError(None, None, f"Could not find directory {os.fspath(path)}")
    return os.listdir(local)


@tf_export("io.gfile.mkdir")
def mkdir(path):
    """Make the directory `path` (its parent must exist; an existing directory is fine)."""
    local = _local_path(path)
    if os.path.isdir(local):
        return
    try:
        os.mkdir(local)
    except FileNotFoundError:
        raise _not_found(os.fspath(path)) from None
    except FileExistsError:
        raise errors.FailedPreconditionError(
            None, None, f"{os.fspath(path)} is not a directory") from None


@tf_export("io.gfile.makedirs")
def makedirs(path):
    """Make the directory `path` and any missing parents (an existing one is fine)."""
    local = _local_path(path)
    try:
        os.makedirs(local, exist_ok=True)
    except (FileExistsError, NotADirectoryError):
        raise errors.FailedPreconditionError(
            None, None, f"{os.fspath(path)} is not a directory") from None


@tf_export("io.gfile.remove")
def remove(path):
    """Delete the file `path` (a directory needs `rmtree`)."""
    local = _local_path(path)
    if os.path.isdir(local):
        raise errors.FailedPreconditionError(None, None, f"{os.fspath(path)}; Is a directory")
    try:
        os.remove(local)
    except FileNotFoundError:
        raise _not_found(os.fspath(path)) from None


@tf_export("io.gfile.rmtree")
def rmtree(path):
    """Delete the directory `path` with everything in it (a file is deleted too)."""
    local = _local_path(path)
    if os.path.isdir(local):
        shutil.rmtree(local)
    elif os.path.exists(local):
        os.remove(local)
    else:
        raise errors.NotFoundError(None, None, f"{os.fspath(path)} not found")


def _check_target(src, dst, overwrite):
    if not os.path.exists(_local_path(src)):
        raise _not_found(os.fspath(src))
    if not overwrite and os.path.exists(_local_path(dst)):
        raise errors.AlreadyExistsError(None, None, "file already exists")


@tf_export("io.gfile.copy")
def copy(src, dst, overwrite=False):
    """Copy the file `src` to `dst`; an existing `dst` needs `overwrite=True`."""
    _check_target(src, dst, overwrite)
    if os.path.isdir(_local_path(src)):
        raise errors.FailedPreconditionError(None, None, f"{os.fspath(src)}; Is a directory")
    with _atomic_write(_local_path(dst)) as tmp:
        shutil.copyfile(_local_path(src), tmp)


@tf_export("io.gfile.rename")
def rename(src, dst, overwrite=False):
    """Move `src` to `dst`; an existing `dst` needs `overwrite=True`."""
    _check_target(src, dst, overwrite)
    os.replace(_local_path(src), _local_path(dst))


@tf_export("io.gfile.stat")
def stat(path):
    """The `FileStatistics` of `path`: its length in bytes, time of change, and kind."""
    try:
        result = os.stat(_local_path(path))
    except FileNotFoundError:
        raise _not_found(os.fspath(path)) from None
    return _FileStatistics(result.st_size, result.st_mtime_ns, os.path.isdir(_local_path(path)))


@tf_export("io.gfile.glob")
def glob(pattern):
    """The paths matching a pattern (or any of a list of patterns): `*` and `?` within one
    path component, `[...]` for a set of characters. Hidden files match too, as in TF."""
    patterns = [pattern] if isinstance(pattern, (str, bytes, os.PathLike)) else list(pattern)
    found = set()
    for one in patterns:
        one = os.fspath(one)
        local = _local_path(one)
        prefix = one[:len(one) - len(local)]  # keep "file://" on the results
        found.update(prefix + p for p in _expand(local))
    return sorted(found)


def _expand(pattern):
    """The existing paths matching `pattern`, one component at a time (hidden names too)."""
    if not _glob.has_magic(pattern):
        return [pattern] if os.path.lexists(pattern) else []
    head, tail = os.path.split(pattern)
    heads = _expand(head) if _glob.has_magic(head) else [head]
    found = []
    for folder in heads:
        if not _glob.has_magic(tail):
            path = os.path.join(folder, tail)
            found += [path] if os.path.lexists(path) else []
            continue
        try:
            names = os.listdir(folder or os.curdir)
        except (FileNotFoundError, NotADirectoryError):
            continue
        found += [os.path.join(folder, n) for n in names if fnmatch.fnmatchcase(n, tail)]
    return found


@tf_export("io.gfile.walk")
def walk(top, topdown=True, onerror=None):
    """Yield `(directory, subdirectory names, file names)` for `top` and every directory
    below it - parents first, or last with `topdown=False`. A missing `top` yields nothing
    (or calls `onerror` with the NotFoundError)."""
    top = os.fspath(top)
    try:
        names = sorted(listdir(top))
    except errors.NotFoundError as e:
        if onerror is not None:
            onerror(e)
        return
    dirs = [n for n in names if isdir(join(top, n))]
    files = [n for n in names if n not in dirs]
    if topdown:
        yield top, dirs, files
    for name in dirs:
        yield from walk(join(top, name), topdown, onerror)
    if not topdown:
        yield top, dirs, files


del tf_export  # tf.io.gfile shows only TF's names
