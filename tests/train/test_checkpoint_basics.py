"""tf.train.Checkpoint write/read of variables and tf.Modules with nested containers,
and tf.train.load_checkpoint / list_variables / load_variable (no real TF needed)."""
import os

import numpy as np
import pytest

import minitf as tf


class Linear(tf.Module):
    def __init__(self, units):
        super().__init__()
        self.w = tf.Variable(tf.ones([2, units]), name="w")
        self.b = tf.Variable(tf.zeros([units]), name="b")


class Net(tf.Module):
    def __init__(self):
        super().__init__()
        self.layers = [Linear(2), Linear(1)]
        self.d = {"a": tf.Variable(1.0), "z": [tf.Variable(2), Linear(3)]}
        self.shared = self.layers[0].w
        self.t = (tf.Variable(3.0),)


# The keys real TF 2.21 saves for the same objects (listed with tf.train.list_variables;
# tests/train/test_real_tf_keys.py checks this against TF itself).
NET_KEYS = [
    ("_CHECKPOINTABLE_OBJECT_GRAPH", []),
    ("model/d/a/.ATTRIBUTES/VARIABLE_VALUE", []),
    ("model/d/z/0/.ATTRIBUTES/VARIABLE_VALUE", []),
    ("model/d/z/1/b/.ATTRIBUTES/VARIABLE_VALUE", [3]),
    ("model/d/z/1/w/.ATTRIBUTES/VARIABLE_VALUE", [2, 3]),
    ("model/layers/0/b/.ATTRIBUTES/VARIABLE_VALUE", [2]),
    ("model/layers/1/b/.ATTRIBUTES/VARIABLE_VALUE", [1]),
    ("model/layers/1/w/.ATTRIBUTES/VARIABLE_VALUE", [2, 1]),
    ("model/shared/.ATTRIBUTES/VARIABLE_VALUE", [2, 2]),
    ("model/t/0/.ATTRIBUTES/VARIABLE_VALUE", []),
    ("save_counter/.ATTRIBUTES/VARIABLE_VALUE", []),
    ("v/.ATTRIBUTES/VARIABLE_VALUE", []),
]


def scramble(net, seed):
    rng = np.random.default_rng(seed)
    for v in net.variables:
        v.assign(rng.integers(-9, 9, size=v.shape).astype(v.dtype.as_numpy_dtype))


def test_write_lists_tf_keys_and_shapes(tmp_path):
    ckpt = tf.train.Checkpoint(model=Net(), v=tf.Variable(5.0))
    path = ckpt.write(str(tmp_path / "w"))
    assert path == str(tmp_path / "w")
    assert sorted(os.listdir(tmp_path)) == ["w.data-00000-of-00001", "w.index"]
    # save_counter exists only after a save (or reading it), as in TF
    assert tf.train.list_variables(path) == [k for k in NET_KEYS if k[0][:4] != "save"]
    saved = ckpt.save(str(tmp_path / "s" / "ck"))
    assert tf.train.list_variables(saved) == NET_KEYS
    assert ckpt.save_counter.numpy() == 1


def test_shared_variable_is_saved_once_under_its_shortest_path(tmp_path):
    net = Net()
    path = tf.train.Checkpoint(model=net).write(str(tmp_path / "s"))
    keys = [k for k, _ in tf.train.list_variables(path)]
    assert "model/shared/.ATTRIBUTES/VARIABLE_VALUE" in keys
    assert "model/layers/0/w/.ATTRIBUTES/VARIABLE_VALUE" not in keys
    # the graph still records both paths to it: layers/0 has a child 'w' -> the same node
    graph = tf.train.load_checkpoint(path).get_tensor("_CHECKPOINTABLE_OBJECT_GRAPH")
    assert isinstance(graph, bytes) and b'"local_name": "w"' in graph


