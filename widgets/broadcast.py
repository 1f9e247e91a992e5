"""Broadcasting explorer: how `a + b` lines shapes up, stretches them, or fails.

In a notebook one call shows the live widget:

    from widgets.broadcast import BroadcastExplorer
    BroadcastExplorer((3, 1), (4,))

The logic is `BroadcastPlan`, which draws nothing and is tested on its own.
It follows the rules step by step - right-align the shapes, pad the shorter
ones with 1s on the left, compare each axis, stretch the size-1 axes - and
asks the engine for everything the engine decides: the error text minitf
raises for a failing pair, the values of the sum, and the gradient the tape
sends back to each operand (summed over the stretched axes):

>>> plan = BroadcastPlan((3, 1), (4,))
>>> plan.result_shape
(3, 4)
>>> [rule.status for rule in plan.axes]
['stretched', 'stretched']
>>> plan.source_index((2, 1))          # result[2, 1] = a[2, 0] + b[1]
[(2, 0), (1,)]
>>> plan.reduced_axes(1)               # b's gradient: summed over axis 0
(0,)
>>> [g.shape for g in plan.gradients()]
[(3, 1), (4,)]
>>> print(BroadcastPlan((3, 2), (4,)).error()[1].split(" [Op")[0])
Incompatible shapes: [3,2] vs. [4]

`BroadcastExplorer(...).static()` is a PNG of the current state, also shown
beside the widget, so a notebook read on GitHub still shows a picture.
"""
import numpy as np

import minitf as tf
from minitf.framework import errors

STEPS = ("right-align", "pad with 1s", "compare each axis", "stretch", "result")
NAMES = "abc"
MAX_ELEMENTS = 100_000  # per operand: the engine computes real sums and gradients

PRESETS = {
    "outer sum: (3, 1) + (4,)": ((3, 1), (4,)),
    "bias add: (4, 3) + (3,)": ((4, 3), (3,)),
    "image × per-channel scale (× broadcasts like +): (2, 4, 3), (3,)": ((2, 4, 3), (3,)),
    "three operands: (2, 1, 3) + (4, 1) + (3,)": ((2, 1, 3), (4, 1), (3,)),
    "failing pair: (3, 2) + (4,)": ((3, 2), (4,)),
}


class AxisRule:
    """One axis of the result: the operands' (padded) sizes there and what happens.

    status: "equal" (all sizes agree), "stretched" (some operands have size 1 and
    are copied along this axis) or "incompatible" (two sizes differ, neither is 1).
    """

    def __init__(self, axis, sizes):
        self.axis = axis
        self.sizes = tuple(sizes)
        others = {s for s in sizes if s != 1}
        if len(others) > 1:
            self.status, self.size, self.stretched = "incompatible", None, ()
        else:
            self.size = others.pop() if others else 1
            self.stretched = tuple(k for k, s in enumerate(sizes) if s != self.size)
            self.status = "stretched" if self.stretched else "equal"

    def __repr__(self):
        return f"AxisRule(axis={self.axis}, sizes={self.sizes}, status={self.status!r})"


