"""Iterators over datasets, their type spec, and `Optional` (an element, or none).

`iter(dataset)` returns a `tf.data.Iterator`; each `next` or `get_next()` gives
the next element. At the end Python's `next` raises `StopIteration`, while
`get_next()` raises TF's `OutOfRangeError`, and `get_next_as_optional()` returns
an `Optional` without a value, which is how a graph can loop without exceptions:

>>> import minitf as tf
>>> it = iter(tf.data.Dataset.range(1))
>>> isinstance(it, tf.data.Iterator), it.get_next().numpy()
(True, np.int64(0))
>>> opt = it.get_next_as_optional()
>>> bool(opt.has_value())
False

An iterator made outside a `tf.function` and read inside it is state the graph
holds (TF: a resource): the traced `get_next()` (or `next(it)`) is an
`IteratorGetNext` node, so every call takes the next element:

>>> it = iter(tf.data.Dataset.range(5))
>>> step = tf.function(lambda it: it.get_next())
>>> [int(step(it)) for _ in range(3)]
[0, 1, 2]
"""
import abc

import numpy as np

from ..framework import composite_tensor, errors, nest
from ..framework.op import Op, apply
from ..framework.tensor import EagerTensor
from ..framework.tf_export import tf_export


@tf_export("data.Iterator")
class Iterator(metaclass=abc.ABCMeta):
    """What `iter(dataset)` returns (TF's `IteratorBase`): `element_spec`, `get_next()`,
    `get_next_as_optional()`, and Python's iteration protocol."""

    @property
    @abc.abstractmethod
    def element_spec(self):
        """The type of each element (as the dataset's `element_spec`)."""

    @abc.abstractmethod
    def get_next(self):
        """The next element; `OutOfRangeError` at the end."""

    def get_next_as_optional(self):
        """The next element as an `Optional`, which is empty at the end.

        >>> it = iter(tf.data.Dataset.from_tensors(7))
        >>> it.get_next_as_optional().get_value().numpy()
        np.int32(7)
        """
        try:
            return Optional.from_value(self.get_next())
        except errors.OutOfRangeError:
            return Optional.empty(self.element_spec)

    def __iter__(self):
        return self


@tf_export("data.IteratorSpec")
class IteratorSpec:
    """The type of an iterator: the spec of its elements (for `tf.function` signatures).

    >>> tf.data.IteratorSpec(tf.TensorSpec([], tf.int64))
    IteratorSpec(TensorSpec(shape=(), dtype=tf.int64, name=None),)
    >>> tf.data.IteratorSpec.from_value(iter(tf.data.Dataset.range(2))).element_spec
    TensorSpec(shape=(), dtype=tf.int64, name=None)
    """

    def __init__(self, element_spec):
        self._element_spec = element_spec

    @property
    def element_spec(self):
        return self._element_spec

    @property
    def value_type(self):
        return Iterator

    @staticmethod
    def from_value(value):
        if not isinstance(value, Iterator):
            raise TypeError(f"Expected a tf.data.Iterator, got {type(value).__name__}.")
        return IteratorSpec(value.element_spec)

    def is_compatible_with(self, spec_or_value):
        if isinstance(spec_or_value, Iterator):
            spec_or_value = IteratorSpec.from_value(spec_or_value)
        return isinstance(spec_or_value, IteratorSpec) and _specs_compatible(
            self._element_spec, spec_or_value.element_spec)

    def __eq__(self, other):
        return isinstance(other, IteratorSpec) and self._element_spec == other._element_spec

    def __hash__(self):
        return hash(repr(self))

    def __repr__(self):
        return f"IteratorSpec({self._element_spec!r},)"


def _specs_compatible(a, b):
    from .structure import flatten, same_structure
    if not same_structure(a, b):
        return False
    return all(x.is_compatible_with(y) for x, y in zip(flatten(a), flatten(b)))


@tf_export("data.experimental.Optional")
class Optional(metaclass=abc.ABCMeta):
    """A value that may be missing: `has_value()` (a bool tensor) and `get_value()`.

    >>> opt = tf.data.experimental.Optional.from_value({"a": 1})
    >>> bool(opt.has_value()), opt.get_value()["a"].numpy()
    (True, np.int32(1))
    >>> empty = tf.data.experimental.Optional.empty(tf.TensorSpec([], tf.int32))
    >>> empty.get_value()
    Traceback (most recent call last):
    ...
    minitf.framework.errors.InvalidArgumentError: The given optional does not have a value. [Op:OptionalGetValue] Check has_value() first, or use get_next() with a try/except.
    """

    @staticmethod
    def from_value(value):
        """An Optional holding `value` (a nest of tensors)."""
        from .structure import element_spec_of, normalize_element
        value = normalize_element(value)
        return _OptionalImpl(True, value, element_spec_of(value))

    @staticmethod
    def empty(element_spec):
        """An Optional with no value, whose value would have type `element_spec`."""
        return _OptionalImpl(False, None, element_spec)

    @abc.abstractmethod
    def has_value(self, name=None):
        """A scalar bool tensor."""

    @abc.abstractmethod
    def get_value(self, name=None):
        """The value; `InvalidArgumentError` when there is none."""

    @property
    @abc.abstractmethod
    def element_spec(self):
        """The type of the value."""


class _OptionalImpl(Optional):
    def __init__(self, present, value, element_spec):
        self._present, self._value, self._element_spec = present, value, element_spec

    def has_value(self, name=None):
        return EagerTensor(np.array(self._present))

    def get_value(self, name=None):
        if not self._present:
            raise errors.InvalidArgumentError(
                None, "OptionalGetValue", "The given optional does not have a value. "
                "[Op:OptionalGetValue] Check has_value() first, or use get_next() with a "
                "try/except.")
        return self._value

    @property
    def element_spec(self):
        return self._element_spec


# --- the iterator inside a traced graph -----------------------------------------------------
def _get_next_forward(*, iterator, count):
    """Take the next element from the Python iterator each time the node runs."""
    element = iterator._eager_next()  # OutOfRangeError at the end, as TF's kernel
    return tuple(np.asarray(t._value) for t in nest.flatten(element, expand_composites=True))


def _get_next_shapes(*, iterator, count):
    return tuple(spec.shape for spec in nest.flatten(iterator.element_spec, True))


def _get_next_dtypes(*, iterator, count):
    return tuple(spec.dtype for spec in nest.flatten(iterator.element_spec, True))


IteratorGetNext = Op("IteratorGetNext", _get_next_forward, typed=(), shape=_get_next_shapes,
                     dtype=_get_next_dtypes, num_outputs=None, stateful=True)


def get_next_node(iterator):
    """`iterator.get_next()` while tracing: one stateful node that reads the iterator when
    the graph runs (the element's tensors as its outputs, packed like element_spec; a
    RaggedTensor or SparseTensor travels as its component tensors)."""
    from .structure import pack
    spec = iterator.element_spec
    leaves = nest.flatten(spec)
    parts = composite_tensor.expand(leaves)
    plain = [s for s in parts if type(s).__name__ == "TensorSpec"]
    if len(plain) != len(parts):
        raise TypeError(
            "minitf's tf.function can read an iterator only when its elements are tensors "
            f"(or RaggedTensors/SparseTensors); this one yields {spec!r}. Iterate it outside "
            "the function and pass the element in.")
    outputs = apply(IteratorGetNext, [], {"iterator": iterator, "count": len(parts)})
    outputs = list(outputs) if isinstance(outputs, (list, tuple)) else [outputs]
    return pack(spec, composite_tensor.rebuild(leaves, outputs))
