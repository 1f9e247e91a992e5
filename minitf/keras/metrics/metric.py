"""The `Metric` base class: state variables + `update_state` / `result` / `reset_state`.

>>> import minitf as tf
>>> class CountPositives(tf.keras.metrics.Metric):
...     def __init__(self, name="count_positives", **kwargs):
...         super().__init__(name=name, **kwargs)
...         self.count = self.add_weight(name="count", initializer="zeros")
...     def update_state(self, values, sample_weight=None):
...         self.count.assign_add(tf.reduce_sum(tf.cast(tf.constant(values) > 0, "float32")))
...     def result(self):
...         return self.count
>>> m = CountPositives()
>>> print(m([1.0, -2.0, 3.0]).numpy(), m([4.0]).numpy())
2.0 3.0
>>> m.reset_state()
>>> print(m.result().numpy())
0.0

State variables are Keras variables named plainly, with the metric in `path`
(as in Keras 3; classic tf.keras called them 'count:0'):

>>> m.count
<Variable path=count_positives/count, shape=(), dtype=float32, value=0.0>

Keras 3 has no `reset_states()` (the classic name); minitf says what to call:

>>> m.reset_states()
Traceback (most recent call last):
...
AttributeError: 'CountPositives' object has no attribute 'reset_states'. Keras 3 (TF 2.16 and later) renamed it: call reset_state().
"""
import re

import numpy as np

from ...framework import dtypes
from ...framework.tf_export import tf_export
from ...framework.variables import Variable, VariableAggregation, VariableSynchronization
from ..backend import _unique_name
from ..variables import Variable as KerasVariable


def _snake_case(name):
    name = re.sub(r"(.)([A-Z][a-z]+)", r"\1_\2", name)
    return re.sub(r"([a-z])([A-Z])", r"\1_\2", name).lower()


@tf_export("keras.metrics.Metric", "keras.Metric", "metrics.Metric")
class Metric:
    """Base class of metrics: create state in `__init__` with `add_variable` (or the
    classic `add_weight`), define `update_state(...)` and `result()`.

    Calling the metric (`m(y_true, y_pred)`) updates it and returns the result.
    """

    def __init__(self, dtype=None, name=None):
        # Keras 3's auto_name: an unnamed metric is 'auc', then 'auc_1', ... (per program)
        self.name = name or _unique_name(_snake_case(type(self).__name__))
        self._dtype = dtypes.as_dtype(dtype or "float32")
        self._variables = []
        self._metrics = []

    def __setattr__(self, name, value):
        # Track state the way Keras does: variables and sub-metrics set as attributes.
        if name not in ("_variables", "_metrics") and hasattr(self, "_variables"):
            if isinstance(value, Variable) and all(v is not value for v in self._variables):
                self._variables.append(value)
            elif isinstance(value, Metric) and all(m is not value for m in self._metrics):
                self._metrics.append(value)
        super().__setattr__(name, value)

    @property
    def dtype(self):
        """The dtype of the metric's result, as a string ("float32")."""
        return self._dtype.name

    @property
    def variables(self):
        """The state variables (of this metric and of metrics it holds)."""
        variables = list(self._variables)
        for metric in self._metrics:
            variables.extend(metric.variables)
        return variables

    def add_variable(self, shape, initializer, dtype=None, aggregation="sum", name=None):
        """A non-trainable state variable filled with 0 ("zeros") or a number."""
        if not hasattr(self, "_variables"):
            raise RuntimeError("You forgot to call `super().__init__()` in the `__init__()` "
                               "method. Go add it!")
        dtype = dtypes.as_dtype(dtype or self._dtype)
        if initializer in (None, "zeros", "Zeros"):
            fill = 0
        elif initializer in ("ones", "Ones"):
            fill = 1
        else:
            fill = float(initializer)
        shape = [int(d) for d in (shape if isinstance(shape, (list, tuple)) else
                                  getattr(shape, "as_list", lambda: [shape])())]
        name = name or "variable"
        variable = KerasVariable(np.full(shape, fill, dtype=dtype.as_numpy_dtype),
                                 trainable=False, name=name, path=f"{self.name}/{name}")
        variable._synchronization = VariableSynchronization.ON_READ  # as Keras 3: on_read, sum
        variable._aggregation = VariableAggregation.SUM
        self._initial_values = getattr(self, "_initial_values", {})
        self._initial_values[id(variable)] = fill
        self._variables.append(variable)
        return variable

    def add_weight(self, name=None, shape=(), dtype=None, initializer=None, **kwargs):
        """Classic spelling of `add_variable` (name first; zeros by default)."""
        return self.add_variable(shape=shape, initializer=initializer, dtype=dtype, name=name)

    def update_state(self, *args, **kwargs):
        raise NotImplementedError(f"Metric {type(self).__name__} must define update_state().")

    def result(self):
        raise NotImplementedError(f"Metric {type(self).__name__} must define result().")

    def reset_state(self):
        """Set every state variable back to its initial value."""
        initial = getattr(self, "_initial_values", {})
        for v in self.variables:
            v.assign(np.full(v.shape.as_list(), initial.get(id(v), 0),
                             dtype=v.dtype.as_numpy_dtype))

    def __getattr__(self, name):
        if name == "reset_states":  # removed in Keras 3: say what replaced it
            raise AttributeError(f"{type(self).__name__!r} object has no attribute "
                                 "'reset_states'. Keras 3 (TF 2.16 and later) renamed it: "
                                 "call reset_state().")
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def __call__(self, *args, **kwargs):
        """update_state(...), then return result()."""
        self.update_state(*args, **kwargs)
        return self.result()

    def get_config(self):
        return {"name": self.name, "dtype": self.dtype}

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    def __repr__(self):
        return f"<{type(self).__name__} name={self.name}>"
