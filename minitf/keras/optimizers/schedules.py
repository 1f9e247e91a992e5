"""`tf.keras.optimizers.schedules`: learning rates that change with the step.

A schedule is a callable `schedule(step) -> learning rate`. Give one to an
optimizer as its `learning_rate` and the optimizer calls it with its
`iterations` counter on every step. The formulas are Keras 3's, in minitf
ops, so they also work inside `tf.function`:

>>> import minitf as tf
>>> s = tf.keras.optimizers.schedules.ExponentialDecay(0.1, decay_steps=10, decay_rate=0.5)
>>> [round(float(s(step)), 4) for step in (0, 10, 20)]
[0.1, 0.05, 0.025]
"""
import math

from ...framework.tensor import convert_to_tensor as _convert_to_tensor
from ...framework.tf_export import tf_export
from ...ops.cond_ops import cond as _cond
from ...ops.math_ops import (cast as _cast, equal as _equal, greater as _greater, less as _less,
                             less_equal as _less_equal, log as _log,
                             logical_and as _logical_and,
                             minimum as _minimum, pow as _pow, where as _where)
from ...ops.unary_ops import ceil as _ceil, cos as _cos, floor as _floor


@tf_export("keras.optimizers.schedules.LearningRateSchedule",
           "optimizers.schedules.LearningRateSchedule")
class LearningRateSchedule:
    """Base class: define `__call__(step)` (and `get_config` to make it serializable).

    >>> class Halving(tf.keras.optimizers.schedules.LearningRateSchedule):
    ...     def __call__(self, step):
    ...         return 1.0 / tf.pow(2.0, tf.cast(step, tf.float32))
    >>> float(Halving()(3))
    0.125
    """

    def __call__(self, step):
        raise NotImplementedError(
            f"Learning rate schedule '{type(self).__name__}' must override `__call__(self, "
            "step)`.")

    def get_config(self):
        raise NotImplementedError(
            f"Learning rate schedule '{type(self).__name__}' must override `get_config()` "
            "in order to be serializable.")

    @classmethod
    def from_config(cls, config):
        return cls(**config)


def _check_decay_steps(decay_steps):
    if decay_steps <= 0:
        raise ValueError(f"Argument `decay_steps` must be > 0. Received: "
                         f"decay_steps={decay_steps}")


def _float_args(initial_learning_rate, step):
    """(initial lr as a tensor, its dtype, step cast to that dtype)."""
    initial = _convert_to_tensor(initial_learning_rate)
    return initial, initial.dtype, _cast(step, initial.dtype)


@tf_export("keras.optimizers.schedules.ExponentialDecay",
           "optimizers.schedules.ExponentialDecay")
class ExponentialDecay(LearningRateSchedule):
    """initial_learning_rate * decay_rate ** (step / decay_steps); `staircase` floors the power.

    >>> s = tf.keras.optimizers.schedules.ExponentialDecay(1.0, 2, 0.5, staircase=True)
    >>> [float(s(i)) for i in range(4)]
    [1.0, 1.0, 0.5, 0.5]
    """

    def __init__(self, initial_learning_rate, decay_steps, decay_rate, staircase=False,
                 name="ExponentialDecay"):
        self.initial_learning_rate = initial_learning_rate
        self.decay_steps = decay_steps
        self.decay_rate = decay_rate
        self.staircase = staircase
        self.name = name
        _check_decay_steps(decay_steps)

    def __call__(self, step):
        initial, dtype, step = _float_args(self.initial_learning_rate, step)
        p = step / _cast(self.decay_steps, dtype)
        if self.staircase:
            p = _floor(p)
        return initial * _pow(_cast(self.decay_rate, dtype), p)

    def get_config(self):
        return {"initial_learning_rate": self.initial_learning_rate,
                "decay_steps": self.decay_steps, "decay_rate": self.decay_rate,
                "staircase": self.staircase, "name": self.name}


