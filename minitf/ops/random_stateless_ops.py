"""Working with stateless seeds: `tf.random.split`, `fold_in`, `create_rng_state`,
`experimental.stateless_shuffle` and `experimental.index_shuffle`.

A stateless seed is a pair of integers; the same pair always gives the same
numbers. To get *several* independent streams from one seed, derive new
seeds from it rather than adding 1 by hand:

>>> import minitf as tf
>>> seeds = tf.random.split([1, 2], num=3)           # three new seeds, shape [3, 2]
>>> seeds.shape, seeds.dtype
(TensorShape([3, 2]), tf.int32)
>>> replica_seed = tf.random.fold_in([1, 2], 3)       # mix data (a replica id) into a seed
>>> int(replica_seed[1])
3

As in TensorFlow, `split` and `fold_in` are themselves stateless draws:
`split(seed, num)` is `stateless_uniform([num, 2], seed, dtype=seed.dtype,
minval=None, maxval=None)` and `fold_in(seed, data)` stacks one such draw
with `data`. Both draw from TF's Philox stream (`philox.py`), so the new
seeds are TF's numbers:

>>> tf.random.split([1, 2], num=2).numpy().tolist()
[[1105988140, 1738052849], [-335576002, 370444179]]

`index_shuffle(index, seed, max_index)` gives the position of `index` in a
random permutation of [0, ..., max_index] without building the permutation:
a 4-round Feistel network (a keyed bijection on a power-of-4 sized range)
with "cycle walking" (apply it again until the result is <= max_index). TF
uses the same construction with Philox round keys, so its permutations
differ from minitf's; both are permutations fixed by the seed.
"""
import numpy as np

from ..framework import dtypes, errors
from ..framework.op import Op, apply, type_name
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export
from .array_ops import stack
from .manipulation_ops import pad
from .random_ops import numpy_generator, stateless_seed, stateless_uniform
from .shape_rules import dims_text
from .stateful_random_ops import Algorithm, _algorithm, rng_state_words

_MASK64 = np.uint64(2**64 - 1)
_INDEX_SHUFFLE_SEED_PAD = 498247692  # the first seed word TF's index_shuffle prepends


# --- deriving seeds -------------------------------------------------------------------------
@tf_export("random.split", "random.experimental.stateless_split")
def split(seed, num=2, alg="auto_select"):
    """`num` new seeds made from `seed`, as the rows of a tensor of shape [num, 2].

    The result has the dtype of `seed` (int32 for a Python list).

    >>> new = tf.random.split([1, 2], num=3)
    >>> tf.random.stateless_normal([3], seed=new[0]).shape
    TensorShape([3])
    >>> bool(tf.reduce_all(new == tf.random.split([1, 2], num=3)))   # stateless
    True
    """
    seed = convert_to_tensor(seed)
    return stateless_uniform([num, 2], seed=seed, dtype=seed.dtype, minval=None, maxval=None,
                             alg=alg)


@tf_export("random.fold_in", "random.experimental.stateless_fold_in")
def fold_in(seed, data, alg="auto_select"):
    """A new seed from `seed` and an integer `data`: `[draw, data]`, where `draw` is a
    stateless integer drawn from `seed` with the dtype of `data`.

    >>> tf.random.fold_in([1, 2], 3).dtype
    tf.int32
    >>> int(tf.random.fold_in([1, 2], tf.constant(7, tf.int64))[1])
    7
    """
    data = convert_to_tensor(data)
    if data.dtype not in (dtypes.int32, dtypes.int64):
        raise ValueError("fold_in folds an integer into the seed; got `data` of dtype "
                         f"{data.dtype!r}. Pass an int32 or int64 scalar, e.g. a replica or step number.")
    seed1 = stateless_uniform([], seed=seed, dtype=data.dtype, minval=None, maxval=None, alg=alg)
    return stack([seed1, data])


# --- the state of a tf.random.Generator -------------------------------------------------------
_STATE_SIZES = {Algorithm.PHILOX.value: 3, Algorithm.THREEFRY.value: 2,
                Algorithm.AUTO_SELECT.value: 3}


