"""`tf.keras.utils.plot_model` and `model_to_dot`: a model drawn as a Graphviz graph.

Each layer becomes a box (an HTML-like table: name and class, then shapes and
dtype on request), each connection between layer calls an arrow. `model_to_dot`
returns the graph; `plot_model` also lays it out with Graphviz's `dot` program,
writes the picture to `to_file` and, when IPython is installed, returns it as a
display object, so a notebook cell ending in `plot_model(...)` shows it.

>>> tf.keras.backend.clear_session()
>>> model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(4, name="hidden"),
...                              tf.keras.layers.Dense(1, name="out")])
>>> dot = tf.keras.utils.model_to_dot(model, show_shapes=True)
>>> [node.get_name() for node in dot.get_nodes()]
['hidden', 'out']
>>> [(edge.get_source(), edge.get_destination()) for edge in dot.get_edges()]
[('hidden', 'out')]
>>> "Output shape: <b>(None, 4)</b>" in dot.to_string()
True

In TensorFlow this is `keras/src/utils/model_visualization.py`, built on the
`pydot` package; minitf writes the DOT text itself (the small `Dot` class below
has pydot's method names) and needs only the `dot` program to render it. One
difference: TF names graph nodes by `id(layer)`, minitf by layer name, so the
DOT text is the same from run to run.
"""
import os
import shutil
import subprocess
import sys

from ...framework import nest
from ...framework.tf_export import tf_export

GRAPHVIZ_MISSING = ("You must install graphviz (see instructions at "
                    "https://graphviz.gitlab.io/download/) for `plot_model` to work.")


# --- a tiny pydot: nodes, edges and clusters printed as DOT text ----------------------------
def _quote(value):
    text = str(value)
    if text.startswith("<") and text.endswith(">"):  # an HTML-like label stays as it is
        return text
    if text.isdigit() or (text.replace("_", "").isalnum() and not text[:1].isdigit()):
        return text
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _attributes(attrs):
    return ", ".join(f"{k}={_quote(v)}" for k, v in attrs.items())


class Node:
    """One box of the graph (pydot.Node)."""

    def __init__(self, name, **attrs):
        self.name, self.attrs = name, dict(attrs)

    def get_name(self):
        return self.name

    def get(self, key):
        return self.attrs.get(key)

    def to_string(self):
        return f"{_quote(self.name)} [{_attributes(self.attrs)}];"


class Edge:
    """One arrow (pydot.Edge)."""

    def __init__(self, source, destination, **attrs):
        self.source, self.destination, self.attrs = source, destination, dict(attrs)

    def get_source(self):
        return self.source

    def get_destination(self):
        return self.destination

    def to_string(self):
        return f"{_quote(self.source)} -> {_quote(self.destination)} [{_attributes(self.attrs)}];"


