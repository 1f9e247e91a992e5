"""`tf.data.experimental.SqlDataset`: the rows of an SQL query over an SQLite database.

Each row becomes one element: a tuple of scalars with the `output_types` you
give (one dtype: a single scalar). Values convert as SQLite's C API converts
them for TF (a text column read as an integer gives its leading number, or 0):

>>> import minitf as tf, os, sqlite3, tempfile
>>> path = os.path.join(tempfile.mkdtemp(), "people.db")
>>> db = sqlite3.connect(path)
>>> _ = db.execute("create table people (name text, age integer)")
>>> _ = db.executemany("insert into people values (?, ?)", [("ann", 30), ("bob", 25)])
>>> db.commit(); db.close()
>>> ds = tf.data.experimental.SqlDataset(
...     "sqlite", path, "select name, age from people", (tf.string, tf.int32))
>>> list(ds.as_numpy_iterator())
[(b'ann', np.int32(30)), (b'bob', np.int32(25))]

The database is opened read-only, when the dataset is iterated.
"""
import re
import sqlite3

import numpy as np

from ..framework import dtypes, errors
from ..framework.function import TensorSpec
from ..framework.tensor import EagerTensor
from ..framework.tf_export import tf_export
from .dataset_ops import Dataset
from .structure import flatten, pack

_SUPPORTED = {"string", "int8", "int16", "int32", "int64", "uint8", "uint16", "bool", "float64"}
_LEADING_NUMBER = re.compile(r"\s*[-+]?(\d+\.?\d*([eE][-+]?\d+)?|\.\d+([eE][-+]?\d+)?)")


def _number(value):
    if value is None:
        return 0
    if isinstance(value, (int, float)):
        return value
    text = value.decode(errors="replace") if isinstance(value, bytes) else str(value)
    match = _LEADING_NUMBER.match(text)
    return float(match.group(0)) if match else 0


def _converted(value, dtype):
    if dtype is dtypes.string:
        if value is None:
            return np.array(b"", dtype=object)
        raw = value if isinstance(value, bytes) else str(value).encode()
        return np.array(raw, dtype=object)
    number = _number(value)
    if dtype is dtypes.bool:
        return np.array(int(number) != 0)
    if dtype.is_integer:
        return np.array(int(number)).astype(dtype._np)
    return np.array(float(number), dtype=dtype._np)


@tf_export("data.experimental.SqlDataset")
class SqlDatasetV2(Dataset):
    """Rows of `query` on the SQLite file `data_source_name` (`driver_name="sqlite"`)."""

    def __init__(self, driver_name, data_source_name, query, output_types):
        if driver_name != "sqlite":
            raise errors.InvalidArgumentError(
                None, "SqlDataset", f"The database type, {driver_name}, is not supported by "
                "SqlDataset. The set of supported databases is: {'sqlite'}.")
        for t in flatten(output_types):
            if dtypes.as_dtype(t).name not in _SUPPORTED:
                raise errors.InvalidArgumentError(
                    None, "SqlDataset", "Each element of `output_types_` must be one of: "
                    "DT_STRING, DT_INT8, DT_INT16, DT_INT32, DT_INT64, DT_UINT8, DT_UINT16, "
                    f"DT_BOOL, DT_DOUBLE (got {dtypes.as_dtype(t).name}).")
        self._source, self._query = str(data_source_name), str(query)
        self._types = output_types
        self._element_spec = pack(output_types, [TensorSpec([], dtypes.as_dtype(t))
                                                 for t in flatten(output_types)])

    def _generate(self):
        types = [s.dtype for s in flatten(self._element_spec)]
        try:
            db = sqlite3.connect(f"file:{self._source}?mode=ro", uri=True)
        except sqlite3.Error as exc:
            raise errors.UnknownError(None, "IteratorGetNext", f"Failed to open "
                                      f"{self._source}: {exc}") from None
        try:
            try:
                cursor = db.execute(self._query)
            except sqlite3.Error as exc:
                code = getattr(exc, "sqlite_errorcode", 1)
                raise errors.UnknownError(None, "IteratorGetNext", f"Prepare() failed: [{code}] "
                                          f"{exc}: {self._query}") from None
            if len(cursor.description) != len(types):
                raise errors.InvalidArgumentError(
                    None, "IteratorGetNext", f"The number of columns in query "
                    f"({len(cursor.description)}) must match the number of elements in "
                    f"output_types ({len(types)}).")
            for row in cursor:
                yield pack(self._element_spec, [EagerTensor(_converted(v, t), t)
                                                for v, t in zip(row, types)])
        finally:
            db.close()


del tf_export
