"""tf.cond, tf.switch_case and tf.case: eager and traced, gradients, TF's errors."""
import numpy as np
import pytest
from gradcheck import check_grads, numerical_gradient

import minitf as tf
from minitf.framework import errors


def graph(f, *specs):
    """The traced graph of `f` for these input specs."""
    return tf.function(f, autograph=False).get_concrete_function(*specs).graph


def node_types(g):
    return [n.type for n in g.nodes]


def check_grads_in_graph(f, *args, rtol=1e-5, atol=1e-6):
    """Gradients built *inside* tf.function (a tape in the traced body) match differences."""
    args = [np.asarray(a, np.float64) for a in args]
    w = np.random.default_rng(3).uniform(0.5, 1.5, np.shape(f(*map(tf.constant, args))))

    @tf.function(autograph=False)
    def grads(*xs):
        with tf.GradientTape() as tape:
            for x in xs:
                tape.watch(x)
            y = tf.reduce_sum(f(*xs) * w)
        return tape.gradient(y, list(xs), unconnected_gradients="zero")

    def value(arrays):
        return float(tf.reduce_sum(f(*map(tf.constant, arrays)) * w))

    got = grads(*map(tf.constant, args))
    for i, g in enumerate(got):
        np.testing.assert_allclose(g.numpy(), numerical_gradient(value, args, i),
                                   rtol=rtol, atol=atol, err_msg=f"argument {i}")


# --- tf.cond: values --------------------------------------------------------------------------
def test_eager_cond_calls_only_the_chosen_branch():
    called = []
    x = tf.constant(3.0)
    out = tf.cond(x > 0, lambda: called.append("t") or x * 2, lambda: called.append("f") or -x)
    assert out.numpy() == 6.0 and called == ["t"]
    assert tf.cond(False, lambda: 1, lambda: 2) == 2  # Python values pass through eagerly
    assert tf.cond(tf.constant(1.0), lambda: "yes", lambda: "no") == "yes"  # truthiness, as TF


@pytest.mark.parametrize("value, expected", [(3.0, 6.0), (-3.0, 3.0), (0.0, -0.0)])
def test_traced_cond_runs_the_branch_chosen_at_run_time(value, expected):
    f = tf.function(lambda x: tf.cond(x > 0.0, lambda: x * 2.0, lambda: -x), autograph=False)
    assert f(tf.constant(value)).numpy() == expected
    assert f.experimental_get_tracing_count() == 1


def test_traced_cond_traces_both_branches_once():
    traced = []

    @tf.function(autograph=False)
    def f(x):
        return tf.cond(x > 0, lambda: traced.append("t") or x, lambda: traced.append("f") or -x)

    f(tf.constant(1.0)), f(tf.constant(-1.0))
    assert sorted(traced) == ["f", "t"]


def test_the_graph_has_one_if_node_and_prints_its_branches():
    g = graph(lambda x: tf.cond(x > 0.0, lambda: x * 2.0, lambda: -x),
              tf.TensorSpec([], tf.float32))
    assert node_types(g).count("StatelessIf") == 1 and "Mul" not in node_types(g)
    text = str(g)
    assert "StatelessIf[then_branch=cond_true, else_branch=cond_false](%0, x)" in text
    assert "graph cond_true(capture_x: float32[])" in text and "Neg(capture_x)" in text


def test_a_branch_with_effects_makes_a_stateful_if():
    v = tf.Variable(1.0)
    g = graph(lambda x: tf.cond(x > 0.0, lambda: v.assign_add(x).read_value(), lambda: x),
              tf.TensorSpec([], tf.float32))
    assert "If" in node_types(g) and "StatelessIf" not in node_types(g)


def test_structures_python_values_and_none():
    f = tf.function(lambda x: tf.cond(x > 0, lambda: {"a": x, "b": (1.0, x)},
                                      lambda: {"a": -x, "b": (2.0, x * 3)}), autograph=False)
    out = f(tf.constant(-2.0))
    assert out["a"].numpy() == 2.0 and out["b"][0].numpy() == 2.0 and out["b"][1].numpy() == -6
    g = tf.function(lambda x: tf.cond(x > 0, lambda: None, lambda: None), autograph=False)
    assert g(tf.constant(1.0)) is None


