"""SparseTensor elements in tf.data: slicing, batching and unbatching them.

A dataset element may be a `tf.SparseTensor` (its `element_spec` is then a
`tf.SparseTensorSpec`). As in TensorFlow:

* `from_tensor_slices(st)` gives one SparseTensor per row of `st` (rank >= 2);
* `batch` stacks SparseTensors into one with a new first axis, whose dense
  shape is the largest of the elements' in every other axis;
* `unbatch` splits it again, row by row, each keeping the batch's dense shape.

>>> import minitf as tf
>>> ds = tf.data.Dataset.range(1, 4).map(lambda n: tf.sparse.SparseTensor([[0]], [n], [n]))
>>> ds.element_spec
SparseTensorSpec(TensorShape([None]), tf.int64)
>>> batch = next(iter(ds.batch(2)))
>>> tf.sparse.to_dense(batch).numpy()
array([[1, 0],
       [2, 0]])

In TensorFlow the same happens in the Dataset kernels (`SerializeManySparse`
on the way in, `DeserializeSparse` on the way out).
"""
import numpy as np

from ..framework import dtypes, errors
from ..framework.tensor import EagerTensor


def is_sparse(value):
    return type(value).__name__ == "SparseTensor"


def is_sparse_spec(spec):
    return type(spec).__name__ == "SparseTensorSpec"


def _sparse(indices, values, dense_shape, dtype):
    from ..ops.sparse_tensor import SparseTensor
    return SparseTensor(EagerTensor(np.asarray(indices, np.int64).reshape(-1, len(dense_shape))),
                        EagerTensor(np.asarray(values), dtype),
                        EagerTensor(np.asarray(dense_shape, np.int64)))


def check_sliceable(st):
    """TF's error for from_tensor_slices of a SparseTensor of rank 1."""
    rank = st.shape.rank
    if rank is not None and rank < 2:
        raise errors.InvalidArgumentError(
            None, "SerializeManySparse",
            f"Rank of input SparseTensor should be > 1, but saw rank: {rank} "
            "[Op:SerializeManySparse] (each row of a SparseTensor is an element, so it needs "
            "at least two axes; tf.sparse.expand_dims(st, 0) adds one.)")


def rows(st):
    """The rows of an eager SparseTensor along its first axis, as SparseTensors."""
    indices, values = st.indices.numpy(), st.values.numpy()
    shape = st.dense_shape.numpy()
    for i in range(int(shape[0])):
        mine = indices[:, 0] == i
        yield _sparse(indices[mine, 1:], values[mine], shape[1:], st.dtype)


def stack(sparse_tensors):
    """One SparseTensor holding the given ones along a new first axis (dense shape: the
    largest in every axis, as TF's batch does)."""
    ranks = {len(st.dense_shape.numpy()) for st in sparse_tensors}
    if len(ranks) > 1:
        raise errors.InvalidArgumentError(
            None, "IteratorGetNext", "Cannot batch SparseTensors of different ranks "
            f"{sorted(ranks)} [Op:IteratorGetNext]. Every element must have the same rank.")
    shape = np.max([st.dense_shape.numpy() for st in sparse_tensors], axis=0)
    parts = [np.concatenate([np.full((len(st.values.numpy()), 1), i, np.int64),
                             st.indices.numpy()], axis=1)
             for i, st in enumerate(sparse_tensors)]
    dtype = sparse_tensors[0].dtype
    values = np.concatenate([st.values.numpy() for st in sparse_tensors]).astype(
        dtype.as_numpy_dtype) if dtype != dtypes.string else np.concatenate(
        [st.values.numpy() for st in sparse_tensors])
    return _sparse(np.concatenate(parts), values, [len(sparse_tensors)] + list(shape), dtype)


def batched_spec(spec, batch_dim):
    from ..ops.sparse_tensor_spec import SparseTensorSpec
    if spec.shape.rank is None:
        return SparseTensorSpec(None, spec.dtype)
    return SparseTensorSpec([batch_dim] + spec.shape.as_list(), spec.dtype)


def unbatched_spec(spec):
    from ..ops.sparse_tensor_spec import SparseTensorSpec
    if spec.shape.rank is None:
        return SparseTensorSpec(None, spec.dtype)
    if spec.shape.rank == 0:
        raise ValueError("Cannot unbatch an input with scalar components. Each element must "
                         "have a leading (batch) dimension to split along.")
    return SparseTensorSpec(spec.shape[1:], spec.dtype)


def to_numpy(st):
    """What `as_numpy_iterator` gives for a SparseTensor in TF 2.21: its dense array."""
    from ..ops.sparse_tensor import to_dense
    return to_dense(st).numpy()
