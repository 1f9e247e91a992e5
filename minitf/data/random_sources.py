"""Counters, random numbers, and choosing each element from one of several datasets.

`choose_from_datasets` reads an int64 `choice_dataset` and takes the next
element of `datasets[choice]`; `sample_from_datasets` does the same with
random choices drawn with probabilities `weights` (both are TF's
`DirectedInterleave`). A dataset that runs out ends the result when
`stop_on_empty_dataset=True`; otherwise choices of it are skipped:

>>> import minitf as tf
>>> a, b = tf.data.Dataset.range(2), tf.data.Dataset.range(10, 13)
>>> choice = tf.data.Dataset.from_tensor_slices(tf.constant([0, 1, 0, 0, 1], tf.int64))
>>> list(tf.data.Dataset.choose_from_datasets([a, b], choice, stop_on_empty_dataset=False)
...      .as_numpy_iterator())
[np.int64(0), np.int64(10), np.int64(1), np.int64(11)]

minitf draws with NumPy's generator, not TF's Philox, so seeded sequences are
reproducible run after run but are not TF's numbers (see ordering.py).
"""
import itertools
import random

import numpy as np

from ..framework import dtypes, errors
from ..framework.function import TensorSpec
from ..framework.tensor import EagerTensor, Tensor
from ..framework.tf_export import tf_export
from ..ops.random_ops import get_seed, numpy_generator
from .dataset_ops import INFINITE, Dataset
from .sources import static_int
from .structure import compatible_spec, flatten, pack, same_structure


def _seeds(seed):
    seed, seed2 = get_seed(seed)
    if seed is None:  # no seed anywhere: a random one, fixed for this dataset
        seed, seed2 = random.SystemRandom().getrandbits(31), 0
    return seed, seed2


class _CounterDataset(Dataset):
    """`counter(start, step)`: an endless arithmetic sequence (TF builds it with scan)."""

    def __init__(self, start, step, dtype):
        self._dtype = dtypes.as_dtype(dtype)
        self._start, self._step = static_int(start), static_int(step)
        self._element_spec = TensorSpec([], self._dtype)

    def __repr__(self):
        return f"<_ScanDataset element_spec={self.element_spec!r}>"

    def _cardinality(self):
        return INFINITE

    def _generate(self):
        for value in itertools.count(self._start, self._step):
            yield EagerTensor(np.array(value, dtype=self._dtype._np), self._dtype)


@tf_export("data.experimental.Counter")
def Counter(start=0, step=1, dtype=dtypes.int64):
    """`tf.data.Dataset.counter` under its older name.

    >>> list(tf.data.experimental.Counter(1, 2, tf.int32).take(3).as_numpy_iterator())
    [np.int32(1), np.int32(3), np.int32(5)]
    """
    return _CounterDataset(start, step, dtype)


class _RandomDataset(Dataset):
    """Random int64 values in [0, 2**32), forever. The same sequence on every iteration
    unless `rerandomize_each_iteration=True`."""

    def __init__(self, seed=None, rerandomize_each_iteration=None, name=None):
        self._seeds = _seeds(seed)
        self._rerandomize = bool(rerandomize_each_iteration)
        self._iterations = itertools.count()
        self._element_spec = TensorSpec([], dtypes.int64)

    def _cardinality(self):
        return INFINITE

    def _generate(self):
        epoch = next(self._iterations) if self._rerandomize else 0
        rng = numpy_generator("RandomDataset", *self._seeds, epoch)
        while True:
            yield EagerTensor(np.array(rng.integers(0, 2 ** 32), dtype=np.int64), dtypes.int64)


@tf_export("data.experimental.RandomDataset")
class RandomDataset(_RandomDataset):
    """`tf.data.Dataset.random` as a class (its older name).

    >>> tf.data.experimental.RandomDataset(seed=1).element_spec
    TensorSpec(shape=(), dtype=tf.int64, name=None)
    """

    def __repr__(self):
        return f"<RandomDatasetV2 element_spec={self.element_spec!r}>"


def _common_spec(datasets):
    """The element_spec all `datasets` fit (dims that differ become None)."""
    first = datasets[0].element_spec
    for i, other in enumerate(datasets[1:], 1):
        spec = other.element_spec
        if not same_structure(first, spec) or any(
                a.dtype is not b.dtype for a, b in zip(flatten(first), flatten(spec))):
            raise TypeError("Invalid `datasets`. `datasets` must have compatible element specs."
                            f"\n Dataset 0 element_spec={datasets[0].element_spec!r}.\n"
                            f"Dataset {i} element_spec={spec!r}.")
        first = pack(first, [compatible_spec(a, b) for a, b in
                             zip(flatten(first), flatten(spec))])
    return first


class _DirectedInterleaveDataset(Dataset):
    """Each selector value i: the next element of `datasets[i]`."""

    def __init__(self, selector, datasets, stop_on_empty_dataset):
        self._selector, self._datasets = selector, list(datasets)
        self._stop = bool(stop_on_empty_dataset)
        self._element_spec = _common_spec(self._datasets)

    def _generate(self):
        inputs = [d._iterate() for d in self._datasets]
        done = [False] * len(inputs)
        for choice in self._selector._iterate():
            i = int(choice.numpy())
            if not 0 <= i < len(inputs):
                raise errors.InvalidArgumentError(
                    None, "DirectedInterleave", f"Selector index out of range: {i} >= "
                    f"{len(inputs)} (each choice must index one of the {len(inputs)} datasets)")
            if done[i]:
                continue
            try:
                yield next(inputs[i])
            except StopIteration:
                if self._stop:
                    return
                done[i] = True
                if all(done):
                    return


