"""Categorical columns: words or codes -> integer ids in `[0, num_buckets)`.

Four ways to number categories: a vocabulary list, a vocabulary file, a hash
(no vocabulary needed, collisions possible) and identity (the ints already
are ids).

>>> import minitf as tf
>>> city = tf.feature_column.categorical_column_with_hash_bucket("city", 10)
>>> city.get_ids({"city": tf.constant(["paris", "lima", "paris"])}).numpy().ravel()
array([7, 3, 7])
"""
import collections

import minitf as tf

from ..framework import dtypes
from ..framework.tf_export import tf_export
from . import base, feature_ops


def _check_input_dtype(value, column):
    base.string_or_int(value, column.key)
    if column.dtype.is_integer != value.dtype.is_integer:
        raise ValueError("Column dtype and SparseTensors dtype must be compatible. "
                         f"key: {column.key}, column dtype: {column.dtype!r}, tensor dtype: "
                         f"{value.dtype!r}. Feed {column.dtype.name} values, or declare the "
                         "column with the dtype of the data.")


class VocabularyListCategoricalColumn(base.CategoricalColumn, collections.namedtuple(
        "VocabularyListCategoricalColumn",
        ("key", "vocabulary_list", "dtype", "default_value", "num_oov_buckets"))):
    """Word -> its position in `vocabulary_list` (OOV words to extra buckets or default)."""

    __slots__ = ()
    name = property(lambda self: self.key)
    num_buckets = property(lambda self: len(self.vocabulary_list) + self.num_oov_buckets)

    def get_ids(self, features):
        """Ids `[batch, values_per_row]`, -1 for a missing value."""
        value = base.get_feature(features, self.key)
        _check_input_dtype(value, self)
        return base.flatten_rows(feature_ops.lookup(value, self.vocabulary_list,
                                                    self.default_value, self.num_oov_buckets))


def _check_vocabulary_args(key, vocabulary, default_value, num_oov_buckets):
    if len(set(vocabulary)) != len(vocabulary):
        raise ValueError(f"Duplicate keys in vocabulary_list {list(vocabulary)}, "
                         f"column_name: {key}")
    if num_oov_buckets < 0:
        raise ValueError(f"Invalid num_oov_buckets {num_oov_buckets}, column_name: {key}")
    if default_value != -1 and num_oov_buckets:
        raise ValueError(f"Can't specify both num_oov_buckets and default_value in {key}.")


def _vocabulary_dtype(vocabulary, dtype, key):
    inferred = dtypes.string if isinstance(vocabulary[0], str) else dtypes.int64
    if dtype is None:
        return inferred
    dtype = dtypes.as_dtype(dtype)
    if dtype.is_integer != inferred.is_integer:
        raise ValueError(f"dtype {dtype!r} and vocabulary dtype {inferred!r} do not match, "
                         f"column_name: {key}")
    return dtype


@tf_export("feature_column.categorical_column_with_vocabulary_list")
@base.deprecated_column
def categorical_column_with_vocabulary_list(key, vocabulary_list, dtype=None, default_value=-1,
                                            num_oov_buckets=0):
    """Number the words of `vocabulary_list` 0, 1, ...; others go to OOV buckets.

    With `num_oov_buckets > 0` an unknown word gets
    `len(vocabulary_list) + Fingerprint64(word) % num_oov_buckets`; otherwise
    `default_value` (-1: no value).

    >>> c = tf.feature_column.categorical_column_with_vocabulary_list(
    ...     "color", ["red", "green"], num_oov_buckets=1)
    >>> c.get_ids({"color": ["green", "pink"]}).numpy().ravel()
    array([1, 2])
    """
    if not vocabulary_list:
        raise ValueError(f"vocabulary_list {vocabulary_list} must be non-empty, "
                         f"column_name: {key}")
    _check_vocabulary_args(key, vocabulary_list, default_value, num_oov_buckets)
    dtype = _vocabulary_dtype(vocabulary_list, dtype, key)
    return VocabularyListCategoricalColumn(key, tuple(vocabulary_list), dtype, default_value,
                                           num_oov_buckets)


class VocabularyFileCategoricalColumn(base.CategoricalColumn, collections.namedtuple(
        "VocabularyFileCategoricalColumn",
        ("key", "vocabulary_file", "vocabulary_size", "num_oov_buckets", "dtype",
         "default_value", "file_format"))):
    """Word -> its line number in `vocabulary_file`."""

    __slots__ = ()
    name = property(lambda self: self.key)
    num_buckets = property(lambda self: self.vocabulary_size + self.num_oov_buckets)

    def get_ids(self, features):
        """Ids `[batch, values_per_row]`, -1 for a missing value."""
        value = base.get_feature(features, self.key)
        _check_input_dtype(value, self)
        words = _read_vocabulary(self.vocabulary_file)[:self.vocabulary_size]
        if self.dtype.is_integer:
            words = [int(w) for w in words]
        return base.flatten_rows(feature_ops.lookup(value, words, self.default_value,
                                                    self.num_oov_buckets))


def _read_vocabulary(path):
    try:
        with open(path, encoding="utf-8") as f:
            return [line.rstrip("\r\n") for line in f]
    except FileNotFoundError:
        raise tf.errors.NotFoundError(
            None, None, f"{path}; No such file or directory. The vocabulary file must exist "
            "when the column is created.") from None


