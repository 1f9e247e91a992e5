"""TFRecord files: minitf reads the files real TF 2.21 wrote (tests/fixtures/tfrecord) and
writes the same bytes; damaged files raise DataLossError without trusting length fields."""
import json
import os
import struct
import zlib

import pytest

import minitf as tf
from minitf.io.tfrecord import frame, masked_crc32c

FIXTURES = os.path.join(os.path.dirname(__file__), "..", "fixtures", "tfrecord")
EXPECTED = json.load(open(os.path.join(FIXTURES, "expected.json")))
RECORDS = [bytes.fromhex(r) for r in EXPECTED["records"]]
FILES = {"": "examples.tfrecord", "GZIP": "examples_gzip.tfrecord",
         "ZLIB": "examples_zlib.tfrecord"}


def fixture(name):
    return os.path.join(FIXTURES, name)


def read(path, **kwargs):
    return list(tf.data.TFRecordDataset(path, **kwargs).as_numpy_iterator())


@pytest.mark.parametrize("compression", ["", "GZIP", "ZLIB"])
def test_reads_the_records_real_tf_wrote(compression):
    assert read(fixture(FILES[compression]), compression_type=compression) == RECORDS


@pytest.mark.parametrize("compression", ["", "GZIP", "ZLIB"])
def test_writes_the_bytes_real_tf_wrote(tmp_path, compression):
    path = tmp_path / "out.tfrecord"
    with tf.io.TFRecordWriter(str(path), tf.io.TFRecordOptions(compression)) as writer:
        for record in RECORDS:
            writer.write(record)
    assert path.read_bytes() == open(fixture(FILES[compression]), "rb").read()


def test_frame_layout_length_crc_data_crc():
    framed = frame(b"hello")
    assert framed[:8] == struct.pack("<Q", 5)
    assert struct.unpack("<I", framed[8:12])[0] == masked_crc32c(framed[:8])
    assert framed[12:17] == b"hello"
    # the masked CRC32C of b"hello", as real TF wrote it (see the module docstring)
    assert framed[17:] == b"\xbb\x1f\x1c\x19"


def test_filenames_as_list_tensor_and_dataset():
    path = fixture(FILES[""])
    assert read([path, path]) == RECORDS * 2
    assert read(tf.constant([path])) == RECORDS
    assert read(tf.data.Dataset.from_tensor_slices([path, path])) == RECORDS * 2


def test_parallel_reads_interleave_files():
    plain = fixture(FILES[""])
    got = read([plain, plain], num_parallel_reads=2)
    assert got == [r for r in RECORDS for _ in range(2)]


def test_element_spec_and_repr():
    ds = tf.data.TFRecordDataset(fixture(FILES[""]))
    assert ds.element_spec == tf.TensorSpec([], tf.string)
    assert repr(ds) == ("<TFRecordDatasetV2 element_spec=TensorSpec(shape=(), "
                        "dtype=tf.string, name=None)>")


def test_str_records_are_utf8_and_writer_refuses_after_close(tmp_path):
    path = str(tmp_path / "s.tfrecord")
    writer = tf.io.TFRecordWriter(path)
    writer.write("héllo")
    writer.close()
    writer.close()  # twice is fine
    with pytest.raises(tf.errors.FailedPreconditionError, match="Writer is closed"):
        writer.write(b"more")
    assert read(path) == ["héllo".encode()]


def test_file_appears_whole_at_close(tmp_path):
    path = tmp_path / "late.tfrecord"
    writer = tf.io.TFRecordWriter(str(path))
    writer.write(b"x")
    writer.flush()
    assert not path.exists()  # atomic: readers never see half a file
    writer.close()
    assert read(str(path)) == [b"x"]
    assert os.listdir(tmp_path) == ["late.tfrecord"]  # no temporary left behind


def test_bad_compression_and_missing_folder(tmp_path):
    with pytest.raises(ValueError, match='Not a valid compression_type: "BAD"'):
        tf.io.TFRecordWriter(str(tmp_path / "x"), options="BAD")
    with pytest.raises(ValueError, match='Not a valid compression_type'):
        tf.data.TFRecordDataset(str(tmp_path / "x"), compression_type="LZ4")
    with pytest.raises(tf.errors.NotFoundError, match="No such file or directory"):
        tf.io.TFRecordWriter(str(tmp_path / "no" / "x"))
    with pytest.raises(tf.errors.NotFoundError, match="No such file or directory"):
        read(str(tmp_path / "missing.tfrecord"))


def test_options_strings():
    assert tf.io.TFRecordOptions.get_compression_type_string(None) == ""
    assert tf.io.TFRecordOptions.get_compression_type_string("GZIP") == "GZIP"
    options = tf.io.TFRecordOptions("ZLIB", compression_level=9)
    assert tf.io.TFRecordOptions.get_compression_type_string(options) == "ZLIB"


