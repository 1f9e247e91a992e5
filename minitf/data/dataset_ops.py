"""`tf.data.Dataset`: a lazy, re-iterable sequence of elements, built by chaining.

Each transformation returns a new dataset that wraps its input; nothing runs
until you iterate. Every `iter(dataset)` (a Python `for`, `as_numpy_iterator`,
`model.fit`) starts a fresh pass from the beginning:

>>> import minitf as tf
>>> ds = tf.data.Dataset.range(6).map(lambda x: x * 2).batch(4)
>>> ds
<_BatchDataset element_spec=TensorSpec(shape=(None,), dtype=tf.int64, name=None)>
>>> list(ds.as_numpy_iterator())
[array([0, 2, 4, 6]), array([ 8, 10])]

How minitf runs a pipeline: each dataset class has a `_generate()` Python
generator that pulls elements from its input's iterator, so iterating the
last dataset pulls elements through the whole chain, one at a time. Functions
you pass to `map`, `filter`, ... are traced once into a graph with
`tf.function` (your Python side effects run once, at trace time, exactly as in
TensorFlow) and the graph runs for each element. `prefetch`, parallel `map`
and parallel `interleave` run stages in background threads.

In TensorFlow the same chain is a graph of C++ dataset kernels (`MapDataset`,
`BatchDatasetV2`, ...); the Python class names below are TF's, so `repr`
prints the same text.
"""
import numpy as np

from ..framework import context, dtypes, errors
from ..framework.tensor import EagerTensor
from ..framework.tf_export import tf_export
from . import timings
from .dataset_methods import DatasetMethods
from .iterator_ops import Iterator
from .structure import flatten

AUTOTUNE = -1
INFINITE = -1
UNKNOWN = -2
tf_export("data.AUTOTUNE", "data.experimental.AUTOTUNE")(AUTOTUNE)
tf_export("data.INFINITE_CARDINALITY", "data.experimental.INFINITE_CARDINALITY")(INFINITE)
tf_export("data.UNKNOWN_CARDINALITY", "data.experimental.UNKNOWN_CARDINALITY")(UNKNOWN)


