"""`tf.debugging.Assert`: a check that fails when it runs, with the tensors you choose to show.

Eagerly the condition is known at once, so `Assert` raises (or returns None)
right away. Inside a `tf.function` it becomes an `Assert` node: the graph
checks the condition every time it runs, and the node is *stateful*, so graph
pruning keeps it even though nobody uses its result. The check_ops
(`tf.debugging.assert_equal`, `assert_positive`, ...) are built on it.

>>> x = tf.constant([1.0, -2.0])
>>> @tf.function
... def safe_sqrt(x):
...     tf.debugging.Assert(tf.reduce_all(x >= 0.0), ["x must be >= 0:", x])
...     return tf.sqrt(x)
>>> try:
...     safe_sqrt(x)
... except tf.errors.InvalidArgumentError as e:
...     print(e.message.split(" (traced")[0])
assertion failed: [x must be >= 0:] [1 -2]

The message has TensorFlow's two forms: the eager one comes from Python
("Expected '...' to be true. Summarized data: ..."), the graph one from the
Assert kernel ("assertion failed: [...] [...]"), which prints each tensor
the way C++ `Tensor::SummarizeValue` does.
"""
import numpy as np

from ..framework import context, dtypes, errors
from ..framework.op import Op, apply
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export


# --- how the Assert kernel prints a tensor (TF's Tensor::SummarizeValue) ----------------
_C_ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t", '"': '\\"', "'": "\\'", "\\": "\\\\"}


def _element(value):
    """One element as C++ StrCat writes it: floats with 6 significant digits, bools 1/0."""
    if isinstance(value, (bool, np.bool_)):
        return "1" if value else "0"
    if isinstance(value, (bytes, np.bytes_)):
        value = value.decode("utf-8", "replace")
    if isinstance(value, str):  # C-escaped, without quotes
        return "".join(_C_ESCAPES.get(c, c if c >= " " and c != "\x7f" else f"\\{ord(c):03o}")
                       for c in value)
    if isinstance(value, (float, np.floating)):
        return f"{value:.6g}"
    return str(value)


def summarize_value(array, max_entries=3):
    """The first `max_entries` elements (all if < 0) in nested brackets, "..." if cut.

    >>> summarize_value(np.arange(5))
    '0 1 2...'
    >>> summarize_value(np.array([[1, 2], [3, 4]]), 3)
    '[1 2][3...]...'
    """
    array = np.asarray(array)
    limit = array.size if max_entries < 0 else min(max_entries, array.size)
    if array.dtype.kind == "c":  # TF has no printer for complex numbers
        return " ?" * limit + ("..." if limit < array.size else "")
    items = [_element(v) for v in array.reshape(-1)[:limit]]
    text = " ".join(items) if array.ndim == 0 else _nested(array.shape, items, limit)
    return text + ("..." if array.size > limit else "")


def _nested(shape, items, limit):
    """TF's PrintOneDim: brackets for every axis but the last, until `limit` items are out."""
    out, used = [], 0

    def axis(k):
        nonlocal used
        if used >= limit:
            return
        if k == len(shape) - 1:
            for i in range(shape[k]):
                if used >= limit:
                    out.append("..." if k != 0 else "")
                    return
                out.append((" " if i else "") + items[used])
                used += 1
            return
        for _ in range(shape[k]):
            opened = used < limit
            out.append("[" if opened else "")
            axis(k + 1)
            out.append("]" if used < limit or opened else "")

    axis(0)
    return "".join(out)


def _assert_forward(condition, *data, summarize):
    condition = np.asarray(condition)
    if condition.ndim != 0:
        raise errors.op_error(errors.InvalidArgumentError, "Assert",
                              f"In[0] should be a scalar: [{','.join(map(str, condition.shape))}]",
                              "Reduce the condition to one bool first, e.g. with tf.reduce_all.")
    if not condition:
        shown = " ".join(f"[{summarize_value(d, summarize)}]" for d in data)
        raise errors.InvalidArgumentError(None, "Assert", f"assertion failed: {shown}")
    return np.zeros((0,), np.int32)


# TF's Assert has no outputs; minitf's returns an empty tensor nobody needs (like PrintV2).
# Stateful: graph optimizations must neither fold, merge nor drop it.
AssertOp = Op("Assert", _assert_forward, typed=(), stateful=True, dtype=dtypes.int32,
              shape=lambda *shapes, summarize: TensorShape([0]))


# --- the eager message (TF's control_flow_assert._summarize_eager) -------------------------
def summarize_eager(tensor, summarize=None):
    """The first `summarize` values (all if < 0) of an eager tensor, comma-separated."""
    value = np.asarray(tensor.numpy())
    summarize = 3 if summarize is None else value.size if summarize < 0 else summarize
    if value.ndim:
        flat = value.reshape(-1)
        shown = [str(v) for v in flat[:summarize]]
        shown += ["..."] if len(shown) < flat.size else []
    else:
        shown = [str(value[()])] if summarize != 0 else []
    return ", ".join(shown)


@tf_export("debugging.Assert", "Assert")
def Assert(condition, data, summarize=None, name=None):  # noqa: N802 - TF's name
    """Raise InvalidArgumentError showing `data` unless `condition` is true.

    summarize: how many entries of each tensor to show (3 by default, all if < 0).
    Eagerly this checks now and returns None; inside tf.function it adds a
    stateful Assert node that checks every time the graph runs. In TensorFlow
    it returns that node in graph mode (for `tf.control_dependencies`);
    minitf runs every node of a graph in order, so it returns None.

    >>> tf.debugging.Assert(tf.constant(True), ["never shown"])
    >>> try:
    ...     tf.debugging.Assert(tf.constant(False), ["x =", tf.constant([1, 2, 3, 4])])
    ... except tf.errors.InvalidArgumentError as e:
    ...     print(e)
    Expected 'tf.Tensor(False, shape=(), dtype=bool)' to be true. Summarized data: b'x ='
    1, 2, 3, ...
    """
    if not context.graph_stack:
        if not condition:
            shown = "\n".join(summarize_eager(convert_to_tensor(d), summarize) for d in data)
            raise errors.InvalidArgumentError(
                None, None, f"Expected '{condition!s}' to be true. Summarized data: {shown}")
        return None
    condition = convert_to_tensor(condition)
    if condition.dtype is not dtypes.bool:
        raise TypeError(f"Input 'condition' of 'Assert' Op has type {condition.dtype.name} that "
                        "does not match expected type of bool. Compare first (e.g. x > 0) or "
                        "tf.cast the condition to tf.bool.")
    summarize = 3 if summarize is None else int(summarize)
    apply(AssertOp, [condition] + [convert_to_tensor(d) for d in data], {"summarize": summarize})
    return None
