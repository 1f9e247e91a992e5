"""Loops: `tf.while_loop`.

`while cond(*loop_vars): loop_vars = body(*loop_vars)`, then return loop_vars:

>>> tf.while_loop(lambda i, total: i < 4, lambda i, total: (i + 1, total + i), (0, 0))
(<tf.Tensor: shape=(), dtype=int32, numpy=4>, <tf.Tensor: shape=(), dtype=int32, numpy=6>)

Eagerly that is exactly a Python loop, and a GradientTape records every
iteration's ops. Inside tf.function `cond` and `body` are traced once into
sub-graphs and one `While` node runs them until `cond` is false. Since the
body's graph is fixed, each loop variable must keep its dtype and shape from
one iteration to the next (relax a shape with `shape_invariants`):

>>> @tf.function
... def power(x, n):
...     return tf.while_loop(lambda i, p: i < n, lambda i, p: (i + 1, p * x), (0, 1.0))[1]
>>> power(tf.constant(2.0), tf.constant(10))
<tf.Tensor: shape=(), dtype=float32, numpy=1024.0>
>>> print(power.get_concrete_function(tf.constant(2.0), tf.constant(10)).graph)
graph power(x: float32[], n: int32[]) {
  %0, %1 = StatelessWhile[cond=while_cond, body=while_body](0, 1.0, n, x)
  return %1
}
  graph while_cond(i: int32[], p: float32[], capture_n: int32[]) {
    %0 = Less(i, capture_n)
    return %0
  }
  graph while_body(i: int32[], p: float32[], capture_x: float32[]) {
    %0 = AddV2(i, 1)
    %1 = Mul(p, capture_x)
    return %0, %1
  }

How a While node is differentiated inside tf.function: the reverse pass
needs every iteration's loop state, and the trip count is only known when
the loop has run. So when a tape watches the loop's inputs, the forward
While node *keeps* each iteration's state (the body's inputs) and returns
two hidden extra outputs: an accumulator holding that list (an opaque scalar
handle - TensorFlow uses `variant` TensorList accumulators) and the trip
count n. The gradient is a second tf.while_loop that runs k = n-1, ..., 0:
it reads state k from the accumulator (`AccumulatorRead`), re-runs the body
on it under a tape, and pulls the loop variables' gradient back one
iteration, while summing the gradients of captured tensors and variables.
When a traced function is called under a tape from eager code, the node is
differentiated by running its body again n times op by op under a tape (n
recorded by the forward run), which outer tapes record too.

Second derivatives inside tf.function: when a tape that is still recording
will differentiate the gradient again, the reverse loop does not read state k
from the accumulator (which is not differentiable) but recomputes it with k
body steps from the loop's inputs - O(n^2) work, made of ordinary ops.
Random ops in the body draw once: the forward node keeps what each iteration
drew, and every replay for a gradient reuses those values, as in TF.
Where minitf differs from TensorFlow: `parallel_iterations` and `swap_memory`
change nothing.
"""
import numpy as np

from ..framework import context, dtypes, errors, nest
from ..framework.gradient_ops import zeros_like
from ..framework.op import Op, apply
from ..framework.tape import GradientTape
from ..framework.tensor import EagerTensor, convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export
from . import control_flow_ops as cf
from .creation_ops import identity, stop_gradient
from .math_ops import greater_equal, less, logical_and


# --- the While op ---------------------------------------------------------------------------
def _while_forward(*inputs, cond, body, _n_vars, _index_maps, _accumulate, _draws=0, **_):
    """Run body while cond holds. With `_accumulate`, keep each iteration's state (the
    arrays themselves, no copies) for the gradient; tapes get the trip count and the
    values the body's random ops drew in each iteration (`_draws` of them), which the
    gradient reuses instead of drawing again."""
    state, extra = list(inputs[:_n_vars]), inputs[_n_vars:]
    cond_captures = [extra[j] for j in _index_maps[0]]
    body_captures = [extra[j] for j in _index_maps[1]]
    history, drawn, count = [], [], 0
    while cf.scalar_input(cf.run_graph(cond, state + cond_captures)[0], "loop condition"):
        previous = state
        state = cf.run_graph(body, state + body_captures, draws=bool(_draws))
        if _draws:
            state, draws = state[:_n_vars], state[_n_vars:]
            drawn.append(draws)
        if _accumulate:
            history.append(previous + (draws if _draws else []))
        count += 1
    outputs = tuple(state)
    if _accumulate:
        outputs += (_accumulator(history), np.array(count, np.int32))
    return outputs, (count, drawn)


