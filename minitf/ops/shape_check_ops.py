"""Checks on shapes: `assert_rank`, `assert_scalar`, `assert_shapes`, and `tf.ensure_shape`.

Shapes are often known while tracing, so most of these checks happen at
once and raise `ValueError` (eagerly everything is known). Only what the
graph learns when it runs - a `None` dimension, an unknown rank - becomes an
Assert node that raises `InvalidArgumentError` then, as in TF's check_ops.

`tf.ensure_shape` is different: it is an op (EnsureShape) that passes its
input through, checks the shape each time it runs, and tells the trace what
you know. Its result's static shape merges both:

>>> @tf.function(input_signature=[tf.TensorSpec([None, None], tf.float32)])
... def rows(x):
...     return tf.ensure_shape(x, [None, 3])
>>> rows.get_concrete_function().structured_outputs.shape
TensorShape([None, 3])
"""
import collections

import numpy as np

from ..framework import context, dtypes, errors
from ..framework.op import Op, apply
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape, as_shape
from ..framework.tf_export import tf_export
from .assert_ops import Assert
from .check_ops import assert_type, message_prefix, tensor_name, traced
from .cond_ops import cond
from .math_ops import equal, greater_equal, logical_or
from .shape_ops import constant_value, dynamic_rank, dynamic_shape
from .shape_rules import dims_text


# --- ranks -------------------------------------------------------------------------------
_RANK_TESTS = {  # kind -> (words in the message, test on (actual rank, wanted ranks))
    "==": ("rank", lambda actual, wanted: actual == wanted[0]),
    ">=": ("rank at least", lambda actual, wanted: actual >= wanted[0]),
    "in": ("rank in", lambda actual, wanted: actual in wanted),
}


def rank_assert(x, ranks, kind, data=None, summarize=None, message=None):
    """TF's `_assert_rank(s)_condition`: ValueError if the rank is known and wrong, an Assert
    node if it is only known when the graph runs, None if it is known and right."""
    x = convert_to_tensor(x)
    ranks = [convert_to_tensor(r) for r in ranks]
    message = message_prefix(message)
    words, test = _RANK_TESTS[kind]
    name = traced(x).name if context.graph_stack else ""
    for r in ranks:
        assert_type(r, dtypes.int32)
    wanted = [constant_value(r) for r in ranks]
    if all(w is not None for w in wanted):
        if any(np.ndim(w) != 0 for w in wanted):
            raise ValueError("Rank must be a scalar.")
        if x.shape.rank is not None:
            if not test(x.shape.rank, wanted):
                shown = tuple(w.item() for w in wanted) if kind == "in" else int(wanted[0])
                raise ValueError(f"{message}Tensor {name} must have {words} {shown}.  Received "
                                 f"rank {x.shape.rank}, shape {x.shape}")
            return None
    if data is None:
        data = [message, f"Tensor {name} must have {words}"] + ranks + [
            "Received shape: ", dynamic_shape(x)]
    actual = dynamic_rank(x)
    if kind == "in":
        condition = convert_to_tensor(False)
        for r in ranks:
            condition = logical_or(condition, equal(r, actual))
    else:
        condition = (equal if kind == "==" else greater_equal)(actual, ranks[0])
    for r, w in zip(ranks, wanted):
        if w is None:  # catches assert_rank(x, [n]) meant as assert_rank(x, n)
            rank_assert(r, [0], "==", data=["Rank must be a scalar. Received rank: ", r])
    return Assert(condition, data, summarize=summarize)


@tf_export("debugging.assert_rank", "assert_rank")
def assert_rank(x, rank, message=None, name=None):
    """Assert that x has rank `rank`: ValueError if x's rank is known and differs.

    An unknown rank (inside tf.function) is checked when the graph runs.

    >>> tf.debugging.assert_rank(tf.zeros([2, 3]), 2)
    >>> try:
    ...     tf.debugging.assert_rank(tf.zeros([3]), 2)
    ... except ValueError as e:
    ...     print(e)
    Tensor  must have rank 2.  Received rank 1, shape (3,)
    """
    return rank_assert(x, [rank], "==", message=message)


@tf_export("debugging.assert_rank_at_least")
def assert_rank_at_least(x, rank, message=None, name=None):
    """Assert that x has rank `rank` or more (ValueError if known to be less).

    >>> tf.debugging.assert_rank_at_least(tf.zeros([2, 3]), 1)
    """
    return rank_assert(x, [rank], ">=", message=message)


