"""`tf.SparseTensorSpec`: the type of a SparseTensor - its dense shape and dtype.

As a `tf.TensorSpec` describes a Tensor without its values, a SparseTensorSpec
describes a SparseTensor without its entries: the static dense shape (None
where unknown) and the dtype of the values.

>>> import minitf as tf
>>> spec = tf.SparseTensorSpec([None, 3], tf.float32)
>>> spec
SparseTensorSpec(TensorShape([None, 3]), tf.float32)
>>> spec.is_compatible_with(tf.SparseTensor([[0, 1]], [1.0], [2, 3]))
True
>>> spec.is_compatible_with(tf.SparseTensorSpec([2, 3], tf.int32))
False

A tf.function's `input_signature` may hold one, and tf.data's `element_spec`
shows one for SparseTensor elements. Both take a SparseTensor apart into its
three tensors and build it again (framework/composite_tensor.py):

>>> spec._component_specs
[TensorSpec(shape=(None, 2), dtype=tf.int64, name=None), TensorSpec(shape=(None,), dtype=tf.float32, name=None), TensorSpec(shape=(2,), dtype=tf.int64, name=None)]
"""
from ..framework import dtypes
from ..framework.function import TensorSpec
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export
from .sparse_tensor import SparseTensor


@tf_export("SparseTensorSpec")
class SparseTensorSpec:
    """The type of a SparseTensor: `shape` (its dense shape) and `dtype` (of its values)."""

    def __init__(self, shape=None, dtype=dtypes.float32):
        self._shape = TensorShape(shape)
        self._dtype = dtypes.as_dtype(dtype)

    shape = property(lambda self: self._shape)
    dtype = property(lambda self: self._dtype)
    value_type = property(lambda self: SparseTensor)

    @classmethod
    def from_value(cls, value):
        """The spec of a SparseTensor (its static dense shape and its dtype).

        >>> tf.SparseTensorSpec.from_value(tf.SparseTensor([[0]], [1], [4]))
        SparseTensorSpec(TensorShape([4]), tf.int32)
        """
        return cls(value.shape, value.dtype)

    def is_compatible_with(self, spec_or_value):
        """True when `spec_or_value` (a spec or a SparseTensor) could be of this type."""
        other = spec_or_value
        if isinstance(other, SparseTensor):
            other = SparseTensorSpec.from_value(other)
        if not isinstance(other, SparseTensorSpec):
            return False
        return self._dtype == other.dtype and self._shape.is_compatible_with(other.shape)

    def most_specific_common_supertype(self, others):
        """The most specific spec that each of `others` and this one fits (None if none).

        >>> tf.SparseTensorSpec([2, 3]).most_specific_common_supertype(
        ...     [tf.SparseTensorSpec([4, 3])])
        SparseTensorSpec(TensorShape([None, 3]), tf.float32)
        """
        shape = self._shape
        for other in others:
            if not isinstance(other, SparseTensorSpec) or other.dtype != self._dtype:
                return None
            if shape.rank != other.shape.rank:
                shape = TensorShape(None)
            else:
                shape = shape.most_specific_compatible_shape(other.shape)
        return SparseTensorSpec(shape, self._dtype)

    # ----- the composite-tensor protocol (TF's TypeSpec methods) ------------------------------
    @property
    def _component_specs(self):
        """`indices` [N, rank], `values` [N] and `dense_shape` [rank]."""
        rank = self._shape.rank
        return [TensorSpec([None, rank], dtypes.int64), TensorSpec([None], self._dtype),
                TensorSpec([rank], dtypes.int64)]

    def _to_components(self, value):
        return [value.indices, value.values, value.dense_shape]

    def _from_components(self, tensors):
        result = SparseTensor(*tensors)
        if self._shape.rank is not None:  # what the spec knows, where dense_shape is traced
            result._static_shape = self._shape
        return result

    def _with_shape(self, shape):
        """This spec with another (relaxed) shape: what reduce_retracing traces for."""
        return SparseTensorSpec(shape, self._dtype)

    def _trace_kind(self):
        """What must match exactly for one trace to serve another (the shape may relax)."""
        return ("SparseTensorSpec", self._dtype.name)

    def _key(self):
        dims = None if self._shape.rank is None else tuple(self._shape.as_list())
        return dims, self._dtype

    def __eq__(self, other):
        return type(other) is SparseTensorSpec and self._key() == other._key()

    def __hash__(self):
        return hash(self._key())

    def __repr__(self):
        return f"SparseTensorSpec({self._shape!r}, {self._dtype!r})"
