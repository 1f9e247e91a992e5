"""Turning pictures into things a notebook can show: SVG from diagrams, PNG from figures.

* `diagram_svg(diagram)`: Graphviz's `dot` when it is installed, otherwise the
  built-in layout of `_layout.py`, with a one-line notice saying so. Results
  are cached by their DOT text, so stepping back and forth costs nothing.
* `figure_png(fig)`: a matplotlib figure as PNG bytes (no timestamps or
  version strings, so the bytes are the same on every run); a pyplot figure
  is closed afterwards, so redrawing never leaks figures. Widgets draw on
  plain `matplotlib.figure.Figure`s, never choosing a backend: the notebook's
  own (inline) backend stays in charge of the learner's `plt.show()`.
* `Picture`: a static picture with `_repr_mimebundle_`, what a widget's
  `static()` returns: GitHub and nbviewer show it where widgets cannot run.

>>> from widgets._layout import Diagram
>>> d = Diagram()
>>> d.node("a", "a")
>>> svg, notice = diagram_svg(d)
>>> "<svg" in svg
True
"""
import base64
import io
import shutil
from collections import OrderedDict
from html import escape

import graphviz
import matplotlib.pyplot as plt

from ._layout import layered_svg

NO_DOT_NOTICE = ("Graphviz's `dot` program was not found, so this graph is drawn with "
                 "minitf's simple built-in layout (install graphviz for nicer pictures).")

_CACHE = OrderedDict()
_CACHE_SIZE = 256


def find_dot():
    """The path of Graphviz's `dot` executable, or None."""
    return shutil.which("dot")


def diagram_svg(diagram):
    """(svg text, notice or None): the diagram drawn by `dot`, or by the fallback layout."""
    source = diagram.to_dot()
    use_dot = find_dot() is not None
    key = (use_dot, source)
    found = _CACHE.get(key)
    if found is None:
        if use_dot:
            svg = graphviz.Source(source).pipe(format="svg").decode("utf-8")
            found = (_strip_xml_header(svg), None)
        else:
            found = (layered_svg(diagram), NO_DOT_NOTICE)
        _CACHE[key] = found
        if len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    else:
        _CACHE.move_to_end(key)
    return found


def _strip_xml_header(svg):
    """Drop the <?xml ...?> and <!DOCTYPE ...> lines so the SVG can sit inside HTML."""
    start = svg.find("<svg")
    return svg[start:] if start >= 0 else svg


# An SVG keeps its natural size where there is room and shrinks, aspect kept (its viewBox),
# to the width of a narrower box: a wide graph in a half-width panel is never cut off.
FIT_STYLE = "max-width:100%; height:auto"


def fit_svg(svg):
    """The SVG with a style that shrinks it to its container's width (aspect kept).

    >>> fit_svg('<svg width="300pt" height="80pt" viewBox="0 0 300 80"></svg>')
    '<svg style="max-width:100%; height:auto" width="300pt" height="80pt" viewBox="0 0 300 80"></svg>'
    """
    start = svg.find("<svg")
    if start < 0:
        return svg
    return f'{svg[:start]}<svg style="{FIT_STYLE}"{svg[start + 4:]}'


def svg_html(svg, notice=None, title=None):
    """HTML showing an SVG (shrunk to fit its box), with an optional title and notice."""
    parts = []
    if title:
        parts.append(f"<b>{escape(title)}</b>")
    parts.append(f'<div style="max-width:100%">{fit_svg(svg)}</div>')
    if notice:
        parts.append(f'<div style="color:#8a6d00; font-size:85%">{escape(notice)}</div>')
    return "".join(parts)


def figure_png(fig, dpi=80):
    """PNG bytes of a matplotlib figure (deterministic); closes the figure."""
    buffer = io.BytesIO()
    try:
        fig.savefig(buffer, format="png", dpi=dpi, metadata={"Software": None})
    finally:
        plt.close(fig)
    return buffer.getvalue()


class Picture:
    """A static picture (PNG bytes or SVG text) that notebooks display without a kernel.

    >>> Picture(svg="<svg></svg>", text="a graph")._repr_mimebundle_()["text/plain"]
    'a graph'
    """

    def __init__(self, png=None, svg=None, text=""):
        self.png, self.svg, self.text = png, svg, text

    def _repr_mimebundle_(self, include=None, exclude=None):
        bundle = {"text/plain": self.text}
        if self.png is not None:
            bundle["image/png"] = base64.b64encode(self.png).decode("ascii")
        if self.svg is not None:
            bundle["image/svg+xml"] = self.svg
        return bundle

    def _repr_html_(self):
        if self.svg is not None:
            return self.svg
        data = base64.b64encode(self.png).decode("ascii")
        return f'<img src="data:image/png;base64,{data}"/>'