def _accumulator(history):
    handle = np.empty((), dtype=object)
    handle[()] = history
    return handle


def _while_shapes(*shapes, _shapes, _accumulate, **_):
    return tuple(_shapes) + ((TensorShape([]),) * 2 if _accumulate else ())


def _while_dtypes(*input_dtypes, _dtypes, _accumulate, **_):
    return tuple(_dtypes) + ((dtypes.string, dtypes.int32) if _accumulate else ())


While, StatelessWhile = cf.op_pair("While", _while_forward, typed=(), num_outputs=None,
                                   saves=True, shape=_while_shapes, dtype=_while_dtypes)


def _read_states(handle, k, _shapes, _dtypes, _start=0):
    return tuple(handle[()][int(k)][_start:])


# State k of a loop, from the accumulator the forward While node returned.
AccumulatorRead = Op("AccumulatorRead", _read_states, typed=(), num_outputs=None,
                     shape=cf.from_attr("_shapes"), dtype=cf.from_attr("_dtypes"))


class _Wanted:
    """Which inputs of a recorded While need a gradient: float loop variables, float
    captures of the body, and variables the body reads."""

    def __init__(self, op):
        attrs, n = op.attrs, op.attrs["_n_vars"]
        self.n, self.body, self.extra = n, attrs["body"], op.inputs[n:]
        self.index = attrs["_index_maps"][1]  # body capture placeholder -> position in extra
        self.n_caps = len(self.extra) - len(attrs["_variables"])
        self.floats = [i for i in range(n) if cf.is_float(op.outputs[i])]
        self.caps = [j for j in sorted(set(self.index))
                     if op.wanted[n + j] and cf.is_float(self.extra[j])]
        self.vars = [v for v in range(len(attrs["_variables"])) if op.wanted[n + self.n_caps + v]]
        self.variables = [attrs["_variables"][v] for v in self.vars]

    def result(self, op, d_vars, d_caps, d_variables):
        """The gradients, one per input of the While node (None where not wanted)."""
        result = [None] * len(op.inputs)
        for i, g in zip(self.floats, d_vars):
            result[i] = g if op.wanted[i] else None
        for j, g in zip(self.caps, d_caps):
            result[self.n + j] = g
        for v, g in zip(self.vars, d_variables):
            result[self.n + self.n_caps + v] = g
        return result


def _while_grad(op, *dys):
    if any(node.op is AccumulatorRead and not node.attrs.get("_start")
           for node in op.attrs["body"].nodes):
        raise errors.op_error(
            errors.UnimplementedError, "While",
            "Second derivatives through a tf.while_loop inside tf.function are not supported "
            "by minitf (the states the first gradient reads are not differentiable).",
            "Compute them eagerly (tf.config.run_functions_eagerly(True)).")
    wanted = _Wanted(op)
    seeds = [dys[i] if dys[i] is not None else zeros_like(op.outputs[i]) for i in wanted.floats]
    if op.saved is not None:
        return wanted.result(op, *_replayed_gradient(op, wanted, seeds))
    # A tape still recording will differentiate this gradient again (a second derivative):
    # then the states are recomputed from the loop's inputs, which is differentiable,
    # instead of read from the accumulator, which is not.
    recompute = any(tape._recording for tape in context.tape_stack)
    return wanted.result(op, *_reverse_loop(op, wanted, seeds, recompute))


