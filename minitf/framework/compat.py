"""`tf.compat.as_bytes`, `as_str`, ...: turning text into bytes and back.

A `tf.string` tensor holds bytes; these helpers convert Python values at the edge:

>>> import minitf as tf
>>> tf.compat.as_bytes("héllo")
b'h\\xc3\\xa9llo'
>>> tf.compat.as_str(b'h\\xc3\\xa9llo')
'héllo'

TensorFlow's are in `tensorflow/python/util/compat.py`.
"""
import os

from .tf_export import tf_export


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
