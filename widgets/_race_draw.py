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
import textwrap

import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.colors import LogNorm
from matplotlib.figure import Figure
from matplotlib.ticker import NullLocator
from PIL import Image


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
    stars. Right: each optimizer's loss and step length per step, a vertical line at
    the current step.
    The paths, markers, loss curves and the step line are "animated" artists: the rest
    (contours, axes) is drawn once into a saved background, and a step only restores it
    and draws the moving artists on top (matplotlib's blitting), then encodes a PNG.
    """

    def __init__(self, race, colors):
        self.race = race
        self.fig = Figure(figsize=(9.5, 5.2), dpi=80)  # not pyplot's: nothing to close
        FigureCanvasAgg(self.fig)  # an off-screen canvas, for blitting
        grid = self.fig.add_gridspec(2, 2, width_ratios=[1.35, 1])
        self.ax = self.fig.add_subplot(grid[:, 0])
        self.loss_ax = self.fig.add_subplot(grid[0, 1])
        self.step_ax = self.fig.add_subplot(grid[1, 1], sharex=self.loss_ax)
        self.surface_artists = []
        self._draw_surface()
        self.ax.set_autoscale_on(False)
        self.ax.title.set_fontsize(9)
        self.start_marker, = self.ax.plot([], [], "ko", markersize=5)
        self.paths, self.heads, self.loss_lines, self.step_lines = {}, {}, {}, {}
        for n in race.names:
            c = colors[n]
            self.paths[n], = self.ax.plot([], [], "-", color=c, linewidth=1.4, label=n)
            self.heads[n], = self.ax.plot([], [], "o", color=c, markersize=6,
                                          markeredgecolor="k")
            self.loss_lines[n], = self.loss_ax.plot([], [], "-", color=c, linewidth=1.2)
            self.step_lines[n], = self.step_ax.plot([], [], "-", color=c, linewidth=1.0)
        self.fig.legend(handles=list(self.paths.values()), loc="lower center", fontsize=8,
                        ncol=len(self.paths), frameon=False)
        self.cursor = self.loss_ax.axvline(0, color="k", linewidth=0.8, linestyle=":")
        self.step_cursor = self.step_ax.axvline(0, color="k", linewidth=0.8, linestyle=":")
        for artist in [self.cursor, self.step_cursor, self.start_marker, *self.paths.values(),
                       *self.heads.values(), *self.loss_lines.values(),
                       *self.step_lines.values()]:
            artist.set_animated(True)
        self.loss_ax.set(title="loss per step")
        self.step_ax.set(title="step length |x_k − x_(k−1)|", xlabel="step")
        for axis in (self.loss_ax, self.step_ax):
            axis.set_autoscale_on(False)
            axis.title.set_fontsize(9)
        self.fig.tight_layout(rect=(0, 0.06, 1, 1))  # room for the legend below
        self.visible = set(race.names)
        self._drawn, self.full_draws = None, 0
        self.sync()

    def _draw_surface(self):
        """Contours (log-scaled), the minima as stars, the title: the race's surface."""
        for artist in self.surface_artists:
            artist.remove()
        s, ax = self.race.surface, self.ax
        gx, gy, z = s.value_grid()
        shifted = z - z.min() + 1e-2
        levels = np.logspace(np.log10(shifted.min()), np.log10(shifted.max()), 25)
        self.surface_artists = [ax.contour(gx, gy, shifted, levels=levels, norm=LogNorm(),
                                           cmap="viridis", linewidths=0.7)]
        for mx, my in s.minima:
            self.surface_artists += ax.plot([mx], [my], "*", color="gold", markersize=13,
                                            markeredgecolor="k")
        ax.set(xlim=s.xlim, ylim=s.ylim, title=textwrap.fill(f"{s.name}: {s.note}", 64))

    def surface_changed(self):
        """Contours for the race's new surface (same figure, same layout); the next
        `sync` draws the background again."""
        self._draw_surface()
        self._drawn = None

    def sync(self):
        """Re-read whole trajectories (after a learning-rate or start change). The
        background (contours, axes) is redrawn only when a loss curve leaves the loss
        axis: its limits are whole decades and only grow, so this is rare."""
        race, drawn = self.race, getattr(self, "_drawn", None)
        for n in race.names:
            t = race.trajectories[n]
            self.loss_lines[n].set_data(np.arange(t.steps + 1), t.losses)
            self.step_lines[n].set_data(np.arange(1, t.steps + 1), t.step_lengths)
        wanted = (loss_axis_limits(race.trajectories.values(), drawn and drawn[0]),
                  axis_limits([t.step_lengths for t in race.trajectories.values()],
                              drawn and drawn[1]))
        if wanted != drawn:
            for axis, (scale, limits) in zip((self.loss_ax, self.step_ax), wanted):
                axis.set_yscale(scale)
                axis.yaxis.set_minor_locator(NullLocator())  # decades suffice; 20% faster
                axis.set_ylim(*limits)
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
            self.step_ax.draw_artist(self.step_lines[n])
        for cursor, axis in ((self.cursor, self.loss_ax), (self.step_cursor, self.step_ax)):
            cursor.set_xdata([step, step])
            axis.draw_artist(cursor)
        return _png(canvas)


def loss_axis_limits(trajectories, current=None):
    """(scale, (low, high)) for the loss panel: a log axis over whole decades when every
    loss is positive, else a symlog axis over rounded limits. The limits only grow:
    `current` is kept while every loss fits inside it."""
    return axis_limits([t.losses for t in trajectories], current)


def axis_limits(series, current=None):
    """`loss_axis_limits` for any list of value series (losses, step lengths)."""
    losses = np.concatenate([np.asarray(v, float) for v in series] + [np.zeros(0)])
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