@tf_export("keras.optimizers.schedules.PiecewiseConstantDecay",
           "optimizers.schedules.PiecewiseConstantDecay")
class PiecewiseConstantDecay(LearningRateSchedule):
    """values[0] while step <= boundaries[0], values[1] up to boundaries[1], ...

    >>> s = tf.keras.optimizers.schedules.PiecewiseConstantDecay([10, 20], [1.0, 0.5, 0.25])
    >>> [float(s(i)) for i in (0, 10, 11, 20, 21)]
    [1.0, 1.0, 0.5, 0.5, 0.25]
    """

    def __init__(self, boundaries, values, name="PiecewiseConstant"):
        if len(boundaries) != len(values) - 1:
            raise ValueError(
                "The length of boundaries should be 1 less than the length of values. "
                f"Received: boundaries={boundaries} of length {len(boundaries)}, and "
                f"values={values} of length {len(values)}.")
        self.boundaries = boundaries
        self.values = values
        self.name = name

    def __call__(self, step):
        step = _convert_to_tensor(step)
        boundaries = [_cast(b, step.dtype) for b in self.boundaries]
        values = [_convert_to_tensor(v) for v in self.values]
        dtype = values[0].dtype
        # Sum of value * [step in its range]: a piecewise constant function of step.
        result = _cast(_less_equal(step, boundaries[0]), dtype) * values[0]
        result += _cast(_greater(step, boundaries[-1]), dtype) * values[-1]
        for low, high, value in zip(boundaries[:-1], boundaries[1:], values[1:-1]):
            in_range = _logical_and(_greater(step, low), _less_equal(step, high))
            result += _cast(in_range, dtype) * value
        return result

    def get_config(self):
        return {"boundaries": self.boundaries, "values": self.values, "name": self.name}


@tf_export("keras.optimizers.schedules.PolynomialDecay",
           "optimizers.schedules.PolynomialDecay")
class PolynomialDecay(LearningRateSchedule):
    """(initial - end) * (1 - step / decay_steps) ** power + end, step capped at decay_steps.

    >>> s = tf.keras.optimizers.schedules.PolynomialDecay(1.0, 4, end_learning_rate=0.0)
    >>> [float(s(i)) for i in (0, 2, 4, 8)]
    [1.0, 0.5, 0.0, 0.0]
    """

    def __init__(self, initial_learning_rate, decay_steps, end_learning_rate=0.0001, power=1.0,
                 cycle=False, name="PolynomialDecay"):
        self.initial_learning_rate = initial_learning_rate
        self.decay_steps = decay_steps
        self.end_learning_rate = end_learning_rate
        self.power = power
        self.cycle = cycle
        self.name = name
        _check_decay_steps(decay_steps)

    def __call__(self, step):
        initial, dtype, step = _float_args(self.initial_learning_rate, step)
        end = _cast(self.end_learning_rate, dtype)
        decay_steps = _cast(self.decay_steps, dtype)
        if self.cycle:  # restart at each multiple of decay_steps (step 0 counts as the first)
            multiplier = _where(_equal(step, 0.0), _cast(1.0, dtype), _ceil(step / decay_steps))
            decay_steps = decay_steps * multiplier
        else:
            step = _minimum(step, decay_steps)
        p = step / decay_steps
        return (initial - end) * _pow(1 - p, _cast(self.power, dtype)) + end

    def get_config(self):
        return {"initial_learning_rate": self.initial_learning_rate,
                "decay_steps": self.decay_steps, "end_learning_rate": self.end_learning_rate,
                "power": self.power, "cycle": self.cycle, "name": self.name}


@tf_export("keras.optimizers.schedules.InverseTimeDecay",
           "optimizers.schedules.InverseTimeDecay")
