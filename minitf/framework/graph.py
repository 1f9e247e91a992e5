"""A traced graph: a flat, ordered list of nodes (the idea of JAX's jaxpr).

While `tf.function` traces your Python function, every op goes through
`apply` as usual, but instead of computing, `apply` appends a `Node` here and
returns `SymbolicTensor`s: tensors that know their dtype and (maybe partial)
shape but have no value yet. Running the graph later means walking the list
in order (`minitf/framework/executor.py`).

>>> import minitf as tf
>>> @tf.function
... def f(x):
...     return x * x + 1.0
>>> print(f.get_concrete_function(tf.TensorSpec([2], tf.float32)).graph)
graph f(x: float32[2]) {
  %0 = Mul(x, x)
  %1 = AddV2(%0, 1.0)
  return %1
}

In TensorFlow the same structure is a `FuncGraph` of `Operation`s.
"""
import os
import sys

import numpy as np

from . import context, dtypes, errors
from .arg_names import traced_dtype_error
from .op import Op, check_dtypes, record
from .tensor import Tensor
from .tensor_shape import TensorShape

_PACKAGE_DIR = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))

# Nodes that are not computations: graph inputs, constants, variable access.
# Their shape rules are what `Graph` uses when it makes these nodes.
Placeholder = Op("Placeholder", None, shape=lambda: TensorShape(None))  # shape from the signature
Const = Op("Const", lambda value: value, shape=lambda value: TensorShape(np.shape(value)),
           dtype=lambda value: dtypes.from_numpy(value.dtype))
ReadVariable = Op("ReadVariableOp", lambda variable: variable._value, stateful=True,
                  shape=lambda variable: variable.shape, dtype=lambda variable: variable.dtype)


def _assign(value, variable, method):
    if method == "assign":
        new = np.array(value, dtype=variable.dtype.as_numpy_dtype)  # the variable owns a copy
    else:  # a fresh array already; the variable's old array stays valid for earlier reads
        new = variable._value + value if method == "assign_add" else variable._value - value
    variable._store(new, True)
    return new


AssignVariable = Op("AssignVariableOp", _assign, typed=(), stateful=True,
                    shape=lambda value, variable, method: variable.shape,
                    dtype=lambda value, variable, method: variable.dtype)
# TF's op names for the three kinds of assignment (the node names in a printed graph).
_ASSIGN_NAMES = {"assign": "AssignVariableOp", "assign_add": "AssignAddVariableOp",
                 "assign_sub": "AssignSubVariableOp"}


class InaccessibleTensorError(ValueError):
    """A tensor of a graph that is no longer being traced (a loop body, a branch, an
    earlier trace) was used in another graph. TF raises a class of this name (from
    `errors_impl`, not exported as `tf.errors.*`); it is a `ValueError`."""


class SymbolicTensor(Tensor):
    """A tensor inside a traced graph: dtype and shape, but no value until the graph runs."""

    __slots__ = ("_shape", "graph", "node", "index")

    def __init__(self, graph, node, index, shape, dtype):
        self.graph, self.node, self.index = graph, node, index
        self._shape = shape
        self._dtype = dtype

    @property
    def shape(self):
        return self._shape

    @property
    def name(self):
        return f"{self.node.name}:{self.index}"

    @property
    def op(self):
        return self.node

    @property
    def device(self):
        return self.node.device

    def numpy(self):
        raise AttributeError(
            f"'SymbolicTensor' object has no attribute 'numpy': {self.name} is a symbolic "
            "tensor inside tf.function, so it has no value yet. Return it from the function "
            "to see its value, or use tf.print to print it while the graph runs.")

    def __bool__(self):
        raise errors.OperatorNotAllowedInGraphError(
            "Using a symbolic `tf.Tensor` as a Python `bool` is not allowed. "
            f"{self.name} has no value until the graph runs. AutoGraph converts `if`/`while` "
            "on tensors into tf.cond/tf.while_loop; without it, use tf.cond yourself "
            "(or tf.config.run_functions_eagerly(True) to debug).")

    def __iter__(self):
        raise errors.OperatorNotAllowedInGraphError(
            "Iterating over a symbolic `tf.Tensor` is not allowed. "
            f"The length of {self.name} is only known when the graph runs: use "
            "tf.range/tf.while_loop, or a `for` loop that AutoGraph converts.")

    def __len__(self):
        raise TypeError(
            f"len is not well defined for a symbolic Tensor ({self.name}). Please call "
            "`x.shape` rather than `len(x)` for shape information.")

    def _no_value(self, *args):
        raise TypeError(f"{self.name} is a symbolic tensor inside tf.function and has no "
                        "Python value yet; keep computing with tensor ops instead.")

    __index__ = __int__ = __float__ = _no_value

    def __array__(self, dtype=None, copy=None):
        raise NotImplementedError(
            f"Cannot convert a symbolic tf.Tensor ({self.name}) to a numpy array. This error "
            "may indicate that you're trying to pass a Tensor to a NumPy call, which is not "
            "supported.")

    def __hash__(self):  # as TF: a TF1 graph's tensors are feed_dict keys; a function's are not
        if self.graph.building_function:
            raise TypeError("Tensor is unhashable. Instead, use tensor.ref() as the key.")
        return id(self)

    def __repr__(self):
        return f"<tf.Tensor '{self.name}' shape={self._shape} dtype={self._dtype.name}>"

    def __str__(self):  # TF leaves out an unknown shape
        shape = "" if self._shape.rank is None else f", shape={self._shape}"
        return f'Tensor("{self.name}"{shape}, dtype={self._dtype.name})'


