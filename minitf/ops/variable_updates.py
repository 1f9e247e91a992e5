"""Changing part of a variable: `v[key].assign(value)` and the `scatter_*` methods.

Each one computes the variable's new value with a functional op
(`tf.tensor_strided_slice_update`, `tf.tensor_scatter_nd_update`, ...) and
assigns it, so eagerly the variable changes at once and inside `tf.function`
the update is an assignment node that runs on every call. They return the
variable, as TF does (TF's is an unread view of it).

`v[key]` on a variable is an ordinary tensor (the slice of the current value)
that also remembers which variable and which slice it came from: that is
what lets `.assign` write the slice back, as in TensorFlow.

>>> import minitf as tf
>>> v = tf.Variable([[1.0, 2.0], [3.0, 4.0]])
>>> _ = v[0, 1].assign(20.0)
>>> _ = v.scatter_nd_add([[1, 0]], [30.0])
>>> v.numpy()
array([[ 1., 20.],
       [33.,  4.]], dtype=float32)

(These methods are installed on `tf.Variable` here, next to the ops they use,
as the Python operators are in operators.py.)
"""
import weakref

from ..framework.graph import ReadVariable, SymbolicTensor
from ..framework.tensor import EagerTensor
from ..framework.variables import Variable
from .array_ops import expand_dims
from .indexed_slices import IndexedSlices
from .scatter_ops import (
    tensor_scatter_nd_add,
    tensor_scatter_nd_max,
    tensor_scatter_nd_min,
    tensor_scatter_nd_sub,
    tensor_scatter_nd_update,
)
from .slice_update_ops import update_slice
from .slicing_ops import StridedSlice, _has_tensor, _is_bool_mask, getitem, spec_from_key


# --- v[key].assign(value) ----------------------------------------------------------------------
def _assign_slice(variable, spec, value):
    return variable.assign(update_slice(variable.value(), spec, value))


# id(eager slice) -> (variable, spec), dropped when the slice is garbage collected. The
# slice must stay the very tensor the tape recorded (gradients flow through it), and
# tensors have no room for more attributes, so its origin is kept here.
_ORIGINS = {}


class _EagerSliceOfVariable(EagerTensor):
    """An eager `v[key]`: the values, plus (in `_ORIGINS`) where they came from."""

    __slots__ = ()

    def assign(self, value, name=None):
        """Write `value` (of this slice's shape) into the slice of the variable."""
        return _assign_slice(*_ORIGINS[id(self)], value)


class _SymbolicSliceOfVariable(SymbolicTensor):
    """A traced `v[key]`: the StridedSlice node's input is the variable's read node,
    and its attributes are the slice, so the tensor itself knows both."""

    __slots__ = ()

    def assign(self, value, name=None):
        """Write `value` (of this slice's shape) into the slice of the variable."""
        read = self.node.inputs[0].node
        return _assign_slice(read.attrs["variable"], dict(self.node.attrs), value)


def variable_getitem(variable, key):
    """`v[key]`: the slice of the current value, assignable with `.assign`."""
    tensor = getitem(variable, key)
    if _is_bool_mask(key) or _has_tensor(spec_from_key(key)):
        return tensor  # masks and tensor bounds: a plain tensor (no slice assignment)
    if isinstance(tensor, SymbolicTensor):
        if tensor.node.op is StridedSlice and tensor.node.inputs[0].node.op is ReadVariable:
            tensor.__class__ = _SymbolicSliceOfVariable  # same slots: the node keeps it
        return tensor
    tensor.__class__ = _EagerSliceOfVariable  # same slots: the tape's record still holds
    _ORIGINS[id(tensor)] = (variable, spec_from_key(key))
    weakref.finalize(tensor, _ORIGINS.pop, id(tensor), None)
    return tensor


# --- scatter methods ---------------------------------------------------------------------------
def _nd_method(function, doc):
    def method(self, indices, updates, name=None):
        return self.assign(function(self.value(), indices, updates))

    method.__doc__ = doc
    return method


def _sparse_method(nd_method_name, doc):
    def method(self, sparse_delta, use_locking=False, name=None):
        if not isinstance(sparse_delta, IndexedSlices):
            raise TypeError("Argument `sparse_delta` must be a `tf.IndexedSlices`. Received "
                            f"arg: {sparse_delta}. (Rows `indices` get `values`: "
                            "tf.IndexedSlices(values, indices).)")
        indices = expand_dims(sparse_delta.indices, -1)  # row i -> coordinate row [i]
        return getattr(self, nd_method_name)(indices, sparse_delta.values)

    method.__doc__ = doc
    return method


_ND = {
    "scatter_nd_update": (tensor_scatter_nd_update,
                          "v[indices[i]] = updates[i] (tf.tensor_scatter_nd_update, in place)."),
    "scatter_nd_add": (tensor_scatter_nd_add, "v[indices[i]] += updates[i] (repeats add up)."),
    "scatter_nd_sub": (tensor_scatter_nd_sub, "v[indices[i]] -= updates[i] (repeats add up)."),
    "scatter_nd_max": (tensor_scatter_nd_max, "v[indices[i]] = max(v[indices[i]], updates[i])."),
    "scatter_nd_min": (tensor_scatter_nd_min, "v[indices[i]] = min(v[indices[i]], updates[i])."),
}
_SPARSE = {
    "scatter_update": ("scatter_nd_update", "Rows sparse_delta.indices of v = its values."),
    "scatter_add": ("scatter_nd_add", "Rows sparse_delta.indices of v += its values."),
    "scatter_sub": ("scatter_nd_sub", "Rows sparse_delta.indices of v -= its values."),
    "scatter_max": ("scatter_nd_max", "Rows of v = max(row, the values for it)."),
    "scatter_min": ("scatter_nd_min", "Rows of v = min(row, the values for it)."),
}


def install(cls):
    # (ops/ modules are imported in name order: this runs after operators.py installed
    # the plain __getitem__, and replaces it for variables)
    cls.__getitem__ = variable_getitem
    for name, (function, doc) in _ND.items():
        setattr(cls, name, _nd_method(function, doc))
    for name, (nd_name, doc) in _SPARSE.items():
        setattr(cls, name, _sparse_method(nd_name, doc))


install(Variable)
