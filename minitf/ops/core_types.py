"""`tf.types.experimental`: the abstract types TF's own classes are instances of.

They exist for `isinstance` checks and type hints in code that accepts "anything
TF treats as a tensor" or "any tf.function". minitf's classes are registered with
them (TF's classes inherit from them), so the same checks give the same answers:

>>> import minitf as tf
>>> isinstance(tf.constant(1.0), tf.types.experimental.TensorLike)
True
>>> f = tf.function(lambda x: x)
>>> isinstance(f, tf.types.experimental.PolymorphicFunction)
True
>>> cf = f.get_concrete_function(tf.TensorSpec([], tf.float32))
>>> E = tf.types.experimental
>>> isinstance(cf, E.ConcreteFunction), isinstance(cf, E.GenericFunction)
(True, False)

`TensorLike` is, as in TF, a `typing.Union`: tensors and variables, Python numbers,
strings, bytes, tuples, lists and NumPy values. In TensorFlow these live in
`tensorflow/python/types/core.py` and `types/trace.py`.
"""
import abc
import typing

import numpy as np

from ..framework.function import ConcreteFunction as _ConcreteFunction
from ..framework.function import Function as _Function
from ..framework.function import TensorSpec as _TensorSpec
from ..framework.function_type import FunctionType as _FunctionType
from ..framework.tensor import Tensor as _Tensor
from ..framework.tf_export import tf_export
from ..framework.variables import Variable as _Variable
from .type_spec_ops import TypeSpec as _TypeSpec


class _Abstract(abc.ABC):
    """An abstract type that minitf's classes are registered with."""


class Tensor(_Abstract):
    """Tensors and variables: what `TensorLike` holds besides Python and NumPy values."""


Tensor.register(_Tensor)
Tensor.register(_Variable)

TensorLike = typing.Union[Tensor, int, float, bool, str, bytes, complex, tuple, list,
                          np.ndarray, np.generic]
TensorLike.__doc__ = ("What TF converts to a tensor: tensors and variables, Python numbers, "
                      "strings, bytes, tuples, lists and NumPy values (a typing.Union, as TF's).")
tf_export("types.experimental.TensorLike")(TensorLike)


@tf_export("types.experimental.Callable")
class Callable(_Abstract):
    """Something that can be called like a function of tensors: a tf.function or one
    of its traces."""


@tf_export("types.experimental.GenericFunction")
class GenericFunction(Callable):
    """A function that traces for each new argument type (what `tf.function` returns)."""


@tf_export("types.experimental.PolymorphicFunction")
class PolymorphicFunction(GenericFunction):
    """TF 2.21's name for `GenericFunction`'s concrete base (tf.function's result)."""


@tf_export("types.experimental.ConcreteFunction")
class ConcreteFunction(Callable):
    """One trace of a tf.function: a graph for fixed argument types."""


@tf_export("types.experimental.AtomicFunction")
class AtomicFunction(Callable):
    """TF's graph function without Python structure (minitf has no separate class: its
    ConcreteFunction runs the graph itself, so nothing is an AtomicFunction here)."""


@tf_export("types.experimental.TraceType")
class TraceType(_Abstract):
    """The type of an argument as tf.function's cache sees it (TensorSpec, TypeSpec)."""


@tf_export("types.experimental.SupportsTracingProtocol")
class SupportsTracingProtocol(_Abstract):
    """A value that has a trace type: tensors, variables, specs, tf.functions."""


@tf_export("types.experimental.FunctionType")
class FunctionType(_Abstract):
    """The signature of a trace: its parameters' types and its output type
    (`concrete_function.function_type`)."""


FunctionType.register(_FunctionType)
PolymorphicFunction.register(_Function)
ConcreteFunction.register(_ConcreteFunction)
for _cls in (_TensorSpec, _TypeSpec):
    TraceType.register(_cls)
for _cls in (_Tensor, _Variable, _Function, _TensorSpec, _TypeSpec):
    SupportsTracingProtocol.register(_cls)


class _ByName(abc.ABCMeta):
    """Matches minitf's tf.distribute classes by name, without importing tf.distribute."""

    def __instancecheck__(cls, instance):
        return cls.__subclasscheck__(type(instance))

    def __subclasscheck__(cls, subclass):
        return any(c.__name__ in cls._names and c.__module__.startswith("minitf.distribute")
                   for c in getattr(subclass, "__mro__", ())) or type.__subclasscheck__(
                       cls, subclass)


@tf_export("types.experimental.distributed.PerReplica")
class PerReplica(metaclass=_ByName):
    """Values that differ per replica (`strategy.run`'s result with several replicas)."""

    _names = ("PerReplica",)


@tf_export("types.experimental.distributed.Mirrored")
class Mirrored(metaclass=_ByName):
    """Values kept equal on every replica (a MirroredVariable)."""

    _names = ("MirroredVariable", "Mirrored")
