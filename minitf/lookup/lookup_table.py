"""What every table shares: dtypes checked against TF's kernels, keys checked, `lookup`.

A table maps keys (strings or integers) to values. Its entries live in a plain
Python dict (`self._data`); the ops of table_ops.py read and change it. This
base class turns what the user passes in into tensors of the table's dtypes
with TF's errors, and looks up dense, sparse and ragged keys alike (a
`tf.SparseTensor` or `tf.RaggedTensor` keeps its structure; only its values
are looked up).

>>> import minitf as tf
>>> init = tf.lookup.KeyValueTensorInitializer(["cat", "dog"], [0, 1])
>>> table = tf.lookup.StaticHashTable(init, default_value=-1)
>>> table.lookup(tf.ragged.constant([["dog"], ["cat", "eel"]]))
<tf.RaggedTensor [[1], [0, -1]]>
"""
import numpy as np

from ..framework import dtypes, errors
from ..framework.tensor import Tensor, convert_to_tensor
from . import table_ops

_MISSING = object()

# The (key dtype, value dtype) pairs TF 2.21 has CPU kernels for, per table op.
_STATIC_KERNELS = {"string": ("string", "int64", "int32", "float", "double", "bool"),
                   "int64": ("string", "int64", "int32", "float", "double"),
                   "int32": ("string", "int32", "float", "double")}
_MUTABLE_KERNELS = {"string": ("int64", "int32", "float", "double", "bool"),
                    "int64": ("string", "int64", "int32", "float", "double"),
                    "int32": ("int32", "float", "double")}
_DENSE_KERNELS = {"string": ("int64", "int32", "float", "double", "bool"),
                  "int64": ("int64", "int32", "float", "double", "bool"),
                  "int32": ("int32", "float", "double")}
KERNELS = {"HashTableV2": _STATIC_KERNELS, "MutableHashTableV2": _MUTABLE_KERNELS,
           "MutableDenseHashTableV2": _DENSE_KERNELS}


def check_kernel(op_name, key_dtype, value_dtype):
    """TF's NotFoundError when no kernel of `op_name` takes these dtypes."""
    key, value = dtypes.tf_type_name(key_dtype), dtypes.tf_type_name(value_dtype)
    kernels = KERNELS[op_name]
    if value in kernels.get(key, ()):
        return
    listed = "\n".join(f"  device='CPU'; key_dtype in [DT_{k.upper()}]; value_dtype in "
                       f"[DT_{v.upper()}]" for k, values in kernels.items() for v in values)
    raise errors.op_error(
        errors.NotFoundError, op_name,
        f"Could not find device for node: {{{{node {op_name}}}}} = {op_name}[key_dtype="
        f"DT_{key.upper()}, value_dtype=DT_{value.upper()}]\nAll kernels registered for op "
        f"{op_name}:\n{listed}\n",
        f"A table of {key_dtype.name} keys and {value_dtype.name} values does not exist in "
        "TensorFlow: use one of the pairs above (cast float keys to strings or integers).")


def numpy_dtype(dtype):
    return np.dtype(object) if dtype == dtypes.string else np.dtype(dtype.as_numpy_dtype)


def python_key(key):
    """A dict key from one element of a NumPy key array (bytes, or a Python int)."""
    return key if isinstance(key, bytes) else int(key)


def shape_text(shape):
    return "[" + ",".join(str(d) for d in shape) + "]"


