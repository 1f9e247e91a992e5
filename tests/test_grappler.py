"""Graph optimizations end to end: optimized and unoptimized graphs give the same numbers.

Each lesson-style function below runs twice, each time freshly traced with fresh
variables: once with every pass switched off, once with all of them on. Outputs
and variable values must agree (exactly, or to 1e-6 where a pass may reorder
floating-point work). The options switch, tf.function's use of the optimized graph
and the untouched traced graph are checked here too; each pass has its own tests
in test_grappler_passes.py.
"""
import numpy as np
import pytest

import minitf as tf
from minitf.framework.function import Function
from minitf.framework.graph import Graph


pytestmark = pytest.mark.usefixtures("default_grappler_options")


def _run(make, steps, optimized):
    """Build (function, arguments, variables) with `make`, call it `steps` times."""
    tf.config.optimizer.set_experimental_options(
        {"disable_meta_optimizer": not optimized})
    tf.random.set_seed(1234)
    fn, args, variables = make()
    outputs = [tf.nest.map_structure(lambda t: np.array(t), fn(*args)) for _ in range(steps)]
    return outputs, [v.numpy() for v in variables], fn


def _same(make, steps=3, exact=False):
    plain, plain_vars, _ = _run(make, steps, optimized=False)
    fast, fast_vars, fn = _run(make, steps, optimized=True)
    check = np.testing.assert_array_equal if exact else (
        lambda a, b: np.testing.assert_allclose(a, b, rtol=1e-6, atol=1e-6))
    for a, b in zip(tf.nest.flatten(plain) + plain_vars, tf.nest.flatten(fast) + fast_vars):
        check(a, b)
    return fn


def _optimized_graph(fn):
    """The graph the concrete function actually runs (the executor's plan)."""
    (concrete,) = fn._cache.values()
    return concrete._plan.graph


def _op_names(graph):
    return [n.op.name for n in graph.nodes]


# --- lesson-style functions ---------------------------------------------------------------
def _mlp_parts(seed=0):
    rng = np.random.default_rng(seed)
    x = tf.constant(rng.standard_normal((8, 5)).astype(np.float32))
    labels = tf.one_hot(rng.integers(0, 3, size=8), 3)
    w1 = tf.Variable(rng.standard_normal((5, 16)).astype(np.float32) * 0.3)
    b1 = tf.Variable(np.full(16, 0.1, np.float32))
    w2 = tf.Variable(rng.standard_normal((16, 3)).astype(np.float32) * 0.3)
    b2 = tf.Variable(np.zeros(3, np.float32))
    return x, labels, [w1, b1, w2, b2]


def make_mlp_loss():
    x, labels, params = _mlp_parts()

    @tf.function
    def forward(x, labels):
        w1, b1, w2, b2 = params
        h = tf.nn.relu(tf.matmul(x, w1) + b1)
        logits = tf.matmul(h, w2) + b2
        return tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(labels, logits)), logits

    return forward, (x, labels), params


def make_training_step():
    x, labels, params = _mlp_parts(1)

    @tf.function
    def train_step(x, labels):
        with tf.GradientTape() as tape:
            h = tf.nn.relu(tf.matmul(x, params[0]) + params[1])
            logits = tf.matmul(h, params[2]) + params[3]
            loss = tf.reduce_mean(tf.nn.softmax_cross_entropy_with_logits(labels, logits))
        grads = tape.gradient(loss, params)
        for p, g in zip(params, grads):
            p.assign_sub(0.1 * g)
        return loss

    return train_step, (x, labels), params


def make_constants():
    @tf.function
    def scaled(x):
        scale = tf.constant(3.0) * tf.constant(2.0) / 6.0      # folds to 1.0
        offset = tf.reduce_sum(tf.constant([1.0, -1.0]))         # folds to 0.0
        return tf.transpose(tf.transpose(x * scale + offset)), tf.exp(tf.constant(1.0))

    return scaled, (tf.constant([[1.0, 2.0], [3.0, 4.0]]),), []


