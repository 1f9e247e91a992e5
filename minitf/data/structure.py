"""Element structure: what one element of a dataset looks like, and how it prints.

A dataset element is a nest (tuples, dicts, named tuples) of tensors. Its
`element_spec` is the same nest with a `tf.TensorSpec` per tensor, and a
`tf.data.DatasetSpec` where the element is itself a dataset (as `window` makes):

>>> import minitf as tf
>>> tf.data.Dataset.from_tensor_slices(({"a": [1, 2]}, [0.5, 1.5])).element_spec
({'a': TensorSpec(shape=(), dtype=tf.int32, name=None)}, TensorSpec(shape=(), dtype=tf.float32, name=None))

As in TensorFlow, a Python *list* inside an element is a tensor, not a
structure (`from_tensor_slices([1, 2])` slices one tensor), and dict entries
are visited in sorted key order while an `OrderedDict` keeps its own order when
it is rebuilt.
"""
import numpy as np

from ..framework import composite_tensor, nest
from ..framework.function import TensorSpec
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export
from . import sparse_elements
from .sparse_elements import is_sparse_spec


@tf_export("data.DatasetSpec")
class DatasetSpec:
    """The type of an element that is itself a dataset (e.g. each window of `window`).

    >>> tf.data.DatasetSpec(tf.TensorSpec([], tf.int64))
    DatasetSpec(TensorSpec(shape=(), dtype=tf.int64, name=None), TensorShape([]))
    """

    def __init__(self, element_spec, dataset_shape=()):
        self.element_spec = element_spec
        self.dataset_shape = TensorShape(dataset_shape)

    def __eq__(self, other):
        return (isinstance(other, DatasetSpec) and self.element_spec == other.element_spec
                and self.dataset_shape == other.dataset_shape)

    def __hash__(self):
        return hash(repr(self))

    def __repr__(self):
        return f"DatasetSpec({self.element_spec!r}, {self.dataset_shape!r})"


def is_dataset(value):
    return hasattr(value, "_generate") and hasattr(value, "element_spec")


def flatten(structure):
    """The leaves (tensors, specs or datasets) in TF's order: dict keys sorted."""
    return nest.flatten(structure)


def pack(template, flat):
    """Put `flat` back into `template`'s structure; an OrderedDict keeps its order."""
    leaves = iter(flat)

    def build(t):
        if isinstance(t, dict):
            built = {k: build(t[k]) for k in sorted(t)}
            return type(t)((k, built[k]) for k in t)
        if isinstance(t, (list, tuple)):
            children = [build(c) for c in t]
            if hasattr(t, "_fields"):
                return type(t)(*children)
            return type(t)(children)
        return next(leaves)

    return build(template)


def map_structure(fn, structure):
    """`fn` applied to every leaf, keeping the structure (and OrderedDict order)."""
    return pack(structure, [fn(leaf) for leaf in flatten(structure)])


def normalize_element(value):
    """A user's element as a nest of tensors: lists and arrays become tensors."""
    if isinstance(value, dict):
        return type(value)((k, normalize_element(v)) for k, v in value.items())
    if isinstance(value, tuple):
        children = [normalize_element(v) for v in value]
        return type(value)(*children) if hasattr(value, "_fields") else tuple(children)
    if is_dataset(value) or isinstance(value, Tensor) or is_composite(value):
        return value
    return list_to_tensor(value)


def is_ragged(value):
    """A tf.RaggedTensor (minitf/ragged, imported only by code that makes one)."""
    return type(value).__name__ == "RaggedTensor"


def is_ragged_spec(spec):
    return type(spec).__name__ == "RaggedTensorSpec"


def is_composite(value):
    """A RaggedTensor or SparseTensor: kept whole in an element, taken apart into its
    component tensors where a traced function needs plain tensors."""
    return composite_tensor.is_composite(value)


def _holds_tensor(value):
    if isinstance(value, (list, tuple)):
        return any(_holds_tensor(v) for v in value)
    return isinstance(value, Tensor)


def list_to_tensor(value):
    """A value (a nested list perhaps holding tensors) as one tensor. A list of symbolic
    tensors is stacked, as TF's conversion does (`[a, b]` -> `tf.stack([a, b])`)."""
    if not isinstance(value, list) or not _holds_tensor(value):
        return convert_to_tensor(value)
    from ..ops.array_ops import stack  # ops are built on the framework: import late
    return stack([list_to_tensor(list(v)) if isinstance(v, (list, tuple)) else v
                  for v in value])


def spec_of(leaf):
    """The spec of one leaf: a TensorSpec for a tensor, a DatasetSpec for a dataset."""
    if is_dataset(leaf):
        return DatasetSpec(leaf.element_spec)
    if is_composite(leaf):  # a RaggedTensorSpec or SparseTensorSpec
        return leaf._type_spec
    return TensorSpec(leaf.shape, leaf.dtype)


def element_spec_of(element):
    return map_structure(spec_of, element)


def type_text(structure):
    """(tf.int32, tf.float32): how TF names an expected structure of dtypes."""
    return repr(map_structure(lambda s: s.dtype, structure)).replace("'", "")


def batched_spec(spec, batch_dim):
    """A TensorSpec with a leading batch dimension (`batch_dim` an int or None)."""
    if is_sparse_spec(spec):
        return sparse_elements.batched_spec(spec, batch_dim)
    if spec.shape.rank is None:
        return TensorSpec(None, spec.dtype)
    return TensorSpec([batch_dim] + list(spec.shape), spec.dtype)


def unbatched_spec(spec):
    if is_ragged_spec(spec):  # a row of a RaggedTensor: one partition fewer
        return type(spec)(spec.shape[1:], spec.dtype, spec.ragged_rank - 1,
                          spec.row_splits_dtype)
    if is_sparse_spec(spec):
        return sparse_elements.unbatched_spec(spec)
    if spec.shape.rank is None:
        return TensorSpec(None, spec.dtype)
    if spec.shape.rank == 0:
        raise ValueError("Cannot unbatch an input with scalar components. Each element "
                         "must have a leading (batch) dimension to split along.")
    return TensorSpec(list(spec.shape)[1:], spec.dtype)


def compatible_spec(a, b):
    """The most specific spec both `a` and `b` fit (dims that differ become None)."""
    return TensorSpec(a.shape.most_specific_compatible_shape(b.shape), a.dtype)


def same_structure(a, b):
    try:
        nest.assert_same_structure(a, b, check_types=False)
    except ValueError:
        return False
    return True


def check_value(spec, value):
    """True if an array `value` fits `spec` (dtype and known dimensions)."""
    return spec.shape.is_compatible_with(TensorShape(np.shape(value)))
