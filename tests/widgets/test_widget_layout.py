"""The built-in layout used when Graphviz's `dot` is missing, and the picture helpers."""
import pathlib
import subprocess
import sys

import matplotlib.figure
import matplotlib.pyplot as plt

from system_tools import require_tool
from widgets import _render
from widgets._layout import Diagram, layered_svg, layers, positions
from widgets._render import Picture, diagram_svg, figure_png


def diamond():
    d = Diagram("diamond")
    for key in "abcde":
        d.node(key, f"node {key}")
    for tail, head in ["ab", "ac", "bd", "cd", "de", "ae"]:
        d.edge(tail, head, label=tail + head)
    return d


def test_layers_follow_longest_paths():
    assert layers(diamond()) == [["a"], ["b", "c"], ["d"], ["e"]]


def test_nodes_of_a_layer_do_not_overlap_and_edges_point_down():
    d = diamond()
    place = positions(d)
    for row in layers(d):
        boxes = sorted((place[k][0] - place[k][2] / 2, place[k][0] + place[k][2] / 2)
                       for k in row)
        assert all(left[1] < right[0] for left, right in zip(boxes, boxes[1:]))
    assert all(place[tail][1] < place[head][1] for tail, head, _, _ in d.edges)


def test_fallback_svg_has_every_node_and_edge():
    svg = layered_svg(diamond())
    assert svg.count("<rect") == 5 and svg.count("<line") == 6
    assert ">node e<" in svg and ">ae<" in svg


def test_dot_draws_the_diagram_where_it_is_installed():
    require_tool("dot")  # skips without Graphviz (fails under MINITF_REQUIRE_TOOLS=1)
    with_dot, notice = diagram_svg(diamond())
    assert notice is None and with_dot.startswith("<svg") and "class=\"graph\"" in with_dot


def test_dot_missing_means_fallback_with_a_notice(monkeypatch):
    monkeypatch.setattr(_render.shutil, "which", lambda name: None)
    without, notice = diagram_svg(diamond())
    assert notice == _render.NO_DOT_NOTICE and without == layered_svg(diamond())
    assert "\n" not in notice  # one line


def test_dot_text_quotes_labels():
    d = Diagram('say "hi"')
    d.node("k", 'a "b"\nc', shape="ellipse", bold=True, dashed=True)
    text = d.to_dot()
    assert 'label="a \\"b\\"\\nc"' in text and "dashed" in text and "penwidth=2.5" in text


def test_figure_png_closes_the_figure_and_is_deterministic():
    def make():
        fig = plt.figure()
        fig.gca().plot([0, 1], [1, 0])
        return fig

    before = len(plt.get_fignums())
    first, second = figure_png(make()), figure_png(make())
    assert first == second and first.startswith(b"\x89PNG")
    assert len(plt.get_fignums()) == before
    assert figure_png(matplotlib.figure.Figure()).startswith(b"\x89PNG")


def test_picture_bundles():
    png = Picture(png=b"\x89PNG", text="t")._repr_mimebundle_()
    assert png == {"text/plain": "t", "image/png": "iVBORw=="}
    assert Picture(svg="<svg/>")._repr_html_() == "<svg/>"


def test_widgets_leave_the_notebooks_matplotlib_backend_alone():
    """A lesson's own `plt.show()` must still draw after it imports a widget
    (a widget that switched pyplot to Agg once made lesson figures vanish)."""
    script = """
import matplotlib
matplotlib.use("svg")
import matplotlib.pyplot as plt
import widgets, widgets.broadcast, widgets.optimizer_race, widgets.pipeline, widgets.training
from widgets.optimizer_race import OptimizerRace
OptimizerRace("booth", optimizers=["SGD"], steps=3).static()
print(matplotlib.get_backend(), plt.get_fignums())
"""
    root = pathlib.Path(__file__).resolve().parents[2]
    out = subprocess.run([sys.executable, "-c", script], cwd=root, capture_output=True,
                         text=True, check=True).stdout
    assert out.split() == ["svg", "[]"]
