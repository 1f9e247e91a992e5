"""What every pass shares: building a new `Graph` from an old one, node by node.

A pass never edits the graph it is given (the traced graph must keep printing
what the user wrote). It walks the old node list in order and, for each node,
either keeps it, replaces it (by a constant, by one of its inputs, by a fused
node), or drops it. A `Rewriter` remembers which new tensor stands for each
old tensor, so later nodes are wired to the replacements. A node that keeps
its inputs and attributes is not copied: nodes are never edited, so the new
graph can share it with the old one (as a persistent data structure does),
and a pass that changes little costs little. Only a node whose inputs were
replaced is copied:

>>> import minitf as tf
>>> f = tf.function(lambda x: x * 2.0)
>>> old = f.get_concrete_function(tf.TensorSpec([], tf.float32)).graph
>>> rewriter = Rewriter(old)
>>> for node in old.nodes:
...     _ = rewriter.copy(node)
>>> new, lines = rewriter.finish()
>>> print(new)
graph <lambda>(x: float32[]) {
  %0 = Mul(x, 2.0)
  return %0
}
>>> new is old, new.nodes[-1] is old.nodes[-1]     # a new graph, sharing the same nodes
(False, True)
>>> rewriter = Rewriter(old)
>>> x, two, mul = old.nodes
>>> _ = rewriter.copy(x)
>>> rewriter.alias(two.outputs[0], rewriter.constant(np.float32(3.0), tf.float32))
>>> rewriter.copy(mul) is mul       # an input was replaced: a new Mul, wired to 3.0
False
>>> print(rewriter.finish()[0])
graph <lambda>(x: float32[]) {
  %0 = Mul(x, 3.0)
  return %0
}

The helpers below also answer the questions every pass asks: may this node be
touched at all (`is_stateful`, `is_opaque`), who uses a tensor (`consumers`),
is a tensor a known constant (`constant_value`).

Every step is linear in the size of the graph: passes look nodes up in dicts
keyed by `id`, never by scanning lists, and `WORK` counts what they do
(graphs built, nodes copied or shared, nodes visited by analyses), so a test
can check that twice the graph costs twice the work, not four times.
"""
import collections
import operator
import weakref

import numpy as np

from ..framework.graph import Const, Graph, Node, Placeholder, SymbolicTensor
from ..framework.tensor_shape import TensorShape

# Ops that draw random numbers or act on the world. `Op.stateful` says so for
# most; the names and attribute keys here also catch ops declared without it.
_STATEFUL_NAMES = {"PrintV2", "AssignVariableOp", "AssignAddVariableOp",
                   "AssignSubVariableOp", "ReadVariableOp", "TruncatedNormal", "Multinomial"}
_STATEFUL_ATTRS = {"seed", "seed2", "kernel", "variable"}


def is_stateful(node):
    """The node's result may change between runs or it has effects: keep it, in order."""
    op = node.op
    return (op.stateful or op.name in _STATEFUL_NAMES or op.name.startswith("Random")
            or any(key in _STATEFUL_ATTRS for key in node.attrs))


def is_opaque(node):
    """A node no pass understands: control flow with subgraphs, Python callables in
    attributes, ops without a NumPy forward. Passes keep it exactly as it is."""
    if node.op.forward is None:
        return True
    for value in node.attrs.values():
        items = value if isinstance(value, (list, tuple)) else (value,)
        if any(isinstance(v, Graph) or callable(v) and not isinstance(v, type) for v in items):
            return True
    return False


def is_pure(node):
    """Safe to fold, merge, move or drop: a computation of its inputs only."""
    return node.op is not Placeholder and not is_stateful(node) and not is_opaque(node)


# What the passes did, for tests and benchmarks: "graphs" built, nodes "copied" and
# "shared", nodes "visited" by analyses (consumer maps, fusion groups, live nodes).
WORK = collections.Counter()

_CONSUMERS = weakref.WeakKeyDictionary()  # graph -> (its node count, its consumer map)


def consumers(graph):
    """id(tensor) -> the nodes that use it (a node using it twice is listed twice).

    Made once per graph and shared by the passes that ask (read it, do not change it)."""
    cached = _CONSUMERS.get(graph)
    if cached is not None and cached[0] == len(graph.nodes):
        return cached[1]
    users = {}
    for node in graph.nodes:
        for t in node.inputs:
            users.setdefault(id(t), []).append(node)
    WORK["visited"] += len(graph.nodes)
    _CONSUMERS[graph] = (len(graph.nodes), users)
    return users


def output_ids(graph):
    """ids of the tensors the graph returns."""
    return {id(t) for t in graph.outputs}


def constant_value(tensor):
    """The NumPy value of a tensor made by a Const node, else None."""
    node = tensor.node
    return node.attrs["value"] if node.op is Const else None