def _reverse_loop(op, w, seeds, recompute=False):
    """Traced: the reverse loop k = n-1 .. 0 re-runs the body on state k (read from the
    accumulator the forward node kept) under a tape, and pulls the gradients back.
    With `recompute`, state k is computed again by a loop of k body steps from the
    loop's inputs (O(n^2) work, but made of differentiable ops: second derivatives)."""
    n, body, extra = w.n, w.body, w.extra
    handle, count = op.outputs[n], op.outputs[n + 1]
    draws = cf.random_outputs(body)
    reads = dict(_shapes=tuple(t.shape for t in body.inputs[:n] + draws),
                 _dtypes=tuple(t.dtype for t in body.inputs[:n] + draws))

    def grad_body(k, d_vars, d_caps, d_variables):
        if recompute:
            states = _recomputed_state(op, w, k, draws)
            drawn = _read_draws(handle, k, n, draws)
        else:
            states = list(apply(AccumulatorRead, [handle, k], reads))
            states, drawn = states[:n], states[n:]
        captures = [cf.local(extra[j]) for j in w.index]
        seeds = [None] * len(body.outputs)
        for i, d in zip(w.floats, d_vars):
            seeds[i] = d
        grads = cf.graph_gradients(
            body, states + captures, seeds, [states[i] for i in w.floats]
            + [captures[w.index.index(j)] for j in w.caps], w.variables, drawn)
        f, c = len(w.floats), len(w.caps)
        return (k - 1, list(grads[:f]), [a + g for a, g in zip(d_caps, grads[f:f + c])],
                [a + g for a, g in zip(d_variables, grads[f + c:])])

    start = (seeds, [zeros_like(extra[j]) for j in w.caps],
             [zeros_like(extra[w.n_caps + v]) for v in w.vars])
    invariants = (TensorShape([]), [body.inputs[i].shape for i in w.floats],
                  [extra[j].shape for j in w.caps], [extra[w.n_caps + v].shape for v in w.vars])
    return while_loop(lambda k, *_: greater_equal(k, 0), grad_body, (count - 1,) + start,
                      shape_invariants=invariants, name="while_grad")[1:]


def _read_draws(handle, k, n, draws):
    """The random values iteration k drew (None if the body draws nothing)."""
    if not draws:
        return None
    return list(apply(AccumulatorRead, [handle, k], dict(
        _shapes=tuple(t.shape for t in draws), _dtypes=tuple(t.dtype for t in draws),
        _start=n)))


def _recomputed_state(op, w, k, draws):
    """State k of the forward loop, computed again: k body steps from the loop's inputs
    (the body's random ops reuse what the forward drew in each iteration)."""
    handle = op.outputs[w.n]

    def step(j, *state):
        drawn = _read_draws(handle, j, w.n, draws)
        captures = [cf.local(w.extra[i]) for i in w.index]
        return (j + 1,) + tuple(cf.replay_for_gradient(w.body, list(state) + captures, drawn))

    starts = tuple(cf.local(t) for t in op.inputs[:w.n])
    invariants = (TensorShape([]),) + tuple(op.attrs["_shapes"])
    result = while_loop(lambda j, *_: less(j, k), step, (convert_to_tensor(0),) + starts,
                        shape_invariants=invariants, name="while_recompute")
    return list(result[1:])


def _replayed_gradient(op, w, seeds):
    """Eagerly (a traced function called under a tape): run the body again, op by op,
    as many times as the forward did, under a tape. Outer tapes record it too, so
    higher derivatives work here."""
    starts = [identity(t) for t in op.inputs[:w.n]]  # distinct, even if x is var and capture
    captures = {j: identity(w.extra[j]) for j in set(w.index)}
    with GradientTape(watch_accessed_variables=False) as tape:
        sources = [starts[i] for i in w.floats] + [captures[j] for j in w.caps]
        for t in sources:
            tape.watch(t)
        for v in w.variables:
            tape.watch(v)
        state = starts
        count, drawn = op.saved
        for k in range(count):
            draws = [EagerTensor(d) for d in drawn[k]] if drawn else None
            state = cf.replay_for_gradient(w.body, state + [captures[j] for j in w.index],
                                           draws)
    grads = tape.gradient([state[i] for i in w.floats], sources + w.variables,
                          output_gradients=seeds, unconnected_gradients="zero")
    f, c = len(w.floats), len(w.caps)
    return grads[:f], grads[f:f + c], grads[f + c:]


While.def_grad(_while_grad)
StatelessWhile.def_grad(_while_grad)


