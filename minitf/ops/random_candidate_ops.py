"""Candidate samplers (`tf.random.*_candidate_sampler`; all but the uniform and
log-uniform ones also under `tf.nn`, as in TF 2) and `tf.nn.compute_accidental_hits`:
the negative classes that sampled losses (`tf.nn.sampled_softmax_loss`,
`tf.nn.nce_loss`) compare the true class with.

Each sampler draws `num_sampled` class ids from [0, range_max) and returns
`(sampled_candidates, true_expected_count, sampled_expected_count)`: how many
times each true and each sampled class is *expected* among the draws. With
`unique=False` that is num_sampled * P(class); with `unique=True` draws repeat
until `num_sampled` distinct classes were found after `num_tries` draws, and the
expectation is 1 - (1 - P(class))^num_tries. The losses subtract log(expected
count) from the logits, which corrects for the sampling.

>>> import minitf as tf
>>> labels = tf.constant([[1], [3]], tf.int64)
>>> s = tf.random.uniform_candidate_sampler(labels, 1, num_sampled=4, unique=False,
...                                         range_max=10, seed=1)
>>> s.sampled_candidates.shape, s.true_expected_count.numpy().ravel()
(TensorShape([4]), array([0.4, 0.4], dtype=float32))

The probabilities, expected counts and the `unique` rule are TF's
(`range_sampler.cc`); the draws come from NumPy (keyed by TF's seed rules),
so which classes are drawn differs from TF's.
"""
import collections
import os

import numpy as np

from ..framework import dtypes, errors
from ..framework.op import Op, apply
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export
from .random_ops import _kernel_generator, _seed_attrs

SampledValues = collections.namedtuple(
    "CandidateSampler", ["sampled_candidates", "true_expected_count", "sampled_expected_count"])
AccidentalHits = collections.namedtuple("ComputeAccidentalHits", ["indices", "ids", "weights"])

_learned_weights = {}  # learned unigram sampler: kernel -> counts of the classes seen (+1)


# --- the samplers' distributions --------------------------------------------------------------
def _log_uniform_probs(range_max):
    """P(k) = log((k + 2) / (k + 1)) / log(range_max + 1): Zipf-like, small ids frequent."""
    k = np.arange(range_max, dtype=np.float64)
    return np.log((k + 2.0) / (k + 1.0)) / np.log1p(range_max)


def _draw(rng, kind, probs, range_max, size):
    if kind == "log_uniform":  # TF's exact inverse: floor(exp(u * log(range + 1))) - 1
        values = np.floor(np.exp(rng.random(size) * np.log1p(range_max))).astype(np.int64) - 1
        return np.clip(values, 0, range_max - 1)
    if kind == "uniform":
        return rng.integers(0, range_max, size=size)
    return rng.choice(len(probs), size=size, p=probs)


def _sample(rng, kind, probs, range_max, num_sampled, unique):
    """num_sampled draws (distinct ones if unique) and how many draws that took."""
    if not unique:
        return _draw(rng, kind, probs, range_max, num_sampled), num_sampled
    picked, seen, tries = [], set(), 0
    while len(picked) < num_sampled:  # draw in small batches, keep first occurrences
        batch = _draw(rng, kind, probs, range_max, max(8, 2 * (num_sampled - len(picked))))
        for value in batch.tolist():
            tries += 1
            if value not in seen:
                seen.add(value)
                picked.append(value)
                if len(picked) == num_sampled:
                    break
    return np.array(picked, dtype=np.int64), tries


def _expected(p, num_sampled, num_tries):
    """TF's ExpectedCountHelper."""
    if num_tries == num_sampled:
        return p * num_sampled
    with np.errstate(divide="ignore"):
        return -np.expm1(num_tries * np.log1p(-p))


def _sampler_forward(true_classes, kind, num_true, num_sampled, unique, range_max, probs,
                     seed, seed2, kernel):
    _check_sampler(true_classes, num_true, num_sampled, unique, range_max)
    rng = _kernel_generator(f"{kind}_candidate_sampler", dtypes.int64, seed, seed2, kernel)
    if probs is None:
        probs = (_log_uniform_probs(range_max) if kind == "log_uniform"
                 else np.full(range_max, 1.0 / range_max))
    elif kind == "learned_unigram":
        key = (range_max, seed, seed2, kernel)
        weights = _learned_weights.setdefault(key, np.ones(range_max))
        probs = weights / weights.sum()
    probs = np.asarray(probs, dtype=np.float64)
    sampled, tries = _sample(rng, kind, probs, range_max, num_sampled, unique)
    in_range = (true_classes >= 0) & (true_classes < range_max)
    p_true = np.where(in_range, probs[np.clip(true_classes, 0, range_max - 1)], 0.0)
    if kind == "learned_unigram":  # TF updates the counts after sampling
        np.add.at(weights, true_classes[in_range], 1.0)
    return (sampled, _expected(p_true, num_sampled, tries).astype(np.float32),
            _expected(probs[sampled], num_sampled, tries).astype(np.float32))