def make_elementwise_chain():
    @tf.function
    def chain(x, y):
        z = tf.sigmoid(x * y + 1.0) - tf.tanh(y) / 2.0
        return tf.nn.relu(tf.square(z) * 3.0 - 0.1), tf.maximum(x, y) + tf.minimum(x, 0.0)

    rng = np.random.default_rng(2)
    return chain, (tf.constant(rng.standard_normal((4, 6)).astype(np.float32)),
                   tf.constant(rng.standard_normal((6,)).astype(np.float32))), []


def make_dense_layers():
    rng = np.random.default_rng(3)
    w = tf.Variable(rng.standard_normal((6, 4)).astype(np.float32))
    b = tf.Variable(rng.standard_normal(4).astype(np.float32))

    @tf.function
    def dense(x):
        a = tf.nn.relu(tf.matmul(x, w) + b)
        c = tf.nn.relu6(tf.nn.bias_add(tf.matmul(x, w), b) * 4.0)
        d = tf.nn.leaky_relu(b + tf.matmul(x, w), alpha=0.3)
        e = tf.tanh(tf.matmul(x, w, transpose_b=False) + b)
        return a, c, d, e

    return dense, (tf.constant(rng.standard_normal((5, 6)).astype(np.float32)),), [w, b]


def make_random():
    @tf.function
    def noisy(x):
        a = tf.random.uniform([3])
        b = tf.random.uniform([3])            # same op twice: must stay two draws (+ dropout)
        n = tf.random.normal([3], seed=5) * 0.0 + 1.0
        return x + a, x + b, n, tf.nn.dropout(x, 0.5, seed=3)

    return noisy, (tf.constant([1.0, 2.0, 3.0]),), []


def make_ordered_assigns():
    v = tf.Variable([1.0, 2.0])
    counter = tf.Variable(0)

    @tf.function
    def update(x):
        before = v.read_value()
        v.assign(v * 2.0)
        middle = v.read_value() + 0.0
        v.assign_add(x * 1.0)
        v.assign_sub(tf.constant([0.5, 0.5]) * 2.0)
        counter.assign_add(1)
        return before, middle, v.read_value() * 1.0, counter.read_value()

    return update, (tf.constant([10.0, 20.0]),), [v, counter]


def make_control_flow():
    v = tf.Variable(1.0)

    @tf.function
    def loop(x):
        y = tf.cond(tf.reduce_sum(x) > 0, lambda: tf.nn.relu(x * 2.0 + 1.0),
                    lambda: x * 1.0 - 0.0)
        i, acc = tf.constant(0), tf.zeros_like(x)
        while i < 3:
            v.assign_add(0.5)
            acc = acc * 1.0 + tf.exp(x * 0.5 + v)
            i += 1
        return y + acc

    return loop, (tf.constant([1.0, -2.0]),), [v]


LESSONS = [make_mlp_loss, make_training_step, make_constants, make_elementwise_chain,
           make_dense_layers, make_random, make_ordered_assigns, make_control_flow]


@pytest.mark.parametrize("make", LESSONS, ids=lambda m: m.__name__)
def test_optimized_and_plain_graphs_give_the_same_numbers(make):
    _same(make)


def test_each_lesson_is_actually_rewritten():
    expectations = {make_mlp_loss: "_FusedMatMul", make_training_step: "_FusedMatMul",
                    make_elementwise_chain: "_FusedElementwise",
                    make_dense_layers: "_FusedMatMul"}
    for make, op_name in expectations.items():
        assert op_name in _op_names(_optimized_graph(_same(make, steps=1)))
    folded = _optimized_graph(_same(make_constants, steps=1))
    assert _op_names(folded) == ["Placeholder", "Const"]  # x * 1 + 0, transposes, exp


def test_branches_and_loop_bodies_are_optimized_too():
    fn = _same(make_control_flow, steps=2)
    graph = _optimized_graph(fn)
    bodies = [v for n in graph.nodes for v in n.attrs.values() if isinstance(v, Graph)]
    assert len(bodies) == 4  # then, else, cond, body
    assert any("_FusedElementwise" in _op_names(b) for b in bodies)
    (concrete,) = fn._cache.values()
    originals = [v for n in concrete.graph.nodes for v in n.attrs.values()
                 if isinstance(v, Graph)]
    assert not any("_FusedElementwise" in _op_names(b) for b in originals)


