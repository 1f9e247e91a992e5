"""`tf.print`: printing as an op, so it happens every time a graph runs.

Python's `print` inside a `tf.function` runs only while tracing (it is
Python); `tf.print` becomes a node of the graph and prints on every call.
It writes to standard error by default, as TensorFlow does, and formats
numbers its own way: `[1 2.5]`, floats in the shortest form that reads back
exactly, booleans as 1/0, and long axes summarised to three items each side.

>>> import sys
>>> tf.print("x =", tf.constant([1.0, 2.5]), output_stream=sys.stdout)
x = [1 2.5]
>>> tf.print(tf.range(10), output_stream=sys.stdout)
[0 1 2 ... 7 8 9]
"""
import sys

import numpy as np

from ..framework import dtypes, nest
from ..framework.op import Op, apply
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export


def _number(value):
    """TF's FloatToBuffer rule: %.6g if it reads back exactly, else %.9g (15/17 for doubles)."""
    if isinstance(value, (np.bool_, bool)):
        return "1" if value else "0"
    if isinstance(value, bytes):
        return '"' + value.decode("utf-8", "replace") + '"'
    if isinstance(value, (np.complexfloating, complex)):
        return "?"  # TF prints complex numbers as "?"
    if isinstance(value, np.floating):
        short, full = (6, 9) if value.dtype.itemsize <= 4 else (15, 17)
        text = f"{value:.{short}g}"
        return text if value.dtype.type(text) == value or np.isnan(value) else f"{value:.{full}g}"
    return str(value)


def _rows(array, summarize):
    """Indices to show along the first axis: all, or first and last `summarize` (None = gap)."""
    n = array.shape[0]
    if summarize < 0 or n <= 2 * summarize:
        return list(range(n))
    return list(range(summarize)) + [None] + list(range(n - summarize, n))


def format_tensor(array, summarize=3, indent=1):
    """A NumPy array as tf.print shows it."""
    if array.ndim == 0:
        return _number(array[()])
    parts = [("..." if i is None else
              _number(array[i]) if array.ndim == 1 else
              format_tensor(array[i], summarize, indent + 1)) for i in _rows(array, summarize)]
    if array.ndim == 1:
        return "[" + " ".join(parts) + "]"
    separator = "\n" * (array.ndim - 1) + " " * indent
    return "[" + separator.join(parts) + "]"


def _print_forward(*arrays, template, output_stream, sep, end, summarize):
    values = iter(arrays)
    pieces = []
    for item in template:
        if item is _TENSOR:
            pieces.append(format_tensor(np.asarray(next(values)), summarize))
        else:
            pieces.append(nest.map_structure(
                lambda leaf: _Shown(format_tensor(np.asarray(next(values)), summarize))
                if leaf is _TENSOR else leaf, item) if nest.is_nested(item) else str(item))
    # The default is "standard error as it is now" (Jupyter and pytest replace sys.stderr).
    stream = sys.stderr if output_stream is _IMPORT_STDERR or not hasattr(
        output_stream, "write") else output_stream
    stream.write(sep.join(str(p) for p in pieces) + end)
    return np.zeros((0,), np.int32)


class _Shown:
    """A formatted tensor inside a printed Python structure (shown without quotes)."""

    def __init__(self, text):
        self.text = text

    def __repr__(self):
        return self.text


_TENSOR = object()  # marks where a tensor goes in the print template
_IMPORT_STDERR = sys.stderr

PrintV2 = Op("PrintV2", _print_forward, typed=(), stateful=True,
             shape=lambda *shapes, **attrs: TensorShape([0]), dtype=dtypes.int32)


@tf_export("print")
def print_v2(*inputs, output_stream=sys.stderr, summarize=3, sep=" ", end="\n", name=None):
    """Print tensors (and Python values) when the op runs: every call of a tf.function.

    summarize: items shown at each end of an axis (-1: all). Writes to
    sys.stderr unless `output_stream` says otherwise; returns None, as in TF 2.
    """
    tensors, template = [], []
    for item in inputs:
        if isinstance(item, Tensor) or hasattr(item, "_is_variable"):
            tensors.append(convert_to_tensor(item))
            template.append(_TENSOR)
        elif nest.is_nested(item) and any(isinstance(leaf, Tensor) for leaf in nest.flatten(item)):
            leaves = nest.flatten(item)
            tensors.extend(convert_to_tensor(leaf) for leaf in leaves if isinstance(leaf, Tensor))
            template.append(nest.pack_sequence_as(
                item, [_TENSOR if isinstance(leaf, Tensor) else leaf for leaf in leaves]))
        else:
            template.append(item)
    apply(PrintV2, tensors, {"template": tuple(template), "output_stream": output_stream,
                             "sep": sep, "end": end, "summarize": int(summarize)})
    return None
