"""`tf.nn.experimental`: dropout whose mask comes from a stateless seed, or from any sampler.

`tf.nn.dropout` draws its mask from the global random state, so two calls differ.
`stateless_dropout(x, rate, seed=[a, b])` draws it from
`tf.random.stateless_uniform(noise_shape, seed)`: the same seed, the same mask, in
any program (minitf's stateless numbers are not TF's: see minitf/ops/random_ops.py).
`general_dropout` takes the sampler as an argument.

>>> import minitf as tf
>>> a = tf.nn.experimental.stateless_dropout(tf.ones([2, 3]), rate=0.5, seed=[1, 2])
>>> b = tf.nn.experimental.stateless_dropout(tf.ones([2, 3]), rate=0.5, seed=[1, 2])
>>> bool(tf.reduce_all(a == b)), sorted(set(a.numpy().ravel().tolist())) <= [0.0, 2.0]
(True, True)
"""
import numbers

from ..framework.tensor import convert_to_tensor
from ..framework.tf_export import tf_export
from . import random_ops
from .math_ops import cast, where
from .nn_layer_ops import _noise_shape


def _dropout(x, rate, noise_shape, uniform_sampler):
    """TF's _dropout: keep where sampler(noise_shape) >= rate, scaled by 1 / (1 - rate)."""
    is_rate_number = isinstance(rate, numbers.Real)
    if is_rate_number and (rate < 0 or rate >= 1):
        raise ValueError("`rate` must be a scalar tensor or a float in the range [0, 1). "
                         f"Received: rate={rate}")
    x = convert_to_tensor(x)
    if not x.dtype.is_floating:
        raise ValueError("`x.dtype` must be a floating point tensor as `x` will be scaled. "
                         f"Received: x_dtype=<dtype: '{x.dtype.name}'>")
    if is_rate_number and rate == 0:
        return x
    if is_rate_number:
        kept = x * convert_to_tensor(1 / (1 - rate), dtype=x.dtype)
    else:
        rate = cast(convert_to_tensor(rate), x.dtype)
        if rate.shape.rank != 0:
            raise ValueError(f"Shape {rate.shape} must have rank 0")
        kept = x / (1 - rate)
    keep = uniform_sampler(shape=_noise_shape(x, noise_shape), dtype=x.dtype) >= rate
    return where(keep, kept, convert_to_tensor(0, dtype=x.dtype))


@tf_export("nn.experimental.stateless_dropout")
def stateless_dropout(x, rate, seed, rng_alg=None, noise_shape=None, name=None):
    """Dropout with the mask `tf.random.stateless_uniform(noise_shape, seed) >= rate`;
    kept entries are scaled by 1 / (1 - rate). seed: a pair of ints.

    >>> y = tf.nn.experimental.stateless_dropout(tf.ones([4, 2]), 0.5, seed=[3, 4],
    ...                                          noise_shape=[4, 1])
    >>> bool(tf.reduce_all(y[:, 0] == y[:, 1]))           # one decision per row
    True
    """
    alg = "auto_select" if rng_alg is None else rng_alg

    def sampler(shape, dtype):
        return random_ops.stateless_uniform(shape, seed=seed, dtype=dtype, alg=alg)

    return _dropout(x, rate, noise_shape, sampler)


@tf_export("nn.experimental.general_dropout")
def general_dropout(x, rate, uniform_sampler, noise_shape=None, name=None):
    """Dropout with the mask `uniform_sampler(shape=noise_shape, dtype=x.dtype) >= rate`.

    >>> half = lambda shape, dtype: tf.fill(shape, tf.constant(0.5, dtype))
    >>> tf.nn.experimental.general_dropout(tf.ones([3]), 0.25, half).numpy()   # all kept
    array([1.3333334, 1.3333334, 1.3333334], dtype=float32)
    """
    return _dropout(x, rate, noise_shape, uniform_sampler)
