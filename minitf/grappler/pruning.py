"""Pruning: drop nodes whose results nobody uses, and skip pass-through nodes.

A node is *live* if the graph returns one of its outputs or a live node uses
one; stateful nodes (variable assigns and reads, prints, random draws) and
nodes the passes do not understand are always live, and so are the graph's
inputs. One walk from the last node back to the first finds them all (no
recursion); everything else is dropped. Before that, `Identity` and
`StopGradient` (which only matter to the tape) are skipped: their users read
the input directly, unless the graph returns them.

>>> import minitf as tf
>>> @tf.function
... def f(x):
...     unused = tf.exp(x)
...     return tf.identity(x * 2.0)
>>> graph = f.get_concrete_function(tf.TensorSpec([], tf.float32)).graph
>>> pruned, report = prune(graph)
>>> report
['removed Exp(x): its result is never used']
>>> print(pruned)
graph f(x: float32[]) {
  %0 = Mul(x, 2.0)
  %1 = Identity(%0)
  return %1
}

Dead nodes appear all the time in traced training steps: a gradient path the
loss does not need, a value computed for a Python branch not taken.
In TensorFlow this is Grappler's ModelPruner (and, for Identity nodes, the
DependencyOptimizer); `disable_model_pruning` switches it off.
"""
from ..framework.graph import Const, Placeholder
from .rewrite import Rewriter, describe, is_opaque, is_stateful, operand, output_ids

PASS_THROUGH = {"Identity", "StopGradient", "Snapshot", "PreventGradient"}


def prune(graph, skip_pass_through=True):
    """(new graph, report): `graph` without dead nodes (and pass-through nodes, unless
    `skip_pass_through` is False: TF's "dependency_optimization" switch)."""
    returned = output_ids(graph)
    source = _skip_pass_through(graph, returned) if skip_pass_through else {}
    live = _live_nodes(graph, source)
    rewriter = Rewriter(graph)
    constants = []
    for node in graph.nodes:
        if id(node) in live:
            rewriter.copy(node, [rewriter.get(source.get(id(t), t)) for t in node.inputs])
        elif node.op is Const:
            constants.append(operand(node.outputs[0]))
        elif node.outputs and id(node.outputs[0]) in source:
            rewriter.note(f"skipped {describe(node)}: its users read its input directly")
        else:
            rewriter.note(f"removed {describe(node)}: its result is never used")
    if constants:
        rewriter.note(f"removed {len(constants)} unused constant(s): {', '.join(constants)}")
    return rewriter.finish()


def _skip_pass_through(graph, returned):
    """id(old tensor) -> the old tensor its users should read instead."""
    source = {}
    for node in graph.nodes:
        if node.op.name in PASS_THROUGH and len(node.inputs) == 1 and len(node.outputs) == 1 \
                and id(node.outputs[0]) not in returned and not node.attrs:
            t = node.inputs[0]
            source[id(node.outputs[0])] = source.get(id(t), t)
    return source


def _live_nodes(graph, source):
    """ids of the nodes to keep: walk backwards from outputs and effects."""
    needed = {id(source.get(id(t), t)) for t in graph.outputs}
    live = set()
    for node in reversed(graph.nodes):
        keep = (node.op is Placeholder or is_stateful(node) or is_opaque(node)
                or any(id(t) in needed for t in node.outputs))
        if keep:
            live.add(id(node))
            needed.update(id(source.get(id(t), t)) for t in node.inputs)
    return live
