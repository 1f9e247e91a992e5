"""Files and CSV text: `tf.io.read_file`, `tf.io.write_file`, `tf.io.decode_csv`.

Strings in minitf are `tf.string` tensors holding bytes (see framework/tensor.py):

>>> import minitf as tf
>>> a, b, c = tf.io.decode_csv(["1,x,2.5", "2,,"], record_defaults=[[0], ["?"], [0.0]])
>>> a.numpy(), b.numpy(), c.numpy()
(array([1, 2], dtype=int32), array([b'x', b'?'], dtype=object), array([2.5, 0. ], dtype=float32))

`decode_csv` is an op like any other, so it can run inside `Dataset.map`,
traced once. Empty fields (or fields equal to `na_value`) take the column's
default; a column whose default is empty (`tf.constant([], tf.int32)`) is
required.
"""
import csv

import numpy as np

from ..framework import dtypes, errors
from ..framework.op import Op, apply
from ..framework.tensor import EagerTensor, convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export


def _read(filename):
    name = filename[()] if isinstance(filename, np.ndarray) else filename
    name = name.decode() if isinstance(name, bytes) else str(name)
    try:
        with open(name, "rb") as f:
            data = f.read()
    except FileNotFoundError:
        raise errors.NotFoundError(None, "ReadFile", f"{name}; No such file or directory "
                                   "[Op:ReadFile] Check the path (relative paths start at "
                                   "the current working directory).") from None
    out = np.empty((), dtype=object)
    out[()] = data
    return out


ReadFile = Op("ReadFile", _read, dtypes={dtypes.string}, shape=lambda s: TensorShape([]),
              stateful=True)


@tf_export("io.read_file")
def read_file(filename, name=None):
    """The whole contents of a file as a scalar `tf.string` (bytes).

    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "hello.txt")
    >>> _ = open(path, "w").write("hi!")
    >>> tf.io.read_file(path)
    <tf.Tensor: shape=(), dtype=string, numpy=b'hi!'>
    """
    return apply(ReadFile, [convert_to_tensor(filename, dtype=dtypes.string)])


def _write(filename, contents):
    with open(filename[()].decode(), "wb") as f:
        f.write(contents[()])
    return np.zeros((0,), dtype=np.int32)


WriteFile = Op("WriteFile", _write, dtypes={dtypes.string},
               shape=lambda a, b: TensorShape([0]), dtype=dtypes.int32, stateful=True)


@tf_export("io.write_file")
def write_file(filename, contents, name=None):
    """Write a scalar string tensor to a file (creating or replacing it).

    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "out.txt")
    >>> _ = tf.io.write_file(path, "abc")
    >>> open(path).read()
    'abc'
    """
    apply(WriteFile, [convert_to_tensor(filename, dtype=dtypes.string),
                      convert_to_tensor(contents, dtype=dtypes.string)])


# --- CSV ---------------------------------------------------------------------------------
_CSV_TYPES = (dtypes.float32, dtypes.float64, dtypes.int32, dtypes.int64, dtypes.string)


def _parse(field, dtype, column, record):
    if dtype is dtypes.string:
        return field.encode()
    try:
        return int(field) if dtype.is_integer else float(field)
    except ValueError:
        raise errors.InvalidArgumentError(
            None, "DecodeCSV", f"Field {column} in record {record} is not a valid "
            f"{dtypes.tf_type_name(dtype)}: {field} [Op:DecodeCSV] Fix that row, or give the "
            "column a string default and convert it yourself.") from None


def _fields(text, delim, use_quote_delim):
    rows = list(csv.reader([text], delimiter=delim,
                           quoting=csv.QUOTE_MINIMAL if use_quote_delim else csv.QUOTE_NONE))
    return rows[0] if rows else []


def _decode_csv(records, *defaults, field_delim, use_quote_delim, na_value, select_cols):
    types = [dtypes.from_numpy(d.dtype) for d in defaults]
    columns = [np.empty(records.shape, dtype=t._np) for t in types]
    wanted = select_cols if select_cols is not None else list(range(len(defaults)))
    for r, record in enumerate(records.flat):
        fields = _fields(record.decode(), field_delim, use_quote_delim)
        expected = len(defaults) if select_cols is None else max(select_cols) + 1
        if len(fields) != len(defaults) and select_cols is None or len(fields) < expected:
            raise errors.InvalidArgumentError(
                None, "DecodeCSV", f"Expect {expected} fields but have {len(fields)} in "
                f"record {r} [Op:DecodeCSV] Each line needs one field per record_defaults "
                "entry, separated by field_delim.")
        for out, (i, column) in enumerate(zip(wanted, columns)):
            field = fields[i]
            if field == "" or field == na_value:
                if defaults[out].size == 0:
                    raise errors.InvalidArgumentError(
                        None, "DecodeCSV", f"Field {out} is required but missing in record "
                        f"{r}! [Op:DecodeCSV] Give the column a default value to allow "
                        "empty fields.")
                value = defaults[out].reshape(-1)[0]
            else:
                value = _parse(field, types[out], out, r)
            column.flat[r] = value
    return tuple(columns)


def _check_defaults(defaults):
    tensors = []
    for d in defaults:
        if isinstance(d, dtypes.DType):
            raise ValueError(f"Attempt to convert a value ({d!r}) with an unsupported type "
                             f"({type(d)}) to a Tensor. record_defaults holds values such as "
                             "[0], [0.0] or [''] (or an empty tensor for a required column).")
        t = d if isinstance(d, EagerTensor) or hasattr(d, "graph") else convert_to_tensor(d)
        if t.dtype not in _CSV_TYPES:
            raise errors.InvalidArgumentError(
                None, "DecodeCSV", f"Value for attr 'OUT_TYPE' of {t.dtype.name} is not in "
                "the list of allowed values: float, double, int32, int64, string")
        tensors.append(t)
    return tensors


DecodeCSV = Op("DecodeCSV", _decode_csv, typed=(), num_outputs=None,
               shape=lambda records, *defaults, **_: tuple(records for _ in defaults),
               dtype=lambda records, *defaults, **_: tuple(defaults))


@tf_export("io.decode_csv")
def decode_csv(records, record_defaults, field_delim=",", use_quote_delim=True, name=None,
               na_value="", select_cols=None):
    """Parse CSV lines into one tensor per column (shaped like `records`).

    `record_defaults` gives each column's dtype and default: `[0]` (int32),
    `[0.0]` (float32), `[""]` (string), or an empty tensor for a required column.

    >>> tf.io.decode_csv("7;a", record_defaults=[[0], [""]], field_delim=";")
    [<tf.Tensor: shape=(), dtype=int32, numpy=7>, <tf.Tensor: shape=(), dtype=string, numpy=b'a'>]
    """
    defaults = _check_defaults(record_defaults)
    if select_cols is not None:
        select_cols = [int(c) for c in select_cols]
        if any(b <= a for a, b in zip(select_cols, select_cols[1:])):
            raise ValueError("select_cols is not strictly increasing.")
        if len(select_cols) != len(defaults):
            raise ValueError("Length of select_cols and record_defaults do not match.")
    records = convert_to_tensor(records, dtype=dtypes.string)
    outputs = apply(DecodeCSV, [records] + defaults,
                    {"field_delim": field_delim, "use_quote_delim": bool(use_quote_delim),
                     "na_value": na_value, "select_cols": select_cols})
    return list(outputs)