class Node:
    """One step of a graph: `outputs = op(inputs, **attrs)`, traced at `source` (file:line)."""

    # `device`: the tf.device string in effect when traced ('' for none), as TF's
    # `op.device`; recorded, not enforced (framework/device.py)
    __slots__ = ("op", "inputs", "attrs", "outputs", "name", "source", "device")

    def __init__(self, op, inputs, attrs, name, source):
        self.op, self.inputs, self.attrs = op, inputs, attrs
        self.name, self.source = name, source
        self.outputs = ()
        placement = context._state.device
        self.device = placement.spec if placement is not None else ""

    @property
    def type(self):
        return self.op.name

    def __repr__(self):
        return f"<Node {self.name}: {self.op.name}>"


class Graph:
    """An ordered list of nodes with its inputs (placeholders) and outputs."""

    # True for the graphs minitf traces (functions, branches, loop bodies), like TF's
    # FuncGraph; a TF1 graph (tf.compat.v1.Graph, minitf/compat/v1) sets False.
    building_function = True

    def __init__(self, name="graph"):
        self.name = name
        self.nodes = []
        self.inputs = []
        self.outputs = []
        self.input_names = []
        self._constants = {}  # id(EagerTensor) -> its Const output
        self._captured = []  # the eager tensors behind Const nodes, kept alive (ids stay unique)
        self._names = {}
        self.captured_variables = []
        self.created_variables = []
        self.captures = []  # (tensor of an enclosing graph, this graph's placeholder for it)

    # --- building ---------------------------------------------------------------------
    def as_default(self):
        return _GraphScope(self)

    def _unique(self, name):
        count = self._names.get(name, 0)
        self._names[name] = count + 1
        return name if count == 0 else f"{name}_{count}"

    def _add(self, op, inputs, attrs, shapes, dtypes_, name=None):
        node = Node(op, list(inputs), attrs, self._unique(name or op.name), _user_source())
        node.outputs = tuple(SymbolicTensor(self, node, i, s, d)
                             for i, (s, d) in enumerate(zip(shapes, dtypes_)))
        self.nodes.append(node)
        return node

    def placeholder(self, shape, dtype, name):
        node = self._add(Placeholder, [], {}, [TensorShape(shape)], [dtype], name=name)
        self.inputs.append(node.outputs[0])
        self.input_names.append(node.name)
        return node.outputs[0]

    def constant(self, tensor):
        """An eager tensor used inside the graph becomes a Const node (captured by value)."""
        found = self._constants.get(id(tensor))
        if found is None:
            node = self._add(Const, [], {"value": tensor._value}, [tensor.shape], [tensor.dtype])
            found = self._constants[id(tensor)] = node.outputs[0]
            self._captured.append(tensor)
        return found

    def read_variable(self, variable):
        """Reading a variable inside a graph reads its *current* value each run."""
        if not any(v is variable for v in self.captured_variables):
            self.captured_variables.append(variable)
        node = self._add(ReadVariable, [], {"variable": variable}, [variable.shape],
                         [variable.dtype], name="ReadVariableOp")
        return node.outputs[0]

    def assign_variable(self, variable, value, method):
        node = self._add(AssignVariable, [self.symbolic(value)],
                         {"variable": variable, "method": method}, [variable.shape],
                         [variable.dtype], name=_ASSIGN_NAMES[method])
        return node.outputs[0]

    def symbolic(self, tensor):
        """`tensor` as a tensor of this graph (constants are captured by value)."""
        if isinstance(tensor, SymbolicTensor):
            if tensor.graph is self:
                return tensor
            if any(g is tensor.graph for g in context.graph_stack):
                return self.capture(tensor)
            raise InaccessibleTensorError(
                f"{tensor!r} is out of scope and cannot be used here. Use return values, "
                "explicit Python locals or TensorFlow collections to access it.\n"
                f"The tensor {tensor!r} cannot be accessed from graph {self.name}, because it "
                f"was defined in graph {tensor.graph.name}, which is out of scope. (A Python "
                "list filled inside a tf.range loop holds tensors of the loop body: collect "
                "them in a tf.TensorArray, or make them loop variables.)")
        return self.constant(tensor)

    def capture(self, outer):
        """A tensor of an enclosing graph used here (a branch or loop body closing over
        it) becomes an extra input of this graph, as TF's FuncGraph captures do. Through
        several levels of nesting, each graph captures from its direct parent."""
        stack = context.graph_stack
        parent = stack[[i for i, g in enumerate(stack) if g is self][0] - 1]
        if outer.graph is not parent:
            outer = parent.symbolic(outer)
        for known_outer, inner in self.captures:
            if known_outer is outer:
                return inner
        inner = self.placeholder(outer.shape, outer.dtype, name=f"capture_{outer.node.name}")
        self.captures.append((outer, inner))
        return inner

    def add_node(self, op, inputs, attrs):
        """`apply` while tracing: append a node, return its symbolic outputs."""
        inputs = [self.symbolic(t) for t in inputs]
        try:
            check_dtypes(op, inputs)
        except errors.InvalidArgumentError as exc:  # TF finds it while building: TypeError
            hint = exc.message.split("] ", 1)[1] if "] " in exc.message else ""
            raise (traced_dtype_error(op, inputs, hint) or exc) from None
        shapes = op.shape(*[t.shape for t in inputs], **attrs) if op.shape else TensorShape(None)
        shapes = shapes if isinstance(shapes, tuple) else (shapes,)
        dtypes_ = op.output_dtypes([t.dtype for t in inputs], attrs, len(shapes))
        node = self._add(op, inputs, attrs, shapes, dtypes_)
        if context.tape_stack and op.grad is not None:
            record(op, inputs, node.outputs, attrs, None)
        return node.outputs[0] if op.num_outputs == 1 else node.outputs

    # --- reading ----------------------------------------------------------------------
    def get_operations(self):
        """The nodes in the order they were added, as TF's `Graph.get_operations()`
        (each has `.name`, `.type`, `.inputs` and `.outputs`; minitf names nodes after
        their op type, where TF uses lower-case scopes such as `mul`).

        >>> import minitf as tf
        >>> graph = tf.function(lambda x: x * 2.0).get_concrete_function(
        ...     tf.TensorSpec([], tf.float32)).graph
        >>> [(op.name, op.type) for op in graph.get_operations()]
        [('x', 'Placeholder'), ('Const', 'Const'), ('Mul', 'Mul')]
        """
        return list(self.nodes)

    def as_graph_def(self):
        """The nodes as a GraphDef-like record, printed like TF's (see graph_def.py)."""
        from .graph_def import as_graph_def
        return as_graph_def(self)

    def __str__(self):
        return pretty(self)

    def to_dot(self):
        """The graph in Graphviz DOT: one box per node, one edge per tensor."""
        return to_dot(self)


