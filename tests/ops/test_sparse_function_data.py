"""SparseTensors across tf.function and tf.data: arguments, signatures, results, retracing,
gradients, Dataset sources/map/batch/from_generator, parse_example through map. One batched
real-TF comparison at the end."""
import numpy as np
import pytest

import minitf as tf
from gradcheck import check_grads
from real_tf import run_tf_json


def st23():
    return tf.SparseTensor([[0, 0], [1, 2]], [1.0, 2.0], [2, 3])


# --- tf.function ---------------------------------------------------------------------------
def test_a_sparse_argument_is_traced_once_per_spec():
    @tf.function
    def same(x):
        return x

    out = same(st23())
    assert isinstance(out, tf.SparseTensor)
    assert out.indices.numpy().tolist() == [[0, 0], [1, 2]]
    assert out.values.numpy().tolist() == [1.0, 2.0] and out.dense_shape.numpy().tolist() == [2, 3]
    same(tf.SparseTensor([[0, 1]], [5.0], [2, 3]))  # other entries, same dense shape
    assert same.experimental_get_tracing_count() == 1
    same(tf.SparseTensor([[0, 1]], [5.0], [4, 3]))
    assert same.experimental_get_tracing_count() == 2
    cf = same.get_concrete_function(tf.SparseTensorSpec([None, 3], tf.float32))
    same(tf.SparseTensor([[0, 1]], [5.0], [7, 3]))
    assert same.experimental_get_tracing_count() == 3  # [None, 3] serves [7, 3]
    assert cf(st23()).values.numpy().tolist() == [1.0, 2.0]


def test_signatures_and_outputs_print_with_tf_s_spec_reprs():
    @tf.function
    def same(x):
        return x

    cf = same.get_concrete_function(st23())
    assert repr(cf.structured_input_signature) == \
        "((SparseTensorSpec(TensorShape([2, 3]), tf.float32),), {})"
    out = cf.structured_outputs
    assert isinstance(out, tf.SparseTensor)
    assert str(out).startswith("SparseTensor(indices=Tensor(")
    assert "shape=(2,), dtype=int64))" in str(out)
    assert same.pretty_printed_concrete_signatures() == (
        "Input Parameters:\n  x (POSITIONAL_OR_KEYWORD): SparseTensorSpec(TensorShape([2, 3]), "
        "tf.float32)\nOutput Type:\n  SparseTensorSpec(TensorShape([2, 3]), tf.float32)\n"
        "Captures:\n  None")


def test_input_signature_with_a_sparse_spec():
    @tf.function(input_signature=[tf.SparseTensorSpec([None, 3], tf.float32)])
    def dense(x):
        print("static shape", x.shape)
        return tf.sparse.to_dense(x)

    assert dense(st23()).numpy().tolist() == [[1.0, 0.0, 0.0], [0.0, 0.0, 2.0]]
    assert dense(tf.SparseTensor([[3, 1]], [5.0], [4, 3])).shape == [4, 3]
    assert dense.experimental_get_tracing_count() == 1
    assert dense.get_concrete_function().structured_outputs.shape.as_list() == [None, 3]
    with pytest.raises(TypeError, match=r"Can not cast TensorSpec\(shape=\(1, 1\), dtype=tf.int64"):
        dense(tf.SparseTensor([[0]], [1.0], [3]))
    with pytest.raises(TypeError, match="Binding inputs to tf.function failed"):
        dense(tf.zeros([2, 3]))


def test_sparse_ops_and_a_sparse_result_inside_a_function():
    @tf.function
    def ops(x, w):
        return (tf.sparse.sparse_dense_matmul(x, w), tf.sparse.reduce_sum(x, axis=1),
                x * 10.0, tf.sparse.from_dense(tf.sparse.to_dense(x) + 1.0))

    product, sums, scaled, back = ops(st23(), tf.ones([3, 2]))
    assert product.numpy().tolist() == [[1.0, 1.0], [2.0, 2.0]]
    assert sums.numpy().tolist() == [1.0, 2.0]
    assert isinstance(scaled, tf.SparseTensor) and scaled.values.numpy().tolist() == [10.0, 20.0]
    assert tf.sparse.to_dense(back).numpy().tolist() == [[2.0, 1.0, 1.0], [1.0, 1.0, 3.0]]


def test_gradients_through_sparse_values_in_a_function():
    @tf.function
    def loss(st):
        return tf.reduce_sum(tf.sparse.to_dense(st) ** 2)

    v = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(v)
        y = loss(tf.SparseTensor([[0, 0], [1, 1], [1, 2]], v, [2, 3]))
    assert tape.gradient(y, v).numpy().tolist() == [2.0, 4.0, 6.0]
    check_grads(lambda a: loss(tf.SparseTensor([[0, 0], [1, 1], [1, 2]], a, [2, 3])),
                np.array([1.0, -2.0, 0.5]))
