"""`deprecated`: TF's decorator for public functions on their way out.

The first call of a deprecated function logs TF's warning through `tf.get_logger()`
(the `logging.Logger` named "tensorflow"), naming the line that called it; later calls
are quiet, as in TF (`warn_once=True`). The docstring's first line gains " (deprecated)"
and a notice, as `help()` shows in TF. `tf.get_logger().setLevel("ERROR")` silences the
warning. TF's version lives in `tensorflow/python/util/deprecation.py`.

>>> import minitf as tf
>>> @deprecated(None, "Use g instead.")
... def f():
...     "Adds nothing."
>>> f.__doc__.splitlines()[0]
'Adds nothing. (deprecated)'
"""
import functools
import inspect
import sys

from .retracing import get_logger

_PRINTED_WARNING = {}  # function -> True once its warning was logged (TF's name)


def _notice(date, instructions):
    when = "in a future version" if date is None else f"after {date}"
    lines = [f"THIS FUNCTION IS DEPRECATED. It will be removed {when}."]
    if instructions:
        lines += ["Instructions for updating:", instructions]
    return lines


def _docstring(doc, date, instructions):
    lines = inspect.cleandoc(doc or "").splitlines() or [""]
    first = lines[0].rstrip() + " (deprecated)"
    notice = ["", "Deprecated: " + _notice(date, instructions)[0], *_notice(date, instructions)[1:]]
    return "\n".join([first, *notice, *lines[1:]])


def _caller():
    frame = sys._getframe(2)  # the wrapper's caller
    return f"{frame.f_code.co_filename}:{frame.f_lineno}"


def deprecated(date, instructions, warn_once=True):
    """Mark a function deprecated: its first call logs TF's warning (every call when
    warn_once=False). date None means "in a future version"."""
    def decorate(func):
        @functools.wraps(func)
        def wrapper(*args, **kwargs):
            if not (warn_once and _PRINTED_WARNING.get(wrapper)):
                _PRINTED_WARNING[wrapper] = True
                when = "in a future version" if date is None else f"after {date}"
                message = (f"From {_caller()}: {func.__name__} (from {func.__module__}) is "
                           f"deprecated and will be removed {when}.")
                if instructions:
                    message += f"\nInstructions for updating:\n{instructions}"
                get_logger().warning(message)
            return func(*args, **kwargs)

        wrapper.__doc__ = _docstring(func.__doc__, date, instructions)
        return wrapper
    return decorate
