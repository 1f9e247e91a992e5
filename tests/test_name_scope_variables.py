"""`tf.Variable` names carry the open `tf.name_scope`s, as in eager TF 2.21."""
import threading

import minitf as tf
from minitf.framework import context


def test_variable_in_name_scope_is_prefixed():
    with tf.name_scope("outer"):
        v = tf.Variable(1.0, name="q")
        default = tf.Variable(1.0)
        with tf.name_scope("inner"):
            nested = tf.Variable(2.0, name="q")
    # verified against TF 2.21
    assert (v.name, default.name, nested.name) == ("outer/q:0", "outer/Variable:0",
                                                   "outer/inner/q:0")


def test_outside_any_scope_names_are_plain():
    assert tf.Variable(1.0, name="w").name == "w:0"
    with tf.name_scope("s"):
        pass
    assert tf.Variable(1.0, name="w").name == "w:0"


def test_absolute_scope_replaces_the_current_one():
    with tf.name_scope("a"), tf.name_scope("b/"):
        assert tf.Variable(1.0, name="v").name == "b/v:0"


def test_module_with_name_scope_names_variables():
    class Dense(tf.Module):
        @tf.Module.with_name_scope
        def build(self):
            self.w = tf.Variable(1.0, name="w")
            return self.w

    layer = Dense(name="dense")
    assert layer.build().name == "dense/w:0"
    assert context.current_name_scope() == ""


def test_name_scopes_are_per_thread():
    names = []
    entered, done = threading.Event(), threading.Event()

    def worker():
        entered.wait()
        names.append(tf.Variable(1.0, name="t").name)
        done.set()

    thread = threading.Thread(target=worker)
    thread.start()
    with tf.name_scope("main_only"):
        entered.set()
        done.wait(5)
    thread.join()
    assert names == ["t:0"]
