"""`tf.train.ExponentialMovingAverage`: shadow variables that follow others slowly.

Each `apply()` moves every shadow towards its variable:
`shadow -= (1 - decay) * (shadow - variable)`, i.e.
`shadow = decay * shadow + (1 - decay) * variable`.

>>> import minitf as tf
>>> w = tf.Variable([1.0, 2.0], name="w")
>>> ema = tf.train.ExponentialMovingAverage(decay=0.9)
>>> ema.apply([w])                    # makes the shadow (a copy of w), then updates it
>>> _ = w.assign([2.0, 0.0])
>>> ema.apply([w])
>>> ema.average(w)
<tf.Variable 'w/ExponentialMovingAverage:0' shape=(2,) dtype=float32, numpy=array([1.1, 1.8], dtype=float32)>
>>> ema.average_name(w)
'w/ExponentialMovingAverage'

With `num_updates` (usually the step counter) the decay used is
`min(decay, (1 + num_updates) / (10 + num_updates))`: early averages move faster.
The object is not trackable (as in TF): checkpoint the shadows themselves,
e.g. `tf.train.Checkpoint(w=w, w_avg=ema.average(w))`.
"""
import weakref

from ..framework import dtypes
from ..framework.tensor import convert_to_tensor
from ..framework.tf_export import tf_export
from ..framework.variables import Variable
from ..ops.graph_helper_ops import group, init_scope
from ..ops.math_ops import cast, minimum

_FLOATS = (dtypes.float16, dtypes.float32, dtypes.float64)
# TF keeps the variables that have a moving average in a graph collection
# (MOVING_AVERAGE_VARIABLES), shared by every ExponentialMovingAverage; so does this list.
_moving_average_variables = []
# Shadow names are made unique, as TF's variable_scope does ("w/ExponentialMovingAverage_1").
_used_names = set()


def _unique(base):
    name, i = base, 0
    while name in _used_names:
        i += 1
        name = f"{base}_{i}"
    _used_names.add(name)
    return name


def _op_name(var):
    return var.name[:-2] if var.name.endswith(":0") else var.name


@tf_export("train.ExponentialMovingAverage")
class ExponentialMovingAverage:
    """Maintain moving averages of variables by exponential decay.

    decay: a float, Tensor or Variable (read at each `apply`).
    num_updates: optional step count; the decay becomes
      `min(decay, (1 + num_updates) / (10 + num_updates))`.
    zero_debias: accepted as TF's; it only affects averages of plain tensors,
      which TF 2 refuses in eager mode and in tf.function alike, so it never applies.
    """

    def __init__(self, decay, num_updates=None, zero_debias=False,
                 name="ExponentialMovingAverage"):
        self._decay = decay
        self._num_updates = num_updates
        self._zero_debias = zero_debias
        self._name = name
        self._averages = {}  # var.ref() -> shadow Variable

    @property
    def name(self):
        """The name of this ExponentialMovingAverage object."""
        return self._name

    def apply(self, var_list=None):
        """Create missing shadows (copies of the variables), then update every shadow once.

        Returns None eagerly; inside tf.function, the grouping operation (as `tf.group`).
        """
        var_list = list(var_list or [])
        for var in var_list:
            self._check(var)
        for var in var_list:
            if var.ref() not in self._averages:
                with init_scope():
                    self._averages[var.ref()] = self._make_shadow(var)
        decay = self._current_decay()
        updates = [self._update(self._averages[v.ref()], v, decay) for v in var_list]
        return group(*updates, name=self._name)

    @staticmethod
    def _check(var):
        if not isinstance(var, Variable):
            raise TypeError("tf.train.ExponentialMovingAverage does not support non-Variable"
                            " tensors when eager execution is enabled.")
        if var.dtype.base_dtype not in _FLOATS:
            raise TypeError(f"The variables must be half, float, or double: {var.name}")

    def _make_shadow(self, var):
        name = _unique(_op_name(var) + "/" + self._name)
        shadow = Variable(var.read_value(), trainable=False, name=name)
        if not any(ref() is var for ref in _moving_average_variables):
            _moving_average_variables.append(weakref.ref(var))
        return shadow

    def _current_decay(self):
        # As TF: the decay is a float32 tensor; num_updates lowers it early on.
        decay = convert_to_tensor(self._decay, dtype=dtypes.float32)
        if self._num_updates is not None:
            n = cast(self._num_updates, dtypes.float32)
            decay = minimum(decay, (1.0 + n) / (10.0 + n))
        return decay

    @staticmethod
    def _update(shadow, var, decay):
        one_minus = cast(1.0 - decay, shadow.dtype)
        return shadow.assign_sub((shadow - var) * one_minus)

    def average(self, var):
        """The shadow Variable of `var`, or None if `var` has no moving average."""
        return self._averages.get(var.ref(), None)

    def average_name(self, var):
        """[TF1] The name of `var`'s shadow (the name it will get, before `apply`)."""
        if var.ref() in self._averages:
            return _op_name(self._averages[var.ref()])
        # Eager TF asks the (empty) default graph for a unique name: the plain name.
        return _op_name(var) + "/" + self._name

    def variables_to_restore(self, moving_avg_variables=None):
        """[TF1] {shadow name: variable}: for a name-based saver that loads averages.

        Default: every variable that has a moving average (from any
        ExponentialMovingAverage, as TF's collection). TF 2 has no global
        variables list, so nothing else is added.
        """
        if moving_avg_variables is None:
            moving_avg_variables = [r() for r in _moving_average_variables if r() is not None]
        unique = {v.ref(): v for v in moving_avg_variables}
        return {self.average_name(v): v for v in unique.values()}

