"""TextLineDataset, list_files, make_csv_dataset, read_file and decode_csv."""
import collections
import os

import pytest

import minitf as tf

D = tf.data.Dataset


@pytest.fixture
def files(tmp_path):
    for i in range(3):
        (tmp_path / f"f{i}.txt").write_text(f"a{i}\nb{i}\r\nc{i}\n")
    (tmp_path / "d.csv").write_text("x,y,name,label\n1,2.5,foo,0\n3,,bar,1\n5,6.5,baz,0\n7,8,qux,1\n")
    return tmp_path


def test_text_lines_and_interleaved_files(files):
    names = [str(files / f"f{i}.txt") for i in range(3)]
    ds = tf.data.TextLineDataset(names[:2])
    assert repr(ds) == ("<TextLineDatasetV2 element_spec=TensorSpec(shape=(), dtype=tf.string, "
                        "name=None)>")
    assert list(ds.as_numpy_iterator()) == [b"a0", b"b0", b"c0", b"a1", b"b1", b"c1"]
    mixed = D.from_tensor_slices(names).interleave(tf.data.TextLineDataset, cycle_length=2,
                                                   block_length=2)
    # verified against TF 2.21
    assert list(mixed.as_numpy_iterator()) == [b"a0", b"b0", b"a1", b"b1", b"c0", b"c1",
                                               b"a2", b"b2", b"c2"]
    parallel = tf.data.TextLineDataset(names, num_parallel_reads=3)
    assert sorted(parallel.as_numpy_iterator()) == sorted(
        tf.data.TextLineDataset(names).as_numpy_iterator())


def test_list_files(files):
    listed = D.list_files(str(files / "*.txt"), shuffle=False)
    assert [os.path.basename(f) for f in listed.as_numpy_iterator()] == \
        [b"f0.txt", b"f1.txt", b"f2.txt"]
    assert int(D.list_files(str(files / "*.txt")).cardinality()) == 3
    assert sorted(D.list_files(str(files / "*.txt"), seed=1).as_numpy_iterator()) == \
        list(listed.as_numpy_iterator())
    with pytest.raises(tf.errors.InvalidArgumentError, match="No files matched pattern"):
        D.list_files(str(files / "*.zzz"))


def test_make_csv_dataset(files):
    ds = tf.data.experimental.make_csv_dataset(str(files / "d.csv"), batch_size=2,
                                               label_name="label", shuffle=False, num_epochs=1)
    # verified against TF 2.21 (types inferred: int32, float32, string)
    assert repr(ds).startswith("<_PrefetchDataset element_spec=(OrderedDict([('x', TensorSpec("
                               "shape=(None,), dtype=tf.int32")
    batches = list(ds)
    features, label = batches[0]
    assert isinstance(features, collections.OrderedDict) and list(features) == ["x", "y", "name"]
    assert features["y"].numpy().tolist() == [2.5, 0.0] and label.numpy().tolist() == [0, 1]
    assert len(batches) == 2
    forever = tf.data.experimental.make_csv_dataset(str(files / "d.csv"), batch_size=2)
    assert int(forever.cardinality()) == -1
    chosen = tf.data.experimental.make_csv_dataset(
        str(files / "d.csv"), 3, shuffle=False, num_epochs=1, select_columns=["name", "x"],
        column_defaults=["", 0])
    assert list(chosen.element_spec) == ["x", "name"]
    renamed = tf.data.experimental.make_csv_dataset(
        str(files / "d.csv"), 2, shuffle=False, num_epochs=1, column_names=["a", "b", "c", "d"])
    assert next(iter(renamed))["d"].numpy().tolist() == [0, 1]
    with pytest.raises(ValueError, match="`label_name` provided must be one of the columns"):
        tf.data.experimental.make_csv_dataset(str(files / "d.csv"), 2, label_name="nope")


def test_read_and_decode_csv(files):
    assert tf.io.read_file(str(files / "f0.txt")).numpy() == b"a0\nb0\r\nc0\n"
    out = tf.io.decode_csv(["1,a,3", "2,b,"], record_defaults=[[0], [""], [0.5]])
    # verified against TF 2.21
    assert [t.numpy().tolist() for t in out] == [[1, 2], [b"a", b"b"], [3.0, 0.5]]
    assert [t.dtype for t in out] == [tf.int32, tf.string, tf.float32]
    sel = tf.io.decode_csv(["1;a;3"], record_defaults=[[0], [0.5]], field_delim=";",
                           select_cols=[0, 2])
    assert [t.numpy().tolist() for t in sel] == [[1], [3.0]]
    quoted = tf.io.decode_csv('"a""b",2', record_defaults=[[""], [0]])
    assert quoted[0].numpy() == b'a"b'
    na = tf.io.decode_csv("1.5,2", record_defaults=[[0.0], [0]], na_value="2")
    assert na[1].numpy() == 0
    wide = tf.io.decode_csv("1,2", record_defaults=[[0.0], [tf.constant(0, tf.float64)]])
    assert wide[1].dtype == tf.float64
    with pytest.raises(ValueError, match="select_cols is not strictly increasing"):
        tf.io.decode_csv("1,2", record_defaults=[[0.0], [0]], select_cols=[1, 0])


