"""`DenseFeatures`: a dict of raw feature columns -> one dense tensor for the model.

Each feature column turns its part of the batch into a `[batch, n]` float
tensor; the layer concatenates them in the order of the columns' names
(sorted, as TensorFlow does, so the order you list them in does not matter):

>>> import minitf as tf
>>> fc = tf.feature_column
>>> columns = [fc.numeric_column("size"),
...            fc.indicator_column(fc.categorical_column_with_vocabulary_list("kind", ["a", "b"]))]
>>> layer = tf.keras.layers.DenseFeatures(columns)
>>> layer({"size": [1.5, 2.0], "kind": ["b", "a"]}).numpy()   # kind_indicator | size
array([[0. , 1. , 1.5],
       [1. , 0. , 2. ]], dtype=float32)

Embedding columns keep their tables as this layer's trainable weights.
In TensorFlow 2.21, `DenseFeatures` lives in the legacy `tf_keras` package
(Keras 3 replaced feature columns with preprocessing layers); minitf keeps
it as `tf.keras.layers.DenseFeatures`.
"""
import numpy as np

import minitf as tf

from ...feature_column import base
from ...framework.tf_export import tf_export
from ..engine.base_layer import Layer


class _LayerStateManager:
    """Gives feature columns a place for their variables: weights of the layer."""

    def __init__(self, layer):
        self._layer = layer
        self._variables = {}

    def create_variable(self, feature_column, name, shape, dtype=None, trainable=True,
                        initializer=None):
        variable = self._layer.add_weight(name=f"{feature_column.name}/{name}", shape=shape,
                                          dtype=dtype, initializer=initializer,
                                          trainable=trainable)
        self._variables[(feature_column.name, name)] = variable
        return variable

    def get_variable(self, feature_column, name):
        return self._variables[(feature_column.name, name)]


@tf_export("keras.layers.DenseFeatures")
class DenseFeatures(Layer):
    """A layer that produces a dense tensor from a dict of features, given feature columns.

    `feature_columns` must all be dense columns (`numeric_column`,
    `bucketized_column`, `indicator_column`, `embedding_column`); wrap a
    categorical column in `indicator_column` or `embedding_column` first.
    """

    def __init__(self, feature_columns, trainable=True, name=None, **kwargs):
        super().__init__(trainable=trainable, name=name, **kwargs)
        columns = list(feature_columns) if isinstance(feature_columns, (list, tuple)) \
            else [feature_columns]
        if not columns:
            raise ValueError("feature_columns must not be empty.")
        for column in columns:
            if not isinstance(column, base.DenseColumn):
                raise ValueError("Items of feature_columns must be a DenseColumn. You can wrap a "
                                 "categorical column with an embedding_column or "
                                 f"indicator_column. Given: {column}")
        self._feature_columns = sorted(columns, key=lambda c: c.name)
        for a, b in zip(self._feature_columns, self._feature_columns[1:]):
            if a.name == b.name:
                raise ValueError(f"Duplicate feature column name found for columns: {a} and "
                                 f"{b}. This usually means that these columns refer to same "
                                 "base feature. Either one must be discarded or a duplicated "
                                 "but renamed item must be inserted in features dict.")
        self._state_manager = _LayerStateManager(self)

    def __call__(self, features, *args, **kwargs):
        if isinstance(features, dict):  # lists of values -> tensors (Keras would split lists)
            features = {k: tf.convert_to_tensor(v) if isinstance(v, (list, tuple, np.ndarray))
                        else v for k, v in features.items()}
        return super().__call__(features, *args, **kwargs)

    def build(self, input_shape):
        for column in self._feature_columns:
            column.create_state(self._state_manager)
        self.built = True

    def call(self, features, cols_to_output_tensors=None, training=None):
        """`[batch, sum of the columns' widths]` float32."""
        if not isinstance(features, dict):
            raise ValueError(f"We expected a dictionary here. Instead we got: {features}")
        outputs = []
        for column in self._feature_columns:
            tensor = column.get_dense_tensor(features, self._state_manager)
            tensor = tf.reshape(tensor, [-1, int(column.variable_shape.num_elements())])
            outputs.append(tensor)
            if cols_to_output_tensors is not None:
                cols_to_output_tensors[column] = tensor
        return tf.concat(outputs, axis=1)

    def compute_output_shape(self, input_shape):
        width = sum(int(c.variable_shape.num_elements()) for c in self._feature_columns)
        batch = next(iter(input_shape.values()))[0] if isinstance(input_shape, dict) else None
        return (batch, width)