def test_compression_level_changes_the_stream(tmp_path):
    record = b"abc" * 1000
    sizes = {}
    for level in (0, 9):
        path = tmp_path / f"l{level}"
        options = tf.io.TFRecordOptions("ZLIB", compression_level=level)
        with tf.io.TFRecordWriter(str(path), options) as writer:
            writer.write(record)
        sizes[level] = path.stat().st_size
        assert read(str(path), compression_type="ZLIB") == [record]
    assert sizes[0] > len(record) > sizes[9]


# --- damaged files: TF's DataLossError and message, plus what to do --------------------------
def damaged(tmp_path, data):
    path = tmp_path / "bad.tfrecord"
    path.write_bytes(data)
    return str(path)


def test_truncated_data_is_data_loss(tmp_path):
    data = frame(b"hello") + frame(b"world!")
    with pytest.raises(tf.errors.DataLossError, match="truncated record at 21' failed with "
                       "Read less bytes than requested .*cut short"):
        read(damaged(tmp_path, data[:-3]))


def test_file_ending_inside_a_header_ends_the_records(tmp_path):
    # TF 2.21 does the same: a partial 12-byte header is the end of the data
    assert read(damaged(tmp_path, frame(b"hello") + frame(b"x")[:8])) == [b"hello"]


def test_corrupted_data_and_header(tmp_path):
    data = bytearray(frame(b"hello"))
    data[13] ^= 1
    with pytest.raises(tf.errors.DataLossError, match=r"^corrupted record at 12 \[Op:"):
        read(damaged(tmp_path, bytes(data)))
    data = bytearray(frame(b"hello"))
    data[9] ^= 1
    with pytest.raises(tf.errors.DataLossError,
                       match=r"corrupted record at 0 \(Is this even a TFRecord file\?\)"):
        read(damaged(tmp_path, bytes(data)))


def test_huge_length_field_does_not_allocate(tmp_path):
    header = struct.pack("<Q", 2 ** 60)
    bad = header + struct.pack("<I", masked_crc32c(header)) + b"abc" * 100
    with pytest.raises(tf.errors.DataLossError, match="truncated record at 0"):
        read(damaged(tmp_path, bad))
    with pytest.raises(tf.errors.DataLossError, match="truncated record at 0' failed with EOF"):
        read(damaged(tmp_path, zlib.compress(bad)), compression_type="ZLIB")


def test_wrong_compression_is_named(tmp_path):
    with pytest.raises(tf.errors.DataLossError,
                       match="inflate\\(\\) failed with error -3: incorrect header check"):
        read(fixture(FILES[""]), compression_type="GZIP")
    with pytest.raises(tf.errors.DataLossError, match="corrupted record at 0"):
        read(fixture(FILES["GZIP"]))


def test_cut_compressed_stream(tmp_path):
    data = open(fixture(FILES["ZLIB"]), "rb").read()
    assert read(damaged(tmp_path, data[:-4]), compression_type="ZLIB") == RECORDS  # no adler32
    with pytest.raises(tf.errors.DataLossError, match="failed with EOF reached"):
        read(damaged(tmp_path, data[:-30]), compression_type="ZLIB")


def test_big_record_in_gzip_crosses_read_chunks(tmp_path):
    record = os.urandom(3 << 20)  # 3 MiB: more than one 1 MiB read
    path = str(tmp_path / "big.gz")
    with tf.io.TFRecordWriter(path, "GZIP") as writer:
        writer.write(record)
        writer.write(b"after")
    assert read(path, compression_type="GZIP") == [record, b"after"]


def test_both_crc32c_implementations_agree(monkeypatch):
    from minitf.io import tfrecord
    from minitf.summary.protos import tensorboard
    data = os.urandom(1000)
    fast = tfrecord.masked_crc32c(data)
    slow = tensorboard("compat.tensorflow_stub.pywrap_tensorflow").masked_crc32c(data)
    assert fast == slow
    monkeypatch.setitem(__import__("sys").modules, "google_crc32c", None)  # not installed
    monkeypatch.setattr(tfrecord, "_crc32c", None)
    assert tfrecord.masked_crc32c(data) == slow
    assert tfrecord._crc32c.__module__.startswith("tensorboard")


def test_dataset_of_a_path_tensor_inside_tf_function():
    @tf.function
    def total_bytes(path):
        n = tf.constant(0)
        for record in tf.data.TFRecordDataset(path, "GZIP"):
            n += tf.strings.length(record)
        return n

    path = tf.constant(fixture(FILES["GZIP"]))
    assert int(total_bytes(path)) == sum(len(r) for r in RECORDS)


def test_records_must_be_bytes(tmp_path):
    path = str(tmp_path / "w.tfrecord")
    with tf.io.TFRecordWriter(path) as writer:
        for bad in (tf.constant(b"x"), 3, memoryview(b"cd")):  # TF 2.21 refuses these too
            with pytest.raises(TypeError, match="incompatible function arguments"):
                writer.write(bad)
        writer.write(bytearray(b"ab"))
    assert read(path) == [b"ab"]