# --- tf.while_loop --------------------------------------------------------------------------
@tf_export("while_loop")
def while_loop(cond, body, loop_vars, shape_invariants=None, parallel_iterations=10,
               back_prop=True, swap_memory=False, maximum_iterations=None, name=None):
    """Repeat `body` while `cond` is true; returns the final loop variables.

    loop_vars: a tuple/list (or nest) of tensors and TensorArrays; `cond` and
        `body` take them as positional arguments, and `body` returns new
        values in the same structure.
    shape_invariants: per loop variable, a TensorShape that may leave
        dimensions unknown (None) so that they can change between iterations.
    maximum_iterations: stop after this many iterations even if `cond` holds.
    back_prop=False: no gradient flows through the loop.

    >>> tf.while_loop(lambda x: x < 100.0, lambda x: (x * x,), [tf.constant(2.0)])
    (<tf.Tensor: shape=(), dtype=float32, numpy=256.0>,)
    """
    if not callable(cond):
        raise TypeError("'cond' must be callable.")
    if not callable(body):
        raise TypeError("'body' must be callable.")
    if parallel_iterations < 1:
        raise TypeError("'parallel_iterations' must be a positive integer.")
    loop_vars = nest.map_structure(
        lambda v: v._read() if getattr(v, "_is_variable", False) else v, loop_vars)
    if context.graph_stack:
        return _graph_while(cond, body, loop_vars, shape_invariants, maximum_iterations,
                            back_prop, name or "while")
    return _eager_while(cond, body, loop_vars, maximum_iterations)


def _maximum(maximum_iterations):
    maximum = convert_to_tensor(maximum_iterations, dtype_hint=dtypes.int32)
    if maximum.shape.rank != 0:
        raise ValueError(f"'maximum_iterations' must be a scalar. Received shape: "
                         f"{maximum.shape}")
    return maximum


def _eager_while(cond, body, loop_vars, maximum_iterations):
    """TensorFlow's eager while_loop: a Python loop (no dtype or shape checks)."""
    if not loop_vars:
        raise ValueError("'loop_vars' must be provided.")
    if maximum_iterations is not None:
        maximum, user_cond, user_body = int(_maximum(maximum_iterations)), cond, body
        loop_vars = (0, loop_vars)

        def cond(i, lv):
            return i < maximum and bool(user_cond(*lv))

        def body(i, lv):
            return i + 1, user_body(*lv)

    structure = list(loop_vars)
    while cond(*loop_vars):
        loop_vars = body(*loop_vars)
        nest.assert_same_structure(structure, list(loop_vars))
    loop_vars = nest.map_structure(
        lambda v: v if cf.is_composite(v) else convert_to_tensor(v), loop_vars)
    return loop_vars[1] if maximum_iterations is not None else loop_vars


def _graph_while(cond, body, loop_vars, shape_invariants, maximum_iterations, back_prop, name):
    """Trace cond and body into sub-graphs and add one While node."""
    user_vars, user_body, user_cond = loop_vars, body, cond

    def checked_body(*args):  # TF's rules for what the body returns
        out = user_body(*args)
        out = out if nest.is_nested(out) else [out]
        nest.assert_same_structure(out, user_vars, check_types=False)
        return out

    body = checked_body
    if maximum_iterations is not None:
        maximum = _maximum(maximum_iterations)
        loop_vars = (convert_to_tensor(0, dtype=maximum.dtype), loop_vars)
        shape_invariants = None if shape_invariants is None else (TensorShape([]),
                                                                  shape_invariants)

        def cond(i, lv):
            return logical_and(less(i, maximum), _predicate(user_cond(*lv), name))

        def body(i, lv):
            return i + 1, checked_body(*lv)

    flat = [cf.local(convert_to_tensor(v)) for v in cf.flatten(loop_vars)]
    template = cf.pack(loop_vars, flat)
    invariants = _invariants(template, shape_invariants)
    specs = [(shape, t.dtype) for shape, t in zip(invariants, flat)]
    parent = context.graph_stack[-1]
    args = list(template) if isinstance(template, (list, tuple)) else template
    counter = ["iteration"] if maximum_iterations is not None else []
    cond_graph, _ = cf.trace_function(
        lambda *a: _predicate(cond(*a), name), parent._unique(f"{name}_cond"), args, specs,
        counter + cf.argument_names(user_cond, list(user_vars)))
    body_graph, out = cf.trace_function(
        body, parent._unique(f"{name}_body"), args, specs,
        counter + cf.argument_names(user_body, list(user_vars)))
    _check_body(flat, body_graph.outputs, invariants)
    outputs = _add_node(cond_graph, body_graph, flat, invariants, back_prop)
    result = cf.pack(loop_vars, outputs, templates=nest.flatten(out))
    return result[1] if maximum_iterations is not None else result


