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
import io

import ipywidgets as widgets
import matplotlib.pyplot as plt
import numpy as np
from matplotlib.colors import LogNorm
from PIL import Image

import minitf as tf

from ._render import Picture  # (importing _render selects matplotlib's Agg backend)
from ._view import ExplorerView
from .surfaces import get_surface

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

    @property
    def steps(self):
        """How many steps were recorded (fewer than asked when the run diverged)."""
        return len(self.positions) - 1

    def at(self, step):
        """The recorded step nearest to `step` (a diverged run stays at its last point)."""
        return min(step, self.steps)


def run_optimizer(surface, optimizer, start, steps, name=None):
    """Run `optimizer` on `surface` from `start` for `steps` steps; a `Trajectory`.

    This is the plain training loop: tape, gradient, apply_gradients.
    """
    surface = get_surface(surface)
    point = tf.Variable(list(start), dtype=tf.float32, name="point")
    optimizer.build([point])  # the slots exist (at their initial values) before step 1
    names = optimizer.get_slot_names()
    limit = 10.0 * max(abs(v) for v in surface.xlim + surface.ylim)
    positions, gradients, losses = [], [], []
    slots = {n: [] for n in names}
    diverged = None
    for step in range(steps + 1):
        with tf.GradientTape() as tape:
            loss = surface(point)
        grad = tape.gradient(loss, point)
        position = point.numpy()
        if not (np.all(np.isfinite(position)) and np.all(np.abs(position) < limit)
                and np.isfinite(loss.numpy())):
            diverged = step
            break
        positions.append(position)
        gradients.append(grad.numpy())
        losses.append(float(loss.numpy()))
        for n in names:
            slots[n].append(optimizer.get_slot(point, n).numpy())
        if step < steps:
            optimizer.apply_gradients([(grad, point)])
    return Trajectory(name or type(optimizer).__name__, float(optimizer.learning_rate.numpy()),
                      positions, gradients, losses, slots, diverged, optimizer)


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
        self.trajectories = {}
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

    def rerun(self, names=None):
        """Recompute the trajectories of `names` (all by default)."""
        for n in names or self.names:
            optimizer = make_optimizer(n, self.learning_rates[n])
            self.trajectories[n] = run_optimizer(self.surface, optimizer, self.start,
                                                 self.steps, name=n)

    def set_learning_rate(self, name, learning_rate):
        """Change one optimizer's learning rate and recompute its trajectory."""
        self.learning_rates[name] = float(learning_rate)
        self.preset_name = "custom"
        self.rerun([name])

    def set_start(self, x, y):
        """Move the start point and recompute every trajectory."""
        self.start = (float(x), float(y))
        self.rerun()

    def use_preset(self, which):
        """Switch every learning rate to the "demo" or "tf" preset and recompute."""
        self.learning_rates = self.preset(which)
        self.rerun()

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


def _pair(values):
    return "[" + ", ".join(f"{v:.5g}" for v in np.asarray(values).ravel()) + "]"


# --- drawing ---------------------------------------------------------------------------------
def _png(canvas):
    """PNG bytes of what the Agg canvas holds now (deterministic: no timestamp)."""
    buffer = io.BytesIO()
    Image.fromarray(np.asarray(canvas.buffer_rgba())).save(buffer, format="png")
    return buffer.getvalue()


