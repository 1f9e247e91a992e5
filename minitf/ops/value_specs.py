"""The TypeSpecs of the remaining value kinds: tf.IndexedSlicesSpec, tf.NoneTensorSpec,
tf.TensorArraySpec and tf.OptionalSpec (what tf.type_spec_from_value returns for an
IndexedSlices, None, a TensorArray and a tf.experimental.Optional).

>>> import minitf as tf
>>> tf.TensorArraySpec([2], tf.int32)
TensorArraySpec(TensorShape([2]), tf.int32, False, True)
>>> tf.type_spec_from_value(None)
NoneTensorSpec()

Each prints, compares and answers is_compatible_with as TF's does; they are plain
descriptions (tf.TypeSpec recognises them), not the machinery TF builds on them.
"""
from ..framework import dtypes
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export


class _Spec:
    """Equality and hashing by the fields that repr shows."""

    def _fields(self):
        raise NotImplementedError  # each spec lists its fields

    def __eq__(self, other):
        return type(other) is type(self) and self._fields() == other._fields()

    def __hash__(self):
        return hash((type(self).__name__, repr(self)))

    def __repr__(self):
        return f"{type(self).__name__}({', '.join(repr(f) for f in self._fields())})"


def _shapes_compatible(a, b):
    return TensorShape(a).is_compatible_with(TensorShape(b))


@tf_export("IndexedSlicesSpec")
class IndexedSlicesSpec(_Spec):
    """The type of a tf.IndexedSlices: the dense shape and dtype of the values, and the
    dtypes of the indices and dense_shape tensors.

    >>> tf.IndexedSlicesSpec([3, 2], tf.float32)
    IndexedSlicesSpec(TensorShape([3, 2]), tf.float32, tf.int64, None, TensorShape([None]))
    """

    def __init__(self, shape=None, dtype=dtypes.float32, indices_dtype=dtypes.int64,
                 dense_shape_dtype=None, indices_shape=None):
        self._shape = TensorShape(shape)
        self._values_dtype = dtypes.as_dtype(dtype)
        self._indices_dtype = dtypes.as_dtype(indices_dtype)
        self._dense_shape_dtype = None if dense_shape_dtype is None else \
            dtypes.as_dtype(dense_shape_dtype)
        self._indices_shape = TensorShape([None]) if indices_shape is None else \
            TensorShape(indices_shape)

    def _fields(self):
        return (self._shape, self._values_dtype, self._indices_dtype, self._dense_shape_dtype,
                self._indices_shape)

    @property
    def value_type(self):
        from .indexed_slices import IndexedSlices  # noqa: PLC0415

        return IndexedSlices

    def is_compatible_with(self, other):
        return (type(other) is type(self) and _shapes_compatible(self._shape, other._shape)
                and self._fields()[1:4] == other._fields()[1:4]
                and _shapes_compatible(self._indices_shape, other._indices_shape))

    @classmethod
    def from_value(cls, value):
        dense = value.dense_shape
        shape = TensorShape(None) if dense is None else TensorShape(
            [int(d) for d in dense.numpy()] if hasattr(dense, "numpy") else None)
        return cls(shape, value.values.dtype, value.indices.dtype,
                   None if dense is None else dense.dtype, value.indices.shape)


@tf_export("NoneTensorSpec")
class NoneTensorSpec(_Spec):
    """The type of None where tf.function or tf.data expects a value.

    >>> tf.NoneTensorSpec() == tf.NoneTensorSpec()
    True
    """

    def _fields(self):
        return ()

    @property
    def value_type(self):
        return type(None)

    def is_compatible_with(self, other):
        return type(other) is type(self)


@tf_export("TensorArraySpec")
class TensorArraySpec(_Spec):
    """The type of a tf.TensorArray: its element shape and dtype, whether it can grow, and
    whether it infers the element shape from the first write.

    >>> tf.TensorArraySpec().is_compatible_with(tf.TensorArraySpec([3], tf.float32))
    True
    """

    def __init__(self, element_shape=None, dtype=dtypes.float32, dynamic_size=False,
                 infer_shape=True):
        self._element_shape = TensorShape(element_shape)
        self._dtype = dtypes.as_dtype(dtype)
        self._dynamic_size = dynamic_size
        self._infer_shape = infer_shape

    def _fields(self):
        return (self._element_shape, self._dtype, self._dynamic_size, self._infer_shape)

    @property
    def value_type(self):
        from .tensor_array import TensorArray  # noqa: PLC0415

        return TensorArray

    def is_compatible_with(self, other):
        return (type(other) is type(self) and self._fields()[1:] == other._fields()[1:]
                and _shapes_compatible(self._element_shape, other._element_shape))

    @classmethod
    def from_value(cls, value):
        return cls(value.element_shape, value.dtype, value._dynamic_size, value._infer_shape)


@tf_export("OptionalSpec")
class OptionalSpec(_Spec):
    """The type of a tf.experimental.Optional: the spec of the value it may hold.

    >>> tf.OptionalSpec(tf.TensorSpec([], tf.int32))
    OptionalSpec(TensorSpec(shape=(), dtype=tf.int32, name=None),)
    """

    def __init__(self, element_spec):
        self._element_spec = element_spec

    def _fields(self):
        return (self._element_spec,)

    def __repr__(self):
        return f"OptionalSpec({self._element_spec!r},)"

    @property
    def element_spec(self):
        return self._element_spec

    @property
    def value_type(self):
        from ..data.iterator_ops import Optional  # noqa: PLC0415

        return Optional

    def is_compatible_with(self, other):
        return type(other) is type(self) and self._element_spec == other._element_spec
