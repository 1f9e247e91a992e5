"""tf.RaggedTensor without real TF: factories, parts, conversions, indexing, printing.

Every expected value is worked out by hand from the row partition."""
import numpy as np
import pytest

import minitf as tf

R = tf.RaggedTensor


def rows(rt):
    return rt.to_list()


# --- factories ------------------------------------------------------------------------------
def test_every_factory_describes_the_same_rows():
    want = [[1, 2], [], [3]]
    made = [R.from_row_splits([1, 2, 3], [0, 2, 2, 3]),
            R.from_row_lengths([1, 2, 3], [2, 0, 1]),
            R.from_value_rowids([1, 2, 3], [0, 0, 2], nrows=3),
            R.from_row_starts([1, 2, 3], [0, 2, 2]),
            R.from_row_limits([1, 2, 3], [2, 2, 3]),
            tf.ragged.constant(want)]
    for rt in made:
        assert rows(rt) == want
        assert rt.row_splits.numpy().tolist() == [0, 2, 2, 3]
        assert rt.row_splits.dtype == tf.int64


def test_parts_of_a_ragged_tensor():
    rt = tf.ragged.constant([[[1, 2], [3]], [], [[4]]])
    assert rt.ragged_rank == 2 and rt.shape.as_list() == [3, None, None]
    assert rt.flat_values.numpy().tolist() == [1, 2, 3, 4]
    assert [s.numpy().tolist() for s in rt.nested_row_splits] == [[0, 2, 2, 3], [0, 2, 3, 4]]
    assert rt.values.to_list() == [[1, 2], [3], [4]]
    assert rt.row_lengths().numpy().tolist() == [2, 0, 1]
    assert rt.row_lengths(axis=2).to_list() == [[2, 1], [], [1]]
    assert int(rt.nrows()) == 3 and rt.nrows().dtype == tf.int64
    assert rt.value_rowids().numpy().tolist() == [0, 0, 2]
    assert rt.row_starts().numpy().tolist() == [0, 2, 2]
    assert rt.row_limits().numpy().tolist() == [2, 2, 3]
    assert rt.bounding_shape().numpy().tolist() == [3, 2, 2]
    assert rt.dtype == tf.int32


def test_uniform_rows_keep_their_length_in_the_shape():
    rt = R.from_uniform_row_length([1, 2, 3, 4, 5, 6], 3)
    assert rt.shape.as_list() == [2, 3] and int(rt.uniform_row_length) == 3
    assert R.from_tensor([[1, 2], [3, 4]]).shape.as_list() == [2, 2]
    assert tf.ragged.constant([[1], [2, 3]]).uniform_row_length is None


def test_nested_factories():
    assert rows(R.from_nested_row_lengths([1, 2, 3], [[2, 0], [1, 2]])) == [[[1], [2, 3]], []]
    assert rows(R.from_nested_value_rowids([1, 2, 3], [[0, 1], [0, 1, 1]])) == \
        [[[1]], [[2, 3]]]


def test_row_splits_dtype_follows_the_partition():
    rt = R.from_row_lengths([1.0, 2.0], tf.constant([1, 1], tf.int32))
    assert rt.row_splits.dtype == tf.int32
    assert tf.ragged.constant([[1]], row_splits_dtype=tf.int32).row_splits.dtype == tf.int32
    assert rt.with_row_splits_dtype(tf.int64).row_splits.dtype == tf.int64


@pytest.mark.parametrize("make, text", [
    (lambda: R.from_row_splits([1, 2, 3], [0, 2]), "do not form a valid RaggedTensor"),
    (lambda: R.from_row_splits([1, 2, 3], [1, 3]), "RaggedTensor:zero"),
    (lambda: R.from_row_splits([1, 2, 3], [0, 2, 1, 3]), "RaggedTensor:monotonic"),
    (lambda: R.from_row_lengths([1, 2, 3], [2, 2]), "_from_row_partition"),
    (lambda: R.from_row_lengths([1, 2, 3], [-1, 4]), "valid RowPartition"),
    (lambda: R.from_value_rowids([1, 2, 3], [0, 2, 1]), "from_value_rowids"),
    (lambda: R.from_row_starts([1, 2, 3], [1, 2]), "from_row_starts"),
    (lambda: R.from_row_limits([1, 2, 3], [2, 1]), "from_row_limits"),
])
def test_inconsistent_partitions_raise_invalid_argument(make, text):
    with pytest.raises(tf.errors.InvalidArgumentError, match=text):
        make()