class BroadcastPlan:
    """The broadcasting of 2 or 3 shapes, rule by rule (no drawing)."""

    def __init__(self, *shapes):
        if not 2 <= len(shapes) <= 3:
            raise ValueError(f"BroadcastPlan takes 2 or 3 shapes, got {len(shapes)}.")
        self.shapes = [tuple(int(d) for d in s) for s in shapes]
        for s in self.shapes:
            if any(d < 0 for d in s):
                raise ValueError(f"Dimensions must be non-negative, got {s}.")
        self.rank = max(len(s) for s in self.shapes)
        self.padded = [(1,) * (self.rank - len(s)) + s for s in self.shapes]
        self.axes = [AxisRule(i, [p[i] for p in self.padded]) for i in range(self.rank)]
        self.ok = all(rule.status != "incompatible" for rule in self.axes)
        self.result_shape = tuple(rule.size for rule in self.axes) if self.ok else None
        self._error = self._values = self._gradients = None

    @property
    def names(self):
        return NAMES[:len(self.shapes)]

    def aligned(self, step):
        """Each operand's sizes per result axis: None where an axis is missing (step 0),
        padded with 1s from step 1 on."""
        if step >= 1:
            return [list(p) for p in self.padded]
        return [[None] * (self.rank - len(s)) + list(s) for s in self.shapes]

    def explain(self, step):
        """One paragraph saying what the rule at `step` (0-4) does to these shapes."""
        shapes = ", ".join(f"{n}{list(s)}" for n, s in zip(self.names, self.shapes))
        if step == 0:
            return f"Write the shapes {shapes} right-aligned: trailing axes line up."
        if step == 1:
            padded = ", ".join(f"{n}{list(p)}" for n, p in zip(self.names, self.padded))
            return f"Pad the shorter shapes with 1s on the left: {padded}."
        if step == 2:
            parts = [self._axis_text(rule) for rule in self.axes]
            return "Compare each axis: " + ("; ".join(parts) if parts else "all scalars") + "."
        if not self.ok:
            bad = [r.axis - self.rank for r in self.axes if r.status == "incompatible"]
            return (f"Axis {bad[0]} has two different sizes and neither is 1, so nothing can "
                    f"be stretched: minitf raises {self.error()[0]}.")
        if step == 3:
            copies = [f"{self.names[k]} is copied {r.size}× along axis {r.axis - self.rank}"
                      for r in self.axes for k in r.stretched]
            return ("Stretch: " + "; ".join(copies) + " (no data is copied in memory)."
                    if copies else "Nothing to stretch: the shapes already agree.")
        return f"The result has shape {list(self.result_shape)}."

    def _axis_text(self, rule):
        sizes = " vs ".join(str(s) for s in rule.sizes)
        if rule.status == "incompatible":
            return f"axis {rule.axis - self.rank}: {sizes} is incompatible"
        if rule.status == "stretched":
            return f"axis {rule.axis - self.rank}: {sizes} → {rule.size} (stretch " + \
                ", ".join(self.names[k] for k in rule.stretched) + ")"
        return f"axis {rule.axis - self.rank}: {sizes} equal"

    def source_index(self, result_index):
        """For a cell of the result, the index of the cell of each operand that produced it."""
        if not self.ok:
            raise ValueError("These shapes do not broadcast: the result has no cells.")
        result_index = tuple(result_index)
        sources = []
        for shape in self.shapes:
            tail = result_index[len(result_index) - len(shape):] if shape else ()
            sources.append(tuple(0 if d == 1 else i for d, i in zip(shape, tail)))
        return sources

    def reduced_axes(self, k):
        """The result axes the gradient of operand k is summed over (then reshaped to its
        shape): the padded axes on the left, and the axes where it was stretched."""
        if not self.ok:
            raise ValueError("These shapes do not broadcast: there is no gradient.")
        missing = self.rank - len(self.shapes[k])
        return tuple(i for i in range(self.rank)
                     if i < missing or k in self.axes[i].stretched)

    # --- what the engine says --------------------------------------------------------
    def _check_size(self):
        for s in self.shapes:
            if int(np.prod(s)) > MAX_ELEMENTS:
                raise ValueError(f"Shape {s} has more than {MAX_ELEMENTS} elements; the "
                                 "explorer computes real tensors, so keep shapes small.")

    def operands(self):
        """The operands as tensors: a = 0, 1, 2, ...; b = 0, 10, 20, ...; c = 0, 100, 200, ..."""
        self._check_size()
        return [tf.constant(np.arange(int(np.prod(s)), dtype=np.float32).reshape(s) * 10.0 ** k)
                for k, s in enumerate(self.shapes)]

    def _sum(self, tensors):
        total = tensors[0]
        for t in tensors[1:]:
            total = tf.add(total, t)
        return total

    def error(self):
        """(error class name, message) exactly as minitf raises them for `a + b (+ c)`,
        or None when the shapes broadcast."""
        if self.ok:
            return None
        if self._error is None:
            try:
                self._sum(self.operands())
            except errors.OpError as exc:
                self._error = (type(exc).__name__, str(exc))
            else:  # the engine accepted what the rules reject: say so loudly
                raise AssertionError(f"minitf broadcast {self.shapes} but the rules say no")
        return self._error

    def values(self):
        """The result of `a + b (+ c)` computed by minitf (NumPy array)."""
        if self._values is None:
            if not self.ok:
                raise ValueError("These shapes do not broadcast: there is no result.")
            self._values = self._sum(self.operands()).numpy()
        return self._values

    def gradients(self):
        """The tape's gradient of `sum(a + b (+ c))` with respect to each operand
        (NumPy arrays): each cell counts how many result cells it was copied into."""
        if self._gradients is None:
            if not self.ok:
                raise ValueError("These shapes do not broadcast: there is no gradient.")
            xs = self.operands()
            with tf.GradientTape() as tape:
                tape.watch(xs)
                total = tf.reduce_sum(self._sum(xs))
            self._gradients = [g.numpy() for g in tape.gradient(total, xs)]
        return self._gradients

    def table(self, step):
        """Rows of (text, status) cells for the per-axis table at `step`: one row per
        operand, then the verdict per axis (from step 2), then the result (step 4)."""
        rows = []
        for name, sizes in zip(self.names, self.aligned(step)):
            rows.append((name, [("" if s is None else str(s), "padded" if step >= 1 and
                                 i < self.rank - len(self.shapes[NAMES.index(name)])
                                 else "plain") for i, s in enumerate(sizes)]))
        if step >= 2:
            rows.append(("rule", [(r.status if r.status != "stretched" else "stretch " + ",".join(
                self.names[k] for k in r.stretched), r.status) for r in self.axes]))
        if step >= 4 and self.ok:
            rows.append(("result", [(str(r.size), "result") for r in self.axes]))
        return rows


