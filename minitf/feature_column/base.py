"""What every feature column shares: reading its key out of a batch, and ids.

A feature column is a small, immutable description (a namedtuple, as in
TensorFlow) of how one raw column of a table becomes model input. There are
two kinds:

- a *dense* column (`numeric_column`, `bucketized_column`, `indicator_column`,
  `embedding_column`) turns the batch into a float tensor
  `[batch] + variable_shape` with `get_dense_tensor(features)`;
- a *categorical* column (`..._with_vocabulary_list`, `..._with_hash_bucket`,
  `..._with_identity`, `crossed_column`, and `bucketized_column` too) turns
  it into integer ids in `[0, num_buckets)` with `get_ids(features)`.

>>> import minitf as tf
>>> color = tf.feature_column.categorical_column_with_vocabulary_list("color", ["r", "g"])
>>> color.get_ids({"color": tf.constant(["g", "r", "?"])}).numpy()
array([[ 1],
       [ 0],
       [-1]])

In TensorFlow ids travel as a `tf.SparseTensor` (rows may hold different
numbers of values). minitf keeps them dense, `[batch, values_per_row]`, with
-1 marking "no value" (TF's missing-value convention: `""` for strings, -1 for
ints, and an unknown word without OOV buckets) - the same numbers, without
SparseTensor.
"""
import minitf as tf

from ..framework import dtypes, errors
from ..framework.deprecation import deprecated

# TF 2.21 logs this on the first call of each tf.feature_column function.
DEPRECATION_INSTRUCTIONS = (
    "Use Keras preprocessing layers instead, either directly or via the "
    "`tf.keras.utils.FeatureSpace` utility. Each of `tf.feature_column.*` has a functional "
    "equivalent in `tf.keras.layers` for feature preprocessing when training a Keras model.")
CROSSED_INSTRUCTIONS = (
    "Use `tf.keras.layers.experimental.preprocessing.HashedCrossing` instead for feature "
    "crossing when preprocessing data to train a Keras model.")
deprecated_column = deprecated(None, DEPRECATION_INSTRUCTIONS)
deprecated_cross = deprecated(None, CROSSED_INSTRUCTIONS)


class FeatureColumn:
    """Base of all feature columns; `name` names the column (and its output slice)."""

    @property
    def parents(self):
        """The columns (or raw keys) this column is computed from."""
        return []


class DenseColumn(FeatureColumn):
    """A column that becomes a float tensor of shape `[batch] + variable_shape`."""

    def create_state(self, state_manager):
        """Make this column's variables (only `embedding_column` has any)."""


class CategoricalColumn(FeatureColumn):
    """A column that becomes int64 ids in `[0, num_buckets)`; -1 marks 'no value'."""


def get_feature(features, key):
    """`features[key]` as a rank>=2 tensor `[batch, ...]`, or TF's ValueError if missing."""
    if key not in features:
        raise ValueError(f"Feature {key} is not in features dictionary. The dict passed "
                         f"has keys {sorted(features)}; every column's key must be one of them.")
    value = tf.convert_to_tensor(features[key])
    if value.shape.rank == 0:
        raise ValueError(f"Feature (key: {key}) cannot have rank 0. Give the key a batch "
                         "dimension: a list of values, one per example.")
    if value.shape.rank == 1:
        value = tf.expand_dims(value, -1)
    return value


def flatten_rows(ids):
    """Ids `[batch, d1, d2, ...]` -> `[batch, d1*d2*...]`: all of a row's values in one axis."""
    if ids.shape.rank == 2:
        return ids
    return tf.reshape(ids, [-1, int(ids.shape[1:].num_elements())])


def string_or_int(value, key):
    """TF's check that a categorical input holds strings or integers."""
    if value.dtype != dtypes.string and not value.dtype.is_integer:
        raise ValueError(f"column_name: {key} input_tensor dtype must be string or integer. "
                         f"dtype: {value.dtype}. Categorical columns take words or integer "
                         "codes; feed numbers to numeric_column instead.")


def string_to_number_error(key, dtype):
    """TF's error for casting a string feature to a numeric column's dtype."""
    c_name = {"float32": "float", "float64": "double"}.get(dtype.name, dtype.name)
    return errors.UnimplementedError(
        None, "Cast", f"Cast string to {c_name} is not supported [Op:Cast] Feature {key!r} "
        "holds strings but its column is numeric; parse them with tf.strings.to_number "
        "first, or use a categorical column.")
