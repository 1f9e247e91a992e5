"""Damaged, truncated, mismatched and hostile checkpoint files: each raises TF's error class
with a message naming the file and the problem; a failed save leaves the previous
checkpoint intact and restorable."""
import json
import os
import zipfile

import numpy as np
import pytest

import minitf as tf
from minitf.train import checkpoint_file

DATA = ".data-00000-of-00001"


@pytest.fixture
def good(tmp_path):
    """A checkpoint of v = [1, 2] (float32) at tmp_path/a; returns the prefix."""
    return tf.train.Checkpoint(v=tf.Variable([1.0, 2.0])).write(str(tmp_path / "a"))


def edit_index(prefix, change):
    with open(prefix + ".index") as f:
        index = json.load(f)
    change(index)
    with open(prefix + ".index", "w") as f:
        json.dump(index, f)


def rewrite_member(prefix, array):
    """Replace the data's only member with `array` (allow_pickle=True: a hostile file);
    the index is told the new size and checksum, so only the header check remains."""
    import hashlib
    with zipfile.ZipFile(prefix + DATA, "w") as zf:
        with zf.open("t0.npy", "w") as f:
            np.lib.format.write_array(f, array, allow_pickle=True)
    raw = open(prefix + DATA, "rb").read()
    edit_index(prefix, lambda ix: ix.update(data_size=len(raw),
                                             data_sha256=hashlib.sha256(raw).hexdigest()))


def truncate(path, keep=0.5):
    raw = open(path, "rb").read()
    open(path, "wb").write(raw[:int(len(raw) * keep)])


def flip_bit(path, offset):
    raw = bytearray(open(path, "rb").read())
    raw[offset] ^= 1
    open(path, "wb").write(bytes(raw))


BAD_FILES = [
    # (what, how to damage the prefix, error class, words the message must contain)
    ("no index", lambda p: os.remove(p + ".index"),
     tf.errors.NotFoundError, "Failed to find any matching files"),
    ("no data", lambda p: os.remove(p + DATA),
     tf.errors.NotFoundError, "No such file or directory"),
    ("truncated data", lambda p: truncate(p + DATA),
     tf.errors.DataLossError, "the data file has"),
    ("bit-flipped data", lambda p: flip_bit(p + DATA, 100),
     tf.errors.DataLossError, "checksum does not match"),
    ("truncated index", lambda p: truncate(p + ".index"),
     tf.errors.DataLossError, "not valid JSON"),
    ("garbage index", lambda p: open(p + ".index", "wb").write(b"\x00\xffgarbage"),
     tf.errors.DataLossError, "not valid JSON"),
    ("not a minitf index", lambda p: open(p + ".index", "w").write('{"nodes": []}'),
     tf.errors.DataLossError, "not a minitf checkpoint index"),
    ("future version", lambda p: edit_index(p, lambda ix: ix.update(version=99)),
     tf.errors.DataLossError, "unsupported index version 99"),
    ("data from another save", lambda p: tf.train.Checkpoint(
        v=tf.Variable([3.0, 4.0])).write(p + "_other") and os.replace(p + "_other" + DATA,
                                                                        p + DATA),
     tf.errors.DataLossError, "checksum does not match"),
    ("declared shape larger than the data", lambda p: edit_index(
        p, lambda ix: ix["tensors"]["v/.ATTRIBUTES/VARIABLE_VALUE"].update(shape=[10 ** 9])),
     tf.errors.DataLossError, "but the index declares float32 [1000000000]"),
    ("negative dimension", lambda p: edit_index(
        p, lambda ix: ix["tensors"]["v/.ATTRIBUTES/VARIABLE_VALUE"].update(shape=[-2])),
     tf.errors.DataLossError, "is malformed"),
    ("object dtype declared", lambda p: edit_index(
        p, lambda ix: ix["tensors"]["v/.ATTRIBUTES/VARIABLE_VALUE"].update(dtype="object")),
     tf.errors.DataLossError, "is malformed"),
    ("pickled member", lambda p: rewrite_member(p, np.array([{"x": 1}, None], dtype=object)),
     tf.errors.DataLossError, "is stored as object"),
    ("member of another dtype", lambda p: rewrite_member(p, np.array([1, 2], np.int64)),
     tf.errors.DataLossError, "is stored as int64 [2] but the index declares float32 [2]"),
    ("graph names a missing node", lambda p: edit_index(
        p, lambda ix: ix["object_graph"]["nodes"][0]["children"].append(
            {"local_name": "x", "node_id": 99})),
     tf.errors.DataLossError, "has a bad child"),
    ("graph names a missing tensor", lambda p: edit_index(
        p, lambda ix: ix["object_graph"]["nodes"][1]["attributes"][0].update(
            checkpoint_key="nope")),
     tf.errors.DataLossError, "names a tensor the index does not hold"),
]


