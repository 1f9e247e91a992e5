"""Attribute values and tensors as plain JSON, and back, with every size checked.

A graph node's attributes are Python values (`strides=(1, 1)`, `DstT=tf.int32`,
a constant's NumPy array, a loop's body graph). A SavedModel writes each as
JSON; whatever is not plain JSON gets a one-key tag:

    (1, 2)            -> {"tuple": [1, 2]}
    tf.float32        -> {"dtype": "float32"}
    TensorShape([None, 3]) -> {"shape": [null, 3]}
    np.array([1., 2.], np.float32) -> {"ndarray": {"dtype": "float32", "shape": [2],
                                                   "data": "<base64 of the bytes>"}}

>>> from minitf.saved_model import values
>>> import numpy as np
>>> text = values.encode({"strides": (1, 2), "x": np.float32([0.5])})
>>> text
{'dict': [['strides', {'tuple': [1, 2]}], ['x', {'ndarray': {'dtype': 'float32', 'shape': [1], 'data': 'AAAAPw=='}}]]}
>>> values.decode(text, values.Budget("f.json"))
{'strides': (1, 2), 'x': array([0.5], dtype=float32)}

A value with no JSON form (a Python function, a dataset object) is refused
when saving, with the attribute's name: a file never holds code.
"""
import base64
import math

import numpy as np

from ..framework import dtypes
from ..framework.tensor_shape import TensorShape

# Sane limits on what a file may declare: checked before anything is allocated.
MAX_ELEMENTS = 1 << 28       # elements of one constant or variable (1 GiB of float32)
MAX_TOTAL_BYTES = 1 << 31    # bytes of all constants of a file together
MAX_NODES = 1 << 20          # graph nodes of a file together
MAX_DEPTH = 64               # nesting of values and sub-graphs
MAX_ITEMS = 1 << 20          # entries of one list, tuple or dict


class Unrepresentable(ValueError):
    """A value that a SavedModel cannot hold."""


class Budget:
    """What a file may still allocate; every decoded array and node draws from it."""

    def __init__(self, filename):
        self.filename = filename
        self.bytes = MAX_TOTAL_BYTES
        self.nodes = MAX_NODES

    def fail(self, message):
        return ValueError(f"{self.filename}: {message}. The file is corrupt, truncated or was "
                          "changed by hand; save the model again.")

    def take_nodes(self, count):
        if not isinstance(count, int) or count < 0 or count > self.nodes:
            raise self.fail(f"the graphs declare more than {MAX_NODES} nodes")
        self.nodes -= count


def encode(value, where="value"):
    """`value` as JSON-ready data; Unrepresentable (naming `where`) if it has no form."""
    if value is None or isinstance(value, (bool, str)):
        return value
    if isinstance(value, int) and not isinstance(value, np.integer):
        return value
    if isinstance(value, float):
        return value if math.isfinite(value) else {"float": repr(value)}
    if isinstance(value, tuple):
        return {"tuple": [encode(v, where) for v in value]}
    if isinstance(value, list):
        return {"list": [encode(v, where) for v in value]}
    if isinstance(value, dict):
        if not all(isinstance(k, str) for k in value):
            raise Unrepresentable(f"{where}: a dict with non-string keys")
        return {"dict": [[k, encode(v, where)] for k, v in value.items()]}
    if isinstance(value, dtypes.DType):
        return {"dtype": value.name}
    if isinstance(value, TensorShape):
        return {"shape": None if value.rank is None else list(value.dims)}
    if isinstance(value, np.ndarray):
        return {"ndarray": encode_array(value, where)}
    if isinstance(value, np.generic):
        return {"scalar": encode_array(np.asarray(value), where)}
    raise Unrepresentable(f"{where}: a {type(value).__name__} has no form in a SavedModel "
                          "file (only numbers, strings, dtypes, shapes, arrays and lists of "
                          "those; never code)")


def encode_array(array, where="array"):
    if array.dtype == object:  # tf.string: each element as base64 bytes
        items = [x if isinstance(x, bytes) else str(x).encode() for x in array.reshape(-1)]
        return {"dtype": "string", "shape": list(array.shape),
                "items": [base64.b64encode(x).decode("ascii") for x in items]}
    try:
        name = dtypes.from_numpy(array.dtype).name
    except (TypeError, ValueError, KeyError):
        raise Unrepresentable(f"{where}: an array of NumPy dtype {array.dtype}") from None
    data = np.ascontiguousarray(array).astype(array.dtype.newbyteorder("<"), copy=False)
    return {"dtype": name, "shape": list(array.shape),
            "data": base64.b64encode(data.tobytes()).decode("ascii")}


