"""Small helpers around tensors and graphs: tf.shape_n, tf.identity_n, tf.parallel_stack,
tf.is_tensor, tf.is_symbolic_tensor, tf.get_static_value, tf.control_dependencies,
tf.group, tf.no_op, tf.tuple, tf.init_scope, tf.inside_function,
tf.get_current_name_scope, tf.timestamp.

>>> import minitf as tf
>>> tf.is_tensor(tf.constant(1.0)), tf.is_tensor(1.0)
(True, False)
>>> tf.get_static_value(tf.constant([1, 2]))
array([1, 2], dtype=int32)

Ordering in graphs. TF 1 graphs ran only what a fetch needed, so side effects had to be
chained with tf.control_dependencies / tf.group. TF 2's tf.function adds "automatic
control dependencies": stateful ops (assignments, prints, asserts) run in program order.
minitf's graphs keep every node in trace order and never prune a stateful one, which is
the same guarantee; so here control_dependencies checks its inputs and orders nothing
more, and group/no_op give a NoOp node to return or depend on.
"""
import builtins
import contextlib
import threading
import time

import numpy as np

from ..framework import context, dtypes
from ..framework.graph import SymbolicTensor
from ..framework.op import Op, apply
from ..framework.tensor import Tensor, convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export
from .array_ops import stack
from .creation_ops import identity
from .shape_ops import constant_value, shape as tf_shape


@tf_export("shape_n")
def shape_n(input, out_type=dtypes.int32, name=None):  # noqa: A002 - TF's name
    """The shapes of several tensors at once: [tf.shape(t, out_type) for t in input].

    >>> [s.numpy().tolist() for s in tf.shape_n([[1, 2], [[1], [2], [3]]])]
    [[2], [3, 1]]
    """
    return [tf_shape(convert_to_tensor(t), out_type=out_type) for t in input]


@tf_export("identity_n")
def identity_n(input, name=None):  # noqa: A002
    """tf.identity of each tensor in a list (the gradient passes through each).

    >>> [t.dtype.name for t in tf.identity_n([1, [2.0, 3.0]])]
    ['int32', 'float32']
    """
    return [identity(t) for t in input]


@tf_export("parallel_stack")
def parallel_stack(values, name="parallel_stack"):
    """tf.stack for graphs: TF copies each piece into the result as soon as it is ready.
    It exists only inside tf.function; eagerly TF raises RuntimeError, as here.

    >>> tf.function(lambda: tf.parallel_stack([[1, 2], [3, 4]]))().numpy().tolist()
    [[1, 2], [3, 4]]
    """
    if context.executing_eagerly():
        raise RuntimeError("tf.parallel_stack() is not compatible with eager execution.")
    values = [convert_to_tensor(v) for v in values]
    for v in values:
        if not v.shape.is_fully_defined():
            raise ValueError(f"Shape {v.shape} must be fully defined: tf.parallel_stack "
                             "allocates its result before the pieces arrive (use tf.stack).")
    return stack(values)


def _tensor_types():
    from .indexed_slices import IndexedSlices  # noqa: PLC0415 - these import many ops
    from .sparse_tensor import SparseTensor  # noqa: PLC0415

    types = [Tensor, SparseTensor, IndexedSlices]
    try:
        from ..ragged.ragged_tensor import RaggedTensor  # noqa: PLC0415

        types.append(RaggedTensor)
    except ImportError:  # pragma: no cover - tf.ragged is part of minitf
        pass
    return builtins.tuple(types)


@tf_export("is_tensor")
def is_tensor(x):
    """True for TF's tensor types: tf.Tensor (eager or symbolic), tf.Variable,
    tf.SparseTensor, tf.RaggedTensor, tf.IndexedSlices; False for NumPy arrays and Python
    numbers, even though ops accept them.

    >>> tf.is_tensor(tf.Variable(1.0)), tf.is_tensor(np.ones(2))
    (True, False)
    """
    return isinstance(x, _tensor_types()) or getattr(x, "_is_variable", False)


