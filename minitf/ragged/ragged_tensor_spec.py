"""`tf.RaggedTensorSpec`: the type of a RaggedTensor - shape, dtype, ragged_rank.

As a `tf.TensorSpec` describes a Tensor without its values, a RaggedTensorSpec
describes a RaggedTensor: its static shape (None for each ragged axis), the
dtype of its values, how many of its axes are ragged, and the dtype of its
row_splits.

>>> import minitf as tf
>>> tf.RaggedTensorSpec([2, None], tf.int32)
RaggedTensorSpec(TensorShape([2, None]), tf.int32, 1, tf.int64)
>>> spec = tf.RaggedTensorSpec.from_value(tf.ragged.constant([[1.0], [2.0, 3.0]]))
>>> spec.is_compatible_with(tf.ragged.constant([[1.0, 2.0], [], [3.0]]))
False
>>> tf.RaggedTensorSpec([None, None], tf.float32).is_compatible_with(
...     tf.ragged.constant([[1.0, 2.0], [], [3.0]]))
True

tf.data's `element_spec` uses it (`Dataset.ragged_batch`, `from_tensor_slices`
of a RaggedTensor), and so does a tf.function's `input_signature`. Both take a
RaggedTensor apart into its components - `flat_values`, then each `row_splits`,
outermost first - and build it again from them (framework/composite_tensor.py):

>>> tf.RaggedTensorSpec([2, None], tf.int32)._component_specs
[TensorSpec(shape=(None,), dtype=tf.int32, name=None), TensorSpec(shape=(3,), dtype=tf.int64, name=None)]
"""
from ..framework import dtypes
from ..framework.function import TensorSpec
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export
from .ragged_tensor import RaggedTensor


@tf_export("RaggedTensorSpec")
class RaggedTensorSpec:
    """The type of a RaggedTensor: shape, dtype, ragged_rank and row_splits_dtype."""

    def __init__(self, shape=None, dtype=dtypes.float32, ragged_rank=None,
                 row_splits_dtype=dtypes.int64, flat_values_spec=None):
        self._shape = TensorShape(shape)
        self._dtype = dtypes.as_dtype(dtype)
        self._row_splits_dtype = dtypes.as_dtype(row_splits_dtype)
        rank = self._shape.rank
        if ragged_rank is None:
            if rank is None:
                raise ValueError("Must specify ragged_rank or a shape with a known rank.")
            ragged_rank = rank - 1
        if not isinstance(ragged_rank, int):
            raise TypeError(f"Argument `ragged_rank` must be an int. Received {ragged_rank}.")
        if rank is not None and ragged_rank >= rank:
            raise ValueError(f"Argument `ragged_rank` ({ragged_rank}) must be less than rank "
                             f"({rank}).")
        self._ragged_rank = ragged_rank
        self._flat_values_spec = flat_values_spec

    shape = property(lambda self: self._shape)
    dtype = property(lambda self: self._dtype)
    ragged_rank = property(lambda self: self._ragged_rank)
    row_splits_dtype = property(lambda self: self._row_splits_dtype)
    flat_values_spec = property(lambda self: self._flat_values_spec)
    value_type = property(lambda self: RaggedTensor)

    @classmethod
    def from_value(cls, value):
        """The spec of a RaggedTensor (its static shape, dtype, ragged_rank)."""
        return cls(value.shape, value.dtype, value.ragged_rank, value.row_splits_dtype)

    def is_compatible_with(self, spec_or_value):
        """True when `spec_or_value` (a spec or a RaggedTensor) could be of this type."""
        other = spec_or_value
        if isinstance(other, RaggedTensor):
            other = RaggedTensorSpec.from_value(other)
        if not isinstance(other, RaggedTensorSpec):
            return False
        return (self._dtype == other.dtype and self._ragged_rank == other.ragged_rank
                and self._row_splits_dtype == other.row_splits_dtype
                and self._shape.is_compatible_with(other.shape))

    def _key(self):
        return (self._shape, self._dtype, self._ragged_rank, self._row_splits_dtype)

    # ----- the composite-tensor protocol (TF's TypeSpec methods) ------------------------------
    @property
    def _component_specs(self):
        """`flat_values`' spec, then one spec per `row_splits`, outermost first."""
        if self._ragged_rank == 0:  # a row of a RaggedTensor is a plain tensor
            return [TensorSpec(self._shape, self._dtype)]
        inner = None if self._shape.rank is None else self._shape[self._ragged_rank + 1:]
        values = TensorSpec(None if inner is None else [None] + inner.as_list(), self._dtype)
        nrows = None if self._shape.rank is None else self._shape[0]
        outer = TensorSpec([None if nrows is None else nrows + 1], self._row_splits_dtype)
        rest = [TensorSpec([None], self._row_splits_dtype)] * (self._ragged_rank - 1)
        return [values, outer] + rest

    def _to_components(self, value):
        if isinstance(value, RaggedTensor):
            return [value.flat_values] + list(value.nested_row_splits)
        return [value]

    def _from_components(self, tensors):
        if self._ragged_rank == 0:
            return tensors[0]
        return RaggedTensor.from_nested_row_splits(tensors[0], tensors[1:], validate=False)

    def _with_shape(self, shape):
        """This spec with another (relaxed) shape: what reduce_retracing traces for."""
        return RaggedTensorSpec(shape, self._dtype, self._ragged_rank, self._row_splits_dtype)

    def _trace_kind(self):
        """What must match exactly for one trace to serve another (the shape may relax)."""
        return ("RaggedTensorSpec", self._dtype.name, self._ragged_rank,
                self._row_splits_dtype.name)

    def __eq__(self, other):
        return type(other) is RaggedTensorSpec and self._key() == other._key()

    def __hash__(self):
        return hash((tuple(self._shape.as_list()) if self._shape.rank is not None else None,
                     self._dtype, self._ragged_rank, self._row_splits_dtype))

    def __repr__(self):
        return (f"RaggedTensorSpec({self._shape!r}, {self._dtype!r}, {self._ragged_rank}, "
                f"{self._row_splits_dtype!r})")