# --- the widget ---------------------------------------------------------------------------
import ipywidgets as widgets  # noqa: E402 - the view needs it; the plan above does not
from html import escape  # noqa: E402

from ._broadcast_draw import (COLORS, _cell_text, _grid, draw,  # noqa: E402, F401
                              drawable)
from ._render import Picture, figure_png  # noqa: E402
from ._view import ExplorerView  # noqa: E402

_STATUS_COLOURS = {"equal": "#c8ecc9", "stretched": "#fff1b3", "incompatible": "#f8c9c4",
                   "padded": "#eeeeee", "plain": "#ffffff", "result": "#dfe7f5"}


def parse_shape(text):
    """ "3, 1" or "(3, 1)" or "[3,1]" -> (3, 1); "" or "()" -> ()."""
    cleaned = text.strip().strip("()[]").replace(" ", "")
    if not cleaned:
        return ()
    try:
        return tuple(int(part) for part in cleaned.split(",") if part != "")
    except ValueError:
        raise ValueError(f"Could not read the shape {text!r}: write sizes separated by "
                         "commas, like 3, 1.") from None


def _rgba(colour, alpha):
    r, g, b = (int(255 * c) for c in colour)
    return f"rgba({r},{g},{b},{alpha})"


def grid_html(plan, step, selected=None, show_gradient=False):
    """The cell grids as HTML tables (fast to redraw; hover a cell for where it came from).

    Same picture as `draw`: operands over their own shape before step 3, over the
    result's shape from step 3 on (stretched copies faint), the result at step 4.
    """
    broadcast_view = step >= 3 and plan.ok
    if not drawable(plan, step):
        return "<p><i>Too many cells to draw one by one; see the table.</i></p>"
    values = [op.numpy() for op in plan.operands()]
    grads = plan.gradients() if show_gradient and broadcast_view else None
    rows = list(range(len(plan.shapes))) + ([len(plan.shapes)] if broadcast_view and step >= 4
                                            else [])
    parts = []
    for k in rows:
        is_result = k == len(plan.shapes)
        drawn = plan.result_shape if broadcast_view else plan.padded[k]
        name = " + ".join(plan.names) if is_result else plan.names[k]
        label = "gradient of " + name if grads is not None and not is_result else name
        parts.append(f"<div style='margin:4px 0'><b>{label}</b> "
                     f"<code>{list(drawn) if is_result else list(plan.shapes[k])}</code>"
                     f"<div>{_panels_html(plan, k, drawn, broadcast_view, values, grads, selected)}"
                     "</div></div>")
    return "".join(parts)


def _panels_html(plan, k, drawn, broadcast_view, values, grads, selected):
    is_result = k == len(plan.shapes)
    padded = drawn if is_result else plan.padded[k]
    colour = COLORS[3] if is_result else COLORS[k]
    marked = None
    if selected is not None and broadcast_view:
        marked = selected if is_result else tuple(0 if p == 1 else i
                                                  for p, i in zip(padded, selected))
    panels, n_rows, n_cols = _grid(drawn)
    tables = []
    for panel in range(panels):
        trs = []
        for r in range(n_rows):
            tds = []
            for c in range(n_cols):
                index = _index_of(drawn, panel, r, c)
                ghost = not is_result and broadcast_view and any(
                    p == 1 and i > 0 for p, i in zip(padded, index))
                text = _cell_text(plan, k, index, is_result, broadcast_view, values, grads)
                border = "2px solid #d62728" if index == marked else "1px solid #fff"
                tip = _tooltip(plan, k, index, is_result, broadcast_view)
                tds.append(f"<td title='{tip}' style='background:{_rgba(colour, 0.25 if ghost else 0.85)};"
                           f" border:{border}; min-width:26px; height:22px; text-align:center;"
                           f" font:11px monospace'>{text}</td>")
            trs.append("<tr>" + "".join(tds) + "</tr>")
        tables.append("<table style='border-collapse:collapse; display:inline-table; "
                      "margin-right:12px'>" + "".join(trs) + "</table>")
    return "".join(tables)


