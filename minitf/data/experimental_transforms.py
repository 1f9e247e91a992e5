"""`tf.data.experimental`'s older spellings of Dataset methods, for `dataset.apply(...)`.

Most of these became `tf.data.Dataset` methods; TensorFlow keeps the
experimental names (deprecated) so old code runs, and so does minitf. Each
returns a function from a dataset to a dataset:

>>> import minitf as tf
>>> ds = tf.data.Dataset.range(5).apply(tf.data.experimental.map_and_batch(lambda x: x * 2, 2))
>>> [b.tolist() for b in ds.as_numpy_iterator()]
[[0, 2], [4, 6], [8]]
"""
from ..framework.tf_export import tf_export
from .dataset_ops import Dataset
from .iterator_ops import Iterator

SHARD_HINT = -1
tf_export("data.experimental.SHARD_HINT")(SHARD_HINT)


class _MapAndBatchDataset(Dataset):
    """`map` then `batch`, under the name of TF's fused kernel."""

    def __init__(self, dataset, map_func, batch_size, num_parallel_calls, drop_remainder):
        self._input = dataset.map(map_func, num_parallel_calls).batch(batch_size,
                                                                      drop_remainder)
        self._element_spec = self._input.element_spec

    def _cardinality(self):
        return self._input._cardinality()

    def _generate(self):
        yield from self._input._iterate()


@tf_export("data.experimental.map_and_batch")
def map_and_batch(map_func, batch_size, num_parallel_batches=None, drop_remainder=False,
                  num_parallel_calls=None):
    """`map(map_func)` then `batch(batch_size)` (TF fuses them itself now)."""
    if num_parallel_batches is not None and num_parallel_calls is not None:
        raise ValueError("`map_and_batch` accepts at most one of `num_parallel_batches` "
                         "and `num_parallel_calls`.")
    return lambda dataset: _MapAndBatchDataset(dataset, map_func, batch_size,
                                               num_parallel_calls, drop_remainder)


class _ShuffleAndRepeatDataset(Dataset):
    """`shuffle` then `repeat`: every epoch is a new order of all the elements."""

    def __init__(self, dataset, buffer_size, count, seed):
        self._input = dataset.shuffle(buffer_size, seed).repeat(count)
        self._element_spec = self._input.element_spec

    def _cardinality(self):
        return self._input._cardinality()

    def _generate(self):
        yield from self._input._iterate()


@tf_export("data.experimental.shuffle_and_repeat")
def shuffle_and_repeat(buffer_size, count=None, seed=None):
    """`shuffle(buffer_size, seed)` then `repeat(count)`.

    >>> ds = tf.data.Dataset.range(3).apply(tf.data.experimental.shuffle_and_repeat(3, 2, 1))
    >>> sorted(ds.as_numpy_iterator())
    [np.int64(0), np.int64(0), np.int64(1), np.int64(1), np.int64(2), np.int64(2)]
    """
    return lambda dataset: _ShuffleAndRepeatDataset(dataset, buffer_size, count, seed)


@tf_export("data.experimental.parallel_interleave")
def parallel_interleave(map_func, cycle_length, block_length=1, sloppy=False,
                        buffer_output_elements=None, prefetch_input_elements=None):
    """`interleave(map_func, cycle_length, block_length, num_parallel_calls=AUTOTUNE)`;
    `sloppy=True` is `deterministic=False`.

    >>> ds = tf.data.Dataset.range(1, 3).apply(tf.data.experimental.parallel_interleave(
    ...     lambda x: tf.data.Dataset.from_tensors(x).repeat(2), cycle_length=2))
    >>> list(ds.as_numpy_iterator())
    [np.int64(1), np.int64(2), np.int64(1), np.int64(2)]
    """
    return lambda dataset: dataset.interleave(map_func, cycle_length, block_length,
                                              num_parallel_calls=-1,
                                              deterministic=None if not sloppy else False)


@tf_export("data.experimental.scan")
def scan(initial_state, scan_func):
    """`Dataset.scan` as a transformation.

    >>> ds = tf.data.Dataset.range(4).apply(
    ...     tf.data.experimental.scan(np.int64(0), lambda s, x: (s + x, s)))
    >>> list(ds.as_numpy_iterator())
    [np.int64(0), np.int64(0), np.int64(1), np.int64(3)]
    """
    return lambda dataset: dataset.scan(initial_state, scan_func)


@tf_export("data.experimental.take_while")
def take_while(predicate):
    """`Dataset.take_while` as a transformation.

    >>> ds = tf.data.Dataset.range(5).apply(tf.data.experimental.take_while(lambda x: x < 2))
    >>> list(ds.as_numpy_iterator())
    [np.int64(0), np.int64(1)]
    """
    return lambda dataset: dataset.take_while(predicate)


