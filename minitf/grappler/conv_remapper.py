"""Remapping convolutions: fused bias and activation, and one window matrix per input.

Three rewrites, all part of the "remapping" option:

1. `Conv2D -> AddV2 (or BiasAdd) -> Relu` becomes TensorFlow's `_FusedConv2D`
   with `fused_ops=("BiasAdd", "Relu")`: the bias and the activation are
   applied *in place* on the convolution's result, so no temporary image is
   made for the sum or the activation (the same rule as `_FusedMatMul`).
2. A convolution computes its output as `patches.T @ filters`, where `patches`
   (im2col) copies what every filter tap sees of every window into one big
   matrix. Its filter gradient, `Conv2DBackpropFilter`, needs the same
   matrix: `patches @ dy`. Eager mode builds it twice, once in the forward
   pass and again in the backward pass. A graph sees both nodes at once, so
   it builds it once (`_ConvPatches`) and hands it to both
   (`_Conv2DFromPatches`, `_Conv2DBackpropFilterFromPatches`): the same
   products on the same numbers, so the results are identical, with one big
   copy fewer per step. When the input is a constant, constant folding then
   computes the patches ahead of time.
3. `Conv2DBackpropInput` with stride 1 is, inside the kernel, a convolution of
   dy with the filter turned around: the graph spells it as a window matrix
   of dy and `_Conv2DFromPatches(flip_filter=True)`, the same computation.

The window matrix is built as `Transpose` (to channels first: a view),
`Pad` (the zero border, and the one copy of the image) and `_ConvPatches`
(the matrix, transposed: see `conv_utils.window_matrix`). The padded image
and the matrix are big arrays that the executor hands back to their nodes
run after run (`framework/executor.py`): each step refills the same memory
instead of asking the system for new pages.

>>> import minitf as tf
>>> k, c = tf.Variable(tf.ones([3, 3, 1, 2])), tf.Variable(tf.zeros([2]))
>>> @tf.function
... def step(x):
...     with tf.GradientTape() as tape:
...         y = tf.reduce_sum(tf.nn.relu(tf.nn.conv2d(x, k, 1, "SAME") + c))
...     return tape.gradient(y, k)
>>> graph = step.get_concrete_function(tf.TensorSpec([None, 4, 4, 1])).graph
>>> for line in remap_convolutions(graph)[1]:
...     print(line)
built the window matrix of x once for Conv2D and Conv2DBackpropFilter (_ConvPatches)
fused Conv2D(x, ReadVariableOp) -> AddV2(ReadVariableOp_1) -> Relu into _Conv2DFromPatches

TensorFlow's Remapper makes `_FusedConv2D` too; sharing the window matrix is a
minitf extra (TensorFlow's convolution kernels do not work through im2col).
"""
from ..framework import dtypes
from ..framework.tensor_shape import TensorShape
from ..ops.array_ops import Transpose
from ..ops.conv_ops import CONV_ATTRS, Conv2D, Conv2DBackpropFilter, Conv2DBackpropInput
from ..ops.conv_utils import output_spatial, spatial_pads
from ..ops.manipulation_ops import Pad
from .conv_kernels import (
    Conv2DBackpropFilterFromPatches,
    Conv2DFromPatches,
    ConvPatches,
    FusedConv2D,
)
from .remapper import _bias_of, bias_add_pattern
from .rewrite import Rewriter, consumers, is_pure, operand, output_ids


def remap_convolutions(graph):
    """(new graph, report): fused Conv2D + bias (+ activation), shared window matrices."""
    fused = _fusions(graph)
    root_of = {id(n): p[-1] for p in fused for n in p}
    pattern_of = {id(p[-1]): p for p in fused}
    groups = _sharing_groups(graph)
    group_of = {id(n): key for key, members in groups.items() for n in members}
    rewriter = Rewriter(graph)
    patches = {}  # group key -> the new _ConvPatches tensor
    for node in graph.nodes:
        root = root_of.get(id(node))
        if root is not None and root is not node:
            continue  # emitted with its pattern's last node
        pattern = pattern_of.get(id(node), [node])
        key = group_of.get(id(pattern[0]))
        pads = _input_grad_pads(node)
        if pads is not None:
            _emit_input_grad(rewriter, node, pads)
            continue
        if key is None:
            if len(pattern) == 1:
                rewriter.copy(node)
            else:
                _emit_fused(rewriter, pattern)
            continue
        if key not in patches:
            patches[key] = _emit_patches(rewriter, pattern[0], groups[key])
        _emit_from_patches(rewriter, pattern, patches[key])
    return rewriter.finish()


# --- finding the patterns ----------------------------------------------------------------
def _convolution(node):
    return (node.op is Conv2D and is_pure(node) and node.outputs[0].dtype in dtypes.FLOATING
            and node.outputs[0].shape.rank == 4)


