"""Each graph optimization pass on its own: what it rewrites, what it must leave alone.

Every pass is run on a traced graph; the test checks the new graph's nodes, the
report, that the input graph did not change, and (via the executor) that the new
graph computes the same numbers.
"""
import numpy as np
import pytest

import minitf as tf
from minitf.framework.executor import compile_graph, run
from minitf.framework.graph import Graph, Node, SymbolicTensor
from minitf.framework.op import Op
from minitf.grappler import (
    constant_folding,
    eliminate_common_subexpressions,
    fold_constants,
    fuse_elementwise,
    prune,
    remap,
    simplify_arithmetic,
)
from minitf.grappler.elementwise import ELEMENTWISE, IN_PLACE

F32 = tf.float32


def trace(fn, *specs):
    return tf.function(fn, autograph=False).get_concrete_function(*specs).graph


def spec(*shape, dtype=F32):
    return tf.TensorSpec(list(shape), dtype)


def ops(graph):
    """Op names of the computing nodes (no placeholders, no constants)."""
    return [n.op.name for n in graph.nodes if n.op.name not in ("Placeholder", "Const")]


def check_pass(pass_fn, graph, *arrays, exact=True):
    """Run the pass; the old graph is untouched and both graphs agree on `arrays`."""
    before = str(graph)
    new, report = pass_fn(graph)
    assert str(graph) == before and new is not graph
    # Nodes may be the old graph's own (shared, unchanged) or new ones; either way each
    # reads only tensors made earlier in the new graph.
    made = set()
    for n in new.nodes:
        assert all(id(t) in made for t in n.inputs)
        made.update(id(t) for t in n.outputs)
    assert all(id(t) in made for t in new.outputs)
    assert len(new.inputs) == len(graph.inputs) and len(new.outputs) == len(graph.outputs)
    want = run(compile_graph(graph), list(arrays))
    got = run(compile_graph(new), list(arrays))
    for a, b in zip(want, got):
        if exact:
            np.testing.assert_array_equal(a, b)
        else:
            np.testing.assert_allclose(a, b, rtol=1e-6)
    return new, report


x3 = np.array([1.5, -2.0, 0.25], np.float32)
m23 = np.arange(6, dtype=np.float32).reshape(2, 3) - 2.5


# --- constant folding -----------------------------------------------------------------------
def test_folds_chains_of_constants():
    graph = trace(lambda x: x + tf.exp(tf.constant(1.0) * 2.0) - tf.reduce_sum([1.0, 2.0]),
                  spec(3))
    new, report = check_pass(fold_constants, graph, x3)
    assert ops(new) == ["AddV2", "Sub"]
    assert report[0] == "folded Mul(1.0, 2.0) -> Const 2.0"
    assert report[1].startswith("folded Exp(2.0) -> Const 7.38905")
    assert any(r.startswith("folded Sum(") for r in report)


def test_materializes_zeros_like_of_a_known_shape_only():
    graph = trace(lambda x: tf.zeros_like(x) + tf.ones_like(x), spec(2, 3))
    new, report = check_pass(fold_constants, graph, m23)
    assert ops(new) == [] and len(report) == 3  # ZerosLike, OnesLike, then their sum
    graph = trace(lambda x: tf.zeros_like(x), spec(None, 3))
    assert ops(fold_constants(graph)[0]) == ["ZerosLike"]


def test_never_folds_random_reads_or_prints():
    v = tf.Variable(2.0)

    def f(x):
        r = tf.random.uniform([3], seed=1)
        tf.print(tf.constant(1.0))
        return x + r + v * 1.0

    new, report = fold_constants(trace(f, spec(3)))
    assert report == []
    assert ops(new) == ["RandomUniform", "PrintV2", "AddV2", "ReadVariableOp", "Mul", "AddV2"]


def test_keeps_big_results_computed_at_run_time(monkeypatch):
    monkeypatch.setattr(constant_folding, "MAX_CONSTANT_BYTES", 16)
    graph = trace(lambda x: x + tf.ones([8]) * 2.0, spec(8))
    assert ops(fold_constants(graph)[0]) == ["Mul", "AddV2"]


