"""Functions with a running state: `reduce`, `scan`, and `take_while`.

`reduce` folds the elements into one value; the traced `reduce_func(state,
element)` must return a state of the same structure and dtypes (shapes may
change, e.g. a growing concatenation, as in TF):

>>> import minitf as tf
>>> ds = tf.data.Dataset.range(1, 5)
>>> ds.reduce(np.int64(1), lambda product, x: product * x).numpy()
np.int64(24)
>>> ds.batch(2).reduce(tf.zeros([0], tf.int64), lambda s, x: tf.concat([s, x], 0)).numpy()
array([1, 2, 3, 4])

Inside a `tf.function`, `reduce` is one `ReduceDataset` node: the pass over
the dataset happens each time the graph runs, not once while tracing.
"""
import numpy as np

from ..framework.op import Op, apply
from ..ops.control_flow_ops import from_attr, run_graph
from . import graph_inputs
from .dataset_ops import Dataset, in_graph
from .graph_inputs import symbolic_inputs
from .structure import (
    compatible_spec,
    element_spec_of,
    flatten,
    normalize_element,
    pack,
    same_structure,
)
from .structured_function import StructuredFunction, scalar_bool, truth


def _state_function(func, state_spec, element_spec, transformation, split):
    """Trace `func(state, element)`; if the new state's shapes differ from the old one's,
    trace again with those dimensions unknown (TF relaxes the state's shape the same way)."""
    for _ in range(2):
        function = StructuredFunction(func, (state_spec, element_spec), transformation)
        new_state = split(function.output_spec)
        if not same_structure(new_state, state_spec):
            raise TypeError(f"The structure of the new state returned by `{transformation}` "
                            f"({new_state!r}) must match the initial state ({state_spec!r}).")
        for old, new in zip(flatten(state_spec), flatten(new_state)):
            if old.dtype is not new.dtype:
                raise TypeError("The element types for the new state must match the initial "
                                f"state. Expected {old.dtype} but got {new.dtype}.")
        relaxed = pack(state_spec, [compatible_spec(o, n) for o, n in
                                    zip(flatten(state_spec), flatten(new_state))])
        if all(o.shape == r.shape for o, r in zip(flatten(state_spec), flatten(relaxed))):
            return function
        state_spec = relaxed
    return function


def reduce_dataset(dataset, initial_state, reduce_func):
    """`Dataset.reduce`: the state after every element has been folded in."""
    state = normalize_element(initial_state)
    function = _state_function(reduce_func, element_spec_of(state), dataset.element_spec,
                               "Dataset.reduce", lambda spec: spec)
    if in_graph():
        return _reduce_node(dataset, state, function)
    for element in dataset._iterate():
        state = function((state, element))
    return state


def _reduce_node(dataset, state, function):
    """Inside tf.function: one `ReduceDataset` node that folds a fresh pass over the
    dataset each time the graph runs (a shuffled dataset gives a new order per call)."""
    state_spec = function.output_spec
    bound = symbolic_inputs(dataset)
    inputs = flatten(state) + list(function.captured_inputs) + bound
    attrs = {"dataset": dataset, "f": function.graph, "_n_state": len(flatten(state)),
             "_n_captured": len(function.captured_inputs),
             "_shapes": tuple(s.shape for s in flatten(state_spec)),
             "_dtypes": tuple(s.dtype for s in flatten(state_spec))}
    outputs = apply(ReduceDataset, inputs, attrs)
    return pack(state_spec, list(outputs))


def _reduce_forward(*inputs, dataset, f, _n_state, _n_captured, **_):
    state = list(inputs[:_n_state])
    captured = list(inputs[_n_state:_n_state + _n_captured])
    bound_values = inputs[_n_state + _n_captured:]
    keys = [id(t) for t in symbolic_inputs(dataset)] if bound_values else []
    with graph_inputs.bound(dict(zip(keys, bound_values))):
        elements = dataset._iterate()
        try:
            for element in elements:
                leaves = [np.asarray(t._value) for t in flatten(element)]
                state = list(run_graph(f, state + leaves + captured))
        finally:
            elements.close()
    return tuple(state)


# TF's kernel for `Dataset.reduce` in a graph; stateful (it reads a dataset), no gradient.
ReduceDataset = Op("ReduceDataset", _reduce_forward, typed=(), num_outputs=None,
                   stateful=True, shape=from_attr("_shapes"), dtype=from_attr("_dtypes"))


class _ScanDataset(Dataset):
    """Outputs of `scan_func(state, element) -> (new_state, output)`."""

    def __init__(self, dataset, initial_state, scan_func):
        self._input = dataset
        self._state = normalize_element(initial_state)
        self._function = _state_function(scan_func, element_spec_of(self._state),
                                         dataset.element_spec, "Dataset.scan", _first)
        self._element_spec = self._function.output_spec[1]

    def _cardinality(self):
        return self._input._cardinality()

    def _generate(self):
        state = self._state
        for element in self._input._iterate():
            state, output = self._function((state, element))
            yield output


def _first(spec):
    if not isinstance(spec, tuple) or len(spec) != 2:
        raise TypeError("The scan function must return a pair (new_state, output_element), "
                        f"got {spec!r}.")
    return spec[0]


class _TakeWhileDataset(Dataset):
    """Elements until `predicate` first returns False."""

    def __init__(self, dataset, predicate):
        self._input = dataset
        self._function = StructuredFunction(predicate, dataset.element_spec,
                                            "Dataset.take_while")
        scalar_bool(self._function, "predicate")
        self._element_spec = dataset.element_spec

    def _generate(self):
        for element in self._input._iterate():
            if not truth(self._function(element)):
                return
            yield element

