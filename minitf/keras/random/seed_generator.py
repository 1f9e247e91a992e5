"""`keras.random.SeedGenerator`: where Keras 3's random ops get their seeds.

Every `keras.random` op is *stateless*: it draws from a `tf.random.stateless_*`
op with a seed pair. The `seed` argument decides the pair (`draw_seed`):

* an int `s`: the pair [s, 0], the same numbers on every call;
* a `SeedGenerator`: its state (an int64 variable [seed, counter]), which
  then moves on to [seed, counter + 1], so every call draws new numbers;
* None: a global SeedGenerator, whose state is scrambled as
  (state + 1) * 5387 % 933199 after each use.

>>> import minitf as tf
>>> gen = tf.keras.random.SeedGenerator(42)
>>> gen.state.numpy()
array([42,  0])
>>> a = tf.keras.random.normal((2,), seed=gen)
>>> gen.state.numpy()                                # moved on: the next draw differs
array([42,  1])

`tf.keras.utils.set_random_seed(s)` forgets the global SeedGenerator and
seeds Python's `random`, from which the next one takes its seed, so
unseeded `keras.random` calls repeat after it, as in Keras 3.

In Keras this is `keras/src/random/seed_generator.py`.
"""
import random as python_random

import numpy as np

from ...framework import dtypes
from ...framework.tf_export import tf_export
from ...ops.math_ops import cast, floormod
from ..backend import _unique_name
from ..variables import Variable

_global = [None]  # the global SeedGenerator (None: made on first use)
_INT32_MAX = 2**31 - 1


@tf_export("keras.random.SeedGenerator")
class SeedGenerator:
    """The state of a stream of random seeds: an int64 variable [seed, counter].

    `seed=None` draws the starting seed from Python's `random` (1 to 10**9).

    >>> gen = tf.keras.random.SeedGenerator(seed=1)
    >>> x1 = tf.keras.random.uniform((3,), seed=gen)
    >>> x2 = tf.keras.random.uniform((3,), seed=gen)
    >>> bool(tf.reduce_all(x1 == x2))
    False
    """

    def __init__(self, seed=None, name=None, **kwargs):
        kwargs.pop("backend", None)
        if kwargs:
            raise ValueError(f"Unrecognized keyword arguments: {kwargs}")
        self.name = name if name is not None else _unique_name("seed_generator")
        self._initial_seed = seed
        if seed is None:
            seed = make_default_seed()
        if not isinstance(seed, int):
            raise ValueError(f"Argument `seed` must be an integer. Received: seed={seed}")
        self.state = Variable(np.array([seed, 0], dtype=np.int64), dtype=dtypes.int64,
                              trainable=False, name="seed_generator_state",
                              path=f"{self.name}/seed_generator_state")

    def next(self, ordered=True):
        """The current state as a seed; then the state moves on."""
        seed = self.state.read_value() * 1
        if ordered:
            self.state.assign_add(np.array([0, 1], dtype=np.int64))
        else:
            self.state.assign((self.state.read_value() + 1) * 5387 % 933199)
        return seed

    def get_config(self):
        return {"seed": self._initial_seed, "name": self.name}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


def make_default_seed():
    return python_random.randint(1, int(1e9))


def global_seed_generator():
    if _global[0] is None:
        _global[0] = SeedGenerator()
    return _global[0]


def reset_global_seed_generator():
    """Forget the global SeedGenerator (`keras.utils.set_random_seed` calls this)."""
    _global[0] = None


def draw_seed(seed):
    """The seed pair (int64 [2]) for one draw, from an int, a SeedGenerator or None."""
    from ...framework.tensor import convert_to_tensor
    if isinstance(seed, SeedGenerator):
        return seed.next()
    if isinstance(seed, int) and not isinstance(seed, bool):
        return convert_to_tensor(np.array([seed, 0], dtype=np.int64))
    if seed is None:
        return global_seed_generator().next(ordered=False)
    raise ValueError("Argument `seed` must be either an integer or an instance of "
                     f"`SeedGenerator`. Received: seed={seed} (of type {type(seed)})")


def tf_seed(seed):
    """Keras's TF backend `_cast_seed(draw_seed(seed))`: the pair as int32, taken modulo
    2**31 - 2 (TF's stateless ops take int32 or int64; Keras passes int32)."""
    return cast(floormod(draw_seed(seed), _INT32_MAX - 1), dtypes.int32)
