"""Diagrams of nodes and arrows, and a built-in layout for when Graphviz is missing.

Widgets describe what they draw as a `Diagram` (boxes, ellipses, arrows,
colours). `to_dot()` hands it to Graphviz's `dot`; where `dot` is not
installed, `layered_svg()` lays it out itself, the way `dot` does in
spirit: nodes go in layers by their longest path from an input, a few
sweeps reorder each layer by the average position of its neighbours (fewer
crossings), and edges are straight lines.

>>> d = Diagram("demo")
>>> d.node("x", "x", shape="ellipse")
>>> d.node("sq", "Square")
>>> d.edge("x", "sq")
>>> layers(d)
[['x'], ['sq']]
>>> layered_svg(d).startswith("<svg")
True
"""
from html import escape

# Fill colours shared by all widgets (the same ones as Graph.to_dot).
FILL = {"op": "#eef3fb", "input": "#fff4d6", "const": "#f2f2f2", "output": "#dff5e1",
        "current": "#ffd54f", "removed": "#f8c9c4", "added": "#c8ecc9", "fused": "#d9c8f0",
        "folded": "#cfe3f7", "rewritten": "#fde2b8", "muted": "#fafafa"}


class Diagram:
    """Nodes (key, label, shape, fill) and edges (from, to, label), in insertion order."""

    def __init__(self, name="graph"):
        self.name = name
        self.nodes = {}  # key -> dict(label, shape, fill, bold, dashed)
        self.edges = []  # (from key, to key, label, bold)

    def node(self, key, label, shape="box", fill=FILL["op"], bold=False, dashed=False):
        """Add (or restyle) the node `key`; shape is "box", "ellipse" or "note"."""
        self.nodes[key] = dict(label=str(label), shape=shape, fill=fill, bold=bold,
                               dashed=dashed)

    def edge(self, tail, head, label="", bold=False):
        """An arrow from `tail` to `head` (both node keys)."""
        self.edges.append((tail, head, str(label), bold))

    def to_dot(self):
        """The diagram in Graphviz's DOT language."""
        lines = [f"digraph {_quote(self.name)} {{", "  rankdir=TB;",
                 '  node [style="rounded,filled", fontname="Helvetica", fontsize=11];',
                 '  edge [fontname="Helvetica", fontsize=9];']
        for key, n in self.nodes.items():
            style = "rounded,filled" + (",dashed" if n["dashed"] else "") + \
                (",bold" if n["bold"] else "")
            lines.append(f"  {_quote(key)} [label={_quote(n['label'])}, shape={n['shape']}, "
                         f'fillcolor="{n["fill"]}", style="{style}"'
                         + (", penwidth=2.5" if n["bold"] else "") + "];")
        for tail, head, label, bold in self.edges:
            extra = ", penwidth=2.5" if bold else ""
            lines.append(f"  {_quote(tail)} -> {_quote(head)} [label={_quote(label)}{extra}];")
        lines.append("}")
        return "\n".join(lines)


def _quote(text):
    return '"' + str(text).replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


# --- layout -------------------------------------------------------------------------------
def layers(diagram):
    """Node keys grouped by longest path from a node without inputs (iterative, no recursion)."""
    preds = {k: [] for k in diagram.nodes}
    succs = {k: [] for k in diagram.nodes}
    for tail, head, _, _ in diagram.edges:
        if tail in preds and head in preds:
            preds[head].append(tail)
            succs[tail].append(head)
    missing = {k: len(set(p)) for k, p in preds.items()}
    ready = [k for k in diagram.nodes if missing[k] == 0]
    depth = {k: 0 for k in ready}
    order = []
    while ready:
        key = ready.pop(0)
        order.append(key)
        for nxt in dict.fromkeys(succs[key]):
            depth[nxt] = max(depth.get(nxt, 0), depth[key] + 1)
            missing[nxt] -= 1
            if missing[nxt] == 0:
                ready.append(nxt)
    for key in diagram.nodes:  # a cycle (never in a traced graph): put the rest last
        if key not in depth:
            depth[key] = max(depth.values(), default=-1) + 1
    result = [[] for _ in range(max(depth.values(), default=-1) + 1)]
    for key in diagram.nodes:
        result[depth[key]].append(key)
    return _reduce_crossings(result, preds, succs)


