"""`tf.data.experimental.make_csv_dataset`: batches of (features dict, label) from CSV files.

The pipeline it builds is TensorFlow's: parse the records of each file
(skipping the header) into tuples of scalars, interleave the files, shuffle,
repeat `num_epochs` times, batch, turn each batch into an `OrderedDict` of
columns (and the label), prefetch. Column types are inferred from the first
rows (int32, int64, float32, else string) unless you pass `column_defaults`.

A row that does not parse raises TF's error, naming the file and the line:

>>> import os, tempfile
>>> import minitf as tf
>>> path = os.path.join(tempfile.mkdtemp(), "bad.csv")
>>> _ = open(path, "w").write("a,b\\n1,2\\n3,x\\n")
>>> ds = tf.data.experimental.make_csv_dataset(path, 1, column_defaults=[0, 0],
...                                            shuffle=False, num_epochs=1)
>>> try:
...     list(ds)
... except tf.errors.InvalidArgumentError as e:
...     print(e.message.split(" [Op")[0], "|", e.message.split("/")[-1][:21])
Field 1 in record is not a valid int32: x | bad.csv line 3: '3,x'
"""
import collections
import glob
import re

from ..framework import errors
from ..framework.function import TensorSpec
from ..framework.tensor import EagerTensor
from ..framework.tf_export import tf_export
from ..ops.io_ops import decode_csv
from .dataset_ops import AUTOTUNE, Dataset
from .graph_inputs import eager
from .readers import _default_for, _file_names, _first_rows, _infer_type, read_lines

_CHUNK = 256  # lines parsed by one decode_csv call


class _CsvDataset(Dataset):
    """The records of one CSV file as tuples of scalars (TF's `CsvDataset`)."""

    def __init__(self, filename, defaults, header, field_delim, use_quote_delim, na_value,
                 select_cols, ignore_errors):
        self._filename = filename
        self._defaults = defaults
        self._options = dict(field_delim=field_delim, use_quote_delim=use_quote_delim,
                             na_value=na_value, select_cols=select_cols)
        self._header = header
        self._ignore_errors = ignore_errors
        self._element_spec = tuple(TensorSpec([], d.dtype) for d in defaults)

    def _generate(self):
        name = eager(self._filename).numpy().decode()
        chunk = []
        for number, line in enumerate(read_lines(name), start=1):
            if number == 1 and self._header:
                continue
            chunk.append((number, line))
            if len(chunk) == _CHUNK:
                yield from self._parse(name, chunk)
                chunk = []
        yield from self._parse(name, chunk)

    def _parse(self, name, chunk):
        if not chunk:
            return
        try:
            columns = [c.numpy() for c in self._decode([line for _, line in chunk])]
        except errors.InvalidArgumentError:
            for number, line in chunk:  # find the bad line(s): parse them one at a time
                try:
                    values = self._decode([line])
                except errors.InvalidArgumentError as exc:
                    if self._ignore_errors:
                        continue
                    raise _row_error(exc, name, number, line) from None
                yield tuple(EagerTensor(v.numpy()[0, ...], v.dtype) for v in values)
            return
        dtypes_ = [d.dtype for d in self._defaults]
        for row in range(len(chunk)):
            yield tuple(EagerTensor(c[row, ...], t) for c, t in zip(columns, dtypes_))

    def _decode(self, lines):
        return decode_csv(lines, self._defaults, **self._options)


def _row_error(exc, name, number, line):
    """TF's text for a bad record ("Field 1 in record is not a valid int32: x"), plus
    where it is: the file and its line number."""
    message = re.sub(r" in record \d+", " in record", exc.message)
    message = message.replace("[Op:DecodeCSV]", f"[Op:IteratorGetNext] In file {name} line "
                              f"{number}: {line.decode(errors='replace')!r}.")
    return errors.InvalidArgumentError(None, "IteratorGetNext", message)