def test_argument_errors():
    with pytest.raises(ValueError, match="must have rank 1"):
        R.from_row_splits([1, 2, 3], [[0, 3]])
    with pytest.raises(ValueError, match="int32 or int64"):
        R.from_row_splits([1.0, 2.0], [0, 1.5])
    with pytest.raises(ValueError, match=r"Shapes \(3,\) and \(2,\) are incompatible"):
        R.from_value_rowids([1, 2, 3], [0, 1])
    with pytest.raises(ValueError, match="Expected nrows >= value_rowids"):
        R.from_value_rowids([1, 2, 3], [0, 1, 5], nrows=3)
    with pytest.raises(ValueError, match="constructor is private"):
        R([1], [0, 1])
    with pytest.raises(TypeError, match="may not be used as a boolean"):
        bool(tf.ragged.constant([[1]]))
    with pytest.raises(ValueError, match="has no len"):
        tf.convert_to_tensor(tf.ragged.constant([[1, 2], [3]]))


def test_validate_false_skips_the_checks():
    rt = R.from_row_splits([1, 2], [0, 1, 2], validate=False)
    assert rows(rt) == [[1], [2]]


# --- tf.ragged.constant ---------------------------------------------------------------------
def test_constant_ranks_and_inner_shape():
    assert tf.ragged.constant([[1.5], []]).dtype == tf.float32
    rt = tf.ragged.constant([[[1, 2], [3, 4]], [[5, 6]]], ragged_rank=1)
    assert rt.shape.as_list() == [2, None, 2] and rt.flat_values.shape.as_list() == [3, 2]
    rt = tf.ragged.constant([[[1, 2]], []], inner_shape=(2,))
    assert rt.shape.as_list() == [2, None, 2]
    assert tf.ragged.constant([[1, 2], [3]], dtype=tf.float64).dtype == tf.float64
    assert tf.ragged.constant([[], []]).shape.as_list() == [2, None]
    assert tf.ragged.constant([[[]], []]).ragged_rank == 2
    dense = tf.ragged.constant([1, 2])
    assert isinstance(dense, tf.Tensor) and dense.numpy().tolist() == [1, 2]


@pytest.mark.parametrize("pylist, kwargs, text", [
    ([[1, 2], [[3]]], {}, "same nesting depth"),
    ([[1, 2], 3], {}, "same nesting depth"),
    ([[1, 2], [3]], {"ragged_rank": 2}, "requires scalar value depth greater than 2"),
    ([[[1, 2], [3]], []], {"ragged_rank": 1}, "inner values have inconsistent shape"),
])
def test_constant_errors(pylist, kwargs, text):
    with pytest.raises(ValueError, match=text):
        tf.ragged.constant(pylist, **kwargs)


# --- conversions ----------------------------------------------------------------------------
def test_to_tensor_pads_and_crops():
    rt = tf.ragged.constant([[1, 2], [3], []])
    assert rt.to_tensor().numpy().tolist() == [[1, 2], [3, 0], [0, 0]]
    assert rt.to_tensor(default_value=9, shape=[2, 3]).numpy().tolist() == [[1, 2, 9],
                                                                           [3, 9, 9]]
    assert rt.to_tensor(shape=[1, 1]).numpy().tolist() == [[1]]
    nested = tf.ragged.constant([[[1, 2], [3]], [[4]]])
    assert nested.to_tensor().numpy().tolist() == [[[1, 2], [3, 0]], [[4, 0], [0, 0]]]
    inner = tf.ragged.constant([[[1, 2]], []], ragged_rank=1)
    assert inner.to_tensor(default_value=[7, 8]).numpy().tolist() == [[[1, 2]], [[7, 8]]]
    with pytest.raises(tf.errors.InvalidArgumentError, match="rt_input.rank = 2"):
        rt.to_tensor(shape=[2])


def test_from_tensor_with_padding_lengths_and_ragged_rank():
    assert rows(R.from_tensor([[1, 0, 2, 0], [0, 0, 0, 0]], padding=0)) == [[1, 0, 2], []]
    assert rows(R.from_tensor([[1, 0, 2, 0], [0, 0, 0, 0]], lengths=[5, 1])) == \
        [[1, 0, 2, 0], [0]]
    assert rows(R.from_tensor([[[1, 0], [0, 0]], [[1, 1], [0, 0]]], padding=[0, 0])) == \
        [[[1, 0]], [[1, 1]]]
    two = R.from_tensor([[[1, 0, 2], [0, 0, 0]], [[3, 0, 0], [4, 4, 0]]], padding=0,
                        ragged_rank=2)
    assert rows(two) == [[[1, 0, 2], []], [[3], [4, 4]]]
    with pytest.raises(ValueError, match="not both"):
        R.from_tensor([[1, 2]], lengths=[1], padding=0)
    with pytest.raises(ValueError, match="greater than 1"):
        R.from_tensor([1, 2])


