"""Without Graphviz's `dot` or Debian's Chromium, the tests that need them skip and say how
to install them; under MINITF_REQUIRE_TOOLS=1 (CI) they fail instead.

Each check runs pytest in a subprocess on a small selection, with a PATH that has every
program of this machine except `dot` and `chromium` (links to the others in a temporary
folder), as on a fresh Debian without graphviz and chromium.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

import system_tools

ROOT = Path(__file__).resolve().parents[1]
HIDDEN = ("dot", "chromium")


@pytest.fixture(scope="module")
def path_without_tools(tmp_path_factory):
    """A PATH with every program but `dot` and `chromium`."""
    links = tmp_path_factory.mktemp("bin")
    kept = []
    for folder in os.environ.get("PATH", "").split(os.pathsep):
        if not os.path.isdir(folder):
            continue
        if any(os.path.exists(os.path.join(folder, name)) for name in HIDDEN):
            for name in os.listdir(folder):  # a folder holding them: link the others
                if name not in HIDDEN and not (links / name).exists():
                    (links / name).symlink_to(os.path.join(folder, name))
        else:
            kept.append(folder)
    path = os.pathsep.join(kept + [str(links)])
    assert all(shutil.which(name, path=path) is None for name in HIDDEN)
    return path


def run_pytest(path, selection, require=False, extra=()):
    env = {k: v for k, v in os.environ.items() if not k.startswith("PYTEST_XDIST")}
    env.update(PATH=path, PYTHONPATH=str(ROOT))
    env.pop("MINITF_REQUIRE_TOOLS", None)
    if require:
        env["MINITF_REQUIRE_TOOLS"] = "1"
    # -n 0: one process (the parent run's workers are enough).
    done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-n", "0", "--dist", "no",
                           "-rsf", "-p", "no:randomly", *extra, *selection], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=900)
    return done.returncode, done.stdout + done.stderr


def test_require_tool_finds_skips_or_fails(monkeypatch):
    monkeypatch.setattr(system_tools, "find", lambda program: None)
    monkeypatch.delenv("MINITF_REQUIRE_TOOLS", raising=False)
    with pytest.raises(pytest.skip.Exception, match="apt-get install -y graphviz"):
        system_tools.require_tool("dot")
    monkeypatch.setenv("MINITF_REQUIRE_TOOLS", "1")
    with pytest.raises(pytest.fail.Exception, match="MINITF_REQUIRE_TOOLS=1 but Debian's "
                       "Chromium is not installed: apt-get install -y chromium"):
        system_tools.require_tool("chromium")
    monkeypatch.setattr(system_tools, "find", lambda program: f"/usr/bin/{program}")
    assert system_tools.require_tool("dot") == "/usr/bin/dot"


def test_drawn_by_dot_knows_graphviz_svg_from_other_pictures():
    class Cell:
        def __init__(self, svg):
            self.cell = {"outputs": [{"data": {"image/svg+xml": svg}}]}

    assert system_tools.drawn_by_dot(Cell(['<svg width="1pt">\n', '<g id="graph0" class="graph">']))
    assert not system_tools.drawn_by_dot(Cell('<svg xmlns="http://www.w3.org/2000/svg"><line/></svg>'))
    assert not system_tools.drawn_by_dot(object())


PLOT = ["tests/keras/test_plot_model.py::test_dpi_changes_the_png_size"]


def test_plot_model_skips_with_the_install_command(path_without_tools):
    code, out = run_pytest(path_without_tools, PLOT)
    assert code == 0, out
    assert "1 skipped" in out and "apt-get install -y graphviz" in out, out


def test_plot_model_fails_when_tools_are_required(path_without_tools):
    code, out = run_pytest(path_without_tools, PLOT, require=True)
    assert code == 1 and ("1 error" in out or "1 failed" in out), out
    assert "MINITF_REQUIRE_TOOLS=1 but Graphviz's `dot` is not installed" in out, out


def test_browser_test_skips_without_chromium_before_starting_jupyterlab(path_without_tools):
    code, out = run_pytest(path_without_tools, ["tests/test_browser.py"], extra=["-m", "browser"])
    assert code == 0, out
    assert "apt-get install -y chromium" in out and " skipped" in out and "error" not in out, out
    code, out = run_pytest(path_without_tools, ["tests/test_browser.py"], require=True,
                           extra=["-m", "browser"])
    assert code == 1 and "MINITF_REQUIRE_TOOLS=1 but Debian's Chromium" in out, out


def test_lesson_cell_with_a_dot_picture_skips_and_the_rest_still_run(path_without_tools):
    # a two-cell lesson: the first stored a picture `dot` drew, the second prints. It lives
    # in the checkout (under the ignored artifacts/), where the checkout's conftest.py applies.
    (ROOT / "artifacts").mkdir(exist_ok=True)
    with tempfile.TemporaryDirectory(dir=ROOT / "artifacts") as folder:
        _run_dot_lesson(path_without_tools, Path(folder) / "dot_lesson.ipynb")


def _run_dot_lesson(path_without_tools, lesson):
    source = ("from widgets._render import find_dot\n"
              "from IPython.display import SVG\n"
              "x = 41\n"
              "SVG('<svg xmlns=\"http://www.w3.org/2000/svg\"><g id=\"graph0\" class=\"graph\">'"
              " + str(find_dot()) + '</g></svg>')")
    svg = '<svg xmlns="http://www.w3.org/2000/svg"><g id="graph0" class="graph">/usr/bin/dot</g></svg>'
    cells = [{"cell_type": "code", "execution_count": 1, "id": "a", "metadata": {},
              "source": source, "outputs": [{"output_type": "execute_result", "execution_count": 1,
                                              "metadata": {}, "data": {"image/svg+xml": svg,
                                                                       "text/plain": "<SVG>"}}]},
             {"cell_type": "code", "execution_count": 2, "id": "b", "metadata": {},
              "source": "print(x + 1)", "outputs": [{"output_type": "stream", "name": "stdout",
                                                     "text": "42\n"}]}]
    lesson.write_text(json.dumps({"cells": cells, "metadata": {"kernelspec": {
        "name": "python3", "display_name": "Python 3", "language": "python"}},
        "nbformat": 4, "nbformat_minor": 5}))
    code, out = run_pytest(path_without_tools, [str(lesson)])
    assert code == 0, out
    assert "1 passed, 1 skipped" in out and "apt-get install -y graphviz" in out, out
    code, out = run_pytest(path_without_tools, [str(lesson)], require=True)
    assert code == 1 and "1 failed, 1 passed" in out, out
    assert "MINITF_REQUIRE_TOOLS=1 but Graphviz's `dot` is not installed" in out, out