def test_a_failing_forward_is_left_for_run_time():
    Boom = Op("Boom", lambda a: np.array(a)[[5]], shape=lambda s: s)
    graph = Graph("boom")
    with graph.as_default():
        c = graph.constant(tf.constant([1.0]))
        graph.outputs = [graph.add_node(Boom, [c], {})]
    assert ops(fold_constants(graph)[0]) == ["Boom"]


# --- pruning --------------------------------------------------------------------------------
def test_prunes_dead_nodes_and_skips_identity():
    def f(x):
        tf.exp(x) * 2.0  # dead
        y = tf.identity(tf.stop_gradient(x + 1.0))
        return tf.identity(y * y)

    new, report = check_pass(prune, trace(f, spec(3)), x3)
    assert ops(new) == ["AddV2", "Mul", "Identity"]
    assert report[:2] == ["removed Exp(x): its result is never used",
                          "removed Mul(Exp, 2.0): its result is never used"]
    assert "skipped StopGradient(AddV2): its users read its input directly" in report
    assert ops(prune(trace(f, spec(3)), skip_pass_through=False)[0]) == [
        "AddV2", "StopGradient", "Identity", "Mul", "Identity"]


def test_pruning_keeps_effects_and_inputs():
    v = tf.Variable(1.0)

    def f(x, unused):
        tf.random.normal([2])
        v.assign_add(1.0)
        tf.print(x)
        v.read_value()
        return x

    new, _report = prune(trace(f, spec(), spec()))
    assert ops(new) == ["RandomStandardNormal", "AssignVariableOp", "PrintV2", "ReadVariableOp"]
    assert len(new.inputs) == 2 and new.input_names == ["x", "unused"]


# --- common subexpressions -------------------------------------------------------------------
def test_merges_repeated_expressions_and_constants():
    def f(x, y):
        a = tf.exp(x * y) + tf.exp(y * x)
        b = tf.reduce_sum(x, axis=0) + tf.reduce_sum(x, axis=0)
        return a + tf.constant([1.0, 2.0]) + tf.constant([1.0, 2.0]), b

    new, report = check_pass(eliminate_common_subexpressions, trace(f, spec(2), spec(2)),
                             x3[:2], x3[1:])
    assert ops(new) == ["Mul", "Exp", "AddV2", "Sum", "AddV2", "AddV2", "AddV2"]
    assert "merged Mul_1 into Mul: both are Mul(y, x)" in report
    assert any(r.startswith("merged Const_1 into Const: both are Const Const[2]")
               for r in report)


def test_does_not_merge_different_attributes_random_ops_or_non_commutative_ops():
    def f(x, y):
        return (tf.reduce_sum(x, axis=0), tf.reduce_sum(x, axis=1), x - y, y - x,
                tf.random.uniform([2]), tf.random.uniform([2]))

    _new, report = eliminate_common_subexpressions(trace(f, spec(2, 2), spec(2, 2)))
    assert report == []


# --- arithmetic -------------------------------------------------------------------------------
def test_identities_with_ones_and_zeros():
    def f(x):
        return x * 1.0, 1.0 * x, x / 1.0, x + 0.0, 0.0 + x, x - 0.0, 0.0 - x

    new, report = check_pass(simplify_arithmetic, trace(f, spec(2, 3)), m23)
    assert ops(new) == ["Neg"]
    assert [t.node.op.name for t in new.outputs] == ["Placeholder"] * 6 + ["Neg"]
    assert report[-1] == "simplified Sub(0.0, x) -> Neg(x)"


def test_identities_that_would_change_the_shape_are_kept():
    graph = trace(lambda x: (x * tf.ones([2, 3]), x + tf.zeros([4, 1])), spec(3))
    assert simplify_arithmetic(graph)[1] == []
    graph = trace(lambda x: x * tf.ones([3]), spec(None))  # x might have size 1
    assert simplify_arithmetic(graph)[1] == []
    graph = trace(lambda x: x * tf.ones([3]), spec(None, 3))  # provably x's shape
    assert ops(simplify_arithmetic(graph)[0]) == []