def _checked_datasets(datasets):
    datasets = list(datasets)
    if not datasets:
        raise ValueError("Invalid `datasets`. `datasets` should not be empty.")
    if not all(isinstance(d, Dataset) for d in datasets):
        raise TypeError("Invalid `datasets`. `datasets` must be a list of `tf.data.Dataset` "
                        f"objects, got {[type(d).__name__ for d in datasets]}.")
    return datasets


def choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset=True):
    datasets = _checked_datasets(datasets)
    spec = getattr(choice_dataset, "element_spec", None)
    if not isinstance(spec, TensorSpec) or spec.dtype is not dtypes.int64 or spec.shape.rank:
        raise TypeError("Invalid `choice_dataset`. Elements of `choice_dataset` must be scalar "
                        f"`tf.int64` tensors but are {spec!r}.")
    return _DirectedInterleaveDataset(choice_dataset, datasets, stop_on_empty_dataset)


class _WeightedChoices(Dataset):
    """The selector of `sample_from_datasets`: int64 draws from the weights (a fixed
    vector, or a dataset giving a vector per draw)."""

    def __init__(self, weights, n, seed, rerandomize):
        self._weights, self._n = weights, n
        self._seeds, self._rerandomize = _seeds(seed), bool(rerandomize)
        self._iterations = itertools.count()
        self._element_spec = TensorSpec([], dtypes.int64)

    def _generate(self):
        epoch = next(self._iterations) if self._rerandomize else 0
        rng = numpy_generator("SampleFromDatasets", *self._seeds, epoch)
        source = (self._weights._iterate() if isinstance(self._weights, Dataset)
                  else itertools.repeat(self._weights))
        for weights in source:
            p = np.asarray(weights.numpy() if isinstance(weights, Tensor) else weights,
                           dtype=np.float64).reshape(-1)
            if p.shape != (self._n,) or (p < 0).any() or p.sum() <= 0:
                raise errors.InvalidArgumentError(
                    None, "SampleFromDatasets", f"Invalid weights {p.tolist()}: need "
                    f"{self._n} non-negative numbers, not all zero (one per dataset).")
            yield EagerTensor(np.array(rng.choice(self._n, p=p / p.sum()), np.int64),
                              dtypes.int64)


def sample_from_datasets(datasets, weights, seed, stop_on_empty_dataset,
                         rerandomize_each_iteration):
    """TF's rules: a Python list of weights drops the datasets of weight 0, and a
    single dataset left is returned as it is."""
    datasets = _checked_datasets(datasets)
    if weights is None:
        weights = np.full([len(datasets)], 1.0 / len(datasets))
    elif isinstance(weights, Tensor):
        if not weights.shape.is_compatible_with([len(datasets)]):
            raise ValueError("Invalid `weights`. The shape of `weights` should be compatible "
                             f"with `[len(datasets)]` but is {weights.shape}.")
        weights = weights.numpy()
    elif not isinstance(weights, Dataset):
        if len(weights) != len(datasets):
            raise ValueError("Invalid `weights`. `weights` should have the same length as "
                             f"`datasets` but got `len(weights)={len(weights)}` vs. "
                             f"`len(datasets)={len(datasets)}`.")
        kept = [(d, w) for d, w in zip(datasets, weights) if w > 0]
        datasets, weights = ([d for d, _ in kept], [w for _, w in kept]) if kept else (
            [datasets[0].take(0)], [1.0])
        weights = np.asarray(weights, dtype=np.float32)
    if len(datasets) == 1 and not isinstance(weights, Dataset):
        return datasets[0]
    selector = _WeightedChoices(weights, len(datasets), seed, rerandomize_each_iteration)
    return _DirectedInterleaveDataset(selector, datasets, stop_on_empty_dataset)


@tf_export("data.experimental.choose_from_datasets")
def experimental_choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset=False):
    """`Dataset.choose_from_datasets` (note: here `stop_on_empty_dataset` defaults to False).

    >>> choice = tf.data.Dataset.range(2).repeat(2)
    >>> ds = tf.data.experimental.choose_from_datasets(
    ...     [tf.data.Dataset.range(1), tf.data.Dataset.range(5, 7)], choice)
    >>> list(ds.as_numpy_iterator())
    [np.int64(0), np.int64(5), np.int64(6)]
    """
    return choose_from_datasets(datasets, choice_dataset, stop_on_empty_dataset)


@tf_export("data.experimental.sample_from_datasets")
def experimental_sample_from_datasets(datasets, weights=None, seed=None,
                                      stop_on_empty_dataset=False):
    """`Dataset.sample_from_datasets`.

    >>> ds = tf.data.experimental.sample_from_datasets(
    ...     [tf.data.Dataset.range(2), tf.data.Dataset.range(5, 6)], weights=[0.0, 1.0], seed=1)
    >>> list(ds.as_numpy_iterator())  # a dataset of weight 0 is never read
    [np.int64(5)]
    """
    return sample_from_datasets(datasets, weights, seed, stop_on_empty_dataset, None)


del tf_export  # an implementation import: TF's namespaces do not show it
