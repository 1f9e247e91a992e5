"""A checkpoint on disk: `prefix.index` (JSON) + `prefix.data-00000-of-00001` (`.npz`).

The layout is TensorFlow's - a prefix, an index naming every tensor, a data
shard holding the numbers - but the bytes are minitf's own: TF writes a
protobuf object graph into an SSTable index and raw tensor bytes into the
shard; minitf writes JSON and a NumPy `.npz` read with `allow_pickle=False`.
So real TF cannot read a minitf checkpoint nor minitf a TF one; what is the
same is the file names, the checkpoint keys and the object graph.
A string tensor (a lookup table's `table-keys`) is stored as two arrays, its
bytes joined (uint8) and each string's length (int64), since an `.npz` read
without pickle holds no Python objects.

>>> import os, tempfile, numpy as np
>>> prefix = os.path.join(tempfile.mkdtemp(), "ckpt")
>>> write(prefix, {"v/.ATTRIBUTES/VARIABLE_VALUE": np.ones(2, np.float32)}, {"nodes": []})
>>> sorted(os.listdir(os.path.dirname(prefix)))
['ckpt.data-00000-of-00001', 'ckpt.index']
>>> CheckpointFile(prefix).tensor("v/.ATTRIBUTES/VARIABLE_VALUE")
array([1., 1.], dtype=float32)

Safety: the index is checked (size, format tag, version, fields) before it is
trusted; the data file's size and SHA-256 must match what the index says
(a truncated or bit-flipped shard is a `DataLossError`, never wrong numbers);
each array's stored header must declare exactly the dtype and shape the
index lists before anything is allocated. Writing is atomic: data first,
then the index, each to a temporary name in the same directory and
`os.replace`d, so an index only ever names complete data.
"""
import hashlib
import json
import os
import zipfile

import numpy as np

from ..framework import errors
from ..framework.atomic_file import atomic_write
from .object_graph import OBJECT_GRAPH_KEY

FORMAT = "minitf-checkpoint"
VERSION = 1
DATA_SUFFIX = ".data-00000-of-00001"
INDEX_SUFFIX = ".index"
_SSTABLE_MAGIC = bytes.fromhex("57fb808b247547db")  # the last 8 bytes of TF's .index
MAX_INDEX_BYTES = 64 << 20  # an index is names and shapes: far below this
_DTYPES = frozenset(("bool", "float16", "float32", "float64", "int8", "int16", "int32",
                     "int64", "uint8", "uint16", "uint32", "uint64", "complex64", "complex128"))


def _data_loss(path, problem):
    return errors.DataLossError(
        None, None, f"Checkpoint file {path} is corrupt: {problem}. It was damaged or not "
        "completely written; restore from another checkpoint (e.g. the one before it).")


def _not_found(prefix):
    return errors.NotFoundError(
        None, None, f"Unsuccessful TensorSliceReader constructor: Failed to find any matching "
        f"files for {prefix}. A checkpoint is a prefix such as 'dir/ckpt-1' (files "
        f"'dir/ckpt-1.index' and 'dir/ckpt-1{DATA_SUFFIX}'); check the path and the '-N' "
        "suffix, or use tf.train.latest_checkpoint(dir).")


def atomic_write_bytes(path, writer):
    """Call `writer(file)` on a temporary file next to `path`, then move it into place."""
    with atomic_write(path) as tmp, open(tmp, "w+b") as f:  # (writers may read back)
        writer(f)


def write(prefix, tensors, object_graph):
    """Write `tensors` ({key: ndarray}) and the object graph under `prefix`, atomically."""
    prefix = os.fspath(prefix)
    os.makedirs(os.path.dirname(os.path.abspath(prefix)), exist_ok=True)
    members, entries = {}, {}
    for i, (key, value) in enumerate(tensors.items()):
        value = np.asarray(value)
        if value.dtype == object and all(isinstance(v, bytes) for v in value.reshape(-1)):
            members[f"t{i}"], members[f"t{i}_lengths"], entries[key] = _string_members(
                value, f"t{i}")
            continue
        if value.dtype.name not in _DTYPES:
            raise errors.InvalidArgumentError(
                None, None, f"Cannot save '{key}' of dtype {value.dtype}: checkpoints hold "
                "numeric and bool tensors.")
        members[f"t{i}"] = value
        entries[key] = {"member": f"t{i}", "dtype": value.dtype.name,
                        "shape": list(value.shape)}
    digest = hashlib.sha256()

    def write_data(f):
        np.savez(f, allow_pickle=False, **members)
        f.seek(0)
        for block in iter(lambda: f.read(1 << 20), b""):
            digest.update(block)

    atomic_write_bytes(prefix + DATA_SUFFIX, write_data)
    index = {"format": FORMAT, "version": VERSION,
             "data_file": os.path.basename(prefix) + DATA_SUFFIX,
             "data_size": os.path.getsize(prefix + DATA_SUFFIX),
             "data_sha256": digest.hexdigest(), "tensors": entries,
             "object_graph": object_graph}
    text = json.dumps(index, indent=1, sort_keys=True).encode()
    atomic_write_bytes(prefix + INDEX_SUFFIX, lambda f: f.write(text))


