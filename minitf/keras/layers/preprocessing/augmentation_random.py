"""Random draws for augmentation layers whose batch size is known only when the graph runs.

Inside `fit` or `Dataset.map` a batch has shape `[None, ...]`, and minitf's
`tf.random.stateless_*` ops want a shape known while tracing. These draws
take the shape as a tensor, like `random_uniform` in image_preprocessing.py:
one NumPy kernel (`AugmentationDraw`) fed a seed from the layer's
`tf.random.Generator`, so a seeded layer repeats its draws.

* `random_beta(generator, shape, alpha)`: Beta(alpha, alpha) (MixUp, CutMix, AugMix);
* `random_normal(seed, shape)`: standard normal from a seed (`next_seed(generator)`) (RandomElasticTransform
  keeps the seed in its transformation, so the same transformation gives the same field);
* `random_permutation(generator, size)`: a shuffled `range(size)`.

>>> import minitf as tf
>>> g = tf.random.Generator.from_seed(1)
>>> sorted(random_permutation(g, 4).numpy().tolist())
[0, 1, 2, 3]
>>> float(tf.reduce_min(random_beta(g, [50], 0.5))) >= 0.0
True

In Keras these are `keras.random.beta`, `normal` and `shuffle` with a
SeedGenerator; the numbers here are minitf's, not Keras's.
"""
import numpy as np

import minitf as tf

from ....framework import dtypes
from ....framework.op import Op, apply
from ....framework.tensor_shape import TensorShape
from .image_preprocessing import random_uniform


def _draw_forward(shape, seed, alpha, distribution):
    rng = np.random.Generator(np.random.Philox(key=[int(k) % 2**64 for k in seed]))
    size = tuple(int(d) for d in shape)
    if distribution == "beta":
        return rng.beta(float(alpha), float(alpha), size=size).astype(np.float32)
    return rng.standard_normal(size=size).astype(np.float32)


AugmentationDraw = Op("AugmentationDraw", _draw_forward, typed=[], dtype=dtypes.float32,
                      stateful=True, shape=lambda shape, seed, alpha, **attrs:
                      TensorShape([None] * (shape[0] or 0)))


def _draw(seed, shape, alpha, distribution, dtype):
    static = [d if isinstance(d, int) else -1 for d in shape]
    shape = tf.cast(tf.stack(shape), tf.int32) if shape else tf.zeros([0], tf.int32)
    values = apply(AugmentationDraw, [shape, seed, tf.cast(alpha, tf.float32)],
                   {"distribution": distribution})
    if static.count(-1) <= 1:   # give the graph the sizes known now
        values = tf.reshape(values, static)
    return tf.cast(values, dtype)


def next_seed(generator):
    """A fresh seed [2] (int64) for a stateless draw, taken from the layer's Generator."""
    return generator.make_seeds(1)[:, 0]


def random_beta(generator, shape, alpha, dtype=tf.float32):
    """`shape` (ints or int tensors) of Beta(alpha, alpha) values; alpha may be a tensor."""
    return _draw(next_seed(generator), shape, alpha, "beta", dtype)


def random_normal(seed, shape, dtype=tf.float32):
    """`shape` (ints or int tensors) of standard normal values; `seed` a [2] int tensor."""
    return _draw(seed, shape, 0.0, "normal", dtype)


def random_permutation(generator, size):
    """A random order of range(size) (the argsort of uniform keys), as int32."""
    return tf.cast(tf.argsort(random_uniform(generator, [size])), tf.int32)