@tf_export("debugging.assert_rank_in")
def assert_rank_in(x, ranks, message=None, name=None):
    """Assert that x's rank is one of `ranks` (ValueError if known not to be).

    >>> tf.debugging.assert_rank_in(tf.zeros([2, 3]), [1, 2])
    """
    return rank_assert(x, ranks, "in", message=message)


@tf_export("debugging.assert_scalar")
def assert_scalar(tensor, message=None, name=None):
    """ValueError unless `tensor` is known to be a scalar (an unknown shape fails too).

    >>> tf.debugging.assert_scalar(tf.constant(3.0))
    """
    tensor = convert_to_tensor(tensor)
    if tensor.shape.rank != 0:
        where = f" for {traced(tensor).name}" if context.graph_stack else ""
        raise ValueError(f"{message_prefix(message)}Expected scalar shape{where}, saw shape: "
                         f"{tensor.shape}.")


# --- assert_shapes: named dimensions shared across tensors ------------------------------
_Spec = collections.namedtuple("_Spec", ["x", "innermost", "sizes", "symbols"])


def _dimension_sizes(x):
    """Each size as an int when known, else a scalar tensor; a scalar counts as shape [1]."""
    rank = x.shape.rank
    if rank == 0:
        return (1,)
    if rank is not None:
        return [d if d is not None else dynamic_shape(x)[i] for i, d in enumerate(x.shape)]
    return cond(equal(dynamic_rank(x), 0), lambda: convert_to_tensor([1]),
                lambda: dynamic_shape(x))


def _has_known_value(size):
    try:
        int(size)
    except (ValueError, TypeError):
        return False
    return size is not None


def _spec(x, shape, prefix):
    if not (hasattr(shape, "__iter__") or hasattr(shape, "__getitem__")):
        raise ValueError(f"{prefix}Tensor {tensor_name(x)}.  Specified shape must be an "
                         "iterable.  An iterable has the attribute `__iter__` or `__getitem__`.  "
                         f"Received specified shape: {shape}")
    symbols = tuple(shape)
    for i, symbol in enumerate(symbols):
        if (symbol is Ellipsis or symbol == "*") and i != 0:
            raise ValueError(f"{prefix}Tensor {tensor_name(x)} specified shape index {i}.  "
                             "Symbol `...` or `*` for a variable number of unspecified "
                             "dimensions is only allowed as the first entry")
    innermost = bool(symbols) and (symbols[0] is Ellipsis or symbols[0] == "*")
    symbols = symbols[1:] if innermost else symbols
    return _Spec(x, innermost, _dimension_sizes(x), symbols or (1,))


@tf_export("debugging.assert_shapes")
def assert_shapes(shapes, data=None, summarize=None, message=None, name=None):
    """Assert shapes and the relations between them: `[(x, ('N', 'Q')), (y, ('N', 'D'))]`.

    A size is an int (exact), a name ('N': equal wherever it appears), or
    None / '.' (any). A first entry `...` or '*' allows any number of outer
    axes. A scalar and the shape () both count as shape (1,). What is known
    while tracing (everything, eagerly) raises ValueError at once.

    >>> x, y = tf.zeros([10, 3]), tf.zeros([10, 7])
    >>> tf.debugging.assert_shapes([(x, ('N', 'Q')), (y, ('N', 'D'))])
    >>> try:
    ...     tf.debugging.assert_shapes([(x, ('N', 'D')), (y, ('N', 'D'))])
    ... except ValueError as e:
    ...     print(e)
    Specified by tensor shape=(10, 3) dtype=float32 dimension 1.  Tensor shape=(10, 7) \
dtype=float32 dimension 1 must have size 3.  Received size 7, shape (10, 7)
    """
    if isinstance(shapes, dict):
        shapes = shapes.items()
    prefix = message_prefix(message)
    specs = [_spec(convert_to_tensor(x), s, prefix) for x, s in shapes if s is not None]
    for spec in specs:  # first the ranks, so that the size checks below may index
        rank = len(spec.symbols)
        if spec.innermost and rank > 1:
            rank_assert(spec.x, [rank], ">=", data, summarize, message)
        elif not spec.innermost:
            rank_assert(spec.x, [0, 1] if rank == 1 else [rank], "in" if rank == 1 else "==",
                        data, summarize, message)
    named = {}  # symbol -> (size, tensor, axis) where it first appeared
    for spec in specs:
        for i, symbol in enumerate(spec.symbols):
            axis = i - len(spec.symbols) if spec.innermost else i
            if symbol is None or symbol == ".":
                continue
            if not _has_known_value(symbol) and symbol not in named:
                named[symbol] = (spec.sizes[axis], spec.x, axis)
                continue
            if _has_known_value(symbol):
                wanted, why = int(symbol), "Specified explicitly"
            else:
                wanted, by, at = named[symbol]
                why = f"Specified by tensor {tensor_name(by)} dimension {at}"
            _check_size(spec, axis, wanted, why, prefix, data, summarize)


