"""Datasets built inside a `tf.function` from the function's own tensors.

Inside a function being traced, `tf.data.Dataset.from_tensor_slices(x)` gets
a *symbolic* `x`: it has a shape and a dtype, but no value until the graph
runs. So the dataset knows its `element_spec` at once, but its elements exist
only while the graph runs. A `for` loop over it (AutoGraph) or `reduce`
becomes one `ReduceDataset` node whose inputs include those symbolic tensors;
when the node runs it *binds* each of them to its value for this call, and
the dataset reads the bound values:

>>> import minitf as tf
>>> @tf.function
... def total(x):
...     return tf.data.Dataset.from_tensor_slices(x).reduce(0.0, lambda s, e: s + e)
>>> total(tf.constant([1.0, 2.0, 3.0])).numpy()
np.float32(6.0)
>>> total(tf.constant([10.0, 20.0])).numpy()
np.float32(30.0)

A `map` function that uses a tensor of the enclosing function captures it
the same way. TensorFlow does this by making the dataset itself a graph
value (a `variant` tensor); minitf datasets are Python objects, so the
symbolic tensors they hold are found by walking the pipeline
(`symbolic_inputs`).
"""
import contextlib
import threading

import numpy as np

from ..framework import dtypes, errors
from ..framework.graph import SymbolicTensor
from ..framework.op import Op, apply
from ..framework.tensor import EagerTensor
from ..framework.tensor_shape import TensorShape

_local = threading.local()


def _stack():
    stack = getattr(_local, "stack", None)
    if stack is None:
        stack = _local.stack = []
    return stack


@contextlib.contextmanager
def bound(values):
    """Within the block, each symbolic tensor `t` reads `values[id(t)]` (a NumPy array)."""
    stack = _stack()
    stack.append(values)
    try:
        yield
    finally:
        stack.pop()


def snapshot():
    """The bindings of this thread, to hand to a worker thread (prefetch, parallel map)."""
    return list(_stack())


def run_with(bindings, fn, *args):
    """`fn(*args)` in this thread with `bindings` (from `snapshot()`) active."""
    stack = _stack()
    saved = list(stack)
    stack[:] = bindings
    try:
        return fn(*args)
    finally:
        stack[:] = saved


def bound_value(tensor):
    """The value bound to a symbolic tensor in this thread, or None."""
    for values in reversed(_stack()):
        found = values.get(id(tensor))
        if found is not None:
            return found
    return None


def value_of(tensor):
    """The NumPy value of an eager tensor, or of a symbolic one bound by a running node."""
    if isinstance(tensor, EagerTensor):
        return tensor._value
    found = bound_value(tensor)
    if found is not None:
        return found
    raise errors.InvalidArgumentError(
        None, "IteratorGetNext",
        f"This dataset holds the symbolic tensor {tensor!r} of a tf.function, which has no "
        "value outside a run of that function. Iterate the dataset inside the function (a "
        "`for` loop or `reduce`), or build it outside from eager tensors.")


def known_int(value):
    """An int count known now: a Python int, an eager tensor, or a symbolic tensor
    while it is bound; None for a symbolic one outside a run (while tracing)."""
    if isinstance(value, EagerTensor):
        return int(value._value)
    if isinstance(value, SymbolicTensor):
        found = bound_value(value)
        return None if found is None else int(found)
    return None if value is None else int(value)


def eager(tensor):
    """`tensor` as an EagerTensor (a symbolic one through its bound value)."""
    if isinstance(tensor, EagerTensor):
        return tensor
    return EagerTensor(value_of(tensor), tensor.dtype)


def iterate_bound(dataset, binding):
    """Iterate `dataset` with `binding` active whenever its code runs (each `next`), so
    several bindings of one template dataset can be iterated side by side."""
    with bound(binding):
        elements = dataset._iterate()
    try:
        while True:
            with bound(binding):
                try:
                    element = next(elements)
                except StopIteration:
                    return
            yield element
    finally:
        with bound(binding):
            elements.close()


def symbolic_inputs(dataset):
    """The distinct symbolic tensors a pipeline reads, in a fixed order: its sources'
    tensors, symbolic counts, and what its functions capture."""
    found, seen = [], set()
    _collect(dataset, found, seen, set())
    return found


def _collect(value, found, seen_tensors, seen_objects):
    if isinstance(value, SymbolicTensor):
        if id(value) not in seen_tensors:
            seen_tensors.add(id(value))
            found.append(value)
        return
    if isinstance(value, (list, tuple)):
        for v in value:
            _collect(v, found, seen_tensors, seen_objects)
        return
    if isinstance(value, dict):
        for v in value.values():
            _collect(v, found, seen_tensors, seen_objects)
        return
    if id(value) in seen_objects:
        return
    from .dataset_ops import Dataset
    from .interleave_op import DatasetFunction
    from .structured_function import StructuredFunction
    if isinstance(value, StructuredFunction):
        seen_objects.add(id(value))
        _collect(value.captured_inputs, found, seen_tensors, seen_objects)
    elif isinstance(value, DatasetFunction):
        seen_objects.add(id(value))
        _collect(value.outer_inputs, found, seen_tensors, seen_objects)
    elif isinstance(value, Dataset):
        seen_objects.add(id(value))
        for v in vars(value).values():
            _collect(v, found, seen_tensors, seen_objects)


def has_symbolic(dataset):
    return bool(symbolic_inputs(dataset))


def _cardinality_forward(*values, dataset):
    keys = [id(t) for t in symbolic_inputs(dataset)]
    with bound(dict(zip(keys, values))):
        return np.array(dataset._cardinality(), dtype=np.int64)


# `dataset.cardinality()` inside tf.function, for a pipeline holding symbolic tensors:
# counts that depend on them (rows of `x`, `take(n)`) are known when the graph runs.
DatasetCardinality = Op("DatasetCardinality", _cardinality_forward, typed=(),
                        shape=lambda *_, **__: TensorShape([]), dtype=dtypes.int64)


def cardinality_node(dataset, inputs):
    return apply(DatasetCardinality, list(inputs), {"dataset": dataset})