def _string_members(value, member):
    """A string tensor as two arrays: its bytes joined (uint8) and each string's length.
    (`.npz` with allow_pickle=False holds no Python objects.)"""
    flat = value.reshape(-1).tolist()
    lengths = np.array([len(v) for v in flat], dtype=np.int64).reshape(value.shape)
    data = np.frombuffer(b"".join(flat), dtype=np.uint8)
    entry = {"member": member, "dtype": "string", "shape": list(value.shape),
             "lengths_member": member + "_lengths", "bytes": int(data.size)}
    return data, lengths, entry


def _read_strings(zf, entry, path, key):
    """A string tensor back from its two arrays, each checked as any tensor is."""
    shape = entry["shape"]
    lengths = _read_member(zf, {"member": entry["lengths_member"], "dtype": "int64",
                                "shape": shape}, path, key)
    data = _read_member(zf, {"member": entry["member"], "dtype": "uint8",
                             "shape": [entry["bytes"]]}, path, key).tobytes()
    if lengths.size and (lengths.min() < 0 or int(lengths.sum()) != len(data)):
        raise _data_loss(path, f"the string lengths of '{key}' do not add up to its bytes")
    out = np.empty(lengths.size, dtype=object)
    ends = np.cumsum(lengths.reshape(-1))
    for i, (start, end) in enumerate(zip(np.concatenate([[0], ends[:-1]]), ends)):
        out[i] = data[int(start):int(end)]
    return out.reshape(shape)


