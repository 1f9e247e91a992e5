"""Datasets that read files: `TextLineDataset`, `Dataset.list_files`, `make_csv_dataset`.

>>> import os, tempfile
>>> import minitf as tf
>>> folder = tempfile.mkdtemp()
>>> path = os.path.join(folder, "pets.csv")
>>> _ = open(path, "w").write("name,legs,weight\\ncat,4,4.5\\nbird,2,0.1\\nfish,0,\\n")
>>> ds = tf.data.experimental.make_csv_dataset(path, batch_size=2, label_name="legs",
...                                            shuffle=False, num_epochs=1)
>>> features, labels = next(iter(ds))
>>> list(features), labels.numpy()
(['name', 'weight'], array([4, 2], dtype=int32))

Files are opened when you iterate, not when the dataset is made, so a
missing file raises `tf.errors.NotFoundError` at the first element, as in TF.
"""
import csv
import glob
import os

import numpy as np

from ..framework import dtypes, errors
from ..framework.function import TensorSpec
from ..framework.tensor import EagerTensor, Tensor, convert_to_tensor
from ..framework.tf_export import tf_export
from .dataset_ops import AUTOTUNE, Dataset
from .graph_inputs import value_of
from .sources import static_int
from .structure import is_dataset


def _file_names(filenames):
    """Python strings from a str, a list, a string tensor or a dataset of names."""
    if is_dataset(filenames):
        return [t.numpy().decode() for t in filenames]
    if isinstance(filenames, Tensor):  # eager, or symbolic and bound (graph_inputs.py)
        return [s.decode() for s in np.asarray(value_of(filenames), dtype=object).reshape(-1)]
    if isinstance(filenames, (str, bytes, os.PathLike)):
        filenames = [filenames]
    return [os.fsdecode(f) if not isinstance(f, Tensor) else value_of(f)[()].decode()
            for f in filenames]


def read_lines(filename, op="IteratorGetNext"):
    """The lines of a file as bytes, without their line endings (\\n or \\r\\n)."""
    try:
        with open(filename, "rb") as f:
            for line in f:
                if line.endswith(b"\n"):
                    line = line[:-2] if line.endswith(b"\r\n") else line[:-1]
                yield line
    except FileNotFoundError:
        raise errors.NotFoundError(None, op, f"{filename}; No such file or directory "
                                   f"[Op:{op}] Check the path (relative paths start at the "
                                   "current working directory).") from None


def _string(value):
    out = np.empty((), dtype=object)
    out[()] = value
    return EagerTensor(out, dtypes.string)


def read_files(names, num_parallel_reads, read_one, one_file_dataset):
    """Every file's items as string tensors: file after file (`read_one(name)` yields one
    file's items), or, with num_parallel_reads > 1 (`AUTOTUNE`: all files), that many
    files read at once by interleaving `one_file_dataset(name)`s, as TF's readers do."""
    if num_parallel_reads not in (None, 0, 1):
        n = len(names) if num_parallel_reads == AUTOTUNE else num_parallel_reads
        files = Dataset.from_tensor_slices(names)
        yield from files.interleave(one_file_dataset, cycle_length=max(1, n),
                                    num_parallel_calls=max(1, n))._iterate()
        return
    for name in names:
        for item in read_one(name):
            yield _string(item)


@tf_export("data.TextLineDataset")
class TextLineDatasetV2(Dataset):
    """One string element per line of one or more text files.

    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "poem.txt")
    >>> _ = open(path, "w").write("roses\\nviolets\\n")
    >>> list(tf.data.TextLineDataset(path).as_numpy_iterator())
    [b'roses', b'violets']
    """

    def __init__(self, filenames, compression_type=None, buffer_size=None,
                 num_parallel_reads=None, name=None):
        if compression_type not in (None, ""):
            raise ValueError("minitf's TextLineDataset reads uncompressed files only "
                             f"(compression_type={compression_type!r}).")
        self._filenames = filenames
        self._parallel = None if num_parallel_reads is None else static_int(num_parallel_reads)
        self._element_spec = TensorSpec([], dtypes.string)

    def _generate(self):
        yield from read_files(_file_names(self._filenames), self._parallel, read_lines,
                          TextLineDatasetV2)


def list_files(file_pattern, shuffle=None, seed=None):
    """`Dataset.list_files`: the sorted names matching the pattern(s), shuffled by default."""
    patterns = _file_names(file_pattern)
    matches = sorted({m for p in patterns for m in glob.glob(p)})
    if not matches:
        raise errors.InvalidArgumentError(
            None, "Assert", "Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be true. "
            f"Summarized data: b'No files matched pattern: {', '.join(patterns)}'")
    dataset = Dataset.from_tensor_slices(matches)
    if shuffle is None or shuffle:
        dataset = dataset.shuffle(len(matches), seed=seed)
    return dataset


def _infer_type(values):
    """TF's make_csv_dataset inference: int32, then int64, float32, else string."""
    values = [v for v in values if v != ""]
    for kind, check in ((dtypes.int32, lambda v: -2**31 <= int(v) < 2**31),
                        (dtypes.int64, lambda v: int(v) is not None),
                        (dtypes.float32, lambda v: float(v) is not None)):
        try:
            if all(check(v) for v in values):
                return kind
        except ValueError:
            continue
    return dtypes.string


def _default_for(value, dtype=None):
    if isinstance(value, dtypes.DType):
        return convert_to_tensor(np.zeros((0,), value.as_numpy_dtype if value is not
                                          dtypes.string else object), dtype=value)
    if dtype is not None:
        return convert_to_tensor([value], dtype=dtype)
    return convert_to_tensor(value if isinstance(value, (list, Tensor)) else [value])


def _first_rows(filename, delim, count):
    with open(filename, newline="") as f:
        return [row for _, row in zip(range(count), csv.reader(f, delimiter=delim))]
