"""`tf.compat.v1.Session`: run part of a TF1 graph, feeding its placeholders.

`sess.run(fetches, feed_dict)` walks back from the fetched tensors and operations
to what they need (a fed tensor needs nothing: its value is given), checks every
placeholder on the way is fed, and runs just those nodes with the graph executor
(framework/executor.py) - the same lean loop that runs a `tf.function`. Fetches
may be nested in lists, tuples, namedtuples and dicts; the result has the same
structure, with NumPy values (None for an operation):

>>> import minitf as tf
>>> with tf.compat.v1.Graph().as_default():
...     x = tf.compat.v1.placeholder(tf.float32, shape=[None])
...     total = tf.reduce_sum(x)
...     with tf.compat.v1.Session() as sess:
...         print(sess.run({"sum": total, "both": [x, total]}, feed_dict={x: [1.0, 2.0]}))
{'sum': np.float32(3.0), 'both': [array([1., 2.], dtype=float32), np.float32(3.0)]}

Variables belong to a session, not to the graph: each session starts with every
variable uninitialized, and `sess.run(tf.compat.v1.global_variables_initializer())`
gives them their initial values *in that session*. (minitf keeps each session's
values and swaps them into the variables while the session runs.)

TensorFlow's is `tensorflow/python/client/session.py`.
"""
import collections.abc
import threading

import numpy as np

from ...framework import dtypes, errors, executor
from ...framework.dtypes import tf_type_name
from ...framework.graph import AssignVariable, Node, Placeholder, ReadVariable, SymbolicTensor
from ...framework.tensor import EagerTensor, convert_to_tensor
from ...framework.tf_export import tf_export
from ...framework.variables import Variable
from .graph_mode import get_default_graph

_RUN_LOCK = threading.RLock()  # a run swaps values into shared Variable objects
_sessions = threading.local()  # .stack: the sessions made default by `with`, innermost last


def _session_stack():
    stack = getattr(_sessions, "stack", None)
    if stack is None:
        stack = _sessions.stack = []
    return stack


@tf_export("compat.v1.get_default_session")
def get_default_session():
    """The session of the innermost `with session:` (or `session.as_default()`), or None.

    >>> tf.compat.v1.get_default_session() is None
    True
    """
    stack = _session_stack()
    return stack[-1] if stack else None


class _DefaultSession:
    def __init__(self, session, graph_too):
        self._session, self._graph_too, self._scope = session, graph_too, None

    def __enter__(self):
        _session_stack().append(self._session)
        if self._graph_too:
            self._scope = self._session.graph.as_default()
            self._scope.__enter__()
        return self._session

    def __exit__(self, *exc):
        if self._scope is not None:
            self._scope.__exit__(*exc)
        _session_stack().remove(self._session)


