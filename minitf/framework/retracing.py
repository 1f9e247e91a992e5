"""Retracing: TF's warning when a `tf.function` traces too often, TF's logger that
carries it, and the type rules behind trace reuse and `reduce_retracing=True`.

Each trace of a `tf.function` is kept for its argument *types*: per tensor a dtype and a
(partial) shape, per Python value the value itself. A call reuses the most specific
trace whose types include its own (a trace for shape `(None,)` serves `(5,)` and `(6,)`).
With `reduce_retracing=True` a call that finds no trace is traced for a *relaxed* type:
its shape merged with every earlier one, sizes that differ becoming `None` (and ranks
that differ an unknown rank). Python values are never relaxed: `f(1)`, `f(2)` trace twice.

>>> import minitf as tf
>>> @tf.function(reduce_retracing=True)
... def f(x):
...     return x
>>> for n in (5, 6, 7):
...     _ = f(tf.zeros([n]))
>>> f.experimental_get_tracing_count()   # (5,), then (None,), which also serves (7,)
2

Five traces in the last ten calls of one Python function log TF's warning (at most
twice per function) through `tf.get_logger()`, the `logging.Logger` named "tensorflow".
TF keeps every trace (its cache has no bound), and so does minitf: the warning is the cure.
In TensorFlow this lives in `polymorphic_function.py` (_FrequentTracingDetector) and
`core/function/polymorphism/type_dispatch.py`.
"""
import logging
import sys
import threading
import weakref

from .tf_export import tf_export

# TF's constants (polymorphic_function.py)
FREQUENT_TRACING_WARNING_MAX_CALL_HISTORY = 10
FREQUENT_TRACING_WARNING_THRESHOLD = 5
FREQUENT_TRACING_WARNING_MAX_WARNING_PER_DETECTOR = 2

_logger = None
_logger_lock = threading.Lock()


@tf_export("get_logger")
def get_logger():
    """TF's logger: `logging.getLogger("tensorflow")`, given a handler of its own (to
    stdout at INFO level in an interactive session, else to stderr) unless the root
    logger already has one.

    >>> tf.get_logger().name
    'tensorflow'
    """
    global _logger
    with _logger_lock:
        if _logger is None:
            logger = logging.getLogger("tensorflow")
            if not logging.getLogger().handlers:
                interactive = hasattr(sys, "ps1") or bool(sys.flags.interactive)
                if interactive:
                    logger.setLevel(logging.INFO)
                handler = logging.StreamHandler(sys.stdout if interactive else sys.stderr)
                handler.setFormatter(logging.Formatter(logging.BASIC_FORMAT, None))
                logger.addHandler(handler)
            _logger = logger
    return _logger


class FrequentTracingDetector:
    """How many of the recent calls of one Python function traced: TF's class and rule.

    TF keeps, per trace, 1 + the calls that reused traces after it, and drops the oldest
    while the calls after it exceed 10. Here the same window is kept as the call numbers
    where those entries start, so a call that traces nothing only adds 1 to `calls`
    (Function.__call__ does that inline: it is the price every call pays).
    """

    __slots__ = ("calls", "_starts", "_total_warning_count")

    def __init__(self):
        self.calls = 0  # every call so far
        self._starts = []  # the call number each of TF's entries starts at
        self._total_warning_count = 0

    def called_without_tracing(self):
        self.calls += 1

    def called_with_tracing(self, function):
        with _detectors_lock:
            self._called_with_tracing(function)

    def _called_with_tracing(self, function):
        starts = self._starts
        if not starts and self.calls:  # calls that traced nothing came first (TF: [n])
            starts.append(1)
        self.calls += 1
        starts.append(self.calls)
        while len(starts) > 1 and self.calls - starts[1] + 1 > \
                FREQUENT_TRACING_WARNING_MAX_CALL_HISTORY:
            starts.pop(0)
        if self._total_warning_count >= FREQUENT_TRACING_WARNING_MAX_WARNING_PER_DETECTOR:
            return
        if len(starts) >= FREQUENT_TRACING_WARNING_THRESHOLD:
            self._total_warning_count += 1
            get_logger().warning(
                "{} out of the last {} calls to {} triggered tf.function "
                "retracing. Tracing is expensive and the excessive number of "
                "tracings could be due to (1) creating @tf.function repeatedly in "
                "a loop, (2) passing tensors with different shapes, (3) passing "
                "Python objects instead of tensors. For (1), please define your "
                "@tf.function outside of the loop. For (2), @tf.function has "
                "reduce_retracing=True option that can avoid unnecessary "
                "retracing. For (3), please refer to "
                "https://www.tensorflow.org/guide/function#controlling_retracing"
                " and https://www.tensorflow.org/api_docs/python/tf/function for "
                " more details.".format(len(starts), self.calls - starts[0] + 1, function))


_detectors = weakref.WeakKeyDictionary()
_detectors_lock = threading.Lock()


def detector_for(python_function):
    """The detector shared by every tf.function of the same code, as in TF: a
    `tf.function(lambda ...)` made anew in a loop is still one function retracing."""
    target = python_function
    while hasattr(target, "__wrapped__"):
        target = target.__wrapped__
    target = getattr(target, "__func__", target)
    key = getattr(target, "__code__", python_function)
    with _detectors_lock:
        try:
            detector = _detectors.get(key)
        except TypeError:  # not weakly referable: a detector of its own
            return FrequentTracingDetector()
        if detector is None:
            detector = _detectors[key] = FrequentTracingDetector()
    return detector


# --- trace types ------------------------------------------------------------------------
# A trace's type here is (skeleton, dims): the skeleton is the cache key of the arguments
# with every tensor replaced by its dtype (so it holds the structure and the Python
# values), and dims lists the tensors' shapes in order (None: unknown rank).

def is_supertype(general, specific):
    """True if tensors of shapes `specific` all fit the shapes `general`."""
    return all(_shape_includes(g, s) for g, s in zip(general, specific))


def _shape_includes(general, specific):
    if general is None:
        return True
    if specific is None or len(general) != len(specific):
        return False
    return all(g is None or g == s for g, s in zip(general, specific))


def most_specific_supertype(dims, candidates):
    """The most specific of `candidates` (dims, value) that includes `dims`, or None."""
    best = None
    for other, value in candidates:
        if is_supertype(other, dims) and (best is None or is_supertype(best[0], other)):
            best = (other, value)
    return best


def relaxed(dims, others):
    """`dims` merged with each earlier trace's in turn: sizes that differ become None,
    ranks that differ an unknown rank (TF's try_generalizing_function_type)."""
    result = tuple(dims)
    for other in others:
        result = tuple(_common(a, b) for a, b in zip(result, other))
    return result


def _common(a, b):
    if a is None or b is None or len(a) != len(b):
        return None
    return tuple(x if x == y else None for x, y in zip(a, b))
