"""`tf.ragged.constant`: a RaggedTensor from nested Python lists.

The nesting depth of the scalars says the rank; `ragged_rank` (default: all
but the innermost list level, or rank - 1 - len(inner_shape)) says how many
of the outer levels are ragged - the levels below stay a dense `inner_shape`:

>>> import minitf as tf
>>> tf.ragged.constant([[1, 2], [3]])
<tf.RaggedTensor [[1, 2], [3]]>
>>> rt = tf.ragged.constant([[[1, 2], [3, 4]], [[5, 6]]], ragged_rank=1)
>>> rt.shape
TensorShape([2, None, 2])

Each ragged level becomes one row_splits: the lengths of its lists, summed up.
Follows `tensorflow/python/ops/ragged/ragged_factory_ops.py`.
"""
import numpy as np

from ..framework import dtypes
from ..framework.tensor import convert_to_tensor
from ..framework.tf_export import tf_export
from ..ops.array_ops import reshape
from .ragged_tensor import RaggedTensor, is_ragged


def _is_list(value):
    return isinstance(value, (list, tuple)) or np.ndim(value) != 0


def _scalar_and_max_depth(pylist):
    """(depth of the scalars or None when there are none, depth of the deepest list)."""
    if not _is_list(pylist):
        return 0, 0
    scalar_depth, max_depth = None, 1
    for child in pylist:
        child_scalar, child_max = _scalar_and_max_depth(child)
        if child_scalar is not None:
            if scalar_depth is not None and scalar_depth != child_scalar + 1:
                raise ValueError("all scalar values must have the same nesting depth")
            scalar_depth = child_scalar + 1
        max_depth = max(max_depth, child_max + 1)
    return scalar_depth, max_depth


def _first_shape(item):
    if not _is_list(item):
        return ()
    return (len(item),) + _first_shape(item[0]) if len(item) else (0,)


def _check_inner_shape(item, shape):
    if _is_list(item) != bool(shape) or (shape and shape[0] != len(item)):
        raise ValueError("inner values have inconsistent shape")
    for child in (item if shape else ()):
        _check_inner_shape(child, shape[1:])


def _default_inner_shape(pylist, ragged_rank):
    flat = pylist
    for dim in range(ragged_rank):
        if not all(_is_list(v) for v in flat):
            raise ValueError(f"pylist has scalar values depth {dim + 1}, but ragged_rank="
                             f"{ragged_rank} requires scalar value depth greater than "
                             f"{ragged_rank}")
        flat = [x for v in flat for x in v]
    shape = _first_shape(flat)
    _check_inner_shape(flat, shape)
    return shape[1:]


def _dense(values, dtype, shape=None):
    tensor = convert_to_tensor(values, dtype=dtype)
    if shape is not None and tuple(tensor.shape.as_list()) != tuple(shape):
        tensor = reshape(tensor, list(shape))
    return tensor


def _check_depths(pylist, ragged_rank, inner_shape):
    if ragged_rank is not None and ragged_rank < 0:
        raise ValueError(f"Invalid ragged_rank={ragged_rank!r}: must be nonnegative")
    scalar_depth, max_depth = _scalar_and_max_depth(pylist)
    if scalar_depth is not None:
        if max_depth > scalar_depth:
            raise ValueError(f"Invalid pylist={pylist!r}: empty list nesting is greater than "
                             "scalar value nesting")
        if ragged_rank is not None and max_depth < ragged_rank:
            raise ValueError(f"Invalid pylist={pylist}, max depth smaller than ragged_rank="
                             f"{ragged_rank}")
    if inner_shape is not None and ragged_rank is not None:
        expected = ragged_rank + len(inner_shape) + 1
        if (expected != scalar_depth) if scalar_depth is not None else expected < max_depth:
            raise ValueError(f"Invalid pylist={pylist!r}: incompatible with ragged_rank="
                             f"{ragged_rank} and dim(inner_shape)={len(inner_shape)}")
    return scalar_depth, max_depth


@tf_export("ragged.constant")
def constant(pylist, dtype=None, ragged_rank=None, inner_shape=None, name=None,
             row_splits_dtype=dtypes.int64):
    """A RaggedTensor (or, for a list of scalars, a Tensor) from nested lists.

    >>> tf.ragged.constant([[1.0], [], [2.0, 3.0]], dtype=tf.float64)
    <tf.RaggedTensor [[1.0], [], [2.0, 3.0]]>
    >>> tf.ragged.constant([1, 2])
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([1, 2], dtype=int32)>
    """
    if is_ragged(pylist):
        raise TypeError("pylist may not be a RaggedTensor or RaggedTensorValue.")
    inner_shape = None if inner_shape is None else tuple(inner_shape)
    if not isinstance(pylist, (list, tuple)) and np.ndim(pylist) == 0:
        if ragged_rank is not None and ragged_rank != 0:
            raise ValueError(f"Invalid pylist={pylist!r}: incompatible with ragged_rank="
                             f"{ragged_rank}")
        if inner_shape:
            raise ValueError(f"Invalid pylist={pylist!r}: incompatible with dim(inner_shape)="
                             f"{len(inner_shape)}")
        return _dense(pylist, dtype, ())
    scalar_depth, max_depth = _check_depths(pylist, ragged_rank, inner_shape)
    if ragged_rank == 0 or (ragged_rank is None and (
            max_depth < 2 or (inner_shape is not None and max_depth - len(inner_shape) < 2))):
        return _dense(pylist, dtype, inner_shape)
    if inner_shape is None:
        inner_shape = () if ragged_rank is None else _default_inner_shape(pylist, ragged_rank)
    if ragged_rank is None:
        ragged_rank = max(1, (max_depth - 1) if scalar_depth is None
                          else scalar_depth - 1 - len(inner_shape))
    nested_splits, values = [], pylist
    for _ in range(ragged_rank):  # one level of lists -> one row_splits
        splits, flat = [0], []
        for row in values:
            splits.append(splits[-1] + len(row))
            flat.extend(row)
        nested_splits.append(splits)
        values = flat
    values = _dense(values, dtype, (len(values),) + inner_shape)
    numpy_dtype = dtypes.as_dtype(row_splits_dtype).as_numpy_dtype
    for splits in reversed(nested_splits):
        splits = convert_to_tensor(np.array(splits, numpy_dtype))
        values = RaggedTensor.from_row_splits(values, splits, validate=False)
    return values
