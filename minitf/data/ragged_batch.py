"""`Dataset.ragged_batch` and `tf.data.experimental.dense_to_ragged_batch`.

`batch` needs every element to have the same shape; `ragged_batch` does not.
A component whose `element_spec` has an unknown dimension is batched into a
`tf.RaggedTensor` (one row per element); a component of fully known shape is
stacked densely, as `batch` would:

>>> import minitf as tf
>>> ds = tf.data.Dataset.range(4).map(lambda n: tf.range(n)).ragged_batch(2)
>>> ds.element_spec
RaggedTensorSpec(TensorShape([None, None]), tf.int64, 1, tf.int64)
>>> [batch.to_list() for batch in ds]
[[[], [0]], [[0, 1], [0, 1, 2]]]

The batch's ragged_rank is one more than the position of the element's last
unknown dimension: an element of shape (None, 2) gives rows of pairs
([batch, None, 2], ragged_rank 1); (2, None) gives ragged_rank 2, as in TF.
Elements that are rows of a RaggedTensor (`from_tensor_slices(rt)`) batch into
RaggedTensors with `batch` too, as in TF.
`map` and `filter` take RaggedTensor elements apart into their component
tensors, as TF does (structured_function.py); SparseTensor components batch as
`batch` batches them (sparse_elements.py). `minitf.ragged` is imported only
when a ragged batch is made.
"""
from ..framework import dtypes
from ..framework.function import TensorSpec
from ..framework.tf_export import tf_export
from . import sparse_elements
from .batching import _batched_count, _collect, _positive
from .dataset_ops import Dataset
from .graph_inputs import known_int
from .sources import runtime_int
from .sparse_elements import is_sparse_spec
from .structure import flatten, is_ragged, is_ragged_spec, map_structure, pack


def _last_unknown(spec):
    dims = spec.shape.as_list() if spec.shape.rank is not None else None
    if dims is None:
        raise ValueError("ragged_batch needs elements of known rank: give the element a "
                         "shape with tf.ensure_shape or a map that fixes its rank.")
    unknown = [i for i, d in enumerate(dims) if d is None]
    return unknown[-1] if unknown else None


def _batch_rank(spec, dense_unknown):
    """How many partitions the batch of this component has (0: stack it densely)."""
    if is_ragged_spec(spec):  # rows of a RaggedTensor: always batched as ragged
        return spec.ragged_rank + 1
    last = _last_unknown(spec) if dense_unknown else None
    return 0 if last is None else last + 1


def _ragged_spec(spec, batch_dim, row_splits_dtype, dense_unknown=True):
    from ..ragged.ragged_tensor_spec import RaggedTensorSpec
    if is_sparse_spec(spec):  # SparseTensors batch as `batch` batches them, as in TF
        return sparse_elements.batched_spec(spec, batch_dim)
    rank = _batch_rank(spec, dense_unknown)
    if not rank:
        return TensorSpec([batch_dim] + spec.shape.as_list(), spec.dtype)
    return RaggedTensorSpec([batch_dim] + spec.shape.as_list(), spec.dtype, rank,
                            row_splits_dtype)


def _ragged_component(tensors, spec, row_splits_dtype, dense_unknown=True):
    from ..ops.array_ops import stack
    from ..ragged.ragged_array_ops import stack as ragged_stack
    from ..ragged.ragged_tensor import RaggedTensor
    if is_sparse_spec(spec):
        return sparse_elements.stack(tensors)
    rank = _batch_rank(spec, dense_unknown)
    if not rank:
        return stack(tensors)
    inner = rank - 1  # each element as a RaggedTensor with this many partitions
    rows = [RaggedTensor.from_tensor(t, ragged_rank=inner) if inner and not is_ragged(t)
            else t for t in tensors]
    return ragged_stack(rows).with_row_splits_dtype(row_splits_dtype)


class _RaggedBatchDataset(Dataset):
    """`batch_size` elements at a time; components of unknown shape become ragged."""

    def __init__(self, dataset, batch_size, drop_remainder, row_splits_dtype,
                 dense_unknown=True):
        self._input = dataset
        self._raw_size = batch_size
        self._size = _positive(batch_size, "Batch size must be greater than zero.",
                               "RaggedBatchDataset")
        self._drop = bool(drop_remainder)
        self._splits_dtype = dtypes.as_dtype(row_splits_dtype)
        self._dense_unknown = dense_unknown  # False for `batch`: only ragged rows go ragged
        dim = self._size if self._drop else None
        self._element_spec = map_structure(
            lambda s: _ragged_spec(s, dim, self._splits_dtype, dense_unknown),
            dataset.element_spec)

    def _cardinality(self):
        return _batched_count(self._input._cardinality(), known_int(self._raw_size), self._drop)

    def _generate(self):
        size = _positive(runtime_int(self._raw_size), "Batch size must be greater than zero.",
                         "RaggedBatchDataset")
        specs = flatten(self._input.element_spec)
        for batch in _collect(self._input._iterate(), size):
            if self._drop and len(batch) < size:
                return
            columns = zip(*[flatten(element) for element in batch])
            yield pack(batch[0], [_ragged_component(list(c), spec, self._splits_dtype,
                                                    self._dense_unknown)
                                  for c, spec in zip(columns, specs)])


def ragged_batch(dataset, batch_size, drop_remainder=False, row_splits_dtype=dtypes.int64):
    """Dataset.ragged_batch (see the module docstring)."""
    return _RaggedBatchDataset(dataset, batch_size, drop_remainder, row_splits_dtype)


def batch_with_ragged_rows(dataset, batch_size, drop_remainder):
    """Dataset.batch of elements with RaggedTensorSpec components: those batch into
    RaggedTensors (one partition more), the others stack as `batch` stacks them."""
    return _RaggedBatchDataset(dataset, batch_size, drop_remainder, dtypes.int64,
                               dense_unknown=False)


def has_ragged_rows(element_spec):
    return any(is_ragged_spec(s) for s in flatten(element_spec))


@tf_export("data.experimental.dense_to_ragged_batch")
def dense_to_ragged_batch(batch_size, drop_remainder=False, row_splits_dtype=dtypes.int64):
    """For `dataset.apply(...)`: the same as `dataset.ragged_batch(...)` (TF's older name).

    >>> ds = tf.data.Dataset.range(3).map(lambda n: tf.range(n))
    >>> next(iter(ds.apply(tf.data.experimental.dense_to_ragged_batch(3))))
    <tf.RaggedTensor [[], [0], [0, 1]]>
    """
    def transform(dataset):
        return ragged_batch(dataset, batch_size, drop_remainder, row_splits_dtype)
    return transform
