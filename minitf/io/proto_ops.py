"""`tf.io.decode_proto` and `tf.io.encode_proto`: fields of protocol buffers as tensors.

`decode_proto` reads the named fields of each serialized message into tensors:
`sizes[..., i]` is how many values field i holds, and `values[i]` holds them,
padded with the field's default to the longest. `encode_proto` goes back.

>>> import minitf as tf
>>> data = [tf.train.Int64List(value=[1, 2, 3]).SerializeToString(),
...         tf.train.Int64List(value=[4]).SerializeToString()]
>>> sizes, (values,) = tf.io.decode_proto(data, "tensorflow.Int64List", ["value"], [tf.int64])
>>> sizes.numpy().tolist(), values.numpy().tolist()
([[3], [1]], [[1, 2, 3], [4, 0, 0]])
>>> tf.io.encode_proto(sizes, [values], ["value"], "tensorflow.Int64List").numpy()[1]
b'\\n\\x01\\x04'

Messages are found by full name in a descriptor source: "local://" (the default)
is what minitf itself declares - `tf.train.Example` and its feature messages; a
file path (or "bytes://" + the bytes) is a serialized `FileDescriptorSet`, as
`protoc --descriptor_set_out --include_imports` writes it. Decoding and encoding
are Google's protobuf library's; reading a descriptor set runs no code.
"""
import collections
import os

import numpy as np

from ..framework import dtypes, errors
from ..framework.op import Op, apply
from ..framework.tensor import convert_to_tensor
from ..framework.tf_export import tf_export

_MAX_DESCRIPTOR_BYTES = 64 << 20
_DecodeResult = collections.namedtuple("DecodeProtoV2", ["sizes", "values"])


def _protobuf(module):
    from ..train.example import _protobuf as load

    return load(module)


def _message_class(message_type, descriptor_source, op):
    """The message class named `message_type` in the descriptor source."""
    from ..train.example import message_classes

    if descriptor_source == "local://":
        pool = message_classes()["Example"].DESCRIPTOR.file.pool
    else:
        if descriptor_source.startswith("bytes://"):
            data = descriptor_source[len("bytes://"):].encode("latin-1")
        else:
            try:
                if os.path.getsize(descriptor_source) > _MAX_DESCRIPTOR_BYTES:
                    raise errors.op_error(errors.InvalidArgumentError, op,
                                          f"{descriptor_source} is too big for a descriptor set")
                with open(descriptor_source, "rb") as f:
                    data = f.read()
            except FileNotFoundError:
                raise errors.op_error(errors.NotFoundError, op,
                                      f"{descriptor_source}; No such file or directory") from None
        descriptor_pb2 = _protobuf("descriptor_pb2")
        pool = _protobuf("descriptor_pool").DescriptorPool()
        for file_proto in descriptor_pb2.FileDescriptorSet.FromString(data).file:
            pool.Add(file_proto)
    try:
        descriptor = pool.FindMessageTypeByName(message_type)
    except KeyError:
        raise errors.op_error(
            errors.InvalidArgumentError, op, f"No descriptor found for message type "
            f"{message_type}", "minitf's local:// descriptors are tf.train.Example's messages; "
            "give other messages as a FileDescriptorSet file in descriptor_source.") from None
    return _protobuf("message_factory").GetMessageClass(descriptor)


# field type -> (its natural TF dtype, the dtypes TF 2.21 also accepts for it)
def _allowed(field):
    fd = field.__class__
    t = field.type
    if t in (fd.TYPE_STRING, fd.TYPE_BYTES, fd.TYPE_MESSAGE, fd.TYPE_GROUP):
        return "string", {"string"}
    if t in (fd.TYPE_INT64, fd.TYPE_SINT64, fd.TYPE_SFIXED64):
        return "int64", {"int64"}
    if t in (fd.TYPE_INT32, fd.TYPE_SINT32, fd.TYPE_SFIXED32, fd.TYPE_ENUM):
        return "int32", {"int32", "int64"}
    if t in (fd.TYPE_UINT32, fd.TYPE_FIXED32):
        return "uint32", {"uint32", "int64"}
    if t in (fd.TYPE_UINT64, fd.TYPE_FIXED64):
        return "uint64", {"uint64"}
    if t == fd.TYPE_FLOAT:
        return "float", {"float32", "float64"}
    if t == fd.TYPE_DOUBLE:
        return "double", {"float64"}
    return "bool", {"bool"}


def _fields(cls, message_type, field_names, output_types, op):
    fields = []
    for name, out in zip(field_names, output_types):
        field = cls.DESCRIPTOR.fields_by_name.get(name)
        if field is None:
            raise errors.op_error(errors.InvalidArgumentError, op,
                                  f"Unknown field: {name} in message type {message_type}")
        natural, allowed = _allowed(field)
        if out is not None and out.name not in allowed:
            raise errors.op_error(
                errors.InvalidArgumentError, op, f"Unexpected output type for "
                f"{message_type}.{name}: {natural} to DT_{dtypes.tf_type_name(out).upper()}",
                f"Read this field as tf.{sorted(allowed)[0]}.")
        fields.append(field)
    return fields


def _repeated(field):
    """Whether a field is repeated (protobuf 6 names it `is_repeated`; older, `label`)."""
    flag = getattr(field, "is_repeated", None)
    return flag if flag is not None else field.label == field.LABEL_REPEATED


def _items(message, field):
    value = getattr(message, field.name)
    if _repeated(field):
        items = list(value)
    else:
        try:
            present = message.HasField(field.name)
        except ValueError:  # a proto3 scalar: on the wire only when it is not the default
            present = value != field.default_value
        items = [value] if present else []
    if field.type == field.TYPE_MESSAGE:
        items = [m.SerializeToString() for m in items]
    elif field.type == field.TYPE_STRING:
        items = [s.encode() for s in items]
    return items


