"""TensorBoard's scalar curves without TensorBoard: read a log directory, plot it.

`%tensorboard --logdir logs` shows the logs inside JupyterLab. Where that is
not possible, the same files can be read here and drawn with matplotlib:

    from widgets.tensorboard_reader import plot_scalars
    plot_scalars("logs")              # one panel per tag, one line per run

The logic, `read_scalars`, draws nothing: it opens every run (a folder that
holds event files: `logs/train`, `logs/validation`, ...) with TensorBoard's own
`EventAccumulator` and returns plain dicts, `{run: {tag: (steps, values)}}`.
It reads TF 2 scalar summaries (tensors of the `scalars` plugin) and TF 1 style
`simple_value` scalars alike. At most `max_points` points are kept per tag
(TensorBoard's reservoir sampling keeps an even sample of longer curves), so a
huge log cannot fill the memory.

>>> import tempfile, minitf as tf
>>> logs = tempfile.mkdtemp()
>>> with tf.summary.create_file_writer(logs + "/train").as_default():
...     for step in range(3):
...         _ = tf.summary.scalar("loss", 1.0 / (step + 1), step=step)
>>> curves = read_scalars(logs)
>>> steps, values = curves["train"]["loss"]
>>> steps, [round(v, 3) for v in values]
([0, 1, 2], [1.0, 0.5, 0.333])

Histograms and text come back as the tensors TensorBoard stores, with
`read_tensors(logdir, plugin)`: a histogram is a `(buckets, 3)` array of
rows `[left edge, right edge, count]`, a text summary an array of bytes:

>>> with tf.summary.create_file_writer(logs + "/train").as_default():
...     _ = tf.summary.text("note", "lr halved", step=7)
>>> steps, tensors = read_tensors(logs, "text")["train"]["note"]
>>> steps, tensors[0].item()
([7], b'lr halved')
"""
import os

import numpy as np

MAX_POINTS = 10_000


def find_runs(logdir):
    """Folders under `logdir` (itself included) holding event files, as relative names
    ("." for `logdir` itself), sorted."""
    runs = []
    for folder, _, files in os.walk(logdir):
        if any(".tfevents." in name for name in files):
            runs.append(os.path.relpath(folder, logdir).replace(os.sep, "/"))
    return sorted(runs)


def _tensorboard():
    try:
        from tensorboard.backend.event_processing import event_accumulator
        from tensorboard.util import tensor_util
    except ImportError as exc:
        raise ImportError("Reading TensorBoard logs needs the tensorboard package: "
                          "pip install 'tensorboard>=2.16'") from exc
    return event_accumulator, tensor_util


def _load(folder, max_points):
    event_accumulator, _ = _tensorboard()
    accumulator = event_accumulator.EventAccumulator(
        folder, size_guidance={event_accumulator.TENSORS: max_points,
                               event_accumulator.SCALARS: max_points})
    accumulator.Reload()
    return accumulator


def read_run(folder, max_points=MAX_POINTS):
    """{tag: (steps, values)} of one run's scalars, sorted by step."""
    event_accumulator, tensor_util = _tensorboard()
    accumulator = _load(folder, max_points)
    tags = accumulator.Tags()
    curves = {}
    for tag in tags[event_accumulator.TENSORS]:
        if accumulator.summary_metadata[tag].plugin_data.plugin_name != "scalars":
            continue
        events = accumulator.Tensors(tag)
        curves[tag] = ([e.step for e in events],
                       [float(tensor_util.make_ndarray(e.tensor_proto)) for e in events])
    for tag in tags[event_accumulator.SCALARS]:  # TF 1 / tensorboardX simple values
        events = accumulator.Scalars(tag)
        curves[tag] = ([e.step for e in events], [float(e.value) for e in events])
    return {tag: _by_step(steps, values) for tag, (steps, values) in curves.items()}


def _by_step(steps, values):
    order = np.argsort(steps, kind="stable")
    return [int(steps[i]) for i in order], [values[i] for i in order]


def read_scalars(logdir, max_points=MAX_POINTS):
    """{run: {tag: (steps, values)}} for every run under `logdir`."""
    if not os.path.isdir(logdir):
        raise FileNotFoundError(f"No log directory {logdir!r}: pass the folder given to "
                                "tf.summary.create_file_writer or the TensorBoard callback.")
    return {run: read_run(os.path.join(logdir, run), max_points) for run in find_runs(logdir)}


def read_tensors(logdir, plugin, max_points=MAX_POINTS):
    """{run: {tag: (steps, arrays)}} of every summary of one TensorBoard `plugin`
    ("histograms", "text", "scalars", "images", ...) under `logdir`, sorted by step: the
    stored tensors as NumPy arrays."""
    if not os.path.isdir(logdir):
        raise FileNotFoundError(f"No log directory {logdir!r}: pass the folder given to "
                                "tf.summary.create_file_writer or the TensorBoard callback.")
    event_accumulator, tensor_util = _tensorboard()
    found = {}
    for run in find_runs(logdir):
        accumulator = _load(os.path.join(logdir, run), max_points)
        tags = {}
        for tag in accumulator.Tags()[event_accumulator.TENSORS]:
            if accumulator.summary_metadata[tag].plugin_data.plugin_name != plugin:
                continue
            events = accumulator.Tensors(tag)
            tags[tag] = _by_step([e.step for e in events],
                                 [tensor_util.make_ndarray(e.tensor_proto) for e in events])
        if tags:
            found[run] = tags
    return found


def panels(curves):
    """[(tag, [run, ...])]: one panel per tag, listing the runs that have it (sorted)."""
    tags = sorted({tag for run in curves.values() for tag in run})
    return [(tag, [run for run in sorted(curves) if tag in curves[run]]) for tag in tags]


def plot_scalars(logdir, tags=None, figure=None):
    """Draw every scalar tag (or only `tags`) of `logdir`: a panel per tag, a line per run.
    Returns the matplotlib Figure (shown by Jupyter when it is a cell's value)."""
    from matplotlib.figure import Figure
    curves = read_scalars(logdir)
    chosen = [(tag, runs) for tag, runs in panels(curves) if tags is None or tag in tags]
    if not chosen:
        raise ValueError(f"No scalar summaries under {logdir!r}" +
                         (f" with tags {sorted(tags)}" if tags else "") +
                         ": write some with tf.summary.scalar or the TensorBoard callback.")
    columns = min(3, len(chosen))
    rows = -(-len(chosen) // columns)
    figure = figure or Figure(figsize=(4.2 * columns, 3.0 * rows), layout="constrained")
    for index, (tag, runs) in enumerate(chosen):
        axes = figure.add_subplot(rows, columns, index + 1)
        for run in runs:
            steps, values = curves[run][tag]
            axes.plot(steps, values, marker="o" if len(steps) < 30 else None, label=run)
        axes.set_title(tag)
        axes.set_xlabel("step")
        axes.legend(fontsize="small")
    return figure
