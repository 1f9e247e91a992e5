"""Branches: `tf.cond`, `tf.switch_case` and `tf.case`.

Eagerly a branch is plain Python - the chosen function is called, the other
never runs, and a GradientTape records what ran:

>>> x = tf.constant(3.0)
>>> tf.cond(x > 0.0, lambda: x * x, lambda: -x)
<tf.Tensor: shape=(), dtype=float32, numpy=9.0>

Inside `tf.function` both branches are traced into sub-graphs (see
control_flow_ops.py) and one `If` node picks one when the graph runs. So
both branches must return the same structure and dtypes; their shapes merge
into the most specific shape that fits both:

>>> @tf.function
... def pick(flag):
...     return tf.cond(flag, lambda: tf.ones([2]), lambda: tf.zeros([3]))
>>> pick.get_concrete_function(tf.TensorSpec([], tf.bool)).outputs[0].shape
TensorShape([None])

The gradient of an `If` node is another `If` over the two branches'
gradients (each computed by re-running the branch under a tape), so a
GradientTape inside tf.function differentiates through tf.cond.
`tf.switch_case` is the n-way version (a `Case` node); `tf.case` is a chain
of tf.cond, exactly as TensorFlow builds it.
"""
import functools

import numpy as np

from ..framework import context, dtypes, errors, nest
from ..framework.dtypes import tf_type_name
from ..framework.op import Op, apply
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.gradient_ops import zeros_like
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export
from . import control_flow_ops as cf
from .array_ops import stack
from .assert_ops import Assert


# --- the If and Case ops -------------------------------------------------------------------
def _branches(attrs):
    return attrs["branches"] if "branches" in attrs else (attrs["then_branch"],
                                                          attrs["else_branch"])


def _switch_forward(selector, *inputs, _index_maps, **attrs):
    """Run the chosen branch's plan on its captured inputs."""
    graphs = _branches(attrs)
    if "branches" in attrs:  # Case: an index; out of range means the last branch (default)
        i = int(cf.scalar_input(selector, "branch_index"))
        i = i if 0 <= i < len(graphs) else len(graphs) - 1
    else:  # If: a predicate
        i = 0 if cf.scalar_input(selector, "pred") else 1
    branch_inputs = [inputs[j] for j in _index_maps[i]]
    draws = attrs.get("_draws")
    if not draws:
        return tuple(cf.run_graph(graphs[i], branch_inputs))
    # Random ops in the branches: their values are hidden extra outputs (the branch not
    # taken gives empty placeholders), which the gradient replays instead of drawing again.
    outputs = cf.run_graph(graphs[i], branch_inputs, draws=True)
    n = len(graphs[i].outputs)
    hidden = []
    for b, specs in enumerate(draws):
        hidden += outputs[n:] if b == i else [
            np.zeros([d or 0 for d in shape.dims] if shape.rank is not None else [0],
                     dtype.as_numpy_dtype) for shape, dtype in specs]
    return tuple(outputs[:n]) + tuple(hidden)


_RULES = dict(typed=(), num_outputs=None, shape=cf.from_attr("_output_shapes"),
              dtype=cf.from_attr("_Tout"))
If, StatelessIf = cf.op_pair("If", _switch_forward, **_RULES)
Case, StatelessCase = cf.op_pair("Case", _switch_forward, **_RULES)


def _switch_grad(op, *dys):
    """d(inputs) = the same switch over each branch's gradient.

    Every branch returns a gradient for every float input the tape wants
    (zeros for inputs only the other branches use), so all branches agree in
    structure - as `tf.cond` requires.
    """
    attrs, inputs = op.attrs, op.inputs[1:]
    variables = attrs["_variables"]
    n_caps = len(inputs) - len(variables)
    wanted = [j for j in range(n_caps) if op.wanted[1 + j] and cf.is_float(inputs[j])]
    wanted_vars = [k for k in range(len(variables)) if op.wanted[1 + n_caps + k]]
    if not wanted and not wanted_vars:
        return [None] * len(op.inputs)
    n_out = len(attrs["_Tout"]) - sum(len(d) for d in attrs.get("_draws", ()))
    seeds = [dy if cf.is_float(out) else None for dy, out in zip(dys[:n_out], op.outputs)]

    def branch_gradient(b):
        def gradient():
            graph, index = _branches(attrs)[b], attrs["_index_maps"][b]
            here = [cf.local(inputs[j]) for j in index]
            mine = [p for p, j in enumerate(index) if j in wanted]
            grads = cf.graph_gradients(graph, here, seeds, [here[p] for p in mine],
                                       [variables[k] for k in wanted_vars], _draws_of(op, b))
            by_input = {index[p]: g for p, g in zip(mine, grads)}
            return ([by_input[j] if j in by_input else zeros_like(inputs[j]) for j in wanted]
                    + list(grads[len(mine):]))
        return gradient

    fns = [branch_gradient(b) for b in range(len(_branches(attrs)))]
    if "branches" in attrs:
        grads = switch_case(op.inputs[0], fns)
    else:
        grads = cond(op.inputs[0], fns[0], fns[1])
    result = [None] * len(op.inputs)
    for j, g in zip(wanted + [n_caps + k for k in wanted_vars], grads):
        result[1 + j] = g
    return result