def test_multiplying_integers_by_zeros_makes_a_constant_when_the_shape_is_known():
    i23 = np.arange(6, dtype=np.int32).reshape(2, 3)
    graph = trace(lambda x, w: (x * tf.zeros([3], tf.int32),
                                tf.matmul(tf.zeros([2, 2], tf.int32), w)),
                  spec(2, 3, dtype=tf.int32), spec(2, 3, dtype=tf.int32))
    new, report = check_pass(simplify_arithmetic, graph, i23, i23)
    assert ops(new) == []
    assert report == ["simplified Mul(x, Const[3]) -> Const[2,3]",
                      "simplified MatMul(Const[2,2], w) -> Const[2,3]"]
    graph = trace(lambda x: x * tf.zeros([3], tf.int32), spec(None, 3, dtype=tf.int32))
    assert ops(simplify_arithmetic(graph)[0]) == ["Mul"]


@pytest.mark.filterwarnings("ignore::RuntimeWarning")  # inf - inf
def test_float_zeros_keep_nan_and_inf_like_tensorflow():
    graph = trace(lambda x: (x * tf.zeros([3]), tf.zeros([3]) * x, x - x), spec(3))
    x = np.array([np.nan, np.inf, 1.0], np.float32)
    new, report = check_pass(simplify_arithmetic, graph, x)
    assert report == []
    assert all(np.isnan(out[:2]).all() for out in run(compile_graph(new), [x]))


def test_zero_signs_follow_tensorflow():
    graph = trace(lambda x: (x + tf.zeros([3]), tf.zeros([3]) - x), spec(3))
    new, _ = check_pass(simplify_arithmetic, graph, np.array([1.0, 2.0, 3.0], np.float32))
    got = run(compile_graph(new), [np.array([-0.0, 0.0, 1.0], np.float32)])
    # TF 2.21 gives the same signs: [-0, 0, 1] and Neg: [0, -0, -1].
    assert np.signbit(got[0]).tolist() == [True, False, False]
    assert np.signbit(got[1]).tolist() == [False, True, True]


def test_negations_and_involutions():
    def f(x, y, b):
        return x + (-y), (-y) + x, x - (-y), tf.negative(-x), tf.logical_not(tf.logical_not(b))

    graph = trace(f, spec(3), spec(3), spec(3, dtype=tf.bool))
    new, _report = check_pass(simplify_arithmetic, graph, x3, x3 * 2,
                             np.array([True, False, True]))
    assert [t.node.op.name for t in new.outputs] == ["Sub", "Sub", "AddV2", "Placeholder",
                                                     "Placeholder"]


def test_transposes_reshapes_and_casts():
    def f(x):
        t = tf.transpose(tf.transpose(x, [1, 2, 0]), [0, 2, 1])
        r = tf.reshape(tf.reshape(x, [6, 4]), [4, 6])
        return t, r, tf.reshape(x, [2, 3, 4]), tf.cast(x, tf.float32)

    x = np.arange(24, dtype=np.float32).reshape(2, 3, 4)
    new, _report = check_pass(simplify_arithmetic, trace(f, spec(2, 3, 4)), x)
    outs = [t.node for t in new.outputs]
    assert outs[0].op.name == "Transpose" and outs[0].attrs["perm"] == (1, 0, 2)
    assert outs[0].inputs[0] is new.inputs[0]
    assert outs[1].op.name == "Reshape" and outs[1].inputs[0] is new.inputs[0]
    assert outs[2].op.name == "Placeholder" and outs[3].op.name == "Placeholder"
    back = trace(lambda x: tf.transpose(tf.transpose(x, [1, 2, 0]), [2, 0, 1]), spec(2, 3, 4))
    assert simplify_arithmetic(back)[0].outputs[0].node.op.name == "Placeholder"


# --- element-wise fusion --------------------------------------------------------------------
def test_fuses_a_tree_of_element_wise_ops():
    def f(a, b, c):
        return tf.sqrt(tf.abs((a + b) * (c - a))) + 1.0

    new, report = check_pass(fuse_elementwise, trace(f, spec(3), spec(3), spec(3)),
                             x3, x3 * 2, x3 - 1)
    assert ops(new) == ["_FusedElementwise"]
    node = new.nodes[-1]
    assert node.attrs["fused_ops"] == ("AddV2", "Sub", "Mul", "Abs", "Sqrt", "AddV2")
    assert str(node.attrs["program"]) == "AddV2(Sqrt(Abs(Mul(AddV2(#0, #1), Sub(#2, #0)))), #3)"
    assert report == ["fused 6 nodes: AddV2 -> Sub -> Mul -> Abs -> Sqrt -> AddV2"]


