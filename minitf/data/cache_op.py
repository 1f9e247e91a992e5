"""`cache`: remember the elements after the first complete pass.

The first full iteration runs the pipeline above `cache()` and keeps every
element; later iterations read them back instead (the "cache after the
expensive, epoch-independent steps" rule). With a `filename` the elements go
to files `filename.index` and `filename.data-00000-of-00001` (the names TF
uses) when the first pass completes, and any later run that finds them reads
them - even if the pipeline above changed, exactly as in TensorFlow. A pass
stopped early caches nothing.

>>> import minitf as tf
>>> calls = []
>>> ds = tf.data.Dataset.range(3).map(
...     lambda x: tf.py_function(lambda v: calls.append(1) or v, [x], tf.int64)).cache()
>>> _ = list(ds); _ = list(ds)
>>> len(calls)        # the map ran in the first epoch only
3

minitf's files are NumPy `.npz` archives (read with `allow_pickle=False`, so
reading a cache never runs code) plus a small JSON index; TF's are its own
tensor-bundle format.
"""
import json
import os

import numpy as np

from ..framework import dtypes
from ..framework.tensor import EagerTensor
from .dataset_ops import Dataset
from .structure import flatten, pack

_FORMAT = "minitf-cache-1"


class CacheDataset(Dataset):  # TF's class has no leading underscore either
    """Elements kept in memory (`filename=""`) or in files after the first full pass."""

    def __init__(self, dataset, filename=""):
        self._input = dataset
        self._filename = os.fspath(filename) if filename else ""
        self._memory = None
        self._element_spec = dataset.element_spec

    def _cardinality(self):
        return self._input._cardinality()

    def _generate(self):
        cached = self._read()
        if cached is not None:
            yield from cached
            return
        collected = []
        for element in self._input._iterate():
            collected.append(element)
            yield element
        self._write(collected)  # reached only when the pass completed

    def _read(self):
        if not self._filename:
            return self._memory
        if os.path.exists(self._filename + ".index"):
            return load_elements(self._filename, self._element_spec)
        return None

    def _write(self, elements):
        if not self._filename:
            self._memory = elements
        else:
            save_elements(self._filename, elements)


def _encode_strings(array):
    items = [bytes(s) for s in array.flat]
    lengths = np.array([len(s) for s in items], dtype=np.int64)
    data = np.frombuffer(b"".join(items), dtype=np.uint8)
    return data, lengths


def _decode_strings(data, lengths, shape):
    raw = data.tobytes()
    ends = np.cumsum(lengths)
    out = np.empty(len(lengths), dtype=object)
    out[:] = [raw[e - n:e] for e, n in zip(ends.tolist(), lengths.tolist())]
    return out.reshape(shape)


def save_elements(filename, elements):
    """Write elements as `filename.data-00000-of-00001` (.npz) + `filename.index` (JSON)."""
    columns = list(zip(*[[t._value for t in flatten(e)] for e in elements])) if elements else []
    arrays, components = {}, []
    for i, column in enumerate(columns):
        shapes = [list(a.shape) for a in column]
        is_string = column[0].dtype == object
        stacked = all(s == shapes[0] for s in shapes)
        joined = np.stack(column) if stacked else np.concatenate([a.ravel() for a in column])
        if is_string:
            arrays[f"c{i}_data"], arrays[f"c{i}_lengths"] = _encode_strings(joined)
        else:
            arrays[f"c{i}"] = joined
        components.append({"dtype": dtypes.from_numpy(column[0].dtype).name,
                           "stacked": stacked, "shape": list(joined.shape),
                           "shapes": None if stacked else shapes})
    index = {"format": _FORMAT, "count": len(elements), "components": components}
    data_path = filename + ".data-00000-of-00001"
    with open(data_path + ".tmp", "wb") as f:
        np.savez(f, **arrays)
    os.replace(data_path + ".tmp", data_path)
    with open(filename + ".index", "w") as f:
        json.dump(index, f)


def load_elements(filename, element_spec):
    """Read back what `save_elements` wrote (no pickle: loading never runs code)."""
    with open(filename + ".index") as f:
        index = json.load(f)
    count = index["count"]
    with np.load(filename + ".data-00000-of-00001", allow_pickle=False) as archive:
        columns = [_read_column(archive, i, c, count) for i, c in enumerate(index["components"])]
    return [pack(element_spec, [EagerTensor(col[n]) for col in columns]) for n in range(count)]


def _read_column(archive, i, component, count):
    if component["dtype"] == "string":
        data, lengths = archive[f"c{i}_data"], archive[f"c{i}_lengths"]
        joined = _decode_strings(data, lengths, component["shape"])
    else:
        joined = archive[f"c{i}"]
    if component["stacked"]:
        return [joined[n, ...] for n in range(count)]
    out, start = [], 0
    for shape in component["shapes"]:
        size = int(np.prod(shape))
        out.append(joined[start:start + size].reshape(shape))
        start += size
    return out
