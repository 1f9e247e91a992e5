"""`tf.summary.create_file_writer`: where summaries go, and for which step.

A summary writer owns one TensorBoard event file,
`events.out.tfevents.<time>.<host>.<pid>.<n>.v2`, whose first record says
`file_version: "brain.Event:2"`. `with writer.as_default(step=...)` makes
it the writer every `tf.summary.scalar/histogram/...` call writes to; the
step is the x-axis TensorBoard plots against. Leaving the block flushes the
file, so TensorBoard sees the new points.

>>> import os, tempfile
>>> logdir = tempfile.mkdtemp()
>>> writer = tf.summary.create_file_writer(logdir)
>>> with writer.as_default(step=0):
...     tf.summary.scalar("loss", 0.5)
<tf.Tensor: shape=(), dtype=bool, numpy=True>
>>> [name.startswith("events.out.tfevents.") and name.endswith(".v2")
...  for name in os.listdir(logdir)]
[True]

The default writer, step and `record_if` condition belong to the calling
thread, as in TensorFlow. An event file is an append-only log that TensorBoard
reads while it grows, so it is not written to a temporary name and renamed
like minitf's other files: each record carries its length and two CRC32C
checksums, and a reader stops at a record that is not yet complete.
"""
import atexit
import contextlib
import itertools
import os
import socket
import threading
import time
import weakref

import numpy as np

from ..framework import dtypes
from ..framework.op import Op, apply
from ..framework.tensor import Tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export
from .protos import tensorboard


class _SummaryState(threading.local):
    """The calling thread's default writer, step and recording condition."""

    def __init__(self):
        self.writer = None
        self.step = None
        self.is_recording = True  # a bool, a boolean tensor, or a callable returning one


_state = _SummaryState()
_file_numbers = itertools.count()  # the <n> of the file name: one per writer in this process
_open_writers = weakref.WeakSet()  # flushed when Python exits


@tf_export("summary.SummaryWriter")
class SummaryWriter:
    """Interface of summary writers (TF's abstract `tf.summary.SummaryWriter`)."""

    def as_default(self, step=None):
        """A context in which this writer is the default (and `step`, if given, the step);
        the previous writer and step come back, and this writer is flushed, on exit."""
        return _DefaultWriter(self, step)

    def set_as_default(self, step=None):
        """Make this writer (and `step`, if given) the default from now on."""
        self._check_open()
        _state.writer = self
        if step is not None:
            _state.step = step

    def init(self):
        """Nothing to do: minitf opens the event file when the writer is made."""

    def flush(self):
        """Write buffered events to disk."""

    def close(self):
        """Flush and close; the writer can no longer be used."""

    def _check_open(self):
        pass


class _DefaultWriter:
    def __init__(self, writer, step):
        self._writer, self._step = writer, step

    def __enter__(self):
        self._writer._check_open()
        self._previous = (_state.writer, _state.step)
        _state.writer = self._writer
        if self._step is not None:
            _state.step = self._step
        return self._writer

    def __exit__(self, *exc):
        self._writer.flush()
        _state.writer, _state.step = self._previous
        return False


class _NoopSummaryWriter(SummaryWriter):
    """A writer that records nothing. As in TF, its `as_default` changes nothing: not
    the default writer, not the step (summaries with no other writer return False)."""

    def as_default(self, step=None):
        return contextlib.nullcontext(self)

    def set_as_default(self, step=None):
        pass


class _FileSummaryWriter(SummaryWriter):
    """Writes `Event` protocol buffers to a new event file in `logdir`."""

    def __init__(self, logdir, max_queue, flush_millis, filename_suffix):
        event_pb2 = tensorboard("compat.proto.event_pb2")
        record_writer = tensorboard("summary.writer.record_writer")
        os.makedirs(logdir, exist_ok=True)
        now = time.time()
        self.path = os.path.join(
            logdir, f"events.out.tfevents.{int(now):010d}.{socket.gethostname()}."
                    f"{os.getpid()}.{next(_file_numbers)}{filename_suffix}")
        self._file = open(self.path, "xb")  # noqa: SIM115 - closed by close(); "x": never overwrite
        self._records = record_writer.RecordWriter(self._file)
        self._max_queue, self._flush_seconds = max_queue, flush_millis / 1000
        self._pending, self._last_flush = 0, now
        self._lock = threading.Lock()
        self._closed = False
        # TF's first record: whole seconds, and which program wrote the file.
        self.write_event(event_pb2.Event(
            wall_time=float(int(now)), file_version="brain.Event:2",
            source_metadata=event_pb2.SourceMetadata(writer="minitf.summary")))
        self.flush()
        _open_writers.add(self)

    def write_event(self, event):
        """Append one `Event`; flush when `max_queue` events wait or `flush_millis` passed."""
        with self._lock:
            self._check_open()
            self._records.write(event.SerializeToString())
            self._pending += 1
            if self._pending >= self._max_queue or \
                    time.time() - self._last_flush >= self._flush_seconds:
                self._flush_locked()

    def write_summary(self, tag, array, dtype, step, metadata):
        """One tensor summary: `Event(step, Summary(value=[tag, tensor, metadata]))`."""
        event_pb2 = tensorboard("compat.proto.event_pb2")
        summary_pb2 = tensorboard("compat.proto.summary_pb2")
        from .protos import tensor_proto
        value = summary_pb2.Summary.Value(tag=tag, tensor=tensor_proto(array, dtype))
        value.metadata.ParseFromString(metadata)
        self.write_event(event_pb2.Event(wall_time=time.time(), step=int(step),
                                         summary=summary_pb2.Summary(value=[value])))

    def flush(self):
        with self._lock:
            if not self._closed:
                self._flush_locked()

    def _flush_locked(self):
        self._file.flush()
        self._pending, self._last_flush = 0, time.time()

    def close(self):
        with self._lock:
            if not self._closed:
                self._flush_locked()
                self._file.close()
                self._closed = True

    def _check_open(self):
        if self._closed:
            raise RuntimeError(
                f"SummaryWriter {self!r} is already closed. Make a new writer with "
                "tf.summary.create_file_writer to write more summaries.")


