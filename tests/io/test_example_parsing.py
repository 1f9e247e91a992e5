"""tf.train.Example and parsing: the Examples real TF 2.21 wrote (tests/fixtures/tfrecord)
parse to what TF's parser returned; eagerly, in tf.function and in Dataset.map; TF's errors."""
import json
import os

import numpy as np
import pytest

import minitf as tf

FIXTURES = os.path.join(os.path.dirname(__file__), "..", "fixtures", "tfrecord")
EXPECTED = json.load(open(os.path.join(FIXTURES, "expected.json")))
RECORDS = [bytes.fromhex(r) for r in EXPECTED["records"]]
SPEC = {"name": tf.io.FixedLenFeature([], tf.string),
        "weights": tf.io.FixedLenFeature([2], tf.float32),
        "ids": tf.io.FixedLenFeature([3], tf.int64),
        "tags": tf.io.VarLenFeature(tf.string)}


def to_json(value):
    """The form make_fixtures.py stored TF's results in."""
    if isinstance(value, tf.SparseTensor):
        return {"indices": value.indices.numpy().tolist(), "dense_shape":
                value.dense_shape.numpy().tolist(), "values": to_json(value.values)}
    array = np.asarray(value.numpy(), dtype=object if value.dtype == tf.string else None)
    if value.dtype == tf.string:
        flat = [v.hex() for v in array.reshape(-1)]
    else:
        flat = [repr(float(v)) if array.dtype.kind == "f" else int(v) for v in array.reshape(-1)]
    return {"dtype": value.dtype.name, "shape": list(array.shape), "flat": flat}


def feature(kind, values):
    lists = {"bytes": tf.train.BytesList, "float": tf.train.FloatList,
             "int64": tf.train.Int64List}
    return tf.train.Feature(**{f"{kind}_list": lists[kind](value=values)})


def example(**features):
    return tf.train.Example(features=tf.train.Features(feature=features)).SerializeToString()


# --- the protobuf classes -----------------------------------------------------------------
def test_examples_serialize_to_real_tf_bytes():
    rows = [("cat", [1.5, -2.25], [3, 4, 5], [b"meow"]),
            ("dog", [0.1, 1e30], [-(2 ** 62), 0, 7], [b"woof", b"\x00\xff"]),
            ("fish", [float("inf"), 0.0], [1, 2, 3], [])]
    for (name, floats, ints, tags), record in zip(rows, RECORDS):
        ex = tf.train.Example(features=tf.train.Features(feature={
            "name": feature("bytes", [name.encode()]), "weights": feature("float", floats),
            "ids": feature("int64", ints), "tags": feature("bytes", tags)}))
        assert ex.SerializeToString(deterministic=True) == record
        assert tf.train.Example.FromString(record) == ex


def test_messages_are_tensorflows():
    assert tf.train.Example.DESCRIPTOR.full_name == "tensorflow.Example"
    assert tf.train.SequenceExample.DESCRIPTOR.file.name == "tensorflow/core/example/example.proto"
    assert tf.train.Feature.DESCRIPTOR.oneofs_by_name["kind"].fields[2].name == "int64_list"
    for name in ("BytesList", "FloatList", "Int64List", "Feature", "Features", "FeatureList",
                 "FeatureLists", "Example", "SequenceExample"):
        assert name in dir(tf.train)
    text = str(tf.train.Feature(int64_list=tf.train.Int64List(value=[1, 2])))
    assert text == "int64_list {\n  value: 1\n  value: 2\n}\n"  # as TF prints it


def test_sequence_example_fixture_decodes():
    from minitf.io.tfrecord import read_records
    (record,) = read_records(os.path.join(FIXTURES, "sequence_example.tfrecord"))
    seq = tf.train.SequenceExample.FromString(record)
    assert list(seq.context.feature["length"].int64_list.value) == [3]
    steps = seq.feature_lists.feature_list["xy"].feature
    assert [list(s.float_list.value) for s in steps] == [[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]]


def test_float_list_rounds_to_float32():
    ex = tf.train.Example.FromString(example(x=feature("float", [0.1])))
    assert ex.features.feature["x"].float_list.value[0] == np.float32(0.1)


# --- parsing what real TF wrote, compared with what real TF parsed -----------------------------
@pytest.mark.parametrize("index", range(3))
def test_parse_single_example_matches_tf(index):
    parsed = tf.io.parse_single_example(RECORDS[index], SPEC)
    assert list(parsed) == ["tags", "ids", "name", "weights"]  # sparse first, then sorted
    assert {k: to_json(v) for k, v in parsed.items()} == EXPECTED["parse_single_example"][index]