def _reduce_crossings(rows, preds, succs, sweeps=4):
    """Reorder each layer by the mean position of its neighbours in the layer before/after."""
    for sweep in range(sweeps):
        down = sweep % 2 == 0
        span = range(1, len(rows)) if down else range(len(rows) - 2, -1, -1)
        for i in span:
            ref = rows[i - 1] if down else rows[i + 1]
            where = {k: p for p, k in enumerate(ref)}
            links = preds if down else succs

            def centre(key, links=links, where=where):
                spots = [where[k] for k in links[key] if k in where]
                return sum(spots) / len(spots) if spots else rows[i].index(key)

            rows[i] = sorted(rows[i], key=lambda k: (centre(k), rows[i].index(k)))
    return rows


def _width(label):
    longest = max((len(line) for line in label.split("\n")), default=1)
    return max(44, 7 * longest + 18)


def positions(diagram, gap_x=24, gap_y=64):
    """key -> (centre x, centre y, width, height) for the layered layout."""
    rows = layers(diagram)
    sizes = {k: (_width(n["label"]), 18 + 14 * n["label"].count("\n") + 14)
             for k, n in diagram.nodes.items()}
    widths = [sum(sizes[k][0] for k in row) + gap_x * (len(row) - 1) for row in rows]
    total = max(widths, default=0)
    place = {}
    for depth, (row, width) in enumerate(zip(rows, widths)):
        x = 10 + (total - width) / 2
        for key in row:
            w, h = sizes[key]
            place[key] = (x + w / 2, 30 + depth * gap_y, w, h)
            x += w + gap_x
    return place


# --- drawing -----------------------------------------------------------------------------
def layered_svg(diagram):
    """The diagram as an SVG string, laid out without Graphviz."""
    place = positions(diagram)
    width = max((x + w / 2 for x, _, w, _ in place.values()), default=40) + 10
    height = max((y + h / 2 for _, y, _, h in place.values()), default=40) + 10
    out = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" '
           f'height="{height:.0f}" viewBox="0 0 {width:.0f} {height:.0f}" '
           'font-family="Helvetica, Arial, sans-serif">',
           '<defs><marker id="arrow" viewBox="0 0 10 10" refX="10" refY="5" '
           'markerWidth="7" markerHeight="7" orient="auto-start-reverse">'
           '<path d="M 0 0 L 10 5 L 0 10 z" fill="#444"/></marker></defs>']
    for tail, head, label, bold in diagram.edges:
        if tail in place and head in place:
            out.append(_edge_svg(place[tail], place[head], label, bold))
    for key, node in diagram.nodes.items():
        out.append(_node_svg(place[key], node))
    out.append("</svg>")
    return "\n".join(out)


def _edge_svg(a, b, label, bold):
    x1, y1 = a[0], a[1] + a[3] / 2
    x2, y2 = b[0], b[1] - b[3] / 2
    width = 2.5 if bold else 1
    text = ""
    if label:
        text = (f'<text x="{(x1 + x2) / 2 + 4:.1f}" y="{(y1 + y2) / 2:.1f}" font-size="9" '
                f'fill="#555">{escape(label)}</text>')
    return (f'<line x1="{x1:.1f}" y1="{y1:.1f}" x2="{x2:.1f}" y2="{y2:.1f}" stroke="#444" '
            f'stroke-width="{width}" marker-end="url(#arrow)"/>{text}')


def _node_svg(spot, node):
    x, y, w, h = spot
    stroke = 'stroke="#222" stroke-width="2.5"' if node["bold"] else 'stroke="#444"'
    if node["dashed"]:
        stroke += ' stroke-dasharray="4 3"'
    if node["shape"] == "ellipse":
        shape = (f'<ellipse cx="{x:.1f}" cy="{y:.1f}" rx="{w / 2:.1f}" ry="{h / 2:.1f}" '
                 f'fill="{node["fill"]}" {stroke}/>')
    else:
        radius = 2 if node["shape"] == "note" else 7
        shape = (f'<rect x="{x - w / 2:.1f}" y="{y - h / 2:.1f}" width="{w:.1f}" '
                 f'height="{h:.1f}" rx="{radius}" fill="{node["fill"]}" {stroke}/>')
    lines = node["label"].split("\n")
    first = y - 7 * (len(lines) - 1) + 4
    text = "".join(f'<text x="{x:.1f}" y="{first + 14 * i:.1f}" font-size="11" '
                   f'text-anchor="middle">{escape(line)}</text>' for i, line in enumerate(lines))
    return shape + text
