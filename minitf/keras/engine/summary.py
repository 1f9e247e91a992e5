"""`model.summary()`: the table of layers, output shapes and parameter counts.

The layout is Keras 3's, character for character: Keras draws the table
with the `rich` library (heavy lines under the header, a line between
rows), at the width of the terminal minus 4 (at most 88, or 108 for a
model with branches, which gets a "Connected to" column). minitf draws the
same table in plain Python:

>>> import minitf as tf
>>> tf.keras.backend.clear_session()
>>> model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2)])
>>> model.summary(line_length=60)      # verified against TF 2.21
Model: "sequential"
┏━━━━━━━━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━━━━━━━━━┳━━━━━━━━━━━┓
┃ Layer (type)             ┃ Output Shape      ┃   Param # ┃
┡━━━━━━━━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━━━━━━━━━╇━━━━━━━━━━━┩
│ dense (Dense)            │ (None, 2)         │         8 │
└──────────────────────────┴───────────────────┴───────────┘
 Total params: 8 (32.00 B)
 Trainable params: 8 (32.00 B)
 Non-trainable params: 0 (0.00 B)
"""
import math
import shutil


def summary_text(model, line_length=None, positions=None, show_trainable=False):
    """The whole summary as one string (what `summary()` prints)."""
    layers, sequential_like = _layers_and_kind(model)
    if sequential_like:
        default_length, positions = 88, positions or [0.45, 0.80, 1.0]
        header = ["Layer (type)", "Output Shape", "Param #"]
        align = ["left", "left", "right"]
    else:
        default_length, positions = 108, positions or [0.3, 0.56, 0.74, 1.0]
        header = ["Layer (type)", "Output Shape", "Param #", "Connected to"]
        align = ["left", "left", "right", "left"]
    if show_trainable:
        default_length += 12
        positions = [p * 0.90 for p in positions] + [1.0]
        header.append("Trainable")
        align.append("center")
    line_length = line_length or min(default_length, shutil.get_terminal_size().columns - 4)
    rows = [_row(model, layer, sequential_like, show_trainable) for layer in layers]
    lines = [f'Model: "{model.name}"']
    lines += _table(header, rows, align, _column_widths(positions, line_length, len(header)))
    lines += _totals(model)
    return "\n".join(lines) + "\n"


def _layers_and_kind(model):
    """The layers to list, and whether the model is a simple chain (no 'Connected to')."""
    from .functional import Functional
    from .sequential import Sequential
    if isinstance(model, Sequential) or not isinstance(model, Functional):
        return model.layers, True
    nodes = []
    for depth_nodes in model._nodes_by_depth.values():
        if len(depth_nodes) > 1 or (len(depth_nodes) == 1 and
                                    len(depth_nodes[0].input_tensors) > 1):
            return model._operations, False
        nodes += depth_nodes
    for layer in model.layers:  # a shared layer makes it a graph too
        if sum(1 for node in layer._inbound_nodes if node in nodes) > 1:
            return model._operations, False
    return model._operations, True


def _row(model, layer, sequential_like, show_trainable):
    if not layer.built:
        params = "0 (unbuilt)"
    else:
        params = f"{layer.count_params():,}"
    fields = [f"{layer.name} ({type(layer).__name__})", _output_shape(layer), params]
    if not sequential_like:
        fields.append(_connections(model, layer))
    if show_trainable:
        fields.append(("Y" if layer.trainable else "N") if layer.weights else "-")
    return fields


def _output_shape(layer):
    def text(shape):
        return "(" + ", ".join(str(d) for d in shape) + ")"

    if layer._inbound_nodes:
        shapes = [text(x.shape) for x in layer._inbound_nodes[-1].output_tensors]
    elif layer._build_shapes_dict:
        try:
            out = layer.compute_output_shape(layer._build_shapes_dict["input_shape"])
        except (NotImplementedError, ValueError, TypeError):
            return "?"
        from .base_layer import is_shape
        shapes = [text(out)] if is_shape(out) else [text(s) for s in out]
    else:
        return "?"
    return shapes[0] if len(shapes) == 1 else "[" + ", ".join(shapes) + "]"