class _GraphScope:
    def __init__(self, graph):
        self.graph = graph

    def __enter__(self):
        context.graph_stack.append(self.graph)
        return self.graph

    def __exit__(self, *exc):
        context.graph_stack.remove(self.graph)


def _user_source():
    """file:line of the innermost frame outside minitf (where the user wrote the op)."""
    frame = sys._getframe(2)
    while frame is not None and _in_package(frame.f_code.co_filename):
        frame = frame.f_back
    if frame is None:
        return None
    return f"{os.path.basename(frame.f_code.co_filename)}:{frame.f_lineno}"


_IN_PACKAGE = {}  # file name -> whether it is one of minitf's own files


def _in_package(filename):
    """Whether `filename` is part of minitf (asked once per file: every traced op asks)."""
    found = _IN_PACKAGE.get(filename)
    if found is None:
        found = _IN_PACKAGE[filename] = os.path.abspath(filename).startswith(_PACKAGE_DIR)
    return found


# --- printing ---------------------------------------------------------------------------
def _operand(tensor, names):
    node = tensor.node
    if node.op is Const and np.ndim(node.attrs["value"]) == 0:
        return repr(node.attrs["value"].item()) if node.attrs["value"].dtype != object else \
            repr(node.attrs["value"][()])
    return names.get(id(tensor), tensor.name)


