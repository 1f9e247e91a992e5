"""`tf.tensor_strided_slice_update`: a copy of a tensor with one strided slice replaced.

It is `x[key] = value` without mutation, and what `v[key].assign(value)` runs
on a variable's value. The slice is described exactly as `x[key]` describes
it (begin, end, strides and the five masks; see slicing_ops.py), and `value`
must have the slice's shape: TF does not broadcast here.

>>> import minitf as tf
>>> x = tf.reshape(tf.range(6), [2, 3])
>>> tf.tensor_strided_slice_update(x, [0, 1], [2, 3], [1, 1], [[10, 20], [30, 40]])
<tf.Tensor: shape=(2, 3), dtype=int32, numpy=
array([[ 0, 10, 20],
       [ 3, 30, 40]], dtype=int32)>
>>> tf.tensor_strided_slice_update(x, [0, 1], [2, 3], [1, 1], [7, 8])  # broadcast to [2, 2]
<tf.Tensor: shape=(2, 3), dtype=int32, numpy=
array([[0, 7, 8],
       [3, 7, 8]], dtype=int32)>

In TensorFlow this op is `tf.raw_ops.TensorStridedSliceUpdate` (TF 2.21 has no
`tf.tensor_strided_slice_update`); minitf keeps the short name for lessons.
"""
import numpy as np

from ..framework import errors
from ..framework.op import Op, apply
from ..framework.tensor import convert_to_tensor
from ..framework.tf_export import tf_export
from .shape_rules import dims_text
from .slicing_ops import _MASKS, StridedSlice, _int_vector, _numpy_key


def broadcast_value_shape(shape, value, spec):
    """The shape `value` broadcasts to (with the slice's shape), checked as TF checks it:
    equal to the slice's shape once leading axes of size 1 are set aside."""
    sliced = tuple(_numpy_key(shape, spec)[1])
    try:
        broadcast = np.broadcast_shapes(tuple(value), sliced)
    except ValueError:
        broadcast = None
    if broadcast is None or _without_leading_ones(broadcast) != _without_leading_ones(sliced):
        raise errors.op_error(
            errors.InvalidArgumentError, "TensorStridedSliceUpdate",
            f"Cannot broadcast input shape {dims_text(value)} into final shape "
            f"{dims_text(sliced)}",
            "The new value must broadcast to the slice's shape: trailing axes equal or 1.")
    return broadcast


def _without_leading_ones(dims):
    dims = list(dims)
    while dims and dims[0] == 1:
        dims.pop(0)
    return tuple(dims)


def _update_shape(input_, value, **spec):
    if input_.is_fully_defined() and value.is_fully_defined():
        broadcast_value_shape(input_.dims, value.dims, spec)
    return input_


def _update_forward(x, value, **spec):
    broadcast = broadcast_value_shape(x.shape, value.shape, spec)
    key, sliced = _numpy_key(x.shape, spec)
    out = x.copy()
    out[key] = np.broadcast_to(value, broadcast).reshape(sliced)
    return out


TensorStridedSliceUpdate = Op("TensorStridedSliceUpdate", _update_forward, typed=(0, 1),
                              shape=_update_shape)


@TensorStridedSliceUpdate.def_grad
def _update_grad(op, dy):
    """The overwritten slice gets no gradient; the new value gets the slice of dy,
    summed over the axes it was broadcast along."""
    from ..framework.gradient_ops import zeros_like
    from .array_ops import reshape
    from .unbroadcast import unbroadcast

    value = op.inputs[1]
    dvalue = apply(StridedSlice, [dy], op.attrs)
    if value.shape != dvalue.shape:
        broadcast = broadcast_value_shape(op.inputs[0].shape.as_list(),
                                          value.shape.as_list(), op.attrs)
        dvalue = unbroadcast(reshape(dvalue, list(broadcast)), value)
    return apply(TensorStridedSliceUpdate, [dy, zeros_like(value)], op.attrs), dvalue


@tf_export("tensor_strided_slice_update")
def tensor_strided_slice_update(input, begin, end, strides, value, begin_mask=0, end_mask=0,
                                ellipsis_mask=0, new_axis_mask=0, shrink_axis_mask=0,
                                name=None):
    """A copy of `input` whose strided slice (as `tf.strided_slice` names it) is `value`."""
    input = convert_to_tensor(input)
    value = convert_to_tensor(value, dtype=input.dtype)
    begin, end = _int_vector("begin", begin), _int_vector("end", end)
    strides = _int_vector("strides", strides)
    spec = dict(begin=tuple(int(b) for b in begin), end=tuple(int(e) for e in end),
                strides=tuple(int(s) for s in strides), begin_mask=int(begin_mask),
                end_mask=int(end_mask), ellipsis_mask=int(ellipsis_mask),
                new_axis_mask=int(new_axis_mask), shrink_axis_mask=int(shrink_axis_mask))
    return update_slice(input, spec, value)


def update_slice(tensor, spec, value):
    """`tensor` with the slice `spec` (from `slicing_ops.spec_from_key`) set to `value`."""
    assert set(spec) == {"begin", "end", "strides", *_MASKS}, spec
    return apply(TensorStridedSliceUpdate, [tensor, convert_to_tensor(value, tensor.dtype)],
                 spec)