def test_parse_example_matches_tf():
    parsed = tf.io.parse_example(RECORDS, SPEC)
    assert {k: to_json(v) for k, v in parsed.items()} == EXPECTED["parse_example"]


def test_parse_in_dataset_map_and_batch():
    files = os.path.join(FIXTURES, "examples_gzip.tfrecord")
    dense = {k: v for k, v in SPEC.items() if k != "tags"}
    ds = tf.data.TFRecordDataset(files, "GZIP").map(lambda r: tf.io.parse_single_example(r, dense))
    assert ds.element_spec["weights"] == tf.TensorSpec([2], tf.float32)
    got = [{k: to_json(v) for k, v in x.items()} for x in ds]
    want = [{k: v for k, v in e.items() if k != "tags"} for e in EXPECTED["parse_single_example"]]
    assert got == want
    def parse_batch(records):
        return tf.io.parse_example(records, dense)

    batched = tf.data.TFRecordDataset(files, "GZIP").batch(3).map(parse_batch)
    assert batched.element_spec["ids"] == tf.TensorSpec([None, 3], tf.int64)
    (batch,) = list(batched)
    assert {k: to_json(v) for k, v in batch.items()} == {
        k: v for k, v in EXPECTED["parse_example"].items() if k != "tags"}


def test_parse_inside_tf_function_with_varlen():
    @tf.function
    def parse(record):
        parsed = tf.io.parse_single_example(record, SPEC)
        return parsed["ids"] * 2, tf.sparse.to_dense(parsed["tags"])

    ids, tags = parse(tf.constant(RECORDS[1]))
    assert ids.numpy().tolist() == [-(2 ** 63), 0, 14]  # int64 wraps as in TF
    assert tags.numpy().tolist() == [b"woof", b"\x00\xff"]
    concrete = parse.get_concrete_function(tf.TensorSpec([], tf.string))
    assert concrete.structured_outputs[0].shape == tf.TensorShape([3])


def test_defaults_and_missing_varlen():
    parsed = tf.io.parse_single_example(example(), {
        "a": tf.io.FixedLenFeature([2], tf.int64, default_value=[0, 1]),
        "s": tf.io.FixedLenFeature([], tf.string, default_value="?"),
        "v": tf.io.VarLenFeature(tf.float32)})
    assert parsed["a"].numpy().tolist() == [0, 1] and parsed["s"].numpy() == b"?"
    assert parsed["v"].indices.shape == (0, 1) and parsed["v"].dense_shape.numpy().tolist() == [0]
    batch = tf.io.parse_example(tf.constant([], tf.string), {
        "a": tf.io.FixedLenFeature([2], tf.int64), "v": tf.io.VarLenFeature(tf.float32)})
    assert batch["a"].shape == (0, 2) and batch["v"].dense_shape.numpy().tolist() == [0, 0]


def test_multi_dimensional_fixed_len():
    parsed = tf.io.parse_single_example(example(a=feature("int64", [1, 2, 3, 4, 5, 6])),
                                        {"a": tf.io.FixedLenFeature([2, 3], tf.int64)})
    assert parsed["a"].numpy().tolist() == [[1, 2, 3], [4, 5, 6]]


def test_fixed_len_sequence_feature_pads_the_batch():
    records = [example(x=feature("float", [1, 2, 3, 4])), example(x=feature("float", [5, 6])),
               example()]
    spec = {"x": tf.io.FixedLenSequenceFeature([2], tf.float32, allow_missing=True,
                                               default_value=-1.0)}
    assert tf.io.parse_example(records, spec)["x"].numpy().tolist() == [
        [[1, 2], [3, 4]], [[5, 6], [-1, -1]], [[-1, -1], [-1, -1]]]
    assert tf.io.parse_single_example(records[0], spec)["x"].shape == (2, 2)


def test_feature_specs_print_as_tf():
    assert repr(tf.io.FixedLenFeature([2], tf.int64, 0)) == (
        "FixedLenFeature(shape=[2], dtype=tf.int64, default_value=0)")
    assert repr(tf.io.VarLenFeature(tf.int64)) == "VarLenFeature(dtype=tf.int64)"
    assert tf.io.FixedLenFeature([2], tf.int64) == tf.io.FixedLenFeature([2], tf.int64)


# --- errors: TF 2.21's classes and messages (checked in TF), then what to do ------------------
RECORD = example(a=feature("int64", [1, 2]), f=feature("float", [1.5, 2.5]),
                 b=feature("bytes", [b"x"]))