def _decode(data, message_type, field_names, output_types, descriptor_source, message_format):
    op = "DecodeProtoV2"
    cls = _message_class(message_type, descriptor_source, op)
    fields = _fields(cls, message_type, field_names, output_types, op)
    if data.size == 0:
        raise errors.op_error(errors.InvalidArgumentError, op,
                              "Bufs argument must contain at least one value",
                              "Give at least one serialized message.")
    messages = []
    for item in data.reshape(-1).tolist():
        message = cls()
        try:
            if message_format == "text":
                _protobuf("text_format").Parse(item.decode("utf-8"), message)
            else:
                message.ParseFromString(item)
        except Exception:  # protobuf's DecodeError / ParseError
            raise errors.op_error(errors.DataLossError, op, "Unable to parse text protobuf"
                                  if message_format == "text" else
                                  f"Unable to parse binary protobuf of type {message_type}",
                                  "The bytes are not a message of this type.") from None
        messages.append(message)
    sizes = np.zeros([len(messages), len(fields)], np.int32)
    outputs = []
    for j, (field, out) in enumerate(zip(fields, output_types)):
        rows = [_items(m, field) for m in messages]
        width = max([1] + [len(r) for r in rows])  # at least 1, as in TF
        numpy = np.dtype(object) if out == dtypes.string else np.dtype(out.as_numpy_dtype)
        default = field.default_value
        if _repeated(field) or field.type == field.TYPE_MESSAGE:  # no default of its own
            default = b"" if out == dtypes.string else 0
        default = default.encode() if isinstance(default, str) else default
        values = np.empty([len(rows), width], numpy)
        values[...] = default
        for i, row in enumerate(rows):
            sizes[i, j] = len(row)
            if row:
                values[i, :len(row)] = row
        outputs.append(values.reshape(data.shape + (width,)))
    return (sizes.reshape(data.shape + (len(fields),)), *outputs)


DecodeProto = Op(
    "DecodeProtoV2", _decode, dtypes={dtypes.string}, num_outputs=None,
    shape=lambda s, field_names, **_: (s.concatenate([len(field_names)]),) + tuple(
        s.concatenate([None]) for _ in field_names),
    dtype=lambda d, output_types, **_: (dtypes.int32,) + tuple(output_types))


@tf_export("io.decode_proto")
def decode_proto(bytes, message_type, field_names, output_types,  # noqa: A002
                 descriptor_source="local://", message_format="binary", sanitize=False,
                 name=None):
    """`(sizes, values)`: how many values each field holds, and the values (padded).

    `message_format`: "binary" (serialized bytes) or "text" (protobuf's text format).
    """
    field_names = tuple(field_names)
    output_types = tuple(dtypes.as_dtype(t) for t in output_types)
    if len(field_names) != len(output_types):
        raise ValueError(f"field_names and output_types must have the same length, got "
                         f"{len(field_names)} and {len(output_types)}.")
    outputs = apply(DecodeProto, [convert_to_tensor(bytes, dtype=dtypes.string)], {
        "message_type": message_type, "field_names": field_names,
        "output_types": output_types, "descriptor_source": descriptor_source,
        "message_format": message_format})
    return _DecodeResult(outputs[0], list(outputs[1:]))


def _encode(sizes, *values, field_names, message_type, descriptor_source):
    op = "EncodeProto"
    cls = _message_class(message_type, descriptor_source, op)
    fields = _fields(cls, message_type, field_names, [None] * len(field_names), op)
    batch = sizes.shape[:-1]
    flat_sizes = sizes.reshape(-1, len(fields))
    flat_values = [v.reshape((flat_sizes.shape[0], -1)) for v in values]
    out = []
    for i in range(flat_sizes.shape[0]):
        message = cls()
        for j, field in enumerate(fields):
            count = int(flat_sizes[i, j])
            if count > flat_values[j].shape[1] or count < 0:
                raise errors.op_error(
                    errors.InvalidArgumentError, op, f"Size {count} of field {field.name} "
                    f"is more than its {flat_values[j].shape[1]} values",
                    "sizes[..., i] counts the values of field i that are used.")
            items = flat_values[j][i, :count].tolist()
            _set(message, field, items)
        out.append(message.SerializeToString())
    result = np.empty(batch, dtype=object)
    result.reshape(-1)[:] = out
    return result


def _set(message, field, items):
    if field.type == field.TYPE_MESSAGE:
        items = [field.message_type._concrete_class.FromString(b) for b in items]
    elif field.type == field.TYPE_STRING:
        items = [b.decode("utf-8") for b in items]
    if _repeated(field):
        getattr(message, field.name).extend(items)
    elif items:
        if field.type == field.TYPE_MESSAGE:
            getattr(message, field.name).CopyFrom(items[0])
        else:
            setattr(message, field.name, items[0])


EncodeProto = Op("EncodeProto", _encode, typed=(), shape=lambda s, *v, **_: s[:-1],
                 dtype=dtypes.string)


@tf_export("io.encode_proto")
def encode_proto(sizes, values, field_names, message_type, descriptor_source="local://",
                 name=None):
    """Serialized messages: field i of message `b` gets `values[i][b, :sizes[b, i]]`."""
    return apply(EncodeProto, [convert_to_tensor(sizes, dtype=dtypes.int32)]
                 + [convert_to_tensor(v) for v in values],
                 {"field_names": tuple(field_names), "message_type": message_type,
                  "descriptor_source": descriptor_source})

