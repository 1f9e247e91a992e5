"""A trace's `function_type`: its parameters' types and its output type, printed as TF.

Tensors show as their `TensorSpec`, Python values as `Literal[value]` (each value is
traced apart), containers as `Tuple[...]`, `List[...]` and `Dict[[key, type], ...]`:

>>> import minitf as tf
>>> @tf.function
... def scale(x, factor=2):
...     return {"y": x * factor}
>>> cf = scale.get_concrete_function(tf.TensorSpec([None], tf.float32))
>>> list(cf.function_type.parameters)
['x', 'factor']
>>> print(cf)
ConcreteFunction Input Parameters:
  x (POSITIONAL_OR_KEYWORD): TensorSpec(shape=(None,), dtype=tf.float32, name=None)
  factor (POSITIONAL_OR_KEYWORD): Literal[2]
Output Type:
  Dict[['y', TensorSpec(shape=(None,), dtype=tf.float32, name=None)]]
Captures:
  None

`Captures` lists the variables the graph reads (TF prints each as a resource tensor
keyed by a number of its own; minitf uses the variable's `id`). In TensorFlow this is
`core/function/polymorphism/function_type.py`, a subclass of `inspect.Signature`.
"""
import inspect

from . import composite_tensor, nest


class _Text:
    """An annotation that prints as the given text (inspect.Signature uses repr)."""

    def __init__(self, text):
        self.text = text

    def __repr__(self):
        return self.text


def type_text(value):
    """TF's trace-type text of one argument or output value."""
    from .function import TensorSpec
    from .tensor import Tensor
    if isinstance(value, (Tensor, TensorSpec)):
        name = value.name if isinstance(value, TensorSpec) else None
        return repr(TensorSpec(value.shape, value.dtype, name))
    if composite_tensor.is_composite(value) or composite_tensor.is_composite_spec(value):
        return repr(composite_tensor.spec_of(value))  # RaggedTensorSpec(...), SparseTensorSpec
    if isinstance(value, dict):
        items = sorted(value.items(), key=lambda item: repr(item[0]))
        return "Dict[" + ", ".join(f"[{k!r}, {type_text(v)}]" for k, v in items) + "]"
    if isinstance(value, tuple) and not hasattr(value, "_fields"):
        return "Tuple[" + ", ".join(type_text(v) for v in value) + "]"
    if isinstance(value, list):
        return "List[" + ", ".join(type_text(v) for v in value) + "]"
    return f"Literal[{value!r}]"


class FunctionType(inspect.Signature):
    """The parameters (each annotated with its type) and the output type of a trace."""

    __slots__ = ("captures",)

    def __init__(self, parameters, output, captures=()):
        super().__init__(parameters, return_annotation=_Text(output))
        self.captures = list(captures)

    def __repr__(self):
        lines = ["Input Parameters:"]
        lines += [f"  {p.name} ({p.kind.name}): {p.annotation!r}"
                  for p in self.parameters.values()]
        lines += ["Output Type:", f"  {self.return_annotation!r}", "Captures:"]
        lines += [f"  {c}" for c in self.captures] or ["  None"]
        return "\n".join(lines)


def function_type(python_function, arguments, outputs, graph):
    """The FunctionType of a trace of `python_function` for bound `arguments`."""
    args, kwargs = arguments
    kinds = _kinds(python_function)
    names = _names(python_function, len(args))
    params = [inspect.Parameter(n, kinds.get(n, inspect.Parameter.POSITIONAL_OR_KEYWORD),
                                annotation=_Text(type_text(a))) for n, a in zip(names, args)]
    params += [inspect.Parameter(k, kinds.get(k, inspect.Parameter.KEYWORD_ONLY),
                                 annotation=_Text(type_text(kwargs[k]))) for k in kwargs]
    output = nest.map_structure(lambda o: _output_leaf(o), outputs)
    return FunctionType(_ordered(params), type_text(output), _captures(graph))


def _output_leaf(value):
    from .graph import SymbolicTensor
    from .function import TensorSpec
    return TensorSpec(value.shape, value.dtype) if isinstance(value, SymbolicTensor) else value


def _kinds(python_function):
    try:
        return {p.name: p.kind for p in inspect.signature(python_function).parameters.values()}
    except (TypeError, ValueError):
        return {}


def _names(python_function, count):
    from .signature_binding import parameter_names
    return parameter_names(python_function, count)


def _ordered(params):
    """inspect.Signature wants positional parameters before keyword-only ones."""
    return sorted(params, key=lambda p: p.kind)


def _captures(graph):
    seen, lines = set(), []
    for node in graph.nodes:
        variable = node.attrs.get("variable") if isinstance(node.attrs, dict) else None
        if variable is not None and id(variable) not in seen:
            seen.add(id(variable))
            lines.append(f"{id(variable)}: TensorSpec(shape=(), dtype=tf.resource, name=None)")
    return lines
