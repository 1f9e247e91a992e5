"""Making tensors: constant, zeros, ones, fill, range, linspace, eye, identity.

>>> import minitf as tf
>>> tf.constant(1), tf.constant(1.0)
(<tf.Tensor: shape=(), dtype=int32, numpy=1>, <tf.Tensor: shape=(), dtype=float32, numpy=1.0>)
>>> tf.range(3)
<tf.Tensor: shape=(3,), dtype=int32, numpy=array([0, 1, 2], dtype=int32)>

Python ints become int32 and floats float32, as in TensorFlow; NumPy arrays
keep their dtype (so a float64 array stays float64).
"""
import numpy as np

from ..framework import context, dtypes, errors
from ..framework import gradient_ops
from ..framework.device import place_new
from ..framework.op import Op, apply
from ..framework.tensor import EagerTensor, Tensor, convert_to_tensor, to_array
from ..framework.tf_export import tf_export
from . import shape_ops
from .array_ops import _int_list, _shape_list, broadcast_to, reshape
from .shape_rules import check_sizes, dims_text, same_shape

tf_export("convert_to_tensor")(convert_to_tensor)


@tf_export("constant")
def constant(value, dtype=None, shape=None, name="Const"):
    """A tensor holding `value`; `shape` reshapes it, or fills it when `value` is a scalar.

    >>> tf.constant(0.5, shape=[2])
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([0.5, 0.5], dtype=float32)>
    """
    if isinstance(value, Tensor) or hasattr(value, "_is_variable"):
        value = convert_to_tensor(value)
        if dtype is not None and dtypes.as_dtype(dtype) is not value.dtype:
            raise TypeError(f"Expected tensor {value.numpy()} with dtype "
                            f"{dtypes.as_dtype(dtype)!r}, but got dtype {value.dtype!r}.")
        tensor = value
    else:
        tensor = EagerTensor(to_array(value, None if dtype is None else dtypes.as_dtype(dtype)))
        if context.active:  # inside tf.device: record the device (framework/device.py)
            place_new(tensor)
    if shape is None:
        return tensor
    shape = _shape_list(shape)
    if tensor.shape.num_elements() == int(np.prod(shape)):
        return reshape(tensor, shape)
    if tensor.shape.num_elements() == 1:
        return broadcast_to(reshape(tensor, []), shape)
    raise TypeError(f"Eager execution of tf.constant with unsupported shape. Tensor {value} "
                    f"(converted from {value}) has {tensor.shape.num_elements()} elements, but "
                    f"got `shape` {shape} with {int(np.prod(shape))} elements).")


def _filled(shape, dtype, number):
    dtype = dtypes.as_dtype(dtype)
    if isinstance(shape, Tensor) or isinstance(shape, (list, tuple)) and any(
            isinstance(d, Tensor) for d in shape):
        static, dynamic = shape_ops.shape_argument(shape, "Fill")
        if dynamic is not None:  # the shape is known only when the graph runs
            number = bool(number) if dtype == dtypes.bool else number   # ones(.., bool): True
            return shape_ops.fill_dynamic(dynamic, convert_to_tensor(number, dtype=dtype))
        shape = static
    _check_python_sizes(shape)
    dims = _dims(shape, "Fill")
    try:
        return EagerTensor(np.full(dims, number, dtype=dtype.as_numpy_dtype), dtype)
    except MemoryError:
        raise errors.out_of_memory("Fill", dims, dtypes.tf_type_name(dtype)) from None


def _dims(shape, op_name):
    return check_sizes(op_name, _shape_list(shape))


def _check_python_sizes(shape):
    """TF converts a Python shape to int32, so a float size is a TypeError. (Inside
    tf.function TF's small-constant path truncates a list of floats: [2.5] -> [2].)"""
    if isinstance(shape, float):
        if context.executing_eagerly():
            raise TypeError(f"Cannot convert {shape!r} to EagerTensor of dtype int32")
        raise TypeError(f"Expected int32, but got {shape!r} of type 'float'.")
    if isinstance(shape, (list, tuple)) and any(d is None for d in shape):
        raise ValueError("Attempt to convert a value (None) with an unsupported type (<class "
                         "'NoneType'>) to a Tensor. Every size must be known to make a tensor.")
    if isinstance(shape, (list, tuple)) and context.executing_eagerly() and any(
            isinstance(d, float) for d in shape):
        raise TypeError(f"Cannot convert {list(shape)!r} to EagerTensor of dtype int32")


@tf_export("zeros")
def zeros(shape, dtype=dtypes.float32, name=None, layout=None):
    """A tensor of zeros (float32 unless `dtype` says otherwise)."""
    return _filled(shape, dtype, 0)


@tf_export("ones")
def ones(shape, dtype=dtypes.float32, name=None, layout=None):
    """A tensor of ones (float32 unless `dtype` says otherwise)."""
    return _filled(shape, dtype, 1)


@tf_export("zeros_like")
def zeros_like(input, dtype=None, name=None, layout=None):
    """Zeros with the shape (and dtype, unless given) of `input`."""
    input = convert_to_tensor(input)
    if dtype is not None and dtypes.as_dtype(dtype) is not input.dtype:
        return zeros(shape_ops.shape_of(input), dtype)
    return gradient_ops.zeros_like(input)