class RaceFigure:
    """A matplotlib figure of a race, drawn once; `show(step)` only moves its artists.

    Left: log-scaled contours, one path and one marker per optimizer, the minima as
    stars. Right: each optimizer's loss per step, a vertical line at the current step.
    The paths, markers, loss curves and the step line are "animated" artists: the rest
    (contours, axes) is drawn once into a saved background, and a step only restores it
    and draws the moving artists on top (matplotlib's blitting), then encodes a PNG.
    """

    def __init__(self, race):
        self.race = race
        self.fig, (self.ax, self.loss_ax) = plt.subplots(
            1, 2, figsize=(9.5, 4.7), dpi=80, gridspec_kw={"width_ratios": [1.35, 1]})
        s = race.surface
        gx, gy, z = s.value_grid()
        shifted = z - z.min() + 1e-2
        levels = np.logspace(np.log10(shifted.min()), np.log10(shifted.max()), 25)
        self.ax.contour(gx, gy, shifted, levels=levels, norm=LogNorm(), cmap="viridis",
                        linewidths=0.7)
        for mx, my in s.minima:
            self.ax.plot([mx], [my], "*", color="gold", markersize=13, markeredgecolor="k")
        self.ax.set(xlim=s.xlim, ylim=s.ylim, title=f"{s.name}: {s.note}")
        self.ax.title.set_fontsize(9)
        self.start_marker, = self.ax.plot([], [], "ko", markersize=5)
        self.paths, self.heads, self.loss_lines = {}, {}, {}
        for n in race.names:
            c = COLORS[n]
            self.paths[n], = self.ax.plot([], [], "-", color=c, linewidth=1.4, label=n)
            self.heads[n], = self.ax.plot([], [], "o", color=c, markersize=6,
                                          markeredgecolor="k")
            self.loss_lines[n], = self.loss_ax.plot([], [], "-", color=c, linewidth=1.2)
        self.fig.legend(handles=list(self.paths.values()), loc="lower center", fontsize=8,
                        ncol=len(self.paths), frameon=False)
        self.cursor = self.loss_ax.axvline(0, color="k", linewidth=0.8, linestyle=":")
        for artist in [self.cursor, *self.paths.values(), *self.heads.values(),
                       *self.loss_lines.values()]:
            artist.set_animated(True)
        self.loss_ax.set(title="loss per step", xlabel="step")
        self.loss_ax.title.set_fontsize(9)
        self.fig.tight_layout(rect=(0, 0.06, 1, 1))  # room for the legend below
        self.visible = set(race.names)
        self._drawn = None
        self.sync()

    def sync(self):
        """Re-read whole trajectories (after a learning-rate or start change); the
        background is redrawn only when the loss axis needs a new range."""
        race = self.race
        self.start_marker.set_data([race.start[0]], [race.start[1]])
        for n in race.names:
            t = race.trajectories[n]
            self.loss_lines[n].set_data(np.arange(t.steps + 1), t.losses)
        low = min(float(t.losses.min()) for t in race.trajectories.values())
        high = max(float(t.losses.max()) for t in race.trajectories.values())
        scale = "log" if low > 0 else "symlog"
        limits = ((max(low, 1e-12 * high) / 2, high * 2) if low > 0 else
                  (low - 0.05 * abs(low), high + 0.05 * abs(high) + 1e-3))
        wanted = (scale, limits, tuple(race.start), race.steps)
        if wanted != getattr(self, "_drawn", None):
            self.loss_ax.set_yscale(scale)
            self.loss_ax.set_ylim(*limits)
            self.loss_ax.set_xlim(0, max(race.steps, 1))
            self.fig.canvas.draw()  # everything but the animated artists
            self.background = self.fig.canvas.copy_from_bbox(self.fig.bbox)
            self._drawn = wanted

    def show(self, step, visible=None):
        """Move every path and marker to `step` (set_data on the existing artists)."""
        if visible is not None:
            self.visible = set(visible)
        canvas = self.fig.canvas
        canvas.restore_region(self.background)
        for n in self.race.names:
            if n not in self.visible:
                continue
            t = self.race.trajectories[n]
            k = t.at(step)
            self.paths[n].set_data(t.positions[:k + 1, 0], t.positions[:k + 1, 1])
            self.heads[n].set_data([t.positions[k, 0]], [t.positions[k, 1]])
            self.ax.draw_artist(self.paths[n])
            self.ax.draw_artist(self.heads[n])
            self.loss_ax.draw_artist(self.loss_lines[n])
        self.cursor.set_xdata([step, step])
        self.loss_ax.draw_artist(self.cursor)
        return _png(canvas)

    def close(self):
        plt.close(self.fig)


def state_html(race, name, step):
    """The internal-state panel: `Race.state_rows` as an HTML table."""
    rows = "".join(f"<tr><td style='padding-right:10px'><code>{label}</code></td>"
                   f"<td><code>{value}</code></td></tr>"
                   for label, value in race.state_rows(name, step))
    return f"<b>{name}</b> after step {step}<table>{rows}</table>"


