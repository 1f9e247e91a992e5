"""Traced-graph explorer: what `tf.function` traced, how Grappler rewrote it, when it retraces.

In a notebook:

    from widgets.graph import GraphExplorer
    GraphExplorer(f, tf.constant([1.0, 2.0]))     # f is a tf.function

The logic is `GraphInspection`, which draws nothing. Everything it shows is
the engine's: the concrete function's `Graph` (its nodes and its numbered
equations), `tf.autograph.to_code`, the pass-by-pass film that
`tf.grappler.optimize` reports, and `experimental_get_tracing_count()`:

>>> import minitf as tf
>>> @tf.function
... def f(x):
...     return tf.nn.relu(x * (tf.constant(2.0) * 0.5) + 1.0)
>>> inspection = GraphInspection(f, tf.constant([1.0, -2.0]))
>>> [step.name for step in inspection.optimize().steps]
['constant_folding', 'arithmetic_optimization', 'pruning', 'elementwise_fusion']
>>> step = inspection.optimize().steps[-1]
>>> step.lines, step.counts, step.marked("fused")
(['fused 2 nodes: AddV2 -> Relu'], (2, 1), ['Relu'])
>>> only_folding = inspection.optimize(enabled=["constant_folding"])
>>> [step.lines for step in only_folding.steps]
[['folded Mul(2.0, 0.5) -> Const 1.0']]
>>> call = inspection.call(tf.constant([1.0, 2.0, 3.0]), description="new shape")
>>> call.retraced, call.count
(True, 2)
>>> call.reason
'new signature: x is float32[3] (traced before: float32[2])'
>>> inspection.graph is call.concrete.graph          # the explored trace stays until shown
False
>>> inspection.show(call); inspection.trace_label()
'f(x=float32[3])'

`GraphExplorer(...).static()` is an SVG of the traced graph, shown beside the
widget so a notebook read on GitHub still shows the graph.
"""
import inspect

import numpy as np

import minitf as tf
from minitf.framework.function import Function
from minitf.framework.graph import Const, Placeholder
from minitf.grappler.rewrite import count_nodes

from ._layout import FILL, Diagram

# (option key, label) in the order the pipeline runs them.
PASSES = (("pruning", "pruning"), ("common_subgraph_elimination", "common subexpressions"),
          ("constant_folding", "constant folding"), ("arithmetic_optimization", "arithmetic"),
          ("remapping", "remapping (MatMul+bias+Relu)"), ("elementwise_fusion", "fusion"))
PASS_KEYS = tuple(key for key, _ in PASSES)


def options_for(enabled):
    """`tf.config.optimizer` options that switch on exactly the passes in `enabled`."""
    enabled = set(enabled)
    options = {key: key in enabled for key in PASS_KEYS if key != "pruning"}
    options["disable_model_pruning"] = "pruning" not in enabled
    return options


def node_marks(before, after):
    """({name: mark} for `before`, {name: mark} for `after`): what one pass did, from the
    two graphs themselves. Before: "removed" (gone) or "replaced" (same name, other op).
    After: "folded" (a new constant), "fused" (a _Fused* node), "added", or "rewritten"."""
    old = {n.name: n for n in before.nodes}
    new = {n.name: n for n in after.nodes}
    marks_before, marks_after = {}, {}
    for name, node in old.items():
        if name not in new:
            marks_before[name] = "removed"
        elif new[name].op is not node.op:
            marks_before[name] = "replaced"
    for name, node in new.items():
        if name in old and old[name].op is node.op:
            continue
        if node.op is Const:
            marks_after[name] = "folded"
        elif node.op.name.startswith("_Fused"):
            marks_after[name] = "fused"
        else:
            marks_after[name] = "added" if name not in old else "rewritten"
    return marks_before, marks_after


class PassStep:
    """One pass that changed the graph: its name, the graph before and after, its report
    lines, the node marks, and the node counts (computing nodes, before and after)."""

    def __init__(self, name, before, after, lines):
        self.name, self.before, self.after, self.lines = name, before, after, list(lines)
        self.marks_before, self.marks_after = node_marks(before, after)
        self.counts = (count_nodes(before), count_nodes(after))
        self.totals = (len(before.nodes), len(after.nodes))  # inputs and constants too

    def marked(self, mark):
        """Names of the nodes with this mark (before-marks and after-marks together)."""
        return sorted([n for n, m in self.marks_before.items() if m == mark]
                      + [n for n, m in self.marks_after.items() if m == mark])


