"""`tf.data.experimental.make_csv_dataset`: batches of (features dict, label) from CSV files.

The pipeline it builds is the one you would write by hand: read the lines of
each file (skipping the header), shuffle, repeat `num_epochs` times, batch,
parse each batch of lines with `tf.io.decode_csv`, prefetch. Column types are
inferred from the first rows (int32, int64, float32, else string) unless you
pass `column_defaults`.
"""
import collections
import glob

from ..framework import errors
from ..framework.tf_export import tf_export
from ..ops.io_ops import decode_csv
from .dataset_ops import AUTOTUNE, Dataset
from .readers import TextLineDatasetV2, _default_for, _file_names, _first_rows, _infer_type


def _files(file_pattern):
    names = sorted({m for p in _file_names(file_pattern) for m in glob.glob(p)})
    if not names:
        raise errors.InvalidArgumentError(
            None, "make_csv_dataset", f"No files match `file_pattern` {file_pattern}. "
            "Check the path and the glob pattern.")
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

    def parse(lines):
        values = decode_csv(lines, defaults, field_delim=field_delim,
                            use_quote_delim=use_quote_delim, na_value=na_value,
                            select_cols=None if select_columns is None else selected)
        features = collections.OrderedDict(zip(keys, values))
        if label_name is None:
            return features
        label = features.pop(label_name)
        return features, label

    lines = Dataset.from_tensor_slices(files).interleave(
        lambda f: TextLineDatasetV2(f).skip(1 if header else 0),
        cycle_length=num_parallel_reads or 1, block_length=1)
    if shuffle:
        lines = lines.shuffle(shuffle_buffer_size, seed=shuffle_seed)
    lines = lines.repeat(num_epochs).batch(batch_size).map(parse)
    return lines.prefetch(AUTOTUNE if prefetch_buffer_size is None else prefetch_buffer_size)