def test_csv_parsing_inside_map_is_traced(files):
    lines = tf.data.TextLineDataset(str(files / "d.csv")).skip(1)
    parsed = lines.map(lambda line: tf.io.decode_csv(line, [[0], [0.0], [""], [0]]))
    assert [t.dtype for t in parsed.element_spec] == [tf.int32, tf.float32, tf.string, tf.int32]
    rows = list(parsed.as_numpy_iterator())
    assert rows[1] == (3, 0.0, b"bar", 1)


def test_make_csv_dataset_bad_rows_name_file_and_line(tmp_path):
    # verified against TF 2.21: "Field 1 in record is not a valid int32: x" and
    # "Expect 2 fields but have 1 in record" (InvalidArgumentError); minitf adds where.
    bad = tmp_path / "bad.csv"
    bad.write_text("a,b\n1,2\n3,x\n")
    make = tf.data.experimental.make_csv_dataset
    ds = make(str(bad), 1, column_defaults=[0, 0], shuffle=False, num_epochs=1)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Field 1 in record is not a valid int32: x .*bad.csv line 3: '3,x'"):
        list(ds)
    short = tmp_path / "short.csv"
    short.write_text("a,b\n1,2\n3\n")
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match=r"Expect 2 fields but have 1 in record .*short.csv line 3"):
        list(make(str(short), 1, column_defaults=[0, 0], shuffle=False, num_epochs=1))
    required = make(str(tmp_path / "short.csv"), 1, column_defaults=[0, tf.constant([], tf.int32)],
                    shuffle=False, num_epochs=1)
    with pytest.raises(tf.errors.InvalidArgumentError, match="Expect 2 fields"):
        list(required)
    bad.write_text("a,b\n1,2\n3,x\n4,5\n")
    skipped = make(str(bad), 1, column_defaults=[0, 0], shuffle=False, num_epochs=1,
                   ignore_errors=True)
    assert [f["b"].numpy().tolist() for f in skipped] == [[2], [5]]  # the bad row is dropped
    # verified against TF 2.21: ValueError when nothing matches
    with pytest.raises(ValueError, match="No files match `file_pattern`"):
        make(str(tmp_path / "nope*.csv"), 1)


def test_make_csv_dataset_defaults_header_and_parallel_reads(tmp_path):
    (tmp_path / "a.csv").write_text('n,score,name,lab\n1,0.5,ann,0\n2,,bob,1\n3,2.5,"c,d",0\n')
    make = tf.data.experimental.make_csv_dataset
    # verified against TF 2.21
    ds = make(str(tmp_path / "a.csv"), 3, label_name="lab", shuffle=False, num_epochs=1,
              column_defaults=[[0], [9.5], ["z"], [0]])
    (features, label), = list(ds)
    assert features["score"].numpy().tolist() == [0.5, 9.5, 2.5]
    assert features["name"].numpy().tolist() == [b"ann", b"bob", b"c,d"]
    assert label.numpy().tolist() == [0, 1, 0]
    raw = make(str(tmp_path / "a.csv"), 4, column_names=["a", "b", "c", "e"], header=False,
               column_defaults=["", "", "", ""], shuffle=False, num_epochs=1)
    assert next(iter(raw))["b"].numpy().tolist() == [b"score", b"0.5", b"", b"2.5"]
    for i in range(3):
        (tmp_path / f"p{i}.csv").write_text(f"v\n{i}\n{i + 10}\n")
    both = make(str(tmp_path / "p*.csv"), 1, shuffle=False, num_epochs=1, num_parallel_reads=3)
    # verified against TF 2.21: with parallel reads the files' records interleave
    assert [int(f["v"].numpy()[0]) for f in both] == [0, 1, 2, 10, 11, 12]
    two = make(str(tmp_path / "p*.csv"), 1, shuffle=False, num_epochs=1, num_parallel_reads=2)
    assert [int(f["v"].numpy()[0]) for f in two] == [0, 1, 10, 11, 2, 12]
