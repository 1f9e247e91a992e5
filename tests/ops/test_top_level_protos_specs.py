"""tf.make_tensor_proto / tf.make_ndarray (TensorBoard's TensorProto: the printed text and
the serialized bytes equal real TF's), tf.TypeSpec / tf.type_spec_from_value, tf.realdiv;
CASES run against real TF in test_top_level_real_tf.py.
"""
import numpy as np
import pytest

import minitf as tf


def test_tensor_proto_round_trips():
    for value in ([[1.0, 2.0]], ["a", "bc"], 3, [True, False], [1 + 2j, 3j],
                  np.arange(6, dtype=np.uint64).reshape(2, 3)):
        proto = tf.make_tensor_proto(value)
        back = tf.make_ndarray(proto)
        expected = tf.constant(value).numpy()
        assert back.dtype == expected.dtype and np.array_equal(back, expected)
    proto = tf.make_tensor_proto(tf.constant([[1, 2], [3, 4]]))
    assert proto.tensor_content == np.array([1, 2, 3, 4], "<i4").tobytes()
    assert tf.make_ndarray(tf.make_tensor_proto([1, 2], shape=[4])).tolist() == [1, 2, 2, 2]
    assert tf.make_ndarray(tf.make_tensor_proto(1.5, shape=[2, 2])).tolist() == [[1.5, 1.5]] * 2
    with pytest.raises(ValueError, match="Too many elements provided"):
        tf.make_tensor_proto([1, 2, 3], shape=[2])
    with pytest.raises(TypeError, match="Expected Tensor's shape"):
        tf.make_tensor_proto([1, 2], shape=[2, 1], verify_shape=True)


def test_type_specs():
    assert tf.type_spec_from_value(np.ones((2, 3))) == tf.TensorSpec([2, 3], tf.float64)
    ragged = tf.type_spec_from_value(tf.ragged.constant([[1], [2, 3]]))
    assert isinstance(ragged, tf.RaggedTensorSpec) and isinstance(ragged, tf.TypeSpec)
    sparse = tf.type_spec_from_value(tf.SparseTensor([[0]], [1.0], [3]))
    assert isinstance(sparse, tf.SparseTensorSpec) and isinstance(sparse, tf.TypeSpec)
    assert isinstance(tf.type_spec_from_value(tf.data.Dataset.range(3)), tf.data.DatasetSpec)
    with pytest.raises(TypeError, match="Could not build a TypeSpec"):
        tf.type_spec_from_value({"a": 1})


def test_value_specs():
    spec = tf.IndexedSlicesSpec([3, 2], tf.float32)
    assert repr(spec) == ("IndexedSlicesSpec(TensorShape([3, 2]), tf.float32, tf.int64, None, "
                          "TensorShape([None]))")
    assert spec.is_compatible_with(tf.IndexedSlicesSpec([None, 2], tf.float32))
    assert not spec.is_compatible_with(tf.IndexedSlicesSpec([None, 2], tf.int32))
    assert tf.type_spec_from_value(None) == tf.NoneTensorSpec()
    array_spec = tf.type_spec_from_value(tf.TensorArray(tf.float32, size=2))
    assert array_spec == tf.TensorArraySpec() and isinstance(array_spec, tf.TypeSpec)
    assert tf.TensorArraySpec([2], tf.int32).is_compatible_with(
        tf.TensorArraySpec([None], tf.int32))
    optional = tf.type_spec_from_value(tf.data.experimental.Optional.from_value(3))
    assert optional == tf.OptionalSpec(tf.TensorSpec([], tf.int32))
    assert optional.element_spec == tf.TensorSpec([], tf.int32)


def test_realdiv():
    assert tf.realdiv([7.0, -7.0], [2.0, 2.0]).numpy().tolist() == [3.5, -3.5]
    with pytest.raises(tf.errors.InvalidArgumentError):
        tf.realdiv(tf.constant([1.0]), tf.constant([1.0], tf.float64))
    with pytest.raises(tf.errors.NotFoundError, match="RealDiv"):
        tf.realdiv([7, 1], [2, 2])


CASES = [
    "proto([[1., 2.]])", "proto(['a', 'bc'])", "proto(3)", "proto(1., shape=[2, 2])",
    "proto([True, False])", "proto([1, 2], dtype=tf.float16)",
    "proto(tf.constant([[1, 2], [3, 4]]))",
    "proto(np.array([1, 2], np.int64))", "proto([1 + 2j, 3j])", "proto([1, 2], shape=[3])",
    "proto([1, 2, 3], shape=[2])", "proto([1, 2], shape=[2, 1], verify_shape=True)",
    "proto(np.array([1.5], np.float16))", "proto(np.arange(3, dtype=np.uint64))",
    "proto([[1.]], shape=[1, 3], allow_broadcast=True)", "proto(5, dtype=tf.int64)",
    "proto(np.array([[b'x', b'yz']], dtype=object))", "proto([], dtype=tf.float32)",
    "spec(tf.constant([1, 2]))", "spec([1, 2])", "spec(1)", "spec('a')", "spec(np.ones((2, 3)))",
    "spec(tf.ragged.constant([[1], [2, 3]]))", "spec(tf.SparseTensor([[0]], [1.], [3]))",
    "spec(tf.data.Dataset.range(3))", "spec(object())", "spec({'a': 1})",
    "[isinstance(tf.TensorSpec([1]), tf.TypeSpec), issubclass(tf.RaggedTensorSpec, tf.TypeSpec)]",
    "repr(tf.IndexedSlicesSpec([3, 2], tf.float32))",
    "spec(tf.IndexedSlices(tf.constant([[1., 2.]]), tf.constant([0]), tf.constant([3, 2])))",
    "[repr(tf.NoneTensorSpec()), tf.NoneTensorSpec() == tf.NoneTensorSpec()]",
    "[repr(tf.TensorArraySpec([2], tf.int32)), repr(tf.TensorArraySpec())]",
    "spec(tf.TensorArray(tf.float32, size=2))", "spec(None)",
    "repr(tf.OptionalSpec(tf.TensorSpec([], tf.int32)))",
    "spec(tf.data.experimental.Optional.from_value(3))",
    "[tf.TensorArraySpec([2], tf.int32).is_compatible_with(tf.TensorArraySpec([None], tf.int32)),"
    " tf.IndexedSlicesSpec([3, 2]).is_compatible_with(tf.IndexedSlicesSpec([None, 2], tf.int32))]",
    "tf.realdiv([7., -7.], [2., 2.])", "tf.realdiv([7, 1], [2, 2])",
]
SETUP = """
def proto(values, **kwargs):
    p = tf.make_tensor_proto(values, **kwargs)
    return [str(p), p.SerializeToString().hex(), repr(tf.make_ndarray(p))]
def spec(value):
    s = tf.type_spec_from_value(value)
    return [type(s).__name__, repr(s)]
"""