class Dot:
    """A directed graph of `Node`s, `Edge`s and nested clusters (pydot.Dot / pydot.Cluster)."""

    def __init__(self, graph_name="G", cluster=False, **attrs):
        self.graph_name, self.cluster, self.attrs = graph_name, cluster, dict(attrs)
        self.node_defaults = {}
        self._nodes, self._edges, self._subgraphs = [], [], []

    def get_name(self):
        return "cluster_" + self.graph_name if self.cluster else self.graph_name

    def set(self, key, value):
        self.attrs[key] = value

    def set_node_defaults(self, **attrs):
        self.node_defaults.update(attrs)

    def add_node(self, node):
        self._nodes.append(node)

    def add_edge(self, edge):
        self._edges.append(edge)

    def add_subgraph(self, subgraph):
        self._subgraphs.append(subgraph)

    def get_nodes(self):
        return list(self._nodes)

    def get_edges(self):
        return list(self._edges)

    def get_subgraphs(self):
        return list(self._subgraphs)

    def get_edge(self, source, destination):
        return [e for e in self._edges if (e.source, e.destination) == (source, destination)]

    def to_string(self):
        """The graph in the DOT language, the text Graphviz reads."""
        head = f"subgraph {_quote(self.get_name())}" if self.cluster else \
            f"digraph {_quote(self.graph_name)}"
        lines = [head + " {"]
        lines += [f"{k}={_quote(v)};" for k, v in self.attrs.items()]
        if self.node_defaults:
            lines.append(f"node [{_attributes(self.node_defaults)}];")
        lines += [node.to_string() for node in self._nodes]
        lines += [sub.to_string() for sub in self._subgraphs]
        lines += [edge.to_string() for edge in self._edges]
        return "\n".join(lines) + "\n}\n"

    __str__ = to_string

    def create(self, prog="dot", format="png"):
        """Run Graphviz's `prog` on this graph and return the picture's bytes."""
        executable = shutil.which(prog)
        if executable is None:
            raise FileNotFoundError(f'"{prog}" not found in path. ' + GRAPHVIZ_MISSING)
        result = subprocess.run([executable, f"-T{format}"], input=self.to_string().encode(),
                                capture_output=True, check=False)
        if result.returncode != 0:
            raise RuntimeError(f"{prog} failed: {result.stderr.decode(errors='replace')}")
        return result.stdout

    def write(self, path, prog="dot", format="raw"):
        """Write the DOT text (`format="raw"`) or a rendered picture to `path`."""
        data = self.to_string().encode() if format == "raw" else self.create(prog, format)
        with open(path, "wb") as f:
            f.write(data)
        return True


def check_graphviz():
    """True when Graphviz's `dot` program can be run (minitf needs no pydot)."""
    return shutil.which("dot") is not None


# --- from a model to boxes and arrows ------------------------------------------------------
def _format_shape(structure):
    if structure is None:
        return "?"
    return str(structure).replace("{", "").replace("}", "")


def _tensor_attribute(layer, which, attribute):
    try:
        tensors = getattr(layer, which)
    except (AttributeError, ValueError):
        return None
    return nest.map_structure(lambda x: getattr(x, attribute), tensors)


def _activation_name(layer):
    activation = layer.activation
    return getattr(activation, "name", None) or getattr(activation, "__name__", None) or \
        str(activation)


def make_layer_label(layer, show_layer_names, show_layer_activations, show_dtype, show_shapes,
                     show_trainable):
    """The HTML-like table Keras draws for one layer."""
    class_name = type(layer).__name__
    colspan = max(1, int(show_dtype) + int(show_trainable) + (2 if show_shapes else 0))
    title = f"<b>{layer.name}</b> ({class_name})" if show_layer_names else f"<b>{class_name}</b>"
    table = ('<<table border="0" cellborder="1" bgcolor="black" cellpadding="10">'
             f'<tr><td colspan="{colspan}" bgcolor="black">'
             f'<font point-size="16" color="white">{title}</font></td></tr>')
    if show_layer_activations and getattr(layer, "activation", None) is not None:
        table += (f'<tr><td bgcolor="white" colspan="{colspan}"><font point-size="14">'
                  f"Activation: <b>{_activation_name(layer)}</b></font></td></tr>")
    cells = []

    def cell(text):
        cells.append(f'<td bgcolor="white"><font point-size="14">{text}</font></td>')

    if show_shapes:
        if class_name != "InputLayer":
            cell(f"Input shape: <b>{_format_shape(_tensor_attribute(layer, 'input', 'shape'))}</b>")
        cell(f"Output shape: <b>{_format_shape(_tensor_attribute(layer, 'output', 'shape'))}</b>")
    if show_dtype:
        dtype = _tensor_attribute(layer, "output", "dtype")
        dtype = nest.map_structure(lambda d: getattr(d, "name", d), dtype) if dtype else None
        cell(f"Output dtype: <b>{dtype or '?'}</b>")
    if show_trainable and layer.weights:
        color, text = ("forestgreen", "Trainable") if layer.trainable else \
            ("firebrick", "Non-trainable")
        cells.append(f'<td bgcolor="{color}"><font point-size="14" color="white">'
                     f"<b>{text}</b></font></td>")
    if cells:
        table += f"<tr>{''.join(cells)}</tr>"
    return table + "</table>>"


