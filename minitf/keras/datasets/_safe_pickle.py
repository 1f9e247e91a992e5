"""Reading the pickles inside Keras's dataset files without running code from them.

IMDB and Reuters come as `.npz` archives of *object* arrays (one Python list
of word indices per text), and CIFAR as Python pickles. A pickle may name any
importable function, and loading it calls that function - so a crafted file
could run code. `RestrictedUnpickler` (Keras 3 does the same) allows only the
globals that rebuild NumPy arrays; anything else is refused. Sizes are
bounded before anything is read.

>>> import io, pickle
>>> data = pickle.dumps({b"labels": [1, 2], b"data": np.zeros((2, 3), np.uint8)})
>>> sorted(RestrictedUnpickler(io.BytesIO(data), encoding="bytes").load())
[b'data', b'labels']
>>> RestrictedUnpickler(io.BytesIO(pickle.dumps(print))).load()
Traceback (most recent call last):
  ...
_pickle.UnpicklingError: Refusing to deserialize `builtins.print` while loading a Keras dataset. The file may be corrupted or malicious.
"""
import io
import pickle
import zipfile

import numpy as np

MAX_BYTES = 1 << 30  # no Keras dataset file member is larger than 1 GiB

_ALLOWED_GLOBALS = frozenset({
    ("numpy", "ndarray"), ("numpy", "dtype"),
    ("numpy.core.multiarray", "_reconstruct"), ("numpy._core.multiarray", "_reconstruct"),
})


class RestrictedUnpickler(pickle.Unpickler):
    """An unpickler that rebuilds NumPy arrays, lists, dicts and numbers, and nothing else."""

    def find_class(self, module, name):
        if (module, name) in _ALLOWED_GLOBALS:
            return super().find_class(module, name)
        raise pickle.UnpicklingError(
            f"Refusing to deserialize `{module}.{name}` while loading a Keras dataset. The "
            "file may be corrupted or malicious.")


def _check_size(size, what):
    if size > MAX_BYTES:
        raise ValueError(f"{what} declares {size} bytes, more than the {MAX_BYTES} a Keras "
                         "dataset file may hold; the file is not one of Keras's datasets.")


def load_pickle(path, encoding="bytes"):
    """The object a pickle file holds, rebuilt by `RestrictedUnpickler`."""
    with open(path, "rb") as f:
        f.seek(0, io.SEEK_END)
        _check_size(f.tell(), path)
        f.seek(0)
        return RestrictedUnpickler(f, encoding=encoding).load()


def _read_npy(stream):
    try:
        return np.lib.format.read_array(stream, allow_pickle=False)
    except ValueError:  # an object array: its data is a pickle
        stream.seek(0)
        version = np.lib.format.read_magic(stream)
        if version[0] == 1:
            np.lib.format.read_array_header_1_0(stream)
        elif version[0] in (2, 3):
            np.lib.format.read_array_header_2_0(stream)
        else:
            raise ValueError(f"Unsupported `.npy` file version: {version}.") from None
        return RestrictedUnpickler(stream).load()


def load_npz(path):
    """{name: array} of every `.npy` member of an `.npz` file, object arrays included."""
    arrays = {}
    with zipfile.ZipFile(path) as archive:
        for info in archive.infolist():
            if not info.filename.endswith(".npy"):
                continue
            _check_size(info.file_size, f"{path}: member {info.filename!r}")
            with archive.open(info) as raw:
                buffer = io.BytesIO(raw.read(info.file_size + 1))
            arrays[info.filename[:-len(".npy")]] = _read_npy(buffer)
    return arrays
