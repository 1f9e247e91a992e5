"""RaggedTensors across tf.function and tf.data: arguments, signatures, results, retracing,
gradients, Dataset.map/batch/from_generator. One batched real-TF comparison at the end."""
import numpy as np
import pytest

import minitf as tf
from gradcheck import check_grads
from real_tf import run_tf_json

R = tf.RaggedTensor


def rt3():
    return tf.ragged.constant([[1, 2], [3], []])


# --- tf.function ---------------------------------------------------------------------------
def test_a_ragged_argument_is_traced_once_per_spec():
    @tf.function
    def double(x):
        return x * 2

    assert double(rt3()).to_list() == [[2, 4], [6], []]
    assert double(tf.ragged.constant([[1], [3, 4, 5], [6]])).to_list() == [[2], [6, 8, 10], [12]]
    assert double.experimental_get_tracing_count() == 1  # same spec: [3, None], int32
    double(tf.ragged.constant([[1], [2], [3], [4]]))  # 4 rows: another spec
    assert double.experimental_get_tracing_count() == 2
    double(tf.ragged.constant([[1]], row_splits_dtype=tf.int32))
    double(tf.ragged.constant([[1.0]]))
    assert double.experimental_get_tracing_count() == 4
    cf = double.get_concrete_function(tf.RaggedTensorSpec([None, None], tf.int32))
    assert double.experimental_get_tracing_count() == 5
    assert double(tf.ragged.constant([[1], [2], [3], [4], [5]])).to_list() == [[2], [4], [6],
                                                                                [8], [10]]
    assert double.experimental_get_tracing_count() == 5  # served by the [None, None] trace
    assert cf(rt3()).to_list() == [[2, 4], [6], []]


def test_signatures_and_outputs_print_with_tf_s_spec_reprs():
    @tf.function
    def double(x):
        return x * 2

    cf = double.get_concrete_function(rt3())
    assert repr(cf.structured_input_signature) == \
        "((RaggedTensorSpec(TensorShape([3, None]), tf.int32, 1, tf.int64),), {})"
    out = cf.structured_outputs
    assert isinstance(out, R)
    assert str(out).startswith("tf.RaggedTensor(values=Tensor(") and \
        'shape=(4,), dtype=int64))' in str(out)
    assert str(cf) == (
        "ConcreteFunction Input Parameters:\n"
        "  x (POSITIONAL_OR_KEYWORD): RaggedTensorSpec(TensorShape([3, None]), tf.int32, 1, "
        "tf.int64)\nOutput Type:\n  RaggedTensorSpec(TensorShape([3, None]), tf.int32, 1, "
        "tf.int64)\nCaptures:\n  None")


def test_input_signature_with_a_ragged_spec():
    @tf.function(input_signature=[tf.RaggedTensorSpec([None, None], tf.int32)])
    def parts(x):
        return x.flat_values, x.row_lengths(), x.nrows(), x.value_rowids()

    values, lengths, nrows, rowids = parts(rt3())
    assert values.numpy().tolist() == [1, 2, 3] and lengths.numpy().tolist() == [2, 1, 0]
    assert int(nrows) == 3 and rowids.numpy().tolist() == [0, 0, 1]
    parts(tf.ragged.constant([[1], [2, 3, 4], [5], [6]]))
    assert parts.experimental_get_tracing_count() == 1
    assert repr(parts.get_concrete_function().structured_input_signature) == \
        "((RaggedTensorSpec(TensorShape([None, None]), tf.int32, 1, tf.int64),), {})"
    with pytest.raises(TypeError, match=r"Can not cast TensorSpec\(shape=\(1,\), dtype=tf.float32"):
        parts(tf.ragged.constant([[1.0]]))
    with pytest.raises(TypeError, match="Binding inputs to tf.function failed"):
        parts(tf.constant([[1, 2]]))


def test_graph_ops_on_a_traced_partition():
    @tf.function
    def summary(x):
        return (tf.reduce_sum(x, axis=1), tf.reduce_max(x, axis=1), tf.reduce_mean(x, axis=1),
                x.to_tensor(), x.bounding_shape(), x.row_starts(), x.row_limits())

    total, top, mean, dense, bounds, starts, limits = summary(
        tf.ragged.constant([[1, 2], [3, 4, 5], [6], []]))
    assert total.numpy().tolist() == [3, 12, 6, 0]
    assert top.numpy().tolist()[:3] == [2, 5, 6]
    assert top.numpy()[3] == np.iinfo(np.int32).min  # an empty row: the identity, as TF
    assert mean.numpy().tolist()[:3] == [1.5, 4.0, 6.0] and np.isnan(mean.numpy()[3])
    assert dense.numpy().tolist() == [[1, 2, 0], [3, 4, 5], [6, 0, 0], [0, 0, 0]]
    assert bounds.numpy().tolist() == [4, 3]
    assert starts.numpy().tolist() == [0, 2, 5, 6] and limits.numpy().tolist() == [2, 5, 6, 6]


def test_a_ragged_result_built_from_traced_lengths():
    @tf.function
    def make(values, lengths):
        return R.from_row_lengths(values, lengths)

    out = make(tf.constant([1.0, 2.0, 3.0]), tf.constant([1, 2], tf.int64))
    assert out.to_list() == [[1.0], [2.0, 3.0]]
    with pytest.raises(tf.errors.InvalidArgumentError, match="do not form a valid RaggedTensor"):
        make(tf.constant([1.0, 2.0, 3.0]), tf.constant([1, 1], tf.int64))  # checked at run time

    @tf.function
    def splits(values, row_splits):
        return R.from_row_splits(values, row_splits)

    assert splits(tf.constant([5, 6]), tf.constant([0, 0, 2], tf.int64)).to_list() == \
        [[], [5, 6]]
    with pytest.raises(tf.errors.InvalidArgumentError, match="row_splits must start at 0"):
        splits(tf.constant([5, 6]), tf.constant([1, 2], tf.int64))


def test_gradients_through_ragged_values_in_a_function():
    @tf.function
    def loss(x):
        return tf.reduce_sum(tf.reduce_mean(x * x, axis=1))

    v = tf.constant([1.0, 2.0, 3.0])
    with tf.GradientTape() as tape:
        tape.watch(v)
        y = loss(R.from_row_lengths(v, [2, 1]))
    grad = tape.gradient(y, v)
    assert grad.numpy().tolist() == [1.0, 2.0, 6.0]  # d/dv of (v0^2+v1^2)/2 + v2^2
    check_grads(lambda a: loss(R.from_row_lengths(a, [2, 1])), v.numpy())

    @tf.function
    def dense_loss(x):
        return tf.reduce_sum(x.to_tensor() * [[1.0, 10.0], [100.0, 1000.0]])

    with tf.GradientTape() as tape:
        tape.watch(v)
        y = dense_loss(R.from_row_lengths(v, [2, 1]))
    assert tape.gradient(y, v).numpy().tolist() == [1.0, 10.0, 100.0]


def test_uses_that_need_the_splits_while_tracing_say_so():
    @tf.function
    def rows(x):
        return x[0]

    with pytest.raises(ValueError, match="needs the values of its row_splits"):
        rows(rt3())