class _NodeIds:
    """Node names: the layer's name, made unique if two layers share one."""

    def __init__(self):
        self.by_layer, self.used = {}, set()

    def __call__(self, layer):
        if id(layer) not in self.by_layer:
            name, suffix = layer.name, 1
            while name in self.used:
                name, suffix = f"{layer.name}_{suffix}", suffix + 1
            self.used.add(name)
            self.by_layer[id(layer)] = (name, layer)  # keep the layer alive: ids stay unique
        return self.by_layer[id(layer)][0]


def _add_edge(dot, source, destination):
    if not dot.get_edge(source, destination):
        dot.add_edge(Edge(source, destination, penwidth="2"))


def _is_graph_model(layer):
    from ..engine.functional import Functional
    from ..engine.sequential import Sequential
    return isinstance(layer, (Functional, Sequential))


def _outer_source(source, output_index):
    """The real layer inside (nested) models that produced output `output_index`."""
    while _is_graph_model(source):
        source, _, output_index = source.outputs[output_index]._keras_history
    return source


def _inner_destination(destination, input_index):
    """The first real layer inside (nested) models that reads input `input_index`."""
    from ..engine.functional import Functional
    while _is_graph_model(destination):
        if isinstance(destination, Functional):
            destination = destination.inputs[input_index]._keras_history.operation
        else:
            destination = destination.layers[0]
    return destination


@tf_export("keras.utils.model_to_dot")
def model_to_dot(model, show_shapes=False, show_dtype=False, show_layer_names=True,
                 rankdir="TB", expand_nested=False, dpi=200, subgraph=False,
                 show_layer_activations=False, show_trainable=False, splines="ortho",
                 _ids=None, **kwargs):
    """The model as a `Dot` graph: one node per layer, one edge per connection.

    `rankdir` is "TB" (top to bottom) or "LR" (left to right); `expand_nested`
    draws a nested Sequential or functional model as a dashed cluster of its own
    layers instead of one box; `subgraph=True` returns such a cluster. A
    subclassed model is one box: its layers are connected by Python code in
    `call`, which no graph records. Call `.to_string()` for the DOT text.

    >>> inputs = tf.keras.Input((2,), name="x")
    >>> outputs = tf.keras.layers.Dense(1, name="y")(inputs)
    >>> print(tf.keras.utils.model_to_dot(tf.keras.Model(inputs, outputs),
    ...                                   show_layer_names=False).to_string())
    digraph G {
    rankdir=TB;
    concentrate=true;
    dpi=200;
    splines=ortho;
    node [shape=record];
    x [label=<<table ...><b>InputLayer</b>...</table>>, fontname=Helvetica, border=0, margin=0];
    y [label=<<table ...><b>Dense</b>...</table>>, fontname=Helvetica, border=0, margin=0];
    x -> y [penwidth=2];
    }
    """
    from ..engine.functional import Functional
    from ..engine.sequential import Sequential
    if not model.built:
        raise ValueError("This model has not yet been built. Build the model first by calling "
                         "`build()` or by calling the model on a batch of data.")
    if kwargs.pop("layer_range", None) is not None:
        raise ValueError("Argument `layer_range` is no longer supported.")
    if kwargs:
        raise ValueError(f"Unrecognized keyword arguments: {kwargs}")
    ids = _ids or _NodeIds()
    if subgraph:
        dot = Dot(graph_name=model.name, cluster=True, style="dashed", label=model.name,
                  labeljust="l")
    else:
        dot = Dot(rankdir=rankdir, concentrate="true", dpi=dpi, splines=splines)
        dot.set_node_defaults(shape="record")
    options = dict(show_layer_names=show_layer_names, show_layer_activations=show_layer_activations,
                   show_dtype=show_dtype, show_shapes=show_shapes, show_trainable=show_trainable)

    def add_box(layer):
        dot.add_node(Node(ids(layer), label=make_layer_label(layer, **options),
                          fontname="Helvetica", border="0", margin="0"))

    if isinstance(model, Sequential):
        layers = model.layers
    elif not isinstance(model, Functional):
        add_box(model)
        return dot
    else:
        layers = model._operations
    for layer in layers:
        if expand_nested and _is_graph_model(layer):
            dot.add_subgraph(model_to_dot(layer, show_shapes, show_dtype, show_layer_names,
                                          rankdir, expand_nested, subgraph=True, _ids=ids,
                                          **{k: options[k] for k in ("show_layer_activations",
                                                                     "show_trainable")}))
        else:
            add_box(layer)
    if isinstance(model, Sequential):
        if not expand_nested:
            for before, after in zip(layers, layers[1:]):
                _add_edge(dot, ids(before), ids(after))
            return dot
        layers = layers[1:]  # the first layer's arrow comes from outside this model
    in_model = None
    if isinstance(model, Functional):
        in_model = {id(n) for nodes in model._nodes_by_depth.values() for n in nodes}
    for layer in layers:
        for node in layer._inbound_nodes:
            if in_model is not None and id(node) not in in_model:
                continue
            for input_index, tensor in enumerate(node.input_tensors):
                operation, _, output_index = tensor._keras_history
                source, destination = operation, layer
                if expand_nested:
                    source = _outer_source(source, output_index)
                    destination = _inner_destination(destination, input_index)
                _add_edge(dot, ids(source), ids(destination))
    return dot