def _draws_of(op, b):
    """Branch b's random values from the forward run: hidden outputs of the node."""
    draws = op.attrs.get("_draws")
    if not draws:
        return None
    start = len(op.attrs["_Tout"]) - sum(len(d) for d in draws) + sum(len(d) for d in draws[:b])
    return [cf.local(t) for t in op.outputs[start:start + len(draws[b])]]


for _op in (If, StatelessIf, Case, StatelessCase):
    _op.def_grad(_switch_grad)


# --- building the node while tracing -----------------------------------------------------------
def _build(kind, selector, fns, labels, name):
    """Trace each branch, check they agree, and add one If/Case node; returns its outputs
    packed like the branches' results."""
    parent = context.graph_stack[-1]
    traced = [cf.trace_function(fn, parent._unique(f"{name}_{label}"))
              for fn, label in zip(fns, labels)]
    graphs = [g for g, _ in traced]
    structures = [out for _, out in traced]
    _check_same_outputs(kind, graphs, structures)
    caps, index_maps = cf.captured(graphs)
    variables, reads = cf.variables_read(graphs)
    firsts = graphs[0].outputs
    shapes = tuple(functools.reduce(lambda a, b: a.most_specific_compatible_shape(b),
                                    [g.outputs[i].shape for g in graphs])
                   for i in range(len(firsts)))
    attrs = ({"then_branch": graphs[0], "else_branch": graphs[1]} if kind == "If"
             else {"branches": graphs})
    attrs.update(_index_maps=index_maps, _output_shapes=shapes,
                 _Tout=tuple(t.dtype for t in firsts), _variables=tuple(variables))
    draws = [cf.random_outputs(g) for g in graphs]
    if any(draws):  # random ops inside: their values become hidden outputs (see forward)
        attrs["_draws"] = tuple(tuple((t.shape, t.dtype) for t in d) for d in draws)
        attrs["_output_shapes"] += tuple(t.shape for d in draws for t in d)
        attrs["_Tout"] += tuple(t.dtype for d in draws for t in d)
    stateful = cf.is_stateful(graphs)
    op = {("If", True): If, ("If", False): StatelessIf, ("Case", True): Case,
          ("Case", False): StatelessCase}[kind, stateful]
    outs = apply(op, [selector] + caps + reads, attrs)
    outs = iter(outs)
    flat = [None if t is None else next(outs) for t in cf.flatten(structures[0])]
    templates = [_merged_template([nest.flatten(s)[i] for s in structures])
                 for i in range(len(nest.flatten(structures[0])))]
    return cf.pack(structures[0], flat, templates)


def _merged_template(leaves):
    """A TensorArray output knows the element shape both branches agree on."""
    first = leaves[0]
    if cf.is_composite(first):
        shape = functools.reduce(lambda a, b: a.most_specific_compatible_shape(b),
                                 [leaf.element_shape for leaf in leaves])
        return first._with_element_shape(shape)
    return first


