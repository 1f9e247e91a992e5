"""`tf.IndexedSlices`: some rows of a tensor, named by their indices.

Row `indices[i]` of a dense tensor of shape `dense_shape` is `values[i]`; the
other rows are zero. TensorFlow uses it for sparse gradients (of `tf.gather`,
of an embedding lookup) and for a variable's `scatter_*` updates, which take
one as `sparse_delta`. minitf's gradients are dense tensors; IndexedSlices
is here for the scatter methods and for code that builds them by hand.

>>> import minitf as tf
>>> rows = tf.IndexedSlices(values=[[1.0, 2.0]], indices=[2], dense_shape=[3, 2])
>>> rows
IndexedSlices(indices=tf.Tensor([2], shape=(1,), dtype=int32), values=tf.Tensor([[1. 2.]], shape=(1, 2), dtype=float32), dense_shape=tf.Tensor([3 2], shape=(2,), dtype=int32))
>>> tf.convert_to_tensor(rows).numpy()
array([[0., 0.],
       [0., 0.],
       [1., 2.]], dtype=float32)
"""
from ..framework.tensor import convert_to_tensor, register_tensor_conversion_function
from ..framework.tf_export import tf_export
from .scatter_ops import unsorted_segment_sum


@tf_export("IndexedSlices")
class IndexedSlices:
    """`values` (one row per index), `indices` (int32/int64), optional `dense_shape`."""

    def __init__(self, values, indices, dense_shape=None):
        self._values = convert_to_tensor(values)
        self._indices = convert_to_tensor(indices)
        self._dense_shape = None if dense_shape is None else convert_to_tensor(dense_shape)

    @property
    def values(self):
        return self._values

    @property
    def indices(self):
        return self._indices

    @property
    def dense_shape(self):
        return self._dense_shape

    @property
    def dtype(self):
        return self._values.dtype

    def __neg__(self):
        return IndexedSlices(-self._values, self._indices, self._dense_shape)

    def __repr__(self):
        shape = "" if self._dense_shape is None else f", dense_shape={self._dense_shape!s}"
        return f"IndexedSlices(indices={self._indices!s}, values={self._values!s}{shape})"


def _to_dense(slices, dtype=None):
    if slices.dense_shape is None:
        raise ValueError("Cannot convert an IndexedSlices without dense_shape to a dense "
                         "tensor: how many rows it has is unknown. Pass dense_shape=...")
    rows = int(slices.dense_shape.numpy()[0])
    dense = unsorted_segment_sum(slices.values, slices.indices, rows)  # repeats add up
    return dense if dtype is None else convert_to_tensor(dense, dtype=dtype)


register_tensor_conversion_function(IndexedSlices, _to_dense)