def _simple(value):
    """Attribute values worth printing: numbers, strings, dtypes, tuples of those."""
    if isinstance(value, (bool, int, float, str)) or hasattr(value, "as_numpy_dtype"):
        return True
    return isinstance(value, tuple) and len(value) <= 8 and all(_simple(v) for v in value)


def _attr_text(node):
    if node.op is ReadVariable:
        return f"[{node.attrs['variable'].name}]"
    parts = [f"{k}={_graph_names(v) or repr(v)}" for k, v in node.attrs.items()
             if k != "value" and not k.startswith("_") and (_simple(v) or _graph_names(v))]
    return "[" + ", ".join(parts) + "]" if parts else ""


# Control flow: a node may carry sub-graphs (cond branches, a loop's body) as attributes.
# They print by name, and `pretty` prints each after the graph; attributes whose name
# starts with "_" are the control-flow ops' bookkeeping and are not printed.
def _graph_names(value):
    if isinstance(value, Graph):
        return value.name
    if isinstance(value, (list, tuple)) and value and all(isinstance(g, Graph) for g in value):
        return "[" + ", ".join(g.name for g in value) + "]"
    return None


def _subgraphs(graph):
    """The sub-graphs that the graph's nodes carry, in order of first use."""
    found = []
    for node in graph.nodes:
        for value in node.attrs.values():
            for g in (value if isinstance(value, (list, tuple)) else (value,)):
                if isinstance(g, Graph) and not any(g is f for f in found):
                    found.append(g)
    return found


def _type_text(t):
    dims = "?" if t.shape.rank is None else ",".join("?" if d is None else str(d)
                                                     for d in t.shape)
    return f"{t.dtype.name}[{dims}]"


def pretty(graph):
    """Numbered equations: `%3 = MatMul(x, %2)`; constants inline, placeholders by name."""
    names = {id(t): n for t, n in zip(graph.inputs, graph.input_names)}
    lines, counter = [], 0
    for node in graph.nodes:
        if node.op in (Placeholder,) or node.op is Const and np.ndim(node.attrs["value"]) == 0:
            continue
        if node.op is Const:
            label = f"%{counter}"
            names[id(node.outputs[0])] = label
            lines.append(f"  {label} = Const({_type_text(node.outputs[0])})")
            counter += 1
            continue
        labels = []
        for out in node.outputs:
            names[id(out)] = f"%{counter}"
            labels.append(f"%{counter}")
            counter += 1
        args = ", ".join(_operand(t, names) for t in node.inputs)
        lines.append(f"  {', '.join(labels)} = {node.op.name}{_attr_text(node)}({args})")
    params = ", ".join(f"{n}: {_type_text(t)}" for t, n in zip(graph.inputs, graph.input_names))
    returns = ", ".join(_operand(t, names) for t in graph.outputs)
    text = "\n".join([f"graph {graph.name}({params}) {{"] + lines + [f"  return {returns}", "}"])
    for sub in _subgraphs(graph):  # control flow: each sub-graph after the graph, indented
        text += "\n" + "\n".join("  " + line for line in pretty(sub).split("\n"))
    return text


def _quote(s):
    return '"' + str(s).replace('"', '\\"') + '"'


