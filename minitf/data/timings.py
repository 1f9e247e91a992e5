"""Per-element stage timings of a pipeline (a minitf extra, for the timeline widget).

Inside `with tf.data.experimental.record_timings() as timings:` every dataset
*iterator created in the block* records, for each element it produces, one
event: the stage (the dataset's kind: "Map", "Batch", "Prefetch", ...), the
element's index, start and end times (seconds since the block began) and the
thread that did the work. A stage's span runs from the moment its consumer
asked for the element until the element was ready, so it includes waiting
for the stages upstream; a `Prefetch` stage's producer thread and a parallel
`Map`'s workers ("Map/fn" events) show up as threads of their own, which is
exactly the overlap the five pipeline rules are about. Time your own training
step with `timings.span("train", i)`:

>>> import minitf as tf
>>> with tf.data.experimental.record_timings() as timings:
...     for i, x in enumerate(tf.data.Dataset.range(3).map(lambda v: v + 1)):
...         with timings.span("train", i):
...             pass
>>> sorted({e.stage for e in timings.events})
['Map', 'Map/fn', 'Range', 'train']
>>> [e.index for e in timings.events if e.stage == "train"]
[0, 1, 2]

TensorFlow has no such switch; its profiler (TensorBoard's trace viewer) shows
the same picture from C++ trace events.
"""
import collections
import contextlib
import threading
import time

from ..framework.tf_export import tf_export

TimingEvent = collections.namedtuple("TimingEvent", "stage index start end thread")

# The recorders currently active (innermost last); iterators check this when created.
_ACTIVE = []


class PipelineTimings:
    """What `record_timings()` yields: a growing list of `TimingEvent`s."""

    def __init__(self):
        self.origin = time.perf_counter()
        self.events = []
        self._lock = threading.Lock()

    def add(self, stage, index, start, end):
        event = TimingEvent(stage, index, start - self.origin, end - self.origin,
                            threading.current_thread().name)
        with self._lock:
            self.events.append(event)

    @contextlib.contextmanager
    def span(self, stage, index):
        """Time a block of your own code (e.g. a training step) as stage `stage`."""
        start = time.perf_counter()
        try:
            yield
        finally:
            self.add(stage, index, start, time.perf_counter())

    def stages(self):
        """Stage names in order of first appearance."""
        return list(dict.fromkeys(e.stage for e in self.events))

    def total(self, stage):
        """Seconds spent in `stage`, summed over its events."""
        return sum(e.end - e.start for e in self.events if e.stage == stage)

    def __repr__(self):
        return f"<PipelineTimings: {len(self.events)} events, stages={self.stages()}>"


@tf_export("data.experimental.record_timings")
@contextlib.contextmanager
def record_timings():
    """Record per-element stage timings of every iterator made inside the block.

    A minitf extra (see the module docstring). Yields a `PipelineTimings`.

    >>> with tf.data.experimental.record_timings() as t:
    ...     _ = list(tf.data.Dataset.range(2))
    >>> [(e.stage, e.index) for e in t.events]
    [('Range', 0), ('Range', 1)]
    """
    recorder = PipelineTimings()
    _ACTIVE.append(recorder)
    try:
        yield recorder
    finally:
        _ACTIVE.remove(recorder)


def active():
    """The recorder new iterators report to, or None."""
    return _ACTIVE[-1] if _ACTIVE else None


def timed(generator, stage, recorder):
    """Wrap an element generator so each element it produces is recorded."""
    index = 0
    clock = time.perf_counter
    try:
        while True:
            start = clock()
            try:
                element = next(generator)
            except StopIteration:
                return
            recorder.add(stage, index, start, clock())
            index += 1
            yield element
    finally:
        generator.close()
