"""`tf.lookup.experimental.MutableHashTable` and `DenseHashTable`: tables that change.

Both start empty; `insert` adds or replaces entries, `remove` takes them out,
and every call - eager, or a node of a `tf.function` run again and again -
changes the same table:

>>> import minitf as tf
>>> counts = tf.lookup.experimental.MutableHashTable(tf.string, tf.int64, default_value=0)
>>> @tf.function
... def bump(word):
...     counts.insert(word, counts.lookup(word) + 1)
>>> for w in ["to", "be", "or", "not", "to", "be"]:
...     bump(tf.constant(w))
>>> counts.lookup(tf.constant(["to", "not", "xyz"]))
<tf.Tensor: shape=(3,), dtype=int64, numpy=array([2, 1, 0])>

A value may be a vector: its shape is the default value's shape.

`DenseHashTable` is the open-addressing table TensorFlow also offers: a power
of two of buckets, two reserved keys (`empty_key` marks a free bucket,
`deleted_key` a removed entry), quadratic probing, and doubling when more than
80% of the buckets are used. Its `export` returns every bucket, as TF's does:
integer keys land in the same buckets as in TF (their hash is the key itself);
string keys are hashed with TF's `Hash64`.
"""
import numpy as np

from ..framework import dtypes, errors
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.tf_export import tf_export
from ..ops.string_reduce_ops import hash64
from . import table_ops
from .lookup_table import LookupTable, check_kernel, numpy_dtype, python_key, shape_text


def _converted(value, dtype, what):
    try:
        return convert_to_tensor(value, dtype=dtype)
    except ValueError as e:
        raise ValueError(f"{what}: {e}") from None


class _MutableTable(LookupTable):
    op_name = "MutableHashTableV2"

    def _setup(self, key_dtype, value_dtype, default_value, name):
        self._key_dtype = dtypes.as_dtype(key_dtype)
        self._value_dtype = dtypes.as_dtype(value_dtype)
        check_kernel(self.op_name, self._key_dtype, self._value_dtype)
        self._default_value = convert_to_tensor(default_value, dtype=self._value_dtype)
        self.value_shape = tuple(self._default_value.shape.as_list())
        self._name = None  # TF 2 answers None for an eager table's name
        self._given_name = name

    def _values_tensor(self, keys, values):
        values = _converted(values, self._value_dtype, "values")
        want = keys.shape.concatenate(self.value_shape)
        if values.shape.is_fully_defined() and want.is_fully_defined() and \
                values.shape.as_list() != want.as_list():
            raise errors.op_error(
                errors.InvalidArgumentError, "LookupTableInsertV2",
                f"Expected shape {shape_text(want.as_list())} for value, got "
                f"{shape_text(values.shape.as_list())}",
                "Give one value, of the default value's shape, for every key.")
        return values

    def insert(self, keys, values, name=None):
        """Put each key with its value in the table (replacing an older value). Returns None."""
        keys = _converted(keys, self._key_dtype, "keys")
        table_ops.insert(self, keys, self._values_tensor(keys, values))

    def remove(self, keys, name=None):
        """Take the keys out of the table (a key not there is ignored). Returns None."""
        if not isinstance(keys, Tensor):
            keys = convert_to_tensor(keys, dtype=self._key_dtype)
        table_ops.remove(self, self._key_tensor(keys))

    def lookup(self, keys, dynamic_default_values=None, name=None):
        """The value of every key; absent keys give the default value, or the matching
        entry of `dynamic_default_values` (shaped like the result) when given."""
        keys = _converted(keys, self._key_dtype, "keys")
        default = self._default_value if dynamic_default_values is None else \
            convert_to_tensor(dynamic_default_values, dtype=self._value_dtype)
        return table_ops.find(self, keys, default)

    # kernels
    def _insert(self, keys, values):
        flat = values.reshape((-1,) + self.value_shape)
        for key, value in zip(keys.ravel().tolist(), flat.tolist()):
            self._store(key, value)
        return table_ops.NOTHING

    def _remove(self, keys):
        for key in keys.ravel().tolist():
            self._delete(key)
        return table_ops.NOTHING

    def _store(self, key, value):
        self._data[key] = value

    def _delete(self, key):
        self._data.pop(key, None)

    # tf.train.Checkpoint saves a table's entries as two tensors, `table-keys` and
    # `table-values`, as TF does (unless made with checkpoint=False)
    @property
    def _saves_tensors(self):
        return self._checkpoint

    def _checkpoint_tensors(self):
        keys, values = self._export()
        return {"table-keys": keys, "table-values": values}

    def _restore_tensors(self, tensors):
        self._data.clear()
        self._insert(np.asarray(tensors["table-keys"]), np.asarray(tensors["table-values"]))


