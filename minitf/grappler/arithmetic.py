"""Arithmetic simplification: rewrite expressions into cheaper equal ones.

Each rule replaces one node, looking only at the node and its inputs:

    x * 1, 1 * x, x / 1, x + 0, 0 + x, x - 0   ->  x
    0 - y                                      ->  Neg(y)
    x * 0, 0 * x, MatMul with a zero matrix    ->  zeros, for integers and bools
    x + Neg(y) -> x - y        x - Neg(y) -> x + y
    Neg(Neg(x)), Conj(Conj(x)), LogicalNot(LogicalNot(x))  ->  x
    Transpose(Transpose(x))    ->  x, or one Transpose with the composed perm
    Reshape(Reshape(x))        ->  one Reshape;  Reshape(x) to x's own shape -> x
    Cast(x) to x's own dtype   ->  x
    op(BroadcastTo(a), y)      ->  op(a, y), for a broadcasting element-wise op and y of
                                   the output's shape (no materialized copy of a)
    ReluGrad(BroadcastTo(a), y) -> Mul(a, Cast(Greater(y, 0)))   (the same, for ReluGrad)

A rule applies only when the result keeps the node's shape and dtype: `x * 1`
is not `x` when the ones broadcast `x` to a bigger shape, and `x * 0` becomes a
constant only when the output shape is fully known.

>>> import minitf as tf
>>> @tf.function
... def f(x):
...     return tf.transpose(tf.transpose(x)) * 1.0 + 0.0
>>> graph = f.get_concrete_function(tf.TensorSpec([2, 3], tf.float32)).graph
>>> simple, report = simplify_arithmetic(graph)
>>> report
['simplified Transpose(Transpose) -> x', 'simplified Mul(x, 1.0) -> x', \
'simplified AddV2(x, 0.0) -> x']
>>> from minitf.grappler.pruning import prune
>>> print(prune(simple)[0])     # the first Transpose is now unused
graph f(x: float32[2,3]) {
  return x
}

For floats `x * 0` stays: it is nan where x is inf or nan, and TensorFlow
2.21 keeps it too (checked: `x * tf.zeros([3])` gives nan for a nan x). So do
`x - x` and `x / x`. The sign of a zero may change (`-0.0 + 0` gives `-0.0`
once simplified), exactly as in TensorFlow.
In TensorFlow these rules live in Grappler's ArithmeticOptimizer (involutions,
transposes, reshapes, casts, negations) and ConstantFolding (the ones and
zeros identities); minitf keeps them together here.
"""
import numpy as np

from ..framework import dtypes
from ..framework.graph import Const
from ..ops.array_ops import Reshape, Transpose
from ..ops.math_ops import AddV2, Cast, Greater, Mul, Neg, Sub
from .elementwise import ELEMENTWISE
from .rewrite import Rewriter, broadcasts_into, constant_value, describe, is_pure, operand

INVOLUTIONS = {"Neg", "Conj", "LogicalNot"}
# Element-wise ops whose NumPy forward broadcasts its operands (BroadcastTo is skippable).
BROADCASTING = ("AddV2", "Sub", "Mul", "RealDiv", "Maximum", "Minimum", "SquaredDifference")


def simplify_arithmetic(graph):
    """(new graph, report): `graph` with the rules above applied once, in order."""
    rewriter = Rewriter(graph)
    for node in graph.nodes:
        inputs = rewriter.inputs_of(node)
        rule = _RULES.get(node.op.name) if is_pure(node) else None
        before = len(rewriter.new.nodes)
        result = rule(rewriter, node, inputs) if rule else None
        if result is None:
            rewriter.copy(node, inputs)
            continue
        rewriter.alias(node.outputs[0], result)
        made = any(result.node is n for n in rewriter.new.nodes[before:])
        shown = describe(result.node) if made and result.node.op is not Const else \
            operand(result)
        rewriter.note(f"simplified {describe(node, inputs)} -> {shown}")
    return rewriter.finish()


