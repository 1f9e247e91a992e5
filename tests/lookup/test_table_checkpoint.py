"""A MutableHashTable or DenseHashTable in a tf.Module is saved and restored by
tf.train.Checkpoint under TF's keys (`<path>/.ATTRIBUTES/table-keys`, `table-values`);
a restore replaces the table's entries; string keys are stored without pickle."""
import json
import os

import numpy as np
import pytest

import minitf as tf

E = tf.lookup.experimental


def build(seed_key="zz"):
    m = tf.Module()
    m.table = E.MutableHashTable(tf.string, tf.int64, -1)
    m.table.insert([seed_key], tf.constant([9], tf.int64))
    m.vectors = E.MutableHashTable(tf.int64, tf.float32, [0.0, 0.0])
    m.dense = E.DenseHashTable(tf.int64, tf.int64, -1, 0, -1, initial_num_buckets=4)
    m.static = tf.lookup.StaticHashTable(tf.lookup.KeyValueTensorInitializer(["a"], [1]), -1)
    m.unsaved = E.MutableHashTable(tf.string, tf.int64, -1, checkpoint=False)
    m.v = tf.Variable(0.0)
    return m


def test_tables_round_trip_through_a_checkpoint(tmp_path):
    m = build()
    m.table.insert(["a", "b", "naïve"], tf.constant([1, 2, 3], tf.int64))
    m.table.remove(["zz"])
    m.vectors.insert(tf.constant([7], tf.int64), [[1.5, 2.5]])
    m.dense.insert(tf.constant([5], tf.int64), tf.constant([50], tf.int64))
    m.unsaved.insert(["x"], tf.constant([1], tf.int64))
    m.v.assign(3.0)
    path = tf.train.Checkpoint(m=m).write(str(tmp_path / "ck"))
    names = [name for name, _ in tf.train.list_variables(path)]
    assert names == [  # the keys real TF 2.21 writes for the same module
        "_CHECKPOINTABLE_OBJECT_GRAPH", "m/dense/.ATTRIBUTES/table-keys",
        "m/dense/.ATTRIBUTES/table-values", "m/table/.ATTRIBUTES/table-keys",
        "m/table/.ATTRIBUTES/table-values", "m/v/.ATTRIBUTES/VARIABLE_VALUE",
        "m/vectors/.ATTRIBUTES/table-keys", "m/vectors/.ATTRIBUTES/table-values"]
    assert dict(tf.train.list_variables(path))["m/dense/.ATTRIBUTES/table-keys"] == [4, 1]
    keys = tf.train.load_variable(path, "m/table/.ATTRIBUTES/table-keys")
    assert sorted(keys.tolist()) == [b"a", b"b", "naïve".encode()]

    fresh = build(seed_key="old")
    status = tf.train.Checkpoint(m=fresh).read(path)
    status.assert_consumed()
    got = fresh.table.lookup(tf.constant(["a", "naïve", "old", "zz"])).numpy().tolist()
    assert got == [1, 3, -1, -1]  # restoring replaces what the table held
    assert int(fresh.table.size()) == 3
    assert fresh.vectors.lookup(tf.constant([7, 8], tf.int64)).numpy().tolist() == [
        [1.5, 2.5], [0.0, 0.0]]
    assert fresh.dense.lookup(tf.constant([5], tf.int64)).numpy().tolist() == [50]
    assert int(fresh.dense.size()) == 1 and float(fresh.v) == 3.0


def test_a_table_assigned_after_restore_is_filled_then(tmp_path):
    m = build()
    m.table.insert(["late"], tf.constant([4], tf.int64))
    path = tf.train.Checkpoint(m=m).write(str(tmp_path / "ck"))
    holder = tf.Module()
    tf.train.Checkpoint(m=holder).read(path).expect_partial()
    holder.table = E.MutableHashTable(tf.string, tf.int64, -1)
    assert holder.table.lookup(tf.constant(["late", "zz"])).numpy().tolist() == [4, 9]


def test_damaged_string_tensor_is_data_loss(tmp_path):
    m = build()
    path = tf.train.Checkpoint(m=m).write(str(tmp_path / "ck"))
    index_path = path + ".index"
    index = json.loads(open(index_path).read())
    entry = index["tensors"]["m/table/.ATTRIBUTES/table-keys"]
    assert entry["dtype"] == "string" and entry["bytes"] == 2
    entry["bytes"] = 1  # the index now disagrees with the stored bytes
    with open(index_path, "w") as f:
        json.dump(index, f)
    with pytest.raises(tf.errors.DataLossError, match="table-keys"):
        tf.train.load_variable(path, "m/table/.ATTRIBUTES/table-keys")
    assert not any(name.endswith(".tmp") for name in os.listdir(tmp_path))
    assert np.asarray(tf.train.load_variable(path, "m/v/.ATTRIBUTES/VARIABLE_VALUE")) == 0.0
