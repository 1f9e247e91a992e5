"""Programs some tests need besides Python packages: Graphviz's `dot` and Debian's Chromium.

Without one, the tests that need it skip, with the command that installs it as the reason:
lesson cells whose stored picture `dot` drew (see `pytest_runtest_call` in conftest.py),
the plot_model tests and the browser test (tests/test_browser.py).

* ``MINITF_REQUIRE_TOOLS=1`` (set by ``.ci/run``): a missing program is a failure, not a
  skip, so CI can never pass by skipping (as ``MINITF_REQUIRE_TF`` does in real_tf.py).

>>> sorted(INSTALL)
['chromium', 'dot']
"""
import os
import shutil

import pytest

INSTALL = {
    "dot": "Graphviz's `dot` is not installed: apt-get install -y graphviz "
           "(or brew install graphviz; https://graphviz.org/download/)",
    "chromium": "Debian's Chromium is not installed: apt-get install -y chromium",
}


def find(program):
    """The path of `program` on PATH, or None."""
    return shutil.which(program)


def required():
    return os.environ.get("MINITF_REQUIRE_TOOLS") == "1"


def require_tool(program):
    """The path of `program`; without it skip the calling test -- or fail, where CI
    requires the tools."""
    path = find(program)
    if path is not None:
        return path
    if required():
        pytest.fail(f"MINITF_REQUIRE_TOOLS=1 but {INSTALL[program]}", pytrace=False)
    pytest.skip(INSTALL[program])


def drawn_by_dot(item):
    """Whether `item` is a lesson cell whose stored outputs hold an SVG that `dot` drew."""
    cell = getattr(item, "cell", None)  # nbval's IPyNbCell keeps the stored cell
    if not isinstance(cell, dict):
        return False
    for output in cell.get("outputs", []):
        svg = output.get("data", {}).get("image/svg+xml", "")
        if 'class="graph"' in ("".join(svg) if isinstance(svg, list) else svg):
            return True  # every SVG Graphviz writes opens with <g id="graph0" class="graph">
    return False
