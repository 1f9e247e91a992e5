"""Gradients of a traced graph and ways to shape gradients: tf.gradients, tf.hessians,
tf.AggregationMethod, tf.grad_pass_through, tf.recompute_grad, tf.RegisterGradient,
tf.no_gradient.

>>> import minitf as tf
>>> @tf.function
... def slope(x):
...     return tf.gradients(x * x * x, x)[0]    # d(x^3)/dx = 3x^2, built into the graph
>>> slope(tf.constant(2.0))
<tf.Tensor: shape=(), dtype=float32, numpy=12.0>

tf.gradients is TF 1's way of differentiating: it walks the graph being traced backwards
from `ys` and adds the gradient ops to it. In TF 2 it works only inside tf.function;
eagerly there is no graph to walk (a tf.GradientTape records one as it goes). Here it
reuses the tape's reverse pass (framework/tape.py `backprop`) over the traced nodes.
"""
import functools

from ..framework import context, nest
from ..framework.custom_gradient import custom_gradient
from ..framework.graph import ReadVariable
from ..framework.op import TapeRecord
from ..framework.tape import GradientTape, UnconnectedGradients, backprop
from ..framework.tensor import Tensor
from ..framework.tf_export import tf_export
from .array_ops import concat, reshape, stack
from .creation_ops import zeros_like
from .shape_ops import shape as tf_shape


@tf_export("AggregationMethod")
class AggregationMethod:
    """How tf.gradients adds the gradients that reach one tensor along several paths.

    ADD_N (the DEFAULT) adds them all at once; TF's EXPERIMENTAL_TREE and
    EXPERIMENTAL_ACCUMULATE_N save memory on big graphs. The sums are equal, so minitf
    accepts all three and always adds with add_n.

    >>> tf.AggregationMethod.DEFAULT == tf.AggregationMethod.ADD_N
    True
    """

    ADD_N = 0
    DEFAULT = ADD_N
    EXPERIMENTAL_TREE = 1
    EXPERIMENTAL_ACCUMULATE_N = 2


_AGGREGATIONS = (AggregationMethod.ADD_N, AggregationMethod.EXPERIMENTAL_TREE,
                 AggregationMethod.EXPERIMENTAL_ACCUMULATE_N)


def _as_list(x):
    return list(x) if isinstance(x, (list, tuple)) else [x]


def _graph_records(graph, stop):
    """The traced nodes as the tape's records; a stopped tensor's producer is left out,
    so no gradient flows through it."""
    return [TapeRecord(node.op, tuple(node.inputs), node.outputs, node.attrs, None)
            for node in list(graph.nodes)
            if node.op.grad is not None and not any(id(t) in stop for t in node.outputs)]


def _variable_reads(graph, variable):
    return [n.outputs[0] for n in graph.nodes
            if n.op is ReadVariable and n.attrs.get("variable") is variable]