def _check_size(spec, axis, wanted, why, prefix, data, summarize):
    size = spec.sizes[axis]
    if _has_known_value(size) and _has_known_value(wanted):
        if int(size) != int(wanted):
            raise ValueError(f"{prefix}{why}.  Tensor {tensor_name(spec.x)} dimension {axis} "
                             f"must have size {wanted}.  Received size {size}, shape "
                             f"{spec.x.shape}")
        return
    if data is None:
        data = [prefix, why, f"Tensor {tensor_name(spec.x)} dimension", axis, "must have size",
                wanted, "Received shape: ", dynamic_shape(spec.x)]
    Assert(equal(convert_to_tensor(size), convert_to_tensor(wanted)), data, summarize)


# --- tf.ensure_shape ---------------------------------------------------------------------
def _text(shape):
    """A shape as TF's PartialTensorShape::DebugString writes it: [?,3] or <unknown>."""
    return "<unknown>" if shape.rank is None else dims_text(shape)


def _ensure_shape_forward(x, shape, _input):
    if not shape.is_compatible_with(TensorShape(np.shape(x))):
        raise errors.op_error(
            errors.InvalidArgumentError, "EnsureShape",
            f"Shape of tensor {_input} {dims_text(np.shape(x))} is not compatible with expected "
            f"shape {_text(shape)}.", "Use None in the expected shape for sizes that may vary.")
    return x


def _ensure_shape_rule(x, shape, _input):
    """The static shapes merged (TF's Merge); incompatible ones fail while tracing."""
    if x.is_compatible_with(shape):
        return x.merge_with(shape)
    if x.rank != shape.rank:
        why = f"Shapes must be equal rank, but are {x.rank} and {shape.rank}"
    else:
        i, a, b = next((i, a, b) for i, (a, b) in enumerate(zip(x, shape)) if a != b)
        why = (f"Dimension {i} in both shapes must be equal, but are {a} and {b}. Shapes are "
               f"{_text(x)} and {_text(shape)}.")
    raise ValueError(f"{why} for '{{{{node EnsureShape}}}} = EnsureShape[shape={_text(shape)}]"
                     f"({_input})' with input shapes: {_text(x)}. The trace already knows "
                     "these sizes of x; ensure_shape can only add to what is known.")


EnsureShape = Op("EnsureShape", _ensure_shape_forward, typed=(), shape=_ensure_shape_rule)


@EnsureShape.def_grad
def _ensure_shape_grad(op, dy):
    return dy  # d/dx x = 1 (TF does not check the gradient's shape)


def _input_name(x):
    """The name TF's kernel shows: the input's node name in a graph, "dummy_input" eagerly."""
    if not context.graph_stack:
        return x, "dummy_input"
    x = traced(x)
    return x, x.node.name + (f":{x.index}" if x.index else "")


@tf_export("ensure_shape")
def ensure_shape(x, shape, name=None):
    """`x` unchanged, checked to have a shape compatible with `shape` (None: any size).

    Inside tf.function the result's static shape is x's merged with `shape`,
    so later ops know more; the check itself happens when the graph runs. If
    the result is not used, the check is pruned away (as in TensorFlow).

    >>> try:
    ...     tf.ensure_shape(tf.constant([1, 2, 3]), [5])
    ... except tf.errors.InvalidArgumentError as e:
    ...     print(e.message.split(" [Op:")[0])
    Shape of tensor dummy_input [3] is not compatible with expected shape [5].
    """
    x, label = _input_name(convert_to_tensor(x))
    return apply(EnsureShape, [x], {"shape": as_shape(shape), "_input": label})