class Optimization:
    """The result of `tf.grappler.optimize` with some passes on: the final graph, the
    report, and one `PassStep` per pass that changed something (in pipeline order)."""

    def __init__(self, graph, enabled):
        self.enabled = [key for key in PASS_KEYS if key in set(enabled)]
        self.graph, self.report = tf.grappler.optimize(graph, options_for(self.enabled))
        self.steps, previous = [], graph
        for name, after, lines in self.report.steps:
            self.steps.append(PassStep(name, previous, after, lines))
            previous = after
        self.counts = (count_nodes(graph), count_nodes(self.graph))


class CallRecord:
    """One call made from the explorer: what changed, whether the function retraced, why,
    and the concrete function that ran (None if the call failed)."""

    def __init__(self, description, signature, count, retraced, reason, result,
                 concrete=None, args=()):
        self.description, self.signature, self.count = description, signature, count
        self.retraced, self.reason, self.result = retraced, reason, result
        self.concrete, self.args = concrete, args


def describe_argument(value):
    """How tf.function keys an argument: tensors by dtype and shape, Python values by value,
    lists, tuples and dicts element by element.

    >>> describe_argument([tf.constant([1.0, 2.0]), 3])
    '[float32[2], 3]'
    """
    if isinstance(value, (tf.Tensor, tf.TensorSpec)):
        dims = ",".join("?" if d is None else str(d) for d in value.shape.as_list()) \
            if value.shape.rank is not None else "..."
        return f"{value.dtype.name}[{dims}]"
    if isinstance(value, (list, tuple)):
        inner = ", ".join(describe_argument(v) for v in value)
        return f"[{inner}]" if isinstance(value, list) else \
            f"({inner}{',' if len(value) == 1 else ''})"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k!r}: {describe_argument(v)}" for k, v in value.items()) + "}"
    return repr(value)