@tf_export("ones_like")
def ones_like(input, dtype=None, name=None, layout=None):
    """Ones with the shape (and dtype, unless given) of `input`."""
    input = convert_to_tensor(input)
    if dtype is not None and dtypes.as_dtype(dtype) is not input.dtype:
        return ones(shape_ops.shape_of(input), dtype)
    return gradient_ops.ones_like(input)


@tf_export("fill")
def fill(dims, value, name=None, layout=None):
    """A tensor of shape `dims` filled with `value` (whose dtype it takes)."""
    value = convert_to_tensor(value)
    if value.shape.rank != 0:
        raise errors.op_error(errors.InvalidArgumentError, "Fill",
                              f"value must represent a scalar, got shape {dims_text(value.shape)}",
                              "fill repeats one number; use tf.broadcast_to to repeat a tensor.")
    if isinstance(dims, Tensor) or isinstance(dims, (list, tuple)) and any(
            isinstance(d, Tensor) for d in dims):
        static, dynamic = shape_ops.shape_argument(dims, "Fill")
        if dynamic is not None:  # the shape is known only when the graph runs
            return shape_ops.fill_dynamic(dynamic, value)
        dims = static
    if not context.executing_eagerly() and np.asarray(dims).dtype.kind == "f":
        raise TypeError("Value passed to parameter 'dims' has DataType float32 not in list of "
                        "allowed values: int32, int64")
    return broadcast_to(value, check_sizes("Fill", _int_list("Fill", "index_type", dims)))


@tf_export("math.add_n", "add_n")
def add_n(inputs, name=None):
    """The element-wise sum of a list of tensors of the same shape and dtype."""
    inputs = [convert_to_tensor(t) for t in inputs]
    if not inputs:
        raise ValueError("Inputs must be an iterable of at least one Tensor/IndexedSlices with "
                         "the same dtype and shape.")
    for i, t in enumerate(inputs[1:], 1):
        if t.shape != inputs[0].shape:
            raise errors.op_error(
                errors.InvalidArgumentError, "AddN",
                "Inputs to operation AddN of type AddN must have the same size and shape.  "
                f"Input 0: {dims_text(inputs[0].shape)} != input {i}: {dims_text(t.shape)}",
                "add_n does not broadcast: use tf.add (or +) for that.")
    return gradient_ops.add_n(inputs)


@tf_export("range")
def range(start, limit=None, delta=1, dtype=None, name="range"):  # noqa: A001 - TF's name
    """[start, start + delta, ...) up to `limit`, like Python's range but any dtype.

    The dtype is inferred from the arguments (int32, or float32 if any is a float).
    """
    if limit is None:
        start, limit = 0, start
    args = [convert_to_tensor(a) for a in (start, limit, delta)]
    if dtype is None:
        order = [dtypes.int32, dtypes.int64, dtypes.float32, dtypes.float64]
        dtype = max((a.dtype for a in args), key=lambda d: order.index(d) if d in order else 0)
    dtype = dtypes.as_dtype(dtype)
    known = [shape_ops.constant_value(a) for a in args]
    if any(k is None for k in known):  # a bound known only when the graph runs
        return shape_ops.range_dynamic(*args, dtype)
    start, limit, delta = (k.item() for k in known)
    shape_ops.check_range(start, limit, delta)
    count = int(np.ceil((limit - start) / delta))
    # TF's kernel accumulates `value += delta` in the output dtype; so do we
    # (that is why tf.range(0., 1., .3) ends in 0.90000004).
    steps = np.full(count, delta, dtype=dtype.as_numpy_dtype)
    if count:
        steps[0] = start
    return EagerTensor(np.cumsum(steps, dtype=dtype.as_numpy_dtype), dtype)


@tf_export("linspace")
def linspace(start, stop, num, name=None, axis=0):
    """`num` evenly spaced values from start to stop, both included."""
    start, stop = convert_to_tensor(start), convert_to_tensor(stop)
    dtype = start.dtype if start.dtype.is_floating else dtypes.float64
    values = np.linspace(start.numpy(), stop.numpy(), int(num), axis=axis)
    return EagerTensor(values.astype(dtype.as_numpy_dtype), dtype)


@tf_export("eye", "linalg.eye")
def eye(num_rows, num_columns=None, batch_shape=None, dtype=dtypes.float32, name=None):
    """An identity matrix (ones on the diagonal), optionally batched."""
    dtype = dtypes.as_dtype(dtype)
    matrix = np.eye(int(num_rows), None if num_columns is None else int(num_columns),
                    dtype=dtype.as_numpy_dtype)
    if batch_shape is not None:
        matrix = np.broadcast_to(matrix, list(batch_shape) + list(matrix.shape)).copy()
    return EagerTensor(matrix, dtype)


Identity = Op("Identity", lambda x: x, typed=(), shape=same_shape)


@Identity.def_grad
def _identity_grad(op, dy):
    return dy


@tf_export("identity")
def identity(input, name=None):
    """The same value as a new tensor (a Variable's current value, a named graph node)."""
    return apply(Identity, [convert_to_tensor(input)])


StopGradient = Op("StopGradient", lambda x: x, typed=(), shape=same_shape)  # no gradient


@tf_export("stop_gradient")
def stop_gradient(input, name=None):
    """The same value, but the tape treats it as a constant: no gradient flows through."""
    return apply(StopGradient, [convert_to_tensor(input)])