def _fusions(graph):
    """Lists [Conv2D, bias add, optional activation] that can become one node. Besides
    the next node of the pattern, a result may only be read by `Shape` nodes after the
    pattern (gradients with an unknown batch size ask for shapes): the fused node's
    output has the same shape."""
    users, returned = consumers(graph), output_ids(graph)
    order = {id(n): i for i, n in enumerate(graph.nodes)}

    def only_user(node):
        if id(node.outputs[0]) in returned:
            return None
        found = [u for u in users.get(id(node.outputs[0]), []) if u.op.name != "Shape"]
        return found[0] if len(found) == 1 else None

    def shapes_read_later(pattern):
        last = order[id(pattern[-1])]
        return all(order[id(u)] > last for n in pattern[:-1]
                   for u in users.get(id(n.outputs[0]), []) if u.op.name == "Shape")

    patterns = []
    for node in graph.nodes:
        if not _convolution(node):
            continue
        pattern = bias_add_pattern(node, only_user)
        if pattern is not None and shapes_read_later(pattern):
            patterns.append(pattern)
    return patterns


def _window_key(node):
    """What decides the window matrix of a Conv2D or Conv2DBackpropFilter node (None
    when the node does not qualify: grouped, unknown sizes, empty output)."""
    if node.op is not Conv2D and node.op is not Conv2DBackpropFilter:
        return None
    x = node.inputs[0]
    if node.op is Conv2D:
        if not _convolution(node):
            return None
        fshape = node.inputs[1].shape
        if not fshape.is_fully_defined():
            return None
        fsize = tuple(fshape.as_list())
    elif node.op is Conv2DBackpropFilter and is_pure(node):
        fsize = tuple(node.attrs["filter_sizes"])
    else:
        return None
    dims = x.shape.as_list() if x.shape.rank == 4 else None
    if dims is None or None in dims[1:] or fsize[2] != dims[3] or 0 in fsize:
        return None  # a grouped convolution, or sizes known only at run time
    attrs = tuple(node.attrs[k] for k in CONV_ATTRS)
    out = output_spatial("Conv2D", dims[1:3], fsize[:2], attrs[0][1:3], attrs[3][1:3],
                         attrs[1], attrs[2])
    if 0 in out or x.dtype not in dtypes.FLOATING:
        return None
    return id(x), fsize[:3], attrs


def _sharing_groups(graph):
    """key -> the Conv2D and Conv2DBackpropFilter nodes that read the same windows of the
    same tensor (only groups with a filter gradient: a lone forward gains nothing)."""
    groups = {}
    for node in graph.nodes:
        key = _window_key(node)
        if key is not None:
            groups.setdefault(key, []).append(node)
    return {key: members for key, members in groups.items()
            if len(members) > 1 and any(m.op is Conv2DBackpropFilter for m in members)}


def _input_grad_pads(node):
    """For a Conv2DBackpropInput that the kernel computes as a convolution of dy with the
    flipped filter (stride 1, no groups, at least as many input as output channels):
    the zeros to add around dy, as EXPLICIT paddings. None otherwise."""
    if node.op is not Conv2DBackpropInput or not is_pure(node):
        return None
    f, dy = node.inputs
    sizes, attrs = node.attrs["input_sizes"], node.attrs
    fshape, dshape = f.shape.as_list() if f.shape.rank == 4 else None, dy.shape
    if fshape is None or None in fshape or dshape.rank != 4 or None in dshape.as_list()[1:] \
            or dy.dtype not in dtypes.FLOATING or max(attrs["strides"]) != 1 \
            or fshape[2] != sizes[3] or sizes[3] < fshape[3] or 0 in sizes[1:] \
            or 0 in dshape.as_list()[1:]:
        return None
    d = attrs["dilations"][1:3]
    befores = spatial_pads(sizes[1:3], fshape[:2], (1, 1), d, attrs["padding"],
                           attrs["explicit_paddings"])
    pads = [0, 0]
    for size, k, dil, (before, _), out in zip(sizes[1:3], fshape[:2], d, befores,
                                               dshape.as_list()[1:3]):
        lead, trail = (k - 1) * dil - before, size + before - out
        if lead < 0 or trail < 0:
            return None  # the kernel crops dy there: leave it to the kernel
        pads += [lead, trail]
    return tuple(pads + [0, 0])


def _emit_input_grad(rewriter, node, pads):
    """dx as a window matrix of dy and `_Conv2DFromPatches` with the flipped filter: the
    very computation of the kernel's `_backprop_input_by_conv`."""
    f, dy = rewriter.inputs_of(node)
    attrs = {"strides": (1, 1, 1, 1), "padding": "EXPLICIT", "explicit_paddings": pads,
             "dilations": node.attrs["dilations"]}
    patches = _window_matrix(rewriter, dy, tuple(f.shape.as_list()[:2]), attrs, node.source)
    out = node.outputs[0]
    new = rewriter.add(Conv2DFromPatches, [patches, f],
                       {"output_spatial": tuple(node.attrs["input_sizes"][1:3]), "fused_ops": (),
                        "flip_filter": True},
                       [(out.shape, out.dtype)], node.name, node.source)
    rewriter.alias(out, new.outputs[0])
    rewriter.note(f"computed {node.name} from a window matrix of {operand(dy)} (_ConvPatches)")


