"""tf.while_loop: eager and traced, shape invariants, maximum_iterations, gradients, errors."""
import numpy as np
import pytest
from gradcheck import check_grads
from test_control_flow_ops import check_grads_in_graph, graph, node_types, traced

import minitf as tf
from minitf.framework import errors

MODES = ["eager", "graph"]


def run(mode, f, *args):
    return traced(f, *args) if mode == "graph" else f(*args)


def power_loop(x, n=3):
    """x ** n by repeated multiplication: (i, v) -> (i + 1, v * x)."""
    return tf.while_loop(lambda i, v: i < n, lambda i, v: (i + 1, v * x),
                         (0, tf.ones_like(x)))[1]


# --- values -----------------------------------------------------------------------------------
@pytest.mark.parametrize("mode", MODES)
def test_while_loop_returns_the_structure_of_loop_vars(mode):
    out = run(mode, lambda: tf.while_loop(lambda i, t: i < 4, lambda i, t: (i + 1, t + i),
                                          (0, 0)))
    assert isinstance(out, tuple) and [int(v) for v in out] == [4, 6]
    out = run(mode, lambda: tf.while_loop(lambda x: x < 100.0, lambda x: [x * x],
                                          [tf.constant(2.0)]))
    assert isinstance(out, list) and out[0].numpy() == 256.0


@pytest.mark.parametrize("mode", MODES)
def test_nested_loop_vars_and_zero_iterations(mode):
    def f(x):
        return tf.while_loop(lambda s: s["i"] < 3, lambda s: [{"i": s["i"] + 1, "v": s["v"] * 2}],
                             [{"i": 0, "v": x}])

    assert run(mode, f, tf.constant(1.5))[0]["v"].numpy() == 12.0
    out = run(mode, lambda x: tf.while_loop(lambda i, v: i < 0, lambda i, v: (i + 1, v * 2),
                                            (0, x)), tf.constant(5.0))
    assert int(out[0]) == 0 and out[1].numpy() == 5.0


def test_the_trip_count_is_decided_when_the_graph_runs():
    f = tf.function(lambda n: tf.while_loop(lambda i, s: i < n, lambda i, s: (i + 1, s + i),
                                            (0, 0))[1], autograph=False)
    assert [int(f(tf.constant(n))) for n in (0, 1, 5)] == [0, 0, 10]
    assert f.experimental_get_tracing_count() == 1


def test_the_graph_has_one_while_node_with_cond_and_body():
    g = graph(lambda x: power_loop(x), tf.TensorSpec([2], tf.float32))
    assert node_types(g).count("StatelessWhile") == 1 and "Mul" not in node_types(g)
    text = str(g)
    assert "StatelessWhile[cond=while_cond, body=while_body](0, %0, x)" in text
    assert "graph while_body(i: int32[], v: float32[2], capture_x: float32[2])" in text


@pytest.mark.parametrize("mode", MODES)
def test_maximum_iterations(mode):
    def f(x, m):
        return tf.while_loop(lambda i, v: True, lambda i, v: (i + 1, v * 2.0), (0, x),
                             maximum_iterations=m)

    out = run(mode, f, tf.constant(1.0), tf.constant(3))
    assert int(out[0]) == 3 and out[1].numpy() == 8.0
    out = run(mode, lambda x: tf.while_loop(lambda v: v < 5.0, lambda v: (v + 1.0,), (x,),
                                            maximum_iterations=10), tf.constant(1.0))
    assert out[0].numpy() == 5.0


@pytest.mark.parametrize("mode", MODES)
def test_shape_invariants_let_a_shape_grow(mode):
    def f(x):
        return tf.while_loop(lambda i, v: i < 3, lambda i, v: (i + 1, tf.concat([v, v], 0)),
                             (0, x), shape_invariants=(tf.TensorShape([]),
                                                       tf.TensorShape([None])))

    assert run(mode, f, tf.constant([1.0]))[1].numpy().tolist() == [1.0] * 8
    g = graph(f, tf.TensorSpec([1], tf.float32))
    assert g.outputs[1].shape.as_list() == [None]