@atexit.register
def _flush_all():
    for writer in list(_open_writers):
        writer.flush()


@tf_export("summary.create_file_writer")
def create_file_writer(logdir, max_queue=None, flush_millis=None, filename_suffix=None,
                       name=None, experimental_trackable=False, experimental_mesh=None):
    """A writer of a new event file in `logdir` (made if missing).

    max_queue: events kept in memory before a flush (default 10); flush_millis:
    the longest time between flushes (default 120000); filename_suffix: the end
    of the file name (default ".v2"). `name` and the `experimental_*` arguments
    are accepted for TF's signature and change nothing in minitf.
    """
    if logdir is None:
        return create_noop_writer()
    logdir = os.fspath(logdir.numpy().decode() if isinstance(logdir, Tensor) else logdir)
    return _FileSummaryWriter(logdir, 10 if max_queue is None else int(max_queue),
                              120000 if flush_millis is None else int(flush_millis),
                              ".v2" if filename_suffix is None else filename_suffix)


@tf_export("summary.create_noop_writer")
def create_noop_writer():
    """A writer that writes nothing: summaries inside its `as_default` return False."""
    return _NoopSummaryWriter()


def _flush_forward(*, writer):
    writer = _state.writer if writer is None else writer
    if writer is not None:
        writer.flush()
    return np.zeros((0,), np.int32)


# A stateful op, so that `tf.summary.flush()` inside a tf.function flushes on every call.
FlushSummaryWriter = Op("FlushSummaryWriter", _flush_forward, typed=(), stateful=True,
                        shape=lambda **attrs: TensorShape([0]), dtype=dtypes.int32)


@tf_export("summary.flush")
def flush(writer=None, name=None):
    """Flush `writer` (default: the default writer, when the op runs)."""
    apply(FlushSummaryWriter, [], {"writer": writer})


# --- steps and recording conditions -------------------------------------------------------

@tf_export("summary.experimental.set_step")
def set_step(step):
    """Set the default step (an int, a tensor, or a `tf.Variable` read each time a summary
    is written - the usual choice is `optimizer.iterations`)."""
    _state.step = step


@tf_export("summary.experimental.get_step")
def get_step():
    """The default step, as it was set (None if no step was set)."""
    return _state.step


class record_if:  # noqa: N801 - TensorFlow's spelling
    """Write summaries only while `condition` holds: a bool, a boolean tensor, or a
    callable returning one (asked each time a summary op runs, so inside a tf.function
    the condition is read on every call).

    >>> import tempfile
    >>> writer = tf.summary.create_file_writer(tempfile.mkdtemp())
    >>> with writer.as_default(step=0), tf.summary.record_if(False):
    ...     tf.summary.should_record_summaries()
    <tf.Tensor: shape=(), dtype=bool, numpy=False>
    """

    def __init__(self, condition):
        self._condition = condition

    def __enter__(self):
        self._previous = _state.is_recording
        _state.is_recording = self._condition

    def __exit__(self, *exc):
        _state.is_recording = self._previous
        return False


tf_export("summary.record_if")(record_if)


def recording_writer():
    """The default writer if summaries are being recorded right now, else None."""
    writer = _state.writer
    if writer is None:
        return None
    condition = _state.is_recording
    if callable(condition):
        condition = condition()
    if isinstance(condition, Tensor) or hasattr(condition, "_is_variable"):
        condition = condition.numpy()
    return writer if bool(condition) else None


def _should_record_forward():
    return np.bool_(recording_writer() is not None)


ShouldRecordSummaries = Op("ShouldRecordSummaries", _should_record_forward, typed=(),
                           stateful=True, shape=lambda: TensorShape([]), dtype=dtypes.bool)


@tf_export("summary.should_record_summaries")
def should_record_summaries():
    """A boolean tensor: is there a default writer, and does `record_if` allow writing?"""
    return apply(ShouldRecordSummaries, [])
