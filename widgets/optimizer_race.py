"""Optimizer race: minitf's own Keras optimizers, side by side on a 2-D surface.

In a notebook:

    from widgets.optimizer_race import OptimizerRace
    OptimizerRace("rosenbrock")

The logic is `Race`, which draws nothing. For each optimizer it makes a
`tf.Variable([x0, y0])` and a real `tf.keras.optimizers` object, and runs
the training loop a learner would write: loss under a `tf.GradientTape`,
`tape.gradient`, `opt.apply_gradients`. After every step it records the
position, the gradient, the loss and every slot variable
(`opt.get_slot(var, name)`), so the panel shows the optimizer's real state.
A run that leaves the picture or turns non-finite is flagged as diverged and
stops there (not drawn as garbage).

>>> race = Race("quadratic", optimizers=["SGD", "Adam"], steps=3)
>>> [round(float(v), 3) for v in race.trajectories["SGD"].positions[1]]  # x - 0.03·grad
[-0.45, 2.425]
>>> race.trajectories["Adam"].slot_names
['momentum', 'velocity']
>>> race.trajectories["SGD"].diverged is None
True
"""
import asyncio
import time
from html import escape

import ipywidgets as widgets
import numpy as np

import minitf as tf

from ._race_draw import RaceFigure, loss_axis_limits  # noqa: F401 - loss_axis_limits: API
from ._race_equations import update_equation
from ._render import Picture
from ._view import FULL_DESCRIPTION, ExplorerView
from .surfaces import get_surface, quadratic_surface

K = tf.keras.optimizers
# name -> (factory(learning_rate), family): "sgd" takes the surface's SGD demo rate.
OPTIMIZERS = {
    "SGD": (lambda lr: K.SGD(lr), "sgd"),
    "momentum": (lambda lr: K.SGD(lr, momentum=0.9), "sgd"),
    "nesterov": (lambda lr: K.SGD(lr, momentum=0.9, nesterov=True), "sgd"),
    "Adagrad": (lambda lr: K.Adagrad(lr), "adaptive"),
    "RMSprop": (lambda lr: K.RMSprop(lr), "adaptive"),
    "Adadelta": (lambda lr: K.Adadelta(lr), "adadelta"),
    "Adam": (lambda lr: K.Adam(lr), "adaptive"),
    "Nadam": (lambda lr: K.Nadam(lr), "adaptive"),
}
COLORS = dict(zip(OPTIMIZERS, ["#1f77b4", "#ff7f0e", "#2ca02c", "#d62728", "#9467bd",
                               "#8c564b", "#e377c2", "#17becf"]))


def make_optimizer(name, learning_rate=None):
    """A fresh optimizer by race name; learning_rate None means TF's default.

    >>> make_optimizer("nesterov", 0.1).nesterov
    True
    """
    factory, _ = OPTIMIZERS[name]
    return factory(tf_default_learning_rate(name) if learning_rate is None else learning_rate)


def tf_default_learning_rate(name):
    """TF's default learning rate for the race's optimizer `name`.

    >>> tf_default_learning_rate("SGD"), tf_default_learning_rate("Adam")
    (0.01, 0.001)
    """
    return 0.01 if OPTIMIZERS[name][1] == "sgd" else 0.001


def demo_learning_rate(surface, name):
    """A learning rate that makes the race visible on `surface` in ~100 steps."""
    surface = get_surface(surface)
    family = OPTIMIZERS[name][1]
    if family == "sgd":
        return surface.sgd_lr
    return surface.adaptive_lr * (20.0 if family == "adadelta" else 1.0)


