"""tf.io.serialize_tensor / parse_tensor: the TensorProto bytes real TF 2.21 writes."""
import os

import numpy as np
import pytest

import minitf as tf
from minitf.summary.protos import tensorboard

FIXTURES = os.path.join(os.path.dirname(__file__), "..", "fixtures", "tfrecord")
TENSORS = {"tensor_float.pb": tf.constant([[1.5, -2.0, 3.25]]),
           "tensor_int64.pb": tf.constant(7, tf.int64),
           "tensor_string.pb": tf.constant([b"a", b"bc", b"\xff"])}


@pytest.mark.parametrize("filename", sorted(TENSORS))
def test_same_bytes_as_real_tf_and_back(filename):
    data = open(os.path.join(FIXTURES, filename), "rb").read()
    tensor = TENSORS[filename]
    assert tf.io.serialize_tensor(tensor).numpy() == data
    parsed = tf.io.parse_tensor(data, tensor.dtype)
    assert parsed.dtype == tensor.dtype and parsed.shape == tensor.shape
    assert parsed.numpy().tolist() == tensor.numpy().tolist()


# bytes printed by real TF 2.21 for these tensors
@pytest.mark.parametrize("value, dtype, expected", [
    ([True, False], tf.bool, b'\x08\n\x12\x04\x12\x02\x08\x02"\x02\x01\x00'),
    ([1.0], tf.float16, b'\x08\x13\x12\x04\x12\x02\x08\x01"\x02\x00<'),
    ([1 + 2j], tf.complex64, b'\x08\x08\x12\x04\x12\x02\x08\x01"\x08\x00\x00\x80?\x00\x00\x00@'),
    ([], tf.float32, b"\x08\x01\x12\x02\x12\x00"),
    ([], tf.string, b"\x08\x07\x12\x02\x12\x00"),
    ("hi", tf.string, b"\x08\x07\x12\x00B\x02hi"),
    (3, tf.int32, b'\x08\x03\x12\x00"\x04\x03\x00\x00\x00'),
])
def test_layouts_as_tf(value, dtype, expected):
    tensor = tf.constant(value, dtype)
    assert tf.io.serialize_tensor(tensor).numpy() == expected
    back = tf.io.parse_tensor(expected, dtype)
    assert back.shape == tensor.shape
    assert np.array_equal(back.numpy(), tensor.numpy())


def proto(dtype, dims, **fields):
    tensor_pb2 = tensorboard("compat.proto.tensor_pb2")
    shape_pb2 = tensorboard("compat.proto.tensor_shape_pb2")
    return tensor_pb2.TensorProto(
        dtype=dtype.as_datatype_enum, tensor_shape=shape_pb2.TensorShapeProto(
            dim=[shape_pb2.TensorShapeProto.Dim(size=d) for d in dims]),
        **fields).SerializeToString()


def test_typed_value_fields_repeat_the_last_value():
    # TF 2.21: float_val=[2.5] for shape [3] -> [2.5 2.5 2.5]; int_val=[1, 2] -> [1 2 2]
    assert tf.io.parse_tensor(proto(tf.float32, [3], float_val=[2.5]), tf.float32).numpy(
    ).tolist() == [2.5, 2.5, 2.5]
    assert tf.io.parse_tensor(proto(tf.int32, [3], int_val=[1, 2]), tf.int32).numpy(
    ).tolist() == [1, 2, 2]
    half = np.array([1.5], np.float16).view(np.uint16).tolist()
    assert tf.io.parse_tensor(proto(tf.float16, [2], half_val=half), tf.float16).numpy(
    ).tolist() == [1.5, 1.5]


def test_errors_as_tf():
    data = tf.io.serialize_tensor(tf.constant([1, 2]))
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"^Type mismatch between parsed "
                       r"tensor \(int32\) and dtype \(float\) \[Op:ParseTensor\]"):
        tf.io.parse_tensor(data, tf.float32)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="^Could not parse `serialized` as TensorProto, base64: //8="):
        tf.io.parse_tensor(b"\xff\xff", tf.float32)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"^Expected `serialized` to be a scalar, got shape: \[1\]"):
        tf.io.parse_tensor([b"a"], tf.float32)
    for bad in (b"", proto(tf.float32, [3], tensor_content=b"\x00" * 8),
                proto(tf.float32, [-1])):
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match="^Cannot parse tensor from proto"):
            tf.io.parse_tensor(bad, tf.float32)


def test_round_trip_inside_tf_function_and_map():
    @tf.function
    def round_trip(x):
        return tf.io.parse_tensor(tf.io.serialize_tensor(x), tf.float32)

    assert round_trip(tf.constant([1.0, 2.0])).numpy().tolist() == [1.0, 2.0]
    concrete = round_trip.get_concrete_function(tf.TensorSpec([2], tf.float32))
    assert concrete.structured_outputs.shape.rank is None  # as in TF: shape unknown

    def parse(data):
        return tf.io.parse_tensor(data, tf.int64)

    ds = tf.data.Dataset.from_tensor_slices(
        [tf.io.serialize_tensor(tf.constant([i, i], tf.int64)) for i in range(3)]).map(parse)
    assert [x.tolist() for x in ds.as_numpy_iterator()] == [[0, 0], [1, 1], [2, 2]]
