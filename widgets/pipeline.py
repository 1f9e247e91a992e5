"""Pipeline timeline: when each stage of a `tf.data` pipeline worked on each element.

In a notebook:

    from widgets.pipeline import PipelineTimeline
    slow = lambda x: tf.py_function(lambda v: (time.sleep(0.01), v)[1], [x], tf.int64)
    base = tf.data.Dataset.range(8)
    PipelineTimeline({"sequential": base.map(slow),
                      "parallel map + prefetch": base.map(slow, num_parallel_calls=2)
                                                     .prefetch(2)},
                     steps=8, train_step=lambda batch: time.sleep(0.01))

The logic is `PipelineRun`, which draws nothing. It iterates the dataset
inside `tf.data.experimental.record_timings()` (the engine's own per-element
timings, see minitf/data/timings.py), times each training step with
`timings.span("train", i)`, and groups the events into lanes: one per
(thread, stage). Bars on different threads that overlap in time are the
point of prefetch and parallel map: the input pipeline works while the
model trains.

>>> import minitf as tf
>>> run = PipelineRun(tf.data.Dataset.range(3).map(lambda v: v * 2), steps=3)
>>> run.stage_order
['Range', 'Map/fn', 'Map', 'train']
>>> run.indices("Map")
[0, 1, 2]
>>> [lane for lane, _ in run.lanes()]
['MainThread: Range', 'MainThread: Map/fn', 'MainThread: Map', 'MainThread: train']
>>> run.order_violations(), run.overlaps()        # one thread: nothing overlaps
([], [])
"""
import io
import itertools
import time

import ipywidgets as widgets
import numpy as np
from matplotlib.backends.backend_agg import FigureCanvasAgg
from matplotlib.figure import Figure
from PIL import Image

import minitf as tf

from ._render import Picture  # (importing _render selects the Agg backend)
from ._view import ExplorerView

STAGE_COLORS = ["#4e79a7", "#f28e2b", "#59a14f", "#e15759", "#76b7b2", "#edc948",
                "#b07aa1", "#ff9da7", "#9c755f"]


def pipeline_stages(dataset):
    """Stage names from the source to the consumer, e.g. ['Range', 'Map/fn', 'Map'].

    Follows each dataset's input (the first one, for zip and the like); a map's
    function calls ("Map/fn") come just before the map itself.
    """
    chain = []
    node = dataset
    while node is not None:
        name = node._stage_name()
        chain.append(name)
        if "Map" in name:
            chain.append(name + "/fn")
        inputs = getattr(node, "_input", None)
        if inputs is None and hasattr(node, "_datasets"):  # zip: follow the first input
            inputs = next(iter(tf.nest.flatten(node._datasets)), None)
        node = inputs if isinstance(inputs, tf.data.Dataset) else None
    return list(reversed(chain))


class PipelineRun:
    """One timed run of a pipeline (no drawing).

    dataset: a `tf.data.Dataset`; steps: how many elements to take (all by default);
    train_step: a function called on each element, timed as stage "train" (a stand-in
    for the model's step; None means the loop only reads elements).
    events: the `TimingEvent`s recorded; total: the loop's wall time in seconds.
    """

    def __init__(self, dataset, steps=None, train_step=None):
        self.dataset, self.steps, self.train_step = dataset, steps, train_step
        start = time.perf_counter()
        with tf.data.experimental.record_timings() as timings:
            iterator = iter(dataset)
            for i, element in enumerate(itertools.islice(iterator, steps)):
                with timings.span("train", i):
                    if train_step is not None:
                        train_step(element)
            del iterator  # stop a prefetch thread before the recording ends
        self.total = time.perf_counter() - start
        self.events = sorted(timings.events, key=lambda e: (e.start, e.end))
        seen = set(timings.stages())
        self.stage_order = [s for s in pipeline_stages(dataset) + ["train"] if s in seen]
        self.stage_order += [s for s in timings.stages() if s not in self.stage_order]

    def indices(self, stage):
        """The element indices `stage` produced, in order."""
        return sorted(e.index for e in self.events if e.stage == stage)

    def event(self, stage, index):
        """The event of `stage` for element `index` (None if it never ran)."""
        return next((e for e in self.events if e.stage == stage and e.index == index), None)

    def lanes(self):
        """[(lane name, events)]: one lane per (thread, stage), stages in pipeline order
        (source first, "train" last), a stage's threads in order of their first event."""
        threads = list(dict.fromkeys(["MainThread"] + [e.thread for e in self.events]))
        rank = {s: i for i, s in enumerate(self.stage_order)}
        lanes = {}
        for e in self.events:
            lanes.setdefault((e.thread, e.stage), []).append(e)
        keys = sorted(lanes, key=lambda k: (rank[k[1]], threads.index(k[0])))
        return [(f"{thread}: {stage}", lanes[(thread, stage)]) for thread, stage in keys]

    def order_violations(self):
        """(index, upstream stage, downstream stage) where an element left a stage later
        than it left the stage after it (never happens: stages run in pipeline order).
        Indices are each stage's own count (a batch's element 1 holds later inputs)."""
        main = [s for s in self.stage_order if s != "train"] + ["train"]
        found = []
        for upstream, downstream in itertools.pairwise(main):
            for index in self.indices(downstream):
                a, b = self.event(upstream, index), self.event(downstream, index)
                if a is not None and b is not None and a.end > b.end + 1e-6:
                    found.append((index, upstream, downstream))
        return found

    def overlaps(self):
        """[(train event, event on another thread)] pairs that ran at the same time:
        the pipeline preparing an element while the model trains on another."""
        trains = [e for e in self.events if e.stage == "train"]
        others = [e for e in self.events if e.stage != "train" and e.thread != "MainThread"]
        return [(t, o) for t in trains for o in others
                if o.start < t.end and t.start < o.end]

    def stage_totals(self):
        """stage -> seconds summed over its events (stages overlap, so these can add up
        to more than the total)."""
        return {s: sum(e.end - e.start for e in self.events if e.stage == s)
                for s in self.stage_order}


