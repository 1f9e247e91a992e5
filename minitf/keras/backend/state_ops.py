"""`tf.keras.backend` variables, constants, shapes, dtypes and random tensors.

In Keras 1/2 a "backend variable" was a `tf.Variable` and `get_value` read it
into NumPy; Keras 3 keeps these names for old code. `variable`, `zeros`,
`ones` and `eye` return `tf.Variable`s in floatx (`zeros`/`ones` of a shape
with a 0 give a plain tensor); `constant` defaults to floatx too, unlike
`tf.constant`. `get_value`/`batch_get_value` give NumPy arrays, `set_value`
casts the new value to the variable's dtype, and `update*` assign in place.

>>> import minitf as tf
>>> K = tf.keras.backend
>>> v = K.variable([1, 2])
>>> v.dtype, K.int_shape(v), K.count_params(v)
(tf.float32, (2,), 2)
>>> K.set_value(v, [5, 6]); K.get_value(v)
array([5., 6.], dtype=float32)
>>> K.moving_average_update(v, [1.0, 2.0], momentum=0.5).numpy()
array([3., 4.], dtype=float32)
"""
import math

import numpy as np

import minitf as tf

from ...framework.tf_export import tf_export
from ..engine import keras_tensor as _keras_tensor
from ..ops.dtype_rules import standardize_dtype
from ..utils.general_utils import is_keras_tensor
from . import _SETTINGS

tf_export("keras.backend.is_keras_tensor")(is_keras_tensor)


def _floatx(dtype):
    return _SETTINGS["floatx"] if dtype is None else dtype


def _seed(seed):
    """Keras draws a seed from NumPy's global generator when none is given."""
    return np.random.randint(10e6) if seed is None else seed


@tf_export("keras.backend.backend")
def backend():
    """The name of the backend Keras runs on: 'tensorflow'."""
    return "tensorflow"


@tf_export("keras.backend.is_float_dtype")
def is_float_dtype(dtype):
    """True for float16/32/64 and bfloat16 (after `standardize_dtype`)."""
    dtype = standardize_dtype(dtype)
    return dtype.startswith("float") or dtype.startswith("bfloat")


@tf_export("keras.backend.is_int_dtype")
def is_int_dtype(dtype):
    """True for int8..int64 and uint8..uint64 (after `standardize_dtype`)."""
    dtype = standardize_dtype(dtype)
    return dtype.startswith("int") or dtype.startswith("uint")


@tf_export("keras.backend.variable")
def variable(value, dtype=None, name=None, constraint=None):
    """A `tf.Variable` holding `value`, in floatx unless `dtype` is given."""
    return tf.Variable(value, dtype=tf.as_dtype(_floatx(dtype)), name=name,
                       constraint=constraint)


@tf_export("keras.backend.constant")
def constant(value, dtype=None, shape=None, name=None):
    """`tf.constant`, but in floatx unless `dtype` is given."""
    return tf.constant(value, dtype=_floatx(dtype), shape=shape, name=name)


def _filled(fill, shape, dtype, name):
    value = fill(shape=shape, dtype=tf.as_dtype(_floatx(dtype)), name=name)
    if all(value.shape.as_list()):
        return variable(value, dtype=_floatx(dtype), name=name)
    return value


@tf_export("keras.backend.zeros")
def zeros(shape, dtype=None, name=None):
    """A variable of zeros (a plain tensor when a dimension is 0)."""
    return _filled(tf.zeros, shape, dtype, name)


@tf_export("keras.backend.ones")
def ones(shape, dtype=None, name=None):
    """A variable of ones (a plain tensor when a dimension is 0)."""
    return _filled(tf.ones, shape, dtype, name)


@tf_export("keras.backend.eye")
def eye(size, dtype=None, name=None):
    """A variable holding the size x size identity matrix."""
    return variable(tf.eye(size, dtype=tf.as_dtype(_floatx(dtype))), _floatx(dtype), name)


@tf_export("keras.backend.zeros_like")
def zeros_like(x, dtype=None, name=None):
    """Zeros shaped like x (tf.zeros_like)."""
    return tf.zeros_like(x, dtype=dtype, name=name)


@tf_export("keras.backend.ones_like")
def ones_like(x, dtype=None, name=None):
    """Ones shaped like x (tf.ones_like)."""
    return tf.ones_like(x, dtype=dtype, name=name)


@tf_export("keras.backend.get_value")
def get_value(x):
    """The NumPy value of a tensor or variable; anything else is returned as is."""
    return x.numpy() if tf.is_tensor(x) or isinstance(x, tf.Variable) else x


@tf_export("keras.backend.batch_get_value")
def batch_get_value(tensors):
    """`[x.numpy() for x in tensors]`."""
    return [x.numpy() for x in tensors]


@tf_export("keras.backend.set_value")
def set_value(x, value):
    """Assign `value`, cast to the variable's dtype, to variable `x`."""
    x.assign(np.asarray(value, dtype=x.dtype.name))


@tf_export("keras.backend.batch_set_value")
def batch_set_value(tuples):
    """`set_value(x, value)` for each `(x, value)` pair."""
    for x, value in tuples:
        set_value(x, value)


