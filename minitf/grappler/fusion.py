"""Element-wise fusion: a chain of element-wise ops runs as one node.

`tf.nn.relu(x * w + b)` traces to three nodes, and running them makes two
temporary arrays that only the next node reads. When every intermediate
result is used by exactly one node of the chain (and is not returned), the
chain becomes one `_FusedElementwise` node whose forward runs the whole
expression in NumPy, writing each step into the previous temporary
(`out=`) instead of allocating a new one:

>>> import minitf as tf
>>> @tf.function
... def f(x, w, b):
...     return tf.nn.relu(x * w + b)
>>> spec = tf.TensorSpec([3], tf.float32)
>>> graph = f.get_concrete_function(spec, spec, spec).graph
>>> fused, report = fuse_elementwise(graph)
>>> report
['fused 3 nodes: Mul -> AddV2 -> Relu']
>>> print(fused)
graph f(x: float32[3], w: float32[3], b: float32[3]) {
  %0 = _FusedElementwise[fused_ops=('Mul', 'AddV2', 'Relu')](x, w, b)
  return %0
}
>>> fused.nodes[-1].attrs["program"]      # what the fused node computes from its inputs
Relu(AddV2(Mul(#0, #1), #2))

Groups are trees: an op may take several fused inputs (`(a + b) * (c - d)`),
but a result used twice stays a node of its own, since both users need it.
The fused node keeps the name of the group's last node. The gradient tape
never sees fused nodes: a traced function called under a tape runs the
original graph.
In TensorFlow, XLA fuses element-wise ops like this ("loop fusion"); Grappler
itself has no such pass, so the option "elementwise_fusion" is a minitf extra.
"""
from .elementwise import ELEMENTWISE, IN_PLACE, FusedElementwise, Program, Step, casts_bool
from .rewrite import WORK, Rewriter, broadcasts_into, consumers, is_pure, output_ids


def fuse_elementwise(graph):
    """(new graph, report): `graph` with each element-wise chain as one fused node."""
    groups = _groups(graph)
    root_of = {id(m): members[-1] for members in groups.values() for m in members}
    rewriter = Rewriter(graph)
    for node in graph.nodes:
        root = root_of.get(id(node))
        if root is None:
            rewriter.copy(node)
        elif root is node:
            members = groups[id(node)]
            _emit(rewriter, node, members)
            rewriter.note(f"fused {len(members)} nodes: "
                          + " -> ".join(m.op.name for m in members))
    return rewriter.finish()


def _fusable(node):
    return (ELEMENTWISE.get(node.op.name) is node.op and is_pure(node)
            and len(node.outputs) == 1)


def _groups(graph):
    """id(root node) -> its group's nodes in graph order (groups of two or more)."""
    users, returned = consumers(graph), output_ids(graph)
    order = {id(n): i for i, n in enumerate(graph.nodes)}
    taken, groups = set(), {}
    for node in reversed(graph.nodes):
        if id(node) in taken or not _fusable(node):
            continue
        members, stack, inside = [node], [node], {id(node)}
        while stack:
            consumer = stack.pop()
            WORK["visited"] += 1
            for t in consumer.inputs:
                producer = t.node
                if (id(producer) not in inside and id(producer) not in taken
                        and _fusable(producer) and id(t) not in returned
                        and all(u is consumer for u in users[id(t)])):
                    members.append(producer)
                    stack.append(producer)
                    inside.add(id(producer))
        if len(members) > 1:
            taken.update(id(m) for m in members)
            groups[id(node)] = sorted(members, key=lambda m: order[id(m)])
    return groups


def _emit(rewriter, root, members):
    """Add the fused node for `members` (ending at `root`) to the new graph."""
    inside = {id(m) for m in members}
    register, inputs = {}, []
    for m in members:
        for t in m.inputs:
            if id(t.node) not in inside and id(t) not in register:
                register[id(t)] = len(inputs)
                inputs.append(t)
    shapes = [t.shape for t in inputs]
    dtypes_ = [t.dtype for t in inputs]
    owned, steps = set(), []
    for m in members:
        args = tuple(register[id(t)] for t in m.inputs)
        out = m.outputs[0]
        reuse, check = _plan_reuse(m, args, owned, shapes, dtypes_)
        step = Step(m.op.name, args, tuple(sorted(m.attrs.items())), reuse, check)
        steps.append(step)
        register[id(out)] = len(shapes)
        if _writes_into(step, dtypes_):
            owned.add(len(shapes))  # a kernel's result: a new array only this program sees
        shapes.append(out.shape)
        dtypes_.append(out.dtype)
    _mark_final(steps, len(inputs), dtypes_)
    out = root.outputs[0]
    node = rewriter.add(FusedElementwise, [rewriter.get(t) for t in inputs],
                        {"fused_ops": tuple(m.op.name for m in members),
                         "program": Program(steps, inputs=len(inputs))},
                        [(out.shape, out.dtype)], root.name, root.source)
    rewriter.alias(out, node.outputs[0])


def _mark_final(steps, inputs, dtypes_):
    """Mark the step whose array ends up as the result (following the chain of steps
    that wrote into an earlier step's array), if its kernel can write into `out`."""
    index = len(steps) - 1
    while steps[index].reuse is not None:
        index = steps[index].reuse - inputs
    if _writes_into(steps[index], dtypes_):
        steps[index] = steps[index]._replace(final=True)


def _writes_into(step, dtypes_):
    """The step's kernel can write into a given array (and makes a new one otherwise)."""
    return step.op in IN_PLACE and not step.attrs or casts_bool(step, dtypes_[step.args[0]])


def _plan_reuse(node, args, owned, shapes, dtypes_):
    """(register to overwrite or None, whether shapes must be checked at run time)."""
    out = node.outputs[0]
    if node.op.name not in IN_PLACE or node.attrs or out.shape.rank in (None, 0):
        return None, False
    for r in args:
        if r in owned and dtypes_[r] is out.dtype and shapes[r].rank == out.shape.rank:
            proven = all(broadcasts_into(shapes[a], shapes[r]) for a in args if a != r)
            return r, not proven
    return None, False
