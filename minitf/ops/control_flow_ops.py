"""What tf.cond, tf.switch_case and tf.while_loop share: Python functions traced into sub-graphs.

In eager mode control flow is just Python: `tf.cond` calls one branch,
`tf.while_loop` is a `while` loop, and the tape records whatever ops ran.

Inside `tf.function` that cannot work: *which* branch runs, or *how many
times* a body runs, is only known when the graph runs. So each function is
traced once into its own small `Graph` - a sub-graph - and one control-flow
node (`If`, `Case`, `While`) carries the sub-graphs as attributes. When the
node runs, the executor runs the plan of the branch that was chosen, or of
the body as often as the condition says:

>>> @tf.function
... def relu_ish(x):
...     return tf.cond(x > 0.0, lambda: x * 2.0, lambda: -x)
>>> print(relu_ish.get_concrete_function(tf.TensorSpec([], tf.float32)).graph)
graph relu_ish(x: float32[]) {
  %0 = Greater(x, 0.0)
  %1 = StatelessIf[then_branch=cond_true, else_branch=cond_false](%0, x)
  return %1
}
  graph cond_true(capture_x: float32[]) {
    %0 = Mul(capture_x, 2.0)
    return %0
  }
  graph cond_false(capture_x: float32[]) {
    %0 = Neg(capture_x)
    return %0
  }

A branch that uses a tensor of the graph around it (here `x`) *captures*
it: `Graph.capture` gives the sub-graph a placeholder for it, and the node
passes the outer tensor in. Variables read inside a sub-graph are read when
it runs; the node also takes a read of each such variable as an extra input,
which is how gradients reach them (TensorFlow passes the variable's handle).

Gradients of a control-flow node are control flow again: each branch's
gradient comes from `replay_for_gradient` - re-running the branch's ops under
a GradientTape - inside a new `tf.cond` (see cond_ops.py, while_ops.py).

In TensorFlow this machinery is `FuncGraph` and `cond_v2.py` / `while_v2.py`.
"""
import contextlib
import inspect
import weakref

import numpy as np

from ..framework import context, errors, nest
from ..framework.dtypes import INEXACT
from ..framework.executor import compile_graph, run
from ..framework.graph import AssignVariable, Graph, Placeholder, replay_node
from ..framework.op import Op
from ..framework.tape import GradientTape
from ..framework.tensor import Tensor, convert_to_tensor


@contextlib.contextmanager
def tapes_paused():
    """Hide the active tapes while a sub-graph is traced: its ops are recorded
    once, as the single control-flow node, not op by op."""
    saved = list(context.tape_stack)
    context.tape_stack[:] = []
    try:
        yield
    finally:
        context.tape_stack[:] = saved


# --- composite values: a TensorArray travels as its component tensors ---------------------
def is_composite(value):
    """A value made of several tensors (a TensorArray: buffer and size)."""
    return hasattr(value, "_components") and hasattr(value, "_rebuild")


def flatten(structure):
    """The leaves of `structure`, each composite expanded into its component tensors."""
    flat = []
    for leaf in nest.flatten(structure):
        flat.extend(leaf._components() if is_composite(leaf) else [leaf])
    return flat


def pack(structure, flat, templates=None):
    """The inverse of `flatten`; composites are rebuilt from `templates` (default: their
    own leaves in `structure`), so e.g. a TensorArray keeps what its template learned."""
    leaves = nest.flatten(structure)
    templates = leaves if templates is None else templates
    rebuilt, position = [], 0
    for leaf, template in zip(leaves, templates):
        if is_composite(leaf):
            count = len(leaf._components())
            rebuilt.append(template._rebuild(flat[position:position + count]))
            position += count
        else:
            rebuilt.append(flat[position])
            position += 1
    return nest.pack_sequence_as(structure, rebuilt)