@tf_export("gradients")
def gradients(ys, xs, grad_ys=None, name="gradients", gate_gradients=False,
              aggregation_method=None, stop_gradients=None,
              unconnected_gradients=UnconnectedGradients.NONE):
    """d(sum of ys)/d(each x), as new tensors of the graph being traced (a list, one per x).

    grad_ys: the gradient flowing into each y (default ones); stop_gradients: tensors
    treated as constants; unconnected_gradients: "none" or "zero" for an x that no y
    depends on. Variables count as xs: every read of them in the graph.

    >>> tf.function(lambda x: tf.gradients(tf.reduce_sum(x * x), x))(tf.constant([1.0, 2.0]))
    [<tf.Tensor: shape=(2,), dtype=float32, numpy=array([2., 4.], dtype=float32)>]
    """
    if context.executing_eagerly():
        raise RuntimeError("tf.gradients is not supported when eager execution is enabled. "
                           "Use tf.GradientTape instead.")
    if aggregation_method is not None and aggregation_method not in _AGGREGATIONS:
        raise ValueError(f"Invalid `aggregation_method` specified {aggregation_method}. "
                         f"Accepted values are {list(_AGGREGATIONS)}.")
    unconnected = UnconnectedGradients(unconnected_gradients)
    graph = context.graph_stack[-1]
    ys = [graph.symbolic(y) for y in _as_list(ys)]
    xs = [x if getattr(x, "_is_variable", False) else
          graph.symbolic(x if isinstance(x, Tensor) else _to_tensor(x, None)) for x in _as_list(xs)]
    seeds = None if grad_ys is None else [
        None if g is None else graph.symbolic(g if isinstance(g, Tensor) else
                                              _to_tensor(g, y.dtype))
        for g, y in zip(_as_list(grad_ys), ys)]
    stop = {id(graph.symbolic(t)) for t in _as_list(stop_gradients or [])}
    sources, owners = [], []
    for i, x in enumerate(xs):
        reads = _variable_reads(graph, x) if getattr(x, "_is_variable", False) else [x]
        sources += reads
        owners += [i] * len(reads)
    found = backprop(_graph_records(graph, stop), ys, sources, seeds)
    result = [[] for _ in xs]
    for i, g in zip(owners, found):
        if g is not None:
            result[i].append(g)
    out = []
    for x, parts in zip(xs, result):
        grad = parts[0] if len(parts) == 1 else (sum(parts[1:], parts[0]) if parts else None)
        if not (x.dtype.is_floating or x.dtype.is_complex):
            grad = None  # integer xs never get a gradient
        elif grad is None and unconnected is UnconnectedGradients.ZERO:
            grad = zeros_like(x._read() if getattr(x, "_is_variable", False) else x)
        out.append(grad)
    return out


def _to_tensor(value, dtype):
    from ..framework.tensor import convert_to_tensor  # noqa: PLC0415

    return convert_to_tensor(value, dtype=dtype)


@tf_export("hessians")
def hessians(ys, xs, gate_gradients=False, aggregation_method=None, name="hessians"):
    """The matrix of second derivatives of sum(ys) for each x, shaped x.shape + x.shape:
    the gradient of each entry of the gradient. Only inside tf.function, like tf.gradients.

    >>> f = tf.function(lambda x: tf.hessians(tf.reduce_sum(x ** 3), x)[0])
    >>> f(tf.constant([1.0, 2.0])).numpy().tolist()   # diag(6x)
    [[6.0, 0.0], [0.0, 12.0]]
    """
    xs = _as_list(xs)
    firsts = gradients(ys, xs, gate_gradients=gate_gradients,
                       aggregation_method=aggregation_method)
    result = []
    for gradient, x in zip(firsts, xs):
        if gradient is None:
            raise ValueError("Tried to convert 'tensor' to a tensor and failed. Error: None "
                             "values not supported. (ys does not depend on this x, so it "
                             "has no Hessian.)")
        n = x.shape.num_elements()
        if n is None:
            raise ValueError(f"tf.hessians needs the size of x ({x.shape}) while tracing in "
                             "minitf, which unrolls one gradient per entry.")
        flat = reshape(gradient, [-1])
        rows = [gradients(flat[j], x)[0] for j in range(n)]
        rows = [zeros_like(x) if r is None else r for r in rows]
        whole = stack(rows) if rows else zeros_like(reshape(x, [0]))
        result.append(reshape(whole, concat([tf_shape(x), tf_shape(x)], 0)))
    return result


# --- shaping gradients -----------------------------------------------------------------------
@tf_export("grad_pass_through")
def grad_pass_through(f):
    """Wrap `f` so its gradient is the identity: the output gradient passes straight to
    the inputs (a straight-through estimator for rounding, quantizing, sampling).
    Variables read by `f` get no gradient, as in TF.

    >>> x = tf.constant([1.3, 2.6])
    >>> with tf.GradientTape() as tape:
    ...     tape.watch(x)
    ...     y = tf.grad_pass_through(tf.round)(x) * 2.0
    >>> tape.gradient(y, x)
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([2., 2.], dtype=float32)>
    """
    @functools.wraps(f)
    def wrapped(*args, **kwargs):
        @custom_gradient
        def _grad_pass_through_op(*args):
            def grad(*dys, variables=None):
                dys = list(dys[0]) if len(dys) == 1 and isinstance(dys[0], list) else list(dys)
                if variables is not None:
                    return dys, [None] * len(variables)
                return dys
            return f(*args, **kwargs), grad
        return _grad_pass_through_op(*args)
    return wrapped