@tf_export("compat.v1.Session")
class Session:
    """Runs operations of a graph (the default graph unless `graph=` says otherwise).

    `with Session() as sess:` also makes it the default session and its graph the
    default graph; `close()` frees its variables' values.
    """

    def __init__(self, target="", graph=None, config=None):
        self._graph = get_default_graph() if graph is None else graph
        self._target, self._config = target, config
        self._closed = False
        self._values = {}  # id(variable) -> (variable, its value in this session)
        self._plans = {}
        self._reads = {}  # id(variable) -> the node output that reads it for a fetch
        self._entered = []

    @property
    def graph(self):
        return self._graph

    @property
    def sess_str(self):
        return self._target

    def as_default(self):
        """A context manager that makes this the default session (`Tensor.eval` uses it)."""
        return _DefaultSession(self, graph_too=False)

    def __enter__(self):
        scope = _DefaultSession(self, graph_too=True)
        self._entered.append(scope)
        return scope.__enter__()

    def __exit__(self, *exc):
        self._entered.pop().__exit__(*exc)
        self.close()

    def close(self):
        """Free this session's variable values; `run` raises from now on."""
        self._closed = True
        self._values.clear()
        self._plans.clear()

    def run(self, fetches, feed_dict=None, options=None, run_metadata=None):
        """The values of `fetches` (a tensor, operation, variable or tensor name, or lists,
        tuples, dicts of them), computed with `feed_dict`'s values for its keys."""
        if self._closed:
            raise RuntimeError("Attempted to use a closed Session.")
        if not self._graph.nodes:
            raise RuntimeError("The Session graph is empty. Add operations to the graph before "
                               "calling run().")
        leaves = []
        rebuild = _flatten(fetches, leaves)
        targets = [self._as_fetch(leaf) for leaf in leaves]
        feeds = self._feeds(feed_dict)
        values = self._execute([t for t in targets if isinstance(t, (SymbolicTensor, Node))],
                               feeds)
        results = [_fetched(t, values) for t in targets]
        return rebuild(iter(results))

    # --- fetches and feeds --------------------------------------------------------------
    def _as_fetch(self, leaf):
        if isinstance(leaf, str):
            return _by_name(self._graph, leaf, "Fetch argument")
        if getattr(leaf, "_is_variable", False):
            read = self._reads.get(id(leaf))
            if read is None:
                read = self._reads[id(leaf)] = (leaf, self._graph.read_variable(leaf))
            return read[1]
        if isinstance(leaf, SymbolicTensor):
            if leaf.graph is not self._graph:
                raise ValueError(f"Tensor {leaf!r} is not an element of this graph. (It was "
                                 "built in another tf.Graph than this session's.)")
            return leaf
        if isinstance(leaf, (Node, EagerTensor)):
            return leaf
        raise TypeError(f"Argument `fetch` = {leaf!r} has invalid type "
                        f"\"{type(leaf).__name__}\" must be a string or Tensor. (Can not "
                        f"convert a {type(leaf).__name__} into a Tensor or Operation.)")

    def _feeds(self, feed_dict):
        feeds = {}
        for key, value in (feed_dict or {}).items():
            tensor = _by_name(self._graph, key, "Cannot interpret feed_dict key as Tensor:") \
                if isinstance(key, str) else key
            if not isinstance(tensor, SymbolicTensor):
                raise TypeError(f"Cannot interpret feed_dict key as Tensor: Can not convert a "
                                f"{type(key).__name__} into a Tensor. (Feed the tensors of "
                                "the graph: placeholders, or any tensor whose value you give.)")
            if isinstance(value, SymbolicTensor):
                raise TypeError(
                    "The value of a feed cannot be a tf.Tensor object. Acceptable feed values "
                    "include Python scalars, strings, lists, numpy ndarrays, or TensorHandles. "
                    f"For reference, the tensor object was {value} which was passed to the "
                    f"argument `feed_dict` with key {tensor}.")
            if tensor.dtype == dtypes.string:  # text becomes bytes, as in tf.constant
                array = convert_to_tensor(value, dtype=dtypes.string)._value
            else:
                array = np.asarray(value.numpy() if isinstance(value, EagerTensor) else value,
                                   dtype=tensor.dtype.as_numpy_dtype)
            if not tensor.shape.is_compatible_with(array.shape):
                raise ValueError(f"Cannot feed value of shape {array.shape} for Tensor "
                                 f"{tensor.name}, which has shape {tensor.shape}")
            feeds[id(tensor)] = (tensor, array)
        return feeds

    # --- running ----------------------------------------------------------------------
    def _execute(self, targets, feeds):
        if not targets:
            return {}
        key = (len(self._graph.nodes), tuple(id(t) for t in targets), tuple(feeds))
        plan = self._plans.get(key)
        if plan is None:
            plan = self._plans[key] = _Plan(self._graph, targets, feeds)
        with _RUN_LOCK:
            self._check_initialized(plan)
            saved = [(v, v._value, v._cached) for v in plan.variables]
            for v in plan.variables:
                if id(v) in self._values:
                    v._value, v._cached = self._values[id(v)][1], None
            try:
                arrays = executor.run(plan.plan, [feeds[i][1] for i in plan.fed])
            finally:
                for v, value, cached in saved:
                    if id(v) in self._values or v._value is not value:  # kept, or assigned
                        self._values[id(v)] = (v, v._value)
                    v._value, v._cached = value, cached
        return {id(t): a for t, a in zip(plan.outputs, arrays)}

    def _check_initialized(self, plan):
        """TF's error for reading a variable this session never gave a value."""
        assigned = set()
        for node in plan.stateful:
            variable = node.attrs["variable"]
            if id(variable) in self._values or id(variable) in assigned:
                continue
            if node.op is AssignVariable and node.attrs["method"] == "assign":
                assigned.add(id(variable))
                continue
            name = variable.name.rpartition(":")[0]
            raise errors.FailedPreconditionError(
                None, node.op.name,
                f"Could not find variable {name}. This could mean that the variable has been "
                "deleted. In TF1, it can also mean the variable is uninitialized. Debug info: "
                "container=localhost, status error message=Container localhost does not exist. "
                f"(Could not find resource: localhost/{name})\n\t [[{{{{node {node.name}}}}}]]\n"
                "Variables live in the session: run tf.compat.v1.global_variables_initializer() "
                "(or the variable's initializer) in this session first.")


class _Plan:
    """The nodes one `run` needs, in graph order, as an executor plan."""

    def __init__(self, graph, targets, feeds):
        needed, stack = set(), []
        for t in targets:
            if isinstance(t, Node):
                stack.append(t)
            elif id(t) not in feeds:
                stack.append(t.node)
        while stack:
            node = stack.pop()
            if id(node) in needed:
                continue
            needed.add(id(node))
            stack.extend(t.node for t in node.inputs if id(t) not in feeds)
        nodes = [n for n in graph.nodes if id(n) in needed]
        for node in nodes:
            if node.op is Placeholder:
                raise _unfed(node)
        self.outputs = [t for t in targets if isinstance(t, SymbolicTensor)]
        full = executor.compile_graph(graph, self.outputs)
        slot = {}
        for n in graph.nodes:
            for t in n.outputs:
                slot[id(t)] = len(slot)
        self.fed = list(feeds)
        full.steps = [step for step in full.steps if id(step[5]) in needed]
        full.input_slots = [slot[i] for i in self.fed]
        self.plan = full
        self.stateful = [n for n in _with_subgraphs(nodes)
                         if n.op is ReadVariable or n.op is AssignVariable]
        unique = {id(n.attrs["variable"]): n.attrs["variable"] for n in self.stateful}
        self.variables = list(unique.values())