# --- tracing a Python function into a sub-graph --------------------------------------------
def trace_function(fn, name, structure=(), specs=(), names=None):
    """Trace `fn(*args)` into a new Graph named `name`.

    `structure` is a list of template arguments (tensors, TensorArrays, nests);
    `specs` gives a (shape, dtype) for each of their flat components, from which
    the graph's placeholders are made (named `names`, default: after `fn`'s
    parameters). Returns (graph, structured outputs): the outputs are tensors
    of the new graph (Python numbers become constants; outer tensors become
    captures; None stays None). Nodes that feed no output and have no effect
    are dropped, so a gradient's sub-graph keeps only what it needs.
    """
    graph = Graph(name)
    names = names or argument_names(fn, structure)
    with tapes_paused(), graph.as_default():
        placeholders = [graph.placeholder(shape, dtype, label)
                        for (shape, dtype), label in zip(specs, names)]
        args = pack(list(structure), placeholders) if specs else list(structure)
        result = fn(*args)
        outputs = nest.map_structure(lambda value: _as_output(graph, value), result)
    graph.outputs = [t for t in flatten(outputs) if t is not None]
    _prune(graph)
    return graph, outputs


def argument_names(fn, structure):
    """A readable name for each flat component of the arguments: the parameter's name,
    numbered inside nests, `_buffer`/`_size` for a TensorArray's two tensors."""
    try:
        params = [p.name for p in inspect.signature(fn).parameters.values()
                  if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    except (TypeError, ValueError):
        params = []
    names = []
    for i, arg in enumerate(structure):
        base = params[i] if i < len(params) else f"arg{i}"
        leaves = nest.flatten(arg)
        for j, leaf in enumerate(leaves):
            label = base if len(leaves) == 1 else f"{base}_{j}"
            names.extend([f"{label}_buffer", f"{label}_size"] if is_composite(leaf) else [label])
    return names


def _prune(graph):
    """Drop nodes that no output needs and that have no effect (walking backwards)."""
    needed = {id(t) for t in graph.outputs}
    kept = []
    for node in reversed(graph.nodes):
        if node.op is Placeholder or node.op.stateful or any(id(t) in needed
                                                             for t in node.outputs):
            kept.append(node)
            needed.update(id(t) for t in node.inputs)
    graph.nodes = kept[::-1]


def _as_output(graph, value):
    if value is None:
        return None
    if is_composite(value):
        return value._rebuild([_as_output(graph, c) for c in value._components()])
    return graph.symbolic(convert_to_tensor(value))


def captured(graphs):
    """The outer tensors the graphs capture, each once, and for each graph the position
    in that list of each of its capture placeholders."""
    outer, index_maps = [], []
    for graph in graphs:
        positions = []
        for tensor, _ in graph.captures:
            found = [i for i, t in enumerate(outer) if t is tensor]
            if not found:
                outer.append(tensor)
            positions.append(found[0] if found else len(outer) - 1)
        index_maps.append(tuple(positions))
    return outer, index_maps


def variables_read(graphs):
    """Variables read inside the sub-graphs (nested ones included), and a read of each in
    the current graph: extra inputs of the control-flow node, so tapes see the access."""
    variables = []
    for graph in graphs:
        for v in graph.captured_variables:
            if not any(v is known for known in variables):
                variables.append(v)
    return variables, [v._read() for v in variables]


def is_stateful(graphs):
    """Whether any node of the graphs has effects: then the node is `If`, else `StatelessIf`."""
    return any(node.op.stateful for graph in graphs for node in graph.nodes)


def local(tensor):
    """`tensor` as a tensor of the graph being traced (captured if it is an outer one)."""
    if context.graph_stack:
        return context.graph_stack[-1].symbolic(tensor)
    return tensor


def op_pair(name, forward, **declaration):
    """The stateful op `name` and its pure twin `Stateless<name>`, as TensorFlow has
    If/StatelessIf: graph optimizations may fold or drop only the pure one."""
    return (Op(name, forward, stateful=True, **declaration),
            Op("Stateless" + name, forward, **declaration))


def from_attr(key):
    """A shape or dtype rule that reads the answer from the node's attributes."""
    def rule(*_, **attrs):
        return tuple(attrs[key])
    return rule


# --- running a sub-graph ---------------------------------------------------------------------
_plans = weakref.WeakKeyDictionary()  # Graph -> its compiled Plan


_plans_with_draws = weakref.WeakKeyDictionary()  # Graph -> Plan that also returns draws


def run_graph(graph, arrays, draws=False):
    """Run a whole sub-graph on NumPy arrays with the executor (compiled once). With
    `draws`, the values of its random ops (`random_outputs`) follow its outputs."""
    cache = _plans_with_draws if draws else _plans
    plan = cache.get(graph)
    if plan is None:
        outputs = graph.outputs + random_outputs(graph) if draws else None
        plan = cache[graph] = compile_graph(graph, outputs)
    return run(plan, arrays)


_NOT_RANDOM = {"PrintV2", "Assert", "ReadVariableOp", "AssignVariableOp",
               "AssignAddVariableOp", "AssignSubVariableOp"}


def random_outputs(graph):
    """The tensors of `graph` that random ops draw (stateful ops without a gradient whose
    value is used). A gradient replays a branch or loop body; it must reuse these
    values from the forward run instead of drawing new ones, as TF's gradients do."""
    used = _used_tensors(graph)
    return [t for node in graph.nodes if node.op.stateful and node.op.grad is None
            and node.op.name not in _NOT_RANDOM for t in node.outputs if id(t) in used]


def scalar_input(array, what):
    """The single value of a predicate or branch index, or TF's error for any other shape."""
    array = np.asarray(array)
    if array.size != 1:
        raise errors.InvalidArgumentError(
            None, what, f"The second input must be a scalar, but it has shape "
            f"[{','.join(map(str, array.shape))}]. The {what} must be a single value.")
    return array.reshape(()).item()


# --- gradients of sub-graphs ---------------------------------------------------------------
def replay_for_gradient(graph, inputs, draws=None):
    """Re-run `graph`'s ops through `apply` (so a tape records them) for a gradient.

    Like `graph.replay`, but effects are not repeated: variable assignments and
    ops with no outputs anyone uses (tf.print) are skipped - they already
    happened in the forward run. `draws` gives the forward's values of the
    graph's random ops (one per `random_outputs(graph)`), so a gradient through
    a branch or body that samples (dropout) uses the same numbers as the forward.
    """
    values = dict(zip(map(id, graph.inputs), inputs))
    fixed = {} if draws is None else dict(zip(map(id, random_outputs(graph)), draws))
    used = _used_tensors(graph)
    for node in graph.nodes:
        if node.op is Placeholder:
            continue
        if node.outputs and all(id(t) in fixed for t in node.outputs):
            values.update((id(t), fixed[id(t)]) for t in node.outputs)
            continue
        if node.op is AssignVariable or node.op.stateful and node.op.grad is None and \
                not any(id(t) in used for t in node.outputs):
            out = tuple(values.get(id(t)) for t in node.inputs[:len(node.outputs)])
        else:
            attrs = node.attrs
            if "_accumulate" in attrs and context.graph_stack:  # a nested while_loop,
                attrs = dict(attrs, _accumulate=True)  # now differentiated: keep its states
            out = replay_node(node, [values[id(t)] for t in node.inputs], attrs)
        values.update(zip(map(id, node.outputs), out))
    return [values[id(t)] for t in graph.outputs]


def _used_tensors(graph):
    used = {id(t) for node in graph.nodes for t in node.inputs}
    return used | {id(t) for t in graph.outputs}


def graph_gradients(graph, inputs, seeds, sources, variables, draws=None):
    """Gradients of `graph`'s float outputs (weighted by `seeds`, one per output, None
    for the rest) w.r.t. `sources` (some of `inputs`) and `variables`; zeros where
    unconnected. Works eagerly and while tracing (then it adds the gradient ops)."""
    with GradientTape(watch_accessed_variables=False) as tape:
        for s in sources:
            tape.watch(s)
        for v in variables:
            tape.watch(v)
        outputs = replay_for_gradient(graph, inputs, draws)
    pairs = [(o, s) for o, s in zip(outputs, seeds) if s is not None and o.dtype in INEXACT]
    return tape.gradient([o for o, _ in pairs], list(sources) + list(variables),
                         output_gradients=[s for _, s in pairs], unconnected_gradients="zero")


def is_float(tensor):
    return isinstance(tensor, Tensor) and tensor.dtype in INEXACT