def test_gradient_when_a_loop_variable_changes_shape():
    def f(x):
        return tf.while_loop(lambda i, v: i < 2, lambda i, v: (i + 1, tf.concat([v, v * x], 0)),
                             (0, x), shape_invariants=(tf.TensorShape([]),
                                                       tf.TensorShape([None])))[1]

    # The states kept for the gradient have different shapes (1, 2, then 4 values).
    # (Inside the traced function, minitf's gradients of reduce_sum, Mul, ... do not yet
    # handle unknown dimensions, so this is checked through a called function.)
    check_grads(tf.function(f, autograph=False), np.array([0.7]))


def test_nested_loops_and_conds_inside_loops():
    def f(x):
        inner = lambda v: tf.while_loop(lambda j, w: j < 2, lambda j, w: (j + 1, w * 2.0),  # noqa
                                        (0, v))[1]
        return tf.while_loop(lambda i, v: i < 3, lambda i, v: (i + 1, inner(v)), (0, x))[1]

    assert traced(f, tf.constant(1.0)).numpy() == 64.0

    def g(x):
        return tf.while_loop(lambda i, v: i < 4, lambda i, v: (i + 1, tf.cond(
            i % 2 == 0, lambda: v * 2.0, lambda: v + 1.0)), (0, x))[1]

    assert traced(g, tf.constant(1.0)).numpy() == g(tf.constant(1.0)).numpy() == 7.0


def test_a_body_with_effects_runs_them_every_iteration():
    v = tf.Variable(0.0)

    @tf.function(autograph=False)
    def count(n):
        def body(i):
            v.assign_add(1.0)
            return (i + 1,)
        tf.while_loop(lambda i: i < n, body, (0,))
        return v.read_value()

    assert count(tf.constant(3)).numpy() == 3.0 and count(tf.constant(2)).numpy() == 5.0
    assert "While" in node_types(count.get_concrete_function(tf.constant(1)).graph)


# --- gradients ----------------------------------------------------------------------------------
def test_gradient_of_a_loop_eagerly_and_through_a_called_function():
    check_grads(lambda x: power_loop(x), np.array([0.5, -1.2]))
    check_grads(tf.function(lambda x: power_loop(x), autograph=False), np.array([0.5, -1.2]))


def test_gradient_built_inside_the_function_with_a_run_time_trip_count():
    def f(x, y):
        n = tf.cast(tf.reduce_sum(y) > 0, tf.int32) + 2  # 3 or 2 iterations
        return tf.while_loop(lambda i, v, w: i < n,
                             lambda i, v, w: (i + 1, tf.sin(v) * y + w, w * x),
                             (0, x, y))[1:]

    for y in ([0.3, 0.4], [-0.3, -0.4]):
        check_grads_in_graph(lambda x, y: tf.concat(f(x, y), 0), np.array([0.5, -1.2]),
                             np.array(y))


def test_gradient_reaches_variables_read_in_the_body():
    w = tf.Variable(np.array([0.5, -0.3]))

    def loss(x):
        return tf.reduce_sum(tf.while_loop(lambda i, h: i < 3, lambda i, h: (i + 1, tf.tanh(
            h * w + x)), (0, tf.zeros_like(x)))[1])

    with tf.GradientTape() as tape:
        expected = loss(tf.constant(np.array([0.2, 0.1])))
    expected_grad = tape.gradient(expected, w)

    @tf.function(autograph=False)
    def graph_grad(x):
        with tf.GradientTape() as tape:
            y = loss(x)
        return y, tape.gradient(y, w)

    y, g = graph_grad(tf.constant(np.array([0.2, 0.1])))
    np.testing.assert_allclose(y.numpy(), expected.numpy())
    np.testing.assert_allclose(g.numpy(), expected_grad.numpy(), rtol=1e-12)


