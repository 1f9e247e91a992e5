"""Shapes known only when the graph runs: `tf.shape`, `tf.size`, `tf.rank` and shape tensors.

Eagerly every shape is known. Inside a `tf.function` traced for
`tf.TensorSpec([None, 3])`, the first axis is `None` until the graph runs:
`x.shape` is the *static* shape `TensorShape([None, 3])`, while `tf.shape(x)`
is a *dynamic* shape - a tensor computed each time the graph runs. When the
static shape is fully known, `tf.shape` simply returns a constant (TF does the
same), so graphs with known shapes stay as small and fast as before.

>>> import minitf as tf
>>> @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
... def rows(x):
...     return tf.shape(x)[0], tf.zeros([tf.shape(x)[0], 2])
>>> n, z = rows(tf.ones([4, 3]))
>>> int(n), z.shape
(4, TensorShape([4, 2]))
>>> print(rows.get_concrete_function().graph)
graph rows(x: float32[?,3]) {
  %0 = Shape[out_type=tf.int32](x)
  %1 = StridedSlice[begin=(0,), end=(1,), strides=(1,), begin_mask=0, end_mask=0, ellipsis_mask=0, new_axis_mask=0, shrink_axis_mask=1](%0)
  %2 = Shape[out_type=tf.int32](x)
  %3 = StridedSlice[begin=(0,), end=(1,), strides=(1,), begin_mask=0, end_mask=0, ellipsis_mask=0, new_axis_mask=0, shrink_axis_mask=1](%2)
  %4 = Pack[axis=0](%3, 2)
  %5 = Fill(%4, 0.0)
  return %1, %5
}

Ops that take a shape (`tf.reshape`, `tf.zeros`/`ones`/`fill`,
`tf.broadcast_to`, `tf.tile`) take a shape *tensor* as an input instead of
an attribute when its value is unknown at trace time; `tf.range` does the
same for its bounds. What is known about the value anyway (`tf.stack([n, 2])`:
"?, 2") gives their static output shape - TF's `constant_value_as_shape`.
Gradients use these ops too: where a static shape is not fully known they
ask `tf.shape(x)` at run time (see `shape_of`).
"""
import numpy as np

from ..framework import dtypes, errors
from ..framework.graph import Const, SymbolicTensor
from ..framework.op import Op, apply, quiet, restore
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export


def _int_dtype(*_, out_type):
    return out_type


# --- Shape, Size, Rank ----------------------------------------------------------------------
Shape = Op("Shape", lambda x, out_type: _shape_forward(x, out_type),
           typed=(), shape=lambda s, out_type: TensorShape([s.rank]), dtype=_int_dtype)
Size = Op("Size", lambda x, out_type: np.array(x.size, dtype=out_type.as_numpy_dtype),
          typed=(), shape=lambda s, out_type: TensorShape([]), dtype=_int_dtype)
Rank = Op("Rank", lambda x: np.array(x.ndim, dtype=np.int32), typed=(),
          shape=lambda s: TensorShape([]), dtype=dtypes.int32)


def _shape_forward(x, out_type):
    return np.array(_fits(x.shape, out_type), dtype=out_type.as_numpy_dtype)


def _fits(dims, out_type):
    """The sizes, checked to fit `out_type` (TF never wraps a size at 2**31)."""
    if out_type is dtypes.int32:
        for i, d in enumerate(dims):
            if d > 2**31 - 1:
                raise errors.op_error(
                    errors.InvalidArgumentError, "Shape",
                    f"Shape output type is 32-bit  but dim {i} is {d}",
                    "Ask for the shape as int64: tf.shape(x, out_type=tf.int64).")
    return dims


def dynamic_shape(x, out_type=dtypes.int32):
    """`tf.shape(x)`: a constant if the static shape is fully known, else a Shape op."""
    x = convert_to_tensor(x)
    if x.shape.is_fully_defined():
        dims = _fits(x.shape.as_list(), out_type)
        return convert_to_tensor(np.array(dims, dtype=out_type.as_numpy_dtype))
    return apply(Shape, [x], {"out_type": out_type})


def dynamic_size(x, out_type=dtypes.int32):
    x = convert_to_tensor(x)
    if x.shape.is_fully_defined():
        return convert_to_tensor(np.array(x.shape.num_elements(), out_type.as_numpy_dtype))
    return apply(Size, [x], {"out_type": out_type})


def dynamic_rank(x):
    x = convert_to_tensor(x)
    if x.shape.rank is not None:
        return convert_to_tensor(np.int32(x.shape.rank))
    return apply(Rank, [x])


