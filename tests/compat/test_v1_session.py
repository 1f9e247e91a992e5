"""tf.compat.v1.Session on minitf's graphs: feeds, nested fetches, pruning, errors, and a
TF1 program that trains exactly like its TF2 rewrite (no real TF needed here)."""
import collections

import numpy as np
import pytest

import minitf as tf
import v1_programs

v1 = tf.compat.v1
XS = np.array([[0.0], [1.0], [2.0], [3.0]], np.float32)
YS = np.array([[1.0], [3.2], [4.9], [7.1]], np.float32)


def test_linear_regression_program_follows_gradient_descent_by_hand():
    result = v1_programs.run("linear_regression", tf, np)
    w, b = 0.5, 0.0
    for step in range(5):
        err = XS[:, 0] * w + b - YS[:, 0]
        assert result["losses"][step] == pytest.approx(np.mean(err ** 2), rel=1e-5)
        w, b = w - 0.05 * np.mean(2 * err * XS[:, 0]), b - 0.05 * np.mean(2 * err)
        assert result["weights"][step] == pytest.approx([w, b], rel=1e-5)
    assert result["names"] == ["linear/w:0", "linear/b:0"]
    assert result["init"] == ["init", "NoOp"] and result["train_op"] == ["GradientDescent", "NoOp"]


def test_tf1_session_program_equals_tf2_function_step_for_step():
    with tf.Graph().as_default():
        x = v1.placeholder(tf.float32, [None, 1])
        y = v1.placeholder(tf.float32, [None, 1])
        w = v1.get_variable("w", [1, 1], initializer=v1.constant_initializer(0.5))
        b = v1.get_variable("b", [1], initializer=v1.zeros_initializer())
        loss = tf.reduce_mean(tf.square(tf.matmul(x, w) + b - y))
        train = v1.train.GradientDescentOptimizer(0.05).minimize(loss)
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            tf1 = [sess.run([train, loss, w, b], {x: XS, y: YS})[1:] for _ in range(4)]

    w2, b2 = tf.Variable([[0.5]]), tf.Variable([0.0])

    @tf.function
    def train_step(x, y):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(tf.square(tf.matmul(x, w2) + b2 - y))
        dw, db = tape.gradient(loss, [w2, b2])
        w2.assign_sub(0.05 * dw)
        b2.assign_sub(0.05 * db)
        return loss

    for loss1, w1, b1 in tf1:
        loss2 = train_step(tf.constant(XS), tf.constant(YS))
        assert loss1 == loss2.numpy()  # the same ops in the same order: equal bits
        np.testing.assert_array_equal(w1, w2.numpy())
        np.testing.assert_array_equal(b1, b2.numpy())


def test_fetches_keep_their_structure():
    Pair = collections.namedtuple("Pair", "first second")
    with tf.Graph().as_default():
        x = v1.placeholder(tf.int32, [2], name="x")
        doubled = x * 2
        v = tf.Variable(7)
        init = v1.global_variables_initializer()
        with v1.Session() as sess:
            assert sess.run(init) is None
            out = sess.run({"pair": Pair(x, doubled), "t": (doubled.op, [v]), "c": tf.constant(1.5),
                            "name": "x:0"}, feed_dict={x: [1, 2]})
    assert isinstance(out["pair"], Pair) and out["pair"].second.tolist() == [2, 4]
    assert out["t"][0] is None and isinstance(out["t"], tuple) and out["t"][1] == [7]
    assert out["c"] == 1.5 and out["name"].tolist() == [1, 2]
    assert type(out["t"][1][0]).__name__ == "int32"  # a 0-d result is a NumPy scalar, as in TF


def test_a_run_computes_only_what_the_fetches_need():
    with tf.Graph().as_default():
        v = tf.Variable(1.0)
        bump = v1.assign_add(v, 10.0)
        x = v1.placeholder(tf.float32, [])
        unused = x * 3.0  # needs x, but nothing fetched needs it
        read = v * 2.0
        with v1.Session() as sess:
            sess.run(v1.global_variables_initializer())
            assert sess.run(read) == 2.0  # neither the assignment nor the placeholder ran
            sess.run(bump)
            assert sess.run(read) == 22.0
            assert sess.run(read, feed_dict={read: 5.0}) == 5.0  # any tensor can be fed
            assert sess.run(unused, {x: 2.0}) == 6.0


def test_each_session_holds_its_own_variable_values():
    with tf.Graph().as_default():
        v = tf.Variable(1.0)
        bump = v1.assign_add(v, 1.0)
        init = v1.global_variables_initializer()
        first, second = v1.Session(), v1.Session()
        first.run(init)
        first.run(bump)
        with pytest.raises(tf.errors.FailedPreconditionError, match="Could not find variable"):
            second.run(v)
        second.run(init)
        assert (first.run(v), second.run(v)) == (2.0, 1.0)
        first.close()
        with pytest.raises(RuntimeError, match="Attempted to use a closed Session."):
            first.run(v)
    assert float(v) == 1.0  # the eager value was never touched