def _check_sampler(true_classes, num_true, num_sampled, unique, range_max):
    if true_classes.ndim != 2 or true_classes.shape[1] != num_true:
        raise errors.InvalidArgumentError(
            None, None, f"true_classes must be a matrix of shape [batch_size, {num_true}] "
            f"(num_true columns), got shape {list(true_classes.shape)}. Each row lists the "
            "true classes of one example.")
    if unique and num_sampled > range_max:
        raise errors.InvalidArgumentError(
            None, None, "Sampler's range is too small. unique=True draws num_sampled distinct "
            f"classes, but there are only range_max={range_max}.")


def _sampler_shapes(true_classes, num_sampled, **attrs):
    return (TensorShape([num_sampled]), TensorShape(true_classes),
            TensorShape([num_sampled]))


CandidateSampler = Op("CandidateSampler", _sampler_forward, dtypes={dtypes.int64},
                      shape=_sampler_shapes, num_outputs=3, stateful=True,
                      dtype=lambda *a, **k: (dtypes.int64, dtypes.float32, dtypes.float32))


def _run_sampler(kind, true_classes, num_true, num_sampled, unique, range_max, seed,
                 probs=None):
    true_classes = convert_to_tensor(true_classes, dtype=dtypes.int64)
    attrs = {"kind": kind, "num_true": int(num_true), "num_sampled": int(num_sampled),
             "unique": bool(unique), "range_max": int(range_max), "probs": probs,
             **_seed_attrs(seed)}
    return SampledValues(*apply(CandidateSampler, [true_classes], attrs))


@tf_export("random.uniform_candidate_sampler")  # tf.nn only in TF 1
def uniform_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max,
                              seed=None, name=None):
    """Samples classes uniformly from [0, range_max) (see the module docstring).

    >>> s = tf.random.uniform_candidate_sampler([[0]], 1, 3, True, 5, seed=2)
    >>> len(set(s.sampled_candidates.numpy().tolist()))      # unique: 3 different classes
    3
    """
    return _run_sampler("uniform", true_classes, num_true, num_sampled, unique, range_max,
                        seed)


@tf_export("random.log_uniform_candidate_sampler")  # tf.nn only in TF 1
def log_uniform_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max,
                                  seed=None, name=None):
    """Samples class k with P(k) = log((k + 2) / (k + 1)) / log(range_max + 1): for
    vocabularies sorted by decreasing frequency (Zipf's law).

    >>> s = tf.random.log_uniform_candidate_sampler([[0]], 1, 2, False, 4, seed=1)
    >>> s.true_expected_count.numpy()                # 2 * log(2) / log(5)
    array([[0.8613531]], dtype=float32)
    """
    return _run_sampler("log_uniform", true_classes, num_true, num_sampled, unique, range_max,
                        seed)


@tf_export("random.learned_unigram_candidate_sampler", "nn.learned_unigram_candidate_sampler")
def learned_unigram_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max,
                                      seed=None, name=None):
    """Samples classes in proportion to 1 + how often they were true classes so far.

    The counts belong to the sampler's kernel (one per seed, or per graph node),
    start at 1 for every class and grow *after* each call, as in TF.

    >>> s = tf.random.learned_unigram_candidate_sampler([[2]], 1, 3, False, 4, seed=5)
    >>> s.true_expected_count.numpy()                 # 3 draws * P(2) = 3 * 1/4
    array([[0.75]], dtype=float32)
    """
    return _run_sampler("learned_unigram", true_classes, num_true, num_sampled, unique,
                        range_max, seed, probs="learned")