class GraphInspection:
    """A tf.function, the arguments it was traced for, and the calls made since (no drawing).

    The explored trace (`concrete`, `graph`, `args`) is the one for the arguments given
    here; `call` runs the function and records what happened without changing it, so a
    call made from code elsewhere never swaps the graph under a learner's eyes. `show`
    switches to a call's trace (the explorer's buttons do).
    """

    def __init__(self, function, *args):
        if not isinstance(function, Function):  # a plain Python function: trace it
            function = tf.function(function)
        self.function = function
        self.args = args
        self.names = _parameter_names(function.python_function, len(args))
        self.history = []
        count = function.experimental_get_tracing_count()
        self.concrete = function.get_concrete_function(*args)
        if function.experimental_get_tracing_count() == count:  # traced before we came
            self.history.append(CallRecord("already traced", self.signature(args), count,
                                           False, "a trace for these arguments existed", ""))

    @property
    def graph(self):
        return self.concrete.graph

    def signature(self, args):
        return tuple(describe_argument(a) for a in args)

    @property
    def traced_signatures(self):
        """The signatures the function holds a trace for, read from its own cache (so
        traces made by calls elsewhere count too), oldest first."""
        found = []
        for concrete in self.function._cache.values():
            signature = self.signature(concrete.structured_input_signature[0])[:len(self.names)]
            if signature not in found:
                found.append(signature)
        return found

    def trace_label(self):
        """Which trace is explored: `f(x=float32[3], power=2)` (Python values are part of it)."""
        arguments = ", ".join(f"{n}={s}" for n, s in zip(self.names, self.signature(self.args)))
        return f"{self.function.__name__}({arguments})"

    def show(self, record):
        """Explore the trace that `record`'s call ran (nothing changes for a failed call)."""
        if record.concrete is not None:
            self.concrete, self.args = record.concrete, record.args

    def text(self):
        """The traced graph as numbered equations (`print(concrete.graph)`)."""
        return str(self.graph)

    def source(self):
        """The Python source of the function, or why it is not available."""
        try:
            return inspect.getsource(self.function.python_function)
        except (OSError, TypeError) as exc:
            return f"(source not available: {exc})"

    def converted(self):
        """`tf.autograph.to_code` of the function: the source AutoGraph actually runs."""
        try:
            return tf.autograph.to_code(self.function.python_function)
        except Exception as exc:  # noqa: BLE001 - shown to the learner instead of the code
            return f"(AutoGraph could not convert it: {type(exc).__name__}: {exc})"

    def optimize(self, enabled=PASS_KEYS):
        """An `Optimization` of the traced graph with the passes in `enabled` switched on."""
        return Optimization(self.graph, enabled)

    # --- retracing -----------------------------------------------------------------------
    def call(self, *args, description="call"):
        """Call the function for real; note whether the tracing count went up, and why."""
        before = self.function.experimental_get_tracing_count()
        traced = self.traced_signatures
        try:
            result = self.function(*args)
        except Exception as exc:  # noqa: BLE001 - a failed call is part of the story
            record = CallRecord(description, self.signature(args), before, False,
                                f"the call failed: {type(exc).__name__}", str(exc))
            self.history.append(record)
            return record
        count = self.function.experimental_get_tracing_count()
        signature = self.signature(args)
        retraced = count > before
        record = CallRecord(description, signature, count, retraced,
                            self._reason(signature, retraced, traced), _short(result),
                            self.function.get_concrete_function(*args), args)
        self.history.append(record)
        return record

    def _reason(self, signature, retraced, traced):
        """Why a call did or did not retrace, from the signatures traced before it."""
        if not retraced:
            if signature in traced:
                return "same signature as an earlier trace: the cached graph runs"
            return "fits an existing trace (its input_signature allows it): no retrace"
        if signature in traced:  # the function traced again for a key it had
            return "traced again for a signature it had traced before"
        changes, seen = [], []
        for k, (name, new) in enumerate(zip(self.names, signature)):
            earlier = list(dict.fromkeys(old[k] for old in traced if k < len(old)))
            if new in earlier:
                seen.append(f"{name} {new}")
            else:
                changes.append(f"{name} is {new} (traced before: {', '.join(earlier)})")
        if changes:
            return "new signature: " + "; ".join(changes)
        if seen:
            return ("new combination: " + " and ".join(seen)
                    + " were each traced before, but never together")
        return "new signature: a new argument structure"

    def variations(self):
        """{description: arguments}: calls that keep or change the trace key."""
        rng = np.random.default_rng(len(self.history))
        tensors = [i for i, a in enumerate(self.args) if isinstance(a, tf.Tensor)]
        python = [i for i, a in enumerate(self.args) if isinstance(a, (int, float))
                  and not isinstance(a, bool)]
        found = {"same signature, new values": [
            tf.constant(rng.normal(size=a.shape.as_list()).astype(a.dtype.as_numpy_dtype))
            if i in tensors and a.dtype.is_floating else a for i, a in enumerate(self.args)]}
        if tensors:
            first = tensors[0]
            found["new shape (first tensor's leading axis + 1)"] = [
                _grown(a) if i == first else a for i, a in enumerate(self.args)]
            flip = {tf.float32: tf.float64, tf.float64: tf.float32}
            found["new dtype (float32 ↔ float64)"] = [
                tf.cast(a, flip[a.dtype]) if i in tensors and a.dtype in flip else a
                for i, a in enumerate(self.args)]
        if python:
            found["new Python value"] = [a + 1 if i == python[0] else a
                                         for i, a in enumerate(self.args)]
        return {k: tuple(v) for k, v in found.items()}


def _grown(tensor):
    value = tensor.numpy()
    if value.ndim == 0:
        return tf.constant(np.stack([value, value]))
    return tf.constant(np.concatenate([value, value[:1]], axis=0))


def _short(result):
    if isinstance(result, tf.Tensor):
        return np.array2string(result.numpy(), precision=4, threshold=8)
    return repr(result)


