"""JSON values <-> NumPy arrays, the way TF Serving's REST API reads and writes tensors.

A tensor is a JSON number, string or bool, or nested lists of them that form a
rectangle. Each value must fit the signature's dtype -- TF Serving refuses 1.5
for an int32 input and "1" for a float input, and so does minitf. A binary
string is written `{"b64": "..."}` (base64), both ways.

>>> import numpy as np
>>> from minitf.framework import dtypes
>>> to_array([[1, 2.5]], dtypes.float32, "x")
array([[1. , 2.5]], dtype=float32)
>>> to_json(np.array([0.1, 2.0], np.float32))
[0.1, 2.0]
>>> to_array([[1], [2, 3]], dtypes.float32, "x")
Traceback (most recent call last):
  ...
minitf.serving.errors.InvalidArgument: Input 'x': nested lists of different lengths (1 and 2) ...

Floats are written with the shortest text that reads back as the same
float32 (0.1, not 0.10000000149011612). How many digits TF Serving prints
was not checked (it cannot be installed here); the float32 values read back
are the same either way.
"""
import base64
import binascii

import numpy as np

from .errors import InvalidArgument

MAX_DEPTH = 32  # nested lists deeper than this are refused before any recursion trouble


def _kind(dtype):
    if dtype.name == "string":
        return "string"
    if dtype.name == "bool":
        return "bool"
    if dtype.is_integer:
        return "int"
    if dtype.is_complex:
        return "complex"
    return "float"


def _check_leaf(value, kind, dtype, name):
    ok = {"float": isinstance(value, (int, float)) and not isinstance(value, bool),
          "int": isinstance(value, int) and not isinstance(value, bool),
          "bool": isinstance(value, bool),
          "string": isinstance(value, str)}.get(kind, False)
    if kind == "string" and isinstance(value, dict):
        return _b64(value, name)
    if not ok:
        raise InvalidArgument(
            f"JSON Value: {_show(value)} Type: {_json_type(value)} is not of expected type: "
            f"{dtype.name} (input {name!r}; a {dtype.name} input takes "
            f"{_EXPECTED[kind]}).")
    return value.encode() if kind == "string" else value


_EXPECTED = {"float": "JSON numbers", "int": "whole JSON numbers such as 3, not 3.0",
             "bool": "true or false", "string": 'JSON strings or {"b64": "..."}',
             "complex": "nothing: complex inputs are not supported over JSON"}


def _b64(value, name):
    if list(value) != ["b64"] or not isinstance(value["b64"], str):
        raise InvalidArgument(f'Input {name!r}: an object stands for a binary string only as '
                              f'{{"b64": "<base64 text>"}}, got {_show(value)}.')
    try:
        return base64.b64decode(value["b64"], validate=True)
    except (binascii.Error, ValueError):
        raise InvalidArgument(f"Input {name!r}: {value['b64'][:40]!r} is not valid base64: "
                              "unable to base64 decode.") from None


def _show(value):
    text = str(value)
    return text if len(text) <= 60 else text[:57] + "..."


def _json_type(value):
    if isinstance(value, bool):
        return "Bool"
    if isinstance(value, (int, float)):
        return "Number"
    if isinstance(value, str):
        return "String"
    return "Object" if isinstance(value, dict) else "Array" if isinstance(value, list) else "Null"


def _shape_and_leaves(value, kind, dtype, name):
    """Walk nested lists level by level (no recursion): their shape and flat leaves."""
    shape, level = [], [value]
    while level and all(isinstance(v, list) for v in level):
        lengths = {len(v) for v in level}
        if len(lengths) > 1:
            a, b = sorted(lengths)[:2]
            raise InvalidArgument(f"Input {name!r}: nested lists of different lengths ({a} and "
                                  f"{b}) are not a tensor; every row must have the same length.")
        shape.append(lengths.pop())
        if len(shape) > MAX_DEPTH:
            raise InvalidArgument(f"Input {name!r}: lists nested deeper than {MAX_DEPTH}.")
        level = [item for v in level for item in v]
    if any(isinstance(v, list) for v in level):
        raise InvalidArgument(f"Input {name!r}: a list mixes numbers and lists at the same "
                              "depth; every row must have the same shape.")
    return shape, [_check_leaf(v, kind, dtype, name) for v in level]


def to_array(value, dtype, name):
    """The array of `dtype` that JSON `value` stands for (`InvalidArgument` if none)."""
    kind = _kind(dtype)
    shape, leaves = _shape_and_leaves(value, kind, dtype, name)
    if kind == "string":
        array = np.empty(len(leaves), dtype=object)
        array[:] = leaves
        return array.reshape(shape)
    try:
        with np.errstate(over="raise"):
            array = np.array(leaves, dtype=dtype.as_numpy_dtype)
    except (OverflowError, FloatingPointError):
        raise InvalidArgument(f"Input {name!r}: a value is out of range for "
                              f"{dtype.name}.") from None
    return array.reshape(shape)


def to_json(array, binary=False):
    """Nested lists (or a scalar) for the JSON answer; bytes as text, or as {"b64"} if `binary`."""
    array = np.asarray(array)
    if array.size == 0:
        return np.zeros(array.shape).tolist()  # the nested empty lists of that shape
    if array.dtype == object or array.dtype.kind == "S":
        flat = [_text(v, binary) for v in array.reshape(-1)]
        return _nest(flat, array.shape)
    if array.dtype == np.float32 or array.dtype == np.float16:
        flat = [float(str(v)) for v in array.reshape(-1)]  # shortest float32 text
        return _nest(flat, array.shape)
    return array.tolist()


def _text(value, binary):
    if isinstance(value, bytes):
        return {"b64": base64.b64encode(value).decode()} if binary else \
            value.decode("utf-8", "replace")
    return str(value)


def _nest(flat, shape):
    for size in reversed(shape[1:]):
        flat = [flat[i:i + size] for i in range(0, len(flat), size)]
    return flat if shape else flat[0]