ERRORS = [
    ("single", {"zz": tf.io.FixedLenFeature([], tf.int64)}, tf.errors.InvalidArgumentError,
     "Feature: zz (data type: int64) is required but could not be found. [Op:ParseExampleV2]"),
    ("batch", {"zz": tf.io.FixedLenFeature([3], tf.int64)}, tf.errors.InvalidArgumentError,
     "Name: <unknown>, Feature: zz (data type: int64) is required but could not be found."),
    ("single", {"a": tf.io.FixedLenFeature([3], tf.int64)}, tf.errors.InvalidArgumentError,
     "Key: a.  Can't parse serialized Example: Some int64_list slice was not parsed."),
    ("single", {"f": tf.io.FixedLenFeature([1], tf.float32)}, tf.errors.InvalidArgumentError,
     "Key: f.  Can't parse serialized Example: Some float_list slice was not parsed."),
    ("batch", {"a": tf.io.FixedLenFeature([3], tf.int64)}, tf.errors.InvalidArgumentError,
     "Name: <unknown>, Key: a, Index: 0.  Number of int64 values != expected.  Values size: 2 "
     "but output shape: [3]"),
    ("single", {"a": tf.io.FixedLenFeature([2], tf.float32)}, tf.errors.InvalidArgumentError,
     "Key: a.  Data types don't match. Data type: int64 but expected type: float"),
    ("batch", {"a": tf.io.FixedLenFeature([2], tf.string)}, tf.errors.InvalidArgumentError,
     "Name: <unknown>, Key: a, Index: 0.  Data types don't match. Data type: int64 but "
     "expected type: string"),
    ("single", {"a": tf.io.VarLenFeature(tf.float32)}, tf.errors.InvalidArgumentError,
     "Key: a.  Data types don't match. Expected type: float, Actual type: int64"),
    ("single", {"a": tf.io.FixedLenFeature([2], tf.int32)}, tf.errors.InvalidArgumentError,
     "Value for attr 'Tdense' of int32 is not in the list of allowed values: float, int64, "
     "string"),
    ("single", {"a": 3}, ValueError, "Unsupported int 3 for key 'a'"),
    ("single", {}, ValueError, "Invalid argument: features cannot be empty."),
    ("single", {"a": tf.io.FixedLenFeature([None], tf.int64)}, ValueError,
     "First dimension of shape for feature a unknown. Consider using FixedLenSequenceFeature."),
    ("single", {"q": tf.io.FixedLenFeature([2], tf.float32, default_value=0.0)},
     tf.errors.InvalidArgumentError,
     "Input to reshape is a tensor with 1 values, but the requested shape has 2"),
]


@pytest.mark.parametrize("mode, spec, error, message", ERRORS)
def test_errors_as_tf(mode, spec, error, message):
    parse = tf.io.parse_single_example if mode == "single" else tf.io.parse_example
    with pytest.raises(error) as info:
        parse(RECORD if mode == "single" else [RECORD, RECORD], spec)
    assert str(info.value).startswith(message)
    if error is tf.errors.InvalidArgumentError and "attr" not in message:
        assert len(str(info.value)) > len(message) + 40  # plus a sentence on what to do


def test_not_an_example_and_wrong_ranks():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Could not parse example input, value: 'abc'"):
        tf.io.parse_single_example(b"abc", {"a": tf.io.FixedLenFeature([2], tf.int64)})
    with pytest.raises(ValueError, match="Input serialized must be a scalar"):
        tf.io.parse_single_example([RECORD], {"a": tf.io.FixedLenFeature([2], tf.int64)})
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Expected serialized to be a scalar or vector, got shape: \[1,1\]"):
        tf.io.parse_example([[RECORD]], {"a": tf.io.FixedLenFeature([2], tf.int64)})


def test_error_inside_dataset_map():
    def parse(record):
        return tf.io.parse_single_example(record, {"zz": tf.io.FixedLenFeature([], tf.int64)})

    ds = tf.data.Dataset.from_tensor_slices([RECORD]).map(parse)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Feature: zz"):
        list(ds)


def test_message_classes_live_in_tf_train_and_pickle():
    import pickle
    ex = tf.train.Example.FromString(RECORDS[0])
    assert repr(tf.train.Example) == "<class 'minitf.train.Example'>"
    assert pickle.loads(pickle.dumps(ex)) == ex


def test_varlen_densified_inside_map_then_padded_batch():
    def parse(record):
        tags = tf.io.parse_single_example(record, {"tags": SPEC["tags"]})["tags"]
        return tf.sparse.to_dense(tags)

    ds = tf.data.TFRecordDataset(os.path.join(FIXTURES, "examples.tfrecord")).map(parse)
    assert ds.element_spec == tf.TensorSpec([None], tf.string)
    (batch,) = list(ds.padded_batch(3).as_numpy_iterator())
    assert batch.tolist() == [[b"meow", b""], [b"woof", b"\x00\xff"], [b"", b""]]