@tf_export("shape")
def shape(input, out_type=None, name=None):
    """The dynamic shape as an int32 tensor (use `x.shape` for the static TensorShape).

    Inside tf.function this is a Shape op when some dimension is unknown (None)
    at trace time, and a constant when the static shape is fully known.

    >>> tf.shape(tf.zeros([2, 3]))
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([2, 3], dtype=int32)>
    """
    out_type = dtypes.int32 if out_type is None else dtypes.as_dtype(out_type)
    return dynamic_shape(input, out_type)


@tf_export("rank")
def rank(input, name=None):
    """The number of axes, as an int32 scalar tensor.

    >>> tf.rank(tf.zeros([2, 3]))
    <tf.Tensor: shape=(), dtype=int32, numpy=2>
    """
    return dynamic_rank(input)


@tf_export("size")
def size(input, out_type=None, name=None):
    """The number of elements, as a scalar tensor (int32 unless `out_type` says otherwise).

    >>> tf.size(tf.zeros([2, 3]))
    <tf.Tensor: shape=(), dtype=int32, numpy=6>
    """
    out_type = dtypes.int32 if out_type is None else dtypes.as_dtype(out_type)
    return dynamic_size(input, out_type)


def shape_of(x):
    """For gradients: the static shape as a list of ints when fully known (the fast path,
    nothing added to the graph), else the dynamic `tf.shape(x)` tensor."""
    if x.shape.is_fully_defined():
        return x.shape.as_list()
    return apply(Shape, [x], {"out_type": dtypes.int32})


def dim_of(x, axis):
    """Size of one axis: a Python int if known statically, else a scalar tensor."""
    d = x.shape[axis] if x.shape.rank is not None else None
    if d is not None:
        return d
    return shape_of(x)[axis]


# --- what is known about a tensor's value while tracing -----------------------------------
def constant_value(tensor):
    """The NumPy value of `tensor` if it can be known while tracing, else None
    (TF's `tensor_util.constant_value`): eager tensors, constants, and Pack/StridedSlice/
    Cast/arithmetic of known values."""
    if not isinstance(tensor, SymbolicTensor):
        return np.asarray(tensor._value) if isinstance(tensor, Tensor) else np.asarray(tensor)
    node = tensor.node
    if node.op is Const:
        return node.attrs["value"]
    op = node.op
    if op.stateful or op.saves or op.forward is None or op.num_outputs != 1 or not node.inputs:
        return None
    if op.name not in _FOLDABLE:
        return None
    args = [constant_value(t) for t in node.inputs]
    if any(a is None for a in args):
        return None
    token = quiet()  # a kernel run outside apply: keep NumPy's warnings in, as apply does
    try:
        return np.asarray(op.forward(*args, **node.attrs))
    finally:
        restore(token)


_FOLDABLE = {"Pack", "StridedSlice", "Cast", "AddV2", "Sub", "Mul", "FloorDiv", "Neg",
             "ConcatV2", "Reshape", "Identity", "Maximum", "Minimum", "Prod"}


def constant_value_as_shape(tensor):
    """What is known about a shape tensor's value: a TensorShape with None for the
    entries only known when the graph runs (TF's `constant_value_as_shape`)."""
    value = constant_value(tensor)
    if value is not None:
        return TensorShape([None if d < 0 else int(d) for d in np.reshape(value, [-1])])
    node = tensor.node
    if node.op is Shape:
        return node.inputs[0].shape
    if node.op.name == "Pack":
        known = [constant_value(t) for t in node.inputs]
        return TensorShape([None if v is None or v < 0 else int(v) for v in known])
    if node.op.name == "ConcatV2":
        parts = [constant_value_as_shape(t) for t in node.inputs]
        if any(p.rank is None for p in parts):
            return TensorShape(None)
        return TensorShape([d for p in parts for d in p.dims])
    if node.op.name == "StridedSlice" and not node.attrs.get("shrink_axis_mask", 0) \
            and "begin" in node.attrs:
        whole = constant_value_as_shape(node.inputs[0])
        if whole.rank is not None:
            dims = np.array(whole.dims, dtype=object)
            return TensorShape(list(node.op.forward(dims, **node.attrs)))
    length = tensor.shape[0] if tensor.shape.rank == 1 else None
    return TensorShape(None if length is None else [None] * length)


