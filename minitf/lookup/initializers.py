"""Where a static table's entries come from: tensors, or the lines of a text file.

* `KeyValueTensorInitializer(keys, values)` - two tensors of pairs;
* `TextFileInitializer(filename, key_dtype, key_index, value_dtype, value_index)` -
  one entry per line of a file: the key and the value are each a column of the
  line split at `delimiter`, the whole line (`TextFileIndex.WHOLE_LINE`) or the
  line number (`TextFileIndex.LINE_NUMBER`).

>>> import os, tempfile
>>> import minitf as tf
>>> path = os.path.join(tempfile.mkdtemp(), "vocab.txt")
>>> _ = open(path, "w").write("cat\\ndog\\n")
>>> init = tf.lookup.TextFileInitializer(path, tf.string, tf.lookup.TextFileIndex.WHOLE_LINE,
...                                      tf.int64, tf.lookup.TextFileIndex.LINE_NUMBER)
>>> tf.lookup.StaticHashTable(init, -1).lookup(tf.constant(["dog", "cow"]))
<tf.Tensor: shape=(2,), dtype=int64, numpy=array([ 1, -1])>

An initializer only describes the entries; the table reads them when it is made
(`_pairs`, as TF runs `LookupTableImportV2` or `InitializeTableFromTextFileV2`).
Reading a file is bounded by the file itself: nothing in it is run or trusted
to size memory.
"""
import os

import numpy as np

from ..framework import dtypes, errors
from ..framework.tensor import convert_to_tensor
from ..framework.tf_export import tf_export
from .lookup_table import numpy_dtype


@tf_export("lookup.TextFileIndex")
class TextFileIndex:
    """The key or value a `TextFileInitializer` takes from each line, besides a column.

    `WHOLE_LINE` (-2): the whole line, a string; `LINE_NUMBER` (-1): the line's
    number from 0, an int64. A value >= 0 is a column of the line split at the
    delimiter.

    >>> TextFileIndex.WHOLE_LINE, TextFileIndex.LINE_NUMBER
    (-2, -1)
    """

    WHOLE_LINE = -2
    LINE_NUMBER = -1


class TableInitializerBase:
    """What a table reads at construction: `key_dtype`, `value_dtype` and `_pairs()`."""

    op_name = "LookupTableImportV2"

    @property
    def key_dtype(self):
        """The dtype of the keys this initializer gives."""
        return self._key_dtype

    @property
    def value_dtype(self):
        """The dtype of the values this initializer gives."""
        return self._value_dtype


def _concrete(tensor, what):
    if not hasattr(tensor, "_value"):
        raise TypeError(f"The {what} of a table initializer must be known when the table is "
                        "made (a tensor computed inside tf.function is not): build the table "
                        "outside the function, or from constants.")
    return np.asarray(tensor._value)


@tf_export("lookup.KeyValueTensorInitializer")
class KeyValueTensorInitializer(TableInitializerBase):
    """A table's entries from two tensors: `keys[i]` maps to `values[i]`.

    Python lists are converted as by `tf.constant` (`[1, 2]` is int32) unless
    `key_dtype` / `value_dtype` say otherwise.

    >>> import minitf as tf
    >>> init = tf.lookup.KeyValueTensorInitializer(["a", "b"], [1, 2])
    >>> init.key_dtype, init.value_dtype
    (tf.string, tf.int32)
    """

    def __init__(self, keys, values, key_dtype=None, value_dtype=None, name=None):
        self._keys = _converted(keys, key_dtype, "keys")
        self._values = _converted(values, value_dtype, "values")
        self._key_dtype, self._value_dtype = self._keys.dtype, self._values.dtype
        self._name = name

    def _pairs(self, value_shape=()):
        return _concrete(self._keys, "keys"), _concrete(self._values, "values")


def _converted(value, dtype, what):
    try:
        return convert_to_tensor(value, dtype=dtype)
    except ValueError as e:
        raise ValueError(f"{what}: {e}") from None


