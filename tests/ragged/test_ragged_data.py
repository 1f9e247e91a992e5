"""tf.data with RaggedTensors: Dataset.ragged_batch and dense_to_ragged_batch."""
import pytest

import minitf as tf
from real_tf import run_tf_json


def lengths(n):
    return tf.data.Dataset.range(n).map(lambda x: tf.range(x))


def test_variable_length_elements_batch_into_ragged_rows():
    ds = lengths(5).ragged_batch(2)
    assert repr(ds.element_spec) == \
        "RaggedTensorSpec(TensorShape([None, None]), tf.int64, 1, tf.int64)"
    assert [b.to_list() for b in ds] == [[[], [0]], [[0, 1], [0, 1, 2]], [[0, 1, 2, 3]]]
    assert int(ds.cardinality()) == 3


def test_known_shapes_stay_dense_and_drop_remainder_fixes_the_batch():
    ds = lengths(5).map(lambda r: (r, tf.size(r))).ragged_batch(2, drop_remainder=True)
    ragged_spec, dense_spec = ds.element_spec
    assert ragged_spec.shape.as_list() == [2, None]
    assert dense_spec == tf.TensorSpec([2], tf.int32)
    (first, sizes), second = list(ds)
    assert first.to_list() == [[], [0]] and sizes.numpy().tolist() == [0, 1]
    assert len(list(ds)) == 2 and second[0].to_list() == [[0, 1], [0, 1, 2]]
    dense = tf.data.Dataset.from_tensor_slices([[1, 2], [3, 4], [5, 6]]).ragged_batch(2)
    assert dense.element_spec == tf.TensorSpec([None, 2], tf.int32)
    assert next(iter(dense)).numpy().tolist() == [[1, 2], [3, 4]]


def test_ragged_rank_follows_the_last_unknown_dimension():
    pairs = tf.data.Dataset.range(3).map(lambda x: tf.reshape(tf.range(2 * x), [x, 2]))
    ds = pairs.ragged_batch(3)
    assert ds.element_spec.ragged_rank == 1 and ds.element_spec.shape.as_list() == [None, None, 2]
    assert next(iter(ds)).to_list() == [[], [[0, 1]], [[0, 1], [2, 3]]]
    wide = tf.data.Dataset.range(1, 3).map(lambda x: tf.zeros(tf.stack([2, x]), tf.int32))
    spec = wide.ragged_batch(2).element_spec
    assert spec.ragged_rank == 2 and spec.shape.as_list() == [None, 2, None]
    assert next(iter(wide.ragged_batch(2))).to_list() == [[[0], [0]], [[0, 0], [0, 0]]]


def test_dense_to_ragged_batch_and_numpy_iteration():
    ds = lengths(5).apply(tf.data.experimental.dense_to_ragged_batch(3))
    assert [b.to_list() for b in ds] == [[[], [0], [0, 1]], [[0, 1, 2], [0, 1, 2, 3]]]
    first = next(iter(lengths(3).ragged_batch(2).as_numpy_iterator()))
    assert first.dtype == object and [r.tolist() for r in first] == [[], [0]]
    splits = next(iter(lengths(3).ragged_batch(2, row_splits_dtype=tf.int32))).row_splits
    assert splits.dtype == tf.int32


def test_rows_of_a_ragged_tensor_as_elements():
    rt = tf.ragged.constant([[1, 2], [3], []])
    ds = tf.data.Dataset.from_tensor_slices(rt)
    assert ds.element_spec == tf.RaggedTensorSpec([None], tf.int32, 0)
    assert [t.numpy().tolist() for t in ds] == [[1, 2], [3], []]
    assert [int(t) for t in ds.map(lambda x: tf.reduce_sum(x))] == [3, 3, 0]
    assert [b.to_list() for b in ds.batch(2)] == [[[1, 2], [3]], [[]]]
    assert [b.to_list() for b in ds.ragged_batch(2)] == [[[1, 2], [3]], [[]]]
    assert [t.tolist() for t in ds.as_numpy_iterator()] == [[1, 2], [3], []]
    whole = tf.data.Dataset.from_tensors(rt)
    assert whole.element_spec == tf.RaggedTensorSpec([3, None], tf.int32, 1)
    assert next(iter(whole)).to_list() == [[1, 2], [3], []]