def test_output_shape_is_the_most_specific_shape_of_both_branches():
    specs = (tf.TensorSpec([], tf.bool),)
    g = graph(lambda p: tf.cond(p, lambda: tf.ones([2]), lambda: tf.zeros([3])), *specs)
    assert g.outputs[0].shape.as_list() == [None]
    g = graph(lambda p: tf.cond(p, lambda: tf.ones([2, 3]), lambda: tf.zeros([2])), *specs)
    assert g.outputs[0].shape.rank is None
    g = graph(lambda p: tf.cond(p, lambda: tf.ones([2, 3]), lambda: tf.zeros([2, 3])), *specs)
    assert g.outputs[0].shape.as_list() == [2, 3]


def test_branches_capture_outer_tensors_and_read_variables_when_run():
    v = tf.Variable(10.0)
    f = tf.function(lambda x, y: tf.cond(x > y, lambda: x - y + v, lambda: y * 2.0),
                    autograph=False)
    assert f(tf.constant(5.0), tf.constant(1.0)).numpy() == 14.0
    v.assign(20.0)
    assert f(tf.constant(5.0), tf.constant(1.0)).numpy() == 24.0
    assert f(tf.constant(0.0), tf.constant(1.0)).numpy() == 2.0


def test_nested_cond_and_a_predicate_of_shape_one():
    def sign(x):
        return tf.cond(x > 0, lambda: tf.constant(1), lambda: tf.cond(
            x < 0, lambda: tf.constant(-1), lambda: tf.constant(0)))

    f = tf.function(sign, autograph=False)
    assert [int(f(tf.constant(v))) for v in (2.0, -2.0, 0.0)] == [1, -1, 0]
    h = tf.function(lambda p: tf.cond(p, lambda: 1.0, lambda: 2.0), autograph=False)
    assert h(tf.constant([False])).numpy() == 2.0


# --- tf.cond: gradients -----------------------------------------------------------------------
@pytest.mark.parametrize("x0", [0.7, -0.4])
def test_cond_gradient_eager_and_through_a_called_function(x0):
    def f(x, y):
        return tf.cond(tf.reduce_sum(x) > 0, lambda: tf.sin(x) * y, lambda: x * x + y * y)

    args = np.full([2], x0), np.array([0.5, -1.5])
    check_grads(f, *args)
    check_grads(tf.function(f, autograph=False), *args)  # If node replayed under the tape


@pytest.mark.parametrize("x0", [0.7, -0.4])
def test_cond_gradient_built_inside_the_function(x0):
    def f(x, y):
        return tf.cond(tf.reduce_sum(x) > 0, lambda: tf.sin(x) * y, lambda: x * x)

    check_grads_in_graph(f, np.full([2], x0), np.array([0.5, -1.5]))


def test_cond_gradient_reaches_variables_and_nested_conds():
    w = tf.Variable(np.array([1.5, -0.5]))

    @tf.function(autograph=False)
    def loss(x):
        with tf.GradientTape() as tape:
            y = tf.cond(x > 0, lambda: tf.cond(x > 1, lambda: w * x * x, lambda: w * 3.0),
                        lambda: tf.exp(w))
            total = tf.reduce_sum(y)
        return tape.gradient(total, w)

    np.testing.assert_allclose(loss(tf.constant(2.0, tf.float64)).numpy(), [4.0, 4.0])
    np.testing.assert_allclose(loss(tf.constant(0.5, tf.float64)).numpy(), [3.0, 3.0])
    np.testing.assert_allclose(loss(tf.constant(-1.0, tf.float64)).numpy(), np.exp([1.5, -0.5]))


def test_cond_second_order_gradient():
    check_grads(lambda x: tf.cond(tf.reduce_sum(x) > 0, lambda: x * x * x, lambda: tf.sin(x)),
                np.array([0.3, 0.9]), order=2)

    @tf.function(autograph=False)
    def second(x):
        with tf.GradientTape() as outer:
            outer.watch(x)
            with tf.GradientTape() as inner:
                inner.watch(x)
                y = tf.cond(x > 0, lambda: x * x * x, lambda: x * x)
            dy = inner.gradient(y, x)
        return outer.gradient(dy, x)

    assert second(tf.constant(2.0)).numpy() == 12.0 and second(tf.constant(-2.0)).numpy() == 2.0