def test_a_called_function_with_cond_and_loop_differentiates_to_its_variables():
    w = tf.Variable(np.array([0.5, -0.3]))

    def f(x):
        y = tf.cond(tf.reduce_sum(x) > 0, lambda: x * w, lambda: x + w)
        return tf.reduce_sum(tf.while_loop(lambda i, h: i < 3, lambda i, h: (i + 1, tf.tanh(
            h * w + y)), (0, y))[1])

    x = tf.constant(np.array([0.2, 0.1]))
    grads = []
    for fn in (f, tf.function(f, autograph=False)):  # eager, then an eager tape around a call
        with tf.GradientTape() as tape:
            y = fn(x)
        grads.append(tape.gradient(y, w).numpy())
    np.testing.assert_allclose(grads[1], grads[0], rtol=1e-12)


def test_gradient_through_nested_loops_and_conds():
    def f(x):
        def body(i, v):
            v = tf.cond(tf.reduce_sum(v) > 0, lambda: v * x, lambda: v + x)
            return i + 1, tf.while_loop(lambda j, u: j < 2, lambda j, u: (j + 1, tf.sin(u)),
                                        (0, v))[1]
        return tf.while_loop(lambda i, v: i < 3, body, (0, x))[1]

    check_grads_in_graph(f, np.array([0.4, 0.9]))
    check_grads(tf.function(f, autograph=False), np.array([0.4, 0.9]))


def test_second_derivatives():
    check_grads(lambda x: power_loop(x), np.array([0.5, -1.2]), order=2)
    # A called function's While node is differentiated by re-running its body under the
    # tapes, so higher derivatives work there too.
    check_grads(tf.function(lambda x: power_loop(x), autograph=False), np.array([0.5, -1.2]),
                order=2)

    def second(x):
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = power_loop(x)
            dy = inner.gradient(y, x)
        return dy, outer.gradient(dy, x)

    # Inside tf.function too: the first gradient then recomputes the loop states (a
    # loop inside its reverse loop), which the outer tape can differentiate.
    x = tf.constant([0.5, -1.2, 2.0])
    graph_d1, graph_d2 = tf.function(second, autograph=False)(x)
    eager_d1, eager_d2 = second(x)
    np.testing.assert_allclose(graph_d1.numpy(), eager_d1.numpy(), rtol=1e-6)
    np.testing.assert_allclose(graph_d2.numpy(), eager_d2.numpy(), rtol=1e-6)


def test_second_derivatives_through_a_loop_with_a_symbolic_trip_count():
    def second(x, n):
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = tf.while_loop(lambda i, v: i < n, lambda i, v: (i + 1, tf.sin(v) * x),
                                  (0, x))[1]
            dy = inner.gradient(y, x)
        return y, dy, outer.gradient(dy, x, unconnected_gradients="zero")

    traced = tf.function(second, input_signature=[tf.TensorSpec([]),
                                                  tf.TensorSpec([], tf.int32)])
    for n in (0, 1, 3):
        got = traced(tf.constant(0.7), tf.constant(n))
        want = second(tf.constant(0.7), n)
        for g, w in zip(got, want):
            np.testing.assert_allclose(g.numpy(), w.numpy(), rtol=1e-5)