def test_element_wise_chain_matches_exactly():
    _same(make_elementwise_chain, exact=True)


def test_random_draws_and_assigns_keep_their_order_and_count():
    fn = _same(make_random, steps=2)
    names = _op_names(_optimized_graph(fn))
    assert names.count("RandomUniform") == 3 and names.count("RandomStandardNormal") == 1
    fn = _same(make_ordered_assigns, steps=2)
    (concrete,) = fn._cache.values()

    def effects(graph):
        return [(n.op.name, n.attrs.get("method"), n.attrs["variable"].name)
                for n in graph.nodes if n.op.stateful]

    assert sum(1 for e in effects(concrete.graph) if e[1]) == 4  # the 4 assigns
    assert effects(concrete._plan.graph) == effects(concrete.graph)


def test_training_step_reduces_the_loss_the_same_way():
    plain, plain_vars, _ = _run(make_training_step, 20, optimized=False)
    fast, fast_vars, _ = _run(make_training_step, 20, optimized=True)
    assert float(fast[-1]) < float(fast[0])
    np.testing.assert_allclose(np.array(plain, dtype=float), np.array(fast, dtype=float),
                               rtol=1e-6)
    for a, b in zip(plain_vars, fast_vars):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)


# --- tf.function uses the optimized graph, and leaves the traced one alone ----------------
def test_function_runs_the_optimized_graph_and_keeps_the_traced_graph():
    @tf.function
    def f(x):
        return tf.nn.relu(x * 2.0 + 1.0) * 1.0

    concrete = f.get_concrete_function(tf.TensorSpec([3], tf.float32))
    before = str(concrete.graph)
    np.testing.assert_array_equal(f(tf.constant([-1.0, 0.0, 1.0])).numpy(), [0.0, 1.0, 3.0])
    assert str(concrete.graph) == before and "Mul" in before
    assert _op_names(concrete._plan.graph) == ["Placeholder", "Const", "Const",
                                               "_FusedElementwise"]


def test_changed_options_take_effect_on_the_next_call_both_ways():
    @tf.function
    def f(x):
        return tf.nn.relu(x * 2.0 + 1.0) * 1.0

    x = tf.constant([-1.0, 0.0, 1.0])
    concrete = f.get_concrete_function(x)
    f(x)
    assert "_FusedElementwise" in _op_names(concrete._plan.graph)      # optimized
    tf.config.optimizer.set_experimental_options({"disable_meta_optimizer": True})
    np.testing.assert_array_equal(f(x).numpy(), [0.0, 1.0, 3.0])
    assert concrete._plan.graph is concrete.graph                      # now the traced graph
    tf.config.optimizer.set_experimental_options({"disable_meta_optimizer": False,
                                                  "elementwise_fusion": False})
    np.testing.assert_array_equal(f(x).numpy(), [0.0, 1.0, 3.0])
    names = _op_names(concrete._plan.graph)
    assert "_FusedElementwise" not in names and "Mul" in names and len(names) < len(
        concrete.graph.nodes)                                          # optimized, no fusion
    assert f.experimental_get_tracing_count() == 1                     # re-planned, not retraced


def test_optimizer_hook_is_installed():
    assert Function.optimizer is not None
    graph = tf.function(lambda x: x + 0.0).get_concrete_function(
        tf.TensorSpec([2], tf.float32)).graph
    assert Function.optimizer(graph).outputs[0].node.op.name == "Placeholder"


