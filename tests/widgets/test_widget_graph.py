"""Traced-graph explorer: the engine's graph, the passes' own reports, the real tracing count."""
import re
from html import escape

import pytest

import minitf as tf
from minitf.grappler.rewrite import count_nodes
from widgets import _render
from widgets.graph import (PASS_KEYS, GraphExplorer, GraphInspection, graph_diagram,
                           node_marks, options_for)


@tf.function
def everything(x, w, b):
    scale = tf.constant(2.0) * 0.5
    y = tf.matmul(x, w) + b
    z = tf.nn.relu(y) * scale
    u = tf.negative(tf.negative(x)) * 1.0
    return z + tf.reduce_sum(u) + tf.reduce_sum(u * 1.0), tf.exp(x * x + 1.0)


def inspect_everything():
    return GraphInspection(everything, tf.ones([2, 3]), tf.ones([3, 4]), tf.ones([4]))


def test_shows_the_concrete_functions_graph():
    inspection = inspect_everything()
    graph = everything.get_concrete_function(tf.ones([2, 3]), tf.ones([3, 4]),
                                             tf.ones([4])).graph
    assert inspection.graph is graph
    assert inspection.text() == str(graph)
    diagram = graph_diagram(graph)
    assert [k for k in diagram.nodes if not k.startswith("output")] == \
        [n.name for n in graph.nodes]
    assert len(diagram.edges) == sum(len(n.inputs) for n in graph.nodes) + len(graph.outputs)
    assert "def everything" in inspection.source()
    assert inspection.converted() == tf.autograph.to_code(everything.python_function)


def counted_lines(lines, pattern):
    return sum(int(m.group(1)) if m.groups() and m.group(1) else 1
               for m in (re.match(pattern, line) for line in lines) if m)


def test_marks_and_counts_equal_the_passes_reports():
    optimization = inspect_everything().optimize()
    assert [s.after for s in optimization.steps] == [g for _, g, _ in optimization.report.steps]
    assert optimization.steps[-1].after is optimization.graph
    seen = set()
    for step in optimization.steps:
        seen.add(step.name)
        assert step.counts == (count_nodes(step.before), count_nodes(step.after))
        removed = len(step.marked("removed"))
        if step.name == "pruning":
            expected = counted_lines(step.lines, r"removed (\d+) unused constant") + \
                sum(line.startswith(("removed ", "skipped ")) and "unused constant" not in line
                    for line in step.lines)
            assert removed == expected
        elif step.name == "common_subgraph_elimination":
            merged = [line.split()[1] for line in step.lines]
            assert step.marked("removed") == sorted(merged)
        elif step.name == "constant_folding":
            assert len(step.marked("folded")) == len(step.lines) == removed
        elif step.name == "arithmetic_optimization":
            assert removed == len(step.lines)
        elif step.name in ("elementwise_fusion", "remapping"):
            assert len(step.marked("fused")) == len(step.lines)
            sizes = [len(line.split("->")) for line in step.lines]
            assert removed == sum(size - 1 for size in sizes)
    assert seen == {"common_subgraph_elimination", "constant_folding", "arithmetic_optimization",
                    "pruning", "remapping", "elementwise_fusion"}


def ops(graph):
    """Op names in the graph, the ops inside fused nodes included."""
    return [n.op.name for n in graph.nodes] + [
        name for n in graph.nodes for name in n.attrs.get("fused_ops", ())]


@pytest.mark.parametrize("off, pattern_left", [
    ("elementwise_fusion", lambda g: "_FusedElementwise" not in ops(g) and "Exp" in ops(g)),
    ("remapping", lambda g: "_FusedMatMul" not in ops(g) and "MatMul" in ops(g)),
    ("constant_folding", lambda g: any(  # 2.0 * 0.5 is still computed at run time
        n.op.name == "Const" and n.attrs["value"].item() == 2.0 for n in g.nodes)),
    ("arithmetic_optimization", lambda g: ops(g).count("Neg") == 2),
    ("pruning", lambda g: "Neg" in ops(g)),
])
def test_toggling_a_pass_off_leaves_its_pattern(off, pattern_left):
    inspection = inspect_everything()
    everything_on = inspection.optimize()
    assert not pattern_left(everything_on.graph)
    without = inspection.optimize([k for k in PASS_KEYS if k != off])
    assert pattern_left(without.graph)
    assert off not in [s.name for s in without.steps]


