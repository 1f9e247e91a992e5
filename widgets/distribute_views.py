"""A picture of one data-parallel step: the batch split, each replica's gradient, the all-reduce.

`draw_data_parallel(gradients, devices)` draws what `MirroredStrategy` did
with one global batch, from the numbers a lesson computed: the global batch
cut into one shard per replica, the gradient each replica computed on its
shard, the all-reduce that sums them, and the same summed gradient back on
every replica. It needs matplotlib and NumPy only, so a lesson that uses it
runs unchanged under real TensorFlow:

>>> import numpy as np
>>> fig = draw_data_parallel([np.array([1.0, -2.0]), np.array([0.5, 1.0])],
...                          ["/job:localhost/replica:0/task:0/device:CPU:0",
...                           "/job:localhost/replica:0/task:0/device:CPU:1"], rows=[4, 4])
>>> texts = [t.get_text() for t in fig.axes[0].texts if t.get_text()]
>>> texts[0], texts[-1]
('global batch\\n8 rows', 'replica 1 · CPU:1\\nupdates its copy with\\n[ 1.5 -1. ]')
"""
import numpy as np

_COLOURS = ["#4c78a8", "#f58518", "#54a24b", "#b279a2", "#e45756", "#72b7b2", "#9d755d",
            "#bab0ac"]


def draw_data_parallel(gradients, devices, rows=None, decimals=3):
    """A figure of one synchronous data-parallel step.

    gradients: one 1-D gradient per replica (arrays or tensors with `.numpy()`);
    devices: each replica's device string (its last part, such as `CPU:1`, is shown);
    rows: how many rows of the global batch each replica got (shown when given);
    decimals: how many decimals the gradients are written with.
    """
    import matplotlib.pyplot as plt

    values = [np.round(np.asarray(getattr(g, "numpy", lambda: g)(), dtype=float).ravel(),
                       decimals) for g in gradients]
    count = len(values)
    if count == 0 or len(devices) != count or (rows is not None and len(rows) != count):
        raise ValueError(f"Give one gradient, one device (and one row count) per replica; got "
                         f"{count} gradients, {len(devices)} devices and "
                         f"{'no' if rows is None else len(rows)} row counts.")
    if count > len(_COLOURS):
        raise ValueError(f"The picture shows up to {len(_COLOURS)} replicas; got {count}.")
    total = np.round(np.sum([np.asarray(v) for v in values], axis=0), decimals)
    names = [str(d).rsplit("device:", 1)[-1] for d in devices]
    fig, ax = plt.subplots(figsize=(9.5, 1.2 + 1.1 * count))
    ax.set_xlim(0, 10)
    ax.set_ylim(-0.5, count - 0.5)
    ax.axis("off")
    middle = (count - 1) / 2
    batch = f"global batch\n{sum(rows)} rows" if rows is not None else "global batch"
    _box(ax, 0.9, middle, batch, "#dddddd")
    for i, (name, gradient) in enumerate(zip(names, values)):
        y = count - 1 - i
        shard = f"\n{rows[i]} rows" if rows is not None else ""
        _arrow(ax, (1.7, middle), (2.6, y))
        _box(ax, 3.6, y, f"replica {i} · {name}{shard}\ngradient {gradient}", _COLOURS[i])
        _arrow(ax, (4.7, y), (5.45, middle))
        _arrow(ax, (6.55, middle), (7.65, y))
    _box(ax, 6.0, middle, f"all-reduce\nSUM\n{total}", "#eeeeee")
    for i, name in enumerate(names):
        _box(ax, 8.6, count - 1 - i, f"replica {i} · {name}\nupdates its copy with\n{total}",
             _COLOURS[i])
    fig.tight_layout()
    return fig


def _box(ax, x, y, text, colour):
    ax.text(x, y, text, ha="center", va="center", fontsize=8.5, family="monospace",
            bbox={"boxstyle": "round,pad=0.4", "facecolor": colour, "alpha": 0.35,
                  "edgecolor": colour})


def _arrow(ax, start, end):
    ax.annotate("", xy=end, xytext=start, arrowprops={"arrowstyle": "->", "color": "gray"})