def _read_vocab_counts(vocab_file, limit=10_000_000):
    """The last comma-separated value of each line of a vocabulary file, as a count."""
    counts = []
    with open(vocab_file, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            if number > limit:
                raise ValueError(f"{vocab_file}: more than {limit} lines.")
            try:
                counts.append(float(line.rstrip("\n").split(",")[-1]))
            except ValueError:
                raise errors.InvalidArgumentError(
                    None, None, f"{vocab_file}:{number}: the last comma-separated value must be "
                    "a number (the class's count).") from None
    return counts


def _unigram_weights(range_max, vocab_file, distortion, num_reserved_ids, num_shards, shard,
                     unigrams):
    """TF's FixedUnigramSampler weights: reserved ids weigh 0, then counts ** distortion; a
    shard keeps the ids with id % num_shards == shard."""
    if bool(vocab_file) == bool(len(unigrams)):
        raise errors.InvalidArgumentError(None, None, "Must provide either vocab_file or "
                                          "unigrams (exactly one): the class counts.")
    counts = _read_vocab_counts(os.fspath(vocab_file)) if vocab_file else list(unigrams)
    weights = [0.0 for i in range(num_reserved_ids) if i % num_shards == shard]
    word_id = len(weights)
    for count in counts:
        if word_id % num_shards == shard:
            weights.append(float(count) ** distortion)
        word_id += 1
    if len(weights) != range_max:
        raise errors.InvalidArgumentError(
            None, None, f"range_max ({range_max}) must equal the number of classes the "
            f"unigrams define ({len(weights)}, reserved ids included).")
    weights = np.asarray(weights)
    return weights / weights.sum()


@tf_export("random.fixed_unigram_candidate_sampler", "nn.fixed_unigram_candidate_sampler")
def fixed_unigram_candidate_sampler(true_classes, num_true, num_sampled, unique, range_max,
                                    vocab_file="", distortion=1.0, num_reserved_ids=0,
                                    num_shards=1, shard=0, unigrams=(), seed=None, name=None):
    """Samples classes in proportion to given counts (`unigrams`, or the last column of
    `vocab_file`) raised to `distortion` (0.75 flattens them, as in word2vec).

    >>> s = tf.random.fixed_unigram_candidate_sampler([[0]], 1, 4, False, 3,
    ...                                               unigrams=[1, 1, 2], seed=1)
    >>> s.sampled_expected_count.shape, s.true_expected_count.numpy()   # 4 * 1/4
    (TensorShape([4]), array([[1.]], dtype=float32))
    """
    probs = _unigram_weights(int(range_max), vocab_file, float(distortion),
                             int(num_reserved_ids), int(num_shards), int(shard), unigrams)
    return _run_sampler("fixed_unigram", true_classes, num_true, num_sampled, unique,
                        range_max, seed, probs=tuple(probs))


def _all_forward(true_classes, num_true, num_sampled, unique, seed, seed2, kernel):
    _check_sampler(true_classes, num_true, num_sampled, False, num_sampled)
    return (np.arange(num_sampled, dtype=np.int64),
            np.ones(true_classes.shape, np.float32), np.ones(num_sampled, np.float32))


AllCandidateSampler = Op("AllCandidateSampler", _all_forward, dtypes={dtypes.int64},
                         shape=_sampler_shapes, num_outputs=3, stateful=True,
                         dtype=lambda *a, **k: (dtypes.int64, dtypes.float32, dtypes.float32))


@tf_export("random.all_candidate_sampler", "nn.all_candidate_sampler")
def all_candidate_sampler(true_classes, num_true, num_sampled, unique, seed=None, name=None):
    """"Samples" every class 0, ..., num_sampled - 1 once, each with expected count 1: for
    testing, where the sampled loss becomes the full one.

    >>> tf.random.all_candidate_sampler([[1]], 1, 3, True).sampled_candidates.numpy()
    array([0, 1, 2])
    """
    true_classes = convert_to_tensor(true_classes, dtype=dtypes.int64)
    attrs = {"num_true": int(num_true), "num_sampled": int(num_sampled),
             "unique": bool(unique), **_seed_attrs(seed)}
    return SampledValues(*apply(AllCandidateSampler, [true_classes], attrs))


# --- accidental hits ----------------------------------------------------------------------------
def _accidental_hits_forward(true_classes, sampled, num_true):
    if true_classes.ndim != 2 or true_classes.shape[1] != num_true:
        raise errors.InvalidArgumentError(
            None, None, f"true_classes must be a matrix of shape [batch_size, {num_true}], got "
            f"shape {list(true_classes.shape)}.")
    position = {int(c): j for j, c in enumerate(sampled.tolist())}  # a repeat: the last wins
    hits = [(i, position[c]) for i, row in enumerate(true_classes.tolist()) for c in row
            if c in position]
    indices = np.array([h[0] for h in hits], dtype=np.int32)
    ids = np.array([h[1] for h in hits], dtype=np.int64)
    weights = np.full(len(hits), -np.finfo(np.float32).max, dtype=np.float32)
    return indices, ids, weights


ComputeAccidentalHits = Op(
    "ComputeAccidentalHits", _accidental_hits_forward, dtypes={dtypes.int64}, num_outputs=3,
    shape=lambda *a, **k: (TensorShape([None]),) * 3,
    dtype=lambda *a, **k: (dtypes.int32, dtypes.int64, dtypes.float32))


@tf_export("nn.compute_accidental_hits")
def compute_accidental_hits(true_classes, sampled_candidates, num_true, seed=None, name=None):
    """Where a sampled class is one of the example's true classes ("accidental hits").

    Returns `(indices, ids, weights)`: for each hit, the example's row, the position
    of the class in `sampled_candidates` and the weight -FLT_MAX that the sampled
    losses add to that logit, which removes it from the softmax.

    >>> hits = tf.nn.compute_accidental_hits(tf.constant([[1], [4]], tf.int64),
    ...                                      tf.constant([4, 0, 1], tf.int64), num_true=1)
    >>> hits.indices.numpy(), hits.ids.numpy()
    (array([0, 1], dtype=int32), array([2, 0]))
    """
    true_classes = convert_to_tensor(true_classes, dtype=dtypes.int64)
    sampled_candidates = convert_to_tensor(sampled_candidates, dtype=dtypes.int64)
    return AccidentalHits(*apply(ComputeAccidentalHits, [true_classes, sampled_candidates],
                                 {"num_true": int(num_true)}))
