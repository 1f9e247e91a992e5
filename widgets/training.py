"""Training monitor: loss and metric curves drawn live while `model.fit` runs.

In a notebook, one call (the monitor shows itself when training begins):

    from widgets.training import TrainingMonitor
    model.fit(x, y, epochs=20, validation_split=0.2, callbacks=[TrainingMonitor()])

`TrainingMonitor` is a real `tf.keras.callbacks.Callback`. Its logic is
`TrainingLog`, which draws nothing: it keeps the logs `fit` passes to the
callbacks at each epoch's end, the same way `tf.keras.callbacks.History`
does (one value per epoch for each key: "loss", "accuracy", "val_loss",
...). It does not look at each batch: `fit` skips turning a batch's
metrics into Python numbers when no callback asks for them, and asking
would slow every step. A `Throttle` decides when a redraw
is allowed: the time spent drawing stays under a fixed share of the
training time (8% by default), so the monitor cannot slow training down
by more than that, however fast the model trains. The final picture is
always drawn when `fit` ends: for a fit of a few seconds or more the
monitor costs under 10% in all (`python benchmarks/widgets.py` measures
it); a fit shorter than that pays one drawing, a fraction of a second.

>>> log = TrainingLog()
>>> log.on_train_begin({"epochs": 2, "steps": 2})
>>> log.record_epoch(0, {"loss": 0.7, "val_loss": 0.8})
>>> log.history, log.epoch
({'loss': [0.7], 'val_loss': [0.8]}, [0])
>>> log.epoch_curve("loss")                      # (epochs done, values)
(array([1.]), array([0.7]))
>>> log.panels()                                 # one panel per metric: train and val
[('loss', ['loss', 'val_loss'])]

>>> clock = iter([0.0, 0.5, 1.0, 3.0]).__next__   # a fake clock, in seconds
>>> throttle = Throttle(share=0.05, first_estimate=0.1, clock=clock)
>>> throttle.start()                             # t = 0
>>> throttle.ready()                             # t = 0.5: 0.1 s of drawing > 5% of 0.5 s
False
>>> throttle.ready()                             # t = 1.0
False
>>> throttle.ready()                             # t = 3.0: 0.1 s <= 5% of 3 s
True
"""
import asyncio
import io
import time

import ipywidgets as widgets
import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from PIL import Image

import minitf as tf

from ._render import Picture  # (importing _render selects matplotlib's Agg backend)
from ._view import ExplorerView


class Throttle:
    """Allows a redraw only while the total drawing time stays under `share` of the
    elapsed time since `start()` (and at most one redraw per `min_interval` seconds).

    The next drawing is assumed to take as long as the last one. The first one builds
    the figure, much the slowest (0.1 to 0.3 s on a small machine): `first_estimate`
    (when it takes longer, the drawings after it wait until the share is met again).
    `clock` returns seconds (time.perf_counter by default).
    """

    def __init__(self, share=0.08, min_interval=0.25, first_estimate=0.15,
                 clock=time.perf_counter):
        if not 0 < share < 1:
            raise ValueError(f"share must be between 0 and 1 (a fraction of the training "
                             f"time), got {share}.")
        self.share, self.min_interval, self.clock = share, min_interval, clock
        self.first_estimate = first_estimate
        self.began, self.spent, self.estimate, self.last, self.draws = \
            None, 0.0, first_estimate, None, 0

    def start(self):
        """Begin a new training run: nothing drawn yet."""
        self.began = self.clock()
        self.spent, self.estimate, self.last, self.draws = 0.0, self.first_estimate, None, 0

    def ready(self, now=None):
        """True when a redraw now keeps drawing under its share of the time."""
        now = self.clock() if now is None else now
        if self.began is None:  # not started: the clock starts now
            self.began = now
        if self.last is not None and now - self.last < self.min_interval:
            return False
        return self.spent + self.estimate <= self.share * (now - self.began)

    def drew(self, seconds, now=None):
        """Note a redraw that took `seconds` (it ended at `now`)."""
        self.spent += seconds
        self.estimate = seconds
        self.last = self.clock() if now is None else now
        self.draws += 1


class TrainingLog:
    """What `fit` told the callbacks (no drawing).

    history, epoch: exactly what `tf.keras.callbacks.History` records (key -> one value
    per epoch; the epoch numbers). epochs: how many epochs the curves will span.
    """

    def __init__(self):
        self.history, self.epoch = {}, []
        self.epochs = None
        self.done_before = 0

    def on_train_begin(self, params=None):
        """A new `fit` starts: like History, the epoch list restarts and the history
        keeps growing (a second fit continues the curves to the right)."""
        self.epoch = []
        self.done_before = max((len(v) for v in self.history.values()), default=0)
        self.epochs = self.done_before + ((params or {}).get("epochs") or 0)

    def record_epoch(self, epoch, logs):
        """The logs of `on_epoch_end` (training and validation values), as History does."""
        self.epoch.append(epoch)
        for key, value in (logs or {}).items():
            self.history.setdefault(key, []).append(value)

    def panels(self):
        """[(metric, [keys])]: one panel per metric, its training key then "val_" key,
        loss first. Keys with non-scalar values are left out."""
        names = []
        for key, values in self.history.items():
            if values and np.ndim(values[-1]) != 0:
                continue
            base = key.removeprefix("val_")
            if base not in names:
                names.append(base)
        names = sorted(names, key=lambda n: n != "loss")  # stable: loss, then fit's order
        return [(n, [k for k in (n, "val_" + n) if k in self.history]) for n in names]

    def epoch_curve(self, key):
        """(x, y) arrays of `key`'s per-epoch values, x = epochs done (1, 2, ...)."""
        values = np.asarray(self.history.get(key, []), float)
        return np.arange(1, len(values) + 1, dtype=float), values

    def summary(self):
        """One line: the last epoch's values."""
        if not self.epoch:
            return "no epoch finished yet"
        return f"epoch {self.epoch[-1] + 1}: " + ", ".join(
            f"{k}={v[-1]:.4g}" for k, v in self.history.items() if np.ndim(v[-1]) == 0)