def test_sparse_round_trip():
    rt = tf.ragged.constant([[[1, 2], [3]], [[4]]])
    st = rt.to_sparse()
    assert st.indices.numpy().tolist() == [[0, 0, 0], [0, 0, 1], [0, 1, 0], [1, 0, 0]]
    assert st.dense_shape.numpy().tolist() == [2, 2, 2]
    flat = tf.ragged.constant([[1, 2], [], [3]])
    assert rows(R.from_sparse(flat.to_sparse())) == [[1, 2], [], [3]]
    with pytest.raises(tf.errors.InvalidArgumentError, match="not right-ragged"):
        R.from_sparse(tf.SparseTensor([[0, 1]], [1], [2, 2]))
    with pytest.raises(ValueError, match="rank"):
        R.from_sparse(tf.SparseTensor([[0, 0, 0]], [1], [2, 2, 2]))


def test_to_list_numpy_merge_dims():
    rt = tf.ragged.constant([[b"a", b"bc"], []])
    assert rt.to_list() == [[b"a", b"bc"], []]
    arrays = tf.ragged.constant([[1, 2], [3]]).numpy()
    assert arrays.dtype == object and [a.tolist() for a in arrays] == [[1, 2], [3]]
    assert tf.ragged.constant([[1, 2], [3, 4]]).numpy().shape == (2, 2)
    nested = tf.ragged.constant([[[1], [2, 3]], [[4]]])
    assert nested.merge_dims(0, 1).to_list() == [[1], [2, 3], [4]]
    assert nested.merge_dims(1, 2).to_list() == [[1, 2, 3], [4]]
    assert nested.merge_dims(0, -1).numpy().tolist() == [1, 2, 3, 4]


def test_with_values_and_flat_values_keep_the_rows():
    rt = tf.ragged.constant([[[1], [2, 3]], [[4]]])
    assert rt.with_flat_values(rt.flat_values * 10).to_list() == [[[10], [20, 30]], [[40]]]
    assert rt.with_values(tf.ragged.constant([[5], [6], [7]])).to_list() == \
        [[[5], [6]], [[7]]]
    with pytest.raises(ValueError, match="incompatible"):
        rt.with_values(tf.ragged.constant([[5]]))


# --- indexing -------------------------------------------------------------------------------
def test_indexing_rows_and_slices():
    rt = tf.ragged.constant([[1, 2, 3], [4], []])
    assert rt[0].numpy().tolist() == [1, 2, 3] and rt[-1].numpy().tolist() == []
    assert rt[1:].to_list() == [[4], []]
    assert rt[::2].to_list() == [[1, 2, 3], []]
    assert rt[:, :2].to_list() == [[1, 2], [4], []]
    assert rt[:, 1:].to_list() == [[2, 3], [], []]
    assert rt[:, ::-1].to_list() == [[3, 2, 1], [4], []]
    assert rt[0, 1].numpy() == 2
    assert rt[:, None].to_list() == [[[1, 2, 3]], [[4]], [[]]]
    assert rt[None].to_list() == [[[1, 2, 3], [4], []]]
    nested = tf.ragged.constant([[[1, 2], [3]], [[4]]])
    assert nested[:, :, :1].to_list() == [[[1], [3]], [[4]]]
    assert nested[1, 0].numpy().tolist() == [4]
    assert nested[..., :1].to_list() == [[[1], [3]], [[4]]]
    assert [r.numpy().tolist() for r in tf.ragged.constant([[1], [2, 3]])] == [[1], [2, 3]]


def test_indexing_errors():
    rt = tf.ragged.constant([[1, 2], [3]])
    with pytest.raises(IndexError, match="Row key 5 out of bounds"):
        rt[5]
    with pytest.raises(ValueError, match="Cannot index into an inner ragged dimension"):
        rt[:, 1]
    with pytest.raises(tf.errors.InvalidArgumentError, match="out of bounds"):
        rt[1, 1]