def _connections(model, layer):
    relevant = [n for nodes in model._nodes_by_depth.values() for n in nodes]
    parts = []
    for node in layer._inbound_nodes:
        if node not in relevant:
            continue
        for x in node.input_tensors:
            operation, node_index, tensor_index = x._keras_history
            parts.append(f"{operation.name}[{node_index}][{tensor_index}]")
    return ", ".join(parts) or "-"


def _totals(model):
    trainable = model.trainable_weights
    non_trainable = model.non_trainable_weights
    t_count, n_count = _count(trainable), _count(non_trainable)
    t_size, n_size = _memory(trainable), _memory(non_trainable)
    optimizer = getattr(model, "optimizer", None) if getattr(model, "compiled", False) else None
    o_vars = list(optimizer.variables) if optimizer is not None and optimizer.built else None
    o_count, o_size = (_count(o_vars), _memory(o_vars)) if o_vars is not None else (0, 0)
    lines = [f" Total params: {t_count + n_count + o_count:,} "
             f"({_readable(t_size + n_size + o_size)})",
             f" Trainable params: {t_count:,} ({_readable(t_size)})",
             f" Non-trainable params: {n_count:,} ({_readable(n_size)})"]
    if o_vars is not None:  # Keras 3: a built optimizer's variables count too
        lines.append(f" Optimizer params: {o_count:,} ({_readable(o_size)})")
    return lines


def _count(weights):
    return int(sum(math.prod(tuple(w.shape)) for w in weights))


def _memory(weights):
    unique = {id(w): w for w in weights}.values()
    return sum(math.prod(tuple(w.shape)) * w.dtype.size for w in unique)


def _readable(size):
    for unit in ["B", "KB", "MB", "GB", "TB", "PB"]:
        if size / 1024 < 1:
            return f"{size:.2f} {unit}"
        size /= 1024
    return f"{size:.2f} PB"


# --- drawing the table (what `rich.table.Table(show_lines=True)` prints) ---------------------
def _column_widths(positions, line_length, count):
    """Keras's column widths, then shrunk as rich does to fit `line_length` with borders."""
    widths, current = [], 0
    for position in positions:
        width = int(position * line_length) - current
        if width < 4:
            raise ValueError("Insufficient console width to print summary.")
        widths.append(width)
        current += width
    widths = [w + 2 for w in widths]  # one space of padding on each side
    excess = sum(widths) - (line_length - (count + 1))
    if excess > 0:  # rich's ratio_reduce: take the excess evenly, rounding as it goes
        remaining, ratio_left, reduced = excess, len(widths), []
        for w in widths:
            cut = min(w, round(remaining / ratio_left))
            reduced.append(w - cut)
            remaining -= cut
            ratio_left -= 1
        widths = reduced
    return [w - 2 for w in widths]


def _wrap(text, width):
    """Greedy word wrap; a word longer than the width is cut with '…' (rich's 'ellipsis')."""
    lines, line = [], ""
    for word in text.split(" "):
        candidate = word if not line else line + " " + word
        if len(candidate) <= width:
            line = candidate
            continue
        if line:
            lines.append(line)
        line = word if len(word) <= width else word[:width - 1] + "…"
    lines.append(line)
    return lines


def _cells(fields, widths, align):
    wrapped = [_wrap(f, w) for f, w in zip(fields, widths)]
    height = max(len(c) for c in wrapped)
    lines = []
    for i in range(height):
        parts = []
        for cell, width, how in zip(wrapped, widths, align):
            text = cell[i] if i < len(cell) else ""
            text = text.rjust(width) if how == "right" else \
                text.center(width) if how == "center" else text.ljust(width)
            parts.append(" " + text + " ")
        lines.append(parts)
    return lines


def _table(header, rows, align, widths):
    def rule(left, fill, middle, right):
        return left + middle.join(fill * (w + 2) for w in widths) + right

    lines = [rule("┏", "━", "┳", "┓")]
    lines += ["┃" + "┃".join(parts) + "┃" for parts in _cells(header, widths, align)]
    lines.append(rule("┡", "━", "╇", "┩"))
    for i, row in enumerate(rows):
        if i:
            lines.append(rule("├", "─", "┼", "┤"))
        lines += ["│" + "│".join(parts) + "│" for parts in _cells(row, widths, align)]
    lines.append(rule("└", "─", "┴", "┘"))
    return lines