def to_dot(graph):
    """Graphviz DOT text; the sub-graphs of control-flow nodes (cond branches, a loop's
    cond and body) are drawn inside as dashed clusters, tied to their node."""
    lines = [f"digraph {_quote(graph.name)} {{", "  rankdir=TB;", "  compound=true;",
             '  node [shape=box, style="rounded,filled", fillcolor="#eef3fb", fontname="Helvetica"];']
    lines += _dot_body(graph, "", "  ")
    lines.append("}")
    return "\n".join(lines)


def _dot_body(graph, prefix, indent):
    """The nodes and edges of `graph`, node ids prefixed (unique inside clusters)."""
    def key(node):
        return _quote(prefix + node.name)

    lines = []
    for node in graph.nodes:
        if node.op is Placeholder:
            lines.append(f"{indent}{key(node)} [label={_quote(node.name)}, shape=ellipse, "
                         'fillcolor="#fff4d6"];')
        elif node.op is Const:
            lines.append(f"{indent}{key(node)} [label="
                         f"{_quote('Const ' + _type_text(node.outputs[0]))}, "
                         'shape=note, fillcolor="#f2f2f2"];')
        else:
            lines.append(f"{indent}{key(node)} [label={_quote(node.op.name + _attr_text(node))}];")
        for t in node.inputs:
            lines.append(f"{indent}{key(t.node)} -> {key(node)} "
                         f"[label={_quote(_type_text(t))}, fontsize=9];")
    for i, t in enumerate(graph.outputs):
        out = _quote(f"{prefix}output {i}")
        lines.append(f'{indent}{out} [label="output {i}", shape=ellipse, fillcolor="#dff5e1"];')
        lines.append(f"{indent}{key(t.node)} -> {out};")
    for node in graph.nodes:
        for attr, value in node.attrs.items():
            for sub in (value if isinstance(value, (list, tuple)) else (value,)):
                if isinstance(sub, Graph):
                    lines += _dot_cluster(node, attr, sub, prefix, indent)
    return lines


def _dot_cluster(node, attr, sub, prefix, indent):
    """One sub-graph as `subgraph cluster_...`, with a dashed edge from its node."""
    inner = f"{prefix}{node.name}/{sub.name}/"
    cluster = _quote(f"cluster_{inner}")
    lines = [f"{indent}subgraph {cluster} {{",
             f"{indent}  label={_quote(f'{attr}: {sub.name}')}; style=\"rounded,dashed\"; "
             'color="#7a8ca8"; fontname="Helvetica";']
    body = _dot_body(sub, inner, indent + "  ")
    if not sub.nodes and not sub.outputs:
        body = [f'{indent}  {_quote(inner + "empty")} [label="(empty)", shape=plaintext];']
    lines += body + [f"{indent}}}"]
    anchor = inner + (sub.nodes[0].name if sub.nodes else "output 0" if sub.outputs else "empty")
    lines.append(f"{indent}{_quote(prefix + node.name)} -> {_quote(anchor)} [lhead={cluster}, "
                 f"style=dashed, arrowhead=odot, label={_quote(attr)}, fontsize=9];")
    return lines


def replay(graph, inputs):
    """Run `graph` on `inputs` op by op through `apply` and return its outputs.

    Unlike the executor this makes real op calls, so active GradientTapes record
    them (a tf.function called under a tape), and inside a trace it re-emits the
    graph's ops into the graph being built (gradients of control flow use this).
    `inputs` are for `graph.inputs`, captures included, in order.
    """
    values = dict(zip(map(id, graph.inputs), inputs))
    for node in graph.nodes:
        if node.op is not Placeholder:
            outputs = replay_node(node, [values[id(t)] for t in node.inputs])
            values.update(zip(map(id, node.outputs), outputs))
    return [values[id(t)] for t in graph.outputs]


def replay_node(node, inputs, attrs=None):
    """One step of `replay`: the node's outputs from real op calls on `inputs`."""
    from .op import apply
    from .tensor import EagerTensor

    if node.op is Const:
        return (EagerTensor(node.attrs["value"]),)
    if node.op is ReadVariable:
        return (node.attrs["variable"]._read(),)
    if node.op is AssignVariable:
        variable = node.attrs["variable"]
        getattr(variable, node.attrs["method"])(inputs[0])
        return (variable._read(),)
    out = apply(node.op, inputs, node.attrs if attrs is None else attrs)
    return out if isinstance(out, tuple) else (out,)


def is_symbolic(x):
    return isinstance(x, SymbolicTensor)

