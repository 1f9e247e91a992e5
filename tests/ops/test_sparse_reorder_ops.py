"""tf.sparse structure ops: reorder, reshape, reset_shape, expand_dims, transpose, from_dense,
eye, retain, to_indicator, fill_empty_rows, map_values, mask, concat, split, slice.

Hand-derived values and finite-difference gradients (the values travel through
tf.gather); test_sparse_real_tf.py compares the same calls with real TF.
"""
import numpy as np
import pytest

import minitf as tf
from gradcheck import check_grads


def parts(st):
    return st.indices.numpy().tolist(), st.values.numpy().tolist(), st.dense_shape.numpy().tolist()


def A():
    return tf.SparseTensor([[0, 0], [0, 2], [1, 1]], [1.0, -2.0, 3.0], [2, 3])


def UNSORTED():
    return tf.SparseTensor([[1, 1], [0, 2], [0, 0]], [1.0, 2.0, 3.0], [2, 3])


def test_reorder_sorts_row_major_and_moves_values():
    assert parts(tf.sparse.reorder(UNSORTED())) == ([[0, 0], [0, 2], [1, 1]], [3.0, 2.0, 1.0],
                                                    [2, 3])


def test_reshape_keeps_row_major_positions():
    assert parts(tf.sparse.reshape(A(), [3, -1])) == ([[0, 0], [1, 0], [2, 0]],
                                                      [1.0, -2.0, 3.0], [3, 2])
    assert parts(tf.sparse.reshape(A(), [-1]))[0] == [[0], [2], [4]]


@pytest.mark.parametrize("shape, words", [
    ([4, -1], "requires a multiple of 4. input_shape=[2,3] output_shape=[4,1]"),
    ([-1, -1], "only one output dimension may be -1, not both 0 and 1"),
    ([7], "the requested shape has 7")])
def test_reshape_errors(shape, words):
    with pytest.raises(tf.errors.InvalidArgumentError, match="SparseReshape") as info:
        tf.sparse.reshape(A(), shape)
    assert words in str(info.value)


def test_reset_shape_tightest_and_larger_and_errors():
    st = tf.SparseTensor([[0, 1], [1, 0]], [1, 2], [5, 6])
    assert parts(tf.sparse.reset_shape(st))[2] == [2, 2]
    assert parts(tf.sparse.reset_shape(A(), [3, 4]))[2] == [3, 4]
    with pytest.raises(ValueError, match="dimension sizes >= sp_input.shape"):
        tf.sparse.reset_shape(A(), [1, 4])
    with pytest.raises(ValueError, match="Dimensions 3 and 2 are not compatible"):
        tf.sparse.reset_shape(A(), [3, 4, 5])


def test_reset_shape_of_no_entries_is_all_zeros():
    empty = tf.SparseTensor(tf.zeros([0, 2], tf.int64), tf.zeros([0]), [2, 3])
    assert parts(tf.sparse.reset_shape(empty))[2] == [0, 0]


def test_expand_dims_positions():
    assert parts(tf.sparse.expand_dims(A())) == ([[0, 0, 0], [0, 2, 0], [1, 1, 0]],
                                                 [1.0, -2.0, 3.0], [2, 3, 1])
    assert parts(tf.sparse.expand_dims(A(), 1))[0] == [[0, 0, 0], [0, 0, 2], [1, 0, 1]]
    assert parts(tf.sparse.expand_dims(A(), 0))[2] == [1, 2, 3]
    with pytest.raises(tf.errors.InvalidArgumentError, match="got 3"):
        tf.sparse.expand_dims(A(), 3)


def test_transpose_reorders():
    assert parts(tf.sparse.transpose(A())) == ([[0, 0], [1, 1], [2, 0]], [1.0, 3.0, -2.0],
                                               [3, 2])
    st = tf.SparseTensor([[0, 1, 2], [1, 0, 0]], [1, 2], [2, 3, 4])
    assert parts(tf.sparse.transpose(st, [2, 0, 1])) == ([[0, 1, 0], [2, 0, 1]], [2, 1],
                                                         [4, 2, 3])


