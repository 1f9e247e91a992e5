"""`tf.keras.utils.set_random_seed`: one call that makes a training run repeatable.

It seeds Python's `random`, NumPy (which `fit` uses to shuffle batches) and
minitf's global seed (initializers, dropout), and forgets `keras.random`'s global
SeedGenerator, so unseeded `tf.keras.random` calls repeat too, as in Keras 3.

>>> tf.keras.utils.set_random_seed(42)
>>> a = tf.random.uniform([2]).numpy(); b = np.random.rand()
>>> tf.keras.utils.set_random_seed(42)
>>> bool((tf.random.uniform([2]).numpy() == a).all()), np.random.rand() == b
(True, True)
"""
import random

import numpy as np

from ...framework.tf_export import tf_export


@tf_export("keras.utils.set_random_seed")
def set_random_seed(seed):
    """Seed `random`, NumPy and `tf.random.set_seed` with the integer `seed`."""
    if not isinstance(seed, int):
        raise ValueError(  # noqa: TRY004  (Keras raises ValueError)
            "Expected `seed` argument to be an integer. Received: "
                         f"seed={seed} (of type {type(seed)})")
    from ..random.seed_generator import reset_global_seed_generator
    reset_global_seed_generator()  # the next one takes its seed from `random`, seeded here
    random.seed(seed)
    np.random.seed(seed)
    from ...ops.random_ops import set_seed
    set_seed(seed)
