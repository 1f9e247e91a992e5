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

The function's result must be a dataset. As in TensorFlow it is traced once,
with symbolic tensors (and stand-in datasets for dataset-valued parts such as
the windows of `window`), so Python side effects happen once. The dataset
it returns is a *template* holding those symbolic tensors; for each element
minitf runs the traced graph to get their values and iterates the template
with the symbolic tensors bound to them (see graph_inputs.py). In
TensorFlow the dataset is itself a graph value the function computes.
"""
import itertools
import queue
import threading

from ..framework.executor import compile_graph, run
from ..framework.graph import Graph
from ..ops.control_flow_ops import tapes_paused
from . import graph_inputs
from .dataset_ops import AUTOTUNE, Dataset
from .graph_inputs import iterate_bound, symbolic_inputs, value_of
from .map_op import default_parallelism, parallelism
from .prefetch_op import _DONE, produce_into
from .sources import _VariantDataset, static_int
from .structure import DatasetSpec, flatten, is_dataset, pack
from .structured_function import as_args

_END = object()


class _Failed:
    """A slot the input's error filled: raised when the cycle reaches it."""

    def __init__(self, error):
        self.error = error


class DatasetFunction:
    """A function from an element to a dataset: traced once; called, it gives the traced
    (template) dataset and the values its symbolic tensors take for this element."""

    def __init__(self, func, input_spec, transformation):
        self._transformation = transformation
        graph = Graph(getattr(func, "__name__", "dataset_fn").replace("<", "").replace(">", ""))
        with tapes_paused(), graph.as_default():
            self._stand_ins = [_VariantDataset(s.element_spec) if isinstance(s, DatasetSpec)
                               else graph.placeholder(s.shape, s.dtype, f"args_{i}")
                               for i, s in enumerate(flatten(input_spec))]
            result = func(*as_args(pack(input_spec, self._stand_ins)))
        self._template = self._checked(result)
        self.output_spec = self._template.element_spec
        # The template's symbolic tensors made by this trace are the graph's outputs;
        # tensors of an enclosing tf.function stay bound by that function's run.
        held = symbolic_inputs(self._template)
        self._computed = [t for t in held if t.graph is graph]
        self._captured = [outer for outer, _ in graph.captures]
        # what an enclosing run must bind: captures, and outer tensors the template holds
        self.outer_inputs = self._captured + [t for t in held if t.graph is not graph]
        graph.outputs = self._computed
        self._plan = compile_graph(graph) if self._computed else None

    def _checked(self, result):
        if not is_dataset(result):
            raise TypeError(f"The function passed to `{self._transformation}` must return a "
                            f"`tf.data.Dataset` object. Got {type(result)}. Wrap tensors "
                            "in tf.data.Dataset.from_tensors or from_tensor_slices.")
        return result

    def __call__(self, element):
        """(the template dataset, {id(symbolic tensor or stand-in): its value})."""
        binding, arrays = {}, []
        for stand_in, leaf in zip(self._stand_ins, flatten(element)):
            if is_dataset(stand_in):
                binding[id(stand_in)] = leaf  # a window: the stand-in reads this dataset
            else:
                arrays.append(leaf._value)
        if self._plan is not None:
            values = run(self._plan, arrays + [value_of(t) for t in self._captured])
            binding.update((id(t), v) for t, v in zip(self._computed, values))
        return self._template, binding


class _FlatMapDataset(Dataset):
    """Chain the datasets `map_func` makes from each element."""

    def __init__(self, dataset, map_func):
        self._input = dataset
        self._function = DatasetFunction(map_func, dataset.element_spec, "Dataset.flat_map")
        self._element_spec = self._function.output_spec

    def _generate(self):
        for element in self._input._iterate():
            yield from iterate_bound(*self._function(element))


def interleave_dataset(dataset, map_func, cycle_length, block_length, num_parallel_calls,
                       deterministic):
    if num_parallel_calls is None:
        return _InterleaveDataset(dataset, map_func, cycle_length, block_length)
    return _ParallelInterleaveDataset(dataset, map_func, cycle_length, block_length,
                                      num_parallel_calls, deterministic)


class _InterleaveDataset(Dataset):
    """`cycle_length` open datasets, `block_length` elements from each in turn."""

    _open_ahead = False

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
        return iterate_bound(*self._function(element))

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
                # Parallel: every empty slot opens at once (its thread starts reading),
                # in the order the cycle reaches them, so the output order is unchanged.
                ahead = range(self._cycle) if self._open_ahead else range(1)
                for k in [(i + j) % self._cycle for j in ahead]:
                    if slots[k] is None and not source_done:
                        slots[k] = self._take(source)
                        source_done = slots[k] is _END or isinstance(slots[k], _Failed)
                        if slots[k] is _END:
                            slots[k] = None
                if isinstance(slots[i], _Failed):  # where a one-at-a-time interleave fails
                    raise slots[i].error
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
                if slot is not None and not isinstance(slot, _Failed):
                    self._close(slot)
            source.close()

    def _take(self, source):
        """The next input element's dataset opened, `_END`, or the error that stopped the input.

        Opening ahead (parallel) reaches an input error early; it is kept in the slot and
        raised when the cycle gets there, after every element produced before it."""
        try:
            element = next(source, _END)
            return element if element is _END else self._open(element)
        except Exception as exc:
            return _Failed(exc)


class _ThreadedSlot:
    """One open dataset read ahead by its own producer thread."""

    def __init__(self, dataset, binding, buffer_size, name="ParallelInterleave"):
        self.queue = queue.Queue(buffer_size)
        self.stop = threading.Event()
        threading.Thread(target=graph_inputs.run_with,
                         args=(graph_inputs.snapshot() + [binding], produce_into, self.queue,
                               dataset, self.stop),
                         name=name, daemon=True).start()

    def next(self):
        element, error = self.queue.get()
        if element is _DONE:
            if error is not None:
                raise error
            return _END
        return element


class _ParallelInterleaveDataset(_InterleaveDataset):
    """The same order, but each open dataset is produced by a thread of its own."""

    _open_ahead = True

    def __init__(self, dataset, map_func, cycle_length, block_length, num_parallel_calls,
                 deterministic):
        super().__init__(dataset, map_func, cycle_length, block_length)
        self._parallelism = parallelism(num_parallel_calls)
        self._deterministic = deterministic
        self._opened = itertools.count()  # names the producer threads _0 ... _{cycle-1}

    def _open(self, element):
        dataset, binding = self._function(element)
        name = f"ParallelInterleave_{next(self._opened) % self._cycle}"  # a timeline lane each
        return _ThreadedSlot(dataset, binding, max(2, self._block), name)

    def _next_of(self, slot):
        return slot.next()

    def _close(self, slot):
        slot.stop.set()