def _index_of(shape, panel, r, c):
    if len(shape) == 0:
        return ()
    if len(shape) == 1:
        return (c,)
    lead = tuple(int(i) for i in np.unravel_index(panel, shape[:-2])) if len(shape) > 2 else ()
    return lead + (r, c)


def _tooltip(plan, k, index, is_result, broadcast_view):
    where = ", ".join(map(str, index))
    if is_result:
        parts = [f"{n}[{', '.join(map(str, s))}]"
                 for n, s in zip(plan.names, plan.source_index(index))]
        return f"result[{where}] = " + " + ".join(parts)
    if broadcast_view:
        own = plan.source_index(index)[k]
        return f"{plan.names[k]}[{', '.join(map(str, own))}] seen at result[{where}]"
    return f"{plan.names[k]} (padded) [{where}]"


def table_html(plan, step):
    """The per-axis table as HTML, cells coloured compatible / stretched / incompatible."""
    head = "".join(f"<th style='padding:2px 8px'>axis {i - plan.rank}</th>"
                   for i in range(plan.rank))
    body = []
    for name, cells in plan.table(step):
        tds = "".join(f"<td style='background:{_STATUS_COLOURS.get(status, '#fff')}; "
                      f"padding:2px 8px; text-align:center'>{escape(text)}</td>"
                      for text, status in cells)
        body.append(f"<tr><th style='padding:2px 8px; text-align:left'>{name}</th>{tds}</tr>")
    return (f"<table style='border-collapse:collapse; font-family:monospace'>"
            f"<tr><th></th>{head}</tr>{''.join(body)}</table>")


