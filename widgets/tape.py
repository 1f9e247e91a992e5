"""Tape stepper: what a `tf.GradientTape` recorded, then its backward pass, one step at a time.

In a notebook:

    from widgets.tape import TapeStepper
    TapeStepper(lambda x, w: x * w + tf.sin(x), tf.constant(2.0), tf.Variable(3.0))

The logic is `TapeTrace`, which draws nothing. It runs the function under a
real `tf.GradientTape`, reads the tape's own list of records
(`tape.recorded_operations()`), and runs the tape's own backward pass
(`minitf.framework.tape.backprop`) on those records while watching every
call to a gradient function - so the order, the upstream gradients, the
local contributions and the `+=` where a value is used twice are exactly
what the engine did. The final answer is `tape.gradient` itself:

>>> import minitf as tf
>>> trace = TapeTrace(lambda x: x * x + x, tf.constant(3.0))
>>> [r.type for r in trace.records]
['Mul', 'AddV2']
>>> print(trace.forward_text(1).splitlines()[0])
y = AddV2(t0, x) = 12
>>> [trace.records[s.record].type for s in trace.backward]   # newest first
['AddV2', 'Mul']
>>> trace.gradients                                           # what tape.gradient returned
[7.0]
>>> [line for line in trace.accumulation_lines() if "x" in line]
['grad[x] += 1 (from AddV2)', 'grad[x] += 3 (from Mul)  → 4', 'grad[x] += 3 (from Mul)  → 7']
"""
import inspect

import numpy as np

import minitf as tf
from minitf.framework import tape as tape_module
from minitf.framework.op import TapeRecord
from minitf.framework.variables import ReadVariableOp

from ._layout import FILL, Diagram


class _Observed:
    """Stands in for an op's declaration inside `backprop`, to see each gradient call.

    `backprop` calls `entry.op_def.grad(entry, *upstream)`; this object forwards the
    call to the real gradient function and notes its arguments and results. Every
    other attribute (name, hashing for lookups) is the real op's.
    """

    def __init__(self, op_def, index, log):
        self._op_def, self._index, self._log = op_def, index, log

    def grad(self, entry, *upstream):
        result = self._op_def.grad(entry, *upstream)
        self._log.append((self._index, entry, upstream, result))
        return result

    def __getattr__(self, name):
        return getattr(self._op_def, name)

    def __hash__(self):
        return hash(self._op_def)

    def __eq__(self, other):
        return other is self or other is self._op_def


class BackwardStep:
    """One call of a gradient function during the backward pass.

    record: index into `TapeTrace.records`; upstream: the gradient of each output
    (NumPy, or None if unused); contributions: (input position, NumPy gradient) for
    each input the tape kept a gradient for; local: for scalar ops, the local
    derivative of the output w.r.t. each input (the gradient function run on 1).
    """

    def __init__(self, record, upstream, contributions, local):
        self.record, self.upstream = record, upstream
        self.contributions, self.local = contributions, local


def _numpy(t):
    return None if t is None else np.asarray(t.numpy())


def _short(value):
    """A value in a few characters: scalars as numbers, arrays by shape."""
    if value is None:
        return "None"
    value = np.asarray(value)
    if value.ndim == 0:
        return f"{value.item():.4g}"
    if value.size <= 4:
        return np.array2string(value, precision=3, separator=", ")
    return f"array{list(value.shape)}"