class InverseTimeDecay(LearningRateSchedule):
    """initial_learning_rate / (1 + decay_rate * step / decay_steps).

    >>> s = tf.keras.optimizers.schedules.InverseTimeDecay(1.0, 1, 0.5)
    >>> [float(s(i)) for i in (0, 2, 6)]
    [1.0, 0.5, 0.25]
    """

    def __init__(self, initial_learning_rate, decay_steps, decay_rate, staircase=False,
                 name="InverseTimeDecay"):
        self.initial_learning_rate = initial_learning_rate
        self.decay_steps = decay_steps
        self.decay_rate = decay_rate
        self.staircase = staircase
        self.name = name
        _check_decay_steps(decay_steps)

    def __call__(self, step):
        initial, dtype, step = _float_args(self.initial_learning_rate, step)
        p = step / _cast(self.decay_steps, dtype)
        if self.staircase:
            p = _floor(p)
        return initial / (_cast(1.0, dtype) + _cast(self.decay_rate, dtype) * p)

    def get_config(self):
        return {"initial_learning_rate": self.initial_learning_rate,
                "decay_steps": self.decay_steps, "decay_rate": self.decay_rate,
                "staircase": self.staircase, "name": self.name}


@tf_export("keras.optimizers.schedules.CosineDecay", "optimizers.schedules.CosineDecay")
class CosineDecay(LearningRateSchedule):
    """Half a cosine from lr down to alpha * lr over decay_steps, after an optional linear
    warm-up (warmup_steps steps from initial_learning_rate up to warmup_target).

    >>> s = tf.keras.optimizers.schedules.CosineDecay(1.0, decay_steps=10)
    >>> [round(float(s(i)), 4) for i in (0, 5, 10, 20)]
    [1.0, 0.5, 0.0, 0.0]
    """

    def __init__(self, initial_learning_rate, decay_steps, alpha=0.0, name="CosineDecay",
                 warmup_target=None, warmup_steps=0):
        self.initial_learning_rate = initial_learning_rate
        self.decay_steps = decay_steps
        self.alpha = alpha
        self.name = name
        self.warmup_steps = warmup_steps
        self.warmup_target = warmup_target
        _check_decay_steps(decay_steps)

    def _decay(self, step, decay_steps, decay_from_lr, dtype):
        cosine = 0.5 * (1.0 + _cos(_cast(math.pi, dtype) * (step / decay_steps)))
        return decay_from_lr * ((1 - self.alpha) * cosine + self.alpha)

    def __call__(self, step):
        initial, dtype, step = _float_args(self.initial_learning_rate, step)
        decay_steps = _cast(self.decay_steps, dtype)
        if self.warmup_target is None:
            return self._decay(_minimum(step, decay_steps), decay_steps, initial, dtype)
        target = _cast(self.warmup_target, dtype)
        warmup_steps = _cast(self.warmup_steps, dtype)
        step = _minimum(step, decay_steps + warmup_steps)
        return _cond(_less(step, warmup_steps),
                    lambda: (target - initial) * (step / warmup_steps) + initial,
                    lambda: self._decay(step - warmup_steps, decay_steps, target, dtype))

    def get_config(self):
        return {"initial_learning_rate": self.initial_learning_rate,
                "decay_steps": self.decay_steps, "alpha": self.alpha, "name": self.name,
                "warmup_target": self.warmup_target, "warmup_steps": self.warmup_steps}


@tf_export("keras.optimizers.schedules.CosineDecayRestarts",
           "optimizers.schedules.CosineDecayRestarts")