def test_integer_outputs_and_unused_branch_inputs_get_no_or_zero_gradient():
    @tf.function(autograph=False)
    def f(x, y):
        with tf.GradientTape() as tape:
            tape.watch([x, y])
            out, count = tf.cond(x > 0, lambda: (x * 2.0, tf.constant(1)),
                                 lambda: (y * 3.0, tf.constant(2)))
        return tape.gradient(out, [x, y], unconnected_gradients="zero")

    gx, gy = f(tf.constant(1.0), tf.constant(1.0))
    assert (gx.numpy(), gy.numpy()) == (2.0, 0.0)
    gx, gy = f(tf.constant(-1.0), tf.constant(1.0))
    assert (gx.numpy(), gy.numpy()) == (0.0, 3.0)


# --- tf.switch_case and tf.case -------------------------------------------------------------------
BRANCHES = [lambda: tf.constant(10.0), lambda: tf.constant(20.0), lambda: tf.constant(30.0)]


@pytest.mark.parametrize("mode", ["eager", "graph"])
@pytest.mark.parametrize("index, expected", [(0, 10.0), (2, 30.0), (7, 30.0), (-1, 30.0)])
def test_switch_case_out_of_range_runs_the_last_branch(mode, index, expected):
    f = lambda i: tf.switch_case(i, BRANCHES)  # noqa: E731
    f = tf.function(f, autograph=False) if mode == "graph" else f
    assert f(tf.constant(index)).numpy() == expected


@pytest.mark.parametrize("mode", ["eager", "graph"])
def test_switch_case_default_dicts_and_pairs(mode):
    def f(i):
        return (tf.switch_case(i, BRANCHES[:2], default=lambda: tf.constant(-1.0)),
                tf.switch_case(i, {1: BRANCHES[0], 0: BRANCHES[1]}),
                tf.switch_case(i, [(0, BRANCHES[2]), (1, BRANCHES[0])]))

    f = tf.function(f, autograph=False) if mode == "graph" else f
    assert [float(v) for v in f(tf.constant(1))] == [20.0, 10.0, 10.0]
    assert [float(v) for v in f(tf.constant(5))] == [-1.0, 10.0, 10.0]


def test_switch_case_is_one_case_node_with_a_gradient():
    g = graph(lambda i, x: tf.switch_case(i, [lambda: x, lambda: x * x, lambda: tf.sin(x)]),
              tf.TensorSpec([], tf.int32), tf.TensorSpec([2], tf.float32))
    assert node_types(g).count("StatelessCase") == 1
    for index in range(3):
        def f(x, index=index):
            return tf.switch_case(tf.constant(index), [lambda: x, lambda: x * x,
                                                       lambda: tf.sin(x)])
        check_grads_in_graph(f, np.array([0.3, -0.8]))
        check_grads(tf.function(f, autograph=False), np.array([0.3, -0.8]))


@pytest.mark.parametrize("mode", ["eager", "graph"])
@pytest.mark.parametrize("value, expected", [(-3, -1), (5, 1), (2, 0)])
def test_case_takes_the_first_true_predicate(mode, value, expected):
    def f(x):
        return tf.case([(x < 0, lambda: tf.constant(-1)), (x > 3, lambda: tf.constant(1)),
                        (x > 4, lambda: tf.constant(2))], default=lambda: tf.constant(0))

    f = tf.function(f, autograph=False) if mode == "graph" else f
    assert int(f(tf.constant(value))) == expected


@pytest.mark.parametrize("mode", ["eager", "graph"])
def test_case_without_default_asserts_the_last_predicate(mode):
    def f(x):
        return tf.case([(x > 5.0, lambda: x * 10), (x > 6.0, lambda: x)])

    f = tf.function(f, autograph=False) if mode == "graph" else f
    assert float(f(tf.constant(5.5))) == 55.0
    with pytest.raises(errors.InvalidArgumentError, match="None of conditions evaluated as True"):
        f(tf.constant(2.0))


@pytest.mark.parametrize("mode", ["eager", "graph"])
def test_case_exclusive_checks_at_most_one_true(mode):
    def f(x):
        return tf.case([(x > 1.0, lambda: x * 10), (x > 0.0, lambda: x * 100)],
                       default=lambda: x, exclusive=True)

    f = tf.function(f, autograph=False) if mode == "graph" else f
    assert float(f(tf.constant(0.5))) == 50.0
    with pytest.raises(errors.InvalidArgumentError, match="exclusive=True: more than 1"):
        f(tf.constant(2.0))