@tf_export("lookup.experimental.MutableHashTable")
class MutableHashTable(_MutableTable):
    """A table that starts empty and changes with `insert` and `remove`.

    >>> import minitf as tf
    >>> t = tf.lookup.experimental.MutableHashTable(tf.string, tf.float32, [0.0, 0.0])
    >>> t.insert(["a"], [[1.0, 2.0]])
    >>> t.lookup(["a", "b"])
    <tf.Tensor: shape=(2, 2), dtype=float32, numpy=
    array([[1., 2.],
           [0., 0.]], dtype=float32)>
    >>> t.size(), t.export()[0]
    (<tf.Tensor: shape=(), dtype=int64, numpy=1>, <tf.Tensor: shape=(1,), dtype=string, numpy=array([b'a'], dtype=object)>)

    `checkpoint=True`: a `tf.train.Checkpoint` that reaches the table saves and
    restores its entries.
    """

    def __init__(self, key_dtype, value_dtype, default_value, name="MutableHashTable",
                 checkpoint=True, experimental_is_anonymous=False):
        self._setup(key_dtype, value_dtype, default_value, name)
        self._data, self._checkpoint = {}, checkpoint


@tf_export("lookup.experimental.DenseHashTable")
class DenseHashTable(_MutableTable):
    """A mutable table kept in open-addressing buckets (see the module docstring).

    >>> import minitf as tf
    >>> t = tf.lookup.experimental.DenseHashTable(
    ...     tf.int64, tf.int64, default_value=-1, empty_key=0, deleted_key=-1,
    ...     initial_num_buckets=8)
    >>> t.insert(tf.constant([5, 13], tf.int64), tf.constant([50, 130], tf.int64))
    >>> t.lookup(tf.constant([13, 7], tf.int64))
    <tf.Tensor: shape=(2,), dtype=int64, numpy=array([130,  -1])>
    >>> t.export()[0].numpy().ravel()   # 13 collides with 5 and probes on to bucket 6
    array([ 0,  0,  0,  0,  0,  5, 13,  0])
    """

    op_name = "MutableDenseHashTableV2"
    _MAX_LOAD = 0.8

    def __init__(self, key_dtype, value_dtype, default_value, empty_key, deleted_key,
                 initial_num_buckets=None, name="MutableDenseHashTable", checkpoint=True,
                 experimental_is_anonymous=False):
        self._setup(key_dtype, value_dtype, default_value, name)
        self._empty = python_key(np.asarray(_converted(empty_key, self._key_dtype,
                                                       "empty_key")._value).item())
        self._deleted = python_key(np.asarray(_converted(deleted_key, self._key_dtype,
                                                         "deleted_key")._value).item())
        if self._empty == self._deleted:
            raise errors.op_error(errors.InvalidArgumentError, self.op_name,
                                  "Empty and deleted keys cannot be equal",
                                  "Pick two different keys that never occur as real keys.")
        buckets = 131072 if initial_num_buckets is None else int(initial_num_buckets)
        if buckets < 4 or buckets & (buckets - 1):
            raise errors.op_error(
                errors.InvalidArgumentError, self.op_name,
                f"Number of buckets must be at least 4 and a power of 2, got: {buckets}",
                "Use 4, 8, 16, ...")
        self._checkpoint = checkpoint
        self._reset(buckets)

    def _reset(self, buckets):
        self._keys = [self._empty] * buckets
        self._values = np.zeros((buckets,) + self.value_shape,
                                numpy_dtype(self._value_dtype))
        if self._values.dtype == object:
            self._values[...] = b""
        self._entries = 0
        self._data = _BucketView(self)

    @property
    def export_key_shape(self):
        return (1,)

    @property
    def export_value_shape(self):
        return (int(np.prod(self.value_shape)),)

    def _hash(self, key):
        return hash64(key) if isinstance(key, bytes) else key

    def _probe(self, key):
        """Yield bucket indices in TF's probe order: b, b+1, b+1+2, b+1+2+3, ..."""
        mask = len(self._keys) - 1
        bucket = self._hash(key) & mask
        for probes in range(1, len(self._keys) + 1):
            yield bucket
            bucket = (bucket + probes) & mask

    def _check_key(self, key):
        for reserved, what in ((self._empty, "empty_key"), (self._deleted, "deleted_key")):
            if key == reserved:
                raise errors.op_error(
                    errors.InvalidArgumentError, self._current_op,
                    f"Using the {what} as a table key is not allowed",
                    "The table reserves empty_key and deleted_key for its bookkeeping.")

    def _slot(self, key):
        """The bucket holding `key`, or None."""
        for bucket in self._probe(key):
            held = self._keys[bucket]
            if held == key:
                return bucket
            if held == self._empty:
                return None
        return None

    def _find(self, keys, default):
        self._current_op = "LookupTableFindV2"
        for key in keys.ravel().tolist():
            self._check_key(key)
        return super()._find(keys, default)

    def _insert(self, keys, values):
        self._current_op = "LookupTableInsertV2"
        flat_keys = keys.ravel().tolist()
        for key in flat_keys:
            self._check_key(key)
        needed = self._entries + len(flat_keys)
        if needed > len(self._keys) * self._MAX_LOAD:
            buckets = len(self._keys)
            while needed > self._MAX_LOAD * buckets:
                buckets <<= 1
            self._rebucket(buckets)
        return super()._insert(keys, values)

    def _rebucket(self, buckets):
        old = [(k, v) for k, v in zip(self._keys, self._values)
               if k != self._empty and k != self._deleted]
        self._reset(buckets)
        for key, value in old:
            self._store(key, value)

    def _store(self, key, value):
        for bucket in self._probe(key):
            held = self._keys[bucket]
            if held == key:
                self._values[bucket] = value
                return
            if held == self._empty or held == self._deleted:
                self._keys[bucket] = key
                self._values[bucket] = value
                self._entries += 1
                return

    def _delete(self, key):
        self._current_op = "LookupTableRemoveV2"
        self._check_key(key)
        bucket = self._slot(key)
        if bucket is not None:
            self._keys[bucket] = self._deleted
            self._entries -= 1

    def _count(self):
        return self._entries

    def _export(self):
        keys = np.empty([len(self._keys), 1], numpy_dtype(self._key_dtype))
        keys[:, 0] = self._keys
        values = self._values.reshape(len(self._keys), -1).copy()
        return keys, values

    def _checkpoint_tensors(self):
        keys, values = self._export()
        return {"table-keys": keys, "table-values": values}

    def _restore_tensors(self, tensors):
        keys = np.asarray(tensors["table-keys"])
        self._reset(len(keys))
        self._values[...] = np.asarray(tensors["table-values"]).reshape(self._values.shape)
        self._keys = keys[:, 0].tolist()
        self._entries = sum(k != self._empty and k != self._deleted for k in self._keys)

    insert_or_assign = _MutableTable.insert
    erase = _MutableTable.remove


class _BucketView:
    """`get` over a DenseHashTable's buckets, so the shared `_find` kernel works on it."""

    def __init__(self, table):
        self._table = table

    def get(self, key, missing):
        bucket = self._table._slot(key)
        return missing if bucket is None else self._table._values[bucket]

    def __len__(self):
        return self._table._entries
