"""`numeric_column` (numbers as they are) and `bucketized_column` (numbers as ranges).

>>> import minitf as tf
>>> age = tf.feature_column.numeric_column("age")
>>> age
NumericColumn(key='age', shape=(1,), default_value=None, dtype=tf.float32, normalizer_fn=None)
>>> age_buckets = tf.feature_column.bucketized_column(age, boundaries=[18, 65])
>>> age_buckets.get_dense_tensor({"age": tf.constant([10.0, 30.0, 70.0])}).numpy()
array([[[1., 0., 0.]],
<BLANKLINE>
       [[0., 1., 0.]],
<BLANKLINE>
       [[0., 0., 1.]]], dtype=float32)
"""
import collections
import itertools
import math

import minitf as tf

from ..framework import dtypes
from ..framework.tf_export import tf_export
from . import base, feature_ops


class NumericColumn(base.DenseColumn, collections.namedtuple(
        "NumericColumn", ("key", "shape", "default_value", "dtype", "normalizer_fn"))):
    """Feeds a number (or a fixed-shape block of numbers) straight into the model."""

    __slots__ = ()

    @property
    def name(self):
        return self.key

    @property
    def variable_shape(self):
        return tf.TensorShape(self.shape)

    def get_raw(self, features):
        """The feature cast to float32, normalized, shape `[batch] + shape`."""
        value = base.get_feature(features, self.key)
        if value.dtype == dtypes.string:
            raise base.string_to_number_error(self.key, self.dtype)
        value = tf.cast(value, self.dtype)
        if self.normalizer_fn is not None:
            value = self.normalizer_fn(value)
        return tf.cast(value, tf.float32)

    def get_dense_tensor(self, features, state_manager=None):
        """`[batch] + shape` float32 (DenseFeatures flattens it to `[batch, prod(shape)]`)."""
        return tf.reshape(self.get_raw(features), [-1, *self.shape])


@tf_export("feature_column.numeric_column")
@base.deprecated_column
def numeric_column(key, shape=(1,), default_value=None, dtype=dtypes.float32,
                   normalizer_fn=None):
    """A column of real numbers, optionally transformed by `normalizer_fn` first.

    >>> col = tf.feature_column.numeric_column("h", normalizer_fn=lambda x: (x - 170) / 10)
    >>> col.get_dense_tensor({"h": [160.0, 190.0]}).numpy()
    array([[-1.],
           [ 2.]], dtype=float32)
    """
    shape = (shape,) if isinstance(shape, int) else tuple(shape)
    if any(not isinstance(d, int) or d < 1 for d in shape):
        raise ValueError(f"shape dimensions must be greater than 0. shape: {shape}, key: {key}")
    dtype = dtypes.as_dtype(dtype)
    if not (dtype.is_floating or dtype.is_integer):
        raise ValueError(f"dtype must be convertible to float. dtype: {dtype!r}, key: {key}")
    if normalizer_fn is not None and not callable(normalizer_fn):
        raise TypeError(f"normalizer_fn must be a callable. Given: {normalizer_fn}")
    if default_value is not None and not isinstance(default_value, tuple):
        default_value = tuple([default_value] * math.prod(shape))
    return NumericColumn(key, shape, default_value, dtype, normalizer_fn)


class BucketizedColumn(base.DenseColumn, base.CategoricalColumn, collections.namedtuple(
        "BucketizedColumn", ("source_column", "boundaries"))):
    """A numeric column cut into ranges; each range is one category."""

    __slots__ = ()

    @property
    def name(self):
        return f"{self.source_column.name}_bucketized"

    @property
    def parents(self):
        return [self.source_column]

    @property
    def num_buckets(self):
        return math.prod(self.source_column.shape) * (len(self.boundaries) + 1)

    @property
    def variable_shape(self):
        return tf.TensorShape(tuple(self.source_column.shape) + (len(self.boundaries) + 1,))

    def get_ids(self, features):
        """Bucket ids `[batch, prod(shape)]`; element i's buckets are offset by i*(len+1)."""
        ids = base.flatten_rows(feature_ops.bucketize(self.source_column.get_raw(features),
                                                      self.boundaries))
        size = ids.shape[1]
        offsets = tf.constant([i * (len(self.boundaries) + 1) for i in range(size)], tf.int64)
        return ids + offsets

    def get_dense_tensor(self, features, state_manager=None):
        """One-hot of each element's bucket: `[batch] + shape + [len(boundaries) + 1]`."""
        raw = feature_ops.bucketize(self.source_column.get_raw(features), self.boundaries)
        one_hot = tf.one_hot(raw, len(self.boundaries) + 1, dtype=tf.float32)
        return tf.reshape(one_hot, [-1, *self.variable_shape])


@tf_export("feature_column.bucketized_column")
@base.deprecated_column
def bucketized_column(source_column, boundaries):
    """Cut a `numeric_column` at `boundaries` (sorted): `len(boundaries) + 1` buckets.

    Bucket i holds `boundaries[i-1] <= x < boundaries[i]`.

    >>> b = tf.feature_column.bucketized_column(tf.feature_column.numeric_column("x"), [0, 1])
    >>> b.name, b.num_buckets
    ('x_bucketized', 3)
    """
    if not isinstance(source_column, NumericColumn):
        raise ValueError("source_column must be a column generated with numeric_column(). "
                         f"Given: {source_column}")
    if len(source_column.shape) > 1:
        raise ValueError("source_column must be one-dimensional column. "
                         f"Given: {source_column}")
    if not boundaries:
        raise ValueError("boundaries must not be empty.")
    if not isinstance(boundaries, (list, tuple)) or any(
            a >= b for a, b in itertools.pairwise(boundaries)):
        raise ValueError("boundaries must be a sorted list.")
    return BucketizedColumn(source_column, tuple(boundaries))
