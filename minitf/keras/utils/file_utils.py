"""`tf.keras.utils.get_file`: fetch a file into Keras's cache folder once, check its hash.

minitf never opens network connections: the origin must be a local file
(`file:///path/to/file` or a plain path). The file is copied (atomically) to
`<cache_dir>/<cache_subdir>/<fname>`; a later call finds it there and, given
`file_hash`, checks it (sha256 or md5) and copies again if it does not match.

>>> import minitf as tf, os, tempfile
>>> src = os.path.join(tempfile.mkdtemp(), "data.csv")
>>> with open(src, "w") as f:
...     _ = f.write("x,y\\n1,2\\n")
>>> cache = tempfile.mkdtemp()
>>> path = tf.keras.utils.get_file(origin="file://" + src, cache_dir=cache)
Downloading data from file://...
>>> os.path.relpath(path, cache), open(path).read()
('datasets/data.csv', 'x,y\\n1,2\\n')

In TensorFlow this is `keras/src/utils/file_utils.py`, which downloads http(s)
origins (with a progress bar) and can extract archives; minitf does neither.
"""
import hashlib
import os
import shutil
import urllib.parse

from ...framework.atomic_file import atomic_write
from ...framework.tf_export import tf_export
from .io_utils import print_msg


def _hash(path, algorithm, chunk_size=65535):
    hasher = hashlib.md5() if algorithm == "md5" else hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(chunk_size), b""):
            hasher.update(chunk)
    return hasher.hexdigest()


def _algorithm(file_hash, hash_algorithm):
    if hash_algorithm in ("sha256", "md5"):
        return hash_algorithm
    return "sha256" if len(file_hash) == 64 else "md5"  # Keras's "auto"


def _local_source(origin):
    parts = urllib.parse.urlsplit(origin)
    if parts.scheme == "file":
        return urllib.parse.unquote(parts.path)
    if parts.scheme in ("", ) or (len(parts.scheme) == 1 and os.name == "nt"):
        return origin
    raise ValueError(f"minitf's get_file reads local files only (file:///... or a path); it "
                     f"does not download {origin!r}. Download the file yourself, then pass "
                     "origin='file://' + its path.")


@tf_export("keras.utils.get_file")
def get_file(fname=None, origin=None, untar=False, md5_hash=None, file_hash=None,
             cache_subdir="datasets", hash_algorithm="auto", extract=False,
             archive_format="auto", cache_dir=None, force_download=False):
    """The cached copy of `origin` (a local file), copied there first if needed."""
    if origin is None:
        raise ValueError('Please specify the "origin" argument (URL of the file to download).')
    if extract or untar:
        raise NotImplementedError("minitf's get_file does not extract archives; unpack the "
                                  "copy it returns with `tarfile`/`zipfile` (mind their "
                                  "`filter='data'` safety option).")
    source = _local_source(origin)
    if md5_hash is not None and file_hash is None:
        file_hash, hash_algorithm = md5_hash, "md5"
    datadir = os.path.join(os.path.expanduser(cache_dir or os.path.join("~", ".keras")),
                           cache_subdir)
    os.makedirs(datadir, exist_ok=True)
    fname = os.fspath(fname) if fname else os.path.basename(urllib.parse.urlsplit(origin).path)
    if not fname:
        raise ValueError("Can't parse the file name from the origin provided: "
                         f"'{origin}'.Please specify the `fname` argument.")
    if os.sep in fname:
        raise ValueError("Paths are no longer accepted as the `fname` argument. To specify the "
                         "file's parent directory, use the `cache_dir` argument. Received: "
                         f"fname={fname}")
    target = os.path.join(datadir, fname)
    copy = force_download or not os.path.exists(target)
    if not copy and file_hash is not None and \
            _hash(target, _algorithm(file_hash, hash_algorithm)) != file_hash:
        print_msg("A local file was found, but it seems to be incomplete or outdated because "
                  f"the {_algorithm(file_hash, hash_algorithm)} file hash does not match the "
                  f"original value of {file_hash} so we will re-download the data.")
        copy = True
    if copy:
        print_msg(f"Downloading data from {origin}")
        with atomic_write(target) as tmp:
            shutil.copyfile(source, tmp)
        if file_hash is not None:
            got = _hash(target, _algorithm(file_hash, hash_algorithm))
            if got != file_hash:
                os.remove(target)
                raise ValueError(f"Incomplete or corrupted file detected. The "
                                 f"{_algorithm(file_hash, hash_algorithm)} file hash does not "
                                 f"match the provided value of {file_hash}.")
    return target
