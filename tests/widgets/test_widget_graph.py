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
    assert value.retraced and value.reason == "new signature: n is 5 (traced before: 2)"
    assert f.experimental_get_tracing_count() == value.count == 3
    assert value.concrete.graph is f.get_concrete_function(tf.constant([1.0, 2.0]), 5).graph
    # A call never swaps the explored trace; `show` does.
    assert inspection.graph is f.get_concrete_function(tf.constant([1.0, 2.0]), 2).graph
    assert inspection.trace_label() == "f(x=float32[2], n=2)"
    inspection.show(value)
    assert inspection.graph is value.concrete.graph
    assert inspection.trace_label() == "f(x=float32[2], n=5)"


def test_traced_before_names_only_values_that_were_traced():
    # Lesson 12's order of calls: after (float32[3], 3) was traced, (float32[4], 3) once read
    # "power is 3 (traced before: 2)" although power 3 had been traced.
    @tf.function
    def soft(x, power):
        return x ** power

    x3, x4 = tf.constant([1.0, 2.0, 3.0]), tf.constant([1.0, 2.0, 3.0, 4.0])
    inspection = GraphInspection(soft, x3, 2)
    calls = [inspection.call(*args) for args in [(x4, 2), (x3, 3), (x4, 3), (x4, 3), (x3, 4)]]
    assert [c.retraced for c in calls] == [True, True, True, False, True]
    assert [c.reason for c in calls] == [
        "new signature: x is float32[4] (traced before: float32[3])",
        "new signature: power is 3 (traced before: 2)",
        "new combination: x float32[4] and power 3 were each traced before, but never together",
        "same signature as an earlier trace: the cached graph runs",
        "new signature: power is 4 (traced before: 2, 3)"]
    for record in calls:  # "traced before: v" only for values some earlier trace had
        for name, listed in re.findall(r"(\w+) is \S+ \(traced before: ([^)]*)\)", record.reason):
            k = inspection.names.index(name)
            earlier = inspection.traced_signatures[:inspection.traced_signatures.index(
                record.signature)]
            assert listed.split(", ") == list(dict.fromkeys(s[k] for s in earlier))


def test_traces_made_elsewhere_count():
    @tf.function
    def f(x, n):
        return x * n

    inspection = GraphInspection(f, tf.constant([1.0]), 1)
    f(tf.constant([1.0]), 7)  # a call the inspection never saw
    again = inspection.call(tf.constant([1.0]), 7)
    assert not again.retraced and "cached graph" in again.reason
    assert inspection.traced_signatures == [("float32[1]", "1"), ("float32[1]", "7")]
    nested = GraphInspection(lambda xs: xs[0] + xs[1], [tf.constant(1.0), tf.constant(2.0)])
    assert nested.traced_signatures == [("[float32[], float32[]]",)]
    assert nested.call([tf.constant(5.0), tf.constant(6.0)]).reason.startswith("same signature")


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
    assert "everything(x=float32[2,3], w=float32[3,4], b=float32[4])" in view.trace_label.value
    shape_button = [b for b in view.buttons if b.description.startswith("new shape")][0]
    shape_button.click()
    assert everything.experimental_get_tracing_count() == count + 1
    assert f"<b>{count + 1}</b>" in view.count.value and "yes" in view.history.value
    assert "everything(x=float32[3,3]" in view.trace_label.value  # the button's trace is shown
    dtype_button = [b for b in view.buttons if b.description.startswith("new dtype")][0]
    dtype_button.click()
    assert "the call failed: TypeError" in view.history.value


def test_view_fallback_layout_and_static(monkeypatch):
    monkeypatch.setattr(_render.shutil, "which", lambda name: None)
    view = GraphExplorer(lambda x: tf.exp(x) * 2.0, tf.constant([1.0]))
    assert escape(_render.NO_DOT_NOTICE) in view.graph_picture.value
    bundle = view._repr_mimebundle_()
    assert bundle["image/svg+xml"].startswith("<svg") and "graph <lambda>" in bundle["text/plain"]


def test_view_keeps_its_trace_when_code_calls_and_rereads_the_count_on_the_retracing_tab():
    @tf.function
    def power(x, n):
        return x ** n

    view = GraphExplorer(power, tf.constant([1.0, 2.0]), 2)
    picture, label = view.graph_picture.value, view.trace_label.value
    view.inspection.call(tf.constant([1.0, 2.0]), 3)  # as a later lesson cell does
    view.tabs.selected_index = 2
    assert view.graph_picture.value == picture and view.trace_label.value == label
    assert "n=2" in label and "<b>1</b>" in view.count.value
    view.tabs.selected_index = 3
    assert "<b>2</b>" in view.count.value and "n is 3 (traced before: 2)" in view.history.value


def test_no_description_is_cut_short():
    import doctest

    from widgets import _view
    from widgets._view import cut_descriptions

    result = doctest.testmod(_view)  # the views' shared helpers (not in the docstring list)
    assert result.attempted > 0 and result.failed == 0
    assert cut_descriptions(GraphExplorer(lambda x: x + 1.0, tf.constant([1.0]))) == []


def test_pictures_shrink_to_their_half_width_panel():
    # Lesson 16's before/after graphs are wider than half a notebook: they must scale down
    # (aspect kept), not be cut off at the panel's edge.
    view = GraphExplorer(everything, tf.ones([2, 3]), tf.ones([3, 4]), tf.ones([4]))
    for html in (view.before.value, view.after.value, view.graph_picture.value):
        assert html.count("<svg") == 1 and f'<svg style="{_render.FIT_STYLE}"' in html
        assert "viewBox=" in html and "overflow:auto" not in html