def shape_argument(value, op_name):
    """A shape argument (list of ints, TensorShape, list mixing ints and scalar tensors,
    or an int vector tensor), as (static dims, None) when its value is known now, or
    (None, int tensor) when only the running graph knows it."""
    if isinstance(value, TensorShape):
        if not value.is_fully_defined():
            raise ValueError(f"Cannot convert a partially known TensorShape {value} to a "
                             f"Tensor; {op_name} needs every size (use tf.shape(x)).")
        return tuple(value.as_list()), None
    if isinstance(value, (list, tuple)):
        if all(type(d) is int for d in value):
            return tuple(value), None  # the common case, kept fast
        if any(isinstance(d, SymbolicTensor) for d in value):
            return _known_or(pack_shape(value))
    if isinstance(value, SymbolicTensor):
        return _known_or(value)
    array = np.asarray(convert_to_tensor(value)._value)
    if array.size and array.dtype.kind not in "iu":
        from .array_ops import attr_dtype_error

        raise attr_dtype_error(op_name, "Tshape" if op_name == "Reshape" else "index_type",
                               dtypes.from_numpy(array.dtype))
    return tuple(int(d) for d in np.reshape(array, [-1])), None


def _known_or(tensor):
    value = constant_value(tensor)
    if value is not None:
        return tuple(int(d) for d in np.reshape(value, [-1])), None
    if not tensor.dtype.is_integer:
        from .array_ops import attr_dtype_error

        raise attr_dtype_error("Reshape", "Tshape", tensor.dtype)
    return None, tensor


def pack_shape(dims):
    """A list mixing Python ints and scalar int tensors, packed into one int vector (TF
    auto-packs such a list the same way)."""
    from .array_ops import stack

    tensors = [d for d in dims if isinstance(d, Tensor)]
    dtype = dtypes.int64 if any(t.dtype is dtypes.int64 for t in tensors) else dtypes.int32
    parts = []
    for d in dims:
        if isinstance(d, Tensor) and d.dtype is not dtype:
            from .math_ops import cast

            d = cast(d, dtype)
        parts.append(convert_to_tensor(d, dtype=dtype) if not isinstance(d, Tensor) else d)
    return stack(parts)


# --- ops whose shape argument is a tensor ----------------------------------------------------
def _from_attr(*_, _shape, **__):
    return _shape


Fill = Op("Fill", lambda dims, value, _shape: np.full(tuple(dims), value), typed=(),
          shape=_from_attr, dtype=lambda dims, value, _shape: value)


@Fill.def_grad
def _fill_grad(op, dy):
    from .reduction_ops import reduce_sum

    return None, reduce_sum(dy)


def fill_dynamic(dims, value):
    """tf.fill with a shape tensor (Fill op); `value` a scalar tensor."""
    return apply(Fill, [dims, value], {"_shape": constant_value_as_shape(dims)})


def _reshape_forward(x, shape, _shape):
    return np.reshape(x, tuple(int(d) for d in shape))


ReshapeDynamic = Op("Reshape", _reshape_forward, typed=(), shape=_from_attr)


@ReshapeDynamic.def_grad
def _reshape_dynamic_grad(op, dy):
    from .array_ops import reshape

    return reshape(dy, shape_of(op.inputs[0])), None


def reshape_dynamic(tensor, shape):
    """tf.reshape with a shape tensor; the static shape keeps what is known (-1: unknown,
    or worked out when it is the only unknown and the input's size is known)."""
    partial = constant_value_as_shape(shape)
    if partial.rank is not None and tensor.shape.is_fully_defined():
        unknown = [i for i, d in enumerate(partial.dims) if d is None]
        known = int(np.prod([d for d in partial.dims if d is not None]))
        if len(unknown) == 1 and known:
            dims = list(partial.dims)
            dims[unknown[0]] = tensor.shape.num_elements() // known
            partial = TensorShape(dims)
    return apply(ReshapeDynamic, [tensor, shape], {"_shape": partial})


BroadcastToDynamic = Op("BroadcastTo", lambda x, shape, _shape: np.array(
    np.broadcast_to(x, tuple(shape))), typed=(), shape=_from_attr)


@BroadcastToDynamic.def_grad
def _broadcast_to_dynamic_grad(op, dy):
    from .unbroadcast import unbroadcast

    return unbroadcast(dy, op.inputs[0]), None


def broadcast_to_dynamic(tensor, shape):
    return apply(BroadcastToDynamic, [tensor, shape], {"_shape": constant_value_as_shape(shape)})


