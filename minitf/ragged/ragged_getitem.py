"""`rt[key]`: indexing and slicing a RaggedTensor.

The first index picks rows (an int gives one row, a dense Tensor or a smaller
RaggedTensor; a slice gives a RaggedTensor of those rows). A slice on a ragged
axis cuts every row on its own - Python's slice rules, row by row; an int on a
ragged axis is refused, since row lengths differ:

>>> import minitf as tf
>>> rt = tf.ragged.constant([[1, 2, 3], [4], []])
>>> rt[0]
<tf.Tensor: shape=(3,), dtype=int32, numpy=array([1, 2, 3], dtype=int32)>
>>> rt[:, :2]
<tf.RaggedTensor [[1, 2], [4], []]>
>>> rt[1:, ::-1]
<tf.RaggedTensor [[4], []]>

Every selection is a gather of values, so gradients reach the values.
Follows `tensorflow/python/ops/ragged/ragged_getitem.py`.
"""
import numpy as np

from ..framework.tensor import Tensor, convert_to_tensor
from ..ops.gather_ops import gather
from .ragged_tensor import RaggedTensor


def _expand_ellipsis(key, rank):
    count = sum(k is Ellipsis for k in key)
    if count > 1:
        raise ValueError("Ellipsis may only appear once in a __getitem__ key.")
    if not count:
        return key
    at = key.index(Ellipsis)
    used = sum(k is not None for k in key) - 1
    return key[:at] + (slice(None),) * (rank - used) + key[at + 1:]


def _check_key(k):
    if isinstance(k, (int, np.integer, slice)) or k is None or k is Ellipsis:
        return
    if isinstance(k, Tensor) and k.shape.rank == 0:
        return
    raise TypeError(f"Ragged __getitem__ expects int, slice, Ellipsis, or tf.newaxis; got "
                    f"{type(k).__name__}. (Index a RaggedTensor with Python ints and slices; "
                    "use tf.gather for a list of rows.)")


def ragged_getitem(rt, key):
    key = key if isinstance(key, tuple) else (key,)
    for k in key:
        _check_key(k)
    key = _expand_ellipsis(key, rt.shape.rank)
    if not key:
        return rt
    return _outer(rt, key)


def take_rows(rt, rows):
    """The rows `rows` (an int array) of a RaggedTensor, as a RaggedTensor."""
    rows = np.asarray(rows, dtype=np.int64)
    splits = rt._splits().astype(np.int64)
    starts, lengths = splits[rows], splits[rows + 1] - splits[rows]
    value_index = (np.concatenate([np.arange(s, s + n) for s, n in zip(starts, lengths)])
                   if len(rows) else np.zeros(0, np.int64)).astype(np.int64)
    new_splits = np.concatenate([[0], np.cumsum(lengths)]).astype(
        rt.row_splits_dtype.as_numpy_dtype)
    return RaggedTensor.from_row_splits(take_values(rt.values, value_index),
                                        convert_to_tensor(new_splits), validate=False)


def take_values(values, index):
    """Rows `index` of a dense tensor or of a RaggedTensor."""
    if isinstance(values, RaggedTensor):
        return take_rows(values, index)
    return gather(values, index.astype(np.int64))


def _row(rt, i):
    n = rt.nrows_value()
    i = int(i)
    if not -n <= i < n:
        raise IndexError(f"Row key {i} out of bounds (the tensor has {n} rows).")
    i %= n
    splits = rt._splits()
    index = np.arange(splits[i], splits[i + 1])
    return take_values(rt.values, index)


def _apply_rest(value, rest):
    if not rest:
        return value
    if isinstance(value, RaggedTensor):
        return _outer(value, rest)
    return value[rest]


def _outer(rt, key):
    """Apply `key` to `rt`, whose first axis is the row axis."""
    first, rest = key[0], key[1:]
    if first is None:  # tf.newaxis: the whole result becomes the single row of a new axis
        inner = _apply_rest(rt, rest)
        if isinstance(inner, RaggedTensor):
            return RaggedTensor.from_uniform_row_length(inner, inner.nrows_value(), nrows=1)
        return inner[None]
    if isinstance(first, slice):
        rows = np.arange(rt.nrows_value())[first]
        selected = take_rows(rt, rows)
        return _inner(selected, rest) if rest else selected
    return _apply_rest(_row(rt, first), rest)


def _inner(rt, key):
    """Apply `key` to the axes after the rows: key[0] indexes within each row."""
    first, rest = key[0], key[1:]
    if first is None:  # a new axis of length 1 inside every row
        inner = _inner(rt, rest) if rest else rt
        return RaggedTensor.from_uniform_row_length(inner, 1, nrows=inner.nrows_value())
    if not isinstance(first, slice):
        if rt.uniform_row_length is not None:
            return _inner_uniform_int(rt, first, rest)
        raise ValueError("Cannot index into an inner ragged dimension. (Rows differ in "
                         "length, so one position is not in every row: slice instead, e.g. "
                         "rt[:, :1], or use rt.to_tensor() first.)")
    splits = rt._splits().astype(np.int64)
    pieces = [np.arange(splits[i], splits[i + 1])[first] for i in range(len(splits) - 1)]
    lengths = np.array([len(p) for p in pieces], dtype=np.int64)
    index = np.concatenate(pieces).astype(np.int64) if pieces else np.zeros(0, np.int64)
    values = take_values(rt.values, index)
    if rest:
        values = _outer(values, (slice(None),) + rest) if isinstance(values, RaggedTensor) \
            else values[(slice(None),) + rest]
    new_splits = np.concatenate([[0], np.cumsum(lengths)]).astype(
        rt.row_splits_dtype.as_numpy_dtype)
    return RaggedTensor.from_row_splits(values, convert_to_tensor(new_splits), validate=False)


def _inner_uniform_int(rt, first, rest):
    """An int on a uniform axis: the same position in every row."""
    length = rt.uniform_row_length.numpy()
    i = int(first)
    if not -length <= i < length:
        raise IndexError(f"Index {i} out of bounds for a uniform dimension of size {length}.")
    index = np.arange(rt.nrows_value()) * length + i % length
    values = take_values(rt.values, index)
    if not rest:
        return values
    return _outer(values, (slice(None),) + rest) if isinstance(values, RaggedTensor) \
        else values[(slice(None),) + rest]