def test_back_prop_false_stops_the_gradient():
    @tf.function(autograph=False)
    def f(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = tf.while_loop(lambda v: v < 10.0, lambda v: (v * 2.0,), (x,), back_prop=False)
        return tape.gradient(y[0], x, unconnected_gradients="zero")

    assert f(tf.constant(1.0)).numpy() == 0.0


def test_no_tape_no_accumulator():
    g = graph(lambda x: power_loop(x), tf.TensorSpec([], tf.float32))
    (node,) = [n for n in g.nodes if n.type == "StatelessWhile"]
    assert len(node.outputs) == 2  # only the loop variables: no hidden states

    def with_tape(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = power_loop(x)
        return tape.gradient(y, x)

    g = graph(with_tape, tf.TensorSpec([], tf.float32))
    forward = [n for n in g.nodes if n.type == "StatelessWhile"][0]
    assert [t.dtype for t in forward.outputs[2:]] == [tf.string, tf.int32]
    assert "AccumulatorRead" in str(g)


# --- TF's errors ----------------------------------------------------------------------------------
X = tf.constant(1.0)
GRAPH_ERRORS = [
    (lambda x: tf.while_loop(lambda i, v: i < 3, lambda i, v: (i + 1, tf.cast(v, tf.float64)),
                             (0, x)), TypeError,
     r"Loop var x:0 enters the loop with type <dtype: 'float32'> but has type "
     r"<dtype: 'float64'> after 1 iteration. x:0 type should remain constant."),
    (lambda x: tf.while_loop(lambda i, v: i < 3, lambda i, v: (i + 1, tf.concat([v, v], 0)),
                             (0, tf.reshape(x, [1]))), ValueError,
     r"Input tensor `Reshape:0` enters the loop with shape \(1,\), but has shape \(2,\) after "
     "one iteration. To allow the shape to vary across iterations, use the `shape_invariants`"),
    (lambda x: tf.while_loop(lambda i, v: i < 3, lambda i, v: (i + 1,), (0, x)), ValueError,
     "The two structures don't have the same nested structure"),
    (lambda x: tf.while_loop(lambda i, v: i, lambda i, v: (i + 1, v), (0, x)),
     errors.InvalidArgumentError, "Input 'input' passed int32 expected bool"),
    (lambda x: tf.while_loop(lambda i, v: i < 3, lambda i, v: (i + 1, v), (0, x),
                             shape_invariants=(tf.TensorShape([]),)), ValueError,
     "don't have the same nested structure"),
    (lambda x: tf.while_loop(lambda i, v: i < 3, lambda i, v: (i + 1, v), (0, x),
                             maximum_iterations=[3]), ValueError,
     "'maximum_iterations' must be a scalar"),
]


@pytest.mark.parametrize("f, error, message", GRAPH_ERRORS)
def test_traced_loop_errors_name_the_loop_variable(f, error, message):
    with pytest.raises(error, match=message):
        traced(f, X)


def test_eager_loops_check_structure_but_not_dtype_or_shape():
    out = tf.while_loop(lambda i, v: i < 3, lambda i, v: (i + 1, tf.cast(v, tf.float64)), (0, X))
    assert out[1].dtype == tf.float64  # as in TF: eagerly the loop is just Python
    with pytest.raises(ValueError, match="don't have the same nested structure"):
        tf.while_loop(lambda i, v: i < 3, lambda i, v: (i + 1,), (0, X))


@pytest.mark.parametrize("f, error, message", [
    (lambda: tf.while_loop(1, lambda i: i + 1, [0]), TypeError, "'cond' must be callable."),
    (lambda: tf.while_loop(lambda i: i < 1, 2, [0]), TypeError, "'body' must be callable."),
    (lambda: tf.while_loop(lambda i: i < 1, lambda i: (i,), [0], parallel_iterations=0),
     TypeError, "'parallel_iterations' must be a positive integer."),
    (lambda: tf.while_loop(lambda: True, lambda: (), []), ValueError,
     "'loop_vars' must be provided."),
])
def test_argument_errors(f, error, message):
    with pytest.raises(error, match=message):
        f()


def test_a_non_scalar_condition_fails_when_the_graph_runs():
    with pytest.raises(errors.InvalidArgumentError, match="must be a scalar, but it has shape"):
        traced(lambda x: tf.while_loop(lambda v: v < 3.0, lambda v: (v + 1.0,), (x,)),
               tf.constant([1.0, 2.0]))