def describe(node, inputs=None):
    """`Mul(x, 2.0)`: a node as one line of a report (scalar constants inline)."""
    if node.op is Const:
        return f"Const {operand(node.outputs[0])}"
    inputs = node.inputs if inputs is None else inputs
    return f"{node.op.name}({', '.join(operand(t) for t in inputs)})"


def operand(tensor):
    value = constant_value(tensor)
    if value is not None and np.ndim(value) == 0:
        return repr(value.item()) if value.dtype != object else repr(value[()])
    if value is not None:
        return f"Const[{','.join(str(d) for d in np.shape(value))}]"
    return tensor.node.name if len(tensor.node.outputs) == 1 else tensor.name


def broadcasts_into(small, big):
    """Provably, broadcasting `small` against `big` gives `big`'s shape (unknown
    dimensions of `big` only accept size-1 dimensions of `small`)."""
    if small.rank is None or big.rank is None or small.rank > big.rank:
        return False
    for s, b in zip(reversed(small.dims), reversed(big.dims)):
        if s != 1 and (s is None or b is None or s != b):
            return False
    return True


class Rewriter:
    """Builds a new graph from `old`, node by node, and collects report lines."""

    def __init__(self, old):
        self.old = old
        new = type(old).__new__(type(old))
        new.__dict__.update(old.__dict__)  # name, variables, anything a helper added
        new.nodes, new.inputs, new.outputs, new.captures = [], [], [], []
        new.input_names = list(old.input_names)
        new._names = dict(old._names)
        new._constants = {}
        new._captured = list(old._captured)
        new.captured_variables = list(old.captured_variables)
        new.created_variables = list(old.created_variables)
        self.new = new
        self.map = {}  # id(old tensor) -> new tensor
        self.lines = []
        WORK["graphs"] += 1

    # --- wiring -------------------------------------------------------------------------
    def get(self, tensor):
        """The new tensor that stands for an old one."""
        return self.map[id(tensor)]

    def inputs_of(self, node):
        return [self.map[id(t)] for t in node.inputs]

    def alias(self, old_tensor, new_tensor):
        """From now on `old_tensor` is `new_tensor` (a node replaced by one of its inputs)."""
        self.map[id(old_tensor)] = new_tensor

    def note(self, line):
        self.lines.append(line)

    # --- adding nodes -------------------------------------------------------------------
    def add(self, op, inputs, attrs, outputs, name, source=None):
        """A node of the new graph; `outputs` lists (shape, dtype) pairs."""
        node = Node(op, list(inputs), attrs, name, source)
        node.outputs = tuple(SymbolicTensor(self.new, node, i, _shape(shape), dtype)
                             for i, (shape, dtype) in enumerate(outputs))
        self.new.nodes.append(node)
        WORK["copied"] += 1
        return node

    def copy(self, node, inputs=None, attrs=None):
        """`node` in the new graph (same op, name, source, device), wired to the new
        tensors: the old node itself when its inputs and attributes stay the same."""
        inputs = self.inputs_of(node) if inputs is None else inputs
        if attrs is None and len(inputs) == len(node.inputs) \
                and all(map(operator.is_, inputs, node.inputs)):
            self.new.nodes.append(node)  # shared: nothing about it changes
            for t in node.outputs:
                self.map[id(t)] = t
            WORK["shared"] += 1
            return node
        new = self.add(node.op, inputs, dict(node.attrs) if attrs is None else attrs,
                       [(t.shape, t.dtype) for t in node.outputs], node.name, node.source)
        new.device = node.device
        for old_t, new_t in zip(node.outputs, new.outputs):
            self.map[id(old_t)] = new_t
        return new

    def constant(self, value, dtype, name=None, source=None):
        """A Const node holding the NumPy `value`; returns its tensor."""
        value = np.asarray(value)
        node = self.add(Const, [], {"value": value}, [(value.shape, dtype)],
                        self.new._unique(name or "Const"), source)
        return node.outputs[0]

    def fresh_name(self, name):
        return self.new._unique(name)

    # --- done ---------------------------------------------------------------------------
    def finish(self):
        """(new graph, report lines): inputs, outputs and captures mapped to the new tensors."""
        old, new = self.old, self.new
        new.inputs = [self.map[id(t)] for t in old.inputs]
        new.outputs = [self.map[id(t)] for t in old.outputs]
        new.captures = [(outer, self.map[id(inner)]) for outer, inner in old.captures]
        new._constants = {key: self.map[id(t)] for key, t in old._constants.items()
                          if id(t) in self.map}
        return new, self.lines


def _shape(shape):
    return shape if type(shape) is TensorShape else TensorShape(shape)


def count_nodes(graph):
    """Nodes that compute something (placeholders and constants left out)."""
    return sum(1 for n in graph.nodes if n.op is not Placeholder and n.op is not Const)
