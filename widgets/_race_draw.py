"""Drawing the optimizer race: one matplotlib figure whose moving parts are blitted.

`RaceFigure` draws the contours and axes once and, for each step shown,
only the paths, markers and loss curves on top (see `optimizer_race.py`
for the race itself).

>>> class Run:
...     losses = [3.0, 0.02]
>>> loss_axis_limits([Run()])                   # whole decades, log scale
('log', (0.01, 10.0))
"""
import io

import matplotlib.pyplot as plt
import numpy as np
from matplotlib.colors import LogNorm
from PIL import Image

from . import _render  # noqa: F401 - importing _render selects matplotlib's Agg backend


def _png(canvas):
    """PNG bytes of what the Agg canvas holds now (deterministic: no timestamp).

    RGB at zlib level 1: encoding is most of a redraw's time, and this halves it for
    a file a tenth larger."""
    buffer = io.BytesIO()
    rgb = np.ascontiguousarray(np.asarray(canvas.buffer_rgba())[..., :3])
    Image.fromarray(rgb).save(buffer, format="png", compress_level=1)
    return buffer.getvalue()


class RaceFigure:
    """A matplotlib figure of a race, drawn once; `show(step)` only moves its artists.

    Left: log-scaled contours, one path and one marker per optimizer, the minima as
    stars. Right: each optimizer's loss per step, a vertical line at the current step.
    The paths, markers, loss curves and the step line are "animated" artists: the rest
    (contours, axes) is drawn once into a saved background, and a step only restores it
    and draws the moving artists on top (matplotlib's blitting), then encodes a PNG.
    """

    def __init__(self, race, colors):
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
        self.ax.set_autoscale_on(False)
        self.ax.title.set_fontsize(9)
        self.start_marker, = self.ax.plot([], [], "ko", markersize=5)
        self.paths, self.heads, self.loss_lines = {}, {}, {}
        for n in race.names:
            c = colors[n]
            self.paths[n], = self.ax.plot([], [], "-", color=c, linewidth=1.4, label=n)
            self.heads[n], = self.ax.plot([], [], "o", color=c, markersize=6,
                                          markeredgecolor="k")
            self.loss_lines[n], = self.loss_ax.plot([], [], "-", color=c, linewidth=1.2)
        self.fig.legend(handles=list(self.paths.values()), loc="lower center", fontsize=8,
                        ncol=len(self.paths), frameon=False)
        self.cursor = self.loss_ax.axvline(0, color="k", linewidth=0.8, linestyle=":")
        for artist in [self.cursor, self.start_marker, *self.paths.values(), *self.heads.values(),
                       *self.loss_lines.values()]:
            artist.set_animated(True)
        self.loss_ax.set(title="loss per step", xlabel="step")
        self.loss_ax.set_autoscale_on(False)
        self.loss_ax.title.set_fontsize(9)
        self.fig.tight_layout(rect=(0, 0.06, 1, 1))  # room for the legend below
        self.visible = set(race.names)
        self._drawn, self.full_draws = None, 0
        self.sync()

    def sync(self):
        """Re-read whole trajectories (after a learning-rate or start change). The
        background (contours, axes) is redrawn only when a loss curve leaves the loss
        axis: its limits are whole decades and only grow, so this is rare."""
        race = self.race
        for n in race.names:
            t = race.trajectories[n]
            self.loss_lines[n].set_data(np.arange(t.steps + 1), t.losses)
        wanted = loss_axis_limits(race.trajectories.values(), getattr(self, "_drawn", None))
        if wanted != getattr(self, "_drawn", None):
            scale, limits = wanted
            self.loss_ax.set_yscale(scale)
            self.loss_ax.set_ylim(*limits)
            self.loss_ax.set_xlim(0, max(race.steps, 1))
            self.fig.canvas.draw()  # everything but the animated artists
            self.background = self.fig.canvas.copy_from_bbox(self.fig.bbox)
            self._drawn = wanted
            self.full_draws += 1

    def show(self, step, visible=None):
        """Move every path and marker to `step` (set_data on the existing artists)."""
        if visible is not None:
            self.visible = set(visible)
        canvas = self.fig.canvas
        canvas.restore_region(self.background)
        self.start_marker.set_data([self.race.start[0]], [self.race.start[1]])
        self.ax.draw_artist(self.start_marker)
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


def loss_axis_limits(trajectories, current=None):
    """(scale, (low, high)) for the loss panel: a log axis over whole decades when every
    loss is positive, else a symlog axis over rounded limits. The limits only grow:
    `current` is kept while every loss fits inside it."""
    losses = np.concatenate([np.asarray(t.losses, float) for t in trajectories] +
                            [np.zeros(0)])
    losses = losses[np.isfinite(losses)]
    if not len(losses):
        return current or ("log", (1e-3, 1e3))
    low, high = float(losses.min()), float(losses.max())
    if current is not None:
        scale, (a, b) = current
        if a <= low and high <= b and (scale == "symlog" or low > 0):
            return current
    if low > 0 and (current is None or current[0] == "log"):
        low = max(low, 1e-12 * high)
        new = (10.0 ** np.floor(np.log10(low)), 10.0 ** np.ceil(np.log10(high)))
        if current is not None:
            new = (min(new[0], current[1][0]), max(new[1], current[1][1]))
        if new[0] == new[1]:
            new = (new[0] / 10, new[1] * 10)
        return "log", (float(new[0]), float(new[1]))
    step = 10.0 ** np.ceil(np.log10(max(abs(low), abs(high), 1e-3)))
    new = (np.floor(low / step * 4) * step / 4, np.ceil(high / step * 4) * step / 4)
    if current is not None and current[0] == "symlog":
        new = (min(new[0], current[1][0]), max(new[1], current[1][1]))
    if new[0] == new[1]:
        new = (new[0] - step, new[1] + step)
    return "symlog", (float(new[0]), float(new[1]))