def _check_same_outputs(kind, graphs, structures):
    """TF's rule: every branch returns the same structure, count and dtypes."""
    names = ["true_fn", "false_fn"] if kind == "If" else [f"branches[{i}]"
                                                          for i in range(len(graphs))]
    api = "tf.cond" if kind == "If" else "tf.switch_case"

    def error(b, detail):
        return TypeError(
            f"{names[0]} and {names[b]} arguments to {api} must have the same number, type, "
            f"and overall structure of return values.\n\n{names[0]} output: {structures[0]}\n"
            f"{names[b]} output: {structures[b]}\n\nError details:\n{detail}")

    for b in range(1, len(graphs)):
        try:
            nest.assert_same_structure(structures[0], structures[b])
            _same_composites(structures[0], structures[b])
        except (ValueError, TypeError) as e:
            raise error(b, str(e)) from None
        if len(graphs[0].outputs) != len(graphs[b].outputs):
            raise ValueError(
                f"Lengths of branch outputs of {'cond' if kind == 'If' else 'case'} must match."
                f"\nlen(graphs[0].outputs): {len(graphs[0].outputs)}\n"
                f"len(graphs[{b}].outputs): {len(graphs[b].outputs)}\n"
                "(One branch returned None where the other returned a tensor.)")
        for first, other in zip(graphs[0].outputs, graphs[b].outputs):
            if first.dtype is not other.dtype:
                raise error(b, f"{first} and {other} have different types")


def _same_composites(a, b):
    for x, y in zip(nest.flatten(a), nest.flatten(b)):
        if cf.is_composite(x) != cf.is_composite(y):
            raise ValueError(f"The two structures don't have the same nested structure: "
                             f"{x!r} and {y!r} are not both TensorArrays.")


# --- tf.cond ------------------------------------------------------------------------------------
@tf_export("cond")
def cond(pred, true_fn=None, false_fn=None, name=None):
    """`true_fn()` if `pred` is true, else `false_fn()`.

    pred: a scalar bool tensor. true_fn, false_fn: functions of no arguments
    returning the same structure of tensors (checked inside tf.function).

    >>> tf.cond(tf.constant(False), lambda: tf.constant(1), lambda: tf.constant(2))
    <tf.Tensor: shape=(), dtype=int32, numpy=2>

    Eagerly only the chosen function runs. Inside tf.function both are traced
    (so a `print` in either runs once, while tracing), and one `If` node
    chooses when the graph runs.
    """
    if true_fn is None:
        raise TypeError("cond(): 'true_fn' argument required")
    if false_fn is None:
        raise TypeError("cond(): 'false_fn' argument required")
    if not callable(true_fn):
        raise TypeError("'true_fn' must be callable.")
    if not callable(false_fn):
        raise TypeError("'false_fn' must be callable.")
    if not context.graph_stack:  # eager: Python's own if
        return true_fn() if bool(convert_to_tensor(pred)) else false_fn()
    if isinstance(pred, bool):
        raise TypeError("pred must not be a Python bool", pred)
    pred = convert_to_tensor(pred)
    if pred.dtype is not dtypes.bool:
        raise errors.InvalidArgumentError(
            None, "If", f"Input 'pred' passed {tf_type_name(pred.dtype)} expected bool while "
            f"building NodeDef '{name or 'cond'}'. tf.cond needs a boolean predicate: compare "
            "(x > 0) or use tf.cast(pred, tf.bool).")
    return _build("If", pred, [true_fn, false_fn], ["true", "false"], name or "cond")


# --- tf.switch_case ------------------------------------------------------------------------------
def _branch_list(branch_fns, default, branch_index):
    """TF's argument checks; the branch functions in index order, `default` last."""
    if not isinstance(branch_index, Tensor):
        raise TypeError(f"'branch_index' must be a Tensor, got {type(branch_index)}")
    if not branch_index.dtype.is_integer:
        raise TypeError(f"'branch_index' must be an integer Tensor, got {branch_index.dtype}")
    if not branch_fns:
        raise ValueError("Must provide at least one item in 'branch_fns'")
    if not isinstance(branch_fns, (list, tuple, dict)):
        raise TypeError("'branch_fns' must be a list, tuple, or dict")
    pairs = list(branch_fns.items()) if isinstance(branch_fns, dict) else list(branch_fns)
    if all(callable(fn) for fn in pairs):
        pairs = list(enumerate(pairs))
    for pair in pairs:
        if not isinstance(pair, tuple) or len(pair) != 2:
            raise TypeError(f"Each entry in 'branch_fns' must be a 2-tuple. Received {pair}.")
        key, fn = pair
        if not isinstance(key, int):
            raise TypeError(f"key must be a Python `int`, got {type(key)}")
        if not callable(fn):
            raise TypeError(f"fn for key {key} must be callable.")
    keys = [k for k, _ in pairs]
    if min(keys) < 0 or max(keys) >= len(keys) or len(set(keys)) != len(keys):
        raise ValueError(f"branch indices (keys) must form contiguous range of [0 to "
                         f"{len(keys)}) but found {{{','.join(map(str, sorted(keys)))}}}")
    return [fn for _, fn in sorted(pairs, key=lambda p: p[0])] + (
        [default] if default is not None else [])