class OptimizerRace(ExplorerView):
    """`OptimizerRace("rosenbrock")`: minitf's optimizers racing on a 2-D surface.

    Controls (all keyboard usable: Tab to a control, arrow keys to move it): the step
    slider and play button scrub through the precomputed trajectories; a checkbox per
    optimizer shows or hides it; the "state of" dropdown picks the optimizer whose slot
    variables are shown and whose learning rate the log slider sets; "demo preset" and
    "TF defaults" switch every learning rate (TF's defaults barely move on these
    surfaces: the point of the demo preset); the x0 / y0 sliders move the start point.
    Moving the step only redraws; the other controls re-run the optimizers.
    `static()` is a PNG of the current picture.
    """

    def __init__(self, surface="rosenbrock", optimizers=None, steps=100, start=None,
                 learning_rates="demo", step=None):
        super().__init__()
        self.race = Race(surface, optimizers, steps, start, learning_rates)
        self.figure = RaceFigure(self.race)
        self.step = self.race.steps if step is None else int(step)
        self._build_controls()
        self.refresh()

    def _build_controls(self):
        w, race, s = widgets, self.race, self.race.surface
        self.slider = w.IntSlider(value=self.step, min=0, max=race.steps, description="step")
        self.play = w.Play(value=self.step, min=0, max=race.steps, interval=120)
        w.jslink((self.play, "value"), (self.slider, "value"))
        self.boxes = {n: w.Checkbox(value=True, description=n, indent=False,
                                    layout=w.Layout(width="95px")) for n in race.names}
        self.selected = w.Dropdown(options=race.names, value=race.names[-1],
                                   description="state of")
        self.rate = w.FloatLogSlider(value=race.learning_rates[self.selected.value],
                                     base=10, min=-5, max=1, step=0.1, readout_format=".2g",
                                     description="learning rate", continuous_update=False)
        self.demo = w.Button(description="demo preset")
        self.defaults = w.Button(description="TF defaults")
        self.x0 = w.FloatSlider(value=race.start[0], min=s.xlim[0], max=s.xlim[1], step=0.05,
                                description="x0", continuous_update=False)
        self.y0 = w.FloatSlider(value=race.start[1], min=s.ylim[0], max=s.ylim[1], step=0.05,
                                description="y0", continuous_update=False)
        self.image = w.Image(format="png")
        self.state, self.summary = w.HTML(), w.HTML()
        self.slider.observe(self.guard(lambda c: self.set_step(c["new"])), names="value")
        for box in self.boxes.values():
            box.observe(self.guard(lambda _: self.refresh()), names="value")
        self.selected.observe(self.guard(lambda c: self.select(c["new"])), names="value")
        self.rate.observe(self.guard(lambda c: self.set_learning_rate(c["new"])),
                          names="value")
        self.demo.on_click(self.guard(lambda _: self.use_preset("demo")))
        self.defaults.on_click(self.guard(lambda _: self.use_preset("tf")))
        for box in (self.x0, self.y0):
            box.observe(self.guard(lambda _: self.set_start(self.x0.value, self.y0.value)),
                        names="value")
        side = w.VBox([self.selected, self.rate, self.state, self.summary])
        self.children = [w.HBox(list(self.boxes.values()), layout=w.Layout(flex_flow="wrap")),
                         w.HBox([self.play, self.slider, self.demo, self.defaults]),
                         w.HBox([self.x0, self.y0]), w.HBox([self.image, side]), self.error]

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

    def set_learning_rate(self, learning_rate):
        """Re-run the selected optimizer with a new learning rate."""
        self.race.set_learning_rate(self.selected.value, learning_rate)
        self._rerun_done()

    def use_preset(self, which):
        """"demo" or "tf" learning rates for every optimizer."""
        self.race.use_preset(which)
        self._quietly(self.rate, self.race.learning_rates[self.selected.value])
        self._rerun_done()

    def set_start(self, x, y):
        """Re-run every optimizer from (x, y)."""
        self.race.set_start(x, y)
        self._rerun_done()

    def _rerun_done(self):
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
