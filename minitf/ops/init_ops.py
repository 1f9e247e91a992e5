"""`tf.constant_initializer`, `tf.zeros_initializer`, `tf.ones_initializer`: TF's own
initializers (TensorFlow's `init_ops_v2.py`), outside Keras.

They are callables `initializer(shape, dtype=None)` like the Keras ones, so a
Keras layer accepts them (`Dense(3, kernel_initializer=tf.constant_initializer(w))`),
but `tf.constant_initializer` follows `tf.constant`, not `keras.initializers.Constant`:
a value with as many elements as the shape is REshaped to it, a scalar fills
it, anything else is a `TypeError`; and without a `dtype` the value keeps its
own (Python ints give int32).

>>> init = tf.constant_initializer([1, 2, 3, 4, 5, 6])
>>> init(shape=(2, 3))
<tf.Tensor: shape=(2, 3), dtype=int32, numpy=
array([[1, 2, 3],
       [4, 5, 6]], dtype=int32)>
>>> init(shape=(3, 2), dtype=tf.float32).numpy()[2]
array([5., 6.], dtype=float32)
"""
import numpy as np

from ..framework import dtypes
from ..framework.tensor import Tensor
from ..framework.tf_export import tf_export
from .creation_ops import constant, ones, zeros


class Initializer:
    """Base of TF's initializers: `__call__(shape, dtype=None)`, `get_config`, `from_config`."""

    def __call__(self, shape, dtype=None, **kwargs):
        raise NotImplementedError("An initializer returns a tensor of `shape` from `__call__`.")

    def get_config(self):
        return {}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


@tf_export("constant_initializer")
class Constant(Initializer):
    """Initializer that makes tensors with the constant `value` (`tf.constant(value, dtype,
    shape)`).

    >>> tf.constant_initializer(2.0)(shape=[2]).numpy()
    array([2., 2.], dtype=float32)
    """

    def __init__(self, value=0, support_partition=False):
        if not (np.isscalar(value) or isinstance(value, (list, tuple, np.ndarray, Tensor))):
            raise TypeError(f"Invalid type for initial value: {type(value).__name__} (expected "
                            "Python scalar, list or tuple of values, or numpy.ndarray).")
        self.value = value
        self.support_partition = support_partition

    def __call__(self, shape, dtype=None, **kwargs):
        dtype = None if dtype is None else dtypes.as_dtype(dtype)
        return constant(self.value, dtype=dtype, shape=shape)

    def get_config(self):
        return {"value": self.value}


@tf_export("zeros_initializer")
class Zeros(Initializer):
    """Initializer that makes tensors of zeros (float32 unless `dtype` says otherwise).

    >>> tf.zeros_initializer()(shape=[2], dtype=tf.int32).numpy()
    array([0, 0], dtype=int32)
    """

    def __call__(self, shape, dtype=dtypes.float32, **kwargs):
        return zeros(shape, dtypes.as_dtype(dtype))


@tf_export("ones_initializer")
class Ones(Initializer):
    """Initializer that makes tensors of ones (float32 unless `dtype` says otherwise).

    >>> tf.ones_initializer()(shape=[2]).numpy()
    array([1., 1.], dtype=float32)
    """

    def __call__(self, shape, dtype=dtypes.float32, **kwargs):
        return ones(shape, dtypes.as_dtype(dtype))
