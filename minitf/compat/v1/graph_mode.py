"""TF1's graph mode: a default graph that ops are added to, and placeholders to feed.

In TF 1, `y = x * 2.0` did not compute anything: it added a node to the *default
graph*, and `Session.run` computed it later. minitf's graphs are the ones
`tf.function` traces (framework/graph.py): while a graph is on the thread's graph
stack, every op adds a node instead of running. `Graph().as_default()` pushes
one for a `with` block; `disable_eager_execution()` pushes the default graph for
good (until `enable_eager_execution()`):

>>> import minitf as tf
>>> with tf.compat.v1.Graph().as_default() as g:
...     x = tf.compat.v1.placeholder(tf.float32, shape=[None, 3], name="x")
...     y = x * 2.0
...     print(tf.executing_eagerly(), y.graph is g)
False True
>>> print(x)
Tensor("x:0", shape=(None, 3), dtype=float32)
>>> tf.executing_eagerly()          # the `with` block is over: eager again
True

TensorFlow's are in `tensorflow/python/framework/ops.py` and `ops/array_ops.py`.
"""
import contextlib
import threading

from ...framework import context, dtypes
from ...framework import graph as _graph
from ...framework.tensor_shape import TensorShape
from ...framework.tf_export import tf_export


@tf_export("Graph", "compat.v1.Graph")
class Graph(_graph.Graph):
    """A TF1 graph: `with tf.Graph().as_default():` sends new ops here, and a `Session`
    runs them. It is minitf's graph (framework/graph.py) - the kind `tf.function`
    traces - except that its tensors are hashable, so they can be `feed_dict` keys
    (TF's function graphs, `FuncGraph`, refuse that the same way).

    >>> g = tf.Graph()
    >>> with g.as_default():
    ...     y = tf.compat.v1.placeholder(tf.float32, name="x") * 2.0
    >>> [(op.name, op.type) for op in g.get_operations()]
    [('x', 'Placeholder'), ('Const', 'Const'), ('Mul', 'Mul')]
    """

    building_function = False

_default = [None]  # the process's global default graph (made on first use, as in TF)
_local = threading.local()  # .pushed: the graph disable_eager_execution pushed on this thread


def _pushed():
    return getattr(_local, "pushed", None)


def _global_graph():
    if _default[0] is None:
        _default[0] = Graph("graph")
    return _default[0]


@tf_export("compat.v1.get_default_graph")
def get_default_graph():
    """The graph new ops go to: the innermost `as_default()` graph (or the graph a
    tf.function is tracing), else the global default graph.

    >>> g = tf.compat.v1.Graph()
    >>> with g.as_default():
    ...     tf.compat.v1.get_default_graph() is g
    True
    """
    stack = context.graph_stack
    return stack[-1] if stack else _global_graph()


@tf_export("compat.v1.reset_default_graph")
def reset_default_graph():
    """Replace the global default graph by an empty one (outside any `as_default` block).

    >>> before = tf.compat.v1.get_default_graph()
    >>> tf.compat.v1.reset_default_graph()
    >>> tf.compat.v1.get_default_graph() is before
    False
    """
    stack = list(context.graph_stack)
    pushed = _pushed()
    if [g for g in stack if g is not pushed]:
        raise AssertionError(
            "Do not use tf.reset_default_graph() to clear nested graphs. If you need a cleared "
            "graph, exit the nesting and create a new graph.")
    _default[0] = Graph("graph")
    if pushed is not None:  # graph mode: the new default graph takes the old one's place
        context.graph_stack.remove(pushed)
        context.graph_stack.append(_default[0])
        _local.pushed = _default[0]


@tf_export("compat.v1.disable_eager_execution")
def disable_eager_execution():
    """TF1's graph mode from here on: ops add nodes to the default graph, and
    `Session.run` computes them. Undo it with `enable_eager_execution()`.

    minitf keeps the switch on the calling thread only, and (unlike TF, which refuses
    once anything ran) lets `enable_eager_execution()` switch back at any time; tests
    use `graph_mode()` below so graph mode never outlives them.

    >>> tf.compat.v1.disable_eager_execution()
    >>> tf.executing_eagerly()
    False
    >>> tf.compat.v1.enable_eager_execution()
    >>> tf.executing_eagerly()
    True
    """
    if _pushed() is None:
        graph = _global_graph()
        _push_bottom(graph)
        _local.pushed = graph