# --- drawing -----------------------------------------------------------------------------------
TRAIN_COLOR, VAL_COLOR = "#1f77b4", "#ff7f0e"


class CurvesFigure:
    """One matplotlib figure kept for the whole training. Panels are built when new
    metrics appear (the first epoch tells which); after that a redraw only moves the
    lines (set_data) and blits them onto a saved background (axes, ticks, legend).
    The axes' limits change only when a curve leaves them (the y axes start at 0 for
    values that are never negative), and only then is the whole figure drawn again."""

    def __init__(self, log):
        self.log = log
        self.fig = Figure(figsize=(8.5, 3.0), dpi=72)  # not pyplot's: nothing to close
        FigureCanvasAgg(self.fig)
        self.layout, self.limits, self.background = None, None, None
        self.log_scale = False
        self.lines, self.axes = {}, {}
        self.full_draws = 0

    def _build(self, panels):
        self.fig.clear()
        self.lines, self.axes = {}, {}
        axes = self.fig.subplots(1, max(len(panels), 1), squeeze=False)[0]
        self.fig.subplots_adjust(left=0.07, right=0.98, bottom=0.16, top=0.9, wspace=0.22)
        for ax, (metric, keys) in zip(axes, panels):
            ax.set_title(metric, fontsize=9)
            ax.set_xlabel("epoch", fontsize=8)
            ax.tick_params(labelsize=7)
            ax.grid(alpha=0.3)
            for key in keys:
                color = VAL_COLOR if key.startswith("val_") else TRAIN_COLOR
                self.lines[key] = ax.plot([], [], "o-", color=color, markersize=3,
                                          linewidth=1.5, label=key, animated=True)[0]
                self.axes[key] = ax
            ax.legend(fontsize=7, loc="upper right")
        self.layout, self.limits = panels, None

    def _curve(self, key):
        return self.log.epoch_curve(key)

    def wanted_limits(self, data, old):
        """((x0, x1), (y0, y1)) per panel: the old limits while every value still fits
        inside them, else new ones with some room to grow (whole decades on a log axis)."""
        epochs = max([self.log.epochs or 1] +
                     [float(x.max()) for x, _ in data.values() if len(x)])
        result = []
        for i, (_, keys) in enumerate(self.layout):
            ys = np.concatenate([data[k][1] for k in data if self.axes[k] is
                                 self.fig.axes[i]] + [np.zeros(0)])
            ys = ys[np.isfinite(ys)]
            if self.log_scale:
                ys = ys[ys > 0]
            if not len(ys):
                result.append(((0, epochs), (0.1, 1) if self.log_scale else (0, 1)))
                continue
            low, high = float(ys.min()), float(ys.max())
            keep = old is not None and old[i][0][1] >= epochs
            if keep:  # the first epochs stay in the data, so this rarely changes
                y0, y1 = old[i][1]
                keep = y0 <= low and high <= y1
            if keep:
                result.append(old[i])
                continue
            if self.log_scale:
                y = (10 ** np.floor(np.log10(low)), 10 ** np.ceil(np.log10(high)))
                if y[0] == y[1]:  # every value a power of ten: show the decades around it
                    y = (y[0] / 10, y[1] * 10)
            else:
                pad = 0.1 * (high - low) or 0.1 * abs(high) or 0.1
                y = (0.0 if low >= 0 else low - pad, high + pad)
            result.append(((0, epochs + 0.5), y))
        return result

    def draw(self):
        """PNG bytes of the curves as the log holds them now."""
        panels = self.log.panels()
        if panels != self.layout:
            self._build(panels)
        data = {key: self._curve(key) for key in self.lines}
        limits = self.wanted_limits(data, self.limits)
        canvas = self.fig.canvas
        if limits != self.limits or self.background is None:
            for ax, (xlim, ylim) in zip(self.fig.axes, limits):
                ax.set_yscale("log" if self.log_scale else "linear")
                ax.set_xlim(*xlim)
                ax.set_ylim(*ylim)
            canvas.draw()
            self.background = canvas.copy_from_bbox(self.fig.bbox)
            self.limits = limits
            self.full_draws += 1
        else:
            canvas.restore_region(self.background)
        for key, line in self.lines.items():
            line.set_data(*data[key])
            self.axes[key].draw_artist(line)
        buffer = io.BytesIO()  # RGB at zlib level 1: encoding is most of a redraw
        rgb = np.ascontiguousarray(np.asarray(canvas.buffer_rgba())[..., :3])
        Image.fromarray(rgb).save(buffer, format="png", compress_level=1)
        return buffer.getvalue()

    def set_log_scale(self, flag):
        self.log_scale = bool(flag)
        self.limits = None