def test_from_dense_numbers_strings_bools():
    assert parts(tf.sparse.from_dense([[0, 1], [2, 0]])) == ([[0, 1], [1, 0]], [1, 2], [2, 2])
    assert parts(tf.sparse.from_dense(tf.constant([b"", b"x"])))[1] == [b"x"]
    assert parts(tf.sparse.from_dense(tf.constant([True, False])))[1] == [True]
    with pytest.raises(tf.errors.InvalidArgumentError, match="Unhandled input dimensions: 0"):
        tf.sparse.from_dense(tf.constant(3.0))


def test_eye():
    st = tf.sparse.eye(3, 2)
    assert parts(st) == ([[0, 0], [1, 1]], [1.0, 1.0], [3, 2]) and st.dtype == tf.float32
    assert tf.sparse.eye(2, 3, dtype=tf.int32).dtype == tf.int32


def test_retain_and_its_length_check():
    assert parts(tf.sparse.retain(A(), [True, False, True]))[:2] == ([[0, 0], [1, 1]],
                                                                     [1.0, 3.0])
    with pytest.raises(ValueError, match="Dimensions 3 and 2 are not compatible"):
        tf.sparse.retain(A(), [True, False])


def test_to_indicator():
    st = tf.SparseTensor([[0, 0], [0, 1], [1, 0]], [0, 3, 1], [2, 2])
    np.testing.assert_array_equal(tf.sparse.to_indicator(st, 4).numpy(),
                                  [[True, False, False, True], [False, True, False, False]])
    with pytest.raises(tf.errors.InvalidArgumentError, match="out of bounds"):
        tf.sparse.to_indicator(st, 3)


def test_fill_empty_rows_values_order_and_indicator():
    st = tf.SparseTensor([[1, 0], [3, 2]], [1.0, 2.0], [5, 3])
    out, empty = tf.sparse.fill_empty_rows(st, -1.0)
    assert parts(out) == ([[0, 0], [1, 0], [2, 0], [3, 2], [4, 0]],
                          [-1.0, 1.0, -1.0, 2.0, -1.0], [5, 3])
    assert empty.numpy().tolist() == [True, False, True, False, True]
    with pytest.raises(TypeError):
        tf.sparse.fill_empty_rows(tf.SparseTensor([[0, 0]], [1], [2, 2]), 1.5)


def test_map_values():
    st = A()
    assert parts(tf.sparse.map_values(tf.math.add, st, st))[1] == [2.0, -4.0, 6.0]
    assert parts(tf.sparse.map_values(tf.ones_like, st))[1] == [1.0, 1.0, 1.0]
    with pytest.raises(tf.errors.InvalidArgumentError, match="Mismatched indices"):
        tf.sparse.map_values(tf.math.add, st, UNSORTED())
    with pytest.raises(ValueError, match="No SparseTensor"):
        tf.sparse.map_values(tf.math.add, 1.0, 2.0)


def test_mask_drops_masked_rows():
    a = tf.IndexedSlices(tf.constant([[1., 2], [3, 4], [5, 6]]), tf.constant([12, 26, 37]),
                         tf.constant([40, 2]))
    out = tf.sparse.mask(a, [12, 37])
    assert out.indices.numpy().tolist() == [26] and out.values.numpy().tolist() == [[3, 4]]


def test_concat_sorts_and_expands():
    out = tf.sparse.concat(1, [UNSORTED(), A()])
    assert parts(out) == ([[0, 0], [0, 2], [0, 3], [0, 5], [1, 1], [1, 4]],
                          [3.0, 2.0, 1.0, -2.0, 1.0, 3.0], [2, 6])
    other = tf.SparseTensor([[0, 0]], [5.0], [3, 1])
    with pytest.raises(tf.errors.InvalidArgumentError, match="expected 2 for dimension 0"):
        tf.sparse.concat(1, [A(), other])
    assert parts(tf.sparse.concat(1, [A(), other], expand_nonconcat_dims=True))[2] == [3, 4]
    with pytest.raises(tf.errors.InvalidArgumentError, match="expected to be a float"):
        tf.sparse.concat(1, [A(), tf.SparseTensor([[0, 0]], [5], [2, 1])])


