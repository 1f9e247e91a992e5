"""`Pipeline`: several preprocessing layers applied in order, as one layer.

Unlike `Sequential` it is not a model: it has no input shape and no
`fit`, so it suits `tf.data.Dataset.map` (one object to map) and a model's
first layer alike. The `training` flag reaches every layer; like the image
layers, `Pipeline.call` takes `training=True` by default.

>>> import minitf as tf
>>> augment = tf.keras.layers.Pipeline([
...     tf.keras.layers.RandomFlip("horizontal", seed=1),
...     tf.keras.layers.Rescaling(1 / 255)])
>>> augment(tf.fill([1, 2, 2, 1], 255.0), training=False)[0, ..., 0].numpy()
array([[1., 1.],
       [1., 1.]], dtype=float32)
>>> [type(layer).__name__ for layer in augment.layers]
['RandomFlip', 'Rescaling']

In Keras this is `keras/src/layers/preprocessing/pipeline.py`; minitf passes
no masks along (none of its preprocessing layers makes one).
"""
from ....framework.tf_export import tf_export
from ...engine.base_layer import Layer
from ...saving.serialization_api import deserialize_keras_object, serialize_keras_object


@tf_export("keras.layers.Pipeline")
class Pipeline(Layer):
    """Apply `layers` one after the other."""

    _allow_non_tensor_positional_args = True  # raw data (lists, strings) in, as Keras 3

    def __init__(self, layers, name=None):
        super().__init__(name=name)
        self._pipeline_layers = layers

    @property
    def layers(self):
        return self._pipeline_layers

    def call(self, inputs, training=True):
        for layer in self._pipeline_layers:
            inputs = layer(inputs, training=training)
        return inputs

    def compute_output_shape(self, input_shape):
        for layer in self._pipeline_layers:
            input_shape = layer.compute_output_shape(input_shape)
        return input_shape

    @classmethod
    def from_config(cls, config):
        layers = config.get("layers")
        if not isinstance(layers, (list, tuple)):
            raise ValueError("`Pipeline` config must contain a `layers` key mapping to a list of "
                             f"serialized layers. Received config with layers={layers}.")
        config = {**config, "layers": [deserialize_keras_object(x) for x in layers]}
        return cls(**config)

    def get_config(self):
        return {"layers": serialize_keras_object(self._pipeline_layers), "name": self.name}
