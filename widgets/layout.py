"""Memory layout: a tensor's elements as one flat buffer, and what reshape and transpose do.

In a notebook:

    from widgets.layout import MemoryLayoutExplorer
    MemoryLayoutExplorer(tf.reshape(tf.range(12), [3, 4]))

A tensor's elements live in one flat buffer in row-major order (the last
axis changes fastest). The strides say how far to move in that buffer for
one step along each axis, so element [i, j] of a 3x4 tensor sits at
i*4 + j*1. `tf.reshape` keeps the buffer exactly as it is and only reads it
with new strides; `tf.transpose` writes a new buffer whose element k comes
from some other position of the old one - a permutation of the buffer.

The logic is `MemoryLayout` (one tensor's buffer and strides) and
`LayoutChange` (a reshape or transpose, run with minitf's own ops and read
back with `.numpy()`), which draw nothing:

>>> import minitf as tf
>>> x = tf.reshape(tf.range(6), [2, 3])
>>> m = MemoryLayout(x)
>>> m.flat.tolist(), m.strides, m.byte_strides
([0, 1, 2, 3, 4, 5], (3, 1), (12, 4))
>>> m.flat_index((1, 2)), m.multi_index(5)
(5, (1, 2))
>>> r = LayoutChange(x, "reshape", (3, 2))
>>> r.result.flat.tolist(), r.keeps_order()
([0, 1, 2, 3, 4, 5], True)
>>> t = LayoutChange(x, "transpose", (1, 0))
>>> t.result.flat.tolist()                     # the new buffer
[0, 3, 1, 4, 2, 5]
>>> t.source_index.tolist()                    # where each new element came from
[0, 3, 1, 4, 2, 5]
>>> t.strided_view_strides()                   # NumPy's no-copy view would read it so
(1, 3)
"""
import itertools
from html import escape

import ipywidgets as widgets
import numpy as np

import minitf as tf

from ._render import Picture
from ._view import ExplorerView

MAX_ELEMENTS = 48  # the picture shows every element: keep it readable


