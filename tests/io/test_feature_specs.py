"""tf.io.SparseFeature and tf.io.RaggedFeature in parse_single_example / parse_example: the
specs, the tensors they give, checked partitions, graph mode. (test_io_more_real_tf.py compares
the same parses with real TF.)"""
import pytest

import minitf as tf

F, I, B = tf.train.Feature, tf.train.Int64List, tf.train.FloatList
R = tf.io.RaggedFeature
EX = tf.train.Example(features=tf.train.Features(feature={
    "ix": F(int64_list=I(value=[3, 1])), "jx": F(int64_list=I(value=[0, 1])),
    "v": F(float_list=B(value=[0.5, 0.25])), "lens": F(int64_list=I(value=[1, 1])),
    "w": F(int64_list=I(value=[7, 8, 9]))})).SerializeToString()
EMPTY = tf.train.Example().SerializeToString()


def test_specs_repr_defaults_and_checks():
    spec = tf.io.SparseFeature(index_key="ix", value_key="v", dtype=tf.float32, size=5)
    assert repr(spec) == ("SparseFeature(index_key='ix', value_key='v', dtype=tf.float32, "
                          "size=5, already_sorted=False)")
    ragged = tf.io.RaggedFeature(tf.int64, value_key="v",
                                 partitions=[tf.io.RaggedFeature.RowLengths("lens")])
    assert repr(ragged) == ("RaggedFeature(dtype=tf.int64, value_key='v', partitions=("
                            "RowLengths(key='lens'),), row_splits_dtype=tf.int32, validate=False)")
    assert repr(R.UniformRowLength(2)) == "UniformRowLength(length=2)"
    with pytest.raises(ValueError, match="Argument `dtype` must be int64, float32, or bytes; "
                                         "got tf.int32"):
        R(tf.int32)


def test_sparse_feature_single_batch_and_several_dims():
    one = tf.io.parse_single_example(EX, {"s": tf.io.SparseFeature("ix", "v", tf.float32, 5)})
    s = one["s"]
    assert isinstance(s, tf.SparseTensor)
    assert s.indices.numpy().tolist() == [[1], [3]]  # sorted by index
    assert s.values.numpy().tolist() == [0.25, 0.5] and s.dense_shape.numpy().tolist() == [5]
    assert tf.sparse.to_dense(s).numpy().tolist() == [0.0, 0.25, 0.0, 0.5, 0.0]
    kept = tf.io.parse_single_example(EX, {"s": tf.io.SparseFeature(
        "ix", "v", tf.float32, 5, already_sorted=True)})["s"]
    assert kept.indices.numpy().tolist() == [[3], [1]]
    two = tf.io.parse_single_example(EX, {"s": tf.io.SparseFeature(
        ["ix", "jx"], "v", tf.float32, [4, 2])})["s"]
    assert two.indices.numpy().tolist() == [[1, 1], [3, 0]]
    assert two.dense_shape.numpy().tolist() == [4, 2]
    batch = tf.io.parse_example([EX, EMPTY, EX], {
        "s": tf.io.SparseFeature("ix", "v", tf.float32, 4), "v": tf.io.VarLenFeature(tf.float32)})
    assert batch["s"].indices.numpy().tolist() == [[0, 1], [0, 3], [2, 1], [2, 3]]
    assert batch["s"].dense_shape.numpy().tolist() == [3, 4]
    assert sorted(batch) == ["s", "v"]  # helper keys read for the spec are not returned
    assert batch["v"].values.numpy().tolist() == [0.5, 0.25, 0.5, 0.25]


def test_sparse_feature_errors_and_graph_mode():
    with pytest.raises(ValueError, match="Dimensions 3 and 2 are not compatible"):
        tf.io.parse_single_example(EX, {"s": tf.io.SparseFeature("w", "v", tf.float32, 9)})
    with pytest.raises(tf.errors.InvalidArgumentError, match="Dimensions 6 and 4 are not"):
        tf.io.parse_example([EX, EX], {"s": tf.io.SparseFeature("w", "v", tf.float32, 9)})
    with pytest.raises(ValueError, match="a key can be read once"):
        tf.io.parse_example([EX], {"s": tf.io.SparseFeature("ix", "v", tf.float32, 4),
                                   "v": tf.io.FixedLenFeature([2], tf.float32)})
    with pytest.raises(ValueError, match="one size per index key"):
        tf.io.parse_single_example(EX, {"s": tf.io.SparseFeature(["ix", "jx"], "v",
                                                                  tf.float32, 4)})

    @tf.function
    def values(serialized):
        s = tf.io.parse_example(serialized, {"s": tf.io.SparseFeature("ix", "v", tf.float32, 4)})
        return s["s"].indices, s["s"].values

    indices, vals = values(tf.constant([EX, EX]))
    assert indices.numpy().tolist() == [[0, 1], [0, 3], [1, 1], [1, 3]]
    assert vals.numpy().tolist() == [0.25, 0.5, 0.25, 0.5]


def test_ragged_feature_values_partitions_and_dtypes():
    assert tf.io.parse_single_example(EX, {"w": R(tf.int64)})["w"].numpy().tolist() == [7, 8, 9]
    batch = tf.io.parse_example([EX, EMPTY], {"w": R(tf.int64, row_splits_dtype=tf.int64)})["w"]
    assert batch.to_list() == [[7, 8, 9], []] and batch.row_splits.dtype == tf.int64
    nested = tf.io.parse_example([EX, EX], {"r": R(tf.float32, value_key="v",
                                                   partitions=[R.RowLengths("lens")])})["r"]
    assert nested.to_list() == [[[0.5], [0.25]], [[0.5], [0.25]]]
    assert nested.row_splits.dtype == tf.int32
    uniform = tf.io.parse_single_example(EX, {"r": R(tf.int64, value_key="w",
                                                     partitions=[R.UniformRowLength(1)])})["r"]
    assert uniform.to_list() == [[7], [8], [9]]
    ids = tf.io.parse_single_example(EX, {"r": R(tf.float32, value_key="v",
                                                 partitions=[R.ValueRowIds("jx")])})["r"]
    assert ids.to_list() == [[0.5], [0.25]]
    in_map = tf.data.Dataset.from_tensor_slices([EX]).map(
        lambda s: tf.io.parse_single_example(s, {"w": R(tf.int64)})["w"])
    assert [v.tolist() for v in in_map.as_numpy_iterator()] == [[7, 8, 9]]


def test_ragged_feature_partitions_are_checked():
    # TF 2.21 without validate=True returns rows that silently drop values here
    for part in (R.RowLengths("ix"), R.RowLimits("jx"), R.UniformRowLength(2),
                 R.ValueRowIds("ix")):
        with pytest.raises(tf.errors.InvalidArgumentError, match="Invalid RaggedFeature partition"):
            tf.io.parse_example([EX], {"r": R(tf.int64, value_key="w", partitions=[part])})
    # inside tf.function the partition is checked when the graph runs
    parse = tf.function(lambda s: tf.io.parse_example(
        s, {"r": R(tf.int64, value_key="w", partitions=[R.UniformRowLength(2)])})["r"])
    with pytest.raises(tf.errors.InvalidArgumentError, match="Invalid RaggedFeature partition"):
        parse(tf.constant([EX]))