@tf_export("data.experimental.unbatch")
def unbatch():
    """`Dataset.unbatch` as a transformation.

    >>> ds = tf.data.Dataset.from_tensors([1, 2]).apply(tf.data.experimental.unbatch())
    >>> list(ds.as_numpy_iterator())
    [np.int32(1), np.int32(2)]
    """
    return lambda dataset: dataset.unbatch()


@tf_export("data.experimental.enumerate_dataset")
def enumerate_dataset(start=0):
    """`Dataset.enumerate(start)` as a transformation.

    >>> ds = tf.data.Dataset.range(7, 9).apply(tf.data.experimental.enumerate_dataset(5))
    >>> list(ds.as_numpy_iterator())
    [(np.int64(5), np.int64(7)), (np.int64(6), np.int64(8))]
    """
    return lambda dataset: dataset.enumerate(start)


class _CopyToDeviceDataset(Dataset):
    """The input's elements, "copied" to `target_device` (minitf has only the CPU)."""

    def __init__(self, dataset, target_device, source_device):
        from ..framework import device
        self._devices = device.parse(target_device), device.parse(source_device)
        self._input = dataset
        self._element_spec = dataset.element_spec

    def _generate(self):
        yield from self._input._iterate()


@tf_export("data.experimental.copy_to_device")
def copy_to_device(target_device, source_device="/cpu:0"):
    """Move the elements to `target_device`. minitf runs on one CPU, so the elements stay
    where they are; the device string is still checked.

    >>> ds = tf.data.Dataset.range(2).apply(tf.data.experimental.copy_to_device("/cpu:0"))
    >>> list(ds.as_numpy_iterator())
    [np.int64(0), np.int64(1)]
    """
    return lambda dataset: _CopyToDeviceDataset(dataset, target_device, source_device)


@tf_export("data.experimental.prefetch_to_device")
def prefetch_to_device(device, buffer_size=None):
    """`copy_to_device(device)` then `prefetch(buffer_size)` (AUTOTUNE if None).

    >>> ds = tf.data.Dataset.range(2).apply(tf.data.experimental.prefetch_to_device("/cpu:0"))
    >>> ds
    <_PrefetchDataset element_spec=TensorSpec(shape=(), dtype=tf.int64, name=None)>
    """
    return lambda dataset: dataset.apply(copy_to_device(device)).prefetch(
        -1 if buffer_size is None else buffer_size)


@tf_export("data.experimental.get_structure")
def get_structure(dataset_or_iterator):
    """The `element_spec` of a dataset or an iterator.

    >>> tf.data.experimental.get_structure(iter(tf.data.Dataset.range(2)))
    TensorSpec(shape=(), dtype=tf.int64, name=None)
    """
    if not isinstance(dataset_or_iterator, (Dataset, Iterator)):
        raise TypeError("Invalid `dataset_or_iterator`. `dataset_or_iterator` must be a "
                        "`tf.data.Dataset` or tf.data.Iterator object, but got "
                        f"{type(dataset_or_iterator)}.")
    return dataset_or_iterator.element_spec


@tf_export("data.experimental.get_next_as_optional")
def get_next_as_optional(iterator):
    """`iterator.get_next_as_optional()`.

    >>> opt = tf.data.experimental.get_next_as_optional(iter(tf.data.Dataset.range(3)))
    >>> opt.get_value().numpy()
    np.int64(0)
    """
    return iterator.get_next_as_optional()


class _ListDataset(Dataset):
    """`from_list`: the given elements, which must all have one structure and dtypes."""

    def __init__(self, elements):
        from .structure import element_spec_of, flatten, normalize_element, same_structure
        if not elements:
            raise ValueError("Invalid `elements`. `elements` should not be empty.")
        if not isinstance(elements, list):
            raise ValueError("Invalid `elements`. `elements` must be a list, got "
                             f"{type(elements).__name__}.")
        self._elements = [normalize_element(e) for e in elements]
        spec = element_spec_of(self._elements[0])
        for element in self._elements[1:]:
            other = element_spec_of(element)
            if not same_structure(spec, other) or any(
                    a.dtype is not b.dtype for a, b in zip(flatten(spec), flatten(other))):
                raise ValueError("Invalid `elements`. All elements must have the same "
                                 f"structure and dtypes: {spec!r} vs {other!r}.")
            spec = _relaxed(spec, other)
        self._element_spec = spec

    def _cardinality(self):
        return len(self._elements)

    def _generate(self):
        yield from self._elements


def _relaxed(a, b):
    from .structure import compatible_spec, flatten, pack
    return pack(a, [compatible_spec(x, y) for x, y in zip(flatten(a), flatten(b))])


@tf_export("data.experimental.from_list")
def from_list(elements, name=None):
    """A dataset of the elements of a Python list (each may be a tuple or dict).

    >>> ds = tf.data.experimental.from_list([(1, "a"), (2, "b")])
    >>> list(ds.as_numpy_iterator())
    [(np.int32(1), b'a'), (np.int32(2), b'b')]
    """
    return _ListDataset(elements)


del tf_export
