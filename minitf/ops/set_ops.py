"""tf.sets: intersection, union, difference and size of the sets along the last axis.

Each row of the last axis is one set (repeats count once). The three set operations
return a SparseTensor whose row i holds the resulting set, sorted; its last
dimension is the size of the largest result.

>>> import minitf as tf
>>> a = tf.constant([[1, 2, 3], [4, 5, 6]])
>>> b = tf.constant([[1, 3, 7], [6, 6, 4]])
>>> tf.sparse.to_dense(tf.sets.intersection(a, b)).numpy()
array([[1, 3],
       [4, 6]], dtype=int32)
>>> tf.sets.size(tf.sets.union(a, b)).numpy()
array([4, 3], dtype=int32)

As in TF, the kernels are DenseToDenseSetOperation, DenseToSparseSetOperation,
SparseToSparseSetOperation and SetSize; the sets hold integers or strings; set
operations have no gradient.
"""
import numpy as np

from ..framework import dtypes, errors
from ..framework.op import Op, apply
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export
from .sparse_tensor import SparseTensor

_VALID = (dtypes.int8, dtypes.int16, dtypes.int32, dtypes.int64, dtypes.uint8, dtypes.uint16,
          dtypes.string)


def _fail(op_name, message):
    raise errors.op_error(errors.InvalidArgumentError, op_name, message,
                          "tf.sets treats the last axis as the set: inputs need rank >= 2 "
                          "and the same leading dimensions.")


def _dense_rows(op_name, array):
    """{outer index tuple: the set's values}, and the outer shape."""
    if array.ndim < 2:
        _fail(op_name, f"Shape {list(array.shape)} has rank {array.ndim} < 2")
    outer = array.shape[:-1]
    flat = array.reshape(int(np.prod(outer)), array.shape[-1])
    return {np.unravel_index(i, outer): set(row.tolist()) for i, row in enumerate(flat)}, outer


def _sparse_rows(op_name, indices, values, shape):
    if shape.size < 2:
        _fail(op_name, f"Shape {shape.tolist()} has rank {shape.size} < 2")
    rows = {}
    for index, value in zip(indices.tolist(), values.tolist()):
        rows.setdefault(tuple(index[:-1]), set()).add(value)
    return rows, tuple(int(d) for d in shape[:-1])


def _combine(op_name, a, b, set_operation):
    (rows_a, outer_a), (rows_b, outer_b) = a, b
    if tuple(outer_a) != tuple(outer_b):
        _fail(op_name, f"Mismatched shapes {list(outer_a)} vs {list(outer_b)}")
    combine = {"intersection": set.intersection, "union": set.union,
               "a-b": set.difference, "b-a": lambda x, y: y - x}[set_operation]
    results = {}
    for index in sorted(set(rows_a) | set(rows_b)):
        found = sorted(combine(rows_a.get(index, set()), rows_b.get(index, set())))
        if found:
            results[index] = found
    return _to_sparse(results, tuple(outer_a))


def _to_sparse(results, outer):
    width = max((len(v) for v in results.values()), default=0)
    indices = [list(index) + [j] for index, found in results.items() for j in range(len(found))]
    values = [v for found in results.values() for v in found]
    indices = np.array(indices, np.int64).reshape(-1, len(outer) + 1)
    return indices, values, np.array(list(outer) + [width], np.int64)


def _typed(forward, values_position):
    """Give the values the dtype of the first set's values (object arrays for strings)."""
    def run(*arrays, **attrs):
        values_dtype = arrays[values_position].dtype
        indices, values, shape = forward(*arrays, **attrs)
        return indices, np.array(values, dtype=values_dtype).reshape(-1), shape
    return run


def _dense_dense(set1, set2, set_operation, validate_indices=True):
    name = "DenseToDenseSetOperation"
    return _combine(name, _dense_rows(name, set1), _dense_rows(name, set2), set_operation)


def _dense_sparse(set1, indices2, values2, shape2, set_operation, validate_indices=True):
    name = "DenseToSparseSetOperation"
    return _combine(name, _dense_rows(name, set1), _sparse_rows(name, indices2, values2, shape2),
                    set_operation)


def _sparse_sparse(indices1, values1, shape1, indices2, values2, shape2, set_operation,
                   validate_indices=True):
    name = "SparseToSparseSetOperation"
    return _combine(name, _sparse_rows(name, indices1, values1, shape1),
                    _sparse_rows(name, indices2, values2, shape2), set_operation)


def _set_shape(rank):
    def shape(*input_shapes, **attrs):
        r = rank(input_shapes)
        return (TensorShape([None, r]), TensorShape([None]), TensorShape([r]))
    return shape


def _values_dtype(position):
    return lambda *input_dtypes, **attrs: (dtypes.int64, input_dtypes[position], dtypes.int64)


