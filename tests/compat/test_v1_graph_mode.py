"""The graph-mode switch, default graphs, and the rest of tf.compat (v1, v2,
dimension_at_index); no real TF needed."""
import threading

import pytest

import minitf as tf
from minitf.compat.v1.graph_mode import graph_mode
from minitf.framework import context

v1 = tf.compat.v1


def test_disable_eager_execution_sends_ops_to_the_default_graph_until_enabled():
    v1.disable_eager_execution()
    try:
        assert not tf.executing_eagerly() and not v1.executing_eagerly()
        graph = v1.get_default_graph()
        x = v1.placeholder(tf.float32, [], name="x")
        y = x + 1.0
        assert x.graph is graph and y.graph is graph
        with v1.Session() as sess:
            assert sess.run(y, {x: 1.0}) == 2.0
        v1.disable_eager_execution()  # twice is once
        assert list(context.graph_stack) == [graph]
    finally:
        v1.enable_eager_execution()
    assert tf.executing_eagerly() and not context.graph_stack
    v1.enable_eager_execution()  # already eager: nothing happens
    assert tf.executing_eagerly()


def test_v2_behavior_switches_are_the_eager_switch():
    v1.disable_v2_behavior()
    try:
        assert not tf.executing_eagerly()
    finally:
        v1.enable_v2_behavior()
    assert tf.executing_eagerly()


def test_graph_mode_helper_restores_eager_mode_even_after_an_error():
    with pytest.raises(ZeroDivisionError):
        with graph_mode() as graph:
            assert v1.get_default_graph() is graph and not tf.executing_eagerly()
            1 / 0
    assert tf.executing_eagerly() and not context.graph_stack
    with graph_mode() as again:
        assert again is not graph  # each use starts from a fresh default graph


def test_graph_mode_is_per_thread():
    seen = []
    with graph_mode():
        worker = threading.Thread(target=lambda: seen.append(tf.executing_eagerly()))
        worker.start()
        worker.join()
        assert not tf.executing_eagerly()
    assert seen == [True]


def test_reset_default_graph():
    before = v1.get_default_graph()
    v1.reset_default_graph()
    assert v1.get_default_graph() is not before
    with tf.Graph().as_default():
        with pytest.raises(AssertionError, match="Do not use tf.reset_default_graph"):
            v1.reset_default_graph()
    with graph_mode() as graph:
        v1.placeholder(tf.float32)
        v1.reset_default_graph()
        fresh = v1.get_default_graph()
        assert fresh is not graph and not fresh.nodes and context.graph_stack[-1] is fresh


def test_placeholder_needs_a_graph_and_graph_tensors_are_hashable():
    with pytest.raises(RuntimeError, match="is not compatible with eager execution"):
        v1.placeholder(tf.float32)
    with tf.Graph().as_default():
        x = v1.placeholder(tf.float32, name="x")
        assert {x: 1}[x] == 1 and str(x) == 'Tensor("x:0", dtype=float32)'
    traced = []
    tf.function(lambda a: traced.append(a) or a)(tf.constant(1.0))
    with pytest.raises(TypeError, match="Tensor is unhashable"):
        hash(traced[0])  # a function's tensors stay unhashable, as in TF


def test_tf_graph_is_compat_v1_graph_and_the_default_inside_as_default():
    assert tf.Graph is v1.Graph
    graph = tf.Graph()
    with graph.as_default():
        assert v1.get_default_graph() is graph and not tf.executing_eagerly()
    assert tf.executing_eagerly()


def test_compat_v2_is_the_tf2_api_and_dimension_at_index_gives_dimensions():
    assert tf.compat.v2.constant is tf.constant and tf.compat.v2.keras is tf.keras
    d = tf.compat.dimension_at_index(tf.TensorShape([3, None]), 0)
    assert isinstance(d, v1.Dimension) and d.value == 3 and repr(d) == "Dimension(3)"
    assert tf.compat.dimension_at_index(tf.TensorShape([3, None]), -1).value is None
    assert tf.compat.dimension_at_index(tf.TensorShape(None), 7).value is None
    assert tf.compat.dimension_value(d) == 3 and int(d) == 3 and str(v1.Dimension(None)) == "?"
    assert (v1.Dimension(3) == 3, v1.Dimension(None) == 3, v1.Dimension(3) != 4) == (True, None,
                                                                                    True)
    with pytest.raises(AssertionError, match="takes a tf.TensorShape"):
        tf.compat.dimension_at_index([3], 0)
    with pytest.raises(ValueError, match="must be >= 0"):
        v1.Dimension(-1)


def test_names_shared_with_tf_and_a_clear_error_for_the_rest():
    assert v1.matmul is tf.matmul and v1.float32 is tf.float32 and "matmul" in dir(v1)
    with pytest.raises(AttributeError, match="holds only the teaching subset") as info:
        v1.contrib  # noqa: B018
    assert "dir(tf.compat.v1)" in str(info.value)


def test_tf1_spellings_of_tf2_functions():
    x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
    assert v1.reduce_mean(x, reduction_indices=[0], keep_dims=True).numpy().tolist() == [[2.0, 3.0]]
    assert float(v1.reduce_max(x)) == 4.0 and float(v1.reduce_min(x, axis=1)[1]) == 3.0
    with pytest.raises(ValueError, match="Cannot specify both 'keep_dims' and 'keepdims'"):
        v1.reduce_sum(x, keepdims=True, keep_dims=True)
    v1.set_random_seed(3)
    first = v1.random_normal([2]).numpy()
    v1.set_random_seed(3)
    assert (v1.random_normal([2]).numpy() == first).all()
    assert v1.random_uniform([2], 5.0, 5.0).numpy().tolist() == [5.0, 5.0]
    assert v1.truncated_normal([1], stddev=0.0).numpy().tolist() == [0.0]
    assert v1.to_float(tf.constant(2)).dtype == tf.float32 and float(v1.log(1.0)) == 0.0
    with pytest.raises(TypeError, match="Expected Tensor's shape"):
        v1.constant([1.0, 2.0], shape=[3], verify_shape=True)
    assert v1.Variable(2.0, name="v").name == "v:0"
    with v1.name_scope(None, default_name="blk") as scope:
        assert scope == "blk/"
    with pytest.raises(ValueError, match="At least one of name"):
        v1.name_scope(None)


def test_submodules_share_tf2s_objects_where_tf_does():
    assert v1.nn.relu is tf.nn.relu and v1.math.squared_difference is tf.math.squared_difference
    assert v1.linalg.inv is tf.linalg.inv and v1.random.normal is tf.random.normal
    assert v1.errors.InvalidArgumentError is tf.errors.InvalidArgumentError
    assert v1.dtypes.float32 is tf.float32 and "relu" in dir(v1.nn)
    assert v1.random.set_random_seed is v1.set_random_seed
    with pytest.raises(AttributeError, match="minitf.compat.v1.nn' has no attribute 'softmax'"):
        v1.nn.softmax  # noqa: B018 - TF1's softmax(dim=...) is not TF2's: not shared in TF