class Trajectory:
    """One optimizer's run. Row k of each array is the state after k steps.

    positions, gradients: (n+1, 2); losses: (n+1,); slots: name -> (n+1, 2) array
    (row 0 is the slot's initial value); diverged: the first step whose position is
    non-finite or far outside the picture (the arrays stop there), or None.
    """

    def __init__(self, name, learning_rate, positions, gradients, losses, slots, diverged,
                 optimizer):
        self.name, self.learning_rate = name, learning_rate
        self.positions, self.gradients = np.array(positions), np.array(gradients)
        self.losses, self.diverged, self.optimizer = np.array(losses), diverged, optimizer
        self.slots = {k: np.array(v) for k, v in slots.items()}
        self.slot_names = list(slots)

    complete = True  # False while a view is still computing the rest

    @property
    def step_lengths(self):
        """(n,) the distance moved by each step: |x_k − x_(k−1)| for k = 1 … n."""
        return np.linalg.norm(np.diff(self.positions.reshape(-1, 2), axis=0), axis=1)

    @property
    def steps(self):
        """How many steps were recorded (fewer than asked when the run diverged)."""
        return len(self.positions) - 1

    def at(self, step):
        """The recorded step nearest to `step` (a diverged run stays at its last point)."""
        return min(step, self.steps)


class Runner:
    """One optimizer's run, advanced a few steps at a time (so a view can show the first
    steps at once and compute the rest while the learner watches).

    This is the plain training loop: tape, gradient, apply_gradients, on a real
    `tf.Variable` with a real optimizer; after every step it records the position,
    gradient, loss and `opt.get_slot(var, name)` for each slot.
    """

    def __init__(self, surface, optimizer, start, steps, name=None):
        self.surface = get_surface(surface)
        self.optimizer, self.steps = optimizer, int(steps)
        self.name = name or type(optimizer).__name__
        self.point = tf.Variable(list(start), dtype=tf.float32, name="point")
        optimizer.build([self.point])  # the slots exist (at their initial values) before step 1
        self.slot_names = optimizer.get_slot_names()
        self.limit = 10.0 * max(abs(v) for v in self.surface.xlim + self.surface.ylim)
        self.positions, self.gradients, self.losses = [], [], []
        self.slots = {n: [] for n in self.slot_names}
        self.diverged, self.done = None, False
        self._trajectory = None

    def advance(self, count):
        """Record `count` more points (each after one more optimizer step)."""
        for _ in range(count):
            if self.done:
                break
            step = len(self.positions)
            with tf.GradientTape() as tape:
                loss = self.surface(self.point)
            grad = tape.gradient(loss, self.point)
            position, value = self.point.numpy(), float(loss.numpy())
            if not (np.all(np.isfinite(position)) and np.all(np.abs(position) < self.limit)
                    and np.isfinite(value)):
                self.diverged, self.done = step, True
                break
            self.positions.append(position)
            self.gradients.append(grad.numpy())
            self.losses.append(value)
            for n in self.slot_names:
                self.slots[n].append(self.optimizer.get_slot(self.point, n).numpy())
            if step < self.steps:
                self.optimizer.apply_gradients([(grad, self.point)])
            else:
                self.done = True
        self._trajectory = None

    def finish(self):
        """Run to the end; returns self."""
        self.advance(self.steps + 1 - len(self.positions))
        return self

    @property
    def recorded(self):
        """How many steps are recorded so far."""
        return len(self.positions) - 1

    def trajectory(self):
        """A `Trajectory` of what is recorded so far."""
        if self._trajectory is None:
            self._trajectory = Trajectory(
                self.name, float(self.optimizer.learning_rate.numpy()), self.positions,
                self.gradients, self.losses, self.slots, self.diverged, self.optimizer)
            self._trajectory.complete = self.done
        return self._trajectory


def run_optimizer(surface, optimizer, start, steps, name=None):
    """Run `optimizer` on `surface` from `start` for `steps` steps; a `Trajectory`.

    This is the plain training loop: tape, gradient, apply_gradients (see `Runner`).
    """
    return Runner(surface, optimizer, start, steps, name).finish().trajectory()


