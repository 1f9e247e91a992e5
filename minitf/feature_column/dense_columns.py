"""Categorical ids -> dense input: `indicator_column` (multi-hot) and `embedding_column`.

>>> import minitf as tf
>>> color = tf.feature_column.categorical_column_with_vocabulary_list("color", ["r", "g", "b"])
>>> tf.feature_column.indicator_column(color).get_dense_tensor({"color": ["b", "r"]}).numpy()
array([[0., 0., 1.],
       [1., 0., 0.]], dtype=float32)

An embedding column looks each id up in a trainable `[num_buckets, dimension]`
table and averages (`combiner="mean"`) a row's vectors. The table is a weight
of the `tf.keras.layers.DenseFeatures` layer that uses the column.
"""
import collections
import math

import minitf as tf

from ..framework.tf_export import tf_export
from . import base


class IndicatorColumn(base.DenseColumn, collections.namedtuple(
        "IndicatorColumn", ("categorical_column",))):
    """Multi-hot: entry i counts how often id i occurs in the row."""

    __slots__ = ()

    @property
    def name(self):
        return f"{self.categorical_column.name}_indicator"

    @property
    def parents(self):
        return [self.categorical_column]

    @property
    def variable_shape(self):
        return tf.TensorShape([1, self.categorical_column.num_buckets])

    def get_dense_tensor(self, features, state_manager=None):
        """`[batch, num_buckets]` float32 counts."""
        ids = self.categorical_column.get_ids(features)
        one_hot = tf.one_hot(ids, self.categorical_column.num_buckets, dtype=tf.float32)
        return tf.reduce_sum(one_hot, axis=1)  # one_hot of -1 is all zeros: missing drops out


@tf_export("feature_column.indicator_column")
@base.deprecated_column
def indicator_column(categorical_column):
    """Represent a categorical column as a multi-hot vector of length `num_buckets`.

    >>> c = tf.feature_column.categorical_column_with_identity("d", 3)
    >>> tf.feature_column.indicator_column(c).name
    'd_indicator'
    """
    if not isinstance(categorical_column, base.CategoricalColumn):
        raise ValueError("Unsupported input type. Input must be a CategoricalColumn. "
                         f"Given: {categorical_column}")
    return IndicatorColumn(categorical_column)


class EmbeddingColumn(base.DenseColumn, collections.namedtuple(
        "EmbeddingColumn", ("categorical_column", "dimension", "combiner", "initializer",
                            "ckpt_to_load_from", "tensor_name_in_ckpt", "max_norm",
                            "trainable", "use_safe_embedding_lookup"))):
    """Each id -> a learned `dimension`-vector; a row's vectors are combined."""

    __slots__ = ()

    @property
    def name(self):
        return f"{self.categorical_column.name}_embedding"

    @property
    def parents(self):
        return [self.categorical_column]

    @property
    def variable_shape(self):
        return tf.TensorShape([self.dimension])

    def create_state(self, state_manager):
        """Ask `state_manager` for the `[num_buckets, dimension]` table 'embedding_weights'."""
        state_manager.create_variable(
            self, name="embedding_weights",
            shape=(self.categorical_column.num_buckets, self.dimension), dtype=tf.float32,
            trainable=self.trainable, initializer=self.initializer)

    def get_dense_tensor(self, features, state_manager=None):
        """`[batch, dimension]`: the combined vectors of each row's ids (zeros if none)."""
        table = state_manager.get_variable(self, "embedding_weights")
        ids = self.categorical_column.get_ids(features)
        present = tf.cast(tf.greater_equal(ids, 0), table.dtype)  # [batch, k]: 0 = no id
        vectors = tf.gather(table, tf.maximum(ids, 0))         # [batch, k, dimension]
        if self.max_norm is not None:
            vectors = tf.clip_by_norm(vectors, self.max_norm, axes=[2])
        total = tf.reduce_sum(vectors * tf.expand_dims(present, -1), axis=1)
        count = tf.reduce_sum(present, axis=1, keepdims=True)
        if self.combiner == "sum":
            return total
        if self.combiner == "sqrtn":
            count = tf.sqrt(count)
        return total / tf.maximum(count, 1.0)  # a row with no ids gives zeros


def _default_initializer(dimension):
    def initializer(shape, dtype=tf.float32):
        return tf.random.truncated_normal(shape, mean=0.0, stddev=1 / math.sqrt(dimension),
                                          dtype=dtype)
    return initializer


@tf_export("feature_column.embedding_column")
@base.deprecated_column
def embedding_column(categorical_column, dimension, combiner="mean", initializer=None,
                     ckpt_to_load_from=None, tensor_name_in_ckpt=None, max_norm=None,
                     trainable=True, use_safe_embedding_lookup=True):
    """Represent a categorical column by learned vectors of length `dimension`.

    `combiner` ("mean", "sqrtn" or "sum") merges the vectors of a row with
    several ids. The default initializer is a truncated normal with stddev
    `1/sqrt(dimension)`.

    >>> c = tf.feature_column.categorical_column_with_identity("item", 1000)
    >>> e = tf.feature_column.embedding_column(c, dimension=8)
    >>> e.name, e.variable_shape
    ('item_embedding', TensorShape([8]))
    """
    if dimension is None or dimension < 1:
        raise ValueError(f"Invalid dimension {dimension}.")
    if combiner not in ("mean", "sqrtn", "sum"):
        raise ValueError(f"combiner must be one of 'mean', 'sqrtn' or 'sum'. Given: {combiner}")
    if (ckpt_to_load_from is None) != (tensor_name_in_ckpt is None):
        raise ValueError("Must specify both `ckpt_to_load_from` and `tensor_name_in_ckpt` "
                         "or none of them.")
    if ckpt_to_load_from is not None:
        raise NotImplementedError("minitf cannot load embeddings from a checkpoint; assign "
                                  "the DenseFeatures layer's weights instead.")
    if initializer is not None and not callable(initializer):
        raise ValueError(f"initializer must be callable if specified. Embedding of column_name: "
                         f"{categorical_column.name}")
    if not isinstance(categorical_column, base.CategoricalColumn):
        raise ValueError("Unsupported input type. Input must be a CategoricalColumn. "
                         f"Given: {categorical_column}")
    return EmbeddingColumn(categorical_column, dimension, combiner,
                           initializer or _default_initializer(dimension), ckpt_to_load_from,
                           tensor_name_in_ckpt, max_norm, trainable, use_safe_embedding_lookup)
