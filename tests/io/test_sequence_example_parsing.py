"""tf.io.parse_single_sequence_example: the SequenceExample real TF 2.21 wrote
(tests/fixtures/tfrecord) parses to what TF returned; errors as TF's (checked in TF)."""
import json
import os

import pytest

import minitf as tf
from minitf.io.tfrecord import read_records
from test_example_parsing import feature, to_json

FIXTURES = os.path.join(os.path.dirname(__file__), "..", "fixtures", "tfrecord")
EXPECTED = json.load(open(os.path.join(FIXTURES, "expected.json")))
(RECORD,) = read_records(os.path.join(FIXTURES, "sequence_example.tfrecord"))
CONTEXT = {"length": tf.io.FixedLenFeature([], tf.int64),
           "title": tf.io.FixedLenFeature([], tf.string)}
LISTS = {"xy": tf.io.FixedLenSequenceFeature([2], tf.float32),
         "word": tf.io.VarLenFeature(tf.string)}


def test_matches_tf_on_its_fixture():
    context, lists = tf.io.parse_single_sequence_example(RECORD, CONTEXT, LISTS)
    assert {k: to_json(v) for k, v in context.items()} == EXPECTED["sequence_context"]
    assert {k: to_json(v) for k, v in lists.items()} == EXPECTED["sequence_lists"]
    assert list(lists) == ["word", "xy"]


def test_in_dataset_map_and_tf_function():
    def parse(record):
        context, lists = tf.io.parse_single_sequence_example(record, CONTEXT, {"xy": LISTS["xy"]})
        return context["length"], lists["xy"]

    ds = tf.data.TFRecordDataset(os.path.join(FIXTURES, "sequence_example.tfrecord")).map(parse)
    assert ds.element_spec[1] == tf.TensorSpec([None, 2], tf.float32)
    ((length, xy),) = list(ds.as_numpy_iterator())
    assert length == 3 and xy.tolist() == [[1, 2], [3, 4], [5, 6]]

    @tf.function
    def words(record):
        _, lists = tf.io.parse_single_sequence_example(
            record, sequence_features={"word": LISTS["word"]})
        return tf.sparse.to_dense(lists["word"])

    assert words(tf.constant(RECORD)).numpy().tolist() == [[b"a"], [b"bb"], [b"ccc"]]


def sequence(**lists):
    return tf.train.SequenceExample(feature_lists=tf.train.FeatureLists(feature_list={
        k: tf.train.FeatureList(feature=v) for k, v in lists.items()})).SerializeToString()


def test_missing_lists_and_ragged_steps():
    record = sequence(w=[feature("bytes", [b"a"]), feature("bytes", [b"b", b"c"]),
                         feature("bytes", [])])
    _, lists = tf.io.parse_single_sequence_example(record, sequence_features={
        "w": tf.io.VarLenFeature(tf.string),
        "gone": tf.io.FixedLenSequenceFeature([2], tf.float32, allow_missing=True),
        "none": tf.io.VarLenFeature(tf.int64)})
    assert lists["w"].indices.numpy().tolist() == [[0, 0], [1, 0], [1, 1]]
    assert lists["w"].dense_shape.numpy().tolist() == [3, 2]
    assert lists["gone"].shape == (0, 2)
    assert lists["none"].dense_shape.numpy().tolist() == [0, 0]


RECORD_ERRORS = sequence(xy=[feature("float", [1.0, 2.0]), feature("float", [3.0, 4.0])],
                         w=[feature("bytes", [b"a"]), feature("bytes", [b"b", b"c"])])


