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
from .graph_inputs import known_int
from .sources import runtime_int, static_int


class _ShuffleDataset(Dataset):
    """Random draws from a buffer of `buffer_size` upcoming elements."""

    def __init__(self, dataset, buffer_size, seed, reshuffle_each_iteration):
        size = static_int(buffer_size)
        if size is not None and size <= 0 and size != UNKNOWN:
            raise errors.InvalidArgumentError(
                None, "ShuffleDatasetV3", "buffer_size must be greater than zero or "
                "UNKNOWN_CARDINALITY [Op:ShuffleDatasetV3]")
        self._input = dataset
        self._raw_buffer_size = buffer_size  # read when the graph runs if symbolic
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
        size = runtime_int(self._raw_buffer_size)
        if size <= 0 and size != UNKNOWN:
            raise errors.InvalidArgumentError(
                None, "ShuffleDatasetV3", "buffer_size must be greater than zero or "
                "UNKNOWN_CARDINALITY [Op:ShuffleDatasetV3]")
        size = None if size == UNKNOWN else size  # None: the whole input
        source = self._input._iterate()
        buffer = []
        for element in source:
            buffer.append(element)
            if size is not None and len(buffer) >= size:
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


class _CountedDataset(Dataset):
    """A dataset with a `count` that may be a symbolic tensor (known when bound)."""

    @property
    def _count(self):
        return known_int(self._raw_count)


class _RepeatDataset(_CountedDataset):
    """Start the input again `count` times (forever for None / -1)."""

    def __init__(self, dataset, count):
        self._raw_count = -1 if count is None else count
        static_int(self._raw_count)  # a TypeError now for a count that is not an int
        self._input = dataset
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
        count = runtime_int(self._raw_count)
        epochs = itertools.count() if count < 0 else range(count)
        for _ in epochs:
            produced = False
            for element in self._input._iterate():
                produced = True
                yield element
            if not produced:  # an empty input repeated forever is still empty (as in TF)
                return


class _TakeDataset(_CountedDataset):
    """The first `count` elements (-1: all of them)."""

    def __init__(self, dataset, count):
        self._input = dataset
        self._raw_count = count
        static_int(count)  # a TypeError now for a count that is not an int
        self._element_spec = dataset.element_spec

    def _cardinality(self):
        n = self._input._cardinality()
        if self._count is None or self._count < 0:
            return n if self._count is not None else UNKNOWN
        if n == INFINITE:
            return self._count
        return UNKNOWN if n == UNKNOWN else min(n, self._count)

    def _generate(self):
        count = runtime_int(self._raw_count)
        if count < 0:
            yield from self._input._iterate()
            return
        if count == 0:
            return
        source = self._input._iterate()
        try:
            for i, element in enumerate(source):
                yield element
                if i + 1 >= count:
                    return
        finally:
            source.close()


class _SkipDataset(_CountedDataset):
    """All but the first `count` elements (-1: none)."""

    def __init__(self, dataset, count):
        self._input = dataset
        self._raw_count = count
        static_int(count)  # a TypeError now for a count that is not an int
        self._element_spec = dataset.element_spec

    def _cardinality(self):
        n = self._input._cardinality()
        if self._count is None or n == UNKNOWN:
            return UNKNOWN
        if self._count < 0:
            return 0
        return INFINITE if n == INFINITE else max(0, n - self._count)

    def _generate(self):
        count = runtime_int(self._raw_count)
        if count < 0:
            return
        yield from itertools.islice(self._input._iterate(), count, None)


class _ShardDataset(Dataset):
    """Elements `index`, `index + num_shards`, ...: one of `num_shards` workers' share."""

    def __init__(self, dataset, num_shards, index):
        self._raw = (num_shards, index)  # symbolic ones are read when the graph runs
        static = [static_int(v) for v in self._raw]
        if None not in static:
            _check_shard(*static)
        self._input = dataset
        self._element_spec = dataset.element_spec

    def _cardinality(self):
        n = self._input._cardinality()
        num_shards, index = (known_int(v) for v in self._raw)
        if num_shards is not None and index is not None:
            _check_shard(num_shards, index)
        if n < 0 or num_shards is None or index is None:
            return n if n < 0 else UNKNOWN
        return n // num_shards + (1 if index < n % num_shards else 0)

    def _generate(self):
        num_shards, index = _check_shard(*(runtime_int(v) for v in self._raw))
        yield from itertools.islice(self._input._iterate(), index, None, num_shards)


def _check_shard(num_shards, index):
    if num_shards <= 0:
        raise errors.InvalidArgumentError(
            None, "ShardDataset", "Number of shards must be greater than zero "
            f"(currently num_shards = {num_shards}). [Op:ShardDataset]")
    if not 0 <= index < num_shards:
        raise errors.InvalidArgumentError(
            None, "ShardDataset", f"Index must be between 0 and {num_shards - 1} "
            f"(currently index = {index}). [Op:ShardDataset]")
    return num_shards, index
