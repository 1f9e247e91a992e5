"""Remapping: MatMul + bias add (+ activation) becomes one `_FusedMatMul` node.

A dense layer traces to `MatMul -> AddV2 (or BiasAdd) -> Relu`. When the
product and the sum are each used only by the next node of that pattern, the
three nodes become TensorFlow's `_FusedMatMul` with `fused_ops=("BiasAdd",
"Relu")`: its forward multiplies, then adds the bias and applies the
activation *in place* on the product (NumPy's `out=`), so no temporary array
is made for the sum or the activation.

>>> import minitf as tf
>>> @tf.function
... def dense(x, w, b):
...     return tf.nn.relu(tf.matmul(x, w) + b)
>>> graph = dense.get_concrete_function(tf.TensorSpec([4, 3], tf.float32),
...     tf.TensorSpec([3, 2], tf.float32), tf.TensorSpec([2], tf.float32)).graph
>>> remapped, report = remap(graph)
>>> report
['fused MatMul(x, w) -> AddV2(b) -> Relu into _FusedMatMul']
>>> print(remapped)
graph dense(x: float32[4,3], w: float32[3,2], b: float32[2]) {
  %0 = _FusedMatMul[transpose_a=False, transpose_b=False, fused_ops=('BiasAdd', 'Relu')](x, w, b)
  return %0
}

The bias must be a vector as long as the product's last axis (otherwise
`+` broadcasts differently and this is not a bias add). Activations: Relu,
Relu6, Elu, LeakyRelu, Tanh, Sigmoid, as TensorFlow's CPU kernel offers.
In TensorFlow this is Grappler's Remapper, switched by "remapping".
"""
import numpy as np

from ..framework import dtypes
from ..framework.op import Op
from ..ops.linalg_ops import MatMul
from .elementwise import ELEMENTWISE, IN_PLACE
from .rewrite import Rewriter, broadcasts_into, consumers, is_pure, operand, output_ids

ACTIVATIONS = ("Relu", "Relu6", "Elu", "LeakyRelu", "Tanh", "Sigmoid")


def remap(graph):
    """(new graph, report): `graph` with MatMul + bias (+ activation) as `_FusedMatMul`,
    then the convolution rewrites of `conv_remapper.py`."""
    from .conv_remapper import remap_convolutions

    graph, lines = _remap_matmuls(graph)
    graph, conv_lines = remap_convolutions(graph)
    return graph, lines + conv_lines


def _remap_matmuls(graph):
    patterns = _patterns(graph)
    root_of = {id(n): p[-1] for p in patterns for n in p}
    pattern_of = {id(p[-1]): p for p in patterns}
    rewriter = Rewriter(graph)
    for node in graph.nodes:
        root = root_of.get(id(node))
        if root is None:
            rewriter.copy(node)
        elif root is node:
            _emit(rewriter, pattern_of[id(node)])
    return rewriter.finish()


def _patterns(graph):
    """Lists [matmul, bias add, optional activation] that can become one node."""
    users, returned = consumers(graph), output_ids(graph)

    def only_user(node):
        t = node.outputs[0]
        found = users.get(id(t), [])
        if id(t) in returned or len(found) != 1:
            return None
        return found[0]

    patterns = []
    for node in graph.nodes:
        if node.op is not MatMul or not is_pure(node) or node.outputs[0].shape.rank != 2 \
                or node.outputs[0].dtype not in dtypes.FLOATING:
            continue
        pattern = bias_add_pattern(node, only_user)
        if pattern is not None:
            patterns.append(pattern)
    return patterns


def bias_add_pattern(node, only_user):
    """`[node, bias add, activation]` (activation optional) when `node`'s only
    user adds a bias; None otherwise. `only_user(n)` returns n's single consumer."""
    add = only_user(node)
    if add is None or _bias_of(add, node.outputs[0]) is None:
        return None
    pattern = [node, add]
    act = only_user(add)
    if act is not None and act.op.name in ACTIVATIONS and ELEMENTWISE.get(act.op.name) \
            is act.op and is_pure(act):
        pattern.append(act)
    return pattern


def _bias_of(add, product):
    """The bias tensor if `add` adds a vector along the last axis of `product`, else None."""
    if not is_pure(add):
        return None
    if add.op.name == "BiasAdd" and add.inputs[0] is product:
        bias = add.inputs[1]
    elif add.op.name == "AddV2" and len(add.inputs) == 2:
        bias = add.inputs[1] if add.inputs[0] is product else add.inputs[0]
        if add.inputs[0] is add.inputs[1]:
            return None
    else:
        return None
    if bias.shape.rank != 1 or product.shape[-1] is None \
            or not broadcasts_into(bias.shape, product.shape) or bias.dtype is not product.dtype:
        return None
    return bias


def _emit(rewriter, pattern):
    matmul, add = pattern[0], pattern[1]
    bias = _bias_of(add, matmul.outputs[0])
    fused_ops = ("BiasAdd",) + tuple(n.op.name for n in pattern[2:])
    attrs = {"transpose_a": matmul.attrs["transpose_a"],
             "transpose_b": matmul.attrs["transpose_b"], "fused_ops": fused_ops}
    if fused_ops[-1] == "LeakyRelu":
        attrs["leakyrelu_alpha"] = pattern[-1].attrs["alpha"]
    root = pattern[-1]
    out = root.outputs[0]
    inputs = [rewriter.get(t) for t in matmul.inputs] + [rewriter.get(bias)]
    node = rewriter.add(FusedMatMul, inputs, attrs, [(out.shape, out.dtype)], root.name,
                        root.source)
    rewriter.alias(out, node.outputs[0])
    a, b, c = (operand(t) for t in inputs)
    chain = " -> ".join([f"MatMul({a}, {b})", f"{add.op.name}({c})"]
                        + [n.op.name for n in pattern[2:]])
    rewriter.note(f"fused {chain} into _FusedMatMul")


# --- the fused op ---------------------------------------------------------------------------
def _fused_matmul_forward(a, b, bias, transpose_a, transpose_b, fused_ops,
                          leakyrelu_alpha=0.2):
    """matmul, then += bias and the activation, both written into the product's array."""
    y = MatMul.forward(a, b, transpose_a=transpose_a, transpose_b=transpose_b)
    return bias_and_activation(y, bias, fused_ops, leakyrelu_alpha)


def bias_and_activation(y, bias, fused_ops, leakyrelu_alpha=0.2):
    """`y + bias`, then the activation in `fused_ops[1:]`, in place on the fresh array `y`
    (a product: nobody else holds it). The same NumPy calls as the unfused ops."""
    if type(y) is not np.ndarray or not y.flags.writeable or y.base is not None \
            and not y.base.flags.owndata:
        y = np.array(y)  # (products are always new arrays; this is a guard)
    np.add(y, bias, out=y)
    for name in fused_ops[1:]:
        kernel = IN_PLACE.get(name)
        if kernel is not None and not kernel[1]:  # Relu, Relu6, Tanh: in place
            kernel[0](y, out=y)
        elif name == "LeakyRelu":
            y = ELEMENTWISE[name].forward(y, alpha=leakyrelu_alpha)
        else:
            y = ELEMENTWISE[name].forward(y)
    return y


def _fused_matmul_shape(a, b, bias, transpose_a, transpose_b, fused_ops, leakyrelu_alpha=0.2):
    return MatMul.shape(a, b, transpose_a=transpose_a, transpose_b=transpose_b)


FusedMatMul = Op("_FusedMatMul", _fused_matmul_forward, dtypes=dtypes.FLOATING,
                 shape=_fused_matmul_shape)