def _parameter_names(f, count):
    try:
        names = [p.name for p in inspect.signature(f).parameters.values()
                 if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    except (TypeError, ValueError):
        names = []
    return (names + [f"arg{i}" for i in range(len(names), count)])[:count]


# --- diagrams ---------------------------------------------------------------------------------
def graph_diagram(graph, marks=None):
    """A `Diagram` of a traced graph (the same boxes as `Graph.to_dot`), nodes coloured by
    their marks ("removed", "fused", "folded", ...)."""
    marks = marks or {}
    d = Diagram(graph.name)
    for node in graph.nodes:
        mark = marks.get(node.name)
        if node.op is Placeholder:
            d.node(node.name, node.name, shape="ellipse", fill=FILL["input"])
            continue
        if node.op is Const:
            value = node.attrs["value"]
            label = f"{value.item():g}" if np.ndim(value) == 0 and value.dtype.kind in "fiu" \
                else f"Const {list(np.shape(value))}"
            shape, fill = "note", FILL["const"]
        else:
            label = node.op.name
            if "fused_ops" in node.attrs:
                label += "\n" + " → ".join(node.attrs["fused_ops"])
            shape, fill = "box", FILL["op"]
        if mark is not None:
            label += f"\n[{mark}]"
            fill = FILL.get(mark, FILL["rewritten"])
        d.node(node.name, label, shape=shape, fill=fill, bold=mark is not None,
               dashed=mark == "removed")
        for t in node.inputs:
            d.edge(t.node.name, node.name)
    for i, t in enumerate(graph.outputs):
        d.node(f"output {i}", f"output {i}", shape="ellipse", fill=FILL["output"])
        d.edge(t.node.name, f"output {i}")
    return d


# --- the widget ---------------------------------------------------------------------------
import ipywidgets as widgets  # noqa: E402 - the view needs it; the inspection above does not
from html import escape  # noqa: E402

from ._render import Picture, diagram_svg, svg_html  # noqa: E402
from ._view import ExplorerView  # noqa: E402


def _pre(text):
    return f"<pre style='font-size:12px; white-space:pre'>{escape(text)}</pre>"


def history_html(inspection):
    """The calls made so far: what changed, the tracing count, retraced or not, and why."""
    rows = ["<tr><th>call</th><th>signature</th><th>count</th><th>retraced?</th>"
            "<th>why</th></tr>"]
    for c in inspection.history:
        colour = "#fff1b3" if c.retraced else "#ffffff"
        rows.append(f"<tr style='background:{colour}'><td>{escape(c.description)}</td>"
                    f"<td><code>({escape(', '.join(c.signature))})</code></td><td>{c.count}</td>"
                    f"<td>{'yes' if c.retraced else 'no'}</td><td>{escape(c.reason)}"
                    f"<br><small>{escape(c.result[:300])}</small></td></tr>")
    return "<table cellpadding='3' style='border-collapse:collapse'>" + "".join(rows) + \
        "</table>"


def steps_html(optimization):
    """One row per pass that changed the graph: node counts and its report lines."""
    if not optimization.steps:
        return "<p>No pass changed this graph.</p>"
    rows = ["<tr><th>#</th><th>pass</th><th>nodes</th><th>what it reports</th></tr>"]
    for k, step in enumerate(optimization.steps):
        lines = "<br>".join(escape(line) for line in step.lines)
        rows.append(f"<tr><td>{k + 1}</td><td>{step.name}</td>"
                    f"<td>{step.counts[0]} → {step.counts[1]} ops ({step.totals[0]} → "
                    f"{step.totals[1]} nodes)</td><td>{lines}</td></tr>")
    before, after = optimization.counts
    rows.append(f"<tr><td></td><td><b>all</b></td><td><b>{before} → {after}</b></td><td></td>"
                "</tr>")
    return "<table cellpadding='3' style='border-collapse:collapse'>" + "".join(rows) + \
        "</table>"


class GraphExplorer(ExplorerView):
    """Explore a tf.function: `GraphExplorer(f, *args)` (a plain function is wrapped).

    Tabs: the traced graph (picture and equations); the source beside its AutoGraph
    conversion; the optimization passes (a checkbox per pass, a slider through the
    passes that changed something, before/after pictures with marked nodes); and
    retracing (buttons that call with new values, shapes, dtypes or Python values,
    with the tracing count and the reason). `static()` returns an SVG of the graph.
    """

    def __init__(self, function, *args):
        super().__init__()
        self.inspection = GraphInspection(function, *args)
        self.enabled = list(PASS_KEYS)
        self.step = 0
        self._build()
        self.optimization = None
        self.refresh_graph()

    def _build(self):
        w = widgets
        self.graph_picture, self.graph_text = w.HTML(), w.HTML()
        self.source, self.converted = w.HTML(), w.HTML()
        self.checks = {key: w.Checkbox(value=True, description=label, indent=False,
                                       layout=w.Layout(width="auto"))
                       for key, label in PASSES}
        for box in self.checks.values():
            box.observe(self.guard(lambda _: self.set_passes(
                [k for k, b in self.checks.items() if b.value])), names="value")
        self.step_slider = w.IntSlider(value=0, min=0, max=0, description="pass")
        self.step_slider.observe(self.guard(lambda c: self.set_step(c["new"])), names="value")
        self.step_label = w.HTML()
        self.before, self.after, self.summary = w.HTML(), w.HTML(), w.HTML()
        self.count = w.HTML()
        self.history = w.HTML()
        self.buttons = []
        for description in self.inspection.variations():
            button = w.Button(description=description, layout=w.Layout(width="auto"))
            button.on_click(self.guard(lambda _, d=description: self.call_variation(d)))
            self.buttons.append(button)
        half = w.Layout(width="50%")
        self.trace_label = w.HTML()
        tabs = w.Tab(children=[
            w.HBox([w.Box([self.graph_picture], layout=half), w.Box([self.graph_text],
                                                                    layout=half)]),
            w.HBox([w.Box([self.source], layout=half), w.Box([self.converted], layout=half)]),
            w.VBox([w.HBox(list(self.checks.values())),
                    w.HBox([self.step_slider, self.step_label]),
                    w.HBox([w.Box([self.before], layout=half), w.Box([self.after], layout=half)]),
                    self.summary]),
            w.VBox([w.HBox(self.buttons), self.count, self.history])])
        for i, title in enumerate(["Graph", "AutoGraph", "Optimizations", "Retracing"]):
            tabs.set_title(i, title)
        # Calls made from code in later cells show up when the Retracing tab is opened.
        tabs.observe(self.guard(lambda c: self.show_history() if c["new"] == 3 else None),
                     names="selected_index")
        self.tabs = tabs
        self.children = [self.trace_label, tabs, self.error]

    # --- update paths --------------------------------------------------------------------
    def set_passes(self, enabled):
        """Re-run the optimizer with only these passes switched on."""
        self.enabled = [key for key in PASS_KEYS if key in set(enabled)]
        for key, box in self.checks.items():
            if box.value != (key in self.enabled):
                box.unobserve_all("value")
                box.value = key in self.enabled
                box.observe(self.guard(lambda _: self.set_passes(
                    [k for k, b in self.checks.items() if b.value])), names="value")
        self.optimization = self.inspection.optimize(self.enabled)
        self.set_step(0)

    def set_step(self, step):
        """Show the graph before and after the `step`-th pass that changed something."""
        steps = self.optimization.steps
        self.step = min(step, max(len(steps) - 1, 0))
        top = max(len(steps) - 1, 0)
        if self.step_slider.max != top or self.step_slider.value != self.step:
            notifiers = self.step_slider._trait_notifiers.get("value", {}).get("change", [])
            saved = list(notifiers)
            notifiers.clear()
            self.step_slider.max, self.step_slider.value = top, self.step
            notifiers.extend(saved)
        self.step_slider.disabled = not steps
        self.summary.value = steps_html(self.optimization)
        if not steps:
            self.step_label.value = "no pass changed the graph"
            self.before.value = self.after.value = ""
            return
        current = steps[self.step]
        self.step_label.value = (f"{self.step + 1}/{len(steps)}: <b>{current.name}</b>, "
                                 f"{current.counts[0]} → {current.counts[1]} nodes")
        svg, notice = diagram_svg(graph_diagram(current.before, current.marks_before))
        self.before.value = svg_html(svg, notice, title="before")
        svg, notice = diagram_svg(graph_diagram(current.after, current.marks_after))
        self.after.value = svg_html(svg, notice, title="after")

    def call_variation(self, description):
        """Call the function with one of `inspection.variations()`; explore the trace it ran."""
        args = self.inspection.variations()[description]
        record = self.inspection.call(*args, description=description)
        if record.concrete is not None and record.concrete is not self.inspection.concrete:
            self.inspection.show(record)
            self.refresh_graph()
        else:
            self.show_history()
        return record

    def show_history(self):
        """The tracing count and the table of calls, read afresh."""
        count = self.inspection.function.experimental_get_tracing_count()
        self.count.value = (f"<p><code>f.experimental_get_tracing_count()</code> = <b>{count}</b>"
                            "</p>")
        self.history.value = history_html(self.inspection)

    def refresh_graph(self):
        inspection = self.inspection
        self.trace_label.value = (f"<p>the trace for <code>{escape(inspection.trace_label())}"
                                  "</code></p>")
        svg, notice = diagram_svg(graph_diagram(inspection.graph))
        self.graph_picture.value = svg_html(svg, notice)
        self.graph_text.value = _pre(inspection.text())
        self.source.value = "<b>your function</b>" + _pre(inspection.source())
        self.converted.value = "<b>tf.autograph.to_code</b>" + _pre(inspection.converted())
        self.show_history()
        self.set_passes(self.enabled)

    def static(self):
        """An SVG of the traced graph (shown where widgets cannot run)."""
        svg, _ = diagram_svg(graph_diagram(self.inspection.graph))
        return Picture(svg=svg, text=self.inspection.text())