DenseToDenseSetOperation = Op(
    "DenseToDenseSetOperation", _typed(_dense_dense, 0), dtypes=set(_VALID), num_outputs=3,
    shape=_set_shape(lambda s: s[0].rank), dtype=_values_dtype(0))
DenseToSparseSetOperation = Op(
    "DenseToSparseSetOperation", _typed(_dense_sparse, 0), typed=(0, 2), dtypes=set(_VALID),
    num_outputs=3, shape=_set_shape(lambda s: s[0].rank), dtype=_values_dtype(0))
SparseToSparseSetOperation = Op(
    "SparseToSparseSetOperation", _typed(_sparse_sparse, 1), typed=(1, 4), dtypes=set(_VALID),
    num_outputs=3, shape=_set_shape(lambda s: s[2][0]), dtype=_values_dtype(1))


def _set_size(indices, values, shape, validate_indices=True):
    rows, outer = _sparse_rows("SetSize", indices, values, shape)
    out = np.zeros(outer, np.int32)
    for index, found in rows.items():
        out[index] = len(found)
    return out


SetSize = Op("SetSize", _set_size, typed=(1,), dtypes=set(_VALID), dtype=dtypes.int32,
             shape=lambda i, v, s, **attrs: TensorShape(None))


def _convert(value, name):
    if isinstance(value, SparseTensor):
        return value
    return convert_to_tensor(value)


def _check_dtype(value, name):
    if value.dtype not in _VALID:
        allowed = "frozenset({" + ", ".join(f"tf.{d.name}" for d in _VALID) + "})"
        raise TypeError(f"'{name}' has invalid dtype `{value.dtype!s}` not in supported dtypes: "
                        f"`{allowed}`.")


def _set_operation(a, b, set_operation, validate_indices):
    a, b = _convert(a, "a"), _convert(b, "b")
    if a.dtype != b.dtype:
        raise TypeError(f"Types don't match, {a.dtype!s} vs {b.dtype!s}.")
    _check_dtype(a, "a")
    _check_dtype(b, "b")
    attrs = {"set_operation": set_operation, "validate_indices": bool(validate_indices)}
    sparse_a, sparse_b = isinstance(a, SparseTensor), isinstance(b, SparseTensor)
    if sparse_a and not sparse_b:  # TF has only a dense-sparse kernel: swap the operands
        a, b = b, a
        attrs["set_operation"] = {"a-b": "b-a", "b-a": "a-b"}.get(set_operation, set_operation)
        sparse_a, sparse_b = False, True
    if sparse_a:
        inputs, op = [a.indices, a.values, a.dense_shape, b.indices, b.values, b.dense_shape], \
            SparseToSparseSetOperation
    elif sparse_b:
        inputs, op = [a, b.indices, b.values, b.dense_shape], DenseToSparseSetOperation
    else:
        inputs, op = [a, b], DenseToDenseSetOperation
    return SparseTensor(*apply(op, inputs, attrs))


@tf_export("sets.intersection")
def set_intersection(a, b, validate_indices=True):
    """The values in both a[..., i, :] and b[..., i, :], per set, sorted, as a SparseTensor.

    >>> tf.sets.intersection([[1, 2, 2, 3]], [[3, 2, 9]]).values.numpy()
    array([2, 3], dtype=int32)
    """
    return _set_operation(a, b, "intersection", validate_indices)


@tf_export("sets.union")
def set_union(a, b, validate_indices=True):
    """The values in either a[..., i, :] or b[..., i, :], per set, sorted, as a SparseTensor.

    >>> tf.sets.union([[b"x", b"y"]], [[b"z", b"x"]]).values.numpy()
    array([b'x', b'y', b'z'], dtype=object)
    """
    return _set_operation(a, b, "union", validate_indices)


@tf_export("sets.difference")
def set_difference(a, b, aminusb=True, validate_indices=True):
    """a minus b per set (b minus a with aminusb=False), sorted, as a SparseTensor.

    >>> tf.sparse.to_dense(tf.sets.difference([[1, 2, 3], [4, 5, 6]], [[2], [9]])).numpy()
    array([[1, 3, 0],
           [4, 5, 6]], dtype=int32)
    """
    return _set_operation(a, b, "a-b" if aminusb else "b-a", validate_indices)


@tf_export("sets.size")
def set_size(a, validate_indices=True):
    """How many distinct values each set of a SparseTensor holds (int32, shape dense_shape[:-1]).

    >>> st = tf.SparseTensor([[0, 0], [0, 1], [1, 0]], [7, 7, 8], [2, 3])
    >>> tf.sets.size(st).numpy()
    array([1, 1], dtype=int32)
    """
    if not isinstance(a, SparseTensor):
        raise TypeError(f"Expected `SparseTensor`, got {a!s}.")
    _check_dtype(a, "a")
    return apply(SetSize, [a.indices, a.values, a.dense_shape],
                 {"validate_indices": bool(validate_indices)})
