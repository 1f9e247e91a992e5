"""`prefetch`: a background thread prepares the next elements while you train.

Without prefetch, preparing element i+1 waits until the training step on
element i is done. With `prefetch(n)` a producer thread runs the whole
pipeline upstream and keeps up to `n` ready elements in a queue, so
preparation and training overlap (the first rule of fast pipelines):

>>> import minitf as tf
>>> ds = tf.data.Dataset.range(4).prefetch(2)
>>> ds
<_PrefetchDataset element_spec=TensorSpec(shape=(), dtype=tf.int64, name=None)>
>>> list(ds.as_numpy_iterator())
[np.int64(0), np.int64(1), np.int64(2), np.int64(3)]

Errors raised upstream reach you at the element where they happened. When you
stop iterating early, the producer thread notices and ends. In TensorFlow
`AUTOTUNE` resizes the buffer while running; here it means one slot per core.
"""
import queue
import threading

from ..framework import errors
from . import graph_inputs
from .dataset_ops import AUTOTUNE, Dataset
from .map_op import default_parallelism
from .sources import static_int

_DONE = object()


def _put(q, item, stop):
    """Put `item`, giving up if the consumer has gone away (stop is set)."""
    while not stop.is_set():
        try:
            q.put(item, timeout=0.05)
            return True
        except queue.Full:
            continue
    return False


def produce_into(q, source_dataset, stop):
    """The producer: iterate `source_dataset` into `q`, then `_DONE` (or the error)."""
    source = source_dataset._iterate()
    try:
        for element in source:
            if not _put(q, (element, None), stop):
                return
        _put(q, (_DONE, None), stop)
    except BaseException as exc:  # handed to the consumer, raised there
        _put(q, (_DONE, exc), stop)
    finally:
        source.close()


class _PrefetchDataset(Dataset):
    """Run the input in a producer thread, `buffer_size` elements ahead."""

    def __init__(self, dataset, buffer_size):
        size = static_int(buffer_size)
        if size is None or size < 0 and size != AUTOTUNE:
            raise errors.InvalidArgumentError(
                None, "PrefetchDataset", "buffer_size must be >= 0 or AUTOTUNE (-1) "
                "[Op:PrefetchDataset]")
        self._input = dataset
        self._buffer_size = default_parallelism() if size == AUTOTUNE else size
        self._element_spec = dataset.element_spec

    def _cardinality(self):
        return self._input._cardinality()

    def _generate(self):
        if self._buffer_size == 0:
            yield from self._input._iterate()
            return
        q = queue.Queue(self._buffer_size)
        stop = threading.Event()
        thread = threading.Thread(target=graph_inputs.run_with,
                                  args=(graph_inputs.snapshot(), produce_into, q, self._input,
                                        stop),
                                  name="Prefetch", daemon=True)
        thread.start()
        try:
            while True:
                element, error = q.get()
                if element is _DONE:
                    if error is not None:
                        raise error
                    return
                yield element
        finally:
            stop.set()
