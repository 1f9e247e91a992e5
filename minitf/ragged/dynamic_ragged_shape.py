"""`tf.shape` of a RaggedTensor: a `tf.experimental.DynamicRaggedShape`.

A dense shape is one number per axis. A ragged axis has one length *per row*,
so TF's ragged shape lists, per axis, either a number (uniform) or a tuple of
row lengths (ragged):

>>> import minitf as tf
>>> shape = tf.shape(tf.ragged.constant([[1, 2], [3]]))
>>> shape
<DynamicRaggedShape lengths=[2, (2, 1)] num_row_partitions=1>
>>> shape[0]
<tf.Tensor: shape=(), dtype=int32, numpy=2>
>>> shape.static_lengths()
[2, (2, 1)]

Indexing gives a uniform axis's size; a ragged axis has none (ValueError).
minitf's version is small: the lengths, rank, dtype and the uniform sizes, not
TF's broadcasting between ragged shapes.
"""
import numpy as np

from ..framework import dtypes
from ..framework.tensor import convert_to_tensor
from ..framework.tf_export import tf_export
from .ragged_tensor import RaggedTensor


def _lengths(rt):
    lengths = [rt.nrows_value()]
    for part in rt._partitions():
        if part.uniform_row_length is not None:
            lengths.append(int(part.uniform_row_length.numpy()))
        else:
            lengths.append(tuple(int(n) for n in np.diff(part._splits())))
    return lengths + rt.flat_values.shape.as_list()[1:]


@tf_export("experimental.DynamicRaggedShape")
class DynamicRaggedShape:
    """The shape of a RaggedTensor: a size per uniform axis, row lengths per ragged axis."""

    def __init__(self, lengths, num_row_partitions, dtype=dtypes.int64, inner_size=None):
        self._lengths = list(lengths)
        self._num_row_partitions = int(num_row_partitions)
        self._dtype = dtypes.as_dtype(dtype)
        self._inner_size = inner_size

    @classmethod
    def from_tensor(cls, t, dtype=None):
        """The shape of a RaggedTensor (or of a dense tensor: no row partitions)."""
        dtype = dtype or dtypes.int64
        if isinstance(t, RaggedTensor):
            return cls(_lengths(t), t.ragged_rank, dtype, int(t.flat_values.shape[0]))
        t = convert_to_tensor(t)
        return cls(t.shape.as_list(), 0, dtype)

    @property
    def rank(self):
        return len(self._lengths)

    @property
    def num_row_partitions(self):
        return self._num_row_partitions

    @property
    def inner_rank(self):
        return self.rank - self._num_row_partitions

    @property
    def dtype(self):
        return self._dtype

    @property
    def inner_shape(self):
        """The shape of flat_values: the number of values, then the uniform inner sizes."""
        inner = self._lengths[self._num_row_partitions + 1:]
        first = self._inner_size if self._num_row_partitions else self._lengths[0]
        return convert_to_tensor(np.array([first] + inner, self._dtype.as_numpy_dtype))

    def static_lengths(self):
        return list(self._lengths)

    def is_uniform(self, axis):
        return not isinstance(self._lengths[axis], tuple)

    def with_dtype(self, dtype):
        return DynamicRaggedShape(self._lengths, self._num_row_partitions, dtype,
                                  self._inner_size)

    def __getitem__(self, index):
        if not isinstance(index, int):
            raise TypeError("minitf's DynamicRaggedShape is indexed with an int axis.")
        length = self._lengths[index]
        if isinstance(length, tuple):
            raise ValueError(f"Index {index} is not uniform")
        return convert_to_tensor(np.array(length, self._dtype.as_numpy_dtype))

    def __repr__(self):
        return (f"<DynamicRaggedShape lengths={self._lengths} "
                f"num_row_partitions={self._num_row_partitions}>")

    __str__ = __repr__


def ragged_shape(input, out_type=None, name=None):  # noqa: A002 - TF's argument name
    """tf.shape of a RaggedTensor (int32 unless out_type says otherwise, as tf.shape)."""
    return DynamicRaggedShape.from_tensor(input, out_type or dtypes.int32)
