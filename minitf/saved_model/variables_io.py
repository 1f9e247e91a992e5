"""The `variables/` directory of a SavedModel: every variable's value, by key.

Two files, as in TensorFlow's layout: `variables.index` says, for each key
(`dense/w/.ATTRIBUTES/VARIABLE_VALUE`), the dtype, shape and where its bytes
are; `variables.data-00000-of-00001` holds the bytes, one array after the other
(little-endian, C order). The index is JSON and the data is raw bytes, so
reading them never runs code; every size is checked before anything is
allocated.

>>> import os, tempfile, numpy as np
>>> from minitf.saved_model import variables_io
>>> folder = tempfile.mkdtemp()
>>> variables_io.write(os.path.join(folder, "variables"), {"w": np.float32([1, 2])})
>>> variables_io.read(os.path.join(folder, "variables"))
{'w': array([1., 2.], dtype=float32)}

In TensorFlow these two files are a tensor bundle (a protobuf index and a
data file in TF's own encoding); minitf's bytes differ, its layout does not.
"""
import json
import os

import numpy as np

from ..framework import dtypes
from . import values

INDEX = ".index"
DATA = ".data-00000-of-00001"
MAX_INDEX_BYTES = 64 << 20


def write(prefix, arrays):
    """Write `arrays` ({key: ndarray}) to `prefix.index` and `prefix.data-00000-of-00001`.

    The caller writes into a fresh directory that is renamed into place as a
    whole (see `save.py`), so these two files need no rename of their own."""
    index, offset = {}, 0
    with open(prefix + DATA, "wb") as data:
        for key, array in arrays.items():
            array = np.asarray(array)
            if array.dtype == object:
                raise ValueError(f"Cannot save variable {key!r}: string variables are not "
                                 "supported by minitf's SavedModel.")
            name = dtypes.from_numpy(array.dtype).name
            raw = np.ascontiguousarray(array).astype(array.dtype.newbyteorder("<"),
                                                     copy=False).tobytes()
            data.write(raw)
            index[key] = {"dtype": name, "shape": list(array.shape), "offset": offset,
                          "size": len(raw)}
            offset += len(raw)
    with open(prefix + INDEX, "w", encoding="utf-8") as f:
        json.dump({"format": "minitf.variables", "version": 1, "tensors": index}, f)


def read(prefix):
    """{key: ndarray} from the files `write` made; ValueError naming a bad file."""
    index_file, data_file = prefix + INDEX, prefix + DATA
    for path in (index_file, data_file):
        if not os.path.isfile(path):
            raise ValueError(f"{path}: file is missing; the SavedModel's variables/ "
                             "directory is incomplete.")
    budget = values.Budget(index_file)
    if os.path.getsize(index_file) > MAX_INDEX_BYTES:
        raise budget.fail("the index is larger than the limit")
    try:
        with open(index_file, encoding="utf-8") as f:
            index = json.load(f)
    except (ValueError, UnicodeError):
        raise budget.fail("the index is not valid JSON") from None
    if not isinstance(index, dict) or index.get("format") != "minitf.variables" \
            or not isinstance(index.get("tensors"), dict):
        raise budget.fail("the index is not a minitf variables index")
    size = os.path.getsize(data_file)
    arrays = {}
    with open(data_file, "rb") as data:
        for key, entry in index["tensors"].items():
            arrays[key] = _read_one(data, key, entry, size, budget, data_file)
    return arrays


def _read_one(data, key, entry, size, budget, data_file):
    if not isinstance(entry, dict):
        raise budget.fail(f"entry {key!r} is not an object")
    dtype = values.decode_dtype(entry.get("dtype"), budget)
    if dtype is dtypes.string:
        raise budget.fail(f"entry {key!r} has dtype string")
    shape, count = values.element_count(entry.get("shape"), budget)
    np_dtype = np.dtype(dtype.as_numpy_dtype).newbyteorder("<")
    offset, nbytes = entry.get("offset"), entry.get("size")
    if nbytes != count * np_dtype.itemsize or not isinstance(offset, int) or offset < 0:
        raise budget.fail(f"entry {key!r} declares {nbytes} bytes for shape {list(shape)}")
    if offset + nbytes > size:
        raise ValueError(f"{data_file}: entry {key!r} needs bytes {offset}..{offset + nbytes} "
                         f"but the file has only {size}; it is truncated. Save the model again.")
    data.seek(offset)
    raw = data.read(nbytes)
    return np.frombuffer(raw, np_dtype).astype(np_dtype.newbyteorder("="),
                                                copy=True).reshape(shape)