@tf_export("is_symbolic_tensor")
def is_symbolic_tensor(tensor):
    """True for a tensor of a graph being traced (it has no value yet), False for eager
    tensors and everything else.

    >>> tf.is_symbolic_tensor(tf.constant(1.0))
    False
    >>> tf.function(lambda x: tf.constant(tf.is_symbolic_tensor(x)))(tf.constant(1.0))
    <tf.Tensor: shape=(), dtype=bool, numpy=True>
    """
    return isinstance(tensor, SymbolicTensor)


@tf_export("get_static_value")
def get_static_value(tensor, partial=False):
    """The value of `tensor` if it is known without running a graph, else None.

    Eager tensors give their NumPy value; inside tf.function, constants, shapes that are
    fully known and arithmetic on them are worked out (TF's constant folding of
    tensor_util.constant_value); placeholders and variables give None. Python values
    come back unchanged.

    >>> tf.get_static_value([1, 2])
    [1, 2]
    """
    if getattr(tensor, "_is_variable", False):
        return None
    if not isinstance(tensor, Tensor):
        return tensor
    if not isinstance(tensor, SymbolicTensor):
        return tensor.numpy()
    node = tensor.node
    if node.op.name in ("Shape", "Size", "Rank"):
        source = node.inputs[0].shape
        if node.op.name == "Rank":
            return None if source.rank is None else np.array(source.rank, np.int32)
        if source.is_fully_defined():
            dims = np.array(source.as_list(), tensor.dtype.as_numpy_dtype)
            return dims if node.op.name == "Shape" else np.array(dims.prod(), dims.dtype)
        return None
    value = constant_value(tensor)
    return None if value is None else np.asarray(value)


# --- ordering: control_dependencies, group, no_op, tuple --------------------------------------
NoOp = Op("NoOp", lambda *inputs: (), typed=(), num_outputs=0, shape=lambda *s: ())


def _operation_types():
    from ..framework.graph import Node  # noqa: PLC0415

    return (Tensor, Node)


class _NullContextmanager:
    def __enter__(self):
        return None

    def __exit__(self, *exc):
        return False


@tf_export("control_dependencies")
def control_dependencies(control_inputs):
    """`with tf.control_dependencies([a, b]):` -- ops created inside run after a and b.

    Eagerly every op runs at once, so TF only calls the callables among the inputs.
    In tf.function, minitf (like TF 2's automatic control dependencies) already runs
    stateful nodes in program order; the inputs are checked, as TF does.

    >>> with tf.control_dependencies([tf.constant(1)]):
    ...     y = tf.constant(2) + 1
    >>> int(y)
    3
    """
    if context.executing_eagerly():
        for control in control_inputs or ():
            if callable(control):
                control()
        return _NullContextmanager()
    for control in control_inputs or ():
        if not (isinstance(control, _operation_types()) or callable(control)
                or getattr(control, "_is_variable", False)):
            raise TypeError(f"Control input must be Operation or Tensor: {control}")
    return _NullContextmanager()


def _no_op_node(inputs):
    graph = context.graph_stack[-1]
    inputs = [graph.symbolic(t) for t in inputs if isinstance(t, Tensor)]
    return graph._add(NoOp, inputs, {}, (), ())


@tf_export("no_op")
def no_op(name=None):
    """An op that does nothing: None eagerly, a NoOp node (an Operation) in a graph.

    >>> tf.no_op() is None
    True
    """
    if context.executing_eagerly():
        return None
    return _no_op_node([])


@tf_export("group")
def group(*inputs, **kwargs):
    """One op that finishes when all of `inputs` have: None eagerly, a NoOp node that
    depends on them in a graph.

    >>> tf.group(tf.constant(1), tf.constant(2)) is None
    True
    """
    name = kwargs.pop("name", None)
    if kwargs:
        raise ValueError("Unknown keyword arguments: " + ", ".join(kwargs.keys()))
    del name
    if context.executing_eagerly():
        return None
    flat = []
    for item in inputs:
        flat.extend(item if isinstance(item, (list, builtins.tuple)) else [item])
    for item in flat:
        if item is not None and not (isinstance(item, _operation_types())
                                     or getattr(item, "_is_variable", False)):
            raise TypeError(f"'{item}' is not a tf.Tensor or tf.Operation: tf.group waits for "
                            "ops and tensors only.")
    return _no_op_node([t for t in flat if isinstance(t, Tensor)])