def test_results_used_twice_or_returned_stay_nodes_of_their_own():
    def f(x):
        y = tf.exp(x)
        z = tf.sin(y) * 2.0
        return y * z + y, tf.tanh(z)

    new, report = check_pass(fuse_elementwise, trace(f, spec(3)), x3)
    assert ops(new) == ["Exp", "_FusedElementwise", "_FusedElementwise", "Tanh"]
    assert report == ["fused 2 nodes: Sin -> Mul", "fused 2 nodes: Mul -> AddV2"]
    returned = trace(lambda x: (tf.exp(x), tf.exp(x) * 2.0 + 1.0), spec(3))
    new, report = fuse_elementwise(returned)
    assert report == ["fused 3 nodes: Exp -> Mul -> AddV2"]


def test_stateful_and_unknown_ops_are_not_fused():
    def f(x):
        return tf.exp(tf.random.uniform([3], seed=2) * x) + tf.cumsum(x * 2.0)

    new, _report = fuse_elementwise(trace(f, spec(3)))
    assert "RandomUniform" in ops(new) and "Cumsum" in ops(new)


def _samples(dtype, rng):
    if dtype.is_floating:
        special = [np.nan, np.inf, -np.inf, 0.0, -0.0, 1.0, -1.0, 7.5]
        values = np.concatenate([special, rng.standard_normal(8) * 3])
    elif dtype.is_bool:
        values = rng.random(16) > 0.5
    else:
        values = rng.integers(-5, 6, size=16)
    return values.astype(dtype.as_numpy_dtype)


def test_in_place_kernels_match_the_ops_forward_exactly():
    rng = np.random.default_rng(0)
    checked = 0
    for name, (kernel, _) in IN_PLACE.items():
        op = ELEMENTWISE[name]
        arity = 2 if op.shape is not ELEMENTWISE["Exp"].shape or name == "ReluGrad" else 1
        for dtype in (tf.float32, tf.float64, tf.int32, tf.bool):
            if op.dtypes is not None and dtype not in op.dtypes:
                continue
            arrays = [_samples(dtype, rng) for _ in range(arity)]
            with np.errstate(all="ignore"):
                want = op.forward(*arrays)
                np.testing.assert_array_equal(kernel(*arrays), want, err_msg=f"{name} {dtype}")
                checked += 1
                out = np.array(arrays[0], copy=True)
                if want.dtype == out.dtype:
                    kernel(out, *arrays[1:], out=out)
                    np.testing.assert_array_equal(out, want, err_msg=f"{name} {dtype} in place")
    assert checked > 60


def test_fused_programs_never_write_into_their_inputs():
    def f(x, y):
        return tf.nn.relu(tf.square(x - y) * y + x) / 2.0

    graph = trace(f, spec(None, 3), spec(3))
    new, _ = fuse_elementwise(graph)
    steps = new.nodes[-1].attrs["program"]
    assert any(s.reuse is not None for s in steps)  # temporaries are reused...
    x, y = m23.copy(), x3.copy()
    got = run(compile_graph(new), [x, y])[0]
    np.testing.assert_array_equal(x, m23)           # ...inputs never
    np.testing.assert_array_equal(y, x3)
    np.testing.assert_array_equal(got, run(compile_graph(graph), [m23, x3])[0])


def test_reuse_is_checked_at_run_time_when_shapes_are_unknown():
    graph = trace(lambda x, y: tf.exp(x) * y, spec(None), spec(None))
    new, _ = fuse_elementwise(graph)
    (step,) = [s for s in new.nodes[-1].attrs["program"] if s.reuse is not None]
    assert step.check
    for x, y in ((np.ones(1, np.float32), x3), (x3, np.ones(1, np.float32)), (x3, x3)):
        np.testing.assert_array_equal(run(compile_graph(new), [x, y])[0], np.exp(x) * y)


