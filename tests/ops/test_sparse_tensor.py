"""tf.SparseTensor and tf.sparse.to_dense: printing, dtypes, errors (as TF 2.21), gradient."""
import numpy as np
import pytest

import minitf as tf
from gradcheck import check_grads


def test_prints_as_tf():
    st = tf.SparseTensor(indices=[[0, 1], [2, 0]], values=[1.5, 2.0], dense_shape=[3, 2])
    assert repr(st) == (
        "SparseTensor(indices=tf.Tensor(\n[[0 1]\n [2 0]], shape=(2, 2), dtype=int64), "
        "values=tf.Tensor([1.5 2. ], shape=(2,), dtype=float32), "
        "dense_shape=tf.Tensor([3 2], shape=(2,), dtype=int64))")
    assert st.shape == tf.TensorShape([3, 2]) and st.dtype == tf.float32
    assert st.indices.dtype == tf.int64 and st.dense_shape.dtype == tf.int64
    assert not isinstance(st, tf.Tensor)


def test_to_dense_defaults_and_dtypes():
    st = tf.SparseTensor([[0, 1], [2, 0]], [1.5, 2.0], [3, 2])
    assert tf.sparse.to_dense(st).numpy().tolist() == [[0, 1.5], [0, 0], [2, 0]]
    assert tf.sparse.to_dense(st, default_value=-1.0).numpy().tolist() == [
        [-1, 1.5], [-1, -1], [2, -1]]
    ints = tf.sparse.to_dense(tf.SparseTensor([[1]], [7], [3]))
    assert ints.dtype == tf.int32 and ints.numpy().tolist() == [0, 7, 0]
    strings = tf.sparse.to_dense(tf.SparseTensor([[1]], ["a"], [3]))
    assert strings.numpy().tolist() == [b"", b"a", b""]


@pytest.mark.parametrize("indices, message", [
    ([[2, 0], [0, 1]], "indices[1] = [0,1] is out of order. Many sparse ops require sorted "
                       "indices.\n    Use `tf.sparse.reorder` to create a correctly ordered copy."),
    ([[0, 1], [0, 1]], "indices[1] = [0,1] is repeated"),
    ([[0, 1], [5, 1]], "indices[1] = [5,1] is out of bounds: need 0 <= index < [3,2]"),
])
def test_bad_indices(indices, message):
    with pytest.raises(tf.errors.InvalidArgumentError) as info:
        tf.sparse.to_dense(tf.SparseTensor(indices, [1.0, 2.0], [3, 2]))
    assert str(info.value).startswith(message) and "[Op:SparseToDense]" in str(info.value)


def test_unordered_allowed_without_validation():
    st = tf.SparseTensor([[2, 0], [0, 1]], [1.0, 2.0], [3, 2])
    assert tf.sparse.to_dense(st, validate_indices=False).numpy().tolist() == [
        [0, 2], [0, 0], [1, 0]]


def test_construction_errors():
    with pytest.raises(ValueError, match=r"Shape \(1, 1\) must have rank 1"):
        tf.SparseTensor([[0, 1]], [[1.0]], [3, 2])
    with pytest.raises(ValueError, match=r"Shape \(2,\) must have rank 2"):
        tf.SparseTensor([0, 1], [1.0], [3, 2])
    with pytest.raises(ValueError, match="Dimensions 1 and 2 are not compatible"):
        tf.SparseTensor([[0, 1]], [1.0, 2.0], [3, 2])
    with pytest.raises(TypeError, match="Input must be a SparseTensor."):
        tf.sparse.to_dense(tf.constant([1.0]))


def test_gradient_flows_to_values():
    indices = [[0, 1], [2, 0]]
    check_grads(lambda v: tf.sparse.to_dense(tf.SparseTensor(indices, v, [3, 2])) ** 2,
                np.array([1.5, -2.0]))


def test_inside_tf_function_with_unknown_shape():
    @tf.function
    def dense(values, shape):
        return tf.sparse.to_dense(tf.SparseTensor([[0], [2]], values, shape))

    out = dense(tf.constant([1.0, 2.0]), tf.constant([4], tf.int64))
    assert out.numpy().tolist() == [1, 0, 2, 0]


def test_a_sparse_tensor_where_a_tensor_is_needed_is_tf_s_value_error():
    # crossing tf.function and Dataset.map: tests/ops/test_sparse_function_data.py
    with pytest.raises(ValueError, match="Use tf.sparse.to_dense"):
        tf.convert_to_tensor(tf.SparseTensor([[0]], [1.0], [2]))