@tf_export("recompute_grad")
def recompute_grad(f):
    """Wrap `f` so its intermediate results are not kept for the gradient: the forward
    pass runs without a tape, and the backward pass runs `f` again under one (less
    memory, more compute). Values and gradients are those of `f` itself.

    >>> g = tf.recompute_grad(lambda x: tf.sin(x) * x)
    >>> x = tf.constant(1.0)
    >>> with tf.GradientTape() as tape:
    ...     tape.watch(x)
    ...     y = g(x)
    >>> round(float(tape.gradient(y, x)), 6)   # cos(1) * 1 + sin(1)
    1.381773
    """
    @functools.wraps(f)
    def inner(*args, **kwargs):
        @custom_gradient
        def forward(*xs):
            def grad(*dresult, variables=None):
                dresult = dresult[0] if len(dresult) == 1 else list(dresult)
                sources = list(xs) + list(variables or [])
                with GradientTape() as tape:
                    tape.watch(list(xs))
                    again = f(*xs, **kwargs)
                grads = tape.gradient(again, sources, output_gradients=dresult)
                if variables is None:
                    return grads
                return grads[:len(xs)], grads[len(xs):]
            return f(*xs, **kwargs), grad
        return forward(*args)
    return inner


# --- the gradient registry -------------------------------------------------------------------
_REGISTERED = {}  # op type -> where it was registered (for names minitf has no op of)


def _ops_named(op_type):
    """minitf's Op records of TF type `op_type` (several when e.g. a static and a dynamic
    variant share TF's name): every Op object in a loaded minitf module."""
    import sys  # noqa: PLC0415

    from ..framework.op import Op  # noqa: PLC0415

    found = {}
    for module_name, module in list(sys.modules.items()):
        if module is None or not module_name.startswith("minitf"):
            continue
        for value in list(vars(module).values()):
            if isinstance(value, Op) and value.name == op_type:
                found[id(value)] = value
    return list(found.values())


def _register(op_type, grad_fn):
    if not isinstance(op_type, str):
        raise TypeError("op_type must be a string")
    ops = _ops_named(op_type)
    previous = next((op.grad for op in ops if op.grad is not None
                     and not getattr(op.grad, "not_registered", False)), None)
    if previous is not None or op_type in _REGISTERED:
        where = _REGISTERED.get(op_type) or getattr(previous, "__module__", "?")
        raise KeyError(f"Registering two gradient with name '{op_type}'! (Previous "
                       f"registration was in {where})")
    _REGISTERED[op_type] = getattr(grad_fn, "__module__", None) or "?"
    for op in ops:
        op.grad = grad_fn


class RegisterGradient:
    """Decorator: `@tf.RegisterGradient("OpType")` makes `fn(op, *output_grads)` the
    gradient of every op of that type (op.inputs, op.outputs, op.attrs). An op type that
    already has a gradient raises KeyError, as in TF.

    >>> @tf.RegisterGradient("MyDoubleNothing")   # an op name minitf does not have
    ... def _my_grad(op, grad):
    ...     return grad
    """

    def __init__(self, op_type):
        if not isinstance(op_type, str):
            raise TypeError("op_type must be a string")
        self._op_type = op_type

    def __call__(self, f):
        _register(self._op_type, f)
        return f


tf_export("RegisterGradient")(RegisterGradient)


def _no_gradient(op, *dys):
    return [None] * len(op.inputs)


@tf_export("no_gradient")
def no_gradient(op_type):
    """Declare that ops of type `op_type` have no gradient: paths through them carry
    none (the gradient is None), instead of an error. Raises KeyError if the type has a
    gradient already.

    >>> tf.no_gradient("MyIntegerOnlyOp")
    """
    _register(op_type, _no_gradient)
