"""`tf.keras.layers.Masking`: mark the padding steps of a sequence of vectors.

A step whose features all equal `mask_value` is padding: its output is zeros
and its mask entry False, so the layers downstream (an RNN, a masked average)
skip it (see keras/engine/masking.py for how masks travel).

>>> import minitf as tf
>>> steps = tf.constant([[[1.0, 2.0], [0.0, 0.0], [3.0, 0.0]]])
>>> masked = tf.keras.layers.Masking(mask_value=0.0)(steps)
>>> masked._keras_mask.numpy()
array([[ True, False,  True]])
"""
import minitf as tf

from ...framework.tf_export import tf_export
from ..engine.base_layer import Layer


@tf_export("keras.layers.Masking")
class Masking(Layer):
    """Steps equal to `mask_value` in every feature are masked (and zeroed)."""

    def __init__(self, mask_value=0.0, **kwargs):
        super().__init__(**kwargs)
        self.mask_value = mask_value
        self.supports_masking = True
        self.built = True  # no weights: built from the start, as in Keras 3

    def compute_mask(self, inputs, mask=None):
        return tf.reduce_any(tf.not_equal(inputs, self.mask_value), axis=-1)

    def call(self, inputs):
        real = self.compute_mask(inputs)
        return inputs * tf.cast(tf.expand_dims(real, -1), inputs.dtype)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        return {**super().get_config(), "mask_value": self.mask_value}