@tf_export("random.create_rng_state", "random.experimental.create_rng_state")
def create_rng_state(seed, alg):
    """The starting state of a `tf.random.Generator` for `seed` and the algorithm `alg`.

    An int seed is cut into 64-bit words, lowest first; a list is taken as the
    words. Too few words are padded with zeros on the left, too many are cut.
    Philox's state has 3 words, ThreeFry's 2 ("auto_select" counts as Philox).

    >>> tf.random.create_rng_state(1234, "philox")
    <tf.Tensor: shape=(3,), dtype=int64, numpy=array([1234,    0,    0])>
    >>> tf.random.create_rng_state([12, 34], "threefry")
    <tf.Tensor: shape=(2,), dtype=int64, numpy=array([12, 34])>
    """
    words = rng_state_words(seed, _STATE_SIZES[_algorithm(alg)])
    return convert_to_tensor(np.array(words, dtype=np.int64))


# --- stateless shuffle ------------------------------------------------------------------------
def _stateless_shuffle_forward(value, seed):
    if value.ndim == 0:
        return value
    return numpy_generator("StatelessShuffle", int(seed[0]), int(seed[1])).permutation(value)


StatelessShuffle = Op("StatelessShuffle", _stateless_shuffle_forward, typed=(),
                      shape=lambda value, seed: value,
                      dtype=lambda value, seed: value)  # no gradient, as in TF


@tf_export("random.experimental.stateless_shuffle")
def stateless_shuffle(value, seed, alg="auto_select", name=None):
    """`value` with its first axis reordered by a permutation fixed by `seed`.

    The stateless form of `tf.random.shuffle`: the same value and seed always
    give the same order. Rows stay intact; a scalar comes back unchanged.

    >>> v = tf.constant([[1, 2], [3, 4], [5, 6]])
    >>> s = tf.random.experimental.stateless_shuffle(v, seed=[8, 9])
    >>> sorted(s.numpy().tolist()) == v.numpy().tolist()
    True
    """
    _algorithm(alg)
    return apply(StatelessShuffle, [convert_to_tensor(value), stateless_seed(seed)])


# --- index shuffle: a keyed permutation computed one index at a time ---------------------------
def _mix64(x):
    """SplitMix64's finaliser: a bijective scramble of 64-bit words (the round function)."""
    x = (x ^ (x >> np.uint64(30))) * np.uint64(0xBF58476D1CE4E5B9)
    x = (x ^ (x >> np.uint64(27))) * np.uint64(0x94D049BB133111EB)
    return x ^ (x >> np.uint64(31))


def _feistel(x, keys, half_bits):
    """One pass of the balanced Feistel network on `2 * half_bits`-bit numbers `x`."""
    mask = np.uint64((1 << half_bits) - 1)
    left, right = x >> np.uint64(half_bits), x & mask
    for key in keys:  # each round: (L, R) -> (R, L xor F(key, R)), a bijection
        left, right = right, left ^ (_mix64(right ^ key) & mask)
    return (left << np.uint64(half_bits)) | right