# --- recognizing zeros and ones --------------------------------------------------------
def _filled_with(tensor, number):
    """The tensor is provably all `number` (a constant, or ZerosLike/OnesLike)."""
    like = {0: "ZerosLike", 1: "OnesLike"}[number]
    if tensor.node.op.name == like:
        return True
    value = constant_value(tensor)
    if value is None or value.dtype == object or value.size == 0:
        return False
    return bool(value == number) if value.ndim == 0 else bool(np.all(value == number))


def _same_as(rewriter, node, x, other, number):
    """x itself, if `other` is all `number` and cannot change x's shape or dtype."""
    out = node.outputs[0]
    if _filled_with(other, number) and broadcasts_into(other.shape, x.shape) \
            and x.dtype is out.dtype:
        return x
    return None


def _either(first, second):
    return first if first is not None else second  # (tensors have no truth value)


def _zeros(rewriter, node):
    """A zeros constant for `node`, if that is exact: integers and bools, known shape."""
    out = node.outputs[0]
    if not out.shape.is_fully_defined() or not (out.dtype.is_integer or out.dtype.is_bool):
        return None
    value = np.zeros(tuple(out.shape.dims), dtype=out.dtype.as_numpy_dtype)
    return rewriter.constant(value, out.dtype, rewriter.fresh_name("zeros"), node.source)


def _like(rewriter, node, op, inputs):
    """A new node `op(inputs)` standing where `node` was (same name, shape, dtype)."""
    out = node.outputs[0]
    return rewriter.add(op, inputs, {}, [(out.shape, out.dtype)], node.name,
                        node.source).outputs[0]


# --- the rules -----------------------------------------------------------------------------
def _add(rewriter, node, inputs):
    x, y = inputs
    found = _either(_same_as(rewriter, node, x, y, 0), _same_as(rewriter, node, y, x, 0))
    if found is not None:
        return found
    if y.node.op.name == "Neg" and node.op is AddV2:
        return _like(rewriter, node, Sub, [x, y.node.inputs[0]])
    if x.node.op.name == "Neg" and node.op is AddV2:
        return _like(rewriter, node, Sub, [y, x.node.inputs[0]])
    return None


def _sub(rewriter, node, inputs):
    x, y = inputs
    found = _same_as(rewriter, node, x, y, 0)
    if found is not None:
        return found
    if _filled_with(x, 0) and broadcasts_into(x.shape, y.shape) and Neg.dtypes is not None \
            and y.dtype in Neg.dtypes:
        return _like(rewriter, node, Neg, [y])
    if y.node.op.name == "Neg":
        return _like(rewriter, node, AddV2, [x, y.node.inputs[0]])
    return None


def _mul(rewriter, node, inputs):
    x, y = inputs
    found = _either(_same_as(rewriter, node, x, y, 1), _same_as(rewriter, node, y, x, 1))
    if found is not None:
        return found
    if _filled_with(x, 0) or _filled_with(y, 0):
        return _zeros(rewriter, node)
    return None


def _div(rewriter, node, inputs):
    return _same_as(rewriter, node, inputs[0], inputs[1], 1)


def _matmul(rewriter, node, inputs):
    if any(_filled_with(t, 0) for t in inputs):
        return _zeros(rewriter, node)
    return None


def _involution(rewriter, node, inputs):
    inner = inputs[0].node
    if inner.op is node.op and inner.outputs[0].dtype is node.outputs[0].dtype:
        return inner.inputs[0]
    return None


def _transpose(rewriter, node, inputs):
    inner = inputs[0].node
    if inner.op is not Transpose or node.op is not Transpose:
        return None
    outer_perm, inner_perm = node.attrs["perm"], inner.attrs["perm"]
    perm = tuple(inner_perm[p] for p in outer_perm)
    x = inner.inputs[0]
    if perm == tuple(range(len(perm))):
        return x
    out = node.outputs[0]
    return rewriter.add(Transpose, [x], {"perm": perm}, [(out.shape, out.dtype)], node.name,
                        node.source).outputs[0]


