"""`tf.keras.Variable`: a `tf.Variable` that knows which layer owns it.

Keras 3 names a layer's weights plainly ('kernel', 'bias') and keeps the
owner in `path` ('dense/kernel'). Everything else - reading, `assign`,
gradients, optimizers - is the `tf.Variable` underneath.

>>> import minitf as tf
>>> v = tf.keras.Variable(tf.keras.initializers.Ones(), shape=(2,), name="scale")
>>> v.name, v.path, v.trainable
('scale', 'scale', True)
>>> v
<Variable path=scale, shape=(2,), dtype=float32, value=[1. 1.]>

In classic tf.keras (TF 2.15 and before) the same weight was named
'dense/kernel:0'; `path` is the Keras 3 spelling of that information.
"""
import numpy as np

from ..framework import dtypes
from ..framework.tf_export import tf_export
from ..framework.variables import Variable as _TFVariable


@tf_export("keras.Variable")
class Variable(_TFVariable):
    """A weight: `initializer` (callable `(shape, dtype)` or a value), `shape`, `dtype`."""

    def __init__(self, initializer, shape=None, dtype=None, trainable=True, autocast=True,
                 aggregation="none", synchronization="auto", name=None, constraint=None,
                 path=None):
        name = name or "variable"
        if callable(initializer):
            if shape is None:
                raise ValueError("When creating a Variable from an initializer, the `shape` "
                                 f"argument should be specified. Received: "
                                 f"initializer={initializer} and shape={shape}")
            dtype = dtypes.as_dtype(dtype or "float32")
            shape = tuple(shape)
            value = initializer(shape, dtype=dtype)
        else:
            value = initializer
        super().__init__(value, trainable=bool(trainable), name=name, dtype=dtype,
                         constraint=constraint)
        self._keras_name = name
        self._path = path or name
        self._autocast = autocast

    @property
    def name(self):
        """The weight's own name ('kernel'); see `path` for the owner."""
        return self._keras_name

    @property
    def path(self):
        """'layer_name/weight_name' (Keras 3)."""
        return self._path

    @property
    def trainable(self):
        return self._trainable

    @trainable.setter
    def trainable(self, value):
        self._trainable = bool(value)

    def __repr__(self):
        value = np.array2string(self._value) if self._value.ndim else str(self._value[()])
        return (f"<Variable path={self._path}, shape={tuple(self._value.shape)}, "
                f"dtype={self._dtype.name}, value={value}>")