@pytest.mark.parametrize("what, damage, error, words", BAD_FILES,
                         ids=[row[0] for row in BAD_FILES])
def test_bad_file(good, what, damage, error, words):
    damage(good)
    with pytest.raises(error) as info:  # the reader: load_checkpoint(...).get_tensor(...)
        tf.train.load_checkpoint(good).get_tensor("v/.ATTRIBUTES/VARIABLE_VALUE")
    message = str(info.value)
    assert words in message
    assert os.path.dirname(good) in message  # names the file
    v = tf.Variable([0.0, 0.0])
    # restoring fails too (a declared shape that differs from the variable's is refused
    # even before the data is looked at: TF's ValueError for a shape mismatch)
    with pytest.raises(ValueError if what.startswith("declared shape") else error):
        tf.train.Checkpoint(v=v).read(good)
    assert v.numpy().tolist() == [0.0, 0.0]  # nothing half-restored


def test_index_larger_than_the_bound_is_refused_before_reading(good, monkeypatch):
    monkeypatch.setattr(checkpoint_file, "MAX_INDEX_BYTES", 100)
    with pytest.raises(tf.errors.DataLossError, match="more than the 100 an index can be"):
        tf.train.load_checkpoint(good)


def test_a_failed_save_leaves_the_previous_checkpoint_intact(tmp_path, monkeypatch):
    v = tf.Variable(1.0)
    ckpt = tf.train.Checkpoint(v=v)
    first = ckpt.save(str(tmp_path / "ck"))
    v.assign(2.0)

    def broken_savez(f, **arrays):
        f.write(b"PK half a zip")
        raise OSError("disk full")

    monkeypatch.setattr(np, "savez", broken_savez)
    with pytest.raises(OSError, match="disk full"):
        ckpt.save(str(tmp_path / "ck"))
    monkeypatch.undo()
    assert sorted(os.listdir(tmp_path)) == ["checkpoint", "ck-1" + DATA, "ck-1.index"]
    assert tf.train.latest_checkpoint(str(tmp_path)) == first
    assert ckpt.save_counter.numpy() == 1
    ckpt.restore(first).assert_consumed()
    assert v.numpy() == 1.0
    assert ckpt.save(str(tmp_path / "ck")).endswith("ck-2")  # numbering goes on


def test_a_crash_between_data_and_index_is_detected_not_misread(good, monkeypatch):
    """Overwriting a prefix: new data in place but the old index -> DataLossError."""
    real_write = checkpoint_file.atomic_write_bytes

    def crash_on_index(path, writer):
        if path.endswith(".index"):
            raise KeyboardInterrupt
        real_write(path, writer)

    monkeypatch.setattr(checkpoint_file, "atomic_write_bytes", crash_on_index)
    with pytest.raises(KeyboardInterrupt):
        tf.train.Checkpoint(v=tf.Variable([7.0, 8.0])).write(good)
    monkeypatch.undo()
    assert [f for f in os.listdir(os.path.dirname(good)) if f.startswith(".")] == []
    with pytest.raises(tf.errors.DataLossError, match="checksum does not match"):
        tf.train.Checkpoint(v=tf.Variable([0.0, 0.0])).read(good)
