"""Common-subexpression elimination: compute each distinct expression once.

Two pure nodes with the same op, the same attributes and the same inputs give
the same result, so the later one is dropped and its users read the earlier
one. Walking in order, each node is looked up in a table keyed by
`(op, inputs, attributes)`; inputs are already deduplicated, so whole
repeated subtrees collapse one node at a time. Equal constants merge too, and
for commutative ops (`AddV2`, `Mul`, ...) `a + b` and `b + a` are the same key.

>>> import minitf as tf
>>> @tf.function
... def f(x, y):
...     return tf.exp(x + y) + tf.exp(y + x)
>>> graph = f.get_concrete_function(tf.TensorSpec([], tf.float32),
...                                 tf.TensorSpec([], tf.float32)).graph
>>> merged, report = eliminate_common_subexpressions(graph)
>>> report
['merged AddV2_1 into AddV2: both are AddV2(y, x)', 'merged Exp_1 into Exp: both are Exp(AddV2)']
>>> print(merged)
graph f(x: float32[], y: float32[]) {
  %0 = AddV2(x, y)
  %1 = Exp(%0)
  %2 = AddV2(%1, %1)
  return %2
}

Random draws are never merged: two `tf.random.normal` calls must differ.
In TensorFlow this is the "common_subgraph_elimination" step of Grappler's
ArithmeticOptimizer (its RewriterConfig has a switch of the same name).
"""
import numpy as np

from ..framework.dtypes import DType
from ..framework.tensor_shape import TensorShape
from .rewrite import Rewriter, describe, is_pure

COMMUTATIVE = {"AddV2", "Mul", "Equal", "NotEqual", "LogicalAnd", "LogicalOr",
               "BitwiseAnd", "BitwiseOr", "BitwiseXor"}


def eliminate_common_subexpressions(graph):
    """(new graph, report): `graph` with duplicate pure computations merged."""
    rewriter = Rewriter(graph)
    seen = {}  # key -> the node of the new graph that computes it
    for node in graph.nodes:
        inputs = rewriter.inputs_of(node)
        key = _key(node, inputs) if is_pure(node) else None
        twin = seen.get(key) if key is not None else None
        if twin is None:
            new = rewriter.copy(node, inputs)
            if key is not None:
                seen[key] = new
            continue
        for old, new in zip(node.outputs, twin.outputs):
            rewriter.alias(old, new)
        rewriter.note(f"merged {node.name} into {twin.name}: both are {describe(node, inputs)}")
    return rewriter.finish()


def _key(node, inputs):
    """A hashable description of what the node computes, or None if there is none."""
    ids = [id(t) for t in inputs]
    if node.op.name in COMMUTATIVE:
        ids.sort()
    try:
        key = (id(node.op), tuple(ids), _freeze(node.attrs),
               tuple(t.dtype.name for t in node.outputs))
        hash(key)
    except TypeError:
        return None
    return key


def _freeze(value):
    """Attribute values as hashable, type-tagged tuples (so 1, 1.0 and True differ)."""
    if isinstance(value, dict):
        return tuple(sorted((k, _freeze(v)) for k, v in value.items()))
    if isinstance(value, (list, tuple)):
        return (type(value).__name__,) + tuple(_freeze(v) for v in value)
    if isinstance(value, np.ndarray):
        data = tuple(value.ravel().tolist()) if value.dtype == object else value.tobytes()
        return ("array", value.dtype.str, value.shape, data)
    if isinstance(value, TensorShape):
        return ("shape", None if value.rank is None else tuple(value.dims))
    if isinstance(value, DType):
        return ("dtype", value.name)
    return (type(value).__name__, value)
