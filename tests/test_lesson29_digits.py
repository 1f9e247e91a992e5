"""Lesson 29's digit CNN reaches >= 95 % test accuracy, reproducibly.

The test runs the lesson's own cells (read from the notebook, so it trains the
very model the lesson shows, with its seed) up to the test-accuracy cell, and
checks both the fresh result and the output stored in the notebook.
"""
import contextlib
import io
import os
import re

import matplotlib
import nbformat

matplotlib.use("Agg")

LESSON = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                      "lessons", "29_end_to_end.ipynb")
PATTERN = re.compile(r"test accuracy: (\d\.\d{4})  \((\d+) of 360\)")


def _cells_up_to_the_test_accuracy():
    cells = [c for c in nbformat.read(LESSON, as_version=4).cells if c.cell_type == "code"]
    for i, cell in enumerate(cells):
        if "cnn.evaluate(" in cell.source:
            return cells[:i + 1]
    raise AssertionError("lesson 29 has no cell that evaluates the CNN")


def test_stored_test_accuracy_is_at_least_95_percent():
    cell = _cells_up_to_the_test_accuracy()[-1]
    stored = "".join(o.get("text", "") for o in cell.outputs)
    accuracy, right = PATTERN.search(stored).groups()
    assert float(accuracy) >= 0.95 and int(right) >= 342


def test_training_again_gives_the_stored_accuracy():
    cells = _cells_up_to_the_test_accuracy()
    namespace, out = {}, io.StringIO()
    with contextlib.redirect_stdout(out):
        for cell in cells:
            exec(compile(cell.source, "<lesson 29>", "exec"), namespace)   # noqa: S102
    assert namespace["test_accuracy"] >= 0.95
    stored = "".join(o.get("text", "") for o in cells[-1].outputs)
    assert PATTERN.search(out.getvalue()).group(0) == PATTERN.search(stored).group(0)
