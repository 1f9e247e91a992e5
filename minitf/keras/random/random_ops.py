"""`tf.keras.random`: Keras 3's random ops, as its TensorFlow backend runs them.

Each op takes `seed` (an int, a `keras.random.SeedGenerator`, or None; see
`seed_generator.py`) and calls a stateless `tf.random` op with that seed
pair: the same int seed gives the same numbers on every call; a
SeedGenerator gives a new draw each call; None uses a global generator.
`dtype=None` means `keras.config.floatx()` ("float32").

>>> import minitf as tf
>>> a = tf.keras.random.normal((2, 3), seed=7)
>>> bool(tf.reduce_all(a == tf.keras.random.normal((2, 3), seed=7)))   # int seed: repeats
True
>>> tf.keras.random.randint((4,), 0, 10, seed=1).dtype
tf.int32

The stateless ops draw TF's Philox numbers (`minitf/ops/philox.py`), so these are
the numbers real Keras 3 on TF draws for the same seed:

>>> tf.keras.random.uniform((2,), seed=7).numpy()
array([0.7470788, 0.6721802], dtype=float32)

In Keras this is `keras/src/random/random.py` and
`keras/src/backend/tensorflow/random.py`.
"""
from ...framework import dtypes
from ...framework.tensor import convert_to_tensor
from ...framework.tf_export import tf_export
from ...ops import random_distribution_ops as distributions
from ...ops import random_ops
from ...ops.array_ops import broadcast_to
from ...ops.shape_ops import dim_of, shape as shape_of
from ...ops.gather_ops import gather
from ...ops.math_ops import cast, where
from ...ops.sort_ops import argsort
from ..backend import floatx
from .seed_generator import tf_seed


def _dtype(dtype):
    return dtypes.as_dtype(dtype or floatx())


@tf_export("keras.random.normal")
def normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    """Draws from a normal distribution with `mean` and `stddev`.

    >>> tf.keras.random.normal((2,), seed=1).shape
    TensorShape([2])
    """
    return random_ops.stateless_normal(shape, tf_seed(seed), mean, stddev, _dtype(dtype))


@tf_export("keras.random.uniform")
def uniform(shape, minval=0.0, maxval=1.0, dtype=None, seed=None):
    """Draws floats uniformly from [minval, maxval); `dtype` must be a float dtype.

    >>> float(tf.reduce_max(tf.keras.random.uniform((100,), 2.0, 3.0, seed=3))) < 3.0
    True
    """
    if dtype and not dtypes.as_dtype(dtype).is_floating:
        raise ValueError("`keras.random.uniform` requires a floating point `dtype`. "
                         f"Received: dtype={dtype} ")
    dtype = _dtype(dtype)
    return random_ops.stateless_uniform(shape, tf_seed(seed), cast(minval, dtype),
                                        cast(maxval, dtype), dtype)


@tf_export("keras.random.randint")
def randint(shape, minval, maxval, dtype="int32", seed=None):
    """Draws integers uniformly from [minval, maxval); `dtype` must be an integer dtype.

    >>> tf.keras.random.randint((3,), 0, 5, dtype="int64", seed=2).dtype
    tf.int64
    """
    if dtype and not dtypes.as_dtype(dtype).is_integer:
        raise ValueError("`keras.random.randint` requires an integer `dtype`. "
                         f"Received: dtype={dtype} ")
    dtype = dtypes.as_dtype(dtype)
    step = dtype if dtype in (dtypes.int32, dtypes.int64) else dtypes.int64
    out = random_ops.stateless_uniform(shape, tf_seed(seed), minval, maxval, step)
    return cast(out, dtype)


@tf_export("keras.random.truncated_normal")
def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    """Normal draws, any more than 2 stddev from the mean drawn again.

    >>> bool(tf.reduce_all(tf.abs(tf.keras.random.truncated_normal((50,), seed=4)) <= 2))
    True
    """
    return random_ops.stateless_truncated_normal(shape, tf_seed(seed), mean, stddev,
                                                  _dtype(dtype))


