"""Slicing: `x[1:, ::-1, tf.newaxis, ...]`, `tf.slice`, `tf.strided_slice`.

`x[key]` follows NumPy's basic indexing: ints, slices (negative strides too),
`...` and `tf.newaxis` (None). Its gradient scatters the upstream gradient
back into a zero tensor of the input's shape.

>>> import minitf as tf
>>> x = tf.reshape(tf.range(6), [2, 3])
>>> x[:, ::-1]
<tf.Tensor: shape=(2, 3), dtype=int32, numpy=
array([[2, 1, 0],
       [5, 4, 3]], dtype=int32)>
>>> x[1, tf.newaxis].shape
TensorShape([1, 3])
"""
import builtins

import numpy as np

from ..framework import errors
from ..framework.op import Op, apply
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export

newaxis = None  # `tf.newaxis`: in an index, inserts a size-1 axis

_VALID = ("Only integers, slices (`:`), ellipsis (`...`), tf.newaxis (`None`) and scalar "
          "tf.int32/tf.int64 tensors are valid indices, got {!r}")


def _normalize_key(key):
    """A tuple of ints, slices (with int bounds), None and Ellipsis."""
    if not isinstance(key, tuple):
        key = (key,)
    out = []
    for k in key:
        if k is None or k is Ellipsis:
            out.append(k)
        elif isinstance(k, builtins.slice):
            out.append(builtins.slice(*(_index(b, k) for b in (k.start, k.stop, k.step))))
        else:
            out.append(_index(k, k))
    return tuple(out)


def _index(value, shown):
    if value is None:
        return None
    if isinstance(value, (bool, np.bool_)):
        raise TypeError(_VALID.format(shown))
    if isinstance(value, Tensor) or hasattr(value, "_is_variable"):
        if value.shape.rank != 0 or not value.dtype.is_integer:
            raise TypeError(_VALID.format(shown))
        return int(value)
    try:
        return int(value.__index__())
    except (AttributeError, TypeError):
        raise TypeError(_VALID.format(shown)) from None


def _strided_slice_shape(shape, key):
    dims = shape.as_list()
    if not dims and any(k is not None and k is not Ellipsis for k in key):
        raise errors.op_error(errors.InvalidArgumentError, "StridedSlice",
                              "Attempting to slice scalar input.",
                              "A scalar has no axes to index; use it as it is.")
    consumed = sum(1 for k in key if k is not None and k is not Ellipsis)
    if consumed > len(dims):
        raise errors.op_error(
            errors.InvalidArgumentError, "StridedSlice",
            f"Index out of range using input dim {len(dims)}; input has only {len(dims)} dims",
            f"This tensor has {len(dims)} axes, but the index names {consumed}.")
    axis = 0
    for k in key:
        if k is Ellipsis:
            axis += len(dims) - consumed
        elif k is None:
            pass
        else:
            if isinstance(k, int) and not -dims[axis] <= k < dims[axis]:
                raise errors.op_error(
                    errors.InvalidArgumentError, "StridedSlice",
                    f"slice index {k} of dimension {axis} out of bounds.",
                    f"Axis {axis} has size {dims[axis]}: valid indices are "
                    f"{-dims[axis]}..{dims[axis] - 1}.")
            axis += 1
    return TensorShape(np.empty(dims, dtype=np.bool_)[key].shape)


def _strided_slice_forward(x, key):
    _strided_slice_shape(TensorShape(x.shape), key)
    return np.array(x[key])


StridedSlice = Op("StridedSlice", _strided_slice_forward, typed=(), shape=_strided_slice_shape)


def _strided_slice_grad_forward(dy, shape, key):
    grad = np.zeros(shape, dtype=dy.dtype)
    grad[key] = dy
    return grad


StridedSliceGrad = Op("StridedSliceGrad", _strided_slice_grad_forward, typed=(),
                      shape=lambda dy, shape, key: TensorShape(shape))


@StridedSlice.def_grad
def _strided_slice_grad(op, dy):
    return apply(StridedSliceGrad, [dy], {"shape": tuple(op.inputs[0].shape.as_list()),
                                          "key": op.attrs["key"]})


@StridedSliceGrad.def_grad
def _strided_slice_grad_grad(op, ddy):
    return apply(StridedSlice, [ddy], {"key": op.attrs["key"]})


def getitem(tensor, key):
    """`tensor[key]` (installed as `Tensor.__getitem__`)."""
    tensor = convert_to_tensor(tensor)
    return apply(StridedSlice, [tensor], {"key": _normalize_key(key)})


@tf_export("slice")
def slice(input_, begin, size, name=None):  # noqa: A001 - TF's name
    """The block starting at `begin` with extent `size` (-1: to the end of that axis)."""
    input_ = convert_to_tensor(input_)
    begin = [int(b) for b in np.reshape(np.asarray(begin), [-1])]
    size = [int(s) for s in np.reshape(np.asarray(size), [-1])]
    dims = input_.shape.as_list()
    if len(begin) != len(dims) or len(size) != len(dims):
        raise errors.op_error(
            errors.InvalidArgumentError, "Slice",
            f"Expected begin and size arguments to be 1-D tensors of size {len(dims)}, but got "
            f"shapes [{len(begin)}] and [{len(size)}] instead.", "Give one entry per axis.")
    key = []
    for axis, (b, s, d) in enumerate(zip(begin, size, dims)):
        end = d if s == -1 else b + s
        if b < 0 or end > d or end < b:
            raise errors.op_error(
                errors.InvalidArgumentError, "Slice",
                f"Expected size[{axis}] in [0, {d - b}], but got {s}",
                "begin + size must stay inside the tensor.")
        key.append(builtins.slice(b, end))
    return apply(StridedSlice, [input_], {"key": tuple(key)})

