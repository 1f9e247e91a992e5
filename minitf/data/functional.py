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
"""
import numpy as np  # noqa: F401 - used by the docstring examples

from .dataset_ops import Dataset
from .structure import compatible_spec, element_spec_of, flatten, normalize_element, pack, \
    same_structure
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
    for element in dataset._iterate():
        state = function((state, element))
    return state


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