def test_read_restores_every_variable_exactly(tmp_path):
    source = Net()
    scramble(source, 1)
    path = tf.train.Checkpoint(model=source, v=tf.Variable(5.0)).write(str(tmp_path / "r"))
    target, v = Net(), tf.Variable(0.0)
    scramble(target, 2)
    status = tf.train.Checkpoint(model=target, v=v).read(path)
    status.assert_consumed()
    for a, b in zip(source.variables, target.variables):
        np.testing.assert_array_equal(a.numpy(), b.numpy())
        assert a.dtype == b.dtype
    assert v.numpy() == 5.0
    # the shared variable is still shared (one object, restored once)
    assert target.shared is target.layers[0].w


def test_root_can_be_a_bare_variable_and_dtypes_survive(tmp_path):
    ints = tf.Variable([1, 2, 3], dtype=tf.int64)
    flags = tf.Variable([True, False])
    halves = tf.Variable([0.5], dtype=tf.float16)
    path = tf.train.Checkpoint(i=ints, f=flags, h=halves).save(str(tmp_path / "d"))
    reader = tf.train.load_checkpoint(path)
    dtypes = reader.get_variable_to_dtype_map()
    assert dtypes["i/.ATTRIBUTES/VARIABLE_VALUE"] == tf.int64
    assert dtypes["f/.ATTRIBUTES/VARIABLE_VALUE"] == tf.bool
    assert dtypes["h/.ATTRIBUTES/VARIABLE_VALUE"] == tf.float16
    assert dtypes["_CHECKPOINTABLE_OBJECT_GRAPH"] == tf.string
    assert dtypes["save_counter/.ATTRIBUTES/VARIABLE_VALUE"] == tf.int64
    ints.assign([0, 0, 0])
    tf.train.Checkpoint(i=ints, f=flags, h=halves).restore(path).assert_consumed()
    assert ints.numpy().tolist() == [1, 2, 3]


def test_reader_api(tmp_path):
    net = Net()
    path = tf.train.Checkpoint(model=net).write(str(tmp_path / "x"))
    reader = tf.train.load_checkpoint(path)
    key = "model/layers/1/w/.ATTRIBUTES/VARIABLE_VALUE"
    assert reader.has_tensor(key) and not reader.has_tensor("nope")
    np.testing.assert_array_equal(reader.get_tensor(key), net.layers[1].w.numpy())
    assert reader.get_variable_to_shape_map()[key] == [2, 1]
    np.testing.assert_array_equal(tf.train.load_variable(path, key), np.ones([2, 1]))
    np.testing.assert_array_equal(tf.train.load_variable(path, key + ":0"), np.ones([2, 1]))
    with pytest.raises(tf.errors.NotFoundError, match="Key nope not found in checkpoint"):
        reader.get_tensor("nope")


def test_load_checkpoint_of_a_directory_reads_its_latest(tmp_path):
    v = tf.Variable(1.0)
    ckpt = tf.train.Checkpoint(v=v)
    ckpt.save(str(tmp_path / "ckpt"))
    v.assign(2.0)
    ckpt.save(str(tmp_path / "ckpt"))
    assert tf.train.load_variable(str(tmp_path), "v/.ATTRIBUTES/VARIABLE_VALUE") == 2.0
    (tmp_path / "empty").mkdir()
    with pytest.raises(ValueError, match="Couldn't find 'checkpoint' file"):
        tf.train.load_checkpoint(str(tmp_path / "empty"))


def test_missing_checkpoint_is_not_found(tmp_path):
    missing = str(tmp_path / "nope")
    for call in (lambda: tf.train.load_checkpoint(missing),
                 lambda: tf.train.list_variables(missing),
                 lambda: tf.train.Checkpoint(v=tf.Variable(1.0)).read(missing)):
        with pytest.raises(tf.errors.NotFoundError, match="Failed to find any matching files"):
            call()
    with pytest.raises(tf.errors.NotFoundError, match="Error when restoring from checkpoint"):
        tf.train.Checkpoint(v=tf.Variable(1.0)).restore(missing)


