"""`tf.compat.as_bytes`, `as_str`, ...: turning text into bytes and back.

A `tf.string` tensor holds bytes; these helpers convert Python values at the edge:

>>> import minitf as tf
>>> tf.compat.as_bytes("héllo")
b'h\\xc3\\xa9llo'
>>> tf.compat.as_str(b'h\\xc3\\xa9llo')
'héllo'

TensorFlow's are in `tensorflow/python/util/compat.py`.
"""
import contextlib
import datetime
import numbers
import os

import numpy as np

from .tf_export import tf_export

bytes_or_text_types = (bytes, str)
integral_types = (numbers.Integral, np.integer)
real_types = (numbers.Real, np.integer, np.floating)
complex_types = (numbers.Complex, np.number)
for _name in ("bytes_or_text_types", "integral_types", "real_types", "complex_types"):
    tf_export(f"compat.{_name}")(globals()[_name])

# TF 2.21's build date for forward compatibility (tensorflow/python/compat/compat.py).
_HORIZON = [datetime.date(2026, 1, 16)]


@tf_export("compat.as_bytes")
def as_bytes(bytes_or_text, encoding="utf-8"):
    """`str` encoded (UTF-8 by default); `bytes` and `bytearray` as bytes.

    >>> tf.compat.as_bytes(bytearray(b"ab"))
    b'ab'
    """
    if isinstance(bytes_or_text, bytearray):
        return bytes(bytes_or_text)
    if isinstance(bytes_or_text, str):
        return bytes_or_text.encode(encoding)
    if isinstance(bytes_or_text, bytes):
        return bytes_or_text
    raise TypeError(f"Expected binary or unicode string, got {bytes_or_text!r}")


@tf_export("compat.as_text", "compat.as_str")
def as_text(bytes_or_text, encoding="utf-8"):
    """`bytes` decoded (UTF-8 by default); `str` as is.

    >>> tf.compat.as_text(b"abc")
    'abc'
    """
    if isinstance(bytes_or_text, str):
        return bytes_or_text
    if isinstance(bytes_or_text, bytes):
        return bytes_or_text.decode(encoding)
    raise TypeError(f"Expected binary or unicode string, got {bytes_or_text!r}")


as_str = as_text


@tf_export("compat.as_str_any")
def as_str_any(value, encoding="utf-8"):
    """`bytes` decoded, anything else through `str()`.

    >>> tf.compat.as_str_any(5)
    '5'
    """
    if isinstance(value, bytes):
        return as_str(value, encoding=encoding)
    return str(value)


@tf_export("compat.path_to_str")
def path_to_str(path):
    """A path-like object (`pathlib.Path`) as its `str`; anything else unchanged.

    >>> import pathlib
    >>> tf.compat.path_to_str(pathlib.Path("data") / "x.csv")
    'data/x.csv'
    """
    if hasattr(path, "__fspath__"):
        path = as_str_any(path.__fspath__())
    return path


@tf_export("compat.dimension_value")
def dimension_value(dimension):
    """The int (or None) of a dimension; minitf's shapes already hold plain ints.

    A TF1 `Dimension` gives its `.value`; anything else comes back as it is (TF checks
    nothing more: a string or a float passes through too).

    >>> tf.compat.dimension_value(tf.TensorShape([3, None])[0])
    3
    >>> tf.compat.dimension_value(None) is None
    True
    """
    if type(dimension).__name__ == "Dimension" and hasattr(dimension, "value"):
        return dimension.value  # tf.compat.v1.Dimension
    return dimension


def _horizon():
    delta = int(os.environ.get("TF_FORWARD_COMPATIBILITY_DELTA_DAYS", "0") or 0)
    return _HORIZON[-1] + datetime.timedelta(days=delta)


@tf_export("compat.forward_compatible")
def forward_compatible(year, month, day):
    """Whether this build's compatibility horizon (2026-01-16 for TF 2.21) is past a date.

    >>> tf.compat.forward_compatible(2021, 1, 1)
    True
    """
    return _horizon() > datetime.date(year, month, day)


@tf_export("compat.forward_compatibility_horizon")
@contextlib.contextmanager
def forward_compatibility_horizon(year, month, day):
    """Within the block, `forward_compatible` uses this date as the horizon.

    >>> with tf.compat.forward_compatibility_horizon(2040, 1, 1):
    ...     tf.compat.forward_compatible(2030, 1, 1)
    True
    """
    _HORIZON.append(datetime.date(year, month, day))
    try:
        yield
    finally:
        _HORIZON.pop()
