"""`tf.keras.utils.get_file`: fetch a file into Keras's cache folder once, check its hash.

As in Keras 3, the file goes to `<cache_dir>/<cache_subdir>/<fname>` (cache_dir
defaults to `$KERAS_HOME`, else `~/.keras`); a later call finds it there and,
given `file_hash`, checks it (sha256 or md5) and fetches again if it does not
match. The origin is an http(s)/ftp URL (downloaded with `urllib`), a
`file://` URL or a plain path (copied). The bytes land in a temporary file
that replaces the target only when complete, so an interrupted download never
leaves half a file in the cache. With `extract=True` a tar or zip archive is
unpacked next to it (Keras's folder names), refusing members that would land
outside the folder.

>>> import minitf as tf, os, tempfile
>>> src = os.path.join(tempfile.mkdtemp(), "data.csv")
>>> with open(src, "w") as f:
...     _ = f.write("x,y\\n1,2\\n")
>>> cache = tempfile.mkdtemp()
>>> path = tf.keras.utils.get_file(origin="file://" + src, cache_dir=cache)
Downloading data from file://...
>>> os.path.relpath(path, cache), open(path).read()
('datasets/data.csv', 'x,y\\n1,2\\n')

Keras draws a progress bar while downloading; minitf prints the same first
line and no bar.
"""
import hashlib
import os
import shutil
import tarfile
import tempfile
import urllib.error
import urllib.parse
import urllib.request
import warnings
import zipfile

from ...framework.atomic_file import atomic_write
from ...framework.tf_export import tf_export
from .io_utils import print_msg

_NETWORK_SCHEMES = ("http", "https", "ftp")


def keras_home():
    """Keras's folder: `$KERAS_HOME`, else `~/.keras` (`/tmp/.keras` if home is read-only)."""
    if "KERAS_HOME" in os.environ:
        return os.environ["KERAS_HOME"]
    base = os.path.expanduser("~")
    return os.path.join(base if os.access(base, os.W_OK) else "/tmp", ".keras")


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


def _fetch(origin, target):
    """Copy or download `origin` into `target`, atomically; Keras's error on a failed fetch."""
    parts = urllib.parse.urlsplit(origin)
    with atomic_write(target) as tmp:
        if parts.scheme in _NETWORK_SCHEMES:
            try:
                with urllib.request.urlopen(origin) as response, open(tmp, "wb") as out:
                    shutil.copyfileobj(response, out, 1 << 20)
            except urllib.error.HTTPError as e:
                raise Exception(f"URL fetch failure on {origin}: {e.code} -- {e.msg}") from e
            except urllib.error.URLError as e:
                raise Exception(
                    f"URL fetch failure on {origin}: {e.errno} -- {e.reason}. Without a "
                    f"network, download the file elsewhere and put it at {target}.") from e
        else:
            source = urllib.parse.unquote(parts.path) if parts.scheme == "file" else origin
            shutil.copyfile(source, tmp)


def _safe_members(archive, folder):
    """The archive's members that stay inside `folder` (no absolute paths, `..` or links out)."""
    folder = os.path.realpath(folder)
    if isinstance(archive, zipfile.ZipFile):
        members = [(info, info.filename, True) for info in archive.infolist()]
    else:  # links and devices are skipped: a link could point outside the folder
        members = [(info, info.name, info.isfile() or info.isdir())
                   for info in archive.getmembers()]
    for info, name, plain in members:
        path = os.path.realpath(os.path.join(folder, name))
        if plain and os.path.commonpath([path, folder]) == folder:
            yield info
        else:
            warnings.warn(f"Skipping invalid path during archive extraction: '{name}'.",
                          stacklevel=4)


def _extract(archive_path, folder, archive_format):
    """Unpack a tar or zip archive into `folder` (replacing it); False if it is neither."""
    formats = ["tar", "zip"] if archive_format == "auto" else (
        [archive_format] if isinstance(archive_format, str) else list(archive_format or []))
    for name in formats:
        opener, is_match = {"tar": (tarfile.open, tarfile.is_tarfile),
                            "zip": (zipfile.ZipFile, zipfile.is_zipfile)}[name]
        if is_match(archive_path):
            parent = os.path.dirname(os.path.abspath(folder))
            staging = tempfile.mkdtemp(prefix=".extracting.", dir=parent)
            try:
                with opener(archive_path) as archive:
                    archive.extractall(staging, members=list(_safe_members(archive, staging)))
                if os.path.exists(folder):
                    shutil.rmtree(folder)
                os.replace(staging, folder)
            finally:
                shutil.rmtree(staging, ignore_errors=True)
            return True
    return False


def _targets(fname, origin, datadir, extract):
    """(download target, extraction folder or None), named as Keras 3 names them."""
    provided = bool(fname)
    fname = os.fspath(fname) if fname else os.path.basename(urllib.parse.urlsplit(origin).path)
    if not fname:
        raise ValueError("Can't parse the file name from the origin provided: "
                         f"'{origin}'.Please specify the `fname` argument.")
    if os.sep in fname:
        raise ValueError("Paths are no longer accepted as the `fname` argument. To specify the "
                         "file's parent directory, use the `cache_dir` argument. Received: "
                         f"fname={fname}")
    if not extract:
        return os.path.join(datadir, fname), None
    if provided and "." in fname:
        stem = fname[:fname.find(".")]
        return os.path.join(datadir, fname), os.path.join(datadir, f"{stem}_extracted")
    return os.path.join(datadir, f"{fname}_archive"), os.path.join(datadir, fname)


@tf_export("keras.utils.get_file")
def get_file(fname=None, origin=None, untar=False, md5_hash=None, file_hash=None,
             cache_subdir="datasets", hash_algorithm="auto", extract=False,
             archive_format="auto", cache_dir=None, force_download=False):
    """The cached copy of `origin`, fetched first if needed (the folder it unpacks to, with
    `extract=True`)."""
    if origin is None:
        raise ValueError('Please specify the "origin" argument (URL of the file to download).')
    if md5_hash is not None and file_hash is None:
        file_hash, hash_algorithm = md5_hash, "md5"
    base = os.path.expanduser(os.fspath(cache_dir) if cache_dir is not None else keras_home())
    if not os.access(base, os.W_OK) and os.path.exists(base):
        base = os.path.join(tempfile.gettempdir(), ".keras")
    datadir = os.path.join(base, cache_subdir)
    os.makedirs(datadir, exist_ok=True)
    target, folder = _targets(fname, origin, datadir, extract or untar)
    fetch = force_download or not os.path.exists(target)
    if not fetch and file_hash is not None and \
            _hash(target, _algorithm(file_hash, hash_algorithm)) != file_hash:
        print_msg("A local file was found, but it seems to be incomplete or outdated because "
                  f"the {hash_algorithm} file hash does not match the original value of "
                  f"{file_hash} so we will re-download the data.")
        fetch = True
    if fetch:
        print_msg(f"Downloading data from {origin}")
        _fetch(origin, target)
        if file_hash is not None and _hash(target, _algorithm(file_hash, hash_algorithm)) \
                != file_hash:
            os.remove(target)
            raise ValueError(f"Incomplete or corrupted file detected. The {hash_algorithm} "
                             f"file hash does not match the provided value of {file_hash}.")
    if folder is None:
        return target
    if fetch or not os.path.isdir(folder):
        if not _extract(target, folder, "tar" if untar else archive_format):
            warnings.warn("Could not extract archive.", stacklevel=2)
    return folder