def decode(data, budget, depth=0):
    """The inverse of `encode`; ValueError naming `budget.filename` for anything malformed."""
    if depth > MAX_DEPTH:
        raise budget.fail(f"values nest deeper than {MAX_DEPTH} levels")
    if data is None or isinstance(data, (bool, str, int, float)):
        return data
    if not isinstance(data, dict) or len(data) != 1:
        raise budget.fail(f"unexpected value {_short(data)}")
    (tag, body), = data.items()
    if tag in ("tuple", "list"):
        items = [decode(v, budget, depth + 1) for v in _sequence(body, budget)]
        return tuple(items) if tag == "tuple" else items
    if tag == "dict":
        pairs = _sequence(body, budget)
        if not all(isinstance(p, list) and len(p) == 2 and isinstance(p[0], str) for p in pairs):
            raise budget.fail("a dict entry is not a [name, value] pair")
        return {k: decode(v, budget, depth + 1) for k, v in pairs}
    if tag == "float" and body in ("nan", "inf", "-inf"):
        return float(body)
    if tag == "dtype":
        return decode_dtype(body, budget)
    if tag == "shape":
        return decode_shape(body, budget)
    if tag == "ndarray":
        return decode_array(body, budget)
    if tag == "scalar":
        array = decode_array(body, budget)
        if array.ndim != 0:
            raise budget.fail("a scalar with a shape")
        return array[()]
    raise budget.fail(f"unknown value tag {tag!r}")


def _sequence(body, budget):
    if not isinstance(body, list) or len(body) > MAX_ITEMS:
        raise budget.fail(f"expected a list of at most {MAX_ITEMS} entries")
    return body


def decode_dtype(name, budget):
    try:
        return dtypes.as_dtype(name)
    except (TypeError, ValueError, KeyError):
        raise budget.fail(f"unknown dtype {_short(name)}") from None


def decode_shape(dims, budget):
    if dims is None:
        return TensorShape(None)
    if not isinstance(dims, list) or len(dims) > 32 or not all(
            d is None or (isinstance(d, int) and not isinstance(d, bool) and 0 <= d <= MAX_ELEMENTS)
            for d in dims):
        raise budget.fail(f"bad shape {_short(dims)}")
    return TensorShape(dims)


def element_count(shape, budget):
    """The number of elements of a fully known shape, checked against the limits."""
    shape = decode_shape(shape, budget)
    if shape.rank is None or any(d is None for d in shape.dims):
        raise budget.fail(f"an array needs a fully known shape, not {shape}")
    count = 1
    for d in shape.dims:
        count *= d
        if count > MAX_ELEMENTS:
            raise budget.fail(f"an array of shape {shape} is larger than the limit of "
                              f"{MAX_ELEMENTS} elements")
    return tuple(shape.dims), count


def decode_array(body, budget):
    if not isinstance(body, dict):
        raise budget.fail("an array entry is not an object")
    dtype = decode_dtype(body.get("dtype"), budget)
    shape, count = element_count(body.get("shape"), budget)
    if dtype is dtypes.string:
        items = body.get("items")
        if not isinstance(items, list) or len(items) != count:
            raise budget.fail(f"a string array of shape {list(shape)} has "
                              f"{len(items) if isinstance(items, list) else 'no'} items")
        out = np.empty(count, dtype=object)
        for i, text in enumerate(items):
            out[i] = _b64(text, budget)
        budget.bytes -= sum(len(x) for x in out)
        if budget.bytes < 0:
            raise budget.fail("the constants are larger than the limit")
        return out.reshape(shape)
    np_dtype = np.dtype(dtype.as_numpy_dtype).newbyteorder("<")
    expected = count * np_dtype.itemsize
    text = body.get("data")
    if not isinstance(text, str) or len(text) != 4 * ((expected + 2) // 3):
        raise budget.fail(f"an array of shape {list(shape)} and dtype {dtype.name} needs "
                          f"{expected} bytes, but its data has another length")
    if expected > budget.bytes:
        raise budget.fail("the constants are larger than the limit")
    budget.bytes -= expected
    raw = _b64(text, budget)
    return np.frombuffer(raw, dtype=np_dtype).astype(np_dtype.newbyteorder("="),
                                                      copy=True).reshape(shape)


def _b64(text, budget):
    try:
        return base64.b64decode(text.encode("ascii"), validate=True)
    except (ValueError, UnicodeError, AttributeError):
        raise budget.fail("array data is not valid base64") from None


def _short(value):
    text = repr(value)
    return text if len(text) < 60 else text[:57] + "..."