def _files(file_pattern):
    names = sorted({m for p in _file_names(file_pattern) for m in glob.glob(p)})
    if not names:
        raise ValueError(f"No files match `file_pattern` {file_pattern}. Check the path "
                         "and the glob pattern.")
    return names


def _columns(files, column_names, header, field_delim, rows):
    if column_names is None:
        if not header:
            raise ValueError("Expected `column_names` or `header=True` to infer column names.")
        column_names = rows[0] if rows else []
    return list(column_names)


def _selected(column_names, select_columns):
    if select_columns is None:
        return list(range(len(column_names)))
    indices = []
    for c in select_columns:
        if isinstance(c, int):
            indices.append(c)
        elif c in column_names:
            indices.append(column_names.index(c))
        else:
            raise ValueError(f"Value '{c}' in `select_columns` was not found in "
                             f"`column_names`: {column_names}.")
    return sorted(indices)  # TF keeps the file's column order


def _defaults(column_defaults, selected, rows, header):
    if column_defaults is not None:
        if len(column_defaults) != len(selected):
            raise ValueError("The number of `column_defaults` must match the number of "
                             f"selected columns ({len(selected)}), got {len(column_defaults)}.")
        return [_default_for(d) for d in column_defaults]
    data = rows[1:] if header else rows
    defaults = []
    for i in selected:
        kind = _infer_type([r[i] for r in data if i < len(r)])
        defaults.append(_default_for(b"" if kind.name == "string" else 0, kind))
    return defaults


@tf_export("data.experimental.make_csv_dataset")
def make_csv_dataset(file_pattern, batch_size, column_names=None, column_defaults=None,
                     label_name=None, select_columns=None, field_delim=",",
                     use_quote_delim=True, na_value="", header=True, num_epochs=None,
                     shuffle=True, shuffle_buffer_size=10000, shuffle_seed=None,
                     prefetch_buffer_size=None, num_parallel_reads=None, sloppy=False,
                     num_rows_for_inference=100, compression_type=None, ignore_errors=False,
                     encoding="utf-8"):
    """Read CSV files into batches of `(OrderedDict of columns, label)`.

    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "t.csv")
    >>> _ = open(path, "w").write("a,b\\n1,x\\n2,y\\n")
    >>> ds = tf.data.experimental.make_csv_dataset(path, 2, shuffle=False, num_epochs=1)
    >>> ds.element_spec["b"]
    TensorSpec(shape=(None,), dtype=tf.string, name=None)
    """
    files = _files(file_pattern)
    rows = _first_rows(files[0], field_delim, num_rows_for_inference + 1)
    names = _columns(files, column_names, header, field_delim, rows)
    selected = _selected(names, select_columns)
    defaults = _defaults(column_defaults, selected, rows, header)
    keys = [names[i] for i in selected]
    if label_name is not None and label_name not in keys:
        raise ValueError(f"`label_name` provided must be one of the columns: {keys}. "
                         f"Received: {label_name!r}")

    select_cols = None if select_columns is None else selected
    n_reads = 1 if num_parallel_reads in (None, 0) else num_parallel_reads

    def read_file(filename):
        return _CsvDataset(filename, defaults, header, field_delim, use_quote_delim, na_value,
                           select_cols, ignore_errors)

    def to_dict(*columns):
        features = collections.OrderedDict(zip(keys, columns))
        if label_name is None:
            return features
        label = features.pop(label_name)
        return features, label

    records = Dataset.from_tensor_slices(files).interleave(
        read_file, cycle_length=n_reads if n_reads != AUTOTUNE else len(files),
        num_parallel_calls=None if n_reads == 1 else n_reads,
        deterministic=not sloppy)
    if shuffle:
        records = records.shuffle(shuffle_buffer_size, seed=shuffle_seed)
    records = records.repeat(num_epochs).batch(batch_size).map(to_dict)
    return records.prefetch(AUTOTUNE if prefetch_buffer_size is None else prefetch_buffer_size)
