"""`crossed_column`: one category for each combination of values ("age 20-30 AND paris").

>>> import minitf as tf
>>> age = tf.feature_column.bucketized_column(tf.feature_column.numeric_column("age"), [30])
>>> cross = tf.feature_column.crossed_column([age, "city"], hash_bucket_size=7)
>>> cross.name
'age_bucketized_X_city'
>>> cross.get_ids({"age": [12.0, 40.0], "city": ["paris", "paris"]}).numpy().ravel()
array([0, 4])
"""
import collections

from ..framework.tf_export import tf_export
from . import base, feature_ops
from .categorical import HashedCategoricalColumn


def _key_name(key):
    return key if isinstance(key, str) else key.name


class CrossedColumn(base.CategoricalColumn, collections.namedtuple(
        "CrossedColumn", ("keys", "hash_bucket_size", "hash_key"))):
    """Hashes each combination of its keys' values into `hash_bucket_size` buckets."""

    __slots__ = ()
    num_buckets = property(lambda self: self.hash_bucket_size)

    @property
    def name(self):
        return "_X_".join(sorted(_key_name(k) for k in self.keys))

    @property
    def parents(self):
        return list(self.keys)

    def _key_values(self, key, features):
        if isinstance(key, str):  # a raw feature: its strings or ints are hashed as they are
            value = base.flatten_rows(base.get_feature(features, key))
            base.string_or_int(value, key)
            return value
        return key.get_ids(features)  # a categorical column: its ids are crossed

    def get_ids(self, features):
        """Ids `[batch, combinations_per_row]` (one per row for single-valued keys)."""
        # TF hands SparseCrossHashed its sparse inputs (the columns' ids) before its dense
        # ones (raw features), each group in the order of `keys`; the hash depends on it.
        keys = [k for k in self.keys if not isinstance(k, str)] + \
            [k for k in self.keys if isinstance(k, str)]
        values = [self._key_values(k, features) for k in keys]
        are_ids = [not isinstance(k, str) for k in keys]
        return feature_ops.cross_hashed(values, self.hash_bucket_size, self.hash_key, are_ids)


@tf_export("feature_column.crossed_column")
@base.deprecated_cross
def crossed_column(keys, hash_bucket_size, hash_key=None):
    """Cross features: each combination of values is hashed into a bucket.

    `keys` are raw feature names and/or categorical columns (not hashed
    columns: cross their raw key instead). The bucket of a combination
    `(v1, v2, ...)` is `FingerprintCat64(...FingerprintCat64(hash_key,
    h(v1)), h(v2)...) % hash_bucket_size`, where a string's `h` is
    `Fingerprint64` and an id is its own hash - as TF's `SparseCrossHashed`.

    >>> tf.feature_column.crossed_column(["a", "b"], 10).name
    'a_X_b'
    """
    if not hash_bucket_size or hash_bucket_size < 1:
        raise ValueError(f"hash_bucket_size must be > 1. hash_bucket_size: {hash_bucket_size}")
    if not keys or len(keys) < 2:
        raise ValueError(f"keys must be a list with length > 1. Given: {keys}")
    for key in keys:
        if not isinstance(key, (str, base.CategoricalColumn)):
            raise ValueError("Unsupported key type. All keys must be either string, or "
                             f"categorical column except HashedCategoricalColumn. Given: {key}")
        if isinstance(key, HashedCategoricalColumn):
            raise ValueError("categorical_column_with_hash_bucket is not supported for "
                             f"crossing. Hashing before crossing will increase probability "
                             f"of collision. Instead, use the feature name as a string. "
                             f"Given: {key}")
    return CrossedColumn(tuple(keys), hash_bucket_size, hash_key)

