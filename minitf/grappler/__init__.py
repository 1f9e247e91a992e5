"""Graph optimizations: TensorFlow's Grappler in miniature.

Before a `tf.function`'s graph runs for the first time, a pipeline of small
passes rewrites it into a cheaper graph that computes the same numbers. Each
pass is a pure function `Graph -> (new Graph, report lines)` in a file of its
own, so you can read and run them one at a time (the new graph shares the
nodes a pass leaves alone, so each pass costs time linear in the graph's size:
see rewrite.py):

    pruning.py               drop results nobody uses, skip Identity nodes
    common_subexpression.py  compute each repeated expression once
    constant_folding.py      compute constant subexpressions ahead of time
    arithmetic.py            x * 1 -> x, x * 0 -> 0, double transpose -> x, ...
    remapper.py              MatMul + bias + Relu -> one _FusedMatMul node
    fusion.py                a chain of element-wise ops -> one fused node

The first four run in rounds until a round changes nothing (each can expose
work for the others: folding makes zeros, `x * 0` makes more constants);
then remapping and fusion. The branch and loop-body graphs of `tf.cond` and
`tf.while_loop` nodes are optimized the same way (the control-flow node itself
is left as it is). The traced graph itself is never changed:

>>> import minitf as tf
>>> @tf.function
... def f(x):
...     scale = tf.constant(2.0) * 0.5
...     return tf.nn.relu(x * scale + 1.0)
>>> concrete = f.get_concrete_function(tf.TensorSpec([3], tf.float32))
>>> graph, report = tf.grappler.optimize(concrete.graph)
>>> print(report)
constant_folding: folded Mul(2.0, 0.5) -> Const 1.0
arithmetic_optimization: simplified Mul(x, 1.0) -> x
pruning: removed 3 unused constant(s): 2.0, 0.5, 1.0
elementwise_fusion: fused 2 nodes: AddV2 -> Relu
>>> print(graph)
graph f(x: float32[3]) {
  %0 = _FusedElementwise[fused_ops=('AddV2', 'Relu')](x, 1.0)
  return %0
}
>>> f(tf.constant([-3.0, 0.0, 1.0])).numpy()       # runs the optimized graph
array([0., 1., 2.], dtype=float32)

`tf.grappler.optimize` is a minitf extra (TensorFlow keeps its optimized
graphs inside the runtime); the switches are TF's
`tf.config.optimizer.set_experimental_options` (see config.py).
"""
from ..framework.function import Function
from ..framework.graph import Graph
from .arithmetic import simplify_arithmetic
from .common_subexpression import eliminate_common_subexpressions
from .config import enabled_passes, get_experimental_options, is_enabled, set_experimental_options
from .constant_folding import fold_constants
from .fusion import fuse_elementwise
from .pruning import prune
from .remapper import remap
from .rewrite import Rewriter

MAX_ROUNDS = 4

__all__ = [
    "Report",
    "eliminate_common_subexpressions",
    "fold_constants",
    "fuse_elementwise",
    "get_experimental_options",
    "optimize",
    "prune",
    "remap",
    "set_experimental_options",
    "simplify_arithmetic",
]


class Report(list):
    """What the pipeline changed: lines "pass: change". `steps` keeps, for each pass that
    changed something, `(pass name, graph after it, its lines)` - a before/after film."""

    def __init__(self):
        super().__init__()
        self.steps = []

    def add(self, name, graph, lines):
        if lines:
            self.steps.append((name, graph, list(lines)))
            self.extend(f"{name}: {line}" for line in lines)

    def __str__(self):
        return "\n".join(self) if self else "(no changes)"


def _run(name, options):
    """The pass function for an option key, with its settings."""
    if name == "pruning":
        skip = is_enabled("dependency_optimization", options)
        return lambda graph: prune(graph, skip_pass_through=skip)
    return {"common_subgraph_elimination": eliminate_common_subexpressions,
            "constant_folding": fold_constants, "arithmetic_optimization": simplify_arithmetic,
            "remapping": remap, "elementwise_fusion": fuse_elementwise}[name]


def optimize(graph, options=None):
    """(optimized graph, Report): run the enabled passes over `graph` (left unchanged).

    options: a dict of `tf.config.optimizer` keys; by default the current settings.
    """
    options = get_experimental_options() if options is None else dict(options)
    report = Report()
    limit = options.get("min_graph_nodes") or 0
    if limit > 0 and len(graph.nodes) < limit:
        return graph, report
    passes = enabled_passes(options)
    if passes:
        graph = _optimize_subgraphs(graph, options, report)
    rounds = [p for p in passes if p not in ("remapping", "elementwise_fusion")]
    for _ in range(MAX_ROUNDS):
        changed = False
        for name in rounds:
            graph, lines = _step(name, options, graph, report)
            changed = changed or bool(lines)
        if not changed:
            break
    remapped = False
    for name in passes:
        if name in ("remapping", "elementwise_fusion"):
            graph, lines = _step(name, options, graph, report)
            remapped = remapped or name == "remapping" and bool(lines)
    if remapped and "constant_folding" in passes:  # remapping can expose constant work
        graph, lines = _step("constant_folding", options, graph, report)  # (the window
        if lines and "pruning" in passes:           # matrix of a constant image)
            graph, _ = _step("pruning", options, graph, report)
    return graph, report


def _optimize_subgraphs(graph, options, report):
    """Optimize the branch and loop-body graphs of control-flow nodes (their attributes),
    as TF's meta optimizer does with a graph's function library. The control-flow node
    itself stays opaque to the passes; it only gets the optimized sub-graphs."""
    rewriter = Rewriter(graph)
    for node in graph.nodes:
        attrs = {key: _optimized_attr(value, options, report) for key, value in node.attrs.items()}
        changed = any(attrs[key] is not value for key, value in node.attrs.items())
        rewriter.copy(node, attrs=attrs if changed else None)
        if changed:
            rewriter.note(f"optimized the sub-graphs of {node.name}")
    new, lines = rewriter.finish()
    report.add("subgraphs", new, lines)
    return new if lines else graph


def _optimized_attr(value, options, report):
    if isinstance(value, Graph):
        new, sub = optimize(value, options)
        report.extend(f"{value.name}: {line}" for line in sub)
        return new
    if isinstance(value, (list, tuple)) and any(isinstance(v, Graph) for v in value):
        new = [_optimized_attr(v, options, report) for v in value]
        return value if all(a is b for a, b in zip(new, value)) else type(value)(new)
    return value


def _step(name, options, graph, report):
    """Run one pass; a pass that changed nothing leaves the graph as it was."""
    new, lines = _run(name, options)(graph)
    report.add(name, new, lines)
    return (new if lines else graph), lines


def _optimize_for_function(graph):
    """`Function.optimizer`: what a concrete function runs instead of its traced graph."""
    return optimize(graph)[0]


Function.optimizer = _optimize_for_function