class Race:
    """Trajectories of several optimizers on one surface (no drawing).

    surface: a name from `surfaces.SURFACES` or a `Surface`.
    optimizers: names from `OPTIMIZERS` (all of them by default).
    learning_rates: name -> rate; "demo" (the default) uses rates that show the race on
        this surface, "tf" uses TF's defaults (which barely move here).
    start: (x0, y0), the surface's default start by default.
    """

    def __init__(self, surface, optimizers=None, steps=100, start=None,
                 learning_rates="demo"):
        self.surface = get_surface(surface)
        self.names = list(optimizers or OPTIMIZERS)
        for n in self.names:
            if n not in OPTIMIZERS:
                raise ValueError(f"Unknown optimizer {n!r}. Known: {list(OPTIMIZERS)}.")
        self.steps = int(steps)
        self.start = tuple(float(v) for v in (start or self.surface.start))
        self.learning_rates = self.preset(learning_rates)
        self.trajectories, self.runners = {}, {}
        self.rerun()

    def preset(self, which):
        """name -> learning rate for "demo" or "tf", or a dict overriding the demo rates."""
        self.preset_name = which if isinstance(which, str) else "custom"
        if which == "tf":
            return {n: tf_default_learning_rate(n) for n in self.names}
        rates = {n: demo_learning_rate(self.surface, n) for n in self.names}
        if isinstance(which, dict):
            rates.update(which)
        return rates

    def rerun(self, names=None, complete=True):
        """Recompute the trajectories of `names` (all by default). complete=False only
        starts them: `advance` computes the rest a slice at a time."""
        for n in names or self.names:
            runner = Runner(self.surface, make_optimizer(n, self.learning_rates[n]),
                            self.start, self.steps, name=n)
            runner.advance(1)  # the start point
            self.runners[n] = runner
        if complete:
            self.advance()
        else:
            self.trajectories.update({n: r.trajectory() for n, r in self.runners.items()})

    @property
    def pending(self):
        """Names of the optimizers whose trajectories are not computed to the end yet."""
        return [n for n, r in self.runners.items() if not r.done]

    def advance(self, seconds=None, chunk=2, clock=time.perf_counter):
        """Compute pending trajectories, `chunk` steps per optimizer in turn (so they
        grow together), for about `seconds` (to the end when None). Returns the
        pending names left."""
        began = clock()
        while self.runners:
            # the least advanced first, so the runs grow together across calls
            name = min(self.runners, key=lambda n: self.runners[n].recorded)
            runner = self.runners[name]
            runner.advance(chunk)
            self.trajectories[name] = runner.trajectory()
            if runner.done:
                del self.runners[name]
            if seconds is not None and clock() - began >= seconds:
                break
        return self.pending

    def computed_steps(self):
        """The fewest steps computed so far over all optimizers (diverged runs count
        as complete)."""
        return min((r.recorded for r in self.runners.values()), default=self.steps)

    def set_learning_rate(self, name, learning_rate, complete=True):
        """Change one optimizer's learning rate and recompute its trajectory."""
        self.learning_rates[name] = float(learning_rate)
        self.preset_name = "custom"
        self.rerun([name], complete)

    def set_start(self, x, y, complete=True):
        """Move the start point and recompute every trajectory."""
        self.start = (float(x), float(y))
        self.rerun(complete=complete)

    def use_preset(self, which, complete=True):
        """Switch every learning rate to the "demo" or "tf" preset and recompute."""
        self.learning_rates = self.preset(which)
        self.rerun(complete=complete)

    def set_surface(self, surface, complete=True):
        """Race on another surface (same start point); a "demo" or "tf" preset is
        re-read for it, custom learning rates are kept."""
        self.surface = get_surface(surface)
        if self.preset_name in ("demo", "tf"):
            self.learning_rates = self.preset(self.preset_name)
        self.rerun(complete=complete)

    def state_rows(self, name, step):
        """(label, value) rows for optimizer `name` after `step` steps: where it is, the
        gradient there, the loss, the last step and the per-axis learning rate it
        amounted to (SGD: the learning rate; adaptive optimizers: their own per axis),
        then each slot variable as `get_slot` returned it."""
        t = self.trajectories[name]
        k = t.at(step)
        rows = [("step", f"{k}" + (f" (diverged at step {t.diverged})" if t.diverged
                                   is not None else "")),
                ("learning_rate", f"{t.learning_rate:.4g}"),
                ("position [x, y]", _pair(t.positions[k])),
                ("gradient", _pair(t.gradients[k])),
                ("loss", f"{t.losses[k]:.6g}")]
        if k > 0:
            delta = t.positions[k] - t.positions[k - 1]
            grad = t.gradients[k - 1]
            safe = np.where(grad == 0, np.nan, grad)
            rows += [("last step Δ = new - old", _pair(delta)),
                     ("effective lr per axis Δ/(-grad)", _pair(-delta / safe))]
        rows += [(f"get_slot(point, {s!r})", _pair(t.slots[s][k])) for s in t.slot_names]
        if not t.slot_names:
            rows.append(("slots", "none: plain SGD keeps no state"))
        return rows

    def summary(self, step):
        """One line per optimizer: loss after `step` steps, or where it diverged."""
        lines = []
        for n in self.names:
            t = self.trajectories[n]
            k = t.at(step)
            tail = f"  DIVERGED at step {t.diverged}" if t.diverged is not None else ""
            lines.append(f"{n:9s} lr={t.learning_rate:<8.4g} loss={t.losses[k]:.4g}{tail}")
        return lines