def test_case_gradient():
    def f(x):
        s = tf.reduce_sum(x)
        return tf.case([(s < 0, lambda: x * x), (s > 1, lambda: tf.sin(x))],
                       default=lambda: x * 3.0)

    for x0 in ([-0.5, 0.2], [0.8, 0.9], [0.1, 0.2]):
        check_grads_in_graph(f, np.array(x0))


# --- TF's errors ----------------------------------------------------------------------------------
def traced(f, *args):
    return tf.function(f, autograph=False)(*args)


X = tf.constant(1.0)
COND_ERRORS = [
    (lambda x: tf.cond(x > 0, lambda: (x, x), lambda: [x, x]), TypeError,
     "true_fn and false_fn arguments to tf.cond must have the same number, type, and overall "
     "structure of return values"),
    (lambda x: tf.cond(x > 0, lambda: {"a": x}, lambda: {"b": x}), TypeError,
     "don't have the same nested structure"),
    (lambda x: tf.cond(x > 0, lambda: x, lambda: tf.cast(x, tf.int32)), TypeError,
     r'Tensor\("capture_x:0", shape=\(\), dtype=float32\) and .*dtype=int32\) have different '
     "types"),
    (lambda x: tf.cond(x > 0, lambda: 1, lambda: 2.0), TypeError, "have different types"),
    (lambda x: tf.cond(x > 0, lambda: x, lambda: None), ValueError,
     "Lengths of branch outputs of cond must match"),
    (lambda x: tf.cond(x, lambda: x, lambda: x), errors.InvalidArgumentError,
     "Input 'pred' passed float expected bool"),
    (lambda x: tf.cond(True, lambda: x, lambda: x), TypeError, "pred must not be a Python bool"),
    (lambda x: tf.cond(x > 0, lambda: x), TypeError, "'false_fn' argument required"),
    (lambda x: tf.cond(x > 0, x, lambda: x), TypeError, "'true_fn' must be callable"),
    (lambda x: tf.switch_case(tf.constant(0), [lambda: x, lambda: tf.constant(1)]), TypeError,
     "branches\\[0\\] and branches\\[1\\] arguments to tf.switch_case must have the same"),
    (lambda x: tf.switch_case(tf.constant(0, tf.int64), [lambda: x]), TypeError,
     "Input 'branch_index' of 'StatelessCase' Op has type int64"),
]


@pytest.mark.parametrize("f, error, message", COND_ERRORS)
def test_traced_branch_errors(f, error, message):
    with pytest.raises(error, match=message):
        traced(f, X)


def test_the_predicate_must_be_a_scalar_when_the_graph_runs():
    with pytest.raises(errors.InvalidArgumentError,
                       match=r"The second input must be a scalar, but it has shape \[2\]"):
        traced(lambda x: tf.cond(x > 0, lambda: x, lambda: -x), tf.constant([1.0, 2.0]))
    with pytest.raises(ValueError, match="truth value of an array with more than one element"):
        tf.cond(tf.constant([True, False]), lambda: 1, lambda: 2)


ARGUMENT_ERRORS = [
    (lambda: tf.switch_case(1, BRANCHES), TypeError, "'branch_index' must be a Tensor"),
    (lambda: tf.switch_case(tf.constant(1.0), BRANCHES), TypeError, "must be an integer Tensor"),
    (lambda: tf.switch_case(tf.constant(0), []), ValueError, "Must provide at least one item"),
    (lambda: tf.switch_case(tf.constant(0), {1: BRANCHES[0], 3: BRANCHES[1]}), ValueError,
     r"must form contiguous range of \[0 to 2\) but found \{1,3\}"),
    (lambda: tf.case([(True, BRANCHES[0])]), TypeError, "pred must be a Tensor, got: True"),
    (lambda: tf.case([(X, BRANCHES[0])]), TypeError, "pred must be Tensor of type bool"),
    (lambda: tf.case([X > 0]), TypeError, "Each entry in 'pred_fn_pairs' must be a 2-tuple"),
    (lambda: tf.case(X > 0), TypeError, "'pred_fn_pairs' must be a list, tuple, or dict"),
]


