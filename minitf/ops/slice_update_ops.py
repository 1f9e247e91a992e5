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
"""
from ..framework import errors
from ..framework.op import Op, apply
from ..framework.tensor import convert_to_tensor
from ..framework.tf_export import tf_export
from .shape_rules import dims_text
from .slicing_ops import _MASKS, StridedSlice, _int_vector, _numpy_key


def _check_value(shape, value, spec):
    sliced = _numpy_key(shape, spec)[1]
    if tuple(sliced) != tuple(value):
        raise errors.op_error(
            errors.InvalidArgumentError, "TensorStridedSliceUpdate",
            f"sliced l-value shape {dims_text(sliced)} does not match r-value shape "
            f"{dims_text(value)}. Automatic broadcasting not yet implemented.",
            "Give the new value exactly the slice's shape (tf.broadcast_to can make it).")


def _update_shape(input_, value, **spec):
    if input_.is_fully_defined() and value.is_fully_defined():
        _check_value(input_.dims, value.dims, spec)
    return input_


def _update_forward(x, value, **spec):
    _check_value(x.shape, value.shape, spec)
    out = x.copy()
    out[_numpy_key(x.shape, spec)[0]] = value
    return out


TensorStridedSliceUpdate = Op("TensorStridedSliceUpdate", _update_forward, typed=(0, 1),
                              shape=_update_shape)


@TensorStridedSliceUpdate.def_grad
def _update_grad(op, dy):
    """The overwritten slice gets no gradient; the new value gets the slice of dy."""
    from ..framework.gradient_ops import zeros_like

    value = op.inputs[1]
    return (apply(TensorStridedSliceUpdate, [dy, zeros_like(value)], op.attrs),
            apply(StridedSlice, [dy], op.attrs))


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

