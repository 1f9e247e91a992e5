"""`flat_map` and `interleave`: functions that turn each element into a dataset.

`interleave` keeps `cycle_length` of those datasets open and takes
`block_length` elements from each in turn; when one runs out, the next input
element opens a new one in its place. Reading several files this way mixes
their lines, and with `num_parallel_calls` each open dataset is read by its
own thread - the "interleave the sources" rule of fast pipelines:

>>> import minitf as tf
>>> ds = tf.data.Dataset.range(3).interleave(
...     lambda x: tf.data.Dataset.from_tensors(x).repeat(4), cycle_length=2, block_length=2)
>>> list(ds.as_numpy_iterator())
[np.int64(0), np.int64(0), np.int64(1), np.int64(1), np.int64(0), np.int64(0), np.int64(1), np.int64(1), np.int64(2), np.int64(2), np.int64(2), np.int64(2)]

The function's result must be a dataset. minitf traces it once with symbolic
tensors to learn the element_spec (so Python side effects happen then, as in
TF), but then calls it again, eagerly, for each element: a minitf dataset is a
Python object, not a value a graph can produce. In TensorFlow the function is
only traced.
"""
import queue
import threading

from ..framework.graph import Graph
from ..ops.control_flow_ops import tapes_paused
from .dataset_ops import AUTOTUNE, Dataset
from .map_op import default_parallelism, parallelism
from .prefetch_op import _DONE, produce_into
from .sources import _VariantDataset, static_int
from .structure import DatasetSpec, flatten, is_dataset, pack
from .structured_function import as_args

_END = object()


class DatasetFunction:
    """A function from an element to a dataset: traced for its element_spec, called eagerly."""

    def __init__(self, func, input_spec, transformation):
        self._func = func
        self._transformation = transformation
        graph = Graph("dataset_fn")
        with tapes_paused(), graph.as_default():
            stand_ins = [_VariantDataset(s.element_spec) if isinstance(s, DatasetSpec)
                         else graph.placeholder(s.shape, s.dtype, f"args_{i}")
                         for i, s in enumerate(flatten(input_spec))]
            result = func(*as_args(pack(input_spec, stand_ins)))
        self.output_spec = self._checked(result).element_spec

    def _checked(self, result):
        if not is_dataset(result):
            raise TypeError(f"The function passed to `{self._transformation}` must return a "
                            f"`tf.data.Dataset` object. Got {type(result)}. Wrap tensors "
                            "in tf.data.Dataset.from_tensors or from_tensor_slices.")
        return result

    def __call__(self, element):
        return self._checked(self._func(*as_args(element)))


class _FlatMapDataset(Dataset):
    """Chain the datasets `map_func` makes from each element."""

    def __init__(self, dataset, map_func):
        self._input = dataset
        self._function = DatasetFunction(map_func, dataset.element_spec, "Dataset.flat_map")
        self._element_spec = self._function.output_spec

    def _generate(self):
        for element in self._input._iterate():
            yield from self._function(element)._iterate()


def interleave_dataset(dataset, map_func, cycle_length, block_length, num_parallel_calls,
                       deterministic):
    if num_parallel_calls is None:
        return _InterleaveDataset(dataset, map_func, cycle_length, block_length)
    return _ParallelInterleaveDataset(dataset, map_func, cycle_length, block_length,
                                      num_parallel_calls, deterministic)


class _InterleaveDataset(Dataset):
    """`cycle_length` open datasets, `block_length` elements from each in turn."""

    def __init__(self, dataset, map_func, cycle_length, block_length):
        self._input = dataset
        self._function = DatasetFunction(map_func, dataset.element_spec, "Dataset.interleave")
        cycle = AUTOTUNE if cycle_length is None else static_int(cycle_length)
        self._cycle = default_parallelism() if cycle == AUTOTUNE else cycle
        self._block = 1 if block_length is None else static_int(block_length)
        if self._cycle <= 0 or self._block <= 0:
            from ..framework import errors
            raise errors.InvalidArgumentError(
                None, "InterleaveDataset", "cycle_length and block_length must be greater "
                "than zero [Op:InterleaveDataset]")
        self._element_spec = self._function.output_spec

    def _open(self, element):
        return self._function(element)._iterate()

    def _next_of(self, slot):
        return next(slot, _END)

    def _close(self, slot):
        slot.close()

    def _generate(self):
        source = self._input._iterate()
        slots = [None] * self._cycle
        source_done, i = False, 0
        try:
            while not source_done or any(s is not None for s in slots):
                if slots[i] is None and not source_done:
                    element = next(source, _END)
                    if element is _END:
                        source_done = True
                    else:
                        slots[i] = self._open(element)
                if slots[i] is not None:
                    for _ in range(self._block):
                        value = self._next_of(slots[i])
                        if value is _END:
                            self._close(slots[i])
                            slots[i] = None
                            break
                        yield value
                i = (i + 1) % self._cycle
        finally:
            for slot in slots:
                if slot is not None:
                    self._close(slot)
            source.close()


class _ThreadedSlot:
    """One open dataset read ahead by its own producer thread."""

    def __init__(self, dataset, buffer_size):
        self.queue = queue.Queue(buffer_size)
        self.stop = threading.Event()
        threading.Thread(target=produce_into, args=(self.queue, dataset, self.stop),
                         name="ParallelInterleave", daemon=True).start()

    def next(self):
        element, error = self.queue.get()
        if element is _DONE:
            if error is not None:
                raise error
            return _END
        return element


class _ParallelInterleaveDataset(_InterleaveDataset):
    """The same order, but each open dataset is produced by a thread of its own."""

    def __init__(self, dataset, map_func, cycle_length, block_length, num_parallel_calls,
                 deterministic):
        super().__init__(dataset, map_func, cycle_length, block_length)
        self._parallelism = parallelism(num_parallel_calls)
        self._deterministic = deterministic

    def _open(self, element):
        return _ThreadedSlot(self._function(element), max(2, self._block))

    def _next_of(self, slot):
        return slot.next()

    def _close(self, slot):
        slot.stop.set()
