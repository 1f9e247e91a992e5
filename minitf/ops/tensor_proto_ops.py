"""tf.make_tensor_proto and tf.make_ndarray: a tensor as TensorFlow's `TensorProto`
message (how graphs, SavedModels and TensorBoard store tensors) and back.

>>> import minitf as tf
>>> proto = tf.make_tensor_proto([[1, 2], [3, 4]])
>>> proto.dtype == tf.int32.as_datatype_enum, [d.size for d in proto.tensor_shape.dim]
(True, [2, 2])
>>> tf.make_ndarray(proto)
array([[1, 2],
       [3, 4]], dtype=int32)

Numbers of a tensor with more than one entry travel as raw little-endian bytes
(`tensor_content`); a scalar, a value broadcast to `shape`, strings and bools use the
typed repeated fields (`int_val`, `float_val`, `string_val`, ...), as in TF. The message
class is TensorBoard's copy of TF's `tensor.proto` (`pip install tensorboard`), so the
bytes equal real TF's.
"""
import numpy as np

from ..framework import dtypes
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.tf_export import tf_export

INSTALL_HINT = ("tf.make_tensor_proto and tf.make_ndarray need TensorFlow's TensorProto message, "
                "which minitf takes from TensorBoard: pip install 'tensorboard>=2.16'")

# The dtypes whose arrays of several entries are stored as raw bytes (TF's
# _TENSOR_CONTENT_TYPES), and each dtype's repeated field otherwise.
_CONTENT = {"float16", "float32", "float64", "int32", "uint8", "int16", "int8", "int64",
            "uint32", "uint64"}
_FIELDS = {"float16": "half_val", "float32": "float_val", "float64": "double_val",
           "int32": "int_val", "int16": "int_val", "int8": "int_val", "uint8": "int_val",
           "uint16": "int_val", "int64": "int64_val", "uint32": "uint32_val",
           "uint64": "uint64_val", "bool": "bool_val", "complex64": "scomplex_val",
           "complex128": "dcomplex_val", "string": "string_val"}


def _pb2():
    try:
        from tensorboard.compat.proto import tensor_pb2, tensor_shape_pb2  # noqa: PLC0415
    except ImportError as exc:
        raise ImportError(INSTALL_HINT) from exc
    return tensor_pb2, tensor_shape_pb2


def _as_array(values, dtype):
    if isinstance(values, Tensor) or getattr(values, "_is_variable", False):
        array = np.asarray(values.numpy())
        if dtype is not None and dtypes.as_dtype(dtype) is not values.dtype:
            raise TypeError(f"Incompatible types: {dtypes.as_dtype(dtype).name} vs. "
                            f"{values.dtype.name}. Value is {array}")
        return array, values.dtype
    t = convert_to_tensor(values, dtype=dtype)  # TF's inference: Python ints are int32
    return np.asarray(t.numpy()), t.dtype


def _shape_proto(tensor_shape_pb2, dims):
    return tensor_shape_pb2.TensorShapeProto(
        dim=[tensor_shape_pb2.TensorShapeProto.Dim(size=int(d)) for d in dims])


@tf_export("make_tensor_proto")
def make_tensor_proto(values, dtype=None, shape=None, verify_shape=False, allow_broadcast=False):
    """A `TensorProto` holding `values` (a tensor, NumPy array, list or scalar), optionally
    as `dtype` and filled out to `shape` (a single value is broadcast; fewer values are
    padded with the last one when the proto is read back).

    >>> print(tf.make_tensor_proto(1.0, shape=[2]))
    dtype: DT_FLOAT
    tensor_shape {
      dim {
        size: 2
      }
    }
    float_val: 1
    <BLANKLINE>
    """
    tensor_pb2, tensor_shape_pb2 = _pb2()
    array, dtype = _as_array(values, dtype)
    if shape is None:
        shape, same_size = array.shape, True
    else:
        shape = [int(d) for d in shape]
        size = int(np.prod(shape, dtype=np.int64))
        same_size = size == array.size
        if allow_broadcast:
            if array.shape and array.shape != tuple(shape):
                raise TypeError(f"Expected Tensor's shape: {tuple(shape)}, but got "
                                f"{array.shape}.")
        elif verify_shape and array.shape != tuple(shape):
            raise TypeError(f"Expected Tensor's shape: {tuple(shape)}, but got {array.shape}.")
        elif array.size > size:
            raise ValueError(f"Too many elements provided. Takes at most {size:d}, but got "
                             f"{array.size:d}.")
    proto = tensor_pb2.TensorProto(dtype=dtype.as_datatype_enum,
                                   tensor_shape=_shape_proto(tensor_shape_pb2, shape))
    if same_size and dtype.name in _CONTENT and array.size > 1:
        proto.tensor_content = np.ascontiguousarray(array).astype(array.dtype.newbyteorder("<")
                                                                  ).tobytes()
        return proto
    _append(proto, dtype, array.ravel())
    return proto


def _append(proto, dtype, flat):
    field = _FIELDS.get(dtype.name)
    if field is None:
        raise TypeError(f"Element type not supported in TensorProto: {dtype.name}")
    if dtype.name == "float16":
        values = flat.view(np.uint16).tolist()
    elif dtype.is_complex:
        values = np.stack([flat.real, flat.imag], axis=-1).ravel().tolist()
    elif dtype is dtypes.string:
        values = [v if isinstance(v, bytes) else str(v).encode() for v in flat.tolist()]
    else:
        values = flat.tolist()
    getattr(proto, field).extend(values)


@tf_export("make_ndarray")
def make_ndarray(tensor):
    """The NumPy array a `TensorProto` holds (the inverse of tf.make_tensor_proto).

    >>> tf.make_ndarray(tf.make_tensor_proto(7, shape=[3]))
    array([7, 7, 7], dtype=int32)
    """
    shape = [d.size for d in tensor.tensor_shape.dim]
    count = int(np.prod(shape, dtype=np.int64))
    dtype = dtypes.as_dtype(tensor.dtype)
    np_dtype = dtype.as_numpy_dtype
    if tensor.tensor_content:
        array = np.frombuffer(tensor.tensor_content, dtype=np.dtype(np_dtype).newbyteorder("<"))
        return array.astype(np_dtype).reshape(shape)
    if dtype is dtypes.string:
        values = list(tensor.string_val)
        if count > len(values):
            values += [values[-1] if values else b""] * (count - len(values))
        return np.array(values, dtype=object).reshape(shape)
    field = _FIELDS.get(dtype.name)
    if field is None:
        raise TypeError(f"Unsupported tensor type: {dtype.name}")
    raw = list(getattr(tensor, field))
    if dtype.name == "float16":
        values = np.array(raw, np.uint16).view(np.float16)
    elif dtype.is_complex:
        pairs = np.array(raw, dtype=np.float64).reshape(-1, 2)
        values = (pairs[:, 0] + 1j * pairs[:, 1]).astype(np_dtype)
    else:
        values = np.array(raw, dtype=np_dtype)
    if values.size == 0:
        return np.zeros(shape, np_dtype)
    if values.size != count:
        values = np.pad(values, (0, count - values.size), "edge")
    return values.reshape(shape)
