"""tf.Module: variable tracking, TF's order, submodules, names and name scopes."""
import pytest

import minitf as tf


class Leaf(tf.Module):
    def __init__(self, name=None):
        super().__init__(name=name)
        self.z = tf.Variable(1.0, name="z")
        self.a = [tf.Variable(2.0, name="a0"),
                  {"k": tf.Variable(3.0, name="ak", trainable=False),
                   "b": tf.Variable(4.0, name="ab")}]


class Outer(tf.Module):
    def __init__(self):
        super().__init__()
        self.sub2 = Leaf(name="sub_two")
        self.sub1 = Leaf()
        self.lst = [Leaf(name="in_list"), (Leaf(name="in_tuple"),)]
        self.w = tf.Variable(5.0, name="w")


def test_order_matches_tensorflow():
    # verified against TF 2.21: own leaves in sorted attribute order (dicts by key), then
    # each submodule in the order found
    o = Outer()
    leaf = ["a0:0", "ab:0", "ak:0", "z:0"]
    assert [v.name for v in o.variables] == ["w:0"] + leaf * 4
    assert [v.name for v in o.trainable_variables] == ["w:0"] + ["a0:0", "ab:0", "z:0"] * 4
    assert [v.name for v in o.non_trainable_variables] == ["ak:0"] * 4
    assert [m.name for m in o.submodules] == ["in_list", "in_tuple", "leaf", "sub_two"]


def test_shared_objects_are_listed_once_and_cycles_stop():
    m = tf.Module()
    v = tf.Variable(1.0)
    m.a, m.b = v, [v]
    child = tf.Module(name="child")
    child.parent = m
    m.child = child
    assert len(m.variables) == 1
    assert [s.name for s in m.submodules] == ["child"]


def test_nested_submodules_depth_first_after_own_children():
    root, a, b, c = (tf.Module(name=n) for n in ("root", "a", "b", "c"))
    a.c = c
    root.a, root.b = a, b
    assert [s.name for s in root.submodules] == ["a", "b", "c"]


def test_default_name_and_invalid_name():
    class MyMLP2Block(tf.Module):
        pass

    assert MyMLP2Block().name == "my_mlp2_block"
    with pytest.raises(ValueError, match="'bad name' is not a valid module name"):
        tf.Module(name="bad name")


def test_name_scope_and_with_name_scope():
    class Scoped(tf.Module):
        @tf.Module.with_name_scope
        def scope(self):
            with tf.name_scope("x") as s:
                return s

    m = Scoped(name="outer")
    assert m.name_scope.name == "outer/"
    assert m.scope() == "outer/x/"
    with m.name_scope as scope:
        assert scope == "outer/"
        inner = tf.Module(name="inner")
    assert inner.name_scope.name == "outer/inner/"
    with tf.name_scope("a"):
        with tf.name_scope("b/") as absolute:
            assert absolute == "b/"


def test_name_scope_rejects_non_strings():
    with pytest.raises(TypeError, match="must be a string"):
        tf.name_scope(3)


def test_variables_found_through_tuples_and_gradients_flow():
    m = tf.Module()
    m.pair = (tf.Variable([1.0, 2.0]), tf.Variable(3.0))
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(m.pair[0] * m.pair[1])
    grads = tape.gradient(y, m.trainable_variables)
    assert [g.numpy().tolist() for g in grads] == [[3.0, 3.0], 3.0]
