"""tf.TypeSpec and tf.type_spec_from_value: the "type" of a value that tf.function
traces for (its dtype and shape, and for composite values their structure).

>>> import minitf as tf
>>> tf.type_spec_from_value(tf.constant([1, 2]))
TensorSpec(shape=(2,), dtype=tf.int32, name=None)
>>> isinstance(tf.TensorSpec([2], tf.float32), tf.TypeSpec)
True

In TensorFlow, TypeSpec is the base class of TensorSpec, RaggedTensorSpec,
SparseTensorSpec, DatasetSpec, ... with methods to flatten values into tensors. minitf's
specs are separate small classes; tf.TypeSpec is their common abstract base here (it
recognises them by name), so isinstance checks work as in TF.
"""
import abc

from ..framework.function import TensorSpec
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.tf_export import tf_export


@tf_export("TypeSpec")
class TypeSpec(abc.ABC):  # noqa: B024 - an abstract base for isinstance, as in TF
    """The abstract base of the value types tf.function can trace for (TensorSpec,
    RaggedTensorSpec, SparseTensorSpec, DatasetSpec).

    >>> isinstance(tf.RaggedTensorSpec([2, None], tf.int32), tf.TypeSpec)
    True
    """

    @classmethod
    def __subclasshook__(cls, subclass):
        # Recognised by name, so that tf.data and tf.ragged stay unimported until used.
        if cls is TypeSpec and any(c.__name__ in _SPECS and c.__module__.startswith("minitf.")
                                   for c in subclass.__mro__):
            return True
        return NotImplemented


_SPECS = {"TensorSpec", "RaggedTensorSpec", "SparseTensorSpec", "DatasetSpec",
          "IndexedSlicesSpec", "NoneTensorSpec", "TensorArraySpec", "OptionalSpec"}


@tf_export("type_spec_from_value")
def type_spec_from_value(value):
    """The TypeSpec of `value`: a TensorSpec for tensors and anything tf.constant accepts
    (NumPy arrays, numbers, strings, nested lists); the matching spec for a RaggedTensor,
    SparseTensor, Dataset, IndexedSlices, TensorArray, Optional or None; TypeError
    otherwise (also for a tf.Variable, where TF gives a VariableSpec minitf lacks).

    >>> tf.type_spec_from_value([[1.0, 2.0]])
    TensorSpec(shape=(1, 2), dtype=tf.float32, name=None)
    """
    from ..data.structure import DatasetSpec, is_dataset  # noqa: PLC0415
    from ..ops.sparse_tensor import SparseTensor  # noqa: PLC0415
    from ..ragged.ragged_tensor import RaggedTensor  # noqa: PLC0415
    from ..ragged.ragged_tensor_spec import RaggedTensorSpec  # noqa: PLC0415
    from .sparse_tensor_spec import SparseTensorSpec  # noqa: PLC0415

    from ..data.iterator_ops import Optional  # noqa: PLC0415
    from .indexed_slices import IndexedSlices  # noqa: PLC0415
    from .tensor_array import TensorArray  # noqa: PLC0415
    from .value_specs import (IndexedSlicesSpec, NoneTensorSpec, OptionalSpec,  # noqa: PLC0415
                              TensorArraySpec)

    if value is None:
        return NoneTensorSpec()
    if isinstance(value, Tensor):
        return TensorSpec.from_tensor(value)
    if isinstance(value, IndexedSlices):
        return IndexedSlicesSpec.from_value(value)
    if isinstance(value, TensorArray):
        return TensorArraySpec.from_value(value)
    if isinstance(value, Optional):
        return OptionalSpec(value.element_spec)
    if isinstance(value, RaggedTensor):
        return RaggedTensorSpec.from_value(value)
    if isinstance(value, SparseTensor):
        return SparseTensorSpec.from_value(value)
    if is_dataset(value):
        return DatasetSpec(value.element_spec)
    if not isinstance(value, dict) and not getattr(value, "_is_variable", False):
        try:
            return TensorSpec.from_tensor(convert_to_tensor(value))
        except (TypeError, ValueError):
            pass
    raise TypeError(f"Could not build a TypeSpec for {value!r} of unsupported type "
                    f"{type(value)}.")