def _predicate(value, name):
    """The loop condition as a scalar bool tensor (TF's error for any other dtype)."""
    flat = nest.flatten(value)
    pred = convert_to_tensor(flat[0]) if len(flat) == 1 else convert_to_tensor(value)
    if pred.dtype is not dtypes.bool:
        raise errors.InvalidArgumentError(
            None, "LoopCond", f"Input 'input' passed {dtypes.tf_type_name(pred.dtype)} expected "
            f"bool while building NodeDef '{name}/LoopCond'. The loop condition must be a bool "
            "tensor, e.g. i < n.")
    return pred


def _invariants(template, shape_invariants):
    """One TensorShape per flat component: the initial shapes, or the given invariants
    (TensorArrays get their own: their row count always varies)."""
    leaves = nest.flatten(template)
    if shape_invariants is None:
        given = [None] * len(leaves)
    else:
        nest.assert_same_structure(template, shape_invariants, check_types=False)
        given = nest.flatten(shape_invariants)
    shapes = []
    for leaf, shape in zip(leaves, given):
        if cf.is_composite(leaf):
            shapes.extend(leaf._component_specs())
        elif shape is None:
            shapes.append(leaf.shape)
        else:
            shapes.append(TensorShape(getattr(shape, "shape", shape)))
    return shapes


def _check_body(flat, outputs, invariants):
    """Loop variables keep their dtype, and their shape within the invariant."""
    if len(outputs) != len(flat):
        raise ValueError("The body returned a different number of tensors than it takes "
                         f"({len(outputs)} vs {len(flat)}): a TensorArray must stay a "
                         "TensorArray, a tensor a tensor.")
    for start, out, invariant in zip(flat, outputs, invariants):
        if out.dtype is not start.dtype:
            raise TypeError(
                f"Loop var {start.name} enters the loop with type {start.dtype} but has type "
                f"{out.dtype} after 1 iteration. {start.name} type should remain constant.")
        if not out.shape.is_subtype_of(invariant):
            raise ValueError(
                f"Input tensor `{start.name}` enters the loop with shape {invariant}, but has "
                f"shape {out.shape} after one iteration. To allow the shape to vary across "
                "iterations, use the `shape_invariants` argument of tf.while_loop to specify "
                "a less-specific shape.")


def _add_node(cond_graph, body_graph, flat, invariants, back_prop):
    """The While node; returns its loop-variable outputs."""
    graphs = [cond_graph, body_graph]
    captures, index_maps = cf.captured(graphs)
    variables, reads = cf.variables_read(graphs)
    inputs = flat + captures + reads
    accumulate = back_prop and any(tape._recording and tape._watches_any(inputs)
                                   for tape in context.tape_stack)
    attrs = {"cond": cond_graph, "body": body_graph, "_n_vars": len(flat),
             "_index_maps": index_maps, "_accumulate": accumulate,
             "_shapes": tuple(invariants), "_dtypes": tuple(t.dtype for t in flat),
             "_variables": tuple(variables)}
    draws = cf.random_outputs(body_graph)
    if draws:  # the body samples: the node keeps what it drew, for the gradient
        attrs["_draws"] = len(draws)
    op = While if cf.is_stateful(graphs) else StatelessWhile
    outputs = list(apply(op, inputs, attrs))[:len(flat)]
    # A loop variable the body passes through unchanged keeps its value: use the input
    # itself, so what is known about it statically (e.g. a TensorArray's size) stays known.
    same = [body_graph.outputs[i] is body_graph.inputs[i] for i in range(len(flat))]
    outputs = [start if unchanged else out for start, out, unchanged in zip(flat, outputs, same)]
    if not back_prop:
        outputs = [stop_gradient(t) if cf.is_float(t) else t for t in outputs]
    return outputs
