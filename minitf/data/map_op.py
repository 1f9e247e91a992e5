"""`map` (sequential or parallel) and `filter`.

`map(f, num_parallel_calls=n)` runs up to `n` calls of the traced `f` at once
on a thread pool. Threads help when `f` waits (file reads, `tf.py_function`
calling slow Python) or runs NumPy kernels that release the GIL - exactly the
"parallelize the map" rule of fast pipelines. With `deterministic=False` an
element that finishes early may overtake a slow one:

>>> import minitf as tf
>>> ds = tf.data.Dataset.range(5).map(lambda x: x * 10, num_parallel_calls=tf.data.AUTOTUNE)
>>> ds
<_ParallelMapDataset element_spec=TensorSpec(shape=(), dtype=tf.int64, name=None)>
>>> list(ds.as_numpy_iterator())
[np.int64(0), np.int64(10), np.int64(20), np.int64(30), np.int64(40)]

In TensorFlow `AUTOTUNE` tunes the parallelism while the pipeline runs; here
it means "one call per CPU core" (at least 2).
"""
import collections
import concurrent.futures
import os
import time

from ..framework import errors
from . import graph_inputs, timings
from .dataset_ops import AUTOTUNE, Dataset
from .sources import static_int
from .structured_function import StructuredFunction, scalar_bool, truth


def default_parallelism():
    """What AUTOTUNE means for a number of threads here: one per core, at least 2."""
    return max(2, os.cpu_count() or 2)


def parallelism(value, what="num_parallel_calls"):
    n = static_int(value)
    if n == AUTOTUNE:
        return default_parallelism()
    if n is None or n <= 0:
        raise errors.InvalidArgumentError(None, "ParallelMapDatasetV2",
                                          f"{what} must be greater than zero or AUTOTUNE.")
    return n


def map_dataset(dataset, map_func, num_parallel_calls, deterministic):
    if num_parallel_calls is None:
        return _MapDataset(dataset, map_func)
    return _ParallelMapDataset(dataset, map_func, num_parallel_calls, deterministic)


class _MapDataset(Dataset):
    """Call the traced function on each element, one after another."""

    def __init__(self, dataset, map_func):
        self._input = dataset
        self._function = StructuredFunction(map_func, dataset.element_spec, "Dataset.map")
        self._element_spec = self._function.output_spec

    def _cardinality(self):
        return self._input._cardinality()

    def _call(self, element, index, recorder):
        if recorder is None:
            return self._function(element)
        start = time.perf_counter()
        result = self._function(element)
        recorder.add(self._stage_name() + "/fn", index, start, time.perf_counter())
        return result

    def _generate(self):
        recorder = timings.active()
        for index, element in enumerate(self._input._iterate()):
            yield self._call(element, index, recorder)


class _ParallelMapDataset(_MapDataset):
    """Up to `num_parallel_calls` calls in flight on a thread pool."""

    def __init__(self, dataset, map_func, num_parallel_calls, deterministic):
        super().__init__(dataset, map_func)
        self._parallelism = parallelism(num_parallel_calls)
        self._deterministic = deterministic is None or bool(deterministic)

    def _generate(self):
        recorder = timings.active()
        pool = concurrent.futures.ThreadPoolExecutor(self._parallelism,
                                                     thread_name_prefix="ParallelMap")
        source = self._input._iterate()
        bindings = graph_inputs.snapshot()  # workers read captured tensors through these
        pending = collections.deque()
        index, failure = 0, None
        try:
            exhausted = False
            while True:
                while not exhausted and len(pending) < self._parallelism:
                    try:
                        element = next(source)
                    except StopIteration:
                        exhausted = True
                        break
                    except Exception as exc:  # the input failed: the calls in flight
                        failure, exhausted = exc, True  # still reach the consumer first
                        break
                    pending.append(pool.submit(graph_inputs.run_with, bindings, self._call,
                                               element, index, recorder))
                    index += 1
                if not pending:
                    if failure is not None:
                        raise failure
                    return
                yield self._next_result(pending).result()
        finally:
            for future in pending:
                future.cancel()
            pool.shutdown(wait=False)
            source.close()

    def _next_result(self, pending):
        if self._deterministic:
            return pending.popleft()
        concurrent.futures.wait(pending, return_when=concurrent.futures.FIRST_COMPLETED)
        future = next(f for f in pending if f.done())
        pending.remove(future)
        return future


class _FilterDataset(Dataset):
    """Keep the elements whose traced `predicate` is True."""

    def __init__(self, dataset, predicate):
        self._input = dataset
        self._function = StructuredFunction(predicate, dataset.element_spec, "Dataset.filter")
        scalar_bool(self._function, "predicate")
        self._element_spec = dataset.element_spec

    def _generate(self):
        for element in self._input._iterate():
            if truth(self._function(element)):
                yield element