@tf_export("data.Dataset")
class Dataset(DatasetMethods):
    """Represents a potentially large set of elements (TF's `tf.data.Dataset`).

    Subclasses set `self._element_spec` and implement `_generate()` (yield the
    elements) and `_cardinality()` (a Python int, or -1 infinite / -2 unknown).
    """

    _element_spec = None

    # --- what every dataset answers ------------------------------------------------------
    @property
    def element_spec(self):
        """The type of one element: a nest of `tf.TensorSpec` (see structure.py)."""
        return self._element_spec

    def _cardinality(self):
        return UNKNOWN

    def cardinality(self):
        """The number of elements as an int64 tensor; -1 infinite, -2 unknown.

        >>> tf.data.Dataset.range(10).batch(3).cardinality().numpy()
        np.int64(4)
        >>> int(tf.data.Dataset.range(3).repeat().cardinality()) == tf.data.INFINITE_CARDINALITY
        True
        """
        if in_graph():  # counts that depend on the function's tensors: known when it runs
            from .graph_inputs import cardinality_node, symbolic_inputs
            inputs = symbolic_inputs(self)
            if inputs:
                return cardinality_node(self, inputs)
        return EagerTensor(np.array(self._cardinality(), dtype=np.int64))

    def __len__(self):
        n = self._cardinality()
        if n == INFINITE:
            raise TypeError("The dataset is infinite.")
        if n == UNKNOWN:
            raise TypeError("The dataset length is unknown.")
        return n

    def __repr__(self):
        return f"<{type(self).__name__} element_spec={self.element_spec!r}>"

    def _generate(self):
        raise NotImplementedError(f"{type(self).__name__} must implement _generate()")

    def _stage_name(self):
        """The name timings use: `_ParallelMapDataset` -> "ParallelMap"."""
        name = type(self).__name__.strip("_")
        return name[:-len("Dataset")] if name.endswith("Dataset") else name

    def _iterate(self):
        """A fresh generator over the elements (timed when record_timings is on)."""
        recorder = timings.active()
        if recorder is None:
            return self._generate()
        return timings.timed(self._generate(), self._stage_name(), recorder)

    # --- iterating ------------------------------------------------------------------------
    def __iter__(self):
        """A new iterator from the first element (TF: an `OwnedIterator`)."""
        return OwnedIterator(self)

    def as_numpy_iterator(self):
        """Iterate with every tensor converted to NumPy (strings stay bytes).

        >>> list(tf.data.Dataset.from_tensor_slices(["a", "b"]).as_numpy_iterator())
        [b'a', b'b']
        """
        return NumpyIterator(self)

    def reduce(self, initial_state, reduce_func):
        """Fold all elements into one state: `state = reduce_func(state, element)`.

        >>> tf.data.Dataset.range(5).reduce(np.int64(0), lambda s, x: s + x).numpy()
        np.int64(10)
        """
        from .functional import reduce_dataset
        return reduce_dataset(self, initial_state, reduce_func)

    def apply(self, transformation_func):
        """`transformation_func(self)`: reuse a chain of transformations.

        >>> add_one = lambda ds: ds.map(lambda x: x + 1)
        >>> list(tf.data.Dataset.range(3).apply(add_one).as_numpy_iterator())
        [np.int64(1), np.int64(2), np.int64(3)]
        """
        dataset = transformation_func(self)
        if not isinstance(dataset, Dataset):
            raise TypeError("`transformation_func` must return a `tf.data.Dataset` object. "
                            f"Got {type(dataset)}.")
        return dataset

    # --- sources ----------------------------------------------------------------------------
    @staticmethod
    def from_tensor_slices(tensors, name=None):
        """One element per row of `tensors` (sliced along the first axis).

        >>> list(tf.data.Dataset.from_tensor_slices(([1, 2], [3, 4])).as_numpy_iterator())
        [(np.int32(1), np.int32(3)), (np.int32(2), np.int32(4))]
        """
        from .sources import _TensorSliceDataset
        return _TensorSliceDataset(tensors)

    @staticmethod
    def from_tensors(tensors, name=None):
        """A dataset with the single element `tensors`.

        >>> list(tf.data.Dataset.from_tensors([1, 2]).as_numpy_iterator())
        [array([1, 2], dtype=int32)]
        """
        from .sources import _TensorDataset
        return _TensorDataset(tensors)

    @staticmethod
    def range(*args, **kwargs):
        """`range(stop)`, `range(start, stop[, step])`, int64 elements by default.

        >>> list(tf.data.Dataset.range(2, 8, 3).as_numpy_iterator())
        [np.int64(2), np.int64(5)]
        """
        from .sources import _RangeDataset
        return _RangeDataset(*args, **kwargs)

    @staticmethod
    def from_generator(generator, output_types=None, output_shapes=None, args=None,
                       output_signature=None, name=None):
        """Elements from a Python generator function, checked against `output_signature`.

        >>> def gen():
        ...     yield 1
        ...     yield 2
        >>> ds = tf.data.Dataset.from_generator(
        ...     gen, output_signature=tf.TensorSpec(shape=(), dtype=tf.int32))
        >>> list(ds.as_numpy_iterator())
        [np.int32(1), np.int32(2)]
        """
        from .sources import _GeneratorDataset
        return _GeneratorDataset(generator, output_types, output_shapes, args, output_signature)

    @staticmethod
    def zip(*datasets, name=None):
        """Elements of several datasets side by side, as far as the shortest goes.

        >>> a, b = tf.data.Dataset.range(3), tf.data.Dataset.range(10, 12)
        >>> list(tf.data.Dataset.zip(a, b).as_numpy_iterator())
        [(np.int64(0), np.int64(10)), (np.int64(1), np.int64(11))]
        """
        from .sources import _ZipDataset
        return _ZipDataset(datasets[0] if len(datasets) == 1 else datasets)

    @staticmethod
    def list_files(file_pattern, shuffle=None, seed=None, name=None):
        """The file names matching a glob pattern (shuffled unless `shuffle=False`)."""
        from .readers import list_files
        return list_files(file_pattern, shuffle, seed)

    def concatenate(self, dataset, name=None):
        """This dataset's elements, then `dataset`'s.

        >>> a = tf.data.Dataset.range(2)
        >>> list(a.concatenate(tf.data.Dataset.range(5, 6)).as_numpy_iterator())
        [np.int64(0), np.int64(1), np.int64(5)]
        """
        from .sources import _ConcatenateDataset
        return _ConcatenateDataset(self, dataset)

    def enumerate(self, start=0, name=None):
        """(index, element) pairs; the index is int64.

        >>> list(tf.data.Dataset.from_tensor_slices([7, 8]).enumerate().as_numpy_iterator())
        [(np.int64(0), np.int32(7)), (np.int64(1), np.int32(8))]
        """
        return Dataset.zip((Dataset.range(start, np.iinfo(np.int64).max), self))

    # --- per-element functions --------------------------------------------------------------
    def map(self, map_func, num_parallel_calls=None, deterministic=None, name=None):
        """Apply `map_func` to each element (tuple elements are unpacked into arguments).

        >>> list(tf.data.Dataset.range(3).map(lambda x: x * x).as_numpy_iterator())
        [np.int64(0), np.int64(1), np.int64(4)]
        """
        from .map_op import map_dataset
        return map_dataset(self, map_func, num_parallel_calls, deterministic)

    def filter(self, predicate, name=None):
        """Keep the elements for which `predicate` returns a scalar `True`.

        >>> list(tf.data.Dataset.range(6).filter(lambda x: x % 2 == 0).as_numpy_iterator())
        [np.int64(0), np.int64(2), np.int64(4)]
        """
        from .map_op import _FilterDataset
        return _FilterDataset(self, predicate)

    def flat_map(self, map_func, name=None):
        """`map_func` returns a dataset per element; their elements are chained.

        >>> ds = tf.data.Dataset.range(1, 3).flat_map(lambda x: tf.data.Dataset.range(x))
        >>> list(ds.as_numpy_iterator())
        [np.int64(0), np.int64(0), np.int64(1)]
        """
        from .interleave_op import _FlatMapDataset
        return _FlatMapDataset(self, map_func)

    def interleave(self, map_func, cycle_length=None, block_length=None,
                   num_parallel_calls=None, deterministic=None, name=None):
        """Like `flat_map`, but `cycle_length` datasets are open at once and their
        elements alternate in blocks of `block_length`.

        >>> ds = tf.data.Dataset.range(1, 3).interleave(
        ...     lambda x: tf.data.Dataset.from_tensors(x).repeat(3), cycle_length=2)
        >>> list(ds.as_numpy_iterator())
        [np.int64(1), np.int64(2), np.int64(1), np.int64(2), np.int64(1), np.int64(2)]
        """
        from .interleave_op import interleave_dataset
        return interleave_dataset(self, map_func, cycle_length, block_length,
                                  num_parallel_calls, deterministic)

    def scan(self, initial_state, scan_func, name=None):
        """A running state: `(state, output) = scan_func(state, element)`.

        >>> ds = tf.data.Dataset.range(4).scan(np.int64(0), lambda s, x: (s + x, s + x))
        >>> list(ds.as_numpy_iterator())
        [np.int64(0), np.int64(1), np.int64(3), np.int64(6)]
        """
        from .functional import _ScanDataset
        return _ScanDataset(self, initial_state, scan_func)

    def take_while(self, predicate, name=None):
        """Elements up to (not including) the first one where `predicate` is False.

        >>> list(tf.data.Dataset.range(9).take_while(lambda x: x < 3).as_numpy_iterator())
        [np.int64(0), np.int64(1), np.int64(2)]
        """
        from .functional import _TakeWhileDataset
        return _TakeWhileDataset(self, predicate)

    # --- batching -----------------------------------------------------------------------------
    def batch(self, batch_size, drop_remainder=False, num_parallel_calls=None,
              deterministic=None, name=None):
        """Stack `batch_size` consecutive elements; the batch dimension is None in
        `element_spec` unless `drop_remainder=True` makes every batch full.

        >>> tf.data.Dataset.range(5).batch(2, drop_remainder=True).element_spec
        TensorSpec(shape=(2,), dtype=tf.int64, name=None)
        """
        from .ragged_batch import batch_with_ragged_rows, has_ragged_rows
        if has_ragged_rows(self.element_spec):
            return batch_with_ragged_rows(self, batch_size, drop_remainder)
        from .batching import _BatchDataset
        return _BatchDataset(self, batch_size, drop_remainder)

    def ragged_batch(self, batch_size, drop_remainder=False, row_splits_dtype=dtypes.int64,
                     name=None):
        """Batch elements of different shapes into RaggedTensors (see ragged_batch.py).

        >>> ds = tf.data.Dataset.range(1, 4).map(lambda x: tf.fill([x], x)).ragged_batch(3)
        >>> next(iter(ds))
        <tf.RaggedTensor [[1], [2, 2], [3, 3, 3]]>
        """
        from .ragged_batch import ragged_batch
        return ragged_batch(self, batch_size, drop_remainder, row_splits_dtype)

    def padded_batch(self, batch_size, padded_shapes=None, padding_values=None,
                     drop_remainder=False, name=None):
        """Batch elements of different shapes, padding each to a common shape.

        >>> ds = tf.data.Dataset.range(1, 4).map(lambda x: tf.fill([x], x)).padded_batch(3)
        >>> next(iter(ds)).numpy()
        array([[1, 0, 0],
               [2, 2, 0],
               [3, 3, 3]])
        """
        from .batching import _PaddedBatchDataset
        return _PaddedBatchDataset(self, batch_size, padded_shapes, padding_values,
                                   drop_remainder)

    def unbatch(self, name=None):
        """Split each element along its first dimension (the inverse of `batch`).

        >>> list(tf.data.Dataset.from_tensors([1, 2]).unbatch().as_numpy_iterator())
        [np.int32(1), np.int32(2)]
        """
        from .batching import _UnbatchDataset
        return _UnbatchDataset(self)

    def window(self, size, shift=None, stride=1, drop_remainder=False, name=None):
        """A dataset of windows, each a (small) dataset; `flat_map` + `batch` makes
        them tensors.

        >>> windows = tf.data.Dataset.range(5).window(3, shift=1, drop_remainder=True)
        >>> [w.numpy() for w in windows.flat_map(lambda w: w.batch(3))]
        [array([0, 1, 2]), array([1, 2, 3]), array([2, 3, 4])]
        """
        from .batching import _WindowDataset
        return _WindowDataset(self, size, shift, stride, drop_remainder)

    # --- order and count ------------------------------------------------------------------------
    def shuffle(self, buffer_size, seed=None, reshuffle_each_iteration=True, name=None):
        """Shuffle through a buffer of `buffer_size` elements (a full shuffle needs a
        buffer as large as the dataset).

        >>> sorted(tf.data.Dataset.range(5).shuffle(5, seed=1).as_numpy_iterator())
        [np.int64(0), np.int64(1), np.int64(2), np.int64(3), np.int64(4)]
        """
        from .ordering import _ShuffleDataset
        return _ShuffleDataset(self, buffer_size, seed, reshuffle_each_iteration)

    def repeat(self, count=None, name=None):
        """Repeat the dataset `count` times (forever if None or -1).

        >>> list(tf.data.Dataset.range(2).repeat(2).as_numpy_iterator())
        [np.int64(0), np.int64(1), np.int64(0), np.int64(1)]
        """
        from .ordering import _RepeatDataset
        return _RepeatDataset(self, count)

    def take(self, count, name=None):
        """At most the first `count` elements (-1: all).

        >>> list(tf.data.Dataset.range(9).take(2).as_numpy_iterator())
        [np.int64(0), np.int64(1)]
        """
        from .ordering import _TakeDataset
        return _TakeDataset(self, count)

    def skip(self, count, name=None):
        """All but the first `count` elements (-1: skip everything).

        >>> list(tf.data.Dataset.range(4).skip(2).as_numpy_iterator())
        [np.int64(2), np.int64(3)]
        """
        from .ordering import _SkipDataset
        return _SkipDataset(self, count)

    def shard(self, num_shards, index, name=None):
        """Every `num_shards`-th element, starting at `index` (one worker's share).

        >>> list(tf.data.Dataset.range(7).shard(3, 1).as_numpy_iterator())
        [np.int64(1), np.int64(4)]
        """
        from .ordering import _ShardDataset
        return _ShardDataset(self, num_shards, index)

    # --- performance ---------------------------------------------------------------------------
    def cache(self, filename="", name=None):
        """Keep the elements after the first complete pass: in memory, or in files
        `filename.index` and `filename.data-00000-of-00001` (NumPy `.npz`).

        >>> ds = tf.data.Dataset.range(3).cache()
        >>> list(ds.as_numpy_iterator()) == list(ds.as_numpy_iterator())
        True
        """
        from .cache_op import CacheDataset
        return CacheDataset(self, filename)

    def prefetch(self, buffer_size, name=None):
        """Prepare up to `buffer_size` elements ahead, in a background thread.

        >>> list(tf.data.Dataset.range(3).prefetch(tf.data.AUTOTUNE).as_numpy_iterator())
        [np.int64(0), np.int64(1), np.int64(2)]
        """
        from .prefetch_op import _PrefetchDataset
        return _PrefetchDataset(self, buffer_size)