def test_a_tape_around_the_call_still_gets_gradients():
    w = tf.Variable([[1.0], [2.0]])

    @tf.function
    def f(x):
        return tf.nn.relu(tf.matmul(x, w) + 1.0)

    x = tf.constant([[1.0, -3.0]])
    f(x)  # first run: optimized plan
    with tf.GradientTape() as tape:
        y = f(x)
    np.testing.assert_array_equal(tape.gradient(y, w).numpy(), [[0.0], [0.0]])
    x = tf.constant([[3.0, 1.0]])
    with tf.GradientTape() as tape:
        y = f(x)
    np.testing.assert_array_equal(tape.gradient(y, w).numpy(), [[3.0], [1.0]])


def test_unknown_batch_dimension():
    @tf.function(input_signature=[tf.TensorSpec([None, 3], tf.float32)])
    def f(x):
        return tf.exp(x * x - 1.0) * x + 2.0

    for n in (1, 4):
        x = np.random.default_rng(n).standard_normal((n, 3)).astype(np.float32)
        np.testing.assert_allclose(f(tf.constant(x)).numpy(), np.exp(x * x - 1) * x + 2,
                                   rtol=1e-6)


# --- options -------------------------------------------------------------------------------
def test_options_like_tensorflow():
    get = tf.config.optimizer.get_experimental_options
    assert get() == {"disable_model_pruning": False, "disable_meta_optimizer": False}
    tf.config.optimizer.set_experimental_options({"remapping": True, "constant_folding": False,
                                                  "not_an_option": True})
    assert get() == {"constant_folding": False, "remapping": True,
                     "disable_model_pruning": False, "disable_meta_optimizer": False}
    tf.config.optimizer.set_experimental_options({"min_graph_nodes": 3, "remapping": None,
                                                  "elementwise_fusion": False})
    assert get() == {"constant_folding": False, "disable_model_pruning": False,
                     "disable_meta_optimizer": False, "elementwise_fusion": False,
                     "min_graph_nodes": 3}


def test_options_switch_passes():
    enabled = tf.grappler.config.enabled_passes
    everything = ["pruning", "common_subgraph_elimination", "constant_folding",
                  "arithmetic_optimization", "remapping", "elementwise_fusion"]
    assert enabled() == everything
    tf.config.optimizer.set_experimental_options({"arithmetic_optimization": False,
                                                  "disable_model_pruning": True})
    assert enabled() == ["constant_folding", "remapping", "elementwise_fusion"]
    tf.config.optimizer.set_experimental_options({"disable_meta_optimizer": True})
    assert enabled() == []
    assert enabled({"remapping": False}) == [p for p in everything if p != "remapping"]


def test_switched_off_pass_leaves_its_pattern():
    @tf.function
    def f(x, w):
        return tf.nn.relu(tf.matmul(x, w) + tf.constant([1.0, 2.0]) * 1.0)

    graph = f.get_concrete_function(tf.TensorSpec([3, 4], tf.float32),
                                    tf.TensorSpec([4, 2], tf.float32)).graph
    on, report = tf.grappler.optimize(graph)
    assert "_FusedMatMul" in _op_names(on) and any(r.startswith("remapping:") for r in report)
    off, report = tf.grappler.optimize(graph, {"remapping": False})
    assert "_FusedMatMul" not in _op_names(off) and "_FusedElementwise" in _op_names(off)
    same, report = tf.grappler.optimize(graph, {"disable_meta_optimizer": True})
    assert same is graph and list(report) == [] and str(report) == "(no changes)"
    small, report = tf.grappler.optimize(graph, {"min_graph_nodes": 100})
    assert small is graph


def test_report_keeps_each_step():
    @tf.function
    def f(x):
        return tf.exp(x * (tf.constant(2.0) * 0.5))

    graph = f.get_concrete_function(tf.TensorSpec([2], tf.float32)).graph
    optimized, report = tf.grappler.optimize(graph)
    names = [name for name, _, _ in report.steps]
    assert names == ["constant_folding", "arithmetic_optimization", "pruning"]
    assert report.steps[-1][1] is optimized
    assert [n.op.name for n in optimized.nodes] == ["Placeholder", "Exp"]
    again, report = tf.grappler.optimize(optimized)
    assert again is optimized and not report
    assert all(line.split(":")[0] in names for line in report)