def _push_bottom(graph):
    """Put the default graph under any graphs already on the stack (it is the outermost)."""
    above = list(context.graph_stack)
    context.graph_stack[:] = []
    context.graph_stack.append(graph)
    for g in above:
        context.graph_stack.append(g)


@tf_export("compat.v1.enable_eager_execution")
def enable_eager_execution(config=None, device_policy=None, execution_mode=None):
    """Back to eager execution (TF2's default); nothing happens if it is already on.

    >>> tf.compat.v1.enable_eager_execution()
    >>> tf.executing_eagerly()
    True
    """
    pushed = _pushed()
    if pushed is not None:
        context.graph_stack.remove(pushed)
        _local.pushed = None


@tf_export("compat.v1.disable_v2_behavior")
def disable_v2_behavior():
    """TF1 behaviour; in minitf that is graph mode (`disable_eager_execution`): resource
    variables, TF2 shapes and control flow are the only kind minitf has.

    >>> tf.compat.v1.disable_v2_behavior(); tf.executing_eagerly()
    False
    >>> tf.compat.v1.enable_v2_behavior(); tf.executing_eagerly()
    True
    """
    disable_eager_execution()


@tf_export("compat.v1.enable_v2_behavior")
def enable_v2_behavior():
    """TF2 behaviour again: eager execution (see `disable_v2_behavior`).

    >>> tf.compat.v1.enable_v2_behavior()
    """
    enable_eager_execution()


@contextlib.contextmanager
def graph_mode():
    """`disable_eager_execution()` for a `with` block only (a minitf helper, not a TF name):
    on exit eager execution is back and the default graph is a fresh one.

    >>> from minitf.compat.v1.graph_mode import graph_mode
    >>> with graph_mode():
    ...     tf.executing_eagerly()
    False
    >>> tf.executing_eagerly()
    True
    """
    was_eager = _pushed() is None
    disable_eager_execution()
    try:
        yield get_default_graph()
    finally:
        if was_eager:
            enable_eager_execution()
            _default[0] = None


@tf_export("compat.v1.executing_eagerly")
def executing_eagerly():
    """Whether ops run at once (True in TF2 outside graphs), as `tf.executing_eagerly()`.

    >>> tf.compat.v1.executing_eagerly()
    True
    """
    return context.executing_eagerly()


@tf_export("compat.v1.placeholder")
def placeholder(dtype, shape=None, name=None):
    """A graph input that `Session.run` fills from its `feed_dict`.

    >>> with tf.compat.v1.Graph().as_default():
    ...     x = tf.compat.v1.placeholder(tf.float32, shape=[2])
    ...     with tf.compat.v1.Session() as sess:
    ...         print(sess.run(x + 1.0, feed_dict={x: [1.0, 2.0]}))
    [2. 3.]
    """
    if context.executing_eagerly():
        raise RuntimeError("tf.placeholder() is not compatible with eager execution. "
                           "In TF2 a function argument plays its part: pass the value to a "
                           "tf.function, or build the graph in tf.compat.v1.Graph().as_default().")
    graph = context.graph_stack[-1]
    return graph.placeholder(TensorShape(shape), dtypes.as_dtype(dtype), name or "Placeholder")


@tf_export("compat.v1.placeholder_with_default")
def placeholder_with_default(input, shape, name=None):  # noqa: A002 - TF's argument name
    """A tensor with a default value that `Session.run` may replace through `feed_dict`.

    >>> with tf.compat.v1.Graph().as_default():
    ...     x = tf.compat.v1.placeholder_with_default(tf.constant([1.0]), shape=[None])
    ...     with tf.compat.v1.Session() as sess:
    ...         print(sess.run(x), sess.run(x, feed_dict={x: [5.0, 6.0]}))
    [1.] [5. 6.]
    """
    from ...ops.creation_ops import identity  # noqa: PLC0415 - ops sit above the framework

    value = identity(input)
    shape = TensorShape(shape)
    if not shape.is_compatible_with(value.shape):
        raise ValueError(f"Shapes {value.shape} and {shape} are incompatible: the default "
                         "value of placeholder_with_default must fit its `shape`.")
    if not context.executing_eagerly():
        value._shape = shape  # the declared shape: fed values may have any size where None
    return value
