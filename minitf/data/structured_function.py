"""User functions in a pipeline (`map`, `filter`, `reduce`, ...): traced once, run per element.

As in TensorFlow, `ds.map(f)` traces `f` *when you call map*, with symbolic
tensors shaped like the elements (AutoGraph converts its `if`/`for`), then
runs the traced graph for every element. So a `print` inside `f` prints once:

>>> import minitf as tf
>>> ds = tf.data.Dataset.range(3).map(lambda x: print("tracing") or x + 1)
tracing
>>> list(ds.as_numpy_iterator())
[np.int64(1), np.int64(2), np.int64(3)]

`tf.data.experimental.enable_debug_mode()` runs the functions eagerly instead,
element by element (handy with pdb), and checks every result against the
traced structure. In TensorFlow this class is `StructuredFunctionWrapper`.
"""
import numpy as np

from ..framework import composite_tensor, context, errors
from ..framework.executor import compile_graph, run
from ..framework.function import Function, TensorSpec
from ..framework.graph import Graph, SymbolicTensor
from ..framework.tensor import EagerTensor, Tensor, convert_to_tensor
from ..ops.control_flow_ops import tapes_paused
from .graph_inputs import value_of
from .structure import DatasetSpec, flatten, list_to_tensor, pack, spec_of

_DEBUG_MODE = [False]


def as_args(element):
    """Tuple elements are unpacked into positional arguments; anything else is one."""
    return element if type(element) is tuple else (element,)


def _lists_to_tuples(value):
    """TF's rule for a function's result: a top-level list is a tuple of components;
    a list inside a structure is one tensor (`(x, [x, x])` has a shape-(2,) second part)."""
    if isinstance(value, list):
        value = tuple(value)
    return _inner_lists_to_tensors(value)


def _inner_lists_to_tensors(value):
    if isinstance(value, list):
        return list_to_tensor(value)
    if isinstance(value, tuple):
        children = [_inner_lists_to_tensors(v) for v in value]
        return type(value)(*children) if hasattr(value, "_fields") else tuple(children)
    if isinstance(value, dict):
        return type(value)((k, _inner_lists_to_tensors(v)) for k, v in value.items())
    return value


class StructuredFunction:
    """`func` traced for elements of `input_spec`; call it on an element."""

    def __init__(self, func, input_spec, transformation="Dataset.map"):
        self._func = func
        self._transformation = transformation
        self._input_spec = input_spec
        python_function = func.python_function if isinstance(func, Function) else func
        self._python_function = python_function
        self.graph, outputs = self._trace(python_function, input_spec)
        self.output_structure = outputs
        self.output_spec = pack(outputs, [spec_of(t) for t in flatten(outputs)])
        graph = self.graph if Function.optimizer is None else Function.optimizer(self.graph)
        self._plan = compile_graph(graph)

    def _trace(self, function, input_spec):
        if Function.converter is not None:
            function = Function.converter(function)
        graph = Graph(getattr(self._python_function, "__name__", "fn").replace("<", "")
                      .replace(">", ""))
        with tapes_paused(), graph.as_default():
            leaves = flatten(input_spec)
            for spec in leaves:
                if isinstance(spec, DatasetSpec):
                    raise TypeError(f"`{self._transformation}` cannot trace a function of "
                                    "dataset elements; use flat_map or interleave.")
            # a RaggedTensor/SparseTensor element: one placeholder per component tensor
            parts = composite_tensor.expand(leaves)
            placeholders = [graph.placeholder(s.shape, s.dtype, f"args_{i}")
                            for i, s in enumerate(parts)]
            arguments = pack(input_spec, composite_tensor.rebuild(leaves, placeholders))
            result = _lists_to_tuples(function(*as_args(arguments)))
            outputs = pack(result, [self._as_output(graph, v) for v in flatten(result)])
        # Tensors of an enclosing tf.function the function uses: extra graph inputs,
        # read from their bound values when that function runs (graph_inputs.py).
        self.captured_inputs = [outer for outer, _ in graph.captures]
        graph.outputs = composite_tensor.expand(flatten(outputs))
        return graph, outputs

    def _as_output(self, graph, value):
        if value is None or hasattr(value, "_generate"):
            raise TypeError(
                f"The function passed to `{self._transformation}` returned {value!r}; it "
                "must return tensors (or nests of tensors). Did you forget a `return`?")
        if composite_tensor.is_composite(value):  # its component tensors become outputs
            parts = [graph.symbolic(t) for t in composite_tensor.components(value)]
            return value._type_spec._from_components(parts)
        return graph.symbolic(convert_to_tensor(value))

    def __call__(self, element):
        """The function's result for one element (a nest of eager tensors)."""
        if _DEBUG_MODE[0] and not self.captured_inputs:
            return self._call_eagerly(element)
        arrays = run(self._plan, [t._value for t in composite_tensor.expand(flatten(element))]
                     + [value_of(t) for t in self.captured_inputs])
        leaves = flatten(self.output_structure)
        return pack(self.output_structure, composite_tensor.rebuild(
            leaves, [EagerTensor(a) for a in arrays]))

    def _call_eagerly(self, element):
        result = _lists_to_tuples(self._python_function(*as_args(element)))
        try:
            leaves = [v if composite_tensor.is_composite(v) else convert_to_tensor(v)
                      for v in flatten(result)]
            packed = pack(self.output_structure, leaves)
        except (ValueError, TypeError, StopIteration):
            packed = None
        if packed is None or len(leaves) != len(flatten(self.output_spec)) or not all(
                s.is_compatible_with(t) if composite_tensor.is_composite(t) else
                s.dtype is t.dtype and s.shape.is_compatible_with(t.shape)
                for s, t in zip(flatten(self.output_spec), leaves)):
            raise errors.InvalidArgumentError(
                None, "IteratorGetNext",
                f"The function passed to `{self._transformation}` returned {result!r} for "
                f"element {element!r}, but when traced it returned {self.output_spec!r}. "
                "Every element must give the same structure, dtypes and compatible shapes.")
        return packed


def scalar_bool(function, what):
    """Check a predicate's traced output is a scalar tf.bool (TF's ValueError if not)."""
    spec = function.output_spec
    if not isinstance(spec, TensorSpec) or spec.dtype.name != "bool" or \
            spec.shape.rank != 0 and spec.shape.rank is not None:
        raise ValueError(f"Invalid `{what}`. `{what}` must return a `tf.bool` scalar tensor, "
                         f"but its return type is {spec!r}.")


def truth(value):
    return bool(np.asarray(value._value if isinstance(value, EagerTensor) else value))


def is_symbolic(value):
    return isinstance(value, SymbolicTensor) or (
        isinstance(value, Tensor) and not isinstance(value, EagerTensor))


def in_graph():
    return bool(context.graph_stack)
