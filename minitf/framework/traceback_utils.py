"""Traceback filtering: an error shows your frames, not minitf's insides.

TensorFlow hides its own frames from the tracebacks of the errors it raises, so
that what you read is your code and the error. minitf does the same: this

    x = tf.constant([1.0, 2.0]) + tf.constant([1, 2])

fails with a traceback of one frame - your line - and TF's message, not with
the frames of `add`, `apply` and `check_dtypes` inside minitf. Errors in a
`tf.function` or in `model.fit` keep the frames of your function and your
layers; only the files of the minitf package are dropped. If every frame is
minitf's, the innermost one stays, as in TF.

>>> import minitf as tf
>>> tf.debugging.is_traceback_filtering_enabled()
True
>>> tf.debugging.disable_traceback_filtering()  # the full traceback, minitf's frames too
>>> tf.debugging.is_traceback_filtering_enabled()
False
>>> tf.debugging.enable_traceback_filtering()

Like TF's, the setting belongs to the thread that makes it.

Where the filtering happens differs from TF. TF wraps every public op in a
decorator (`filter_traceback`, tensorflow/python/util/traceback_utils.py)
that catches the error and re-raises it with a shorter traceback; a wrapper
costs a Python call on every op, ~0.2 µs on a ~2.9 µs eager `a + b`
(benchmarks/traceback_filtering.py). minitf filters where an uncaught error
is shown instead - `sys.excepthook` for scripts, IPython's exception hook in
Jupyter - so ops pay nothing, and the error you catch yourself keeps its full
`__traceback__` (TF's would be filtered already; pass it to
`filter_exception` to get the same).
"""
import os
import sys
import threading
import types

from .tf_export import tf_export

_ENABLE_TRACEBACK_FILTERING = threading.local()
# Frames from files under these folders are hidden: the minitf package itself.
_EXCLUDED_PATHS = (os.path.dirname(os.path.dirname(os.path.abspath(__file__))) + os.sep,)
# Keras has a switch of its own for its frames (`tf.keras.config.disable_traceback_filtering`,
# which sets this), as Keras 3 beside TF: minitf/keras/ frames hide when it is on, the
# other minitf frames when tf.debugging's is on.
_KERAS_PATH = os.path.join(_EXCLUDED_PATHS[0], "keras") + os.sep
keras_filtering = {"enabled": True}


@tf_export("debugging.is_traceback_filtering_enabled")
def is_traceback_filtering_enabled():
    """True unless `tf.debugging.disable_traceback_filtering()` was called in this thread.

    >>> tf.debugging.is_traceback_filtering_enabled()
    True
    """
    return getattr(_ENABLE_TRACEBACK_FILTERING, "value", True)


@tf_export("debugging.enable_traceback_filtering")
def enable_traceback_filtering():
    """Hide minitf's own frames from the tracebacks of errors (the default).

    >>> tf.debugging.enable_traceback_filtering()
    >>> tf.debugging.is_traceback_filtering_enabled()
    True
    """
    _ENABLE_TRACEBACK_FILTERING.value = True


@tf_export("debugging.disable_traceback_filtering")
def disable_traceback_filtering():
    """Show every frame, minitf's too: what you want when you debug minitf itself.

    >>> tf.debugging.disable_traceback_filtering()
    >>> tf.debugging.is_traceback_filtering_enabled()
    False
    >>> tf.debugging.enable_traceback_filtering()
    """
    _ENABLE_TRACEBACK_FILTERING.value = False


def include_frame(fname):
    """Whether a frame of file `fname` stays in a filtered traceback (not one of minitf's).

    >>> include_frame("/home/me/train.py"), include_frame(tf.__file__)
    (True, False)
    """
    if fname.startswith(_KERAS_PATH):
        return not keras_filtering["enabled"]
    if any(fname.startswith(excluded) for excluded in _EXCLUDED_PATHS):
        return not is_traceback_filtering_enabled()
    return True


def _filtering():
    return is_traceback_filtering_enabled() or keras_filtering["enabled"]


def process_traceback_frames(tb):
    """A new traceback chain with only the frames `include_frame` keeps (TF's algorithm:
    if none is kept, the innermost frame stays, so the error still says where it arose)."""
    frames = []
    while tb is not None:
        frames.append((tb.tb_frame, tb.tb_lasti, tb.tb_lineno))
        tb = tb.tb_next
    new_tb = None
    for frame, lasti, lineno in reversed(frames):
        if include_frame(os.path.abspath(frame.f_code.co_filename)):
            new_tb = types.TracebackType(new_tb, frame, lasti, lineno)
    if new_tb is None and frames:
        new_tb = types.TracebackType(None, *frames[-1])
    return new_tb


def filter_exception(exc):
    """`exc` with minitf's frames dropped from its traceback and from those of the
    exceptions it was raised from (`__cause__`, `__context__`), if filtering is on."""
    if not _filtering():
        return exc
    seen = set()
    error = exc
    while error is not None and id(error) not in seen:  # a chain, with no cycles
        seen.add(id(error))
        error.__traceback__ = process_traceback_frames(error.__traceback__)
        error = error.__cause__ or (None if error.__suppress_context__ else error.__context__)
    return exc


# --- where tracebacks are shown ---------------------------------------------------------
def _excepthook(previous):
    def excepthook(etype, value, tb):
        if value is not None and _filtering():
            value.__traceback__ = tb
            tb = filter_exception(value).__traceback__
        previous(etype, value, tb)

    excepthook.minitf_previous = previous
    return excepthook


def _ipython_handler(shell, etype, value, tb, tb_offset=None):
    """IPython's custom exception hook: show the error with a filtered traceback."""
    if _filtering():
        value.__traceback__ = tb
        tb = filter_exception(value).__traceback__
    shell.showtraceback((etype, value, tb), tb_offset=tb_offset)


def install():
    """Filter the tracebacks that `sys.excepthook` prints, and IPython's when running in
    IPython/Jupyter (called once by `import minitf`; other hooks already set are kept:
    ours calls the previous `sys.excepthook`, and an IPython hook set by someone else
    stays in place)."""
    if not hasattr(sys.excepthook, "minitf_previous"):
        sys.excepthook = _excepthook(sys.excepthook)
    ipython = sys.modules.get("IPython")  # never imported here: only if already running
    shell = ipython.get_ipython() if ipython is not None else None
    if shell is not None and not shell.custom_exceptions:
        shell.set_custom_exc((Exception,), _ipython_handler)
