"""`tf.lookup.StaticHashTable` and `tf.lookup.StaticVocabularyTable`: tables filled once.

A static table is filled from its initializer when it is made and never
changes. `StaticHashTable` gives a default for keys it does not hold;
`StaticVocabularyTable` gives them one of `num_oov_buckets` extra ids instead,
picked by hashing the key - the same id in every run and on every machine:

>>> import minitf as tf
>>> init = tf.lookup.KeyValueTensorInitializer(["a", "b", "c"], tf.constant([0, 1, 2], tf.int64))
>>> table = tf.lookup.StaticVocabularyTable(init, num_oov_buckets=3)
>>> table.lookup(tf.constant(["a", "c", "hello", "zz"]))
<tf.Tensor: shape=(4,), dtype=int64, numpy=array([0, 2, 4, 4])>
>>> table.size()
<tf.Tensor: shape=(), dtype=int64, numpy=6>

The bucket of a key is `Fingerprint64(key) % num_oov_buckets` (an integer key is
hashed as its decimal text), added to the vocabulary's size: TensorFlow's
`to_hash_bucket_fast`, so the ids equal TensorFlow's. The lookup is written with
minitf ops, as TF writes it: a table lookup, a hash, a `tf.where`.

In TensorFlow these are in tensorflow/python/ops/lookup_ops.py.
"""
from ..framework import dtypes
from ..framework.tensor import convert_to_tensor
from ..framework.tf_export import tf_export
from ..ops.hash_ops import to_hash_bucket_fast
from ..ops.math_ops import add, cast, equal, where
from ..ops.string_ops import as_string
from .lookup_table import LookupTable, check_kernel


@tf_export("lookup.StaticHashTable")
class StaticHashTable(LookupTable):
    """A table whose entries come from `initializer` once, with `default_value` for other keys.

    >>> import minitf as tf
    >>> init = tf.lookup.KeyValueTensorInitializer(["cat", "dog"], [3, 4])
    >>> table = tf.lookup.StaticHashTable(init, default_value=-1)
    >>> table.lookup(tf.constant([["dog", "cow"]]))
    <tf.Tensor: shape=(1, 2), dtype=int32, numpy=array([[ 4, -1]], dtype=int32)>
    >>> table[tf.constant("cat")], table.key_dtype, table.value_dtype
    (<tf.Tensor: shape=(), dtype=int32, numpy=3>, tf.string, tf.int32)

    Keys must have the table's key dtype exactly (a `TypeError` says so); a list of
    Python values is converted to it.
    """

    def __init__(self, initializer, default_value, name=None, experimental_is_anonymous=False):
        self._key_dtype, self._value_dtype = initializer.key_dtype, initializer.value_dtype
        check_kernel("HashTableV2", self._key_dtype, self._value_dtype)
        default = convert_to_tensor(default_value, dtype=self._value_dtype)
        if default.shape.rank != 0:
            raise ValueError(f"Shapes {default.shape} and () are not compatible")
        self._default_value, self._name = default, name
        self._initializer, self._data = initializer, {}
        keys, values = initializer._pairs()
        self._import(keys, values, initializer.op_name)

    @property
    def default_value(self):
        """The value of keys the table does not hold (a scalar tensor)."""
        return self._default_value


@tf_export("lookup.StaticVocabularyTable")
class StaticVocabularyTable(LookupTable):
    """Ids of a vocabulary (int64 values of string or int64 keys), other keys hashed into
    `num_oov_buckets` extra ids after the vocabulary's.

    `lookup_key_dtype`: the dtype of the keys `lookup` takes, when it differs from the
    initializer's (int32 keys for an int64 vocabulary).
    """

    def __init__(self, initializer, num_oov_buckets, lookup_key_dtype=None, name=None,
                 experimental_is_anonymous=False):
        if num_oov_buckets <= 0:
            raise ValueError("`num_oov_buckets` must be > 0; use StaticHashTable.")
        if initializer.value_dtype != dtypes.int64:
            raise TypeError(f"Invalid `value_dtype`, expected {dtypes.int64} but got "
                            f"{initializer.value_dtype}.")
        key_dtype = initializer.key_dtype
        if key_dtype not in (dtypes.int64, dtypes.string):
            raise TypeError(f"Invalid `key_dtype`, expected one of (tf.int64, tf.string), but "
                            f"got {key_dtype}.")
        lookup_key_dtype = dtypes.as_dtype(lookup_key_dtype or key_dtype)
        if key_dtype == dtypes.string and lookup_key_dtype != dtypes.string or \
                key_dtype == dtypes.int64 and lookup_key_dtype not in (dtypes.int32, dtypes.int64):
            raise TypeError(f"Invalid `key_dtype`, expected {key_dtype} but got "
                            f"{lookup_key_dtype}.")
        self._table = StaticHashTable(initializer, -1)
        self._data = self._table._data
        self._key_dtype, self._value_dtype = lookup_key_dtype, dtypes.int64
        self._num_oov_buckets, self._name = int(num_oov_buckets), name
        self._default_value = None

    def _count(self):
        return len(self._data) + self._num_oov_buckets

    def _lookup_dense(self, keys, default):
        text = keys if keys.dtype == dtypes.string else as_string(keys)
        if keys.dtype == dtypes.int32:
            keys = cast(keys, dtypes.int64)
        ids = self._table._lookup_dense(keys, self._table._default_value)
        buckets = add(to_hash_bucket_fast(text, self._num_oov_buckets),
                      self._table.size())
        return where(equal(ids, -1), buckets, ids)

    def export(self, name=None):
        """TF's StaticVocabularyTable has no `export`."""
        raise AttributeError("'StaticVocabularyTable' object has no attribute 'export'")