def _tile_dynamic_shape(shape, multiples, _multiples):
    if shape.rank is None:
        return TensorShape(None)
    return TensorShape([None if d is None or m is None else d * m
                        for d, m in zip(shape.dims, _multiples.dims)])


TileDynamic = Op("Tile", lambda x, multiples, _multiples: np.tile(x, tuple(multiples)),
                 typed=(), shape=_tile_dynamic_shape)


@TileDynamic.def_grad
def _tile_dynamic_grad(op, dy):
    return tile_grad(op.inputs[0], op.inputs[1], dy), None


def tile_grad(x, multiples, dy):
    """Sum the tiles: reshape dy to [m0, d0, m1, d1, ...] and sum the m axes. With
    unknown sizes the interleaved shape is built at run time."""
    from .array_ops import reshape, stack, transpose
    from .reduction_ops import reduce_sum

    rank = x.shape.rank
    dims = shape_of(x)
    if isinstance(dims, list) and not isinstance(multiples, Tensor):
        split = [v for m, d in zip(multiples, dims) for v in (m, d)]
    else:
        multiples = convert_to_tensor(multiples, dtype=dtypes.int32)
        split = reshape(transpose(stack([multiples, convert_to_tensor(dims, dtypes.int32)])),
                        [-1])
    summed = reduce_sum(reshape(dy, split), axis=list(range(0, 2 * rank, 2)))
    return reshape(summed, dims)


def tile_dynamic(tensor, multiples):
    return apply(TileDynamic, [tensor, multiples],
                 {"_multiples": constant_value_as_shape(multiples)})


# --- summing a gradient down to a shape known only at run time ---------------------------
def _sum_to_shape(grad, shape, _shape=None):
    """Sum `grad` over the axes broadcasting stretched to go from `shape` to grad's shape."""
    shape = tuple(int(d) for d in shape)
    extra = grad.ndim - len(shape)
    axes = tuple(range(extra)) + tuple(extra + i for i, d in enumerate(shape)
                                       if d == 1 and grad.shape[extra + i] != 1)
    summed = np.sum(grad, axis=axes, keepdims=True, dtype=grad.dtype) if axes else grad
    return np.reshape(summed, shape)


# In TensorFlow this is BroadcastGradientArgs + Sum + Reshape; minitf does it in one op.
SumToShape = Op("SumToShape", _sum_to_shape, typed=(),
                shape=lambda grad, shape, _shape: _shape)


@SumToShape.def_grad
def _sum_to_shape_grad(op, ddy):
    return broadcast_to_dynamic(ddy, shape_of(op.inputs[0])) \
        if not op.inputs[0].shape.is_fully_defined() else \
        _broadcast_static(ddy, op.inputs[0].shape.as_list()), None


def _broadcast_static(t, dims):
    from .array_ops import broadcast_to

    return broadcast_to(t, dims)


def sum_to_shape(grad, like):
    """`grad` summed down to the run-time shape of tensor `like`."""
    return apply(SumToShape, [grad, shape_of(like)], {"_shape": like.shape})


# --- tf.range with bounds known only at run time ---------------------------------------------
def _range_forward(start, limit, delta, Tidx):
    start, limit, delta = start.item(), limit.item(), delta.item()
    check_range(start, limit, delta)
    count = int(np.ceil((limit - start) / delta))
    steps = np.full(count, delta, dtype=Tidx.as_numpy_dtype)
    if count:
        steps[0] = start
    return np.cumsum(steps, dtype=Tidx.as_numpy_dtype)


def check_range(start, limit, delta):
    """TF's Range kernel checks, with one sentence on what went wrong."""
    if delta == 0:
        raise errors.op_error(errors.InvalidArgumentError, "Range",
                              "Requires delta != 0: 0", "A step of 0 would never reach limit.")
    if (delta > 0 and start > limit) or (delta < 0 and start < limit):
        raise errors.op_error(
            errors.InvalidArgumentError, "Range",
            f"Requires start <= limit when delta > 0: {start}/{limit}" if delta > 0 else
            f"Requires start >= limit when delta < 0: {start}/{limit}",
            "The sequence must be able to walk from start to limit in steps of delta.")


Range = Op("Range", _range_forward, typed=(), shape=lambda *_, Tidx: TensorShape([None]),
           dtype=lambda *_, Tidx: Tidx)


def range_dynamic(start, limit, delta, dtype):
    """A Range node: the length is known when the graph runs."""
    from .math_ops import cast

    args = [a if a.dtype is dtype else cast(a, dtype) for a in (start, limit, delta)]
    return apply(Range, args, {"Tidx": dtype})