class OwnedIterator(Iterator):
    """What `iter(dataset)` returns: `next()` gives elements, then `StopIteration`."""

    def __init__(self, dataset):
        self._dataset = dataset
        self._generator = dataset._iterate()
        # Made outside any trace: a tf.function that reads it advances it on every call.
        self._resource = not context.graph_stack

    @property
    def element_spec(self):
        return self._dataset.element_spec

    def __iter__(self):
        return self

    def __next__(self):
        if self._resource and _tracing():  # an IteratorGetNext node, run on every call
            from .iterator_ops import get_next_node
            return get_next_node(self)
        return next(self._generator)

    def get_next(self):
        """The next element; at the end TF raises `OutOfRangeError` here."""
        if self._resource and _tracing():
            from .iterator_ops import get_next_node
            return get_next_node(self)
        return self._eager_next()

    def _remaining(self):
        """A dataset of the elements this iterator has left: `for x in it` inside a
        tf.function loops over it (one ReduceDataset node, draining the iterator)."""
        return _RemainingDataset(self)

    def _eager_next(self):
        try:
            return next(self._generator)
        except StopIteration:
            raise errors.OutOfRangeError(None, "IteratorGetNext",
                                         "End of sequence [Op:IteratorGetNext]") from None

    def __del__(self):
        generator = getattr(self, "_generator", None)
        if generator is not None:
            generator.close()