@tf_export("feature_column.categorical_column_with_vocabulary_file")
@base.deprecated_column
def categorical_column_with_vocabulary_file(key, vocabulary_file, vocabulary_size=None,
                                            dtype=dtypes.string, default_value=None,
                                            num_oov_buckets=0, file_format=None):
    """Like `..._with_vocabulary_list`, with one word per line of `vocabulary_file`.

    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "colors.txt")
    >>> _ = open(path, "w").write("red\\ngreen\\n")
    >>> c = tf.feature_column.categorical_column_with_vocabulary_file("color", path)
    >>> c.num_buckets, c.get_ids({"color": ["green"]}).numpy().ravel()
    (2, array([1]))
    """
    if not vocabulary_file:
        raise ValueError(f"Missing vocabulary_file in {key}.")
    words = _read_vocabulary(vocabulary_file)
    if vocabulary_size is None:
        vocabulary_size = len(words)
    if vocabulary_size < 1:
        raise ValueError(f"Invalid vocabulary_size in {key}.")
    default_value = -1 if default_value is None else default_value
    _check_vocabulary_args(key, words[:vocabulary_size], default_value, num_oov_buckets)
    return VocabularyFileCategoricalColumn(key, vocabulary_file, vocabulary_size,
                                           num_oov_buckets, dtypes.as_dtype(dtype),
                                           default_value, file_format)


class HashedCategoricalColumn(base.CategoricalColumn, collections.namedtuple(
        "HashedCategoricalColumn", ("key", "hash_bucket_size", "dtype"))):
    """Word -> `Fingerprint64(word) % hash_bucket_size` (ints are hashed as their text)."""

    __slots__ = ()
    name = property(lambda self: self.key)
    num_buckets = property(lambda self: self.hash_bucket_size)

    def get_ids(self, features):
        """Ids `[batch, values_per_row]`, -1 for a missing value ('' or -1)."""
        value = base.get_feature(features, self.key)
        _check_input_dtype(value, self)
        missing = tf.equal(value, "" if value.dtype == dtypes.string else
                           tf.constant(-1, value.dtype))
        text = value if value.dtype == dtypes.string else tf.strings.as_string(value)
        ids = tf.strings.to_hash_bucket_fast(text, self.hash_bucket_size)
        return base.flatten_rows(tf.where(missing, tf.constant(-1, tf.int64), ids))


@tf_export("feature_column.categorical_column_with_hash_bucket")
@base.deprecated_column
def categorical_column_with_hash_bucket(key, hash_bucket_size, dtype=dtypes.string):
    """Categories numbered by hashing: no vocabulary, `hash_bucket_size` buckets.

    >>> c = tf.feature_column.categorical_column_with_hash_bucket("word", 100)
    >>> c
    HashedCategoricalColumn(key='word', hash_bucket_size=100, dtype=tf.string)
    """
    if hash_bucket_size is None:
        raise ValueError(f"hash_bucket_size must be set. key: {key}")
    if hash_bucket_size < 1:
        raise ValueError(f"hash_bucket_size must be at least 1. hash_bucket_size: "
                         f"{hash_bucket_size}, key: {key}")
    dtype = dtypes.as_dtype(dtype)
    if dtype != dtypes.string and not dtype.is_integer:
        raise ValueError(f"dtype must be string or integer. dtype: {dtype!r}, "
                         f"column_name: {key}")
    return HashedCategoricalColumn(key, hash_bucket_size, dtype)


class IdentityCategoricalColumn(base.CategoricalColumn, collections.namedtuple(
        "IdentityCategoricalColumn", ("key", "number_buckets", "default_value"))):
    """Integer codes used directly as ids; must lie in `[0, num_buckets)`."""

    __slots__ = ()
    name = property(lambda self: self.key)
    num_buckets = property(lambda self: self.number_buckets)

    def get_ids(self, features):
        """Ids `[batch, values_per_row]`; out of range -> default_value, or an error."""
        value = base.get_feature(features, self.key)
        if not value.dtype.is_integer:
            raise ValueError(f"Invalid input, not integer. key: {self.key} dtype: "
                             f"{value.dtype!r}. Identity columns take integer codes; use "
                             "a vocabulary or hash column for words.")
        ids = tf.cast(value, tf.int64)
        if self.default_value is not None:
            out = tf.logical_or(tf.less(ids, -1), tf.greater_equal(ids, self.number_buckets))
            ids = tf.where(out, tf.constant(self.default_value, tf.int64), ids)
        return feature_ops.check_ids(base.flatten_rows(ids), self.number_buckets, self.key)


@tf_export("feature_column.categorical_column_with_identity")
@base.deprecated_column
def categorical_column_with_identity(key, num_buckets, default_value=None):
    """Integer codes that already are ids in `[0, num_buckets)`.

    >>> c = tf.feature_column.categorical_column_with_identity("digit", 10)
    >>> c.get_ids({"digit": [3, 7]}).numpy().ravel()
    array([3, 7])
    """
    if num_buckets < 1:
        raise ValueError(f"num_buckets {num_buckets} < 1, column_name {key}")
    if default_value is not None and not 0 <= default_value < num_buckets:
        raise ValueError(f"default_value {default_value} not in range [0, {num_buckets}), "
                         f"column_name {key}")
    return IdentityCategoricalColumn(key, num_buckets, default_value)