@pytest.mark.parametrize("f, error, message", ARGUMENT_ERRORS)
def test_argument_errors_in_both_modes(f, error, message):
    with pytest.raises(error, match=message):
        f()
    with pytest.raises(error, match=message):
        traced(f)


def test_runtime_errors_inside_a_branch_name_the_traced_line():
    f = tf.function(lambda x: tf.cond(tf.reduce_sum(x) > -9.0, lambda: tf.reshape(x, [3]),
                                      lambda: tf.zeros([3])),
                    input_signature=[tf.TensorSpec([None], tf.float32)], autograph=False)
    assert f(tf.constant([1.0, 2.0, 3.0])).numpy().tolist() == [1.0, 2.0, 3.0]
    with pytest.raises(errors.InvalidArgumentError,
                       match=r"has 3 \[Op:Reshape\].*\(traced at test_control_flow_ops.py:\d+\)$"):
        f(tf.constant([1.0, 2.0]))


# --- random ops inside control flow: the gradient uses the forward's draws -----------------------
def _noisy_cond(x):
    return tf.cond(tf.reduce_sum(x) > 0, lambda: x * tf.random.uniform([3]), lambda: x * 2.0)


def _noisy_loop(x):
    return tf.while_loop(lambda i, v: i < 3,
                         lambda i, v: (i + 1, v * tf.random.uniform([3], 0.5, 1.5)), (0, x))[1]


@pytest.mark.parametrize("fn", [_noisy_cond, _noisy_loop], ids=["cond", "while_loop"])
def test_gradient_reuses_what_random_ops_drew_in_the_forward_run(fn):
    # y = x * (product of the draws), so dy/dx must be exactly y / x.
    x = tf.constant([1.0, 2.0, 3.0])

    @tf.function
    def inside(x):
        with tf.GradientTape() as tape:
            tape.watch(x)
            y = fn(x)
        return y, tape.gradient(y, x)

    for y, g in [inside(x), inside(x)]:
        np.testing.assert_allclose(g.numpy(), y.numpy() / x.numpy(), rtol=1e-6)
    outside = tf.function(fn)
    with tf.GradientTape() as tape:  # a traced function called under a tape
        tape.watch(x)
        y = outside(x)
    np.testing.assert_allclose(tape.gradient(y, x).numpy(), y.numpy() / x.numpy(), rtol=1e-6)


def test_random_draws_are_hidden_outputs_only_when_a_branch_samples():
    @tf.function
    def plain(x):
        return tf.cond(x > 0.0, lambda: x * 2.0, lambda: -x)

    node = [n for n in plain.get_concrete_function(tf.constant(1.0)).graph.nodes
            if n.type.endswith("If")][0]
    assert len(node.outputs) == 1 and "_draws" not in node.attrs
    noisy = tf.function(_noisy_cond).get_concrete_function(tf.constant([1.0, 2.0, 3.0]))
    node = [n for n in noisy.graph.nodes if n.type.endswith("If")][0]
    assert len(node.outputs) == 2 and node.attrs["_draws"][1] == ()


# --- drawing control flow ------------------------------------------------------------------------
def test_to_dot_draws_branches_and_loop_bodies_as_clusters():
    @tf.function
    def f(x, n):
        y = tf.cond(x > 0.0, lambda: x * 2.0, lambda: -x)
        return tf.while_loop(lambda i, p: i < n, lambda i, p: (i + 1, p * y), (0, 1.0))[1]

    dot = f.get_concrete_function(tf.TensorSpec([]), tf.TensorSpec([], tf.int32)).graph.to_dot()
    for cluster, label in [("StatelessIf/cond_true/", "then_branch: cond_true"),
                           ("StatelessIf/cond_false/", "else_branch: cond_false"),
                           ("StatelessWhile/while_cond/", "cond: while_cond"),
                           ("StatelessWhile/while_body/", "body: while_body")]:
        assert f'subgraph "cluster_{cluster}" {{' in dot and f'label="{label}"' in dot
    assert '"StatelessWhile/while_body/p" -> "StatelessWhile/while_body/Mul"' in dot
    assert '"StatelessIf" -> "StatelessIf/cond_true/capture_x" [lhead=' in dot
    assert dot.count("{") == dot.count("}") and "compound=true;" in dot
