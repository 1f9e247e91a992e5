"""Lookup tables filled from a dataset: `DatasetInitializer`, `table_from_dataset`,
`index_table_from_dataset` (all `tf.data.experimental`).

A dataset of `(key, value)` pairs fills a `tf.lookup.StaticHashTable`; a
dataset of keys alone becomes a vocabulary, each key mapped to its position:

>>> import minitf as tf
>>> words = tf.data.Dataset.from_tensor_slices(["the", "cat", "sat"])
>>> table = tf.data.experimental.index_table_from_dataset(words, num_oov_buckets=1)
>>> table.lookup(tf.constant(["cat", "dog"]))
<tf.Tensor: shape=(2,), dtype=int64, numpy=array([1, 3])>

The dataset is read once, eagerly, when the table is made (TensorFlow runs its
`InitializeTableFromDataset` op then too).
"""
import numpy as np

from ..framework import dtypes, errors
from ..framework.tf_export import tf_export
from ..lookup.initializers import TableInitializerBase
from ..lookup.lookup_table import numpy_dtype
from ..lookup.static_tables import StaticHashTable, StaticVocabularyTable


class HasherSpec(tuple):
    """TF's `HasherSpec(hasher, key)`: how OOV keys are hashed; "fasthash" is Fingerprint64."""

    def __new__(cls, hasher="fasthash", key=None):
        return super().__new__(cls, (hasher, key))

    def __repr__(self):
        return f"HasherSpec(hasher={self[0]!r}, key={self[1]!r})"


FASTHASH = HasherSpec("fasthash", None)


@tf_export("data.experimental.DatasetInitializer")
class DatasetInitializer(TableInitializerBase):
    """A table's entries from a dataset of `(key, value)` pairs of scalars.

    >>> import minitf as tf
    >>> pairs = tf.data.Dataset.from_tensor_slices((["a", "b"], [5, 6]))
    >>> init = tf.data.experimental.DatasetInitializer(pairs)
    >>> tf.lookup.StaticHashTable(init, -1).lookup(tf.constant(["b", "z"]))
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([ 6, -1], dtype=int32)>
    """

    op_name = "InitializeTableFromDataset"

    def __init__(self, dataset):
        spec = dataset.element_spec
        if not isinstance(spec, tuple) or len(spec) != 2:
            raise TypeError(f"The dataset's elements must be (key, value) pairs, got "
                             f"{spec}. Zip a dataset of keys with one of values, or use "
                             "tf.data.experimental.index_table_from_dataset for keys alone.")
        for part, what in zip(spec, ("key", "value")):
            if part.shape.rank != 0:
                raise ValueError(f"The {what}s of the dataset must be scalars, got shape "
                                 f"{part.shape}.")
        self._dataset = dataset
        self._key_dtype, self._value_dtype = spec[0].dtype, spec[1].dtype
        self._vocab_size = None

    def _pairs(self, value_shape=()):
        rows = [(k, v) for k, v in self._dataset.as_numpy_iterator()]
        if self._vocab_size is not None:
            if len(rows) < self._vocab_size:
                raise errors.op_error(
                    errors.FailedPreconditionError, self.op_name,
                    f"Input dataset was expected to contain {self._vocab_size} elements but "
                    f"contained only {len(rows)} elements.",
                    "vocab_size may not exceed the dataset's length.")
            rows = rows[:self._vocab_size]
        keys = np.empty([len(rows)], numpy_dtype(self._key_dtype))
        values = np.empty([len(rows)], numpy_dtype(self._value_dtype))
        keys[:] = [k for k, _ in rows]
        values[:] = [v for _, v in rows]
        return keys, values


@tf_export("data.experimental.table_from_dataset")
def table_from_dataset(dataset=None, num_oov_buckets=0, vocab_size=None, default_value=None,
                       hasher_spec=FASTHASH, key_dtype=dtypes.string, name=None):
    """A table from a dataset of `(key, value)` pairs.

    With `num_oov_buckets > 0` (int64 values only) other keys are hashed into
    that many ids after the vocabulary (a `StaticVocabularyTable`); otherwise they
    give `default_value` (-1 when not given). `vocab_size`: use only the first
    that many pairs.
    """
    _check(dataset, num_oov_buckets, vocab_size, hasher_spec)
    initializer = DatasetInitializer(dataset)
    initializer._vocab_size = vocab_size
    if initializer.key_dtype != dtypes.as_dtype(key_dtype):
        raise TypeError(f"Invalid `key_dtype`, expected {dtypes.as_dtype(key_dtype)} but got "
                        f"{initializer.key_dtype}.")
    if num_oov_buckets:
        return StaticVocabularyTable(initializer, num_oov_buckets)
    return StaticHashTable(initializer, -1 if default_value is None else default_value)


@tf_export("data.experimental.index_table_from_dataset")
def index_table_from_dataset(dataset=None, num_oov_buckets=0, vocab_size=None,
                             default_value=-1, hasher_spec=FASTHASH, key_dtype=dtypes.string,
                             name=None):
    """A vocabulary table from a dataset of keys: key i of the dataset maps to i (int64)."""
    _check(dataset, num_oov_buckets, vocab_size, hasher_spec)
    return table_from_dataset(dataset.enumerate().map(lambda i, k: (k, i)), num_oov_buckets,
                              vocab_size, default_value, hasher_spec, key_dtype, name)


def _check(dataset, num_oov_buckets, vocab_size, hasher_spec):
    if dataset is None:
        raise ValueError("`dataset` argument required.")
    if num_oov_buckets < 0:
        raise ValueError(f"`num_oov_buckets` must be greater than or equal to 0, got "
                         f"{num_oov_buckets}.")
    if vocab_size is not None and vocab_size < 1:
        raise ValueError(f"`vocab_size` must be greater than 0, got {vocab_size}.")
    if tuple(hasher_spec) != tuple(FASTHASH):
        raise ValueError(f"minitf hashes OOV keys with Fingerprint64 only "
                         f"(HasherSpec('fasthash', None)); got {hasher_spec!r}.")