class TapeTrace:
    """The forward recording and the backward pass of one `GradientTape` (no drawing).

    f: a function of the `inputs` (tensors, Variables or Python numbers).
    watch: the names (or positions) of the inputs to watch; None watches all of them.
        Constants are watched with `tape.watch`; Variables are watched automatically
        when read, unless left out of `watch` (then `watch_accessed_variables=False`).
    persistent: the tape's `persistent` flag (a second `gradient` call fails without it).
    stop_gradient: names (or positions) of inputs passed through `tf.stop_gradient`.
    """

    def __init__(self, f, *inputs, watch=None, persistent=False, stop_gradient=()):
        self.function = f
        self.inputs = [x if isinstance(x, (tf.Tensor, tf.Variable)) else tf.constant(x)
                       for x in inputs]
        self.names = _parameter_names(f, len(self.inputs))
        self.watched = self._positions(range(len(self.inputs)) if watch is None else watch)
        self.stopped = self._positions(stop_gradient)
        self.persistent = persistent
        variables = [i for i, x in enumerate(self.inputs) if isinstance(x, tf.Variable)]
        auto = all(i in self.watched for i in variables)
        with tf.GradientTape(persistent=persistent, watch_accessed_variables=auto) as tape:
            for i in self.watched:
                tape.watch(self.inputs[i])
            args = [tf.stop_gradient(x) if i in self.stopped else x
                    for i, x in enumerate(self.inputs)]
            self.target = f(*args)
        self.tape = tape
        self._analyse(tape.recorded_operations(), self.target, self.inputs, tape._watched)
        grads = tape.gradient(self.target, self.inputs)
        self.gradients = [None if g is None else _numpy(g).tolist() if np.ndim(g) else
                          float(g.numpy()) for g in grads]
        self.gradient_arrays = [_numpy(g) for g in grads]
        self.second_call = self._try_second_call()

    @classmethod
    def from_tape(cls, tape, target, sources, names=None):
        """A trace of a tape you recorded yourself (before its `gradient` call, or persistent)."""
        trace = cls.__new__(cls)
        trace.function, trace.inputs, trace.target = None, list(sources), target
        trace.names = list(names) if names else [f"x{i}" for i in range(len(sources))]
        trace.watched = [i for i, s in enumerate(sources)
                         if any(w is s for w in tape._watched.values())]
        trace.stopped, trace.persistent, trace.tape = [], tape._persistent, tape
        trace._analyse(tape.recorded_operations(), target, trace.inputs, tape._watched)
        grads = tape.gradient(target, trace.inputs)
        trace.gradient_arrays = [_numpy(g) for g in grads]
        trace.gradients = [None if g is None else g.tolist() if g.ndim else float(g)
                           for g in trace.gradient_arrays]
        trace.second_call = trace._try_second_call()
        return trace

    def _positions(self, chosen):
        return sorted({c if isinstance(c, int) else self.names.index(c) for c in chosen})

    def _try_second_call(self):
        """What a second `tape.gradient` call does: fine if persistent, else TF's error."""
        try:
            self.tape.gradient(self.target, self.inputs)
        except RuntimeError as exc:
            return f"RuntimeError: {exc}"
        return "a second tape.gradient call works (persistent tape)"

    # --- reading the engine ----------------------------------------------------------
    def _analyse(self, records, target, sources, watched):
        """Run the engine's backward pass over the records, noting every gradient call.

        `watched` is the tape's own table of watched tensors, handed to `backprop` as
        `tape.gradient` hands it: a source the tape does not watch gets no share (None),
        even where a recorded op used it.
        """
        self.records = records
        self.labels = self._label_tensors(records, target, sources)
        log = []
        observed = [TapeRecord(_Observed(r.op_def, i, log), r.inputs, r.outputs, r.attrs,
                               r.saved) for i, r in enumerate(records)]
        target_read = tape_module._as_differentiable(target)
        self.engine_result = tape_module.backprop(observed, [target_read],
                                                  list(sources), watched=dict(watched))
        self.backward = [self._step(index, entry, upstream, result)
                         for index, entry, upstream, result in log]

    def _step(self, index, entry, upstream, result):
        results = (result,) if isinstance(result, tf.Tensor) or result is None else result
        kept = [(i, _numpy(g)) for i, (g, wanted) in enumerate(zip(results, entry.wanted))
                if g is not None and wanted]
        local = None
        scalar = all(t.shape.rank == 0 for t in tuple(entry.inputs) + tuple(entry.outputs))
        if scalar and len(entry.outputs) == 1 and upstream[0] is not None:
            ones = entry.op_def._op_def.grad(entry, tf.ones_like(entry.outputs[0]))
            ones = (ones,) if isinstance(ones, tf.Tensor) or ones is None else ones
            local = {i: float(_numpy(ones[i])) for i, _ in kept if ones[i] is not None}
        return BackwardStep(index, [_numpy(g) for g in upstream], kept, local)

    def _label_tensors(self, records, target, sources):
        """id(tensor) -> a name: the inputs by parameter name, the rest t0, t1, ..."""
        labels = {id(s): n for s, n in zip(sources, self.names)}
        self.keys = {id(s): f"in{k}" for k, s in enumerate(sources)}  # stable DOT node ids
        target_id = id(tape_module._as_differentiable(target))
        for i, r in enumerate(records):
            for j, t in enumerate(r.inputs):
                self.keys.setdefault(id(t), f"c{i}_{j}")
            for j, out in enumerate(r.outputs):
                self.keys.setdefault(id(out), f"r{i}_{j}")
            if r.op_def is ReadVariableOp:
                labels[id(r.outputs[0])] = f"{labels.get(id(r.inputs[0]), 'v')}.read"
                continue
            for j, out in enumerate(r.outputs):
                name = "y" if id(out) == target_id else f"t{i}" if len(r.outputs) == 1 \
                    else f"t{i}_{j}"
                labels.setdefault(id(out), name)
        return labels

    def label(self, tensor):
        """The name the trace gives a tensor (inputs by name, constants by value)."""
        found = self.labels.get(id(tensor))
        if found is not None:
            return found
        value = _numpy(tensor._read() if isinstance(tensor, tf.Variable) else tensor)
        return _short(value) if value.ndim == 0 else f"const{list(value.shape)}"

    # --- what the stepper shows ----------------------------------------------------------
    def frames(self):
        """The stepper's frames: ("start"), one ("forward", i) per record, ("seed"),
        one ("backward", j) per gradient call, ("done")."""
        return ([("start", None)] + [("forward", i) for i in range(len(self.records))]
                + [("seed", None)] + [("backward", j) for j in range(len(self.backward))]
                + [("done", None)])

    def forward_text(self, i):
        """`t1 = Mul(x, w) = 6` and what the record keeps for the backward pass."""
        r = self.records[i]
        outs = ", ".join(self.label(t) for t in r.outputs)
        args = ", ".join(self.label(t) for t in r.inputs)
        values = ", ".join(_short(_numpy(t)) for t in r.outputs)
        saved = "its inputs and outputs (the record keeps the tensors)"
        if r.saved is not None:
            saved += f", plus {type(r.saved).__name__} saved by the forward"
        return f"{outs} = {r.type}({args}) = {values}\n  kept for backward: {saved}"

    def backward_text(self, j):
        """`Mul: upstream 1 × local 3 = 3 → grad[x]`, one line per input that gets a share."""
        step = self.backward[j]
        r = self.records[step.record]
        ups = ", ".join(f"grad[{self.label(t)}] = {_short(g)}"
                        for t, g in zip(r.outputs, step.upstream))
        lines = [f"{r.type}: upstream {ups}"]
        for i, g in step.contributions:
            name = self.label(r.inputs[i])
            if step.local is not None and i in step.local:
                lines.append(f"  ∂{self.label(r.outputs[0])}/∂{name} = {step.local[i]:.4g} (local)"
                             f" × {_short(step.upstream[0])} (upstream) = {_short(g)}"
                             f"  → grad[{name}] += {_short(g)}")
            else:
                lines.append(f"  {r.type}'s gradient function gives {_short(g)} for {name}"
                             f"  → grad[{name}] += {_short(g)}")
        return "\n".join(lines)

    def accumulated(self, upto):
        """id(tensor) -> list of gradient contributions after `upto` backward steps."""
        table = {id(tape_module._as_differentiable(self.target)): [np.ones(())]}
        for step in self.backward[:upto]:
            r = self.records[step.record]
            for i, g in step.contributions:
                table.setdefault(id(r.inputs[i]), []).append(g)
        return table

    def accumulation_lines(self, upto=None):
        """`grad[x] += 3 (from Mul)  → 7`: each contribution, with the running total where
        a tensor receives more than one (it was used more than once)."""
        upto = len(self.backward) if upto is None else upto
        seen, lines = {}, []
        for step in self.backward[:upto]:
            r = self.records[step.record]
            for i, g in step.contributions:
                key = id(r.inputs[i])
                seen[key] = g if key not in seen else seen[key] + g
                total = f"  → {_short(seen[key])}" if not np.array_equal(seen[key], g) else ""
                lines.append(f"grad[{self.label(r.inputs[i])}] += {_short(g)} "
                             f"(from {r.type}){total}")
        return lines

    def final_text(self):
        names = ", ".join(self.names)
        values = ", ".join(_short(g) for g in self.gradient_arrays)
        return (f"tape.gradient({self.label(self.target)}, [{names}]) = [{values}]\n"
                f"second call: {self.second_call}")

    def code(self):
        """The Python the trace ran, as a learner would write it."""
        variables = [i for i, x in enumerate(self.inputs) if isinstance(x, tf.Variable)]
        auto = all(i in self.watched for i in variables)
        flags = [f"persistent={self.persistent}"] if self.persistent else []
        if not auto:
            flags.append("watch_accessed_variables=False")
        lines = [f"with tf.GradientTape({', '.join(flags)}) as tape:"]
        lines += [f"    tape.watch({self.names[i]})" for i in self.watched
                  if i not in variables or not auto]
        args = ", ".join(f"tf.stop_gradient({n})" if i in self.stopped else n
                         for i, n in enumerate(self.names))
        lines += [f"    y = f({args})", f"tape.gradient(y, [{', '.join(self.names)}])"]
        return "\n".join(lines)

    def diagram(self, frame):
        """The computation as a `Diagram`, the current op highlighted, gradients so far."""
        kind, n = self.frames()[frame]
        done_forward = len(self.records) if kind not in ("start", "forward") else \
            (0 if kind == "start" else n + 1)
        current = n if kind == "forward" else \
            self.backward[n].record if kind == "backward" else None
        upto = {"backward": (n or 0) + 1, "done": len(self.backward)}.get(kind, 0)
        grads = self.accumulated(upto) if kind in ("seed", "backward", "done") else {}
        d = Diagram("tape")
        for s in self.inputs:
            self._tensor_node(d, s, grads, source=True, final=kind == "done")
        for i, r in enumerate(self.records):
            muted = i >= done_forward
            d.node(f"op{i}", r.type, fill=FILL["current"] if i == current else
                   FILL["muted"] if muted else FILL["op"], bold=i == current, dashed=muted)
            for t in r.inputs:
                if id(t) not in self.labels:
                    d.node(self.keys[id(t)], self.label(t), shape="note", fill=FILL["const"])
                elif self.keys[id(t)] not in d.nodes:
                    self._tensor_node(d, t, grads)
                d.edge(self.keys[id(t)], f"op{i}")
            for t in r.outputs:
                self._tensor_node(d, t, grads, muted=muted)
                d.edge(f"op{i}", self.keys[id(t)])
        return d

    def _tensor_node(self, d, t, grads, source=False, muted=False, final=False):
        """A tensor's ellipse: its name and value, and the gradient it has so far. At the
        end a source with no gradient says `grad None`, as `tape.gradient` does."""
        label = self.label(t)
        if isinstance(t, tf.Variable):
            label += f" = {_short(_numpy(t._read()))} (Variable)"
        elif not muted:
            label += " = " + _short(_numpy(t))
        if id(t) in grads:
            label += f"\ngrad {_short(sum(grads[id(t)]))}"
        elif source and final:
            label += "\ngrad None"
        d.node(self.keys[id(t)], label, shape="ellipse", dashed=muted,
               fill=FILL["input"] if source else FILL["muted"] if muted else FILL["output"])