def _with_subgraphs(nodes):
    """The nodes and, in place of a control-flow node, its sub-graphs' nodes first."""
    from ...framework.graph import Graph  # noqa: PLC0415

    for node in nodes:
        for value in node.attrs.values():
            for sub in value if isinstance(value, (list, tuple)) else (value,):
                if isinstance(sub, Graph):
                    yield from _with_subgraphs(sub.nodes)
        yield node


def _unfed(node):
    tensor = node.outputs[0]
    shape = tensor.shape
    dims = "" if shape.rank is None else " and shape [" + ",".join(
        "?" if d is None else str(d) for d in shape) + "]"
    return errors.InvalidArgumentError(
        None, "Placeholder",
        f"You must feed a value for placeholder tensor '{node.name}' with dtype "
        f"{tf_type_name(tensor.dtype)}{dims}\n\t [[{{{{node {node.name}}}}}]]\n"
        "A placeholder has no value of its own: pass one in Session.run's "
        f"feed_dict={{{node.name}: value}}.")


def _fetched(target, values):
    if isinstance(target, Node):
        return None
    if isinstance(target, EagerTensor):
        return target.numpy()
    array = values[id(target)]
    return array[()] if array.ndim == 0 else array


def _by_name(graph, name, what):
    op_name, _, index = name.partition(":")
    for node in graph.nodes:
        if node.name == op_name:
            if not index:
                return node
            if int(index) < len(node.outputs):
                return node.outputs[int(index)]
    prefix = f"{what} " if what.endswith(":") else ""
    raise (TypeError if prefix else ValueError)(
        f"{prefix}The name '{name}' refers to a Tensor which does not exist. The operation, "
        f"'{op_name}', does not exist in the graph.")


def _flatten(fetches, leaves):
    """Collect the leaves of nested fetches; return a function that rebuilds the structure
    from an iterator over one value per leaf."""
    if isinstance(fetches, (list, tuple)) and not isinstance(fetches, str):
        parts = [_flatten(f, leaves) for f in fetches]
        if isinstance(fetches, tuple) and hasattr(fetches, "_fields"):  # a namedtuple
            return lambda it: type(fetches)(*[p(it) for p in parts])
        return lambda it: type(fetches)(p(it) for p in parts)
    if isinstance(fetches, collections.abc.Mapping):
        parts = [(k, _flatten(v, leaves)) for k, v in fetches.items()]
        return lambda it: type(fetches)((k, p(it)) for k, p in parts)
    if fetches is None:
        raise TypeError('Argument `fetch` = None has invalid type "NoneType". Cannot be None')
    leaves.append(fetches)
    return next


# TF1 graph tensors and operations run themselves in the default session. Attached here,
# as ops/operators.py attaches arithmetic to Tensor: the framework knows no sessions.
def _tensor_eval(self, feed_dict=None, session=None):
    """`tensor.eval(feed_dict)`: `session.run(tensor, feed_dict)` in the default session.

    >>> with tf.compat.v1.Graph().as_default():
    ...     x = tf.compat.v1.placeholder(tf.float32, [])
    ...     with tf.compat.v1.Session():
    ...         print((x * 2.0).eval({x: 4.0}))
    8.0
    """
    session = session or get_default_session()
    if session is None:
        raise ValueError("Cannot evaluate tensor using `eval()`: No default session is "
                         "registered. Use `with sess.as_default()` or pass an explicit session "
                         "to `eval(session=sess)`")
    return session.run(self, feed_dict)


def _operation_run(self, feed_dict=None, session=None):
    """`operation.run(feed_dict)`: run it in the default session (returns None)."""
    session = session or get_default_session()
    if session is None:
        raise ValueError("Cannot execute operation using `run()`: No default session is "
                         "registered. Use `with sess.as_default():` or pass an explicit session "
                         "to `run(session=sess)`")
    session.run(self, feed_dict)


SymbolicTensor.eval = Variable.eval = _tensor_eval
Node.run = _operation_run


@tf_export("compat.v1.InteractiveSession")
class InteractiveSession(Session):
    """A Session that makes itself the default session when made (for notebooks and
    shells); `close()` undoes that.

    >>> with tf.compat.v1.Graph().as_default():
    ...     sess = tf.compat.v1.InteractiveSession()
    ...     print(sess.run(tf.constant(2.0) * 3.0), tf.compat.v1.get_default_session() is sess)
    ...     sess.close()
    6.0 True
    """

    def __init__(self, target="", graph=None, config=None):
        super().__init__(target, graph, config)
        self._default_scope = self.as_default()
        self._default_scope.__enter__()

    def close(self):
        super().close()
        if self._default_scope is not None:
            self._default_scope.__exit__(None, None, None)
            self._default_scope = None