def test_options_follow_tf_config_keys():
    assert options_for(["pruning"]) == {
        "common_subgraph_elimination": False, "constant_folding": False,
        "arithmetic_optimization": False, "remapping": False, "elementwise_fusion": False,
        "disable_model_pruning": False}
    assert options_for([])["disable_model_pruning"] is True


def test_node_marks_of_a_graph_and_itself_are_empty():
    graph = inspect_everything().graph
    assert node_marks(graph, graph) == ({}, {})


def test_retrace_counter_is_the_functions_own():
    @tf.function
    def f(x, n):
        return x * n

    inspection = GraphInspection(f, tf.constant([1.0, 2.0]), 2)
    assert f.experimental_get_tracing_count() == 1
    variations = inspection.variations()
    assert set(variations) == {"same signature, new values",
                               "new shape (first tensor's leading axis + 1)",
                               "new dtype (float32 ↔ float64)", "new Python value"}
    same = inspection.call(*variations["same signature, new values"], description="same")
    assert (same.retraced, same.count) == (False, 1) and "cached graph" in same.reason
    shape = inspection.call(*variations["new shape (first tensor's leading axis + 1)"])
    assert (shape.retraced, shape.count) == (True, 2)
    assert shape.reason == "new signature: x is float32[3] (traced before: float32[2])"
    value = inspection.call(tf.constant([1.0, 2.0]), 5)
    assert value.retraced and "n is 5 (traced before: 2)" in value.reason
    assert f.experimental_get_tracing_count() == value.count == 3
    assert inspection.graph is f.get_concrete_function(tf.constant([1.0, 2.0]), 5).graph


def test_input_signature_does_not_retrace_and_failures_are_recorded():
    @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
    def g(x):
        return x * 2.0

    inspection = GraphInspection(g, tf.constant([1.0]))
    grown = inspection.call(tf.constant([1.0, 2.0]))
    assert not grown.retraced and "input_signature" in grown.reason
    failed = inspection.call(tf.constant([1.0], tf.float64))
    assert not failed.retraced and failed.reason.startswith("the call failed: TypeError")


def test_plain_python_functions_are_wrapped():
    inspection = GraphInspection(lambda x: x + 1.0, tf.constant(1.0))
    assert inspection.function.experimental_get_tracing_count() == 1
    assert "AddV2" in inspection.text()


# --- the view -------------------------------------------------------------------------------
def test_view_checkboxes_slider_and_buttons():
    view = GraphExplorer(everything, tf.ones([2, 3]), tf.ones([3, 4]), tf.ones([4]))
    steps = view.optimization.steps
    assert view.step_slider.max == len(steps) - 1
    assert "[fused]" in "".join(
        graph_diagram(s.after, s.marks_after).to_dot() for s in steps)
    first = view.after.value
    view.step_slider.value = 1
    assert view.step == 1 and view.after.value != first
    assert steps[1].name in view.step_label.value
    view.checks["elementwise_fusion"].value = False
    assert "elementwise_fusion" not in [s.name for s in view.optimization.steps]
    assert "elementwise_fusion" not in view.summary.value
    for key in PASS_KEYS:
        view.checks[key].value = False
    assert view.optimization.steps == [] and "No pass changed" in view.summary.value
    assert view.step_slider.disabled
    count = everything.experimental_get_tracing_count()
    shape_button = [b for b in view.buttons if b.description.startswith("new shape")][0]
    shape_button.click()
    assert everything.experimental_get_tracing_count() == count + 1
    assert f"<b>{count + 1}</b>" in view.count.value and "yes" in view.history.value
    dtype_button = [b for b in view.buttons if b.description.startswith("new dtype")][0]
    dtype_button.click()
    assert "the call failed: TypeError" in view.history.value


def test_view_fallback_layout_and_static(monkeypatch):
    monkeypatch.setattr(_render.shutil, "which", lambda name: None)
    view = GraphExplorer(lambda x: tf.exp(x) * 2.0, tf.constant([1.0]))
    assert escape(_render.NO_DOT_NOTICE) in view.graph_picture.value
    bundle = view._repr_mimebundle_()
    assert bundle["image/svg+xml"].startswith("<svg") and "graph <lambda>" in bundle["text/plain"]