def test_feed_errors_are_tf_errors():
    with tf.Graph().as_default():
        x = v1.placeholder(tf.float32, [None, 3], name="x")
        y = x + 1.0
        sess = v1.Session()
        with pytest.raises(tf.errors.InvalidArgumentError) as info:
            sess.run(y)
        assert str(info.value).startswith(
            "You must feed a value for placeholder tensor 'x' with dtype float and shape [?,3]")
        with pytest.raises(ValueError, match=r"Cannot feed value of shape \(2,\) for Tensor "
                                             r"x:0, which has shape \(None, 3\)"):
            sess.run(y, {x: [1.0, 2.0]})
        with pytest.raises(TypeError, match="The value of a feed cannot be a tf.Tensor"):
            sess.run(y, {x: y})
        with pytest.raises(TypeError, match="Argument `fetch` = 3 has invalid type"):
            sess.run(3)
    with tf.Graph().as_default():
        elsewhere = tf.constant(1.0) + 1.0
    with pytest.raises(ValueError, match="is not an element of this graph"):
        sess.run(elsewhere)


def test_with_session_sets_the_default_session_and_graph():
    graph = tf.Graph()
    with graph.as_default():
        c = tf.constant(2.0) * 4.0
    sess = v1.Session(graph=graph)
    assert v1.get_default_session() is None
    with sess as entered:
        assert entered is sess and v1.get_default_session() is sess
        assert v1.get_default_graph() is graph and not tf.executing_eagerly()
        assert entered.run(c) == 8.0
    assert v1.get_default_session() is None and tf.executing_eagerly()
    with pytest.raises(RuntimeError, match="closed"):
        sess.run(c)


def test_interactive_session_is_default_until_closed():
    with tf.Graph().as_default():
        sess = v1.InteractiveSession()
        assert v1.get_default_session() is sess
        assert sess.run(tf.constant(3) + 1) == 4
        sess.close()
        assert v1.get_default_session() is None


def test_placeholder_with_default_runs_with_or_without_a_feed():
    with tf.Graph().as_default():
        x = v1.placeholder_with_default(tf.constant([1.0, 2.0]), shape=[None])
        total = tf.reduce_sum(x)
        with v1.Session() as sess:
            assert sess.run(total) == 3.0
            assert sess.run(total, {x: [1.0, 1.0, 1.0, 1.0]}) == 4.0
        with pytest.raises(ValueError, match="incompatible"):
            v1.placeholder_with_default(tf.constant([1.0]), shape=[2])


def test_a_session_runs_control_flow_and_string_tensors():
    with tf.Graph().as_default():
        x = v1.placeholder(tf.float32, [])
        y = tf.cond(x > 0.0, lambda: x * 10.0, lambda: -x)
        name = v1.placeholder(tf.string, [])
        hello = tf.strings.join(["hi ", name])
        with v1.Session() as sess:
            assert (sess.run(y, {x: 2.0}), sess.run(y, {x: -3.0})) == (20.0, 3.0)
            assert sess.run(hello, {name: "ada"}) == b"hi ada"


def test_tensor_eval_and_operation_run_use_the_default_session():
    with tf.Graph().as_default():
        x = v1.placeholder(tf.float32, [], name="x")
        y = x * 2.0
        v = tf.Variable(1.0)
        bump = v1.assign_add(v, 1.0).op
        with pytest.raises(ValueError, match="No default session is registered"):
            y.eval({x: 1.0})
        with pytest.raises(ValueError, match="Cannot execute operation using `run\\(\\)`"):
            bump.run()
        with v1.Session() as sess:
            v1.global_variables_initializer().run()
            assert y.eval({x: 2.0}) == 4.0 and bump.run() is None and v.eval() == 2.0
        other = v1.Session()
        other.run(v.initializer)
        assert y.eval(feed_dict={x: 3.0}, session=other) == 6.0 and v.eval(session=other) == 1.0


def test_tf1_graphs_give_variables_unique_names_as_ops():
    with tf.Graph().as_default():
        v1.placeholder(tf.float32, [], name="x")
        a, b, c = tf.Variable(1.0), tf.Variable(1.0), tf.Variable(1.0, name="x")
        w = v1.get_variable("w", [1])
        d = tf.Variable(1.0, name="w")
        with tf.name_scope("s"):
            q1, q2 = tf.Variable(1.0, name="q"), tf.Variable(1.0, name="q")
        with v1.variable_scope("lin"), tf.name_scope("extra"):
            k = v1.get_variable("k", [1])  # get_variable ignores tf.name_scope
    names = [t.name for t in (a, b, c, w, d, q1, q2, k)]
    assert names == ["Variable:0", "Variable_1:0", "x_1:0", "w:0", "w_1:0", "s/q:0", "s/q_1:0",
                     "lin/k:0"]
    assert [tf.Variable(1.0).name, tf.Variable(1.0).name] == ["Variable:0", "Variable:0"]  # eager