def test_a_batch_size_of_zero_is_tf_s_error():
    # map of RaggedTensor elements: tests/ragged/test_ragged_function_data.py
    with pytest.raises(tf.errors.InvalidArgumentError, match="Batch size must be greater"):
        lengths(3).ragged_batch(0)


PIPELINES = [  # (what real TF runs, the same pipeline here: lambdas with source for AutoGraph)
    ("tf.data.Dataset.range(5).map(lambda x: tf.range(x)).ragged_batch(2)",
     lambda: tf.data.Dataset.range(5).map(lambda x: tf.range(x)).ragged_batch(2)),
    ("tf.data.Dataset.range(5).map(lambda x: (tf.range(x), x)).ragged_batch(2, "
     "drop_remainder=True)",
     lambda: tf.data.Dataset.range(5).map(lambda x: (tf.range(x), x)).ragged_batch(
         2, drop_remainder=True)),
    ("tf.data.Dataset.range(3).map(lambda x: tf.reshape(tf.range(2 * x), [x, 2]))"
     ".ragged_batch(3)",
     lambda: tf.data.Dataset.range(3).map(
         lambda x: tf.reshape(tf.range(2 * x), [x, 2])).ragged_batch(3)),
    ("tf.data.Dataset.range(1, 3).map(lambda x: tf.zeros(tf.stack([2, x]), tf.int32))"
     ".ragged_batch(2)",
     lambda: tf.data.Dataset.range(1, 3).map(
         lambda x: tf.zeros(tf.stack([2, x]), tf.int32)).ragged_batch(2)),
    ("tf.data.Dataset.from_tensor_slices([[1, 2], [3, 4], [5, 6]]).ragged_batch(2)",
     lambda: tf.data.Dataset.from_tensor_slices([[1, 2], [3, 4], [5, 6]]).ragged_batch(2)),
    ("tf.data.Dataset.from_tensor_slices(tf.ragged.constant([[1, 2], [3], []]))",
     lambda: tf.data.Dataset.from_tensor_slices(tf.ragged.constant([[1, 2], [3], []]))),
    ("tf.data.Dataset.from_tensor_slices(tf.ragged.constant([[1, 2], [3], []]))"
     ".map(lambda x: tf.reduce_sum(x))",
     lambda: tf.data.Dataset.from_tensor_slices(tf.ragged.constant([[1, 2], [3], []]))
     .map(lambda x: tf.reduce_sum(x))),
    ("tf.data.Dataset.from_tensor_slices((tf.ragged.constant([[1, 2], [3], []]), [1, 2, 3]))"
     ".batch(2)",
     lambda: tf.data.Dataset.from_tensor_slices(
         (tf.ragged.constant([[1, 2], [3], []]), [1, 2, 3])).batch(2)),
    ("tf.data.Dataset.from_tensor_slices(tf.ragged.constant([[[1], [2, 3]], [[4]]]))",
     lambda: tf.data.Dataset.from_tensor_slices(tf.ragged.constant([[[1], [2, 3]], [[4]]]))),
    ("tf.data.Dataset.from_tensor_slices(tf.ragged.constant([[[1], [2, 3]], [[4]]])).batch(2)",
     lambda: tf.data.Dataset.from_tensor_slices(
         tf.ragged.constant([[[1], [2, 3]], [[4]]])).batch(2)),
    ("tf.data.Dataset.from_tensors(tf.ragged.constant([[1, 2], [3]]))",
     lambda: tf.data.Dataset.from_tensors(tf.ragged.constant([[1, 2], [3]]))),
    ("tf.data.Dataset.range(1, 4).map(lambda x: tf.range(x)).ragged_batch(2).unbatch()",
     lambda: tf.data.Dataset.range(1, 4).map(lambda x: tf.range(x)).ragged_batch(2).unbatch()),
    ("tf.data.Dataset.from_tensor_slices(tf.ragged.constant([[[1], [2, 3]], [[4]]])).unbatch()",
     lambda: tf.data.Dataset.from_tensor_slices(
         tf.ragged.constant([[[1], [2, 3]], [[4]]])).unbatch()),
]


def test_batches_print_as_in_real_tf():
    code = "import json, tensorflow as tf\nout = []\n" + "".join(
        f"ds = {text}\nout.append([repr(ds.element_spec), repr(list(ds))])\n"
        for text, _ in PIPELINES) + "print(json.dumps(out))"
    theirs = run_tf_json(code)
    ours = [[repr(make().element_spec), repr(list(make()))] for _, make in PIPELINES]
    assert ours == theirs
