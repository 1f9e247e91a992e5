"""How `fit` calls its `tf.function` step cheaply: the batch's tensors as flat arguments.

A batch is a small nested structure - `(x, y)`, `(x, y, sample_weight)`, with
`x` perhaps a list or a dict of arrays. `tf.function` finds its trace by the
structure, shapes and dtypes of its arguments; for one nested argument it binds
the Python signature and walks the structure with `tf.nest` on every call,
which costs about as much as running a small model's graph. With plain tensor
arguments it takes a short path. So `fit` walks the batch once itself -
turning NumPy leaves into tensors on the way - and calls a `tf.function` of
`*tensors`, one per batch structure; the function puts the structure back
together before calling `train_step(data)`. Real Keras does the same kind of
thing for the same reason (its TF trainer hands `tf.function` pre-flattened,
"distributed" data).

>>> step = FlatStepFunction(lambda data: data[0] + data[1])
>>> float(step((tf.constant(1.0), tf.constant(2.0))))
3.0
>>> key, tensors = flatten_batch(({"a": np.ones(2)}, [1.0, None]))
>>> key, len(tensors)
(('tuple', ('dict', ('a', 'T')), ('list', 'T', None)), 2)
"""
import inspect

from ...framework import nest
from ...framework.function import function
from ...framework.tensor import Tensor, convert_to_tensor
from ..utils import data_adapter

_TENSOR = "T"


def _as_tensor(value):
    """A batch leaf as a tensor (float64 NumPy data becomes float32, as Keras)."""
    return convert_to_tensor(data_adapter._to_array(value))


def flatten_batch(data):
    """(key, tensors): the batch's structure as a hashable key, and its leaves as tensors."""
    tensors = []

    def walk(value):
        kind = type(value)
        if kind is tuple or kind is list:
            return (kind.__name__,) + tuple(walk(v) for v in value)
        if kind is dict:
            return ("dict",) + tuple((k, walk(value[k])) for k in sorted(value, key=repr))
        if value is None:
            return None
        if nest.is_nested(value) or getattr(value, "_is_composite_tensor", False):
            raise TypeError("unusual structure")  # a namedtuple, a SparseTensor: kept whole
        tensors.append(value if isinstance(value, Tensor) else _as_tensor(value))
        return _TENSOR

    return walk(data), tensors


def rebuild_batch(key, tensors):
    """The inverse of `flatten_batch`: the structure `key` filled with `tensors`."""
    leaves = iter(tensors)

    def build(k):
        if k is None:
            return None
        if k == _TENSOR:
            return next(leaves)
        if k[0] == "dict":
            return {name: build(sub) for name, sub in k[1:]}
        items = [build(sub) for sub in k[1:]]
        return tuple(items) if k[0] == "tuple" else items

    return build(key)


class FlatStepFunction:
    """`step(data)` run as a `tf.function` of the batch's flattened tensors."""

    def __init__(self, step):
        self.python_function = step
        self._functions = {}  # batch structure key -> tf.function of *tensors
        self._nested = None   # the plain tf.function, for structures flatten_batch refuses

    def __call__(self, data):
        try:
            key, tensors = flatten_batch(data)
        except TypeError:
            if self._nested is None:
                self._nested = function(self.python_function)
            return self._nested(data)
        flat_function = self._functions.get(key)
        if flat_function is None:
            flat_function = self._functions[key] = function(self._flat_step(key, len(tensors)))
        return flat_function(*tensors)

    def _flat_step(self, key, count):
        step = self.python_function

        def one_step_on_flat_data(*tensors):
            return step(rebuild_batch(key, tensors))

        # Plain positional parameters (t0, t1, ...): what tf.function's short path wants.
        one_step_on_flat_data.__signature__ = inspect.Signature(
            [inspect.Parameter(f"t{i}", inspect.Parameter.POSITIONAL_OR_KEYWORD)
             for i in range(count)])
        return one_step_on_flat_data

    def experimental_get_tracing_count(self):
        """Traces made so far, over every batch structure (TF's counter name)."""
        functions = list(self._functions.values()) + [self._nested] * (self._nested is not None)
        return sum(f.experimental_get_tracing_count() for f in functions)
