"""`Rescaling`: `inputs * scale + offset`, e.g. pixels 0..255 to 0..1 (`scale=1/255`).

>>> import minitf as tf
>>> tf.keras.layers.Rescaling(1 / 255)(tf.constant([[0, 255]])).numpy()
array([[0., 1.]], dtype=float32)
>>> tf.keras.layers.Rescaling(1 / 127.5, offset=-1)(tf.constant([0., 255.])).numpy()
array([-1.,  1.], dtype=float32)

`scale` and `offset` may be arrays too (one per channel, broadcast against
the last axis). Integer inputs become the layer's float dtype first. In
TensorFlow this is `keras/src/layers/preprocessing/rescaling.py`.
"""
import numpy as np

import minitf as tf

from ....framework.tf_export import tf_export
from ...engine.base_layer import Layer


def _serialize(value):
    """A scale/offset as Keras writes it: a number, or an array as a `__numpy__` config."""
    if isinstance(value, np.ndarray):
        return {"class_name": "__numpy__",
                "config": {"value": value.tolist(), "dtype": value.dtype.name}}
    if isinstance(value, np.generic):
        return value.item()
    return value


def _deserialize(value):
    if isinstance(value, dict) and value.get("class_name") == "__numpy__":
        config = value.get("config") or {}
        return np.asarray(config.get("value"), dtype=config.get("dtype", "float32"))
    return value


@tf_export("keras.layers.Rescaling")
class Rescaling(Layer):
    """Multiply the inputs by `scale`, then add `offset`."""

    _allow_non_tensor_positional_args = True  # raw data (lists, strings) in, as Keras 3

    def __init__(self, scale, offset=0.0, **kwargs):
        super().__init__(**kwargs)
        self.scale, self.offset = scale, offset
        self.supports_masking = True

    def call(self, inputs):
        dtype = self.compute_dtype
        scale = tf.cast(self.scale, dtype)
        offset = tf.cast(self.offset, dtype)
        return tf.cast(inputs, dtype) * scale + offset

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        config = super().get_config()
        config.update({"scale": _serialize(self.scale), "offset": _serialize(self.offset)})
        return config

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        config["scale"] = _deserialize(config["scale"])
        config["offset"] = _deserialize(config["offset"])
        return cls(**config)