def _condition_number(surface):
    """κ of a `quadratic_surface`, None for the other surfaces."""
    return getattr(surface.function, "condition_number", None)


def _pair(values):
    return "[" + ", ".join(f"{v:.5g}" for v in np.asarray(values).ravel()) + "]"


def state_html(race, name, step):
    """The internal-state panel: `Race.state_rows` as an HTML table, then the update
    equation of the step that led here with its numbers (`_race_equations.py`)."""
    rows = "".join(f"<tr><td style='padding-right:10px'><code>{label}</code></td>"
                   f"<td><code>{value}</code></td></tr>"
                   for label, value in race.state_rows(name, step))
    lines, _ = update_equation(race.trajectories[name], step)
    equation = ("<div>the update of this step:</div><pre style='font-size:85%'>"
                + escape("\n".join(lines)) + "</pre>") if lines else ""
    return f"<b>{name}</b> after step {step}<table>{rows}</table>{equation}"


class OptimizerRace(ExplorerView):
    """`OptimizerRace("rosenbrock")`: minitf's optimizers racing on a 2-D surface.

    Controls (all keyboard usable: Tab to a control, arrow keys to move it): the step
    slider and play button scrub through the precomputed trajectories; a checkbox per
    optimizer shows or hides it; the "state of" dropdown picks the optimizer whose slot
    variables are shown and whose learning rate the log slider sets; "demo preset" and
    "TF defaults" switch every learning rate (TF's defaults barely move on these
    surfaces: the point of the demo preset); the x0 / y0 sliders move the start point;
    on the "quadratic" surface, the condition-number slider reshapes the bowl.
    Moving the step only redraws. The other controls re-run the optimizers: the first
    steps are drawn at once, and the rest are computed a slice at a time while the
    kernel is idle ("computing… k of 100 steps"), the paths growing after each slice;
    a newer change cancels the old runs. Called from code (`view.set_start(x, y)`),
    these methods compute everything before returning. `static()` is a PNG of the
    current picture.
    """

    def __init__(self, surface="rosenbrock", optimizers=None, steps=100, start=None,
                 learning_rates="demo", step=None):
        super().__init__()
        self.race = Race(surface, optimizers, steps, start, learning_rates)
        self.figure = RaceFigure(self.race, COLORS)
        self.step = self.race.steps if step is None else int(step)
        self._generation = 0
        self._build_controls()
        self.refresh()

    def _build_controls(self):
        w, race, s = widgets, self.race, self.race.surface
        self.slider = w.IntSlider(value=self.step, min=0, max=race.steps, description="step")
        self.play = w.Play(value=self.step, min=0, max=race.steps, interval=120)
        w.jslink((self.play, "value"), (self.slider, "value"))
        self.boxes = {n: w.Checkbox(value=True, description=n, indent=False,
                                    layout=w.Layout(width="112px")) for n in race.names}
        self.selected = w.Dropdown(options=race.names, value=race.names[-1],
                                   description="state of")
        self.rate = w.FloatLogSlider(value=race.learning_rates[self.selected.value],
                                     base=10, min=-5, max=1, step=0.1, readout_format=".2g",
                                     description="learning rate", continuous_update=False,
                                     style=FULL_DESCRIPTION)
        self.demo = w.Button(description="demo preset")
        self.defaults = w.Button(description="TF defaults")
        self.x0 = w.FloatSlider(value=race.start[0], min=s.xlim[0], max=s.xlim[1], step=0.05,
                                description="x0", continuous_update=False)
        self.y0 = w.FloatSlider(value=race.start[1], min=s.ylim[0], max=s.ylim[1], step=0.05,
                                description="y0", continuous_update=False)
        self.condition = w.FloatLogSlider(
            value=_condition_number(s) or 25.0, base=10, min=0, max=3, step=0.1,
            readout_format=".3g", description="condition number", continuous_update=False,
            style=FULL_DESCRIPTION, layout=w.Layout(display=None if _condition_number(s) else "none"))
        # natural size, never squeezed (narrower screens: scaled whole, aspect kept)
        self.image = w.Image(format="png", layout=w.Layout(flex="0 0 auto", max_width="100%",
                                                           height="auto"))
        self.state, self.summary = w.HTML(), w.HTML()
        self.slider.observe(self.guard(lambda c: self.set_step(c["new"])), names="value")
        for box in self.boxes.values():
            box.observe(self.guard(lambda _: self.refresh()), names="value")
        self.selected.observe(self.guard(lambda c: self.select(c["new"])), names="value")
        self.rate.observe(self.guard(lambda c: self.set_learning_rate(c["new"], True)),
                          names="value")
        self.demo.on_click(self.guard(lambda _: self.use_preset("demo", True)))
        self.defaults.on_click(self.guard(lambda _: self.use_preset("tf", True)))
        for box in (self.x0, self.y0):
            box.observe(self.guard(
                lambda _: self.set_start(self.x0.value, self.y0.value, True)), names="value")
        self.condition.observe(self.guard(
            lambda c: self.set_condition_number(c["new"], True)), names="value")
        side = w.VBox([self.selected, self.rate, self.state, self.summary])
        self.children = [w.HBox(list(self.boxes.values()), layout=w.Layout(flex_flow="wrap")),
                         w.HBox([self.play, self.slider, self.demo, self.defaults]),
                         w.HBox([self.x0, self.y0, self.condition]),
                         w.HBox([self.image, side], layout=w.Layout(flex_flow="row wrap")),
                         self.error]

    # --- update paths ------------------------------------------------------------------------
    def visible(self):
        """The optimizers whose checkbox is ticked."""
        return [n for n, box in self.boxes.items() if box.value]

    def set_step(self, step):
        """Show the race after `step` steps (only redraws: trajectories are precomputed)."""
        self.step = int(step)
        self.refresh()

    def select(self, name):
        """Show `name`'s slot variables; the learning-rate slider now sets its rate."""
        self._quietly(self.rate, self.race.learning_rates[name])
        self.refresh()

    def set_learning_rate(self, learning_rate, progressive=False):
        """Re-run the selected optimizer with a new learning rate.

        progressive=True (what the slider does) shows the first steps at once and
        computes the rest in slices while the kernel is idle (see `_continue`)."""
        began = time.perf_counter()
        self.race.set_learning_rate(self.selected.value, learning_rate, complete=False)
        self._rerun_done(progressive, began)

    def use_preset(self, which, progressive=False):
        """"demo" or "tf" learning rates for every optimizer."""
        began = time.perf_counter()
        self.race.use_preset(which, complete=False)
        self._quietly(self.rate, self.race.learning_rates[self.selected.value])
        self._rerun_done(progressive, began)

    def set_start(self, x, y, progressive=False):
        """Re-run every optimizer from (x, y)."""
        began = time.perf_counter()
        self.race.set_start(x, y, complete=False)
        self._rerun_done(progressive, began)

    def set_condition_number(self, condition_number, progressive=False):
        """The "quadratic" surface only: re-shape the bowl to condition number κ
        (curvature κ along x, 1 along y) and re-run every optimizer on it."""
        if _condition_number(self.race.surface) is None:
            raise ValueError("The condition number belongs to the 'quadratic' surface; this "
                             f"race runs on {self.race.surface.name!r}.")
        began = time.perf_counter()
        self.race.set_surface(quadratic_surface(condition_number), complete=False)
        self.figure.surface_changed()  # new contours, nothing else rebuilt
        self._quietly(self.rate, self.race.learning_rates[self.selected.value])
        # the whole figure is drawn again (~90 ms): show fewer first steps
        self._rerun_done(progressive, began, first_slice=self.FIRST_SLICE / 3)

    # A control's change computes steps until FIRST_SLICE seconds after the change and
    # draws them (what the learner waits for), then SLICE seconds at a time, redrawing
    # after each, scheduled on the kernel's event loop so that other controls stay
    # responsive in between.
    FIRST_SLICE, SLICE = 0.05, 0.1

    def _rerun_done(self, progressive, began, first_slice=None):
        self._generation += 1
        if not progressive:
            self.race.advance()
        else:
            first = self.FIRST_SLICE if first_slice is None else first_slice
            self.race.advance(max(first - (time.perf_counter() - began), 0))
        self.figure.sync()
        self.refresh()
        if self.race.pending:
            self.schedule(self._continue, self._generation)

    def _continue(self, generation):
        """Compute the next slice of the pending trajectories and redraw."""
        if generation != self._generation or not self.race.pending:
            return  # a newer change restarted the runs
        self.race.advance(self.SLICE)
        self.figure.sync()
        self.refresh()
        if self.race.pending:
            self.schedule(self._continue, generation)

    def schedule(self, callback, *args):
        """Run `callback(*args)` soon: on the running asyncio loop (in a notebook, the
        kernel's, so it runs once the current message is handled), or right away when
        there is no loop (a script or a test)."""
        guarded = self.guard(callback)
        try:
            loop = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        if loop is None:
            guarded(*args)
        else:
            loop.call_soon(guarded, *args)

    def finish(self):
        """Compute whatever is still pending, now (and redraw)."""
        self._generation += 1
        self.race.advance()
        self.figure.sync()
        self.refresh()

    def _quietly(self, control, value):
        """Set a control's value without running its callback."""
        notifiers = control._trait_notifiers.get("value", {}).get("change", [])
        saved = list(notifiers)
        notifiers.clear()
        control.value = value
        notifiers.extend(saved)

    def refresh(self):
        if self.slider.value != self.step:
            self._quietly(self.slider, self.step)
        self.image.value = self.figure.show(self.step, self.visible())
        self.state.value = state_html(self.race, self.selected.value, self.step)
        note = ""
        if self.race.pending:
            note += (f"<div style='color:#8a6d00'>computing… {self.race.computed_steps()} of "
                     f"{self.race.steps} steps</div>")
        if any(t.diverged is not None for t in self.race.trajectories.values()):
            note += ("<div>A diverged run stops at its last finite point; lower its "
                     "learning rate.</div>")
        if self.race.preset_name == "tf":
            note += ("<div style='color:#8a6d00'>TF's default learning rates (0.01 for SGD, "
                     "0.001 for the others) barely move on these surfaces in 100 steps: "
                     "that is why the demo preset exists.</div>")
        self.summary.value = ("<pre style='font-size:85%'>" + "\n".join(
            self.race.summary(self.step)) + "</pre>" + note)

    def static(self):
        """A PNG of the current picture (shown where widgets cannot run)."""
        return Picture(png=self.figure.show(self.step, self.visible()),
                       text="\n".join(self.race.summary(self.step)))
