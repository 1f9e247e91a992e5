"""`tf.train.Coordinator`: stop a group of Python threads together, and report their error.

>>> import threading, minitf as tf
>>> coord = tf.train.Coordinator()
>>> def worker(n):
...     with coord.stop_on_exception():          # an exception here stops everyone
...         if n == 2:
...             raise ValueError("worker 2 failed")
...         coord.wait_for_stop()                # the others wait until told to stop
>>> threads = [threading.Thread(target=worker, args=(n,)) for n in range(3)]
>>> for t in threads:
...     t.start()
>>> try:
...     coord.join(threads)                      # re-raises the first reported error
... except ValueError as e:
...     print(e)
worker 2 failed
>>> coord.should_stop(), coord.joined
(True, True)
"""
import contextlib
import sys
import threading
import time

from ..framework import errors
from ..framework.tf_export import tf_export


@tf_export("train.Coordinator")
class Coordinator:
    """A stop flag shared by threads, plus the first exception one of them reported.

    clean_stop_exception_types: exceptions that stop without being an error
    (default `(tf.errors.OutOfRangeError,)`: the end of the input).
    """

    def __init__(self, clean_stop_exception_types=None):
        if clean_stop_exception_types is None:
            clean_stop_exception_types = (errors.OutOfRangeError,)
        self._clean_stop_exception_types = tuple(clean_stop_exception_types)
        self._lock = threading.Lock()
        self._stop_event = threading.Event()
        self._exc_info_to_raise = None
        self._joined = False
        self._registered_threads = set()

    def _filter_exception(self, ex):
        error = ex[1] if isinstance(ex, tuple) else ex
        return None if isinstance(error, self._clean_stop_exception_types) else ex

    def request_stop(self, ex=None):
        """Ask the threads to stop; the first `ex` (exception or exc_info tuple) is kept for join."""
        with self._lock:
            ex = self._filter_exception(ex)
            if self._joined and ex is not None:  # too late to report it: raise it here
                raise ex[1] if isinstance(ex, tuple) else ex
            if self._stop_event.is_set():
                return
            if ex is not None and self._exc_info_to_raise is None:
                self._exc_info_to_raise = ex if isinstance(ex, tuple) else (type(ex), ex, None)
                if not self._exc_info_to_raise[1]:
                    self._exc_info_to_raise = (ValueError, ValueError(
                        f"ex must be a tuple or sys.exc_info must return the current "
                        f"exception: {self._exc_info_to_raise}"), None)
            self._stop_event.set()

    def clear_stop(self):
        """Forget the stop request and the recorded exception (to reuse the coordinator)."""
        with self._lock:
            self._joined = False
            self._exc_info_to_raise = None
            self._stop_event.clear()

    def should_stop(self):
        """True once a stop was requested."""
        return self._stop_event.is_set()

    @contextlib.contextmanager
    def stop_on_exception(self):
        """`with coord.stop_on_exception():` - an exception in the body requests a stop."""
        try:
            yield
        except:  # noqa: E722 - as TF: anything raised in the body is reported, not re-raised
            self.request_stop(ex=sys.exc_info())

    def wait_for_stop(self, timeout=None):
        """Block until a stop is requested (or `timeout` seconds); True if it was."""
        return self._stop_event.wait(timeout)

    def register_thread(self, thread):
        """Also wait for `thread` in `join()`."""
        with self._lock:
            self._registered_threads.add(thread)

    def join(self, threads=None, stop_grace_period_secs=120, ignore_live_threads=False):
        """Wait for a stop request, then for the threads; re-raise the reported exception.

        Threads still alive `stop_grace_period_secs` after the stop raise RuntimeError
        (unless `ignore_live_threads`).
        """
        with self._lock:
            threads = list(self._registered_threads.union(threads or []))
        while any(t.is_alive() for t in threads) and not self.wait_for_stop(1.0):
            pass
        wait = 0.001
        while any(t.is_alive() for t in threads) and stop_grace_period_secs >= 0.0:
            time.sleep(wait)
            stop_grace_period_secs -= wait
            wait = max(min(2 * wait, stop_grace_period_secs), 0.001)
        stragglers = [t.name for t in threads if t.is_alive()]
        with self._lock:
            self._joined = True
            self._registered_threads = set()
            if self._exc_info_to_raise:
                raise self._exc_info_to_raise[1]
            if stragglers and not ignore_live_threads:
                raise RuntimeError("Coordinator stopped with threads still running: "
                                   + " ".join(stragglers))

    @property
    def joined(self):
        return self._joined

    def raise_requested_exception(self):
        """Raise the exception passed to `request_stop`, if any."""
        with self._lock:
            if self._exc_info_to_raise:
                raise self._exc_info_to_raise[1]