@pytest.mark.parametrize("context, lists, error, message", [
    (None, {"zz": tf.io.FixedLenSequenceFeature([2], tf.float32)}, tf.errors.InvalidArgumentError,
     "Name: <unknown>, Feature list 'zz' is required but could not be found.  Did you mean to "
     "include it in feature_list_dense_missing_assumed_empty or feature_list_dense_defaults?"),
    ({"zz": tf.io.FixedLenFeature([], tf.int64)}, None, tf.errors.InvalidArgumentError,
     "Inconsistent max number of elements for feature zz: expected 1, but found 0"),
    (None, {"xy": tf.io.FixedLenSequenceFeature([3], tf.float32)}, tf.errors.InvalidArgumentError,
     "Feature list 'xy' has an unexpected number of values.  Total values size: 4 is not "
     "consistent with output shape: [?,3]"),
    (None, {"xy": tf.io.FixedLenSequenceFeature([2], tf.int64)}, tf.errors.InvalidArgumentError,
     "Name: <unknown>, Feature list: xy, Index: 0.  Data types don't match. Expected type: int64"),
    (None, {"w": tf.io.FixedLenSequenceFeature([], tf.string)}, tf.errors.InvalidArgumentError,
     "Name: <unknown>, Key: w, Index: 1.  Number of values != expected.  values size: 2 but "
     "output shape: []"),
    (None, {"xy": tf.io.FixedLenFeature([2], tf.float32)}, ValueError,
     "Unsupported FixedLenFeature FixedLenFeature(shape=[2], dtype=tf.float32, "
     "default_value=None) for key 'xy'"),
    (None, None, ValueError, "Both context_features and sequence_features are None"),
])
def test_errors_as_tf(context, lists, error, message):
    with pytest.raises(error) as info:
        tf.io.parse_single_sequence_example(RECORD_ERRORS, context, lists)
    assert str(info.value).startswith(message)


def test_not_a_sequence_example():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="^Invalid protocol message input, example id: <unknown>"):
        tf.io.parse_single_sequence_example(b"abc", sequence_features=LISTS)


def test_parse_sequence_example_batch_pads_and_reports_lengths():
    def record(n, length):
        return tf.train.SequenceExample(
            context=tf.train.Features(feature={"length": feature("int64", [length])}),
            feature_lists=tf.train.FeatureLists(feature_list={
                "xy": tf.train.FeatureList(feature=[feature("float", [i, -i]) for i in range(n)]),
                "w": tf.train.FeatureList(feature=[feature("bytes", [b"a"] * i)
                                                   for i in range(n)])})).SerializeToString()

    # what TF 2.21 returned for the same call
    context, lists, lengths = tf.io.parse_sequence_example(
        [record(2, 5), record(3, 6)], {"length": tf.io.FixedLenFeature([], tf.int64)},
        {"xy": tf.io.FixedLenSequenceFeature([2], tf.float32), "w": tf.io.VarLenFeature(tf.string)})
    assert context["length"].numpy().tolist() == [5, 6]
    assert lists["xy"].numpy().tolist() == [[[0, 0], [1, -1], [0, 0]], [[0, 0], [1, -1], [2, -2]]]
    assert lists["w"].indices.numpy().tolist() == [[0, 1, 0], [1, 1, 0], [1, 2, 0], [1, 2, 1]]
    assert lists["w"].dense_shape.numpy().tolist() == [2, 3, 2]
    assert lengths == {"xy": lengths["xy"]} and lengths["xy"].numpy().tolist() == [2, 3]
    with pytest.raises(ValueError, match=r"Value feature_list.dense_defaults\[xy\] must be None"):
        tf.io.parse_sequence_example([record(1, 1)], sequence_features={
            "xy": tf.io.FixedLenSequenceFeature([2], tf.float32, default_value=9.0),
            "zz": tf.io.FixedLenSequenceFeature([2], tf.float32, allow_missing=True,
                                                default_value=7.0)})

    @tf.function
    def lengths_in_graph(records):
        return tf.io.parse_sequence_example(
            records, sequence_features={"xy": tf.io.FixedLenSequenceFeature([2], tf.float32)})[2]

    assert lengths_in_graph(tf.constant([record(4, 0)]))["xy"].numpy().tolist() == [4]