class TrainingView(ExplorerView):
    """The widget a `TrainingMonitor` shows: the curves, a status line, and a
    linear / log toggle for the y axes (Tab to it, arrow keys to switch).

    There is one figure per scale. The shown one is redrawn during `fit`; when `fit`
    ends, the other one is drawn while the kernel is idle (`prepare_other`), so the
    toggle then only blits the curves onto its saved background."""

    def __init__(self, log):
        super().__init__()
        self.training_log = log
        self.figures = {"linear": CurvesFigure(log), "log": CurvesFigure(log)}
        self.figures["log"].set_log_scale(True)
        self.scale_name = "linear"
        self.scale = widgets.ToggleButtons(options=["linear", "log"], value="linear",
                                           description="y axis")
        self.status = widgets.HTML(value="waiting for fit to start")
        self.image = widgets.Image(format="png")
        self.scale.observe(self.guard(lambda c: self.set_scale(c["new"])), names="value")
        self.children = [widgets.HBox([self.scale, self.status]), self.image, self.error]
        self.png = None

    @property
    def figure(self):
        """The `CurvesFigure` of the scale shown."""
        return self.figures[self.scale_name]

    def set_scale(self, scale):
        """"linear" or "log" y axes (redraws now)."""
        if scale not in self.figures:
            raise ValueError(f"scale must be 'linear' or 'log', got {scale!r}.")
        self.scale_name = scale
        self.refresh()

    def prepare_other(self):
        """Draw the scale not shown, so that switching to it is quick."""
        if self.training_log.history:
            other = "log" if self.scale_name == "linear" else "linear"
            self.figures[other].draw()

    def refresh(self, status=None):
        if status is not None:
            self.status.value = status
        if self.training_log.history:
            self.png = self.figure.draw()
            self.image.value = self.png

    def static(self):
        """A PNG of the curves (shown where widgets cannot run)."""
        if self.png is None:
            return Picture(text=self.training_log.summary())
        return Picture(png=self.png, text=self.training_log.summary())


class TrainingMonitor(tf.keras.callbacks.Callback):
    """A Keras callback that draws loss and metric curves (train and validation) live.

    share: the largest fraction of the training time spent redrawing (default 8%).
    display: show the widget when `fit` begins (when running in IPython) and update
    that output with the final picture when it ends, so a saved notebook shows the
    finished curves. `monitor.log` holds the history; `monitor.view` is the widget.
    """

    def __init__(self, share=0.08, display=True, clock=time.perf_counter):
        super().__init__()
        self.log = TrainingLog()
        self.throttle = Throttle(share=share, clock=clock)
        self.view = TrainingView(self.log)
        self.display, self._handle = display, None

    @property
    def history(self):
        """key -> per-epoch values, the same dict `History.history` builds."""
        return self.log.history

    def on_train_begin(self, logs=None):
        self.log.on_train_begin(self.params)
        self.throttle.start()
        self.view.status.value = "training…"
        if self.display:  # in the cell running this fit (a reused monitor too)
            self._handle = _show(self.view)

    def on_epoch_end(self, epoch, logs=None):
        self.log.record_epoch(epoch, logs)
        self._maybe_redraw()

    def on_train_end(self, logs=None):
        self.redraw(status=f"done: {self.log.summary()} "
                           f"({self.throttle.draws} redraws)")
        if self._handle is not None:
            self._handle.update(self.view)  # the saved output gets the final picture
        _when_idle(self.view.guard(self.view.prepare_other))

    def _maybe_redraw(self):
        if self.throttle.ready():
            self.redraw(status=f"training… {self.log.summary()}")

    def redraw(self, status=None):
        """Draw the curves now (and tell the throttle how long it took)."""
        start = self.throttle.clock()
        self.view.refresh(status)
        self.throttle.drew(self.throttle.clock() - start)

    def static(self):
        """The view's static picture (the curves as last drawn)."""
        return self.view.static()

    def _repr_mimebundle_(self, include=None, exclude=None):
        return self.view._repr_mimebundle_(include=include, exclude=exclude)


def _when_idle(callback):
    """Run `callback` once the kernel is idle (on its asyncio loop); without a running
    loop (a script, a test) it is not needed: the toggle draws on demand."""
    try:
        asyncio.get_running_loop().call_soon(callback)
    except RuntimeError:
        pass


def _show(view):
    """display(view) with a display id when running in IPython, else None."""
    try:
        from IPython import get_ipython
        from IPython.display import display
    except ImportError:  # pragma: no cover - IPython comes with ipywidgets
        return None
    if get_ipython() is None:
        return None
    return display(view, display_id=True)
