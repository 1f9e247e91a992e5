"""`Dataset.save`, `Dataset.load` and `snapshot`: a dataset's elements in a directory.

>>> import minitf as tf, tempfile, os
>>> path = os.path.join(tempfile.mkdtemp(), "saved")
>>> tf.data.Dataset.from_tensor_slices({"x": [1.5, 2.5], "name": ["a", "b"]}).save(path)
>>> loaded = tf.data.Dataset.load(path)
>>> loaded.element_spec["name"], int(loaded.cardinality())
(TensorSpec(shape=(), dtype=tf.string, name=None), 2)

The format is minitf's own, not TensorFlow's (TF writes snapshot protobufs and
TFRecord shards): `path/element_spec.json` describes the structure and
`path/shard_NNNNN.*` hold the elements in the NumPy files `cache` writes
(read with `allow_pickle=False`, so loading never runs code). The spec file is
written last, atomically, so a directory without it is an unfinished save.
`shard_func(element)` picks each element's shard (an int64); `load` reads the
shards in order. `compression` is checked but the files are not compressed.
"""
import json
import os

from ..framework import dtypes
from ..framework.atomic_file import atomic_write
from ..framework.function import TensorSpec
from ..framework.tf_export import tf_export
from .cache_op import load_elements, save_elements
from .dataset_ops import Dataset
from .structure import flatten

_FORMAT = "minitf-dataset-1"
_SPEC_FILE = "element_spec.json"
_COMPRESSIONS = (None, "", "NONE", "GZIP", "AUTO", "SNAPPY")


def _encode(spec):
    if isinstance(spec, dict):
        return {"dict": {k: _encode(v) for k, v in spec.items()}}
    if isinstance(spec, (tuple, list)):
        return {"tuple": [_encode(v) for v in spec]}
    if not isinstance(spec, TensorSpec):
        raise TypeError(f"Dataset.save can save tensors only; this dataset's elements hold "
                        f"{spec!r}.")
    return {"shape": None if spec.shape.rank is None else spec.shape.as_list(),
            "dtype": spec.dtype.name}


def _decode(data):
    if not isinstance(data, dict):
        raise ValueError(f"Not a minitf saved dataset spec: {data!r}")
    if "dict" in data:
        return {k: _decode(v) for k, v in data["dict"].items()}
    if "tuple" in data:
        return tuple(_decode(v) for v in data["tuple"])
    return TensorSpec(data["shape"], dtypes.as_dtype(data["dtype"]))


def _check_compression(compression):
    if compression not in _COMPRESSIONS:
        raise ValueError(f"Unsupported compression {compression!r}: use None or 'GZIP'.")


def save(dataset, path, compression=None, shard_func=None, checkpoint_args=None):
    """Write every element of `dataset` under the directory `path`."""
    _check_compression(compression)
    if checkpoint_args is not None:
        raise NotImplementedError("minitf's Dataset.save writes in one go; it cannot "
                                  "checkpoint a save in progress (`checkpoint_args`).")
    path = os.fspath(path)
    spec = _encode(dataset.element_spec)
    shards = {}
    if shard_func is not None:
        from .structured_function import StructuredFunction
        shard_func = StructuredFunction(shard_func, dataset.element_spec, "Dataset.save")
    for element in dataset._iterate():
        shard = 0 if shard_func is None else int(shard_func(element).numpy())
        shards.setdefault(shard, []).append(element)
    os.makedirs(path, exist_ok=True)
    for name in os.listdir(path):  # an earlier save's shards would be read back too
        if name.startswith("shard_"):
            os.remove(os.path.join(path, name))
    for shard, elements in sorted(shards.items()):
        save_elements(os.path.join(path, f"shard_{shard:05d}"), elements)
    info = {"format": _FORMAT, "element_spec": spec, "shards": sorted(shards),
            "cardinality": sum(len(e) for e in shards.values()), "compression": compression}
    with atomic_write(os.path.join(path, _SPEC_FILE)) as tmp:
        with open(tmp, "w") as f:
            json.dump(info, f)