def _permute(index, keys, max_index):
    """The position of each `index` (uint64) in the permutation of [0, max_index]."""
    half_bits = max(1, (int(max_index).bit_length() + 1) // 2)
    out = _feistel(index, keys, half_bits)
    outside = out > np.uint64(max_index)
    while outside.any():  # cycle walking: stays a bijection on [0, max_index]
        out[outside] = _feistel(out[outside], keys, half_bits)
        outside = out > np.uint64(max_index)
    return out


def _index_shuffle_forward(index, seed, max_index, rounds):
    n = max(index.size, max_index.size, len(seed) if seed.ndim == 2 else 1)
    idx = np.broadcast_to(index.reshape(-1), (n,)).astype(np.int64)
    top = np.broadcast_to(max_index.reshape(-1), (n,)).astype(np.int64)
    seeds = np.broadcast_to(seed.reshape(-1, 3), (n, 3))
    for i, t in zip(idx, top):
        if t < 0:
            raise errors.InvalidArgumentError(
                None, None, f"max_index must be >= 0 but was {t} [Op:RandomIndexShuffle] "
                "index_shuffle permutes the positions 0, ..., max_index.")
        if i > t:
            raise errors.InvalidArgumentError(
                None, None, f"max_index must be >= index, but {t} < {i} "
                "[Op:RandomIndexShuffle] Every index must be one of 0, ..., max_index.")
    out = np.empty(n, dtype=np.uint64)
    groups = {}  # one permutation per distinct (seed, max_index): compute each once
    for i in range(n):
        groups.setdefault((tuple(int(w) for w in seeds[i]), int(top[i])), []).append(i)
    for (words, last), rows in groups.items():
        keys = numpy_generator("RandomIndexShuffle", *words).integers(
            0, 2**64, size=rounds, dtype=np.uint64, endpoint=False)
        out[rows] = _permute(idx[rows].astype(np.uint64), keys, last)
    scalar = index.ndim == 0 and max_index.ndim == 0 and seed.ndim == 1
    return out.astype(index.dtype).reshape(() if scalar else (n,))


def _index_shuffle_shape(index, seed, max_index, rounds):
    batch = [d for d in (index, max_index) if d.rank == 1] + ([seed] if seed.rank == 2 else [])
    return TensorShape([batch[0][0]]) if batch else TensorShape([])


RandomIndexShuffle = Op("RandomIndexShuffle", _index_shuffle_forward,
                        dtypes={dtypes.int32, dtypes.int64, dtypes.uint32, dtypes.uint64},
                        typed=(0, 2), shape=_index_shuffle_shape)  # no gradient, as in TF


def _check_index_shuffle(index, seed, max_index):
    for name, t in (("index", index), ("max_index", max_index)):
        if t.shape.rank not in (0, 1):
            raise errors.op_error(
                errors.InvalidArgumentError, "RandomIndexShuffle",
                f"{name} must be a scalar or vector, got shape {dims_text(t.shape)}",
                "Shuffle one position, or a vector of positions.")
    batch = max(index.shape.num_elements(), max_index.shape.num_elements())
    if seed.shape.rank not in (1, 2) or seed.shape[-1] != 3 or (
            seed.shape.rank == 2 and batch > 1 and seed.shape[0] != batch):
        raise errors.op_error(
            errors.InvalidArgumentError, "RandomIndexShuffle",
            f"Seed must be a vector of size [3] or a matrix of size [{batch}, 3] but got "
            f"{dims_text(seed.shape)}.", "tf.random_index_shuffle takes three seed words; "
            "tf.random.experimental.index_shuffle takes the usual pair.")
    if seed.dtype not in (dtypes.int32, dtypes.int64, dtypes.uint32, dtypes.uint64):
        raise errors.op_error(
            errors.InvalidArgumentError, "RandomIndexShuffle",
            f"Value for attr 'Tseed' of {type_name(seed.dtype)} is not in the list of allowed "
            "values: int32, uint32, int64, uint64", "A seed holds whole numbers.")


@tf_export("random_index_shuffle")
def random_index_shuffle(index, seed, max_index, rounds=4, name=None):
    """The raw op under `tf.random.experimental.index_shuffle`: `seed` has three words
    (shape [3], or [n, 3] for a batch) and `rounds` sets the Feistel rounds.

    >>> out = tf.random_index_shuffle(tf.range(5), [1, 5, 9], 4)
    >>> sorted(out.numpy().tolist())
    [0, 1, 2, 3, 4]
    """
    index = convert_to_tensor(index)
    max_index = convert_to_tensor(max_index, dtype=index.dtype)
    seed = convert_to_tensor(seed)
    _check_index_shuffle(index, seed, max_index)
    return apply(RandomIndexShuffle, [index, seed, max_index], {"rounds": int(rounds)})


@tf_export("random.experimental.index_shuffle")
def index_shuffle(index, seed, max_index):
    """Where `index` lands in a random permutation of [0, ..., max_index] fixed by `seed`.

    Computes one position without building the permutation (see the module
    docstring), so it works for a huge `max_index` and inside `tf.data.map`.

    >>> order = tf.random.experimental.index_shuffle(tf.range(4), [5, 9], 3)
    >>> sorted(order.numpy().tolist())
    [0, 1, 2, 3]
    >>> int(tf.random.experimental.index_shuffle(2, [5, 9], 3)) == int(order[2])
    True
    """
    seed = convert_to_tensor(seed)
    # As TF: one word is prepended along the *first* axis, so a [2] seed becomes [3]
    # (a batch of seeds [n, 2] would become [n + 1, 2], which TF rejects too).
    paddings = [[1, 0]] + [[0, 0]] * (seed.shape.rank - 1)
    seed = pad(seed, paddings, constant_values=_INDEX_SHUFFLE_SEED_PAD)
    return random_index_shuffle(index, seed, max_index, rounds=4)