def _reshape(rewriter, node, inputs):
    x, out = inputs[0], node.outputs[0]
    if x.shape.is_fully_defined() and out.shape.is_fully_defined() and x.shape == out.shape:
        return x
    if x.node.op is Reshape and node.op is Reshape:  # not the run-time-shape twin
        return rewriter.add(Reshape, [x.node.inputs[0]], dict(node.attrs),
                            [(out.shape, out.dtype)], node.name, node.source).outputs[0]
    return None


def _cast(rewriter, node, inputs):
    return inputs[0] if inputs[0].dtype is node.outputs[0].dtype else None


def _skip_broadcast(rewriter, node, inputs):
    """op(BroadcastTo(a), y) -> op(a, y) when y already has the output's shape: the
    element-wise op broadcasts `a` itself, without the materialized copy."""
    out = node.outputs[0]
    if len(inputs) != 2 or ELEMENTWISE.get(node.op.name) is not node.op \
            or not out.shape.is_fully_defined():
        return None
    for i, t in enumerate(inputs):
        other = inputs[1 - i]
        if t.node.op.name != "BroadcastTo" or not is_pure(t.node) or other is t:
            continue
        a = t.node.inputs[0]
        if other.shape.is_fully_defined() and other.shape == out.shape == t.shape \
                and broadcasts_into(a.shape, out.shape) and a.dtype is t.dtype:
            new = [a, other] if i == 0 else [other, a]
            if node.op.shape(*[t.shape for t in new], **node.attrs) != out.shape:
                continue  # (the op's own rule must accept the operands)
            return rewriter.add(node.op, new, dict(node.attrs), [(out.shape, out.dtype)],
                                node.name, node.source).outputs[0]
    return None


def _relu_grad(rewriter, node, inputs):
    """ReluGrad(BroadcastTo(a), y) -> Mul(a, Cast(Greater(y, 0))): ReluGrad's kernel is
    `dy * (y > 0)` and its shape rule wants equal shapes, so the broadcasting form is
    spelled with ops that broadcast (same products, same numbers)."""
    dy, y = inputs
    out = node.outputs[0]
    if dy.node.op.name != "BroadcastTo" or not is_pure(dy.node) \
            or not out.shape.is_fully_defined() or y.shape != out.shape:
        return None
    a = dy.node.inputs[0]
    if not broadcasts_into(a.shape, out.shape) or a.dtype is not out.dtype:
        return None
    zero = rewriter.constant(np.zeros((), out.dtype.as_numpy_dtype), out.dtype)
    positive = rewriter.add(Greater, [y, zero], {}, [(out.shape, dtypes.bool)],
                            rewriter.fresh_name("Greater"), node.source).outputs[0]
    mask = rewriter.add(Cast, [positive], {"DstT": out.dtype}, [(out.shape, out.dtype)],
                        rewriter.fresh_name("Cast"), node.source).outputs[0]
    return rewriter.add(Mul, [a, mask], {}, [(out.shape, out.dtype)], node.name,
                        node.source).outputs[0]


def _then_skip_broadcast(rule):
    def both(rewriter, node, inputs):
        return _either(rule(rewriter, node, inputs) if rule else None,
                       _skip_broadcast(rewriter, node, inputs))
    return both


_RULES = {"AddV2": _add, "Sub": _sub, "Mul": _mul, "RealDiv": _div, "MatMul": _matmul,
          "Transpose": _transpose, "Reshape": _reshape, "Cast": _cast}
_RULES.update({name: _involution for name in INVOLUTIONS})
_RULES.update({name: _then_skip_broadcast(_RULES.get(name)) for name in BROADCASTING})
_RULES["ReluGrad"] = _relu_grad