@tf_export("tuple")
def tuple(tensors, control_inputs=None, name=None):  # noqa: A001 - TF's name
    """The tensors back, each available only once all are (a barrier in TF 1 graphs).
    Eagerly TF returns `tensors` unchanged; in a graph, an identity of each (None stays).

    >>> [int(t) for t in tf.tuple([tf.constant(1), tf.constant(2)])]
    [1, 2]
    """
    if context.executing_eagerly():
        return tensors
    if control_inputs is not None:
        control_dependencies(control_inputs)  # checks them, as TF does
    return [None if t is None else identity(t) for t in tensors]


# --- init_scope, inside_function, get_current_name_scope --------------------------------------
_lifted = threading.local()  # graphs an init_scope stepped out of, on this thread


@tf_export("init_scope")
@contextlib.contextmanager
def init_scope():
    """Step out of every tf.function being traced (and out of gradient tapes) into eager
    mode: code inside runs once, at trace time. Keras builds variables this way.

    >>> @tf.function
    ... def f():
    ...     with tf.init_scope():
    ...         eager = tf.executing_eagerly()
    ...     return tf.constant(eager)
    >>> bool(f())
    True
    """
    saved_graphs, saved_tapes = list(context.graph_stack), list(context.tape_stack)
    stack = getattr(_lifted, "stack", None)
    if stack is None:
        stack = _lifted.stack = []
    stack.append(saved_graphs)
    context.graph_stack[:] = []
    context.tape_stack[:] = []
    try:
        yield
    finally:
        stack.pop()
        context.graph_stack[:] = saved_graphs
        context.tape_stack[:] = saved_tapes


@tf_export("inside_function")
def inside_function():
    """True while a tf.function is being traced (also inside its tf.init_scope, as in TF).

    >>> tf.inside_function()
    False
    >>> bool(tf.function(lambda: tf.constant(tf.inside_function()))())
    True
    """
    return bool(context.graph_stack) or any(getattr(_lifted, "stack", None) or ())


@tf_export("get_current_name_scope")
def get_current_name_scope():
    """The full name of the innermost open tf.name_scope, without the trailing '/'.

    >>> with tf.name_scope("outer"):
    ...     with tf.name_scope("inner"):
    ...         tf.get_current_name_scope()
    'outer/inner'
    """
    return context.current_name_scope().rstrip("/")


# --- timestamp -------------------------------------------------------------------------------
Timestamp = Op("Timestamp", lambda: np.array(time.time(), np.float64), typed=(),
               stateful=True, dtype=dtypes.float64, shape=lambda: TensorShape([]))


@tf_export("timestamp")
def timestamp(name=None):
    """Seconds since the Unix epoch as a float64 scalar, read when the op runs (inside
    tf.function: on every call, not once at trace time).

    >>> float(tf.timestamp()) > 1.7e9
    True
    """
    return apply(Timestamp, [])


# --- guarantee_const -------------------------------------------------------------------------
GuaranteeConst = Op("GuaranteeConst", lambda x: x, typed=(), shape=lambda s: s)


@GuaranteeConst.def_grad
def _guarantee_const_grad(op, dy):
    raise LookupError("gradient registry has no entry for: GuaranteeConst (TensorFlow defines "
                      "no gradient for it: the value is promised constant; use tf.identity)")


_guarantee_const_grad.not_registered = True


@tf_export("guarantee_const")
def guarantee_const(input, name=None):  # noqa: A002
    """The input, with a promise to TF's graph optimizers that its value never changes
    (TF marks it "Not for public use" and deprecated). Asking for its gradient raises
    LookupError, as in TF.

    >>> tf.guarantee_const(tf.constant([1.0, 2.0]))
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([1., 2.], dtype=float32)>
    """
    return apply(GuaranteeConst, [convert_to_tensor(input)])