@tf_export("keras.backend.update")
def update(x, new_x):
    """x.assign(new_x); returns the variable."""
    return x.assign(new_x)


@tf_export("keras.backend.update_add")
def update_add(x, increment):
    """x.assign_add(increment); returns the variable."""
    return x.assign_add(increment)


@tf_export("keras.backend.update_sub")
def update_sub(x, decrement):
    """x.assign_sub(decrement); returns the variable."""
    return x.assign_sub(decrement)


@tf_export("keras.backend.moving_average_update")
def moving_average_update(x, value, momentum):
    """x = momentum * x + (1 - momentum) * value, in place (as x -= (x - value)(1 - m))."""
    momentum = tf.cast(momentum, x.dtype)
    value = tf.cast(value, x.dtype)
    return x.assign_sub((x - value) * (1 - momentum))


@tf_export("keras.backend.count_params")
def count_params(x):
    """The number of entries of x (the product of its static shape)."""
    return math.prod(x.shape.as_list())


@tf_export("keras.backend.int_shape")
def int_shape(x):
    """The static shape as a tuple of ints (None for unknown dimensions)."""
    try:
        shape = x.shape
        return shape if isinstance(shape, tuple) else tuple(shape.as_list())
    except ValueError:
        return None


@tf_export("keras.backend.ndim")
def ndim(x):
    """The rank of x (its number of axes)."""
    shape = x.shape
    return len(shape) if isinstance(shape, tuple) else shape.rank


@tf_export("keras.backend.shape")
def shape(x):
    """The dynamic shape of x as an int32 tensor (tf.shape)."""
    return tf.shape(x)


@tf_export("keras.backend.dtype")
def dtype(x):
    """The dtype name of x: 'float32', 'int64', ..."""
    return x.dtype.base_dtype.name


@tf_export("keras.backend.cast")
def cast(x, dtype):
    """tf.cast(x, dtype)."""
    return tf.cast(x, dtype)


@tf_export("keras.backend.cast_to_floatx")
def cast_to_floatx(x):
    """Tensors are cast to floatx; anything else becomes a NumPy array in floatx."""
    if isinstance(x, (tf.Tensor, tf.Variable, tf.SparseTensor)):
        return tf.cast(x, dtype=_SETTINGS["floatx"])
    return np.asarray(x, dtype=_SETTINGS["floatx"])


@tf_export("keras.backend.is_sparse")
def is_sparse(tensor):
    """True for a tf.SparseTensor."""
    return isinstance(tensor, tf.SparseTensor)


@tf_export("keras.backend.to_dense")
def to_dense(tensor):
    """A SparseTensor made dense; anything else as is."""
    return tf.sparse.to_dense(tensor) if is_sparse(tensor) else tensor


@tf_export("keras.backend.eval")
def eval(x):
    """The NumPy value of x (dense)."""
    return get_value(to_dense(x))


@tf_export("keras.backend.name_scope")
def name_scope(name):
    """tf.name_scope(name), for `with K.name_scope('block'):`."""
    return tf.name_scope(name)


@tf_export("keras.backend.random_normal")
def random_normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    """Normal samples in floatx; a fixed `seed` gives the same draw sequence each run."""
    return tf.random.normal(shape, mean=mean, stddev=stddev, dtype=_floatx(dtype),
                            seed=_seed(seed))


@tf_export("keras.backend.random_uniform")
def random_uniform(shape, minval=0.0, maxval=1.0, dtype=None, seed=None):
    """Uniform samples in [minval, maxval), in floatx."""
    return tf.random.uniform(shape, minval=minval, maxval=maxval, dtype=_floatx(dtype),
                             seed=_seed(seed))


@tf_export("keras.backend.truncated_normal")
def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    """Normal samples redrawn when more than 2 stddev from the mean."""
    return tf.random.truncated_normal(shape, mean, stddev, dtype=_floatx(dtype),
                                      seed=_seed(seed))


@tf_export("keras.backend.random_bernoulli")
def random_bernoulli(shape, p=0.0, dtype=None, seed=None):
    """1 with probability p, else 0, in floatx."""
    dtype = _floatx(dtype)
    draw = tf.random.uniform(shape, dtype=dtype, seed=_seed(seed))
    return tf.where(draw <= p, tf.ones(shape, dtype=dtype), tf.zeros(shape, dtype=dtype))


@tf_export("keras.backend.random_normal_variable")
def random_normal_variable(shape, mean, scale, dtype=None, name=None, seed=None):
    """A variable of normal samples (mean, stddev=scale)."""
    value = tf.random.normal(shape, mean, scale, dtype=_floatx(dtype), seed=_seed(seed))
    return variable(value, dtype=_floatx(dtype), name=name)


@tf_export("keras.backend.random_uniform_variable")
def random_uniform_variable(shape, low, high, dtype=None, name=None, seed=None):
    """A variable of uniform samples in [low, high)."""
    value = tf.random.uniform(shape, low, high, dtype=_floatx(dtype), seed=_seed(seed))
    return variable(value, dtype=_floatx(dtype), name=name)


del tf_export, _keras_tensor
