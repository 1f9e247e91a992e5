"""Binding a call's arguments to a tf.function's `input_signature`, with TF's errors.

With an `input_signature` a `tf.function` has one trace, and every call must fit
it: a tensor of the spec's dtype and of a compatible shape per `tf.TensorSpec`, a
RaggedTensor or SparseTensor per `tf.RaggedTensorSpec` / `tf.SparseTensorSpec`,
checked component by component as TF checks it (so the message names the part
that does not fit - the `flat_values`, a `row_splits`, the `indices`, ...):

>>> import minitf as tf
>>> @tf.function(input_signature=[tf.RaggedTensorSpec([None, None], tf.int32)])
... def lengths(x):
...     return x.row_lengths()
>>> lengths(tf.ragged.constant([[1, 2], [3]]))
<tf.Tensor: shape=(2,), dtype=int64, numpy=array([2, 1])>
>>> lengths(tf.ragged.constant([[1.5]]))  # doctest: +ELLIPSIS
Traceback (most recent call last):
...
TypeError: Binding inputs to tf.function failed due to `Can not cast TensorSpec(shape=(1,), dtype=tf.float32, name=None) to TensorSpec(shape=(None,), dtype=tf.int32, name=None)`...

In TensorFlow this is `FunctionType.bind` and `TypeSpec.cast` (core/function/polymorphism).
"""
import inspect

from . import composite_tensor
from .tensor import convert_to_tensor


def parameter_names(function, count):
    """The names of `function`'s first `count` positional parameters (arg<i> past them)."""
    try:
        names = [p.name for p in inspect.signature(function).parameters.values()
                 if p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD)]
    except (TypeError, ValueError):
        names = []
    return (names + [f"arg{i}" for i in range(len(names), count)])[:count]


def signature_text(names, specs):
    return ", ".join(f"{n}: {spec!r}" for n, spec in zip(names, specs))


class _Binding:
    """One call's arguments against a signature: the text every error repeats."""

    def __init__(self, python_function, name, signature, args, kwargs):
        self.function_name, self.signature = name, signature
        self.names = parameter_names(python_function, len(signature))
        self.received = (f"Received args: {tuple(args)!r} and kwargs: {kwargs!r} for signature: "
                         f"({signature_text(self.names, signature)}).")

    def fail(self, problem, hint):
        raise TypeError(f"Binding inputs to tf.function failed due to `{problem}`. "
                        f"{self.received} {hint}")

    def refuse(self, name, given, spec):
        from .function import TensorSpec
        if not isinstance(given, TensorSpec) and not composite_tensor.is_composite_spec(given):
            given = TensorSpec.from_tensor(given)
        self.fail(f"Can not cast {given!r} to {spec!r}",
                  f"The input_signature of {self.function_name}() fixes the dtype and rank of "
                  f"'{name}' and its known dimensions; None dimensions accept any size.")


def bind_signature(python_function, name, signature, args, kwargs):
    """((tensors or composites, one per spec), {}): the call's arguments, checked."""
    from .function import TensorSpec
    binding = _Binding(python_function, name, signature, args, kwargs)
    values = list(args) + list(kwargs.values())
    if len(values) != len(signature):
        problem = "too many positional arguments" if len(values) > len(signature) else \
            f"missing a required argument: '{binding.names[len(values)]}'"
        binding.fail(problem, f"{name}() takes {len(signature)} argument(s), as its "
                              "input_signature says.")
    bound = []
    for arg_name, value, spec in zip(binding.names, values, signature):
        if composite_tensor.is_composite_spec(spec):
            bound.append(_bind_composite(binding, arg_name, value, spec))
            continue
        tensor = value if isinstance(value, TensorSpec) else convert_to_tensor(
            value, dtype_hint=spec.dtype)
        if not spec.is_compatible_with(tensor):
            binding.refuse(arg_name, tensor, spec)
        bound.append(tensor)
    return tuple(bound), {}


def _bind_composite(binding, name, value, spec):
    """A RaggedTensor/SparseTensor (or its spec) checked against `spec`, part by part."""
    kind = spec.value_type.__name__
    if composite_tensor.is_composite_spec(value):
        value_spec = value
    elif isinstance(value, spec.value_type):
        value_spec = value._type_spec
    else:
        binding.fail(f"{type(value).__name__} {value!r} is not a {kind}",
                     f"'{name}' must be a {kind} (its input_signature holds a "
                     f"{type(spec).__name__}).")
    wanted = spec._component_specs
    for given, want in zip(composite_tensor.components(value), wanted):
        if not want.is_compatible_with(given):
            binding.refuse(name, given, want)
    if len(value_spec._component_specs) != len(wanted) or not spec.is_compatible_with(
            value_spec):
        binding.refuse(name, value_spec, spec)
    return value