@tf_export("lookup.TextFileInitializer")
class TextFileInitializer(TableInitializerBase):
    """A table's entries from a text file, one per line (see the module docstring).

    `vocab_size`: read only that many lines (and fail if the file has fewer);
    `value_index_offset`: added to line numbers used as values.
    """

    op_name = "InitializeTableFromTextFileV2"

    def __init__(self, filename, key_dtype, key_index, value_dtype, value_index,
                 vocab_size=None, delimiter="\t", name=None, value_index_offset=0):
        if filename is None or (isinstance(filename, (str, bytes)) and not filename):
            raise ValueError("`filename` argument required for tf.lookup.TextFileInitializer")
        self._key_dtype = dtypes.as_dtype(key_dtype)
        self._value_dtype = dtypes.as_dtype(value_dtype)
        _check_index("key", key_index, self._key_dtype)
        _check_index("value", value_index, self._value_dtype)
        if vocab_size is not None and vocab_size <= 0:
            raise ValueError(f"`vocab_size` must be > 0, got {vocab_size}.")
        self._filename = os.fsdecode(filename.numpy() if hasattr(filename, "numpy")
                                     else filename)
        self._key_index, self._value_index = key_index, value_index
        self._vocab_size, self._delimiter = vocab_size, delimiter
        self._offset, self._name = value_index_offset, name

    def _pairs(self, value_shape=()):
        lines = self._lines()
        keys = [self._field(line, i, self._key_index, self._key_dtype, 0)
                for i, line in enumerate(lines)]
        values = [self._field(line, i, self._value_index, self._value_dtype, self._offset)
                  for i, line in enumerate(lines)]
        out_keys = np.empty([len(keys)], numpy_dtype(self._key_dtype))
        out_values = np.empty([len(values)], numpy_dtype(self._value_dtype))
        out_keys[:], out_values[:] = keys, values
        return out_keys, out_values

    def _lines(self):
        op = self.op_name
        try:
            with open(self._filename, "rb") as f:
                data = f.read()
        except FileNotFoundError:
            raise errors.op_error(errors.NotFoundError, op,
                                  f"{self._filename}; No such file or directory",
                                  "Check the vocabulary file's path.") from None
        lines = data.split(b"\n")
        if lines and lines[-1] == b"":
            lines.pop()  # the newline that ends the last line
        lines = [line[:-1] if line.endswith(b"\r") else line for line in lines]
        if self._vocab_size is not None:
            if len(lines) < self._vocab_size:
                raise errors.op_error(
                    errors.InvalidArgumentError, op,
                    f"Invalid vocab_size in {self._filename}: expected {self._vocab_size} but "
                    f"got {len(lines)}", "vocab_size may not exceed the file's line count.")
            lines = lines[:self._vocab_size]
        for i, line in enumerate(lines):
            if not line:
                raise errors.op_error(
                    errors.InvalidArgumentError, op,
                    f"Invalid content in {self._filename}: empty line found at position "
                    f"{sum(len(x) + 1 for x in lines[:i]) + 1}.",
                    "Every line of a vocabulary file must hold an entry.")
        return lines

    def _field(self, line, number, index, dtype, offset):
        if index == TextFileIndex.LINE_NUMBER:
            return number + offset
        text = line
        if index >= 0:
            columns = line.split(self._delimiter.encode())
            if index >= len(columns):
                raise errors.op_error(
                    errors.InvalidArgumentError, self.op_name,
                    f"Invalid number of columns in {self._filename} line {number} "
                    f"({line.decode(errors='replace')}) : expected at least {index + 1} got "
                    f"{len(columns)}", "Check the delimiter and the column indices.")
            text = columns[index]
        if dtype == dtypes.string:
            return text
        try:
            return float(text) if dtype.is_floating else int(text)
        except ValueError:
            raise errors.op_error(
                errors.InvalidArgumentError, self.op_name,
                f"Field {text.decode(errors='replace')} in line {number} is not a valid "
                f"{dtype.name}.", "The column holds text: read it as tf.string.") from None


def _check_index(what, index, dtype):
    if index < -2:
        raise ValueError(f"`{what}_index` should be >= -2, received: {index}.")
    if index == TextFileIndex.LINE_NUMBER and dtype != dtypes.int64:
        raise ValueError(f"`{what}_dtype` must be int64 if `{what}_index` is -1, received: "
                         f"{dtype}")
    if index == TextFileIndex.WHOLE_LINE and not (dtype == dtypes.string or dtype.is_integer):
        raise ValueError(f"`{what}_dtype` must be a string or an integer if `{what}_index` "
                         f"is -2, received: {dtype}")