class CheckpointFile:
    """The index of a checkpoint, checked, and its tensors on demand."""

    def __init__(self, prefix):
        prefix = os.fspath(prefix)
        self.prefix = prefix
        self.index_path = prefix + INDEX_SUFFIX
        self.data_path = prefix + DATA_SUFFIX
        if not os.path.isfile(self.index_path):
            raise _not_found(prefix)
        size = os.path.getsize(self.index_path)
        if size > MAX_INDEX_BYTES:
            raise _data_loss(self.index_path, f"the index is {size} bytes, more than the "
                             f"{MAX_INDEX_BYTES} an index can be")
        with open(self.index_path, "rb") as f:
            raw = f.read(MAX_INDEX_BYTES + 1)
        if raw.endswith(_SSTABLE_MAGIC):
            raise _data_loss(self.index_path, "this index is in TensorFlow's own format (an "
                             "SSTable of protobufs); minitf reads only the JSON + .npz "
                             "checkpoints minitf writes. Re-save the weights from TensorFlow "
                             "as a Keras file (model.save('m.keras')) to move them")
        try:
            index = json.loads(raw.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as e:
            raise _data_loss(self.index_path, f"the index is not valid JSON ({e})") from None
        self._check_index(index)
        self.index = index
        self.entries = index["tensors"]
        self.object_graph = index["object_graph"]
        self._verified = False

    def _check_index(self, index):
        path = self.index_path
        if not isinstance(index, dict) or index.get("format") != FORMAT:
            raise _data_loss(path, f"this is not a minitf checkpoint index (no format tag "
                             f"'{FORMAT}'; minitf cannot read TensorFlow's own checkpoints)")
        if index.get("version") != VERSION:
            raise _data_loss(path, f"unsupported index version {index.get('version')!r} "
                             f"(this minitf reads version {VERSION})")
        if not isinstance(index.get("data_size"), int) or not isinstance(
                index.get("data_sha256"), str) or not isinstance(index.get("tensors"), dict) \
                or not isinstance(index.get("object_graph"), dict) or not isinstance(
                index["object_graph"].get("nodes"), list):
            raise _data_loss(path, "the index lacks data_size, data_sha256, tensors or "
                             "object_graph")
        for key, entry in index["tensors"].items():
            strings = isinstance(entry, dict) and entry.get("dtype") == "string" and \
                isinstance(entry.get("lengths_member"), str) and \
                isinstance(entry.get("bytes"), int) and entry["bytes"] >= 0
            ok = (isinstance(entry, dict) and (entry.get("dtype") in _DTYPES or strings)
                  and isinstance(entry.get("member"), str)
                  and isinstance(entry.get("shape"), list)
                  and all(isinstance(d, int) and d >= 0 for d in entry["shape"]))
            if not ok:
                raise _data_loss(path, f"the entry for '{key}' is malformed: {entry!r}")
        _check_graph(path, index["object_graph"], index["tensors"])

    # --- TF's CheckpointReader questions -----------------------------------------------
    def keys(self):
        return [OBJECT_GRAPH_KEY] + list(self.entries)

    def shape(self, key):
        return [] if key == OBJECT_GRAPH_KEY else list(self.entries[key]["shape"])

    def dtype_name(self, key):
        return "string" if key == OBJECT_GRAPH_KEY else self.entries[key]["dtype"]

    def has(self, key):
        return key == OBJECT_GRAPH_KEY or key in self.entries

    def tensor(self, key):
        """The stored value of `key` (for the object graph: its JSON, as bytes)."""
        if key == OBJECT_GRAPH_KEY:
            return json.dumps(self.object_graph, sort_keys=True).encode()
        if key not in self.entries:
            raise errors.NotFoundError(
                None, None, f"Key {key} not found in checkpoint. tf.train.list_variables("
                f"'{self.prefix}') lists the keys it holds.")
        self._verify_data()
        entry = self.entries[key]
        with zipfile.ZipFile(self.data_path) as zf:
            if entry["dtype"] == "string":
                return _read_strings(zf, entry, self.data_path, key)
            return _read_member(zf, entry, self.data_path, key)

    def _verify_data(self):
        """Size, then SHA-256, of the data file against the index (once per reader)."""
        if self._verified:
            return
        path = self.data_path
        if not os.path.isfile(path):
            raise errors.NotFoundError(
                None, None, f"{path}; No such file or directory. The index {self.index_path} "
                "names a data file that is missing; copy both files of a checkpoint.")
        size, expected = os.path.getsize(path), self.index["data_size"]
        if size != expected:
            raise _data_loss(path, f"the data file has {size} bytes, the index expects "
                             f"{expected} (truncated, or index and data from different saves)")
        digest = hashlib.sha256()
        with open(path, "rb") as f:
            for block in iter(lambda: f.read(1 << 20), b""):
                digest.update(block)
        if digest.hexdigest() != self.index["data_sha256"]:
            raise _data_loss(path, "checksum does not match: the stored SHA-256 differs from "
                             "the one calculated on the data (bit flips, or index and data "
                             "from different saves)")
        self._verified = True


def _check_graph(path, graph, tensors):
    nodes = graph["nodes"]
    for i, node in enumerate(nodes):
        if not isinstance(node, dict) or not isinstance(node.get("children"), list) or \
                not isinstance(node.get("attributes"), list):
            raise _data_loss(path, f"object graph node {i} is malformed")
        for child in node["children"]:
            if not isinstance(child, dict) or not isinstance(child.get("local_name"), str) or \
                    not isinstance(child.get("node_id"), int) or \
                    not 0 <= child["node_id"] < len(nodes):
                raise _data_loss(path, f"object graph node {i} has a bad child {child!r}")
        for attribute in node["attributes"]:
            if not isinstance(attribute, dict) or attribute.get("checkpoint_key") not in tensors:
                raise _data_loss(path, f"object graph node {i} names a tensor the index does "
                                 f"not hold: {attribute!r}")


def _read_member(zf, entry, path, key):
    """One array, after its .npy header matches the index's dtype and shape."""
    name = entry["member"] + ".npy"
    try:
        info = zf.getinfo(name)
    except KeyError:
        raise _data_loss(path, f"the tensor '{key}' (member {name}) is missing") from None
    dtype, shape = np.dtype(entry["dtype"]), tuple(entry["shape"])
    nbytes = dtype.itemsize * int(np.prod(shape, dtype=np.int64))
    if info.file_size > nbytes + 65536:
        raise _data_loss(path, f"'{key}' holds {info.file_size} bytes, more than its shape "
                         f"{list(shape)} and dtype {dtype.name} allow")
    with zf.open(info) as f:
        try:
            version = np.lib.format.read_magic(f)
            read_header = (np.lib.format.read_array_header_1_0 if version == (1, 0) else
                           np.lib.format.read_array_header_2_0)
            header = read_header(f)
        except ValueError as e:
            raise _data_loss(path, f"'{key}' has a bad array header ({e})") from None
        stored_shape, fortran, stored_dtype = header
        if tuple(stored_shape) != shape or stored_dtype != dtype or fortran:
            raise _data_loss(path, f"'{key}' is stored as {stored_dtype} {list(stored_shape)} "
                             f"but the index declares {dtype.name} {list(shape)}")
        raw = f.read(nbytes + 1)
    if len(raw) != nbytes:
        raise _data_loss(path, f"'{key}' has {len(raw)} bytes of data, its shape needs "
                         f"{nbytes}")
    return np.frombuffer(raw, dtype=dtype).reshape(shape).copy()