def test_checkpoint_refuses_plain_values():
    with pytest.raises(ValueError, match="was expecting v to be a trackable object"):
        tf.train.Checkpoint(v=3)


def test_checkpoint_children_are_attributes():
    net = Net()
    ckpt = tf.train.Checkpoint(model=net)
    assert ckpt.model is net
    assert ckpt.save_counter.dtype == tf.int64 and ckpt.save_counter.numpy() == 0


def test_shape_and_dtype_mismatch_errors(tmp_path):
    path = tf.train.Checkpoint(v=tf.Variable([1.0, 2.0])).write(str(tmp_path / "m"))
    with pytest.raises(ValueError, match=r"Received incompatible tensor with shape \(2,\) when "
                       r"attempting to restore variable with shape \(3,\)"):
        tf.train.Checkpoint(v=tf.Variable([1.0, 2.0, 3.0])).read(path)
    with pytest.raises(tf.errors.InvalidArgumentError,
                       match="expected dtype int32 does not equal original dtype float"):
        tf.train.Checkpoint(v=tf.Variable([1, 2])).read(path)


def test_nested_checkpoints_and_keys_with_dots_and_slashes(tmp_path):
    inner = tf.train.Checkpoint(v=tf.Variable(1.0))
    m = tf.Module()
    m.d = {"a.b/c": tf.Variable(2.0)}
    outer = tf.train.Checkpoint(inner=inner, m=m, listed=[tf.Variable(3.0)])
    path = outer.write(str(tmp_path / "n"))
    keys = [k for k, _ in tf.train.list_variables(path)]
    assert "inner/v/.ATTRIBUTES/VARIABLE_VALUE" in keys
    assert "m/d/a..b.Sc/.ATTRIBUTES/VARIABLE_VALUE" in keys  # TF's escaping
    assert "listed/0/.ATTRIBUTES/VARIABLE_VALUE" in keys
    m.d["a.b/c"].assign(0.0)
    outer.read(path).assert_consumed()
    assert m.d["a.b/c"].numpy() == 2.0


def test_root_children_are_the_checkpoints_children(tmp_path):
    """Checkpoint(root=m, extra=v): m's attributes become top-level keys (TF 2.21 lists the
    same keys for the same objects)."""
    m = tf.Module()
    m.w = tf.Variable(1.0)
    ckpt = tf.train.Checkpoint(root=m, extra=tf.Variable(3.0))
    m.sub = tf.Module()  # added after the Checkpoint was made: still saved
    m.sub.b = tf.Variable([2.0])
    path = ckpt.write(str(tmp_path / "r"))
    assert tf.train.list_variables(path) == [
        ("_CHECKPOINTABLE_OBJECT_GRAPH", []), ("extra/.ATTRIBUTES/VARIABLE_VALUE", []),
        ("sub/b/.ATTRIBUTES/VARIABLE_VALUE", [1]), ("w/.ATTRIBUTES/VARIABLE_VALUE", [])]
    assert ckpt.w is m.w and ckpt.extra.numpy() == 3.0
    m.sub.b.assign([0.0])
    ckpt.read(path).assert_consumed()
    assert m.sub.b.numpy().tolist() == [2.0]
    with pytest.raises(ValueError, match="Cannot create a Checkpoint with keyword argument w "
                       "if root.w already exists."):  # TF 2.21's words
        tf.train.Checkpoint(root=m, w=tf.Variable(0.0))


def test_a_dict_with_non_string_keys_is_refused_not_skipped(tmp_path):
    m = tf.Module()
    m.d = {1: tf.Variable(1.0)}
    with pytest.raises(ValueError, match="The wrapped dictionary contains a non-string key "
                       "which maps to a trackable object"):  # TF 2.21's words
        tf.train.Checkpoint(m=m).write(str(tmp_path / "k"))
    assert not os.listdir(tmp_path)
    m.d = {1: "plain data is fine"}
    tf.train.Checkpoint(m=m).write(str(tmp_path / "k"))
