"""`DataLayer`: the base of the preprocessing layers that take one input of raw data.

A Python list such as `[["A"], ["B"]]` is *one* input here (a column of
strings), not a structure of many inputs, so it becomes one tensor before
the layer runs; and the input keeps its dtype (ids and strings are not cast
to the layer's float dtype). Otherwise it is an ordinary `Layer`: it runs
eagerly, inside a model, and inside `tf.data.Dataset.map` (traced).

>>> import minitf as tf
>>> class Double(DataLayer):
...     def call(self, inputs):
...         return inputs * 2
>>> Double()([[1], [2]]).numpy().ravel()
array([2, 4], dtype=int32)

In TensorFlow this is `keras/src/layers/preprocessing/data_layer.py`, whose
main job there is running the layer's ops with the TensorFlow backend inside
a `tf.data` pipeline whatever the Keras backend (minitf has only one).
"""
import minitf as tf

from ....framework.tensor import Tensor
from ...engine.base_layer import Layer
from ...engine.keras_tensor import KerasTensor


class DataLayer(Layer):
    """A layer of one raw-data input: lists become one tensor; dtypes are kept."""

    _allow_non_tensor_positional_args = True  # raw data (lists, strings) in, as Keras 3

    def __call__(self, inputs=None, *args, **kwargs):
        if isinstance(inputs, (list, tuple)) and not any(
                isinstance(x, KerasTensor) for x in tf.nest.flatten(inputs)):
            inputs = tf.convert_to_tensor(inputs)
        return super().__call__(inputs, *args, **kwargs)

    def _convert_input(self, x):
        if x is None or isinstance(x, (KerasTensor, Tensor)):
            return x
        return tf.convert_to_tensor(x)
