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
from ..framework.tf_export import tf_export
from . import random_ops
from .nn_layer_ops import _dropout


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
