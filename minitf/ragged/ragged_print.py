"""How a RaggedTensor prints, and its NumPy and Python-list forms.

TensorFlow prints a RaggedTensor through NumPy: `numpy()` makes an object
array of rows when their lengths differ (a plain array when they agree), and
`np.array2string(..., separator=", ")` writes it with commas, wrapping at 75
characters the way NumPy wraps:

>>> import minitf as tf
>>> tf.ragged.constant([[1, 2], [3]])
<tf.RaggedTensor [[1, 2], [3]]>
>>> print(tf.ragged.constant([[b"a"], []]))
<tf.RaggedTensor [[b'a'], []]>
>>> tf.ragged.constant([[1, 2], [3]]).numpy()
array([array([1, 2], dtype=int32), array([3], dtype=int32)], dtype=object)
"""
import numpy as np

from ..framework.graph import SymbolicTensor


def _eager_values(rt):
    values = rt.values
    if isinstance(rt.flat_values, SymbolicTensor):
        raise ValueError("RaggedTensor.numpy() is only supported in eager mode.")
    return values


def to_numpy(rt):
    """TF's RaggedTensor.numpy(): rows as arrays; one array when all rows agree in length."""
    values = _eager_values(rt)
    values = values.numpy()
    splits = rt.row_splits.numpy()
    rows = [values[splits[i]:splits[i + 1]] for i in range(len(splits) - 1)]
    if not rows:
        return np.zeros((0, 0) + values.shape[1:], dtype=values.dtype)
    ragged = any(len(row) != len(rows[0]) for row in rows)
    return np.array(rows, dtype=object if ragged else None)  # as TF builds it


def _formatter(x):
    """Separate NumPy array elements with commas (TF's ragged_tensor._formatter)."""
    if isinstance(x, np.ndarray):
        if x.size != 0:
            return np.array2string(x, separator=", ")
        return repr(x.tolist())  # array2string writes `[]` even for shape (2, 0)
    return str(x)


def ragged_repr(rt):
    """`<tf.RaggedTensor [[1, 2], [3]]>` in eager mode; values and splits inside a graph."""
    if isinstance(rt.flat_values, SymbolicTensor):  # inside a traced graph: no values yet
        return f"tf.RaggedTensor(values={rt.values}, row_splits={rt.row_splits})"
    with np.printoptions(formatter={"all": _formatter}):
        text = _formatter(to_numpy(rt))
    return f"<tf.RaggedTensor {text}>"


def to_list(rt):
    """The rows as nested Python lists (bytes stay bytes, as in TF)."""
    from .ragged_tensor import RaggedTensor
    if isinstance(rt.flat_values, SymbolicTensor):
        raise ValueError("to_list can only be used in eager mode.")
    splits = rt.row_splits.numpy().tolist()
    values = rt.values
    values = values.to_list() if isinstance(values, RaggedTensor) else values.numpy().tolist()
    return [values[splits[i]:splits[i + 1]] for i in range(len(splits) - 1)]