@tf_export("keras.random.categorical")
def categorical(logits, num_samples, dtype="int32", seed=None):
    """Row i holds `num_samples` class indices drawn from softmax(logits[i]).

    >>> tf.keras.random.categorical([[0.0, 0.0, 0.0]], 4, seed=1).shape
    TensorShape([1, 4])
    """
    logits = convert_to_tensor(logits)
    if logits.shape.rank != 2:
        raise ValueError("`logits` should be a 2-D tensor with shape [batch_size, num_classes]. "
                         f"Received: logits={logits}")
    out = distributions.stateless_categorical(logits, num_samples, seed=tf_seed(seed))
    return cast(out, dtype)


@tf_export("keras.random.dropout")
def dropout(inputs, rate, noise_shape=None, seed=None):
    """Zeroes each element with probability `rate` and scales the rest by 1 / (1 - rate)
    (TF's stateless_dropout). `noise_shape` entries of None take the input's size.

    >>> x = tf.keras.random.dropout(tf.ones((1000,)), 0.5, seed=1)
    >>> sorted(set(x.numpy().tolist()))
    [0.0, 2.0]
    """
    inputs = convert_to_tensor(inputs)
    if rate == 1.0:
        return inputs * 0
    if rate == 0.0:
        return inputs
    seed = tf_seed(seed)
    if noise_shape is None:  # inside tf.function a None size is read when the graph runs
        noise_shape = [None] * inputs.shape.rank
    noise_shape = [dim_of(inputs, i) if d is None else d for i, d in enumerate(noise_shape)]
    keep = random_ops.stateless_uniform(noise_shape, seed, dtype=inputs.dtype) >= rate
    scale = 1.0 / (1.0 - rate)
    return where(broadcast_to(keep, shape_of(inputs)), inputs * scale, inputs * 0)


@tf_export("keras.random.shuffle")
def shuffle(x, axis=0, seed=None):
    """`x` with the slices along `axis` in a random order (the order of sorted uniforms).

    >>> sorted(tf.keras.random.shuffle(tf.range(5), seed=1).numpy().tolist())
    [0, 1, 2, 3, 4]
    """
    x = convert_to_tensor(x)
    keys = random_ops.stateless_uniform([shape_of(x)[axis]], seed=tf_seed(seed))
    return gather(x, argsort(keys), axis=axis)


@tf_export("keras.random.gamma")
def gamma(shape, alpha, dtype=None, seed=None):
    """Draws from Gamma(alpha, 1); alpha broadcasts to the end of `shape`.

    >>> tf.keras.random.gamma((3, 2), alpha=[1.0, 5.0], seed=1).shape
    TensorShape([3, 2])
    """
    return distributions.stateless_gamma(shape, tf_seed(seed), alpha=alpha, dtype=_dtype(dtype))


@tf_export("keras.random.binomial")
def binomial(shape, counts, probabilities, dtype=None, seed=None):
    """Successes in `counts` trials with success probability `probabilities` (as floats
    by default).

    >>> tf.keras.random.binomial((2,), counts=10, probabilities=0.5, seed=1).dtype
    tf.float32
    """
    return distributions.stateless_binomial(shape, tf_seed(seed), counts=counts,
                                            probs=probabilities, output_dtype=_dtype(dtype))


@tf_export("keras.random.beta")
def beta(shape, alpha, beta, dtype=None, seed=None):
    """Draws from Beta(alpha, beta) as ga / (ga + gb) with ga ~ Gamma(alpha), gb ~ Gamma(beta)
    (gb's seed is ga's plus 12, as Keras does).

    >>> x = tf.keras.random.beta((100,), alpha=2.0, beta=3.0, seed=1)
    >>> bool(tf.reduce_all((x > 0) & (x < 1)))
    True
    """
    dtype = _dtype(dtype)
    seed_1 = tf_seed(seed)
    seed_2 = seed_1 + 12
    alpha = broadcast_to(convert_to_tensor(alpha, dtype=dtype), shape)
    beta = broadcast_to(convert_to_tensor(beta, dtype=dtype), shape)
    gamma_a = distributions.stateless_gamma(shape, seed_1, alpha=alpha, dtype=dtype)
    gamma_b = distributions.stateless_gamma(shape, seed_2, alpha=beta, dtype=dtype)
    return gamma_a / (gamma_a + gamma_b)