def draw_timeline(run, title=""):
    """A matplotlib figure: the run's lanes as a Gantt chart (milliseconds)."""
    lanes = run.lanes()
    colors = {s: STAGE_COLORS[i % len(STAGE_COLORS)] for i, s in enumerate(run.stage_order)}
    fig = Figure(figsize=(9, 0.45 * len(lanes) + 1.2), dpi=80)  # not pyplot's: nothing to close
    ax = fig.subplots()
    for row, (_, events) in enumerate(lanes):
        spans = [(1000 * e.start, max(1000 * (e.end - e.start), 0.02)) for e in events]
        ax.broken_barh(spans, (row - 0.38, 0.76), facecolors=colors[events[0].stage],
                       edgecolors="white", linewidth=0.4)
        if len(events) <= 40:
            for e, (x, w) in zip(events, spans):
                if w > 0.04 * 1000 * run.total:
                    ax.text(x + w / 2, row, str(e.index), ha="center", va="center",
                            fontsize=7, color="white")
    ax.set_yticks(range(len(lanes)), [name for name, _ in lanes], fontsize=8)
    ax.invert_yaxis()
    ax.set_xlabel("milliseconds since the loop began")
    ax.set_xlim(0, 1000 * run.total * 1.01)
    ax.set_title(f"{title}  total {1000 * run.total:.1f} ms".strip(), fontsize=9)
    ax.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    return fig


def nice_ceiling(value):
    """The smallest round number (1, 1.5, 2, 3, 4, 5, 6 or 8 times a power of ten) that
    is >= value: axis limits that stay put while a re-run's total changes a little.

    >>> nice_ceiling(34.1), nice_ceiling(0.7), nice_ceiling(200)
    (40.0, 0.8, 200.0)
    """
    if value <= 0:
        return 1.0
    power = 10.0 ** np.floor(np.log10(value))
    return float(next(m * power for m in (1, 1.5, 2, 3, 4, 5, 6, 8, 10)
                      if m * power >= value * (1 - 1e-12)))


class TimelineFigure:
    """One variant's Gantt chart, kept between runs. The axes, lane names and grid are
    drawn once into a saved background; a new run of the same lanes only draws its
    bars on top (matplotlib's blitting). The x axis ends at a round number of
    milliseconds, so a re-run redraws the background only when its total crosses it."""

    def __init__(self, title):
        self.title, self.fig, self.layout, self.full_draws = title, None, None, 0

    def draw(self, run):
        """PNG bytes of `run`'s chart."""
        lanes = run.lanes()
        layout = (tuple(name for name, _ in lanes), nice_ceiling(1000 * run.total * 1.01))
        if self.fig is None:
            self.fig = Figure(figsize=(9, 0.45 * len(lanes) + 1.2), dpi=80)  # not pyplot's
            FigureCanvasAgg(self.fig)
            self.ax = self.fig.subplots()
        if layout != self.layout:
            self._background(layout)
        colors = {s: STAGE_COLORS[i % len(STAGE_COLORS)]
                  for i, s in enumerate(run.stage_order)}
        canvas = self.fig.canvas
        canvas.restore_region(self.background)
        artists = []
        for row, (_, events) in enumerate(lanes):
            spans = [(1000 * e.start, max(1000 * (e.end - e.start), 0.02)) for e in events]
            artists.append(self.ax.broken_barh(spans, (row - 0.38, 0.76),
                                               facecolors=colors[events[0].stage],
                                               edgecolors="white", linewidth=0.4))
            if len(events) <= 40:
                artists += [self.ax.text(x + w / 2, row, str(e.index), ha="center",
                                         va="center", fontsize=7, color="white")
                            for e, (x, w) in zip(events, spans)
                            if w > 0.04 * 1000 * run.total]
        artists.append(self.ax.text(0.995, 1.01, f"total {1000 * run.total:.1f} ms",
                                    transform=self.ax.transAxes, ha="right", va="bottom",
                                    fontsize=9))
        for artist in artists:
            self.ax.draw_artist(artist)
            artist.remove()
        return _png(canvas)

    def _background(self, layout):
        names, xmax = layout
        ax = self.ax
        ax.set_ylim(len(names) - 0.5, -0.5)  # first lane on top
        ax.set_yticks(range(len(names)), names, fontsize=8)
        ax.set_xlim(0, xmax)
        ax.set_xlabel("milliseconds since the loop began")
        ax.set_title(self.title, fontsize=9, loc="left")
        ax.grid(axis="x", alpha=0.3)
        self.fig.set_size_inches(9, 0.45 * len(names) + 1.2)
        self.fig.tight_layout()
        self.fig.canvas.draw()
        self.background = self.fig.canvas.copy_from_bbox(self.fig.bbox)
        self.layout = layout
        self.full_draws += 1