def _parameter_names(f, count):
    try:
        names = [p.name for p in inspect.signature(f).parameters.values()
                 if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    except (TypeError, ValueError):
        names = []
    return (names + [f"x{i}" for i in range(len(names), count)])[:count]


# --- the widget ---------------------------------------------------------------------------
import ipywidgets as widgets  # noqa: E402 - the view needs it; the trace above does not
from html import escape  # noqa: E402

from ._render import Picture, diagram_svg, svg_html  # noqa: E402
from ._view import ExplorerView  # noqa: E402


def records_html(trace, frame):
    """The tape's records as a table, the current one highlighted."""
    kind, n = trace.frames()[frame]
    current = n if kind == "forward" else \
        trace.backward[n].record if kind == "backward" else None
    rows = ["<tr><th>#</th><th>op</th><th>inputs</th><th>outputs</th><th>kept</th></tr>"]
    for i, r in enumerate(trace.records):
        style = " style='background:#ffd54f'" if i == current else ""
        ins = ", ".join(trace.label(t) for t in r.inputs)
        outs = ", ".join(f"{trace.label(t)} = {_short(_numpy(t))}" for t in r.outputs)
        kept = "inputs, outputs" + (f", {type(r.saved).__name__}" if r.saved is not None else "")
        rows.append(f"<tr{style}><td>{i}</td><td>{r.type}</td><td>{escape(ins)}</td>"
                    f"<td>{escape(outs)}</td><td>{kept}</td></tr>")
    return ("<table style='border-collapse:collapse; font:12px monospace' cellpadding='3'>"
            + "".join(rows) + "</table>")


def frame_text(trace, frame):
    """What happens at `frame`, in words and numbers."""
    kind, n = trace.frames()[frame]
    if kind == "start":
        watched = ", ".join(trace.names[i] for i in trace.watched) or "nothing"
        return f"The tape starts recording; it watches: {watched}."
    if kind == "forward":
        return f"forward step {n + 1}/{len(trace.records)}:\n" + trace.forward_text(n)
    if kind == "seed":
        return (f"Backward pass: start from {trace.label(trace.target)} with gradient 1 "
                "(d y / d y), then visit the records newest first.")
    if kind == "backward":
        lines = trace.accumulation_lines(n + 1)
        return (f"backward step {n + 1}/{len(trace.backward)}:\n" + trace.backward_text(n)
                + "\n\nso far:\n  " + "\n  ".join(lines))
    return trace.final_text()


class TapeStepper(ExplorerView):
    """Step through a GradientTape: `TapeStepper(f, x, ...)` (see `TapeTrace` for the options).

    Mouse and keyboard: the frame slider (or ◀ ▶ and the play button) walks the
    forward recording and then the backward pass; checkboxes switch `watch`
    and `stop_gradient` per input and `persistent` for the tape. `static()`
    returns an SVG of the current frame.
    """

    def __init__(self, f, *inputs, watch=None, persistent=False, stop_gradient=(), frame=None):
        super().__init__()
        self._f, self._inputs = f, inputs
        self.trace = TapeTrace(f, *inputs, watch=watch, persistent=persistent,
                               stop_gradient=stop_gradient)
        self.frame = len(self.trace.frames()) - 1 if frame is None else frame
        self._build_controls()
        self.refresh()

    def _build_controls(self):
        w, trace = widgets, self.trace
        last = len(trace.frames()) - 1
        self.slider = w.IntSlider(value=self.frame, min=0, max=last, description="step")
        self.play = w.Play(value=self.frame, min=0, max=last, interval=900)
        w.jslink((self.play, "value"), (self.slider, "value"))
        self.back = w.Button(description="◀", layout=w.Layout(width="40px"))
        self.forward = w.Button(description="▶", layout=w.Layout(width="40px"))
        self.watch_boxes = [w.Checkbox(value=i in trace.watched, description=f"watch {n}",
                                       indent=False) for i, n in enumerate(trace.names)]
        self.stop_boxes = [w.Checkbox(value=i in trace.stopped,
                                      description=f"stop_gradient({n})", indent=False)
                           for i, n in enumerate(trace.names)]
        self.persistent = w.Checkbox(value=trace.persistent, description="persistent",
                                     indent=False)
        self.code, self.text, self.table, self.graph = w.HTML(), w.HTML(), w.HTML(), w.HTML()
        self.slider.observe(self.guard(lambda c: self.set_frame(c["new"])), names="value")
        self.back.on_click(self.guard(lambda _: self.set_frame(max(0, self.frame - 1))))
        self.forward.on_click(self.guard(
            lambda _: self.set_frame(min(len(self.trace.frames()) - 1, self.frame + 1))))
        for box in self.watch_boxes + self.stop_boxes + [self.persistent]:
            box.observe(self.guard(lambda _: self.rerun()), names="value")
        options = w.HBox(self.watch_boxes + self.stop_boxes + [self.persistent])
        left = w.VBox([self.code, self.table, self.text], layout=w.Layout(width="55%"))
        self.children = [options, w.HBox([self.play, self.back, self.slider, self.forward]),
                         w.HBox([left, self.graph]), self.error]

    # --- update paths --------------------------------------------------------------------
    def set_frame(self, frame):
        self.frame = frame
        self.refresh()

    def rerun(self):
        """Record again with the checkboxes' settings (a new tape, a new trace)."""
        names = self.trace.names
        self.trace = TapeTrace(
            self._f, *self._inputs, persistent=self.persistent.value,
            watch=[n for n, b in zip(names, self.watch_boxes) if b.value],
            stop_gradient=[n for n, b in zip(names, self.stop_boxes) if b.value])
        last = len(self.trace.frames()) - 1
        self.frame = last
        self.refresh()

    def refresh(self):
        trace, frame = self.trace, self.frame
        last = len(trace.frames()) - 1
        for control in (self.slider, self.play):
            if control.max != last:
                control.max = last
        if self.slider.value != frame:
            notifiers = self.slider._trait_notifiers.get("value", {}).get("change", [])
            saved = list(notifiers)
            notifiers.clear()
            self.slider.value = frame
            notifiers.extend(saved)
        self.code.value = f"<pre>{escape(trace.code())}</pre>"
        self.table.value = records_html(trace, frame)
        self.text.value = f"<pre style='white-space:pre-wrap'>{escape(frame_text(trace, frame))}</pre>"
        svg, notice = diagram_svg(trace.diagram(frame))
        self.graph.value = svg_html(svg, notice)

    def static(self):
        """An SVG of the current frame's graph (shown where widgets cannot run)."""
        svg, _ = diagram_svg(self.trace.diagram(self.frame))
        return Picture(svg=svg, text=frame_text(self.trace, self.frame))
