"""tf.io.decode_raw, encode_base64/decode_base64, decode_compressed, decode_json_example,
matching_files, match_filenames_once, write_graph: values, shapes, TF's errors, graph mode.
(test_io_more_real_tf.py runs the same calls under real TF.)"""
import gzip
import os
import zlib

import pytest

import minitf as tf


def test_decode_raw_types_endianness_and_shapes():
    out = tf.io.decode_raw(tf.constant([b"\x01\x00\x02\x00", b"\x03\x00\x04\x00"]), tf.int16)
    assert out.dtype == tf.int16 and out.numpy().tolist() == [[1, 2], [3, 4]]
    big = tf.io.decode_raw(tf.constant([b"\x01\x00\x02\x00"]), tf.int16, little_endian=False)
    assert big.numpy().tolist() == [[256, 512]]
    assert tf.io.decode_raw(tf.constant(b"\x00\x00\x80\x3f"), tf.float32).numpy().tolist() == [1.0]
    assert tf.io.decode_raw(tf.constant(["ab"]), tf.uint8).numpy().tolist() == [[97, 98]]
    assert tf.io.decode_raw(tf.constant([b"\x01\x00"]), tf.bool).numpy().tolist() == [[True, False]]
    assert tf.io.decode_raw(tf.constant([b"\x00\x3c"]), tf.float16).numpy().tolist() == [[1.0]]
    grid = tf.io.decode_raw(tf.constant([[b"\x01" + b"\0" * 7], [b"\x02" + b"\0" * 7]]), tf.int64)
    assert grid.shape == (2, 1, 1) and grid.numpy().ravel().tolist() == [1, 2]
    assert tf.io.decode_raw(tf.constant([b"", b""]), tf.int16).shape == (2, 0)
    padded = tf.io.decode_raw(tf.constant([b"\x01\x00", b"\x01\x00\x02\x00\x03\x00"]), tf.int16,
                              fixed_length=4)
    assert padded.numpy().tolist() == [[1, 0], [1, 2]]


def test_decode_raw_errors():
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Input to DecodeRaw has length 3 that is not a multiple of 2, "
                             "the size of int16"):
        tf.io.decode_raw(tf.constant([b"\x01\x00\x02"]), tf.int16)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="all be the same size, but element 1 has size 2 != 4"):
        tf.io.decode_raw(tf.constant([b"\x01\x00", b"\x01\x00\x02\x00"]), tf.int16)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"fixed_length \(3\) must be a multiple of the size of out_type"):
        tf.io.decode_raw(tf.constant([b"\x01\x00"]), tf.int16, fixed_length=3)
    with pytest.raises(tf.errors.InvalidArgumentError, match="'out_type' of string"):
        tf.io.decode_raw(tf.constant([b"ab"]), tf.string)
    with pytest.raises(tf.errors.InvalidArgumentError, match="int32"):
        tf.io.decode_raw(tf.constant([1]), tf.int16)


def test_base64_is_web_safe():
    words = tf.constant(["hello", "?>~", "a", ""])
    assert tf.io.encode_base64(words).numpy().tolist() == [b"aGVsbG8", b"Pz5-", b"YQ", b""]
    assert tf.io.encode_base64(words, pad=True).numpy().tolist() == [
        b"aGVsbG8=", b"Pz5-", b"YQ==", b""]
    back = tf.io.decode_base64(tf.constant(["aGVsbG8", "Pz5-", "YQ", "YQ==", ""]))
    assert back.numpy().tolist() == [b"hello", b"?>~", b"a", b"a", b""]
    assert tf.io.encode_base64(tf.constant("hi")).shape == ()
    for bad in ("Pz5+", "a$b=", "YQ = =", "YQ=", "YQ==YQ==", "YWI==="):
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match="Invalid character found in base64"):
            tf.io.decode_base64(tf.constant([bad]))
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="Base64 string length cannot be 1 modulo 4"):
        tf.io.decode_base64(tf.constant(["a"]))


