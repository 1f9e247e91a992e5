"""get_variable / variable_scope, collections and TF1 initializers (no real TF needed)."""
import numpy as np
import pytest

import minitf as tf

v1 = tf.compat.v1


def test_get_variable_creates_then_shares_by_scope():
    with tf.Graph().as_default():
        with v1.variable_scope("lin"):
            w = v1.get_variable("w", shape=[2], initializer=v1.ones_initializer())
            with pytest.raises(ValueError, match="Variable lin/w already exists, disallowed"):
                v1.get_variable("w", shape=[2])
        with v1.variable_scope("lin", reuse=True):
            assert v1.get_variable("w") is w
            with pytest.raises(ValueError, match="Variable lin/q does not exist"):
                v1.get_variable("q", shape=[1])
            with pytest.raises(ValueError, match="Trying to share variable lin/w"):
                v1.get_variable("w", shape=[3])
        with v1.variable_scope("lin", reuse=v1.AUTO_REUSE):
            assert v1.get_variable("w") is w
            fresh = v1.get_variable("fresh", shape=[1])
        assert fresh.name == "lin/fresh:0" and w.name == "lin/w:0"


def test_scopes_nest_names_and_pass_on_reuse_initializer_and_dtype():
    with tf.Graph().as_default():
        with v1.variable_scope("outer", initializer=v1.constant_initializer(3.0),
                               dtype=tf.float64) as outer:
            with v1.variable_scope("inner") as inner:
                k = v1.get_variable("k", shape=[2])
                plain = tf.Variable(1.0, name="plain")  # ops and tf.Variables get the prefix
            outer.reuse_variables()
            with v1.variable_scope("inner", reuse=False) as again:
                assert again.reuse is True  # reuse=False cannot switch off an outer reuse
                assert v1.get_variable("k") is k
        with v1.variable_scope(outer):
            assert v1.get_variable_scope().name == "outer"
        with v1.variable_scope(None, default_name="dense") as a, \
                v1.variable_scope(None, default_name="dense") as b:
            pass
    assert (inner.name, k.name, plain.name) == ("outer/inner", "outer/inner/k:0",
                                                "outer/inner/plain:0")
    assert k.dtype == tf.float64 and k.numpy().tolist() == [3.0, 3.0]
    assert (a.name, b.name) == ("dense", "dense/dense")  # b is made inside a
    with pytest.raises(TypeError, match="default_name is None"):
        v1.variable_scope(None)


def test_collections_list_the_graphs_variables():
    with tf.Graph().as_default():
        a = v1.get_variable("a", [1])
        b = tf.Variable(2.0, name="b", trainable=False)
        c = v1.get_variable("c", [1], collections=[v1.GraphKeys.LOCAL_VARIABLES])
        v1.add_to_collection("extras", "anything")
        v1.add_to_collections(["x", "y"], 1)
        assert v1.global_variables() == [a, b]
        assert v1.trainable_variables() == [a]
        assert v1.local_variables() == [c]
        assert v1.global_variables(scope="b") == [b]
        assert v1.get_collection("extras") == ["anything"] and v1.get_collection("y") == [1]
        assert v1.get_collection(v1.GraphKeys.TRAINABLE_VARIABLES) == [a]
    assert v1.global_variables() == [] and v1.trainable_variables() == []  # eager: none


def test_default_initializer_is_glorot_uniform_and_errors_teach():
    with tf.Graph().as_default():
        w = v1.get_variable("w", [30, 10])
        n = v1.get_variable("n", [2], dtype=tf.int32)
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            values, ints = sess.run([w, n])
        with pytest.raises(ValueError, match="did not get an initializer"):
            v1.get_variable("no_shape")
        with pytest.raises(ValueError, match="If initializer is a constant, do not specify shape"):
            v1.get_variable("c", [2], initializer=tf.constant([1.0, 2.0]))
    limit = np.sqrt(6.0 / 40)
    assert np.abs(values).max() <= limit and np.abs(values).max() > 0.5 * limit
    assert ints.tolist() == [0, 0]


def test_initializer_reruns_draw_again_and_initializers_only_touch_their_variables():
    with tf.Graph().as_default():
        r = v1.get_variable("r", [50], initializer=v1.random_normal_initializer())
        z = v1.get_variable("z", [2], initializer=v1.zeros_initializer())
        with v1.Session() as sess:
            sess.run(v1.variables_initializer([r]))
            first = sess.run(r)
            sess.run(r.initializer)
            assert not np.array_equal(first, sess.run(r))  # the initializer draws anew
            with pytest.raises(tf.errors.FailedPreconditionError, match="Could not find variable z"):
                sess.run(z)


@pytest.mark.parametrize("make, expected", [
    (lambda: v1.zeros_initializer(), [0.0, 0.0]),
    (lambda: v1.ones_initializer(dtype=tf.float64), [1.0, 1.0]),
    (lambda: v1.constant_initializer([4.0, 5.0]), [4.0, 5.0]),
    (lambda: v1.random_normal_initializer(mean=2.0, stddev=0.0), [2.0, 2.0]),
    (lambda: v1.random_uniform_initializer(1.0, 1.0), [1.0, 1.0]),
])
def test_v1_initializers_make_their_values(make, expected):
    init = make()
    assert init([2]).numpy().tolist() == expected
    assert init([2], dtype=tf.float16).dtype == tf.float16


def test_assign_functions_give_graph_ops_and_act_eagerly():
    v = tf.Variable(1.0)
    v1.assign(v, 4.0)
    v1.assign_sub(v, 1.0)
    assert float(v) == 3.0
    with tf.Graph().as_default():
        g = tf.Variable(1.0)
        op = v1.assign(g, 9.0)
        with v1.Session() as sess:
            assert sess.run(op) == 9.0 and sess.run(g) == 9.0  # the assignment initializes it
