"""widgets/distribute_views.py: the data-parallel picture shows the numbers it was given."""
import doctest

import matplotlib
import numpy as np
import pytest

import minitf as tf
from widgets import distribute_views

matplotlib.use("Agg")


def texts(fig):
    return [t.get_text() for t in fig.axes[0].texts if t.get_text()]


def test_examples():
    result = doctest.testmod(distribute_views, optionflags=doctest.ELLIPSIS)
    assert result.attempted > 0 and result.failed == 0


def test_three_replicas_their_devices_rows_and_the_sum():
    gradients = [tf.constant([1.0, 2.0]), np.array([0.25, -1.0]), [0.125, 0.5]]
    devices = [f"/job:localhost/replica:0/task:0/device:CPU:{i}" for i in range(3)]
    fig = distribute_views.draw_data_parallel(gradients, devices, rows=[3, 3, 2])
    shown = texts(fig)
    assert shown[0] == "global batch\n8 rows"
    assert "replica 2 · CPU:2\n2 rows\ngradient [0.125 0.5  ]" in shown
    summed = [t for t in shown if t.startswith("all-reduce")]
    assert summed == ["all-reduce\nSUM\n[1.375 1.5  ]"]
    updates = [t for t in shown if "updates its copy" in t]
    assert len(updates) == 3 and all(t.endswith("[1.375 1.5  ]") for t in updates)


def test_without_row_counts():
    fig = distribute_views.draw_data_parallel([[1.0]], ["/GPU:0"])
    assert texts(fig)[:2] == ["global batch", "replica 0 · /GPU:0\ngradient [1.]"]


@pytest.mark.parametrize("gradients,devices,rows", [
    ([[1.0], [2.0]], ["CPU:0"], None),
    ([[1.0]], ["CPU:0"], [1, 2]),
    ([], [], None),
    ([[1.0]] * 9, ["CPU:0"] * 9, None),
])
def test_mismatched_or_too_many_replicas(gradients, devices, rows):
    with pytest.raises(ValueError, match="replica"):
        distribute_views.draw_data_parallel(gradients, devices, rows=rows)