def test_decode_compressed():
    z, g = zlib.compress(b"hello hello"), gzip.compress(b"hello hello", mtime=0)
    assert tf.io.decode_compressed(tf.constant([z]), "ZLIB").numpy().tolist() == [b"hello hello"]
    assert tf.io.decode_compressed([g, g], "GZIP").numpy().tolist() == [b"hello hello"] * 2
    assert tf.io.decode_compressed(tf.constant(z), "ZLIB").shape == ()
    assert tf.io.decode_compressed(tf.constant(["abc"])).numpy().tolist() == [b"abc"]
    assert tf.io.decode_compressed(tf.constant([b""]), "ZLIB").numpy().tolist() == [b""]
    with pytest.raises(tf.errors.DataLossError,
                       match="inflate\\(\\) failed with error -3: incorrect header check"):
        tf.io.decode_compressed(tf.constant([z]), "GZIP")
    for kind in ("BZ2", "NONE", "ZSTD"):
        with pytest.raises(tf.errors.InvalidArgumentError,
                           match="Only ZLIB, ZSTD, GZIP or NONE are supported compressions"):
            tf.io.decode_compressed(tf.constant(["abc"]), kind)


def test_decode_json_example_parses_like_an_example():
    text = ('{"features": {"feature": {"a": {"int64List": {"value": [1, "2"]}}, '
            '"b": {"floatList": {"value": [1.5]}}, "c": {"bytesList": {"value": ["aGk="]}}}}}')
    parsed = tf.io.parse_single_example(tf.io.decode_json_example(text), {
        "a": tf.io.FixedLenFeature([2], tf.int64), "b": tf.io.FixedLenFeature([], tf.float32),
        "c": tf.io.FixedLenFeature([], tf.string)})
    assert parsed["a"].numpy().tolist() == [1, 2] and float(parsed["b"]) == 1.5
    assert parsed["c"].numpy() == b"hi"
    assert tf.io.decode_json_example([text, text]).shape == (2,)
    for bad in ('{"features": 3}', "not json"):
        with pytest.raises(tf.errors.InvalidArgumentError, match="Error while parsing JSON"):
            tf.io.decode_json_example([bad])


def test_decode_ops_in_dataset_map():
    data = tf.data.Dataset.from_tensor_slices([b"\x01\x00", b"\x02\x00"]).map(
        lambda b: tf.io.decode_raw(tf.io.decode_base64(tf.io.encode_base64(b)), tf.int16))
    assert [v.tolist() for v in data.as_numpy_iterator()] == [[1], [2]]


def test_matching_files_and_match_filenames_once(tmp_path):
    for name in ("b.txt", "a.txt", "c.csv", ".hidden.txt"):
        (tmp_path / name).write_text("x")
    folder = str(tmp_path)
    found = tf.io.matching_files(os.path.join(folder, "*.txt"))
    assert found.dtype == tf.string
    assert [os.path.basename(p) for p in found.numpy().tolist()] == [
        b".hidden.txt", b"a.txt", b"b.txt"]
    both = tf.io.matching_files([os.path.join(folder, "*.csv"), os.path.join(folder, "a*")])
    assert [os.path.basename(p) for p in both.numpy().tolist()] == [b"a.txt", b"c.csv"]
    assert tf.io.matching_files(os.path.join(folder, "*.zz")).shape == (0,)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"must be scalar or vector, but had shape: \[1,1\]"):
        tf.io.matching_files([[os.path.join(folder, "*")]])

    @tf.function
    def count(pattern):
        return tf.size(tf.io.matching_files(pattern))

    assert int(count(tf.constant(os.path.join(folder, "*.csv")))) == 1
    (tmp_path / "d.csv").write_text("x")
    assert int(count(tf.constant(os.path.join(folder, "*.csv")))) == 2  # looks again
    once = tf.io.match_filenames_once(os.path.join(folder, "*.csv"))
    assert isinstance(once, tf.Variable) and not once.trainable
    assert once.shape == (2,) and once.dtype == tf.string


def test_write_graph_text_and_binary(tmp_path):
    fn = tf.function(lambda x: x * 2.0 + 1.0)
    concrete = fn.get_concrete_function(tf.TensorSpec([2], tf.float32))
    path = tf.io.write_graph(concrete.graph, str(tmp_path / "new"), "g.pbtxt")
    assert path == str(tmp_path / "new" / "g.pbtxt")
    text = open(path).read()
    assert text.startswith('node {\n  name: "x"\n  op: "Placeholder"')
    assert 'op: "Mul"' in text and text.endswith("versions {\n  producer: 2474\n}\n")
    binary = tf.io.write_graph(concrete, str(tmp_path), "g.pb", as_text=False)
    data = open(binary, "rb").read()
    assert data.startswith(b"\n") and b"Placeholder" in data and b"AddV2" in data
    assert sorted(os.listdir(tmp_path)) == ["g.pb", "new"]  # no temporary files left
    with pytest.raises(TypeError, match="graph_data must be a tf.Graph or a GraphDef"):
        tf.io.write_graph("not a graph", str(tmp_path), "x.pbtxt")