def test_split_sizes_order_and_errors():
    st = tf.SparseTensor([[0, 0], [0, 4], [1, 2]], [1, 2, 3], [2, 5])
    pieces = tf.sparse.split(sp_input=st, num_split=3, axis=1)
    assert [parts(p) for p in pieces] == [([[0, 0]], [1], [2, 2]), ([[1, 0]], [3], [2, 2]),
                                          ([[0, 0]], [2], [2, 1])]
    assert parts(tf.sparse.split(sp_input=UNSORTED(), num_split=2, axis=0)[0])[0] == \
        [[0, 2], [0, 0]]  # the input's order is kept
    with pytest.raises(ValueError, match="axis is required"):
        tf.sparse.split(st, 2)
    with pytest.raises(tf.errors.InvalidArgumentError, match="between 1 and the splitting"):
        tf.sparse.split(sp_input=st, num_split=3, axis=0)


def test_slice_clips_the_shape():
    assert parts(tf.sparse.slice(A(), [0, 1], [2, 2])) == ([[0, 1], [1, 0]], [-2.0, 3.0],
                                                           [2, 2])
    assert parts(tf.sparse.slice(A(), [1, 0], [5, 5])) == ([[0, 1]], [3.0], [1, 3])
    assert parts(tf.sparse.slice(A(), [5, 0], [1, 1]))[2] == [0, 1]
    with pytest.raises(tf.errors.InvalidArgumentError, match="vector of length 2"):
        tf.sparse.slice(A(), [0], [1])


def _values_fn(build):
    """f(values) -> the dense result of a structure op applied to A() with these values."""
    def f(values):
        st = tf.SparseTensor([[0, 0], [0, 2], [1, 1]], values, [2, 3])
        return tf.sparse.to_dense(build(st))
    return f


@pytest.mark.parametrize("build", [
    lambda st: tf.sparse.reorder(tf.SparseTensor(tf.reverse(st.indices, [0]),
                                                 st.values, st.dense_shape)),
    lambda st: tf.sparse.transpose(st),
    lambda st: tf.sparse.slice(st, [0, 1], [2, 2]),
    lambda st: tf.sparse.concat(1, [st, st]),
    lambda st: tf.sparse.split(sp_input=st, num_split=2, axis=1)[0],
    lambda st: tf.sparse.retain(st, [True, False, True]),
    lambda st: tf.sparse.reshape(st, [3, 2]),
    lambda st: tf.sparse.fill_empty_rows(
        tf.SparseTensor(st.indices * [[2, 1]], st.values, [4, 3]), 0.0)[0],
], ids=["reorder", "transpose", "slice", "concat", "split", "retain", "reshape", "fill"])
def test_values_gradients(build):
    check_grads(_values_fn(build), np.array([0.5, -1.5, 2.0]))


def test_fill_empty_rows_default_value_gradient():
    def f(values, default):
        st = tf.SparseTensor([[1, 0]], values, [3, 2])
        return tf.sparse.to_dense(tf.sparse.fill_empty_rows(st, default)[0])
    check_grads(f, np.array([0.5]), np.array(2.0))


def test_from_dense_values_gradient():
    check_grads(lambda x: tf.sparse.from_dense(x).values, np.array([[0.5, 1.5], [2.0, -1.0]]))


def test_structure_ops_inside_tf_function():
    @tf.function
    def f(values):
        st = tf.SparseTensor([[1, 1], [0, 0]], values, [2, 2])
        return tf.sparse.to_dense(tf.sparse.concat(0, [tf.sparse.reorder(st), st]),
                                  validate_indices=False)
    np.testing.assert_array_equal(f(tf.constant([1.0, 2.0])).numpy(),
                                  [[2, 0], [0, 1], [2, 0], [0, 1]])