def _png(canvas):
    """PNG bytes of what the Agg canvas holds (RGB, fast zlib level; deterministic)."""
    buffer = io.BytesIO()
    rgb = np.ascontiguousarray(np.asarray(canvas.buffer_rgba())[..., :3])
    Image.fromarray(rgb).save(buffer, format="png", compress_level=1)
    return buffer.getvalue()


class PipelineTimeline(ExplorerView):
    """`PipelineTimeline(dataset or {name: dataset}, steps=..., train_step=None)`.

    One Gantt chart per variant: each lane is a (thread, stage), each bar one element
    in that stage, numbered by element. The toggle buttons switch variants (keyboard:
    Tab to them, arrow keys), the table lists each variant's measured total time
    and its speed-up over the first variant (`speedups()`),
    and "run again" measures every variant once more (timings vary between runs).
    A chart is drawn when it is first shown after a measurement, reusing that
    variant's figure. `static()` is a PNG of the current chart.
    """

    def __init__(self, datasets, steps=None, train_step=None):
        super().__init__()
        if isinstance(datasets, tf.data.Dataset):
            datasets = {"pipeline": datasets}
        self.datasets, self.steps, self.train_step = dict(datasets), steps, train_step
        self.variant = next(iter(self.datasets))
        self.figures = {name: TimelineFigure(name) for name in self.datasets}
        self.toggle = widgets.ToggleButtons(options=list(self.datasets), value=self.variant)
        self.again = widgets.Button(description="run again")
        self.image, self.table = widgets.Image(format="png"), widgets.HTML()
        self.toggle.observe(self.guard(lambda c: self.show(c["new"])), names="value")
        self.again.on_click(self.guard(lambda _: self.measure()))
        self.children = [widgets.HBox([self.toggle, self.again]), self.table, self.image,
                         self.error]
        self.measure()

    def measure(self):
        """Run every variant (timed) and redraw the chart shown."""
        self.runs = {name: PipelineRun(ds, self.steps, self.train_step)
                     for name, ds in self.datasets.items()}
        self._pictures = {}  # drawn when shown: switching then only swaps PNGs
        self.show(self.variant)

    def picture(self, name):
        """PNG bytes of variant `name`'s chart for the last measurement."""
        if name not in self._pictures:
            self._pictures[name] = self.figures[name].draw(self.runs[name])
        return self._pictures[name]

    def show(self, name):
        """Switch the chart to variant `name`."""
        self.variant = name
        self.image.value = self.picture(name)
        self.table.value = self.totals_html()

    def speedups(self):
        """{variant: the first variant's total / this variant's total} for the last
        measurement (2.0: this variant took half the time of the first)."""
        first = next(iter(self.runs.values())).total
        return {name: first / max(run.total, 1e-9) for name, run in self.runs.items()}

    def totals_html(self):
        speedups = self.speedups()
        rows = "".join(
            f"<tr><td>{'▶ ' if name == self.variant else ''}{name}</td>"
            f"<td style='text-align:right'>{1000 * run.total:.1f} ms</td>"
            f"<td style='text-align:right'>{speedups[name]:.1f}×</td>"
            f"<td>{'overlaps training' if run.overlaps() else 'no overlap'}</td></tr>"
            for name, run in self.runs.items())
        return ("<table><tr><th>variant</th><th>total</th><th>speed-up</th><th></th></tr>"
                f"{rows}</table>")

    def static(self):
        """A PNG of the current variant's chart (shown where widgets cannot run)."""
        totals = ", ".join(f"{n}: {1000 * r.total:.1f} ms" for n, r in self.runs.items())
        return Picture(png=self.picture(self.variant), text=totals)
