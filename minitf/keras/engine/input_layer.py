"""`tf.keras.Input` and `InputLayer`: where a functional model's graph begins.

`Input(shape)` returns a symbolic KerasTensor whose first axis (the batch)
is left open (None). It is produced by an `InputLayer`, a layer with no
weights and no computation, so every KerasTensor in a model - inputs too -
has a layer that made it.

>>> import minitf as tf
>>> x = tf.keras.Input(shape=(28, 28), name="image")
>>> x
<KerasTensor shape=(None, 28, 28), dtype=float32, sparse=False, ragged=False, name=image>
>>> x._keras_history.operation
<InputLayer name=image, built=True>
"""
from ...framework.tf_export import tf_export
from .. import backend
from .base_layer import Layer
from .keras_tensor import KerasTensor, Node


@tf_export("keras.layers.InputLayer", "keras.InputLayer")
class InputLayer(Layer):
    """The layer behind `Input`: `shape` without the batch axis, or the full `batch_shape`."""

    def __init__(self, shape=None, batch_size=None, dtype=None, sparse=None, ragged=None,
                 batch_shape=None, input_tensor=None, optional=False, name=None, **kwargs):
        input_shape = kwargs.pop("input_shape", None)  # classic tf.keras spelling
        batch_shape = kwargs.pop("batch_input_shape", batch_shape)
        if input_shape is not None:
            shape = input_shape
        if kwargs:
            raise ValueError(f"Unrecognized keyword arguments: {list(kwargs)}")
        if ragged:
            raise ValueError("minitf's Keras layers do not take RaggedTensors yet, so "
                             "`ragged=True` is not supported (pad the sequences to one length "
                             "instead, e.g. with tf.keras.utils.pad_sequences, or "
                             "rt.to_tensor() in a Dataset.map).")
        if shape is not None and batch_shape is not None:
            raise ValueError("You cannot pass both `shape` and `batch_shape` at the same "
                             "time. `shape` leaves out the batch axis; `batch_shape` "
                             "includes it.")
        if batch_size is not None and batch_shape is not None:
            raise ValueError("You cannot pass both `batch_size` and `batch_shape` at the "
                             "same time.")
        if shape is None and batch_shape is None and input_tensor is None:
            raise ValueError("You must pass a `shape` argument. For example "
                             "tf.keras.Input(shape=(3,)) for vectors of 3 numbers.")
        super().__init__(name=name or backend._unique_name("input_layer"))
        if input_tensor is not None:
            batch_shape = input_tensor.shape
        elif shape is not None:
            if isinstance(shape, (dict, str)):
                from .keras_tensor import _as_shape
                _as_shape((shape,), shown=shape)  # TF's "Cannot convert ... to a shape" with a hint
            shape = (shape,) if isinstance(shape, int) else tuple(shape)
            batch_shape = (batch_size,) + shape
        self._batch_shape = tuple(batch_shape)
        self._dtype = str(getattr(dtype, "name", dtype) or backend.floatx())
        self.sparse = bool(sparse)
        self.optional = optional
        self.built = True
        output = input_tensor if input_tensor is not None else KerasTensor(
            self._batch_shape, self._dtype, sparse=self.sparse,
            name=name)  # unnamed: 'keras_tensor_N', as Keras
        self._input_tensor = output
        Node(self, (), {}, output)

    @property
    def batch_shape(self):
        return self._batch_shape

    @property
    def dtype(self):
        return self._dtype

    def call(self):
        return self._input_tensor

    def get_config(self):
        return {"batch_shape": self._batch_shape, "dtype": self._dtype, "sparse": self.sparse,
                "ragged": False, "name": self.name, "optional": self.optional}


@tf_export("keras.Input", "keras.layers.Input")
def Input(shape=None, batch_size=None, dtype=None, sparse=None, ragged=None, batch_shape=None,
          name=None, tensor=None, optional=False, **kwargs):  # noqa: N802 - Keras's name
    """A symbolic input of a functional model: `shape` excludes the batch axis.

    >>> tf.keras.Input((3,), batch_size=8).shape
    (8, 3)
    """
    layer = InputLayer(shape=shape, batch_size=batch_size, dtype=dtype, sparse=sparse,
                       ragged=ragged, batch_shape=batch_shape, name=name, input_tensor=tensor,
                       optional=optional, **kwargs)
    return layer.output