class BroadcastExplorer(ExplorerView):
    """Live broadcasting explorer: `BroadcastExplorer((3, 1), (4,))` (2 or 3 shapes).

    Keyboard and mouse: shape boxes (Enter to apply), a preset menu, a step
    slider with ◀ ▶ buttons, a result-cell slider, and a "gradient" toggle.
    `static()` returns a PNG of the current state.
    """

    def __init__(self, *shapes, step=4):
        super().__init__()
        shapes = shapes or PRESETS["outer sum: (3, 1) + (4,)"]
        self.plan = BroadcastPlan(*shapes)
        self.step, self.selected_flat, self.show_gradient = step, 0, False
        self._build_controls(shapes)
        self.refresh()

    # --- controls ----------------------------------------------------------------------
    def _build_controls(self, shapes):
        w = widgets
        self.preset = w.Dropdown(options=["custom"] + list(PRESETS), value="custom",
                                 description="preset")
        self.boxes = [w.Text(value=", ".join(map(str, s)) if k < len(shapes) else "",
                             description=f"{NAMES[k]}:", continuous_update=False,
                             placeholder="(none)" if k == 2 else "",
                             layout=w.Layout(width="160px"))
                      for k, s in enumerate(list(shapes) + [()] * (3 - len(shapes)))]
        self.step_slider = w.IntSlider(value=self.step, min=0, max=len(STEPS) - 1,
                                       description="step", readout=False)
        self.step_label = w.Label()
        self.back = w.Button(description="◀", layout=w.Layout(width="40px"))
        self.forward = w.Button(description="▶", layout=w.Layout(width="40px"))
        self.cell = w.IntSlider(value=0, min=0, max=0, description="result cell")
        self.gradient = w.ToggleButton(value=False, description="gradient",
                                       tooltip="show the tape's gradient for each operand")
        self.explanation, self.table = w.HTML(), w.HTML()
        self.selection, self.gradient_text = w.HTML(), w.HTML()
        self.grid = w.HTML()
        self.preset.observe(self.guard(self._on_preset), names="value")
        for box in self.boxes:
            box.observe(self.guard(self._on_shapes), names="value")
        self.step_slider.observe(self.guard(lambda change: self.set_step(change["new"])),
                                 names="value")
        self.back.on_click(self.guard(lambda _: self.set_step(max(0, self.step - 1))))
        self.forward.on_click(self.guard(
            lambda _: self.set_step(min(len(STEPS) - 1, self.step + 1))))
        self.cell.observe(self.guard(lambda change: self.select(change["new"])), names="value")
        self.gradient.observe(self.guard(lambda change: self.set_gradient(change["new"])),
                              names="value")
        self.children = [w.HBox([self.preset] + self.boxes),
                         w.HBox([self.back, self.step_slider, self.forward, self.step_label]),
                         self.explanation, self.table, w.HBox([self.cell, self.gradient]),
                         self.selection, self.gradient_text, self.grid, self.error]

    def _on_preset(self, change):
        if change["new"] in PRESETS:
            self.set_shapes(*PRESETS[change["new"]])

    def _on_shapes(self, change):
        shapes = [parse_shape(b.value) for b in self.boxes[:2]]
        if self.boxes[2].value.strip():
            shapes.append(parse_shape(self.boxes[2].value))
        self.set_shapes(*shapes, from_boxes=True)

    # --- update paths (what every control calls; benchmarks/widgets.py times them) ------
    def set_shapes(self, *shapes, from_boxes=False):
        self.plan = BroadcastPlan(*shapes)
        if not from_boxes:
            for k, box in enumerate(self.boxes):
                with box.hold_trait_notifications():
                    box.unobserve_all("value")
                    box.value = ", ".join(map(str, shapes[k])) if k < len(shapes) else ""
                    box.observe(self.guard(self._on_shapes), names="value")
        self.selected_flat = 0
        self.refresh()

    def set_step(self, step):
        self.step = step
        self.refresh()

    def select(self, flat_index):
        self.selected_flat = flat_index
        self.refresh()

    def set_gradient(self, on):
        self.show_gradient = bool(on)
        self.refresh()

    # --- drawing -----------------------------------------------------------------------
    def selected_index(self):
        if not self.plan.ok or int(np.prod(self.plan.result_shape)) == 0:
            return None
        flat = min(self.selected_flat, int(np.prod(self.plan.result_shape)) - 1)
        return tuple(int(i) for i in np.unravel_index(flat, self.plan.result_shape))

    def refresh(self):
        plan, step = self.plan, self.step
        self._sync_controls()
        self.step_label.value = f"{step + 1}/{len(STEPS)}: {STEPS[step]}"
        self.explanation.value = f"<p>{escape(plan.explain(step))}</p>"
        self.table.value = table_html(plan, step)
        self.selection.value = self._selection_html()
        self.gradient_text.value = self._gradient_html()
        self.grid.value = grid_html(plan, step, self.selected_index() if step >= 3 else None,
                                    self.show_gradient)

    def _sync_controls(self):
        """Move sliders to the current state without re-triggering their callbacks."""
        size = int(np.prod(self.plan.result_shape)) if self.plan.ok else 0
        for slider, value, top in ((self.step_slider, self.step, len(STEPS) - 1),
                                   (self.cell, min(self.selected_flat, max(size - 1, 0)),
                                    max(size - 1, 0))):
            if slider.max != top or slider.value != value:
                trait_callbacks = slider._trait_notifiers.get("value", {}).get("change", [])
                saved = list(trait_callbacks)
                trait_callbacks.clear()
                slider.max, slider.value = top, value
                trait_callbacks.extend(saved)
        self.cell.disabled = size == 0

    def _selection_html(self):
        plan = self.plan
        if not plan.ok:
            name, message = plan.error()
            return (f"<pre style='color:#b00020; white-space:pre-wrap'>{name}: "
                    f"{escape(message)}</pre>")
        index = self.selected_index()
        if index is None or self.step < 3:
            return ""
        parts = [f"{n}[{', '.join(map(str, s))}]" for n, s in zip(plan.names,
                                                                  plan.source_index(index))]
        return (f"<p><code>result[{', '.join(map(str, index))}] = {' + '.join(parts)} = "
                f"{plan.values()[index]:g}</code></p>")

    def _gradient_html(self):
        plan = self.plan
        if not self.show_gradient:
            return ""
        if not plan.ok:
            return "<p>No gradient: the forward pass fails.</p>"
        lines = []
        for k, (name, grad) in enumerate(zip(plan.names, plan.gradients())):
            axes = plan.reduced_axes(k)
            how = (f"summed over result axes {axes}, then reshaped to {list(plan.shapes[k])}"
                   if axes else "not broadcast: passed through unchanged")
            lines.append(f"<li><code>tape.gradient(sum(y), {name})</code>: shape "
                         f"{list(grad.shape)}, {how}</li>")
        return "<ul>" + "".join(lines) + "</ul>"

    def static(self):
        """A PNG of the current state (shown by notebooks that cannot run the widget)."""
        png = figure_png(draw(self.plan, self.step, self.selected_index()
                              if self.step >= 3 else None, self.show_gradient))
        shapes = " and ".join(str(s) for s in self.plan.shapes)
        return Picture(png=png, text=f"BroadcastExplorer: {shapes} -> "
                                     f"{self.plan.result_shape if self.plan.ok else 'error'}")