class MemoryLayout:
    """One tensor's memory layout, read from its `.numpy()` array.

    shape, dtype: the tensor's; flat: the buffer in row-major order (a NumPy array);
    strides: elements to skip for one step along each axis; byte_strides: the same in
    bytes (what `ndarray.strides` reports for the row-major buffer).
    """

    def __init__(self, tensor):
        tensor = tf.convert_to_tensor(tensor)
        array = tensor.numpy()
        self.tensor, self.dtype = tensor, tensor.dtype
        self.shape = tuple(int(d) for d in array.shape)
        # A minitf tensor (like a TF one) is a dense row-major buffer; its NumPy array
        # is C-contiguous, and these are that array's own strides.
        buffer = array if array.flags["C_CONTIGUOUS"] else np.ascontiguousarray(array)
        self.values = buffer
        self.flat = buffer.reshape(-1)
        self.itemsize = buffer.itemsize
        self.byte_strides = tuple(int(s) for s in buffer.strides)
        self.strides = tuple(s // self.itemsize for s in self.byte_strides) if self.itemsize \
            else tuple(0 for _ in self.shape)
        if buffer.size == 1 or buffer.ndim == 0:  # NumPy reports any stride for size-1 axes
            self.strides = _row_major_strides(self.shape)
            self.byte_strides = tuple(s * self.itemsize for s in self.strides)

    @property
    def size(self):
        return int(self.flat.size)

    def flat_index(self, index):
        """Position in the buffer of the element at `index` (one int per axis):
        the sum of index[k] * strides[k]."""
        index = tuple(int(i) for i in index)
        if len(index) != len(self.shape) or any(
                not 0 <= i < d for i, d in zip(index, self.shape)):
            raise IndexError(f"index {list(index)} is not inside shape {list(self.shape)}.")
        return sum(i * s for i, s in zip(index, self.strides))

    def multi_index(self, position):
        """The index (one int per axis) of buffer position `position`."""
        position = int(position)
        if not 0 <= position < self.size:
            raise IndexError(f"buffer position {position} is outside 0..{self.size - 1}.")
        index = []
        for stride in self.strides:
            index.append(position // stride if stride else 0)
            position = position % stride if stride else position
        return tuple(index)

    def formula(self, index):
        """'1*3 + 2*1 = 5': how the buffer position of `index` is computed."""
        terms = " + ".join(f"{i}*{s}" for i, s in zip(index, self.strides)) or "0"
        return f"{terms} = {self.flat_index(index)}"


def _row_major_strides(shape):
    strides, step = [], 1
    for d in reversed(shape):
        strides.append(step)
        step *= max(int(d), 1)
    return tuple(reversed(strides))


class LayoutChange:
    """A reshape or transpose of `tensor`, run with minitf (`tf.reshape`, `tf.transpose`).

    op: "reshape" (argument: the new shape) or "transpose" (argument: the permutation,
    None for reversed axes). source, result: their `MemoryLayout`s. source_index[k]: the
    source buffer position the result's buffer element k was copied from.
    """

    def __init__(self, tensor, op, argument=None):
        self.source = MemoryLayout(tensor)
        self.op = op
        if op == "reshape":
            self.argument = tuple(int(d) for d in argument)
            result = tf.reshape(self.source.tensor, self.argument)
        elif op == "transpose":
            rank = len(self.source.shape)
            self.argument = tuple(range(rank))[::-1] if argument is None else \
                tuple(int(p) for p in argument)
            result = tf.transpose(self.source.tensor, self.argument)
        else:
            raise ValueError(f"op must be 'reshape' or 'transpose', got {op!r}.")
        self.result = MemoryLayout(result)
        self.source_index = self._source_index()

    def _source_index(self):
        """For each result position: which source position holds the same element."""
        positions = []
        for k in range(self.result.size):
            index = self.result.multi_index(k)
            if self.op == "reshape":  # same buffer: position k is position k
                positions.append(k)
                continue
            source = [0] * len(index)
            for axis, i in zip(self.argument, index):  # result axis a is source axis perm[a]
                source[axis] = i
            positions.append(self.source.flat_index(source))
        return np.asarray(positions, dtype=np.int64)

    def keeps_order(self):
        """True when the result's buffer is the source's buffer in the same order."""
        return bool(np.array_equal(self.source_index, np.arange(self.result.size)))

    def strided_view_strides(self):
        """The strides a no-copy view would need to read the result out of the source
        buffer (NumPy's `transpose` makes such a view; TF and minitf copy instead)."""
        if self.op == "reshape":
            return self.result.strides
        return tuple(self.source.strides[a] for a in self.argument)

    def describe(self):
        """A few sentences about what happened to the buffer."""
        name = f"tf.{self.op}(x, {list(self.argument)})"
        if self.keeps_order():
            return (f"{name} keeps the buffer as it is: element k of the result is element "
                    f"k of x. Only the shape and strides change: {list(self.source.strides)}"
                    f" -> {list(self.result.strides)}.")
        return (f"{name} writes a new buffer: result position k holds x's position "
                f"{self.source_index.tolist()}[k]. A no-copy view would need strides "
                f"{list(self.strided_view_strides())}, which are not row-major, so the "
                f"elements are copied into row-major order (strides "
                f"{list(self.result.strides)}).")


def reshape_targets(size, max_rank=3):
    """Every shape of rank 1..max_rank with `size` elements (the reshape choices).

    >>> reshape_targets(4)
    [(4,), (1, 4), (2, 2), (4, 1), (1, 1, 4), (1, 2, 2), (1, 4, 1), (2, 1, 2), (2, 2, 1), (4, 1, 1)]
    """
    def splits(n, rank):  # ordered factorizations of n into `rank` factors
        if rank == 1:
            yield (n,)
            return
        for d in range(1, n + 1):
            if n % d == 0:
                for rest in splits(n // d, rank - 1):
                    yield (d,) + rest

    return [dims for rank in range(1, max_rank + 1) for dims in splits(int(size), rank)]


# --- drawing (SVG text: cheap to redraw, shown as-is where no kernel runs) ------------------
CELL, GAP = 34, 14


def _color(position, size):
    """A colour per source position, so an element keeps its colour everywhere."""
    hue = (position / max(size, 1)) * 300
    return f"hsl({hue:.0f}, 65%, 82%)"


def _grid_cells(layout, origin, colors, selected, x0, y0):
    """Cells of a tensor drawn as rows x columns (leading axes side by side as blocks)."""
    shape = layout.shape or (1,)
    cols = shape[-1]
    rows = shape[-2] if len(shape) >= 2 else 1
    out, width = [], 0
    for k in range(layout.size):
        block, rest = divmod(k, rows * cols)
        r, c = divmod(rest, cols)
        x = x0 + block * (cols * CELL + GAP) + c * CELL
        y = y0 + r * CELL
        out.append(_cell(x, y, layout.flat[k], colors[origin[k]], origin[k] == selected,
                         note=",".join(map(str, layout.multi_index(k)))))
        width = max(width, x + CELL - x0)
    return out, width, rows * CELL


def _cell(x, y, value, fill, bold, note=""):
    stroke = 'stroke="#000" stroke-width="3"' if bold else 'stroke="#666" stroke-width="1"'
    text = _value_text(value)
    return (f'<rect x="{x}" y="{y}" width="{CELL}" height="{CELL}" fill="{fill}" {stroke}/>'
            f'<text x="{x + CELL / 2}" y="{y + CELL / 2 + 1}" font-size="11" '
            f'text-anchor="middle">{escape(text)}</text>'
            + (f'<text x="{x + CELL / 2}" y="{y + CELL - 3}" font-size="7" fill="#555" '
               f'text-anchor="middle">{escape(note)}</text>' if note else ""))


def _value_text(value):
    if isinstance(value, (bytes, np.bytes_)):
        return value.decode("utf-8", "replace")[:4]
    if np.issubdtype(type(value), np.floating):
        return f"{value:.3g}"
    return str(value)


def _buffer_cells(layout, origin, colors, selected, x0, y0):
    out = []
    for k in range(layout.size):
        x = x0 + k * CELL
        out.append(_cell(x, y0, layout.flat[k], colors[origin[k]], origin[k] == selected))
        out.append(f'<text x="{x + CELL / 2}" y="{y0 + CELL + 11}" font-size="9" '
                   f'fill="#333" text-anchor="middle">{k}</text>')
    return out


def layout_svg(change, selected=0):
    """The picture: x as a grid and as its buffer, then the result's buffer and grid.
    Colours follow the elements (an element has one colour everywhere); `selected`
    (a result buffer position) is outlined in all four, with a line from its place in
    x's buffer to its place in the result's buffer."""
    src, res = change.source, change.result
    colors = [_color(p, src.size) for p in range(src.size)]
    chosen = int(change.source_index[selected]) if res.size else -1
    ident = np.arange(src.size)
    out = []
    y = 18
    out.append(f'<text x="4" y="{y - 4}" font-size="12" font-weight="bold">x: shape '
               f'{list(src.shape)}, strides {list(src.strides)} (bytes '
               f'{list(src.byte_strides)})</text>')
    cells, grid_w, grid_h = _grid_cells(src, ident, colors, chosen, 4, y + 4)
    out += cells
    y += grid_h + 34
    out.append(f'<text x="4" y="{y - 6}" font-size="11">x\'s buffer (row-major; position '
               f'below each element)</text>')
    out += _buffer_cells(src, ident, colors, chosen, 4, y)
    top = y + CELL
    y += CELL + 56
    out.append(f'<text x="4" y="{y - 6}" font-size="11">result\'s buffer</text>')
    out += _buffer_cells(res, change.source_index, colors, chosen, 4, y)
    if res.size:
        x1 = 4 + chosen * CELL + CELL / 2
        x2 = 4 + selected * CELL + CELL / 2
        out.append(f'<line x1="{x1}" y1="{top + 14}" x2="{x2}" y2="{y - 18}" stroke="#000" '
                   f'stroke-width="2"/>')
    y += CELL + 34
    out.append(f'<text x="4" y="{y - 6}" font-size="12" font-weight="bold">'
               f'{escape(f"tf.{change.op}(x, {list(change.argument)})")}: shape '
               f'{list(res.shape)}, strides {list(res.strides)}</text>')
    cells, grid_w2, grid_h2 = _grid_cells(res, change.source_index, colors, chosen, 4, y)
    out += cells
    width = max(grid_w, grid_w2, CELL * max(src.size, 1)) + 12
    height = y + grid_h2 + 10
    return (f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}" '
            f'viewBox="0 0 {width} {height}" font-family="Helvetica, Arial, sans-serif">'
            + "".join(out) + "</svg>")


def selection_text(change, selected):
    """Where the selected element is: its index and buffer position in x and the result."""
    res, src = change.result, change.source
    index = res.multi_index(selected)
    source_position = int(change.source_index[selected])
    source_index = src.multi_index(source_position)
    return (f"result{list(index)}: position {res.formula(index)} of the result's buffer; "
            f"it is x{list(source_index)}, position {src.formula(source_index)} of x's "
            f"buffer (value {_value_text(res.flat[selected])}).")


class MemoryLayoutExplorer(ExplorerView):
    """`MemoryLayoutExplorer(tensor_or_shape)`: the buffer behind a tensor, and what
    reshape and transpose do to it.

    Controls (keyboard: Tab to one, arrow keys to change it): reshape / transpose; the
    new shape (every shape with as many elements, rank 1 to 3) or the permutation; the
    element slider picks a position of the result's buffer, outlined everywhere.
    A shape (e.g. `(3, 4)`) stands for `tf.reshape(tf.range(12), (3, 4))`.
    `static()` is the SVG picture.
    """

    def __init__(self, tensor=(3, 4), op="reshape", argument=None):
        super().__init__()
        if isinstance(tensor, (tuple, list)) and all(isinstance(d, int) for d in tensor):
            tensor = tf.reshape(tf.range(int(np.prod(tensor))), tensor)
        tensor = tf.convert_to_tensor(tensor)
        size = int(np.prod(tensor.shape.as_list()))
        if size > MAX_ELEMENTS:
            raise ValueError(f"MemoryLayoutExplorer draws every element; {size} elements "
                             f"are too many to read (at most {MAX_ELEMENTS}). Try a "
                             f"smaller tensor.")
        self.tensor = tensor
        self.op_buttons = widgets.ToggleButtons(options=["reshape", "transpose"], value=op)
        shape = tuple(tensor.shape.as_list())
        targets = reshape_targets(size)
        if argument is not None and op == "reshape" and tuple(argument) not in targets:
            targets.append(tuple(argument))
        self.shape_choice = widgets.Dropdown(
            options=[(str(list(t)), t) for t in targets], description="new shape",
            value=tuple(argument) if op == "reshape" and argument is not None else
            next((t for t in targets if t != shape), targets[0]))
        perms = list(itertools.permutations(range(len(shape)))) or [()]
        self.perm_choice = widgets.Dropdown(
            options=[(str(list(p)), p) for p in perms], description="perm",
            value=tuple(argument) if op == "transpose" and argument is not None else
            perms[-1])
        self.element = widgets.IntSlider(value=0, min=0, max=max(size - 1, 0),
                                         description="element")
        self.picture, self.text = widgets.HTML(), widgets.HTML()
        self.op_buttons.observe(self.guard(lambda c: self.set_op(c["new"])), names="value")
        self.shape_choice.observe(self.guard(lambda c: self.set_argument(c["new"])),
                                  names="value")
        self.perm_choice.observe(self.guard(lambda c: self.set_argument(c["new"])),
                                 names="value")
        self.element.observe(self.guard(lambda c: self.select(c["new"])), names="value")
        self.children = [widgets.HBox([self.op_buttons]),
                         widgets.HBox([self.shape_choice, self.perm_choice, self.element]),
                         self.text, self.picture, self.error]
        self.selected = 0
        self.set_op(op)

    # --- update paths ------------------------------------------------------------------------
    def set_op(self, op):
        """"reshape" or "transpose" (with the chosen shape / permutation)."""
        self.op = op
        self.shape_choice.layout.display = "" if op == "reshape" else "none"
        self.perm_choice.layout.display = "" if op == "transpose" else "none"
        self.set_argument(self.shape_choice.value if op == "reshape" else
                          self.perm_choice.value)

    def set_argument(self, argument):
        """The new shape (reshape) or the permutation (transpose); runs the op."""
        self.change = LayoutChange(self.tensor, self.op, argument)
        self.refresh()

    def select(self, position):
        """Outline the element at `position` of the result's buffer."""
        self.selected = int(position)
        self.refresh()

    def refresh(self):
        self.picture.value = layout_svg(self.change, self.selected)
        self.text.value = (f"<div>{escape(self.change.describe())}</div><div><b>"
                           f"{escape(selection_text(self.change, self.selected))}</b></div>")

    def static(self):
        """The SVG picture (shown where widgets cannot run)."""
        return Picture(svg=layout_svg(self.change, self.selected),
                       text=self.change.describe())
