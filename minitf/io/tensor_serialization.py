"""`tf.io.serialize_tensor` and `tf.io.parse_tensor`: a tensor as `TensorProto` bytes.

The bytes are a serialized `TensorProto` (tensorflow/core/framework/tensor.proto):
the dtype's number, the shape, and the values - numbers as little-endian
`tensor_content` bytes, strings as repeated `string_val` - exactly as
TensorFlow lays it out, so either side reads the other's bytes. The message
class is the `tensorboard` package's copy of TF's proto (see
minitf/summary/protos.py); protobuf does the encoding.

>>> import minitf as tf
>>> data = tf.io.serialize_tensor(tf.constant([1.0, 2.0]))
>>> data
<tf.Tensor: shape=(), dtype=string, numpy=b'\\x08\\x01\\x12\\x04\\x12\\x02\\x08\\x02"\\x08\\x00\\x00\\x80?\\x00\\x00\\x00@'>
>>> tf.io.parse_tensor(data, out_type=tf.float32)
<tf.Tensor: shape=(2,), dtype=float32, numpy=array([1., 2.], dtype=float32)>

A TensorProto may also hold its values in typed fields (`float_val`,
`int_val`, ...; fewer values than elements repeat the last one), as
`tf.make_tensor_proto` writes small constants; `parse_tensor` reads those too.
"""
import base64
import math

import numpy as np

from ..framework import dtypes, errors
from ..framework.op import Op, apply
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export
from ..ops.shape_rules import dims_text
from ..summary.protos import tensor_proto, tensorboard

# The typed value field that holds each dtype when `tensor_content` is empty.
_VALUE_FIELDS = {"float32": "float_val", "float64": "double_val", "int32": "int_val",
                 "int16": "int_val", "int8": "int_val", "uint8": "int_val",
                 "uint16": "int_val", "int64": "int64_val", "uint32": "uint32_val",
                 "uint64": "uint64_val", "bool": "bool_val", "string": "string_val",
                 "float16": "half_val", "complex64": "scomplex_val",
                 "complex128": "dcomplex_val"}


def _tensor_pb2():
    try:
        return tensorboard("compat.proto.tensor_pb2")
    except ImportError:
        raise ImportError("tf.io.serialize_tensor and parse_tensor use the TensorProto class "
                          "of the tensorboard package: pip install 'tensorboard>=2.16' (pip "
                          "install 'minitf[lab]' includes it).") from None


def _serialize(tensor, dtype_name):
    _tensor_pb2()  # a clear install hint before tensor_proto needs it
    out = np.empty((), dtype=object)
    out[()] = tensor_proto(np.asarray(tensor), dtypes.as_dtype(dtype_name)).SerializeToString()
    return out


SerializeTensor = Op("SerializeTensor", _serialize, dtype=dtypes.string,
                     shape=lambda s, **_: TensorShape([]))


@tf_export("io.serialize_tensor")
def serialize_tensor(tensor, name=None):
    """The tensor as a scalar `tf.string` holding its `TensorProto` bytes (TF's layout).

    >>> tf.io.serialize_tensor(tf.constant(3)).numpy()
    b'\\x08\\x03\\x12\\x00"\\x04\\x03\\x00\\x00\\x00'
    """
    tensor = convert_to_tensor(tensor)
    return apply(SerializeTensor, [tensor], {"dtype_name": tensor.dtype.name})


def _cannot_parse(detail=""):
    return errors.InvalidArgumentError(
        None, "ParseTensor", f"Cannot parse tensor from proto: {detail} [Op:ParseTensor] "
        "The bytes must be a TensorProto, as tf.io.serialize_tensor writes.")


def _values(proto, dtype, shape):
    size = math.prod(shape)
    if dtype == dtypes.string:
        values = list(proto.string_val)
    elif proto.tensor_content:
        little = np.dtype(dtype.as_numpy_dtype).newbyteorder("<")
        if len(proto.tensor_content) != size * little.itemsize:
            raise _cannot_parse(f"tensor_content holds {len(proto.tensor_content)} bytes, not "
                                f"the {size * little.itemsize} of shape {dims_text(shape)}")
        return np.frombuffer(proto.tensor_content, little).astype(dtype.as_numpy_dtype)
    else:
        values = list(getattr(proto, _VALUE_FIELDS[dtype.name]))
        if dtype == dtypes.float16:  # half_val holds the 16-bit patterns as ints
            values = list(np.array(values, np.uint16).view(np.float16))
        if dtype.is_complex:  # real, imaginary, real, imaginary, ...
            values = [complex(a, b) for a, b in zip(values[::2], values[1::2])]
    if len(values) > size or (size and not values and dtype != dtypes.string):
        raise _cannot_parse(f"{len(values)} values for shape {dims_text(shape)}")
    if dtype == dtypes.string and len(values) != size:
        raise _cannot_parse(f"{len(values)} strings for shape {dims_text(shape)}")
    values = values + values[-1:] * (size - len(values))  # TF repeats the last value
    out = np.empty((size,), dtype=object if dtype == dtypes.string else dtype.as_numpy_dtype)
    out[:] = values
    return out


def _parse(serialized, out_type):
    if serialized.ndim != 0:
        raise errors.InvalidArgumentError(
            None, "ParseTensor", "Expected `serialized` to be a scalar, got shape: "
            f"{dims_text(serialized.shape)} [Op:ParseTensor] Parse one tensor at a time "
            "(tf.map_fn or Dataset.map for many).")
    data = serialized[()]
    proto = _tensor_pb2().TensorProto()
    try:
        proto.ParseFromString(data)
    except Exception:  # protobuf's DecodeError
        raise errors.InvalidArgumentError(
            None, "ParseTensor", "Could not parse `serialized` as TensorProto, base64: "
            f"{base64.b64encode(data).decode()} [Op:ParseTensor] The bytes must be a "
            "TensorProto, as tf.io.serialize_tensor writes.") from None
    if proto.dtype == 0 or any(d.size < 0 for d in proto.tensor_shape.dim):
        raise _cannot_parse()
    dtype = dtypes.as_dtype(proto.dtype)
    want = dtypes.as_dtype(out_type)
    if dtype != want:
        raise errors.InvalidArgumentError(
            None, "ParseTensor", f"Type mismatch between parsed tensor ({dtype.name}) and "
            f"dtype ({dtypes.tf_type_name(want)}) [Op:ParseTensor] Pass out_type={dtype!r}, "
            "the dtype the tensor was serialized with.")
    shape = tuple(d.size for d in proto.tensor_shape.dim)
    return _values(proto, dtype, shape).reshape(shape)


ParseTensor = Op("ParseTensor", _parse, dtypes={dtypes.string},
                 shape=lambda s, **_: TensorShape(None),
                 dtype=lambda s, out_type: dtypes.as_dtype(out_type))


@tf_export("io.parse_tensor")
def parse_tensor(serialized, out_type, name=None):
    """The tensor that `tf.io.serialize_tensor` turned into bytes; `out_type` is its dtype.

    >>> tf.io.parse_tensor(tf.io.serialize_tensor(tf.constant([b"a", b"bc"])), tf.string)
    <tf.Tensor: shape=(2,), dtype=string, numpy=array([b'a', b'bc'], dtype=object)>
    """
    serialized = convert_to_tensor(serialized, dtype=dtypes.string)
    return apply(ParseTensor, [serialized], {"out_type": dtypes.as_dtype(out_type).name})
