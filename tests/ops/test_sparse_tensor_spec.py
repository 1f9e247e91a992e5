"""tf.SparseTensorSpec, tf.io.serialize_sparse / serialize_many_sparse / deserialize_many_sparse,
and how a SparseTensor prints. test_sparse_real_tf.py compares them with real TF.
"""
import numpy as np
import pytest

import minitf as tf


def A():
    return tf.SparseTensor([[0, 0], [0, 2], [1, 1]], [1.0, -2.0, 3.0], [2, 3])


def test_spec_fields_and_repr():
    spec = tf.SparseTensorSpec([None, 3], tf.float32)
    assert repr(spec) == "SparseTensorSpec(TensorShape([None, 3]), tf.float32)"
    assert spec.shape.as_list() == [None, 3] and spec.dtype == tf.float32
    assert spec.value_type is tf.SparseTensor
    assert repr(tf.SparseTensorSpec()) == "SparseTensorSpec(TensorShape(None), tf.float32)"
    assert spec == tf.SparseTensorSpec([None, 3]) and hash(spec) == hash(
        tf.SparseTensorSpec([None, 3]))
    assert tf.SparseTensorSpec.from_value(A()) == tf.SparseTensorSpec([2, 3], tf.float32)


def test_spec_compatibility():
    spec = tf.SparseTensorSpec([None, 3])
    assert spec.is_compatible_with(A())
    assert not spec.is_compatible_with(tf.SparseTensor([[0]], [1.0], [3]))
    assert spec.is_compatible_with(tf.SparseTensorSpec([2, 3]))
    assert not spec.is_compatible_with(tf.SparseTensorSpec([2, 3], tf.int32))
    assert not spec.is_compatible_with(tf.TensorSpec([2, 3]))
    assert tf.SparseTensorSpec([2, 3]).most_specific_common_supertype(
        [tf.SparseTensorSpec([4, 3])]) == spec


def test_serialize_sparse_is_three_tensor_protos():
    out = tf.io.serialize_sparse(A())
    assert out.shape == [3] and out.dtype == tf.string
    parsed = [tf.io.parse_tensor(out.numpy()[i], t).numpy().tolist()
              for i, t in enumerate([tf.int64, tf.float32, tf.int64])]
    assert parsed == [[[0, 0], [0, 2], [1, 1]], [1.0, -2.0, 3.0], [2, 3]]


def test_serialize_many_sparse_round_trip():
    out = tf.io.serialize_many_sparse(A())
    assert out.shape == [2, 3]
    assert tf.io.parse_tensor(out.numpy()[0, 0], tf.int64).numpy().tolist() == [[0], [2]]
    back = tf.io.deserialize_many_sparse(out, tf.float32)
    for x, y in zip([back.indices, back.values, back.dense_shape],
                    [A().indices, A().values, A().dense_shape]):
        np.testing.assert_array_equal(x.numpy(), y.numpy())


def test_serialize_many_sparse_errors():
    unsorted = tf.SparseTensor([[1, 1], [0, 0]], [1.0, 2.0], [2, 3])
    with pytest.raises(tf.errors.InvalidArgumentError, match="out of order"):
        tf.io.serialize_many_sparse(unsorted)
    with pytest.raises(tf.errors.InvalidArgumentError, match="should be > 1, but saw rank: 1"):
        tf.io.serialize_many_sparse(tf.SparseTensor([[0]], [1.0], [2]))
    with pytest.raises(TypeError, match="tf.string only"):
        tf.io.serialize_sparse(A(), out_type=tf.variant if hasattr(tf, "variant") else tf.int32)


def test_sparse_tensor_prints_like_tf():
    assert repr(A()) == (
        "SparseTensor(indices=tf.Tensor(\n[[0 0]\n [0 2]\n [1 1]], shape=(3, 2), dtype=int64), "
        "values=tf.Tensor([ 1. -2.  3.], shape=(3,), dtype=float32), "
        "dense_shape=tf.Tensor([2 3], shape=(2,), dtype=int64))")
    assert str(A()) == repr(A())