class _RemainingDataset(Dataset):
    """What an iterator has left, read from the iterator itself when iterated."""

    def __init__(self, iterator):
        self._iterator = iterator
        self._element_spec = iterator.element_spec

    def _generate(self):
        while True:
            try:
                yield self._iterator._eager_next()
            except errors.OutOfRangeError:
                return


def _tracing():
    return bool(context.active and context.graph_stack)


@tf_export("data.NumpyIterator")
class NumpyIterator:
    """`as_numpy_iterator()`: the same elements with every tensor as NumPy (a plain
    Python iterator, not a `tf.data.Iterator`, as in TF).

    >>> it = tf.data.Dataset.range(2).as_numpy_iterator()
    >>> next(it), isinstance(it, tf.data.Iterator)
    (np.int64(0), False)
    """

    def __init__(self, dataset):
        self._iterator = OwnedIterator(dataset)

    @property
    def element_spec(self):
        return self._iterator.element_spec

    def __iter__(self):
        return self

    def __next__(self):
        return _to_numpy(next(self._iterator))

    next = __next__

    def __repr__(self):
        return f"<NumpyIterator element_spec={self.element_spec!r}>"


def _to_numpy(element):
    """Tensors and RaggedTensors as their numpy(); a SparseTensor as its dense array (TF)."""
    from .sparse_elements import is_sparse, to_numpy
    from .structure import map_structure
    return map_structure(lambda t: to_numpy(t) if is_sparse(t) else t.numpy() if isinstance(
        t, EagerTensor) or type(t).__name__ == "RaggedTensor" else t, element)


def in_graph():
    """True while a tf.function is being traced (datasets then hold symbolic tensors)."""
    return bool(context.graph_stack)


__all__ = ["Dataset", "flatten"]
