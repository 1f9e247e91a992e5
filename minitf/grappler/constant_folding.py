"""Constant folding: compute, once, every node whose inputs are all constants.

If every input of a pure node is a `Const`, its result is the same on every
run, so the pass runs the node's NumPy forward now and puts a `Const` in its
place. Chains fold one after another in a single walk, because each folded
node is a constant for the nodes after it. `ZerosLike`/`OnesLike` of a tensor
whose shape is fully known fold too: their value depends only on the shape.

>>> import minitf as tf
>>> @tf.function
... def f(x):
...     return x * (tf.constant(2.0) * 3.0)
>>> graph = f.get_concrete_function(tf.TensorSpec([2], tf.float32)).graph
>>> folded, report = fold_constants(graph)
>>> report
['folded Mul(2.0, 3.0) -> Const 6.0']
>>> print(folded)
graph f(x: float32[2]) {
  %0 = Mul(x, 6.0)
  return %0
}

Random ops, variable reads and prints are never folded (`is_stateful`), and
neither is a node whose forward fails: its error must still happen when the
graph runs. Like TensorFlow (`kMaxConstantSize`), results over 10 MiB stay
computed at run time, so a folded graph does not balloon.
In TensorFlow this is Grappler's ConstantFolding optimizer.
"""
import numpy as np

from ..framework.graph import Const
from .rewrite import Rewriter, constant_value, describe, is_pure, operand

MAX_CONSTANT_BYTES = 10 * 1024 * 1024


def fold_constants(graph):
    """(new graph, report): `graph` with constant subexpressions computed ahead of time."""
    rewriter = Rewriter(graph)
    for node in graph.nodes:
        inputs = rewriter.inputs_of(node)
        values = _fold(node, inputs) if node.op is not Const and is_pure(node) else None
        if values is None:
            rewriter.copy(node, inputs)
            continue
        outs = []
        for i, (old, value) in enumerate(zip(node.outputs, values)):
            name = node.name if len(values) == 1 else rewriter.fresh_name(f"{node.name}_{i}")
            new = rewriter.constant(value, old.dtype, name, node.source)
            rewriter.alias(old, new)
            outs.append(operand(new))
        rewriter.note(f"folded {describe(node, inputs)} -> Const {', '.join(outs)}")
    return rewriter.finish()


def _fold(node, inputs):
    """The node's output values if it can be computed now, else None."""
    arrays = [constant_value(t) for t in inputs]
    if node.op.name in ("ZerosLike", "OnesLike") and inputs[0].shape.is_fully_defined() \
            and inputs[0].dtype.as_numpy_dtype is not object:
        fill = np.zeros if node.op.name == "ZerosLike" else np.ones
        shape = tuple(inputs[0].shape.dims)
        return [fill(shape, dtype=node.outputs[0].dtype.as_numpy_dtype)]
    if any(a is None for a in arrays):
        return None
    try:
        with np.errstate(all="ignore"):
            result = node.op.forward(*arrays, **node.attrs)
    except Exception:  # noqa: BLE001 - the error belongs to run time, unoptimized
        return None
    if node.op.saves:
        result = result[0]
    results = result if isinstance(result, (tuple, list)) and node.op.num_outputs != 1 \
        else (result,)
    # A copy, so a folded view never shares memory with another constant.
    values = [np.array(r, copy=True) for r in results]
    if len(values) != len(node.outputs) or sum(v.nbytes for v in values) > MAX_CONSTANT_BYTES:
        return None
    return values