# --- remapping ------------------------------------------------------------------------------
def test_matmul_bias_activation_becomes_fused_matmul():
    def f(x, w, b):
        return (tf.nn.relu(tf.matmul(x, w) + b), tf.nn.bias_add(tf.matmul(x, w), b),
                tf.nn.leaky_relu(b + tf.matmul(x, w, transpose_a=False), alpha=0.1),
                tf.sigmoid(tf.matmul(w, x, transpose_a=True, transpose_b=True) + b))

    graph = trace(f, spec(2, 3), spec(3, 2), spec(2))
    w = np.array([[1.0, -2.0], [0.5, 1.0], [-1.0, 3.0]], np.float32)
    new, report = check_pass(remap, graph, m23, w, np.array([0.5, -0.25], np.float32))
    assert ops(new) == ["_FusedMatMul"] * 4
    assert [n.attrs["fused_ops"] for n in new.nodes if n.op.name == "_FusedMatMul"] == [
        ("BiasAdd", "Relu"), ("BiasAdd",), ("BiasAdd", "LeakyRelu"), ("BiasAdd", "Sigmoid")]
    assert new.nodes[-2].attrs["leakyrelu_alpha"] == 0.1
    assert report[0] == "fused MatMul(x, w) -> AddV2(b) -> Relu into _FusedMatMul"


def test_remapping_needs_a_bias_vector_and_private_intermediates():
    def f(x, w, m):
        product = tf.matmul(x, w)
        return tf.nn.relu(tf.matmul(x, w) + m), tf.nn.relu(product + 1.0), product

    graph = trace(f, spec(2, 3), spec(3, 2), spec(2, 2))
    assert remap(graph)[1] == []
    returned = trace(lambda x, w, b: (tf.nn.relu(tf.matmul(x, w) + b), tf.matmul(x, w) + b),
                     spec(2, 3), spec(3, 2), spec(2))
    new, _report = remap(returned)
    assert [n.attrs["fused_ops"] for n in new.nodes if n.op.name == "_FusedMatMul"] == [
        ("BiasAdd", "Relu"), ("BiasAdd",)]


# --- shared rules ---------------------------------------------------------------------------
def test_opaque_nodes_are_kept_as_they_are():
    Branchy = Op("If", lambda x, then_branch: x, shape=lambda s, **a: s)
    graph = Graph("opaque")
    with graph.as_default():
        x = graph.placeholder([3], F32, "x")
        c = graph.constant(tf.constant([1.0, 2.0, 3.0]))
        out = graph.add_node(Branchy, [c], {"then_branch": Graph("branch")})
        graph.add_node(Branchy, [x], {"then_branch": Graph("unused")})
        graph.outputs = [tf.exp(tf.exp(out))]
    for pass_fn in (fold_constants, prune, eliminate_common_subexpressions,
                    simplify_arithmetic, fuse_elementwise, remap):
        assert ops(pass_fn(graph)[0])[:2] == ["If", "If"]


def test_captures_and_variables_are_carried_over():
    v = tf.Variable(3.0)
    graph = trace(lambda x: x * v + 0.0, spec())
    outer = Graph("outer")
    node = Node(graph.nodes[0].op, [], {}, "outer_x", None)
    outer_t = SymbolicTensor(outer, node, 0, tf.TensorShape([]), F32)
    graph.captures.append((outer_t, graph.inputs[0]))
    new, _ = simplify_arithmetic(graph)
    assert new.captures[0][0] is outer_t and new.captures[0][1] is new.inputs[0]
    assert new.captured_variables == [v] and new.captured_variables is not \
        graph.captured_variables
    graph.captures.clear()


@pytest.mark.parametrize("pass_fn", [fold_constants, prune, eliminate_common_subexpressions,
                                     simplify_arithmetic, fuse_elementwise, remap])
def test_every_pass_keeps_names_and_sources(pass_fn):
    graph = trace(lambda x: tf.exp(x) + 1.0, spec(3))
    new, _ = pass_fn(graph)
    assert new.name == graph.name and new.input_names == graph.input_names
    sources = {n.name: n.source for n in graph.nodes}
    assert all(sources.get(n.name, n.source) == n.source for n in new.nodes)
