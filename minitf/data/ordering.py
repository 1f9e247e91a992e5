"""`shuffle`, `repeat`, `take`, `skip`, `shard`: which elements, in which order.

`shuffle(buffer_size)` keeps a buffer of `buffer_size` elements and outputs a
random one of them, refilling its place from the input. An element can thus
only move about `buffer_size` places, so `shuffle(1)` changes nothing and a
full shuffle needs a buffer as large as the dataset:

>>> import minitf as tf
>>> list(tf.data.Dataset.range(5).shuffle(1).as_numpy_iterator())
[np.int64(0), np.int64(1), np.int64(2), np.int64(3), np.int64(4)]

Order matters: `shuffle(...).repeat(2)` shuffles each epoch on its own (every
element appears once before any appears twice); `repeat(2).shuffle(...)`
blends epochs together. With `reshuffle_each_iteration=True` (the default)
every new iteration draws a new order; with a `seed` the sequence of orders
repeats run after run. minitf cannot reproduce TF's exact orders (TF's random
generator differs), only these rules.
"""
import itertools
import random

from ..framework import errors
from ..ops.random_ops import get_seed, numpy_generator
from .dataset_ops import INFINITE, UNKNOWN, Dataset
from .sources import static_int


class _ShuffleDataset(Dataset):
    """Random draws from a buffer of `buffer_size` upcoming elements."""

    def __init__(self, dataset, buffer_size, seed, reshuffle_each_iteration):
        size = static_int(buffer_size)
        if size is not None and size <= 0 and size != UNKNOWN:
            raise errors.InvalidArgumentError(
                None, "ShuffleDatasetV3", "buffer_size must be greater than zero or "
                "UNKNOWN_CARDINALITY [Op:ShuffleDatasetV3]")
        self._input = dataset
        self._buffer_size = None if size == UNKNOWN else size  # None: the whole input
        seed, seed2 = get_seed(seed)
        if seed is None:  # no seed anywhere: a random one, fixed for this dataset
            seed, seed2 = random.SystemRandom().getrandbits(31), 0
        self._seeds = (seed, seed2)
        self._reshuffle = bool(reshuffle_each_iteration)
        self._iterations = itertools.count()
        self._element_spec = dataset.element_spec

    def _cardinality(self):
        return self._input._cardinality()

    def _generate(self):
        epoch = next(self._iterations) if self._reshuffle else 0
        rng = numpy_generator("ShuffleDataset", *self._seeds, epoch)
        source = self._input._iterate()
        buffer = []
        for element in source:
            buffer.append(element)
            if self._buffer_size is not None and len(buffer) >= self._buffer_size:
                break
        while buffer:
            index = int(rng.integers(len(buffer)))
            out = buffer[index]
            refill = next(source, _END)
            if refill is _END:
                buffer[index] = buffer[-1]
                buffer.pop()
            else:
                buffer[index] = refill
            yield out


_END = object()


class _RepeatDataset(Dataset):
    """Start the input again `count` times (forever for None / -1)."""

    def __init__(self, dataset, count):
        count = -1 if count is None else static_int(count)
        self._input = dataset
        self._count = count
        self._element_spec = dataset.element_spec

    def _cardinality(self):
        n = self._input._cardinality()
        if self._count is None:
            return UNKNOWN
        if n == 0 or self._count == 0:
            return 0
        if self._count < 0 or n == INFINITE:
            return INFINITE
        return UNKNOWN if n == UNKNOWN else n * self._count

    def _generate(self):
        epochs = itertools.count() if self._count < 0 else range(self._count)
        for _ in epochs:
            produced = False
            for element in self._input._iterate():
                produced = True
                yield element
            if not produced:  # an empty input repeated forever is still empty (as in TF)
                return


class _TakeDataset(Dataset):
    """The first `count` elements (-1: all of them)."""

    def __init__(self, dataset, count):
        self._input = dataset
        self._count = static_int(count)
        self._element_spec = dataset.element_spec

    def _cardinality(self):
        n = self._input._cardinality()
        if self._count is None or self._count < 0:
            return n if self._count is not None else UNKNOWN
        if n == INFINITE:
            return self._count
        return UNKNOWN if n == UNKNOWN else min(n, self._count)

    def _generate(self):
        if self._count is not None and self._count < 0:
            yield from self._input._iterate()
            return
        if self._count == 0:
            return
        source = self._input._iterate()
        try:
            for i, element in enumerate(source):
                yield element
                if i + 1 >= self._count:
                    return
        finally:
            source.close()


class _SkipDataset(Dataset):
    """All but the first `count` elements (-1: none)."""

    def __init__(self, dataset, count):
        self._input = dataset
        self._count = static_int(count)
        self._element_spec = dataset.element_spec

    def _cardinality(self):
        n = self._input._cardinality()
        if self._count is None or n == UNKNOWN:
            return UNKNOWN
        if self._count < 0:
            return 0
        return INFINITE if n == INFINITE else max(0, n - self._count)

    def _generate(self):
        if self._count < 0:
            return
        yield from itertools.islice(self._input._iterate(), self._count, None)


class _ShardDataset(Dataset):
    """Elements `index`, `index + num_shards`, ...: one of `num_shards` workers' share."""

    def __init__(self, dataset, num_shards, index):
        num_shards, index = static_int(num_shards), static_int(index)
        if num_shards <= 0:
            raise errors.InvalidArgumentError(
                None, "ShardDataset", "Number of shards must be greater than zero "
                f"(currently num_shards = {num_shards}). [Op:ShardDataset]")
        if not 0 <= index < num_shards:
            raise errors.InvalidArgumentError(
                None, "ShardDataset", f"Index must be between 0 and {num_shards - 1} "
                f"(currently index = {index}). [Op:ShardDataset]")
        self._input = dataset
        self._num_shards, self._index = num_shards, index
        self._element_spec = dataset.element_spec

    def _cardinality(self):
        n = self._input._cardinality()
        if n < 0:
            return n
        return n // self._num_shards + (1 if self._index < n % self._num_shards else 0)

    def _generate(self):
        yield from itertools.islice(self._input._iterate(), self._index, None,
                                    self._num_shards)