@tf_export("switch_case")
def switch_case(branch_index, branch_fns, default=None, name="switch_case"):
    """`branch_fns[branch_index]()`: a C-style switch.

    An index out of range runs `default`, or the last branch if there is no
    default. `branch_fns` is a list of functions, or of (index, function)
    pairs, or a dict {index: function}.

    >>> tf.switch_case(tf.constant(1), [lambda: tf.constant(10), lambda: tf.constant(20)])
    <tf.Tensor: shape=(), dtype=int32, numpy=20>
    """
    fns = _branch_list(branch_fns, default, branch_index)
    if not context.graph_stack:
        i = int(cf.scalar_input(branch_index._value, "branch_index"))
        return fns[i if 0 <= i < len(fns) else len(fns) - 1]()
    if branch_index.dtype is not dtypes.int32:
        raise TypeError(f"Input 'branch_index' of 'StatelessCase' Op has type "
                        f"{branch_index.dtype.name} that does not match expected type of int32.")
    return _build("Case", branch_index, fns, [f"branch{i}" for i in range(len(fns))],
                  name or "switch_case")


# --- tf.case ------------------------------------------------------------------------------------
def _assert(condition, predicates, message):
    """Fail with `message` unless `condition` holds (eagerly now, in a graph when it runs),
    showing the predicates: TF's tf.case does this with tf.debugging.Assert."""
    Assert(condition, [message, stack(list(predicates))], summarize=len(predicates))


def _at_most_n_true(predicates, n, message):
    from .math_ops import cast, less_equal
    from .reduction_ops import reduce_sum
    count = reduce_sum(cast(stack(list(predicates)), dtypes.int32))
    names = ", ".join(getattr(p, "name", "?") if context.graph_stack else "?"
                      for p in predicates)
    _assert(less_equal(count, n), predicates,
            f"{message}: more than {n} conditions ({names}) evaluated as True:")


def _case_pairs(pred_fn_pairs):
    if not isinstance(pred_fn_pairs, (list, tuple, dict)):
        raise TypeError("'pred_fn_pairs' must be a list, tuple, or dict. "
                        f"Received: {type(pred_fn_pairs)}")
    if isinstance(pred_fn_pairs, dict):
        pred_fn_pairs = list(pred_fn_pairs.items())
    for pair in pred_fn_pairs:
        if not isinstance(pair, tuple) or len(pair) != 2:
            raise TypeError(f"Each entry in 'pred_fn_pairs' must be a 2-tuple. Received {pair}.")
        pred, fn = pair
        if isinstance(pred, Tensor):
            if pred.dtype is not dtypes.bool:
                raise TypeError(f"pred must be Tensor of type bool: {getattr(pred, 'name', pred)}")
        else:
            raise TypeError(f"pred must be a Tensor, got: {pred}")
        if not callable(fn):
            raise TypeError(f"fn for pred {getattr(pred, 'name', pred)} must be callable.")
    return [p for p, _ in pred_fn_pairs], [f for _, f in pred_fn_pairs]


@tf_export("case")
def case(pred_fn_pairs, default=None, exclusive=False, strict=False, name="case"):
    """The function of the first true predicate: `if p0: f0() elif p1: f1() ... else default()`.

    Without `default`, the last pair is the fallback, and it is an error if
    its predicate is false too. `exclusive=True` checks that at most one
    predicate is true.

    >>> x = tf.constant(5)
    >>> tf.case([(x < 0, lambda: tf.constant(-1)), (x > 3, lambda: tf.constant(1))],
    ...         default=lambda: tf.constant(0))
    <tf.Tensor: shape=(), dtype=int32, numpy=1>

    Built as TensorFlow builds it: a chain of tf.cond, one per predicate.
    """
    predicates, actions = _case_pairs(pred_fn_pairs)
    if default is None:  # the last action is the default; it asserts its predicate
        k = len(predicates) - 1
        predicate, action, everything = predicates[k], actions[k], list(predicates)

        def default():
            _assert(predicate, everything, "Input error: None of conditions evaluated as True:")
            return action()

        predicates, actions = predicates[:k], actions[:k]
    fn = default
    for predicate, action in reversed(list(zip(predicates, actions))):
        fn = functools.partial(cond, predicate, action, fn)
    if exclusive and predicates:
        _at_most_n_true(predicates, 1, "Input error: exclusive=True")
    return fn()
