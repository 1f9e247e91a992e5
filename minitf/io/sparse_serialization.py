"""`tf.io.serialize_sparse`, `serialize_many_sparse` and `deserialize_many_sparse`.

A SparseTensor becomes three `TensorProto` byte strings - its indices, values
and dense_shape, each as `tf.io.serialize_tensor` writes it (so the bytes are
TensorFlow's). `serialize_many_sparse` cuts a batch along its first axis into
one such triple per row; `deserialize_many_sparse` stacks rows back:

>>> import minitf as tf
>>> st = tf.SparseTensor([[0, 0], [1, 2]], [1.0, 2.0], [2, 3])
>>> tf.io.serialize_many_sparse(st).shape
TensorShape([2, 3])
>>> back = tf.io.deserialize_many_sparse(tf.io.serialize_many_sparse(st), tf.float32)
>>> back.indices.numpy().tolist(), back.dense_shape.numpy().tolist()
([[0, 0], [1, 2]], [2, 3])

In TensorFlow `out_type=tf.variant` keeps the three tensors in a variant
tensor instead; minitf has no variant dtype, so only tf.string is offered.
"""
import numpy as np

from ..framework import dtypes, errors
from ..framework.tensor import convert_to_tensor
from ..framework.tf_export import tf_export
from ..ops.sparse_tensor import SparseTensor, check_indices, check_sparse
from .tensor_serialization import parse_tensor, serialize_tensor


def _check_out_type(out_type):
    if dtypes.as_dtype(out_type) != dtypes.string:
        raise TypeError(f"out_type={dtypes.as_dtype(out_type)!r} is not supported: minitf "
                        "serializes SparseTensors as tf.string only (TF also offers "
                        "tf.variant, which minitf does not have).")


def _triple(indices, values, shape):
    return [serialize_tensor(indices).numpy(), serialize_tensor(values).numpy(),
            serialize_tensor(shape).numpy()]


def _strings(rows):
    array = np.empty((len(rows), 3), dtype=object) if rows and isinstance(rows[0], list) \
        else np.empty((3,), dtype=object)
    array[...] = rows
    return convert_to_tensor(array, dtype=dtypes.string)


@tf_export("io.serialize_sparse")
def serialize_sparse(sp_input, out_type=dtypes.string, name=None):
    """A [3] string tensor: the TensorProto bytes of indices, values and dense_shape.

    >>> tf.io.serialize_sparse(tf.SparseTensor([[1]], [5], [3])).shape
    TensorShape([3])
    """
    _check_out_type(out_type)
    sp_input = check_sparse(sp_input, "sp_input")
    return _strings(_triple(sp_input.indices, sp_input.values, sp_input.dense_shape))


@tf_export("io.serialize_many_sparse")
def serialize_many_sparse(sp_input, out_type=dtypes.string, name=None):
    """An [N, 3] string tensor: row i serializes the entries of sp_input[i] (rank - 1).

    >>> tf.io.serialize_many_sparse(tf.SparseTensor([[0, 1], [2, 0]], [1, 2], [3, 2])).shape
    TensorShape([3, 3])
    """
    _check_out_type(out_type)
    sp_input = check_sparse(sp_input, "sp_input")
    indices, values = sp_input.indices.numpy(), sp_input.values.numpy()
    shape = sp_input.dense_shape.numpy()
    if shape.size < 2:
        raise errors.InvalidArgumentError(
            None, "SerializeManySparse", f"Rank of input SparseTensor should be > 1, but saw "
            f"rank: {shape.size} [Op:SerializeManySparse] Each row of the first axis becomes "
            "one SparseTensor, so a second axis is needed.")
    check_indices(indices, shape, "SerializeManySparse")
    rows = []
    for r in range(int(shape[0])):
        mine = indices[:, 0] == r
        rows.append(_triple(indices[mine][:, 1:].reshape(-1, shape.size - 1),
                            convert_to_tensor(values[mine], dtype=sp_input.dtype), shape[1:]))
    return _strings(rows)


@tf_export("io.deserialize_many_sparse")
def deserialize_many_sparse(serialized_sparse, dtype, rank=None, name=None):
    """The SparseTensor whose rows an [N, 3] `serialize_many_sparse` result holds; its dense
    shape is N by the largest row shape.

    >>> st = tf.SparseTensor([[0, 1], [2, 0]], [1, 2], [3, 2])
    >>> tf.io.deserialize_many_sparse(tf.io.serialize_many_sparse(st), tf.int32).values.numpy()
    array([1, 2], dtype=int32)
    """
    serialized = convert_to_tensor(serialized_sparse, dtype=dtypes.string).numpy()
    if serialized.ndim != 2 or serialized.shape[1] != 3:
        raise errors.InvalidArgumentError(
            None, "DeserializeManySparse", "Serialized sparse should be a matrix with 3 "
            f"columns, got shape {list(serialized.shape)} [Op:DeserializeManySparse] Pass "
            "what tf.io.serialize_many_sparse returned.")
    indices, values, shapes = [], [], []
    for r, (i, v, s) in enumerate(serialized):
        row_indices = parse_tensor(i, dtypes.int64).numpy()
        indices.append(np.concatenate([np.full((row_indices.shape[0], 1), r, np.int64),
                                       row_indices], axis=1))
        values.append(parse_tensor(v, dtype).numpy())
        shapes.append(parse_tensor(s, dtypes.int64).numpy())
    width = 1 + (shapes[0].size if shapes else (rank or 1) - 1)
    dense_shape = [len(shapes)] + (np.max(shapes, axis=0).tolist() if shapes else [0] * (width - 1))
    empty = np.empty(0, dtype=object if dtypes.as_dtype(dtype) == dtypes.string else None)
    return SparseTensor(np.concatenate(indices).reshape(-1, width) if indices
                        else np.zeros((0, width), np.int64),
                        convert_to_tensor(np.concatenate(values) if values else empty,
                                          dtype=dtype), dense_shape)