class CosineDecayRestarts(LearningRateSchedule):
    """Cosine decay with warm restarts (SGDR): a cosine from lr down to alpha * lr over
    `first_decay_steps`, then again over t_mul times as many steps from m_mul times the
    previous peak, and so on.

    >>> s = tf.keras.optimizers.schedules.CosineDecayRestarts(1.0, 4, t_mul=2.0, m_mul=0.5)
    >>> [round(float(s(i)), 4) for i in (0, 2, 4, 8, 12)]
    [1.0, 0.5, 0.5, 0.25, 0.25]
    """

    def __init__(self, initial_learning_rate, first_decay_steps, t_mul=2.0, m_mul=1.0,
                 alpha=0.0, name="SGDRDecay"):
        self.initial_learning_rate = initial_learning_rate
        self.first_decay_steps = first_decay_steps
        self._t_mul = t_mul
        self._m_mul = m_mul
        self.alpha = alpha
        self.name = name
        if first_decay_steps <= 0:
            raise ValueError("Argument `first_decay_steps` must be > 0. Received: "
                             f"first_decay_steps={first_decay_steps}")

    def __call__(self, step):
        initial, dtype, step = _float_args(self.initial_learning_rate, step)
        t_mul, m_mul = _cast(self._t_mul, dtype), _cast(self._m_mul, dtype)
        alpha = _cast(self.alpha, dtype)
        fraction = step / _cast(self.first_decay_steps, dtype)  # in units of the first cycle
        i_restart, fraction = _cond(_equal(t_mul, 1.0),
                                    lambda: _restart_equal(fraction),
                                    lambda: _restart_geometric(fraction, t_mul))
        cosine = 0.5 * _pow(m_mul, i_restart) * (1.0 + _cos(_cast(math.pi, dtype) * fraction))
        return initial * ((1 - alpha) * cosine + alpha)

    def get_config(self):
        return {"initial_learning_rate": self.initial_learning_rate,
                "first_decay_steps": self.first_decay_steps, "t_mul": self._t_mul,
                "m_mul": self._m_mul, "alpha": self.alpha, "name": self.name}


def _restart_equal(fraction):
    """Cycles of equal length: restart number and the fraction done of the current one."""
    i_restart = _floor(fraction)
    return i_restart, fraction - i_restart


def _restart_geometric(fraction, t_mul):
    """Cycle k lasts t_mul ** k first cycles; cycles 0..i-1 sum to (1 - t_mul**i) / (1 - t_mul)."""
    i_restart = _floor(_log(1.0 - fraction * (1.0 - t_mul)) / _log(t_mul))
    done = (1.0 - _pow(t_mul, i_restart)) / (1.0 - t_mul)
    return i_restart, (fraction - done) / _pow(t_mul, i_restart)


_SCHEDULES = {c.__name__: c for c in (ExponentialDecay, PiecewiseConstantDecay,
                                      PolynomialDecay, InverseTimeDecay, CosineDecay,
                                      CosineDecayRestarts)}


@tf_export("keras.optimizers.schedules.serialize", "optimizers.schedules.serialize")
def serialize(learning_rate_schedule):
    """A schedule as a dict `{"class_name": ..., "config": ...}` (Keras's format).

    >>> tf.keras.optimizers.schedules.serialize(
    ...     tf.keras.optimizers.schedules.InverseTimeDecay(0.1, 5, 0.5))["class_name"]
    'InverseTimeDecay'
    """
    return {"module": "keras.optimizers.schedules",
            "class_name": type(learning_rate_schedule).__name__,
            "config": learning_rate_schedule.get_config(), "registered_name": None}


@tf_export("keras.optimizers.schedules.deserialize", "optimizers.schedules.deserialize")
def deserialize(config, custom_objects=None):
    """The schedule a `serialize` dict describes.

    >>> d = {"class_name": "ExponentialDecay",
    ...      "config": {"initial_learning_rate": 1.0, "decay_steps": 1, "decay_rate": 0.5}}
    >>> float(tf.keras.optimizers.schedules.deserialize(d)(2))
    0.25
    """
    known = dict(_SCHEDULES, **(custom_objects or {}))
    name = config["class_name"]
    if name not in known:
        raise ValueError(f"Unknown learning rate schedule: '{name}'. Please ensure you are "
                         "using a `keras.utils.custom_object_scope` and that this object is "
                         "included in the scope (or pass it in `custom_objects`).")
    return known[name].from_config(config["config"])


del tf_export  # an implementation import: TF's namespace does not show it
