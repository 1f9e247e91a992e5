"""`tf.random_normal_initializer` and `tf.random_uniform_initializer`: TF's own random
initializers (TensorFlow's `init_ops_v2.py`), outside Keras.

With a `seed`, every call draws from the stateless op with seed [seed, 0], so
the same initializer gives the same tensor each time; without one, each call
draws from the stateful `tf.random.normal`/`uniform` (TF's seed rules).

>>> init = tf.random_normal_initializer(stddev=1.0, seed=3)
>>> bool(tf.reduce_all(init([2, 2]) == init([2, 2])))       # seeded: repeats
True
>>> tf.random_uniform_initializer(0, 10)([3], dtype=tf.int32).dtype
tf.int32
"""
from ..framework import dtypes
from ..framework.tf_export import tf_export
from . import random_ops
from .init_ops import Initializer

_PARTITION_KEYS = ("partition_shape", "partition_offset")


def _check_kwargs(kwargs):
    for key in kwargs:
        if key not in _PARTITION_KEYS:
            raise TypeError(f"Keyword argument should be one of {list(_PARTITION_KEYS)}. "
                            f"Received: {key}")
    return kwargs.get("partition_shape")


@tf_export("random_normal_initializer")
class RandomNormal(Initializer):
    """Normal draws with `mean` and `stddev` (default 0.0 and 0.05); float dtypes only.

    >>> tf.random_normal_initializer(seed=1)([2, 3]).shape
    TensorShape([2, 3])
    """

    def __init__(self, mean=0.0, stddev=0.05, seed=None):
        self.mean, self.stddev, self.seed = mean, stddev, seed

    def __call__(self, shape, dtype=dtypes.float32, **kwargs):
        shape = _check_kwargs(kwargs) or shape
        dtype = dtypes.as_dtype(dtype)
        if not dtype.is_floating:
            raise ValueError("Argument `dtype` is expected to be floating point. "
                             f"Received: {dtype}.")
        if self.seed is not None:
            return random_ops.stateless_normal(shape, [self.seed, 0], self.mean, self.stddev,
                                               dtype)
        return random_ops.normal(shape, self.mean, self.stddev, dtype)

    def get_config(self):
        return {"mean": self.mean, "stddev": self.stddev, "seed": self.seed}


@tf_export("random_uniform_initializer")
class RandomUniform(Initializer):
    """Uniform draws in [minval, maxval) (default -0.05 and 0.05); float or int dtypes.

    >>> tf.random_uniform_initializer(-1.0, 1.0, seed=2)([4]).shape
    TensorShape([4])
    """

    def __init__(self, minval=-0.05, maxval=0.05, seed=None):
        self.minval, self.maxval, self.seed = minval, maxval, seed

    def __call__(self, shape, dtype=dtypes.float32, **kwargs):
        shape = _check_kwargs(kwargs) or shape
        dtype = dtypes.as_dtype(dtype)
        if not dtype.is_floating and not dtype.is_integer:
            raise ValueError("Argument `dtype` expected to be numeric or boolean. "
                             f"Received {dtype}.")
        if self.seed is not None:
            return random_ops.stateless_uniform(shape, [self.seed, 0], self.minval, self.maxval,
                                                dtype)
        return random_ops.uniform(shape, self.minval, self.maxval, dtype)

    def get_config(self):
        return {"minval": self.minval, "maxval": self.maxval, "seed": self.seed}
