"""`graph.as_graph_def()`: a graph as a list of node records, printed like TF's GraphDef.

TensorFlow serializes a graph as a `GraphDef` protocol buffer: one `NodeDef` per
operation with its name, op type, input names ("node" or "node:1" for a second
output) and attributes. This is minitf's own plain-Python structure with the same
fields; `print` shows it in the shape of TF's protobuf text format. It is for reading,
not for loading into TensorFlow (minitf's node names follow its op types, and
attributes that hold Python objects print as their type name):

>>> import minitf as tf
>>> f = tf.function(lambda x: x * 2.0)
>>> graph_def = f.get_concrete_function(tf.TensorSpec([None], tf.float32)).graph.as_graph_def()
>>> [(n.name, n.op, n.input) for n in graph_def.node]
[('x', 'Placeholder', []), ('Const', 'Const', []), ('Mul', 'Mul', ['x', 'Const'])]
>>> print(graph_def.node[2], end="")
name: "Mul"
op: "Mul"
input: "x"
input: "Const"
attr {
  key: "T"
  value {
    type: DT_FLOAT
  }
}
"""
import numpy as np

from . import dtypes
from .tensor_shape import TensorShape


class NodeDef:
    """One operation: `name`, `op` (its type), `input` (names) and `attr` (a dict)."""

    def __init__(self, name, op, inputs, attr):
        self.name, self.op, self.input, self.attr = name, op, list(inputs), dict(attr)

    def __repr__(self):
        return f"<NodeDef {self.name}: {self.op}>"

    def __str__(self):  # the fields, as protobuf prints a message
        return "".join(line + "\n" for line in _node_lines(self))


class GraphDef:
    """The nodes of a graph in the order they were added (`graph_def.node`)."""

    def __init__(self, nodes):
        self.node = list(nodes)

    def __repr__(self):
        return f"<GraphDef with {len(self.node)} nodes>"

    def __str__(self):
        lines = []
        for n in self.node:
            lines += ["node {"] + ["  " + line for line in _node_lines(n)] + ["}"]
        return "".join(line + "\n" for line in lines)


def as_graph_def(graph):
    """The GraphDef of a minitf Graph."""
    from .graph import Const, Placeholder
    nodes = []
    for node in graph.nodes:
        inputs = [t.node.name if t.index == 0 else f"{t.node.name}:{t.index}"
                  for t in node.inputs]
        if node.op is Placeholder:
            out = node.outputs[0]
            attr = {"shape": out.shape, "dtype": out.dtype}
        elif node.op is Const:
            attr = {"value": np.asarray(node.attrs["value"]), "dtype": node.outputs[0].dtype}
        else:
            attr = {}
            if node.inputs:
                attr["T"] = node.inputs[0].dtype
            attr.update((k, v) for k, v in node.attrs.items() if not k.startswith("_"))
        nodes.append(NodeDef(node.name, node.op.name, inputs, attr))
    return GraphDef(nodes)


def _node_lines(node):
    lines = [f'name: "{node.name}"', f'op: "{node.op}"']
    lines += [f'input: "{name}"' for name in node.input]
    for key, value in node.attr.items():
        lines += ["attr {", f'  key: "{key}"', "  value {"]
        lines += ["    " + line for line in _value_lines(value)]
        lines += ["  }", "}"]
    return lines


def _value_lines(value):
    if isinstance(value, dtypes.DType):
        return [f"type: {_dt(value)}"]
    if isinstance(value, TensorShape):
        return ["shape {"] + _shape_lines(value) + ["}"]
    if isinstance(value, np.ndarray):
        return ["tensor {"] + ["  " + line for line in _tensor_lines(value)] + ["}"]
    if isinstance(value, (bool, np.bool_)):
        return [f"b: {str(bool(value)).lower()}"]
    if isinstance(value, (int, np.integer)):
        return [f"i: {int(value)}"]
    if isinstance(value, (float, np.floating)):
        return [f"f: {float(value)!r}"]
    if isinstance(value, (str, bytes)):
        text = value.decode("utf-8", "replace") if isinstance(value, bytes) else value
        return [f"s: {_quoted(text)}"]
    if isinstance(value, (list, tuple)) and all(
            isinstance(v, (int, np.integer)) and not isinstance(v, bool) for v in value):
        return ["list {"] + [f"  i: {int(v)}" for v in value] + ["}"]
    return [f"s: {_quoted(type(value).__name__)}"]  # a Python object (function, variable)


def _shape_lines(shape):
    if shape.rank is None:
        return ["  unknown_rank: true"]
    lines = []
    for d in shape.dims:
        lines += ["  dim {", f"    size: {-1 if d is None else d}", "  }"]
    return lines


def _tensor_lines(array):
    dtype = dtypes.as_dtype(array.dtype) if array.dtype != object else dtypes.string
    lines = [f"dtype: {_dt(dtype)}", "tensor_shape {"]
    for d in array.shape:
        lines += ["  dim {", f"    size: {d}", "  }"]
    lines.append("}")
    field = _VAL_FIELDS.get(array.dtype.kind, "string_val")
    for v in array.reshape(-1)[:_MAX_VALUES]:
        lines.append(f"{field}: {_scalar(v, field)}")
    return lines


_MAX_VALUES = 10  # elements of a constant that are printed (TF packs big ones in bytes)
_VAL_FIELDS = {"f": "float_val", "i": "int_val", "u": "int_val", "b": "bool_val",
               "c": "scomplex_val"}


def _scalar(v, field):
    if field == "float_val":
        return f"{float(v):g}"
    if field == "bool_val":
        return str(bool(v)).lower()
    if field == "int_val":
        return str(int(v))
    if field == "scomplex_val":
        return f"{v.real:g} {field}: {v.imag:g}"
    return _quoted(v.decode("utf-8", "replace") if isinstance(v, bytes) else str(v))


def _quoted(text):
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def _dt(dtype):
    names = {"float32": "FLOAT", "float64": "DOUBLE", "float16": "HALF"}
    return "DT_" + names.get(dtype.name, dtype.name.upper())
