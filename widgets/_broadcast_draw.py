"""The broadcasting explorer's pictures: cell grids of the operands and the result.

`draw` makes the matplotlib figure behind `BroadcastExplorer.static()` (a PNG);
the live widget shows the same grids as HTML tables (see `broadcast.grid_html`).
Leading axes of 3-D and larger shapes become side-by-side panels.
"""
import numpy as np

# --- drawing (matplotlib) ---------------------------------------------------------------
COLORS = ((0.30, 0.51, 0.80), (0.95, 0.56, 0.20), (0.35, 0.70, 0.40), (0.55, 0.55, 0.60))
MAX_DRAWN_CELLS = 600
MAX_TEXT_CELLS = 160


def _grid(shape):
    """An n-D shape as (panels, rows, cols): leading axes become side-by-side panels."""
    shape = tuple(shape)
    if len(shape) == 0:
        return 1, 1, 1
    if len(shape) == 1:
        return 1, 1, shape[0]
    return int(np.prod(shape[:-2])), shape[-2], shape[-1]


def _spot(shape, index):
    """(row, column) in the drawn image of the cell `index` of an array of `shape`."""
    panels, rows, cols = _grid(shape)
    if len(shape) == 0:
        return 0, 0
    if len(shape) == 1:
        return 0, index[0]
    panel = int(np.ravel_multi_index(index[:-2], shape[:-2])) if len(shape) > 2 else 0
    return index[-2], panel * (cols + 1) + index[-1]


def drawable(plan, step):
    """Whether the grids are small enough to draw cell by cell at this step."""
    shapes = plan.padded if step < 3 or not plan.ok else [plan.result_shape]
    return all(int(np.prod(_grid(s))) <= MAX_DRAWN_CELLS and _grid(s)[0] <= 12 for s in shapes)


def _row_image(shape, colour, ghost):
    """RGBA image of one operand drawn over `shape`; `ghost(index)` marks stretched copies."""
    panels, rows, cols = _grid(shape)
    image = np.ones((rows, panels * (cols + 1) - 1, 4))
    for index in np.ndindex(*shape):
        r, c = _spot(shape, index)
        image[r, c, :3] = colour
        image[r, c, 3] = 0.25 if ghost(index) else 0.9
    return image


def draw(plan, step, selected=None, show_gradient=False):
    """A matplotlib Figure of the operands (and the result) at `step`.

    selected: a result index whose source cells are outlined in red.
    show_gradient: label operand cells with the tape's gradient instead of their values.
    """
    import matplotlib.figure  # noqa: PLC0415 - matplotlib is only needed to draw

    broadcast_view = step >= 3 and plan.ok
    rows = list(zip(plan.names, plan.padded))
    if broadcast_view and step >= 4:
        rows.append(("a + b" if len(plan.shapes) == 2 else "a + b + c", plan.result_shape))
    fig = matplotlib.figure.Figure(figsize=(7, 1.0 + 1.1 * len(rows)))
    if not drawable(plan, step):
        fig.text(0.5, 0.5, "too many cells to draw one by one; see the table", ha="center")
        return fig
    axes = fig.subplots(len(rows), 1, squeeze=False)[:, 0]
    values = [op.numpy() for op in plan.operands()]
    grads = plan.gradients() if show_gradient and broadcast_view else None
    for k, (ax, (name, shape)) in enumerate(zip(axes, rows)):
        is_result = k == len(plan.shapes)
        drawn = plan.result_shape if broadcast_view else shape
        _draw_row(ax, plan, k, drawn, broadcast_view, is_result, values, grads, selected)
        title = f"{name}: shape {list(plan.shapes[k]) if not is_result else list(shape)}"
        if broadcast_view and not is_result:
            title += f", drawn over the result shape {list(plan.result_shape)} (faint = stretched copy)"
            if grads is not None:
                title += f"; gradient summed over axes {plan.reduced_axes(k)}"
        ax.set_title(title, fontsize=9, loc="left")
    fig.subplots_adjust(left=0.02, right=0.98, top=0.92, bottom=0.04, hspace=0.6)
    return fig


def _draw_row(ax, plan, k, drawn, broadcast_view, is_result, values, grads, selected):
    colour = COLORS[3] if is_result else COLORS[k]
    padded = plan.padded[k] if not is_result else drawn

    def ghost(index):
        return not is_result and broadcast_view and any(
            p == 1 and i > 0 for p, i in zip(padded, index))

    ax.imshow(_row_image(drawn, colour, ghost), interpolation="nearest", aspect="equal")
    ax.set_xticks([])
    ax.set_yticks([])
    for side in ax.spines.values():
        side.set_visible(False)
    if int(np.prod(drawn)) <= MAX_TEXT_CELLS:
        for index in np.ndindex(*drawn):
            r, c = _spot(drawn, index)
            ax.text(c, r, _cell_text(plan, k, index, is_result, broadcast_view, values, grads),
                    ha="center", va="center", fontsize=7, color="#222")
    if selected is not None and broadcast_view:
        if is_result:
            spot = _spot(drawn, selected)
        else:
            source = tuple(0 if p == 1 else i for p, i in zip(padded, selected))
            spot = _spot(drawn, source)
        ax.add_patch(_outline(spot))


def _cell_text(plan, k, index, is_result, broadcast_view, values, grads):
    if is_result:
        return f"{plan.values()[index]:g}"
    padded_index = index if not broadcast_view else tuple(
        0 if p == 1 else i for p, i in zip(plan.padded[k], index))
    own = padded_index[plan.rank - len(plan.shapes[k]):]
    if grads is not None:
        return f"{grads[k][own]:g}"
    return f"{values[k][own]:g}"


def _outline(spot):
    import matplotlib.patches  # noqa: PLC0415

    r, c = spot
    return matplotlib.patches.Rectangle((c - 0.5, r - 0.5), 1, 1, fill=False,
                                        edgecolor="#d62728", linewidth=2.5)
