"""tf.io.decode_proto / encode_proto with minitf's own (local://) descriptors and with a
FileDescriptorSet file: sizes, padded values, defaults, dtype rules, errors, graph mode.
(test_io_more_real_tf.py compares the same calls with real TF.)"""
import pytest
from google.protobuf import descriptor_pb2

import minitf as tf

I64 = [tf.train.Int64List(value=v).SerializeToString() for v in ([1, 2, 3], [4], [])]


def test_decode_proto_pads_repeated_fields_and_counts_them():
    sizes, values = tf.io.decode_proto(I64, "tensorflow.Int64List", ["value"], [tf.int64])
    assert sizes.dtype == tf.int32 and sizes.numpy().tolist() == [[3], [1], [0]]
    assert values[0].numpy().tolist() == [[1, 2, 3], [4, 0, 0], [0, 0, 0]]
    one = tf.io.decode_proto(I64[0], "tensorflow.Int64List", ["value"], [tf.int64])
    assert one.sizes.shape == (1,) and one.values[0].shape == (3,)
    empty = tf.io.decode_proto([I64[2]], "tensorflow.Int64List", ["value"], [tf.int64])
    assert empty.values[0].shape == (1, 1)  # at least one column, as in TF
    text = tf.io.decode_proto(["value: 5 value: 6"], "tensorflow.Int64List", ["value"],
                              [tf.int64], message_format="text")
    assert text.values[0].numpy().tolist() == [[5, 6]]
    back = tf.io.encode_proto(sizes, values, ["value"], "tensorflow.Int64List")
    assert back.numpy().tolist() == I64

    @tf.function
    def first(serialized):
        return tf.io.decode_proto(serialized, "tensorflow.Int64List", ["value"],
                                  [tf.int64]).values[0][:, 0]

    assert first(tf.constant(I64)).numpy().tolist() == [1, 4, 0]


def test_decode_proto_errors():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Unexpected output type for tensorflow.Int64List.value: int64 to "
                             "DT_INT32"):
        tf.io.decode_proto(I64, "tensorflow.Int64List", ["value"], [tf.int32])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Unknown field: nope in message type tensorflow.Int64List"):
        tf.io.decode_proto(I64, "tensorflow.Int64List", ["nope"], [tf.int64])
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="No descriptor found for message type demo.Nope"):
        tf.io.decode_proto(I64, "demo.Nope", ["value"], [tf.int64])
    with pytest.raises(tf.errors.DataLossError, match="Unable to parse text protobuf"):
        tf.io.decode_proto(["1\n2"], "tensorflow.Int64List", ["value"], [tf.int64],
                           message_format="text")
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Bufs argument must contain at least one value"):
        tf.io.decode_proto(tf.zeros([0], tf.string), "tensorflow.Int64List", ["value"],
                           [tf.int64])
    with pytest.raises(tf.errors.NotFoundError, match="nope.desc; No such file"):
        tf.io.decode_proto(I64, "demo.Point", ["x"], [tf.int32], descriptor_source="nope.desc")


def test_proto3_messages_from_a_descriptor_file(tmp_path):
    fds = descriptor_pb2.FileDescriptorSet()
    f = fds.file.add(name="demo.proto", package="demo", syntax="proto3")
    point = f.message_type.add(name="Point")
    T = descriptor_pb2.FieldDescriptorProto
    point.field.add(name="x", number=1, type=T.TYPE_INT32, label=T.LABEL_OPTIONAL)
    point.field.add(name="tags", number=2, type=T.TYPE_STRING, label=T.LABEL_REPEATED)
    path = tmp_path / "demo.desc"
    path.write_bytes(fds.SerializeToString())
    encoded = tf.io.encode_proto(tf.constant([[1, 2], [0, 0]]),
                                 [tf.constant([[7], [0]]), tf.constant([["a", "b"], ["", ""]])],
                                 ["x", "tags"], "demo.Point", descriptor_source=str(path))
    assert encoded.numpy().tolist() == [b"\x08\x07\x12\x01a\x12\x01b", b""]
    sizes, (x, tags) = tf.io.decode_proto(encoded, "demo.Point", ["x", "tags"],
                                          [tf.int64, tf.string], descriptor_source=str(path))
    assert sizes.numpy().tolist() == [[1, 2], [0, 0]]  # a proto3 0 is not on the wire
    assert x.dtype == tf.int64 and x.numpy().tolist() == [[7], [0]]
    assert tags.numpy().tolist() == [[b"a", b"b"], [b"", b""]]
    inline = "bytes://" + fds.SerializeToString().decode("latin-1")
    assert tf.io.decode_proto(encoded, "demo.Point", ["x"], [tf.int32],
                              descriptor_source=inline).values[0].numpy().tolist() == [[7], [0]]
    with pytest.raises(tf.errors.InvalidArgumentError, match="Size 3 of field tags"):
        tf.io.encode_proto(tf.constant([[3]]), [tf.constant([["a", "b"]])], ["tags"],
                           "demo.Point", descriptor_source=str(path))