def _in_notebook():
    return "IPython.core.magics.namespace" in sys.modules


@tf_export("keras.utils.plot_model")
def plot_model(model, to_file="model.png", show_shapes=False, show_dtype=False,
               show_layer_names=False, rankdir="TB", expand_nested=False, dpi=200,
               show_layer_activations=False, show_trainable=False, splines="ortho", **kwargs):
    """Draw the model with Graphviz into `to_file` (its extension picks the format).

    Returns `IPython.display.Image` (or `SVG` for a `.svg` file) so that a
    notebook shows the picture; None for a PDF, for a format a notebook cannot
    show inline, or without IPython. Without
    Graphviz's `dot` program this raises TF's `ImportError` - or, inside IPython,
    prints the message and returns None so a notebook still runs. (Keras 3's
    default is `show_layer_names=False`; classic tf.keras drew names by default.)

    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "model.svg")
    >>> model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(1)])
    >>> _ = tf.keras.utils.plot_model(model, to_file=path, show_shapes=True)
    >>> open(path).read().lstrip().startswith("<?xml")
    True
    """
    if not model.built:
        raise ValueError("This model has not yet been built. Build the model first by calling "
                         "`build()` or by calling the model on a batch of data.")
    if not check_graphviz():
        if _in_notebook():  # like TF: a notebook without Graphviz keeps running
            print(GRAPHVIZ_MISSING)
            return None
        raise ImportError(GRAPHVIZ_MISSING)
    if kwargs.pop("layer_range", None) is not None:
        raise ValueError("Argument `layer_range` is no longer supported.")
    if kwargs:
        raise ValueError(f"Unrecognized keyword arguments: {kwargs}")
    dot = model_to_dot(model, show_shapes=show_shapes, show_dtype=show_dtype,
                       show_layer_names=show_layer_names, rankdir=rankdir,
                       expand_nested=expand_nested, dpi=dpi,
                       show_layer_activations=show_layer_activations,
                       show_trainable=show_trainable, splines=splines)
    to_file = str(to_file)
    extension = os.path.splitext(to_file)[1][1:] or "png"
    dot.write(to_file, format=extension)
    if extension not in ("png", "jpg", "jpeg", "gif", "svg"):
        return None  # a PDF (or DOT text, PostScript, ...) has no inline display
    try:
        from IPython import display
    except ImportError:
        return None
    if extension == "svg":
        return display.SVG(filename=to_file)
    return display.Image(filename=to_file, format=extension)