# --- printing -------------------------------------------------------------------------------
def test_printing():
    rt = tf.ragged.constant([[1, 2], [3], []])
    assert repr(rt) == str(rt) == "<tf.RaggedTensor [[1, 2], [3], []]>"
    assert repr(tf.ragged.constant([[1.5, 2.0], [3.0]])) == "<tf.RaggedTensor [[1.5, 2.0], [3.0]]>"
    assert repr(tf.ragged.constant([["a", "bc"], []])) == "<tf.RaggedTensor [[b'a', b'bc'], []]>"
    # rows of one length print as NumPy prints a 2-D array
    assert repr(R.from_uniform_row_length([1, 2, 3, 4], 2)) == \
        "<tf.RaggedTensor [[1, 2],\n [3, 4]]>"
    # a long one wraps where NumPy wraps (TF 2.21 prints exactly this)
    assert repr(tf.ragged.constant([list(range(i)) for i in range(6)])) == (
        "<tf.RaggedTensor [[], [0], [0, 1], [0, 1, 2], [0, 1, 2, 3], [0, 1, 2, 3, 4]]>")
    assert str(tf.ragged.constant([list(range(i)) for i in range(8)])) == (
        "<tf.RaggedTensor [[], [0], [0, 1], [0, 1, 2], [0, 1, 2, 3], [0, 1, 2, 3, 4],\n"
        " [0, 1, 2, 3, 4, 5], [0, 1, 2, 3, 4, 5, 6]]>")


def test_dtype_of_values_and_row_partition_lists():
    rt = R.from_row_lengths(np.array([1.0, 2.0]), np.array([2]))
    assert rt.dtype == tf.float64 and rt.row_splits.dtype == tf.int64


# --- RaggedTensorSpec and tf.function -------------------------------------------------------
def test_ragged_tensor_spec():
    spec = tf.RaggedTensorSpec([2, None], tf.int32)
    assert repr(spec) == "RaggedTensorSpec(TensorShape([2, None]), tf.int32, 1, tf.int64)"
    assert spec == tf.RaggedTensorSpec.from_value(tf.ragged.constant([[1, 2], [3]]))
    assert spec.is_compatible_with(tf.ragged.constant([[1], [2, 3]]))
    assert not spec.is_compatible_with(tf.ragged.constant([[1], [2], [3]]))
    assert not spec.is_compatible_with(tf.ragged.constant([[1.0]]))
    assert tf.RaggedTensorSpec([None, None, 3], tf.float32, ragged_rank=1).ragged_rank == 1
    assert tf.RaggedTensorSpec([None, None, None]).ragged_rank == 2
    assert tf.RaggedTensorSpec([None, None]).value_type is tf.RaggedTensor
    with pytest.raises(ValueError, match="must be less than rank"):
        tf.RaggedTensorSpec([None, None], tf.float32, ragged_rank=2)
    with pytest.raises(ValueError, match="Must specify ragged_rank"):
        tf.RaggedTensorSpec()


def test_a_ragged_tensor_is_unhashable_as_in_tf():
    with pytest.raises(TypeError, match="RaggedTensor is unhashable"):
        hash(tf.ragged.constant([[1]]))


def test_inside_tf_function_with_a_partition_known_while_tracing():
    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def f(x):
        rt = R.from_row_lengths(x, [2, 1])
        return tf.reduce_max(rt, axis=1), (rt * 2 + 1).to_tensor(), rt[:, :1].flat_values

    top, dense, first = f(tf.constant([1.0, 2.0, 3.0]))
    assert top.numpy().tolist() == [2.0, 3.0]
    assert dense.numpy().tolist() == [[3.0, 5.0], [7.0, 0.0]]
    assert first.numpy().tolist() == [1.0, 3.0]
    assert f.experimental_get_tracing_count() == 1


def test_partitions_minitf_cannot_trace_are_a_clear_error():
    # row_splits and row_lengths may be traced (tests/ragged/test_ragged_function_data.py);
    # value_rowids, row_starts and row_limits must be known while tracing
    @tf.function
    def rowids_in_graph(x, ids):
        return R.from_value_rowids(x, ids).flat_values

    with pytest.raises(ValueError, match="row partition eagerly"):
        rowids_in_graph(tf.constant([1.0, 2.0]), tf.constant([0, 1]))

    @tf.function
    def listed(x):
        return x.to_list()

    with pytest.raises(ValueError, match="to_list can only be used in eager mode"):
        listed(tf.ragged.constant([[1.0]]))