def _read_info(path):
    spec_path = os.path.join(os.fspath(path), _SPEC_FILE)
    if not os.path.exists(spec_path):
        from ..framework import errors
        raise errors.NotFoundError(None, "LoadDataset", f"Could not find {spec_path}: "
                                   f"{path!r} is not a dataset written by Dataset.save (or the "
                                   "save did not finish).")
    if os.path.getsize(spec_path) > 1 << 20:
        raise ValueError(f"{spec_path} is too large to be a saved dataset's spec.")
    with open(spec_path) as f:
        info = json.load(f)
    if info.get("format") != _FORMAT:
        raise ValueError(f"{spec_path} is not in minitf's saved-dataset format.")
    return info


class _LoadDataset(Dataset):
    """The elements `save` wrote, shard after shard."""

    def __init__(self, path, element_spec):
        self._path = os.fspath(path)
        info = _read_info(path)
        saved = _decode(info["element_spec"])
        if element_spec is not None and not _fits(saved, element_spec):
            raise ValueError(f"The given `element_spec` {element_spec!r} does not match the "
                             f"saved one, {saved!r}.")
        self._shards = [int(s) for s in info["shards"]]
        self._count = int(info["cardinality"])
        self._element_spec = saved if element_spec is None else element_spec

    def _cardinality(self):
        return self._count

    def _generate(self):
        for shard in self._shards:
            yield from load_elements(os.path.join(self._path, f"shard_{shard:05d}"),
                                     self._element_spec)


def _fits(saved, given):
    from .structure import same_structure
    return same_structure(saved, given) and all(
        a.dtype is b.dtype and b.shape.is_compatible_with(a.shape)
        for a, b in zip(flatten(saved), flatten(given)))


def load(path, element_spec=None, compression=None, reader_func=None):
    _check_compression(compression)
    if reader_func is not None:
        raise NotImplementedError("minitf's Dataset.load reads the shards in order; a "
                                  "`reader_func` is not supported.")
    return _LoadDataset(path, element_spec)


@tf_export("data.experimental.save")
def experimental_save(dataset, path, compression=None, shard_func=None, checkpoint_args=None):
    """`dataset.save(path)` (see `tf.data.experimental.load`)."""
    save(dataset, path, compression, shard_func, checkpoint_args)


@tf_export("data.experimental.load")
def experimental_load(path, element_spec=None, compression=None, reader_func=None):
    """`tf.data.Dataset.load(path)`.

    >>> import tempfile
    >>> path = tempfile.mkdtemp()
    >>> tf.data.experimental.save(tf.data.Dataset.range(2), path)
    >>> list(tf.data.experimental.load(path).as_numpy_iterator())
    [np.int64(0), np.int64(1)]
    """
    return load(path, element_spec, compression, reader_func)


class _SnapshotDataset(Dataset):
    """The first complete pass is saved under `path`; later passes (and later runs)
    load it. TF keys snapshots by a fingerprint of the pipeline; minitf keeps one
    snapshot per directory, so give each pipeline a directory of its own."""

    def __init__(self, dataset, path, compression):
        _check_compression(compression)
        self._input, self._path = dataset, os.fspath(path)
        self._element_spec = dataset.element_spec

    def __repr__(self):  # TF builds snapshot from a map over its snapshot dataset
        return f"<_MapDataset element_spec={self.element_spec!r}>"

    def _cardinality(self):
        return self._input._cardinality()

    def _generate(self):
        if os.path.exists(os.path.join(self._path, _SPEC_FILE)):
            yield from _LoadDataset(self._path, self._element_spec)._iterate()
            return
        collected = []
        for element in self._input._iterate():
            collected.append(element)
            yield element
        save(_ElementList(self._element_spec, collected), self._path)


class _ElementList(Dataset):
    def __init__(self, element_spec, elements):
        self._element_spec, self._elements = element_spec, elements

    def _generate(self):
        yield from self._elements


@tf_export("data.experimental.snapshot")
def snapshot(path, compression="AUTO", reader_func=None, shard_func=None):
    """`Dataset.snapshot` as a transformation for `apply`.

    >>> import tempfile
    >>> ds = tf.data.Dataset.range(2).apply(tf.data.experimental.snapshot(tempfile.mkdtemp()))
    >>> list(ds.as_numpy_iterator())
    [np.int64(0), np.int64(1)]
    """
    return lambda dataset: dataset.snapshot(path, compression, reader_func, shard_func)


del tf_export