# --- emitting ----------------------------------------------------------------------------
def _fused_attrs(node, pattern):
    attrs = {k: node.attrs[k] for k in CONV_ATTRS}
    if len(pattern) > 1:
        attrs["fused_ops"] = ("BiasAdd",) + tuple(n.op.name for n in pattern[2:])
        if attrs["fused_ops"][-1] == "LeakyRelu":
            attrs["leakyrelu_alpha"] = pattern[-1].attrs["alpha"]
    else:
        attrs["fused_ops"] = ()
    return attrs


def _chain(pattern, inputs):
    parts = [f"Conv2D({operand(inputs[0])}, {operand(inputs[1])})"]
    if len(pattern) > 1:
        parts.append(f"{pattern[1].op.name}({operand(inputs[2])})")
    return " -> ".join(parts + [n.op.name for n in pattern[2:]])


def _emit_fused(rewriter, pattern):
    conv, root = pattern[0], pattern[-1]
    inputs = rewriter.inputs_of(conv) + [rewriter.get(_bias_of(pattern[1], conv.outputs[0]))]
    out = root.outputs[0]
    node = rewriter.add(FusedConv2D, inputs, _fused_attrs(conv, pattern),
                        [(out.shape, out.dtype)], root.name, root.source)
    for member in pattern:  # (intermediate results are read only by later Shape nodes)
        rewriter.alias(member.outputs[0], node.outputs[0])
    rewriter.note(f"fused {_chain(pattern, inputs)} into _FusedConv2D")


def _window_matrix(rewriter, x, ksize, attrs, source):
    """The nodes that build the window matrix of x [N, H, W, C] for a convolution with
    `attrs`: `Transpose` to channels first (a view), `Pad` (the one copy of the image,
    contiguous in that order, with the zero border if any), `_ConvPatches`."""
    dims = x.shape.as_list()
    pads = spatial_pads(dims[1:3], ksize, attrs["strides"][1:3], attrs["dilations"][1:3],
                        attrs["padding"], attrs["explicit_paddings"])
    shape = TensorShape([dims[3], dims[0], *dims[1:3]])
    xt = rewriter.add(Transpose, [x], {"perm": (3, 0, 1, 2)}, [(shape, x.dtype)],
                      rewriter.fresh_name("Transpose"), source).outputs[0]
    paddings = ((0, 0), (0, 0), *[tuple(p) for p in pads])
    shape = TensorShape([dims[3], dims[0], *[d + b + a for d, (b, a) in zip(dims[1:3], pads)]])
    xt = rewriter.add(Pad, [xt], {"paddings": paddings}, [(shape, x.dtype)],
                      rewriter.fresh_name("Pad"), source).outputs[0]
    patch_attrs = {"ksize": ksize, "strides": tuple(attrs["strides"][1:3]),
                   "dilations": tuple(attrs["dilations"][1:3])}
    return rewriter.add(ConvPatches, [xt], patch_attrs,
                        [(ConvPatches.shape(xt.shape, **patch_attrs), x.dtype)],
                        rewriter.fresh_name("ConvPatches"), source).outputs[0]


def _emit_patches(rewriter, first, members):
    x = rewriter.get(first.inputs[0])
    attrs = {k: first.attrs[k] for k in CONV_ATTRS}
    patches = _window_matrix(rewriter, x, _window_key(first)[1][:2], attrs, first.source)
    rewriter.note(f"built the window matrix of {operand(x)} once for "
                  f"{' and '.join(m.name for m in members)} (_ConvPatches)")
    return patches


def _emit_from_patches(rewriter, pattern, patches):
    node, root = pattern[0], pattern[-1]
    out = root.outputs[0]
    if node.op is Conv2DBackpropFilter:
        inputs = [patches, rewriter.get(node.inputs[1])]
        new = rewriter.add(Conv2DBackpropFilterFromPatches, inputs,
                           {"filter_sizes": tuple(node.attrs["filter_sizes"])},
                           [(out.shape, out.dtype)], node.name, node.source)
    else:
        inputs = [patches, rewriter.get(node.inputs[1])]
        if len(pattern) > 1:
            inputs.append(rewriter.get(_bias_of(pattern[1], node.outputs[0])))
            rewriter.note(f"fused {_chain(pattern, [node.inputs[0]] + inputs[1:])} "
                          "into _Conv2DFromPatches")
        attrs = _fused_attrs(node, pattern)
        attrs = {"output_spatial": tuple(out.shape.as_list()[1:3]),
                 "fused_ops": attrs["fused_ops"],
                 **({"leakyrelu_alpha": attrs["leakyrelu_alpha"]}
                    if "leakyrelu_alpha" in attrs else {})}
        new = rewriter.add(Conv2DFromPatches, inputs, attrs, [(out.shape, out.dtype)],
                           root.name, root.source)
    for member in pattern:  # (intermediate results are read only by later Shape nodes)
        rewriter.alias(member.outputs[0], new.outputs[0])