class LookupTable:
    """The common part of StaticHashTable, MutableHashTable and DenseHashTable.

    Subclasses set `_key_dtype`, `_value_dtype`, `_name`, `_default_value` (a tensor
    of the value dtype) and `_data` (a dict), and may override `_find`.
    """

    value_shape = ()  # the shape of one value (a MutableHashTable may hold vectors)

    @property
    def export_key_shape(self):
        return ()

    @property
    def export_value_shape(self):
        return self.value_shape

    @property
    def key_dtype(self):
        """The dtype of the keys."""
        return self._key_dtype

    @property
    def value_dtype(self):
        """The dtype of the values."""
        return self._value_dtype

    @property
    def name(self):
        """The name given, or None (as TF 2's eager tables answer for the default name)."""
        return self._name

    def __repr__(self):
        return (f"<{type(self).__name__} {self._key_dtype.name} -> {self._value_dtype.name}, "
                f"{self._count()} entries>")

    # --- the kernels (NumPy in, NumPy out; table_ops.py calls them) -----------------------
    def _count(self):
        return len(self._data)

    def _find(self, keys, default):
        shape = tuple(keys.shape) + tuple(self.value_shape)
        out = np.empty(shape, dtype=numpy_dtype(self._value_dtype))
        out[...] = default  # the table's default, or the per-key dynamic defaults
        flat = out.reshape((-1,) + tuple(self.value_shape))
        get = self._data.get
        for i, key in enumerate(keys.ravel().tolist()):
            value = get(key, _MISSING)
            if value is not _MISSING:
                flat[i] = value
        return out

    def _export(self):
        keys = np.empty([len(self._data)], dtype=numpy_dtype(self._key_dtype))
        keys[:] = list(self._data) if self._data else []
        values = np.empty((len(self._data),) + tuple(self.value_shape),
                          dtype=numpy_dtype(self._value_dtype))
        for i, value in enumerate(self._data.values()):
            values[i] = value
        return keys, values

    # --- what the user calls --------------------------------------------------------------
    def _key_tensor(self, keys, lookup_dtype=None):
        """`keys` as a tensor, or TF's TypeError if a tensor of another dtype was given.

        A Python list is converted with the key dtype (TF 2.21 fails on a list with an
        AttributeError that says nothing useful)."""
        want = lookup_dtype or self._key_dtype
        if not isinstance(keys, Tensor) and not hasattr(keys, "_is_variable"):
            keys = convert_to_tensor(keys, dtype=want)
        keys = convert_to_tensor(keys)
        if keys.dtype != want:
            raise TypeError(f"Dtype of argument `keys` must be {want}, received: {keys.dtype}"
                            ". Cast the keys (tf.cast, or tf.strings.as_string for numbers) "
                            "to the table's key dtype.")
        return keys

    def _lookup_dense(self, keys, default):
        return table_ops.find(self, keys, default)

    def lookup(self, keys, name=None):
        """The value of every key; keys the table does not hold give the default value.

        `keys` may be a tensor of any shape, a `tf.SparseTensor` or a `tf.RaggedTensor`;
        the result has the same structure, with values of `value_dtype`.
        """
        if hasattr(keys, "flat_values"):  # RaggedTensor
            return keys.with_flat_values(self.lookup(keys.flat_values))
        if hasattr(keys, "dense_shape"):  # SparseTensor
            return keys.with_values(self.lookup(keys.values))
        return self._lookup_dense(self._key_tensor(keys), self._default_value)

    def __getitem__(self, keys):
        """`table[keys]` is `table.lookup(keys)`."""
        return self.lookup(keys)

    def size(self, name=None):
        """How many entries the table holds: a scalar int64 tensor."""
        return table_ops.size(self)

    def export(self, name=None):
        """Every key and its value, as two tensors (in the table's own order, which
        differs from TF's hash order: compare them sorted)."""
        return table_ops.export(self)

    def _import(self, keys, values, op_name):
        """Fill the table from two arrays of pairs, with TF's checks."""
        if keys.shape != values.shape[:keys.ndim] or values.ndim != keys.ndim + len(
                self.value_shape):
            raise errors.op_error(
                errors.InvalidArgumentError, op_name,
                f"Expected shape {shape_text(keys.shape)} for value, got "
                f"{shape_text(values.shape)}", "Give one value for every key.")
        data = self._data
        for key, value in zip(keys.ravel().tolist(), values.reshape(
                (-1,) + tuple(self.value_shape)).tolist()):
            old = data.get(key, _MISSING)
            if old is not _MISSING and old != value:
                shown = key.decode(errors="replace") if isinstance(key, bytes) else key
                old_shown = old.decode(errors="replace") if isinstance(old, bytes) else old
                new_shown = value.decode(errors="replace") if isinstance(value, bytes) else value
                raise errors.op_error(
                    errors.FailedPreconditionError, op_name,
                    f"HashTable has different value for same key. Key {shown} has {old_shown} "
                    f"and trying to add value {new_shown}",
                    "A static table maps each key to one value: remove the duplicate key.")
            data[key] = value
