"""`tf.keras.constraints`: projections applied to a weight after each optimizer step.

A constraint maps a weight to an allowed one (non-negative, bounded norm,
...). A layer passes it to its variable (`variable.constraint`); the
optimizer applies it after every update.

>>> import minitf as tf
>>> tf.keras.constraints.NonNeg()(tf.constant([-1.0, 2.0]))
<tf.Tensor: shape=(2,), dtype=float32, numpy=array([0., 2.], dtype=float32)>
>>> tf.keras.constraints.UnitNorm(axis=0)(tf.constant([[3.0], [4.0]])).numpy()
array([[0.6],
       [0.8]], dtype=float32)

Norms are taken along `axis` (default 0: for a Dense kernel of shape
(inputs, units), one norm per unit's incoming weight vector).
"""
import minitf as tf

from ..framework.tf_export import tf_export
from . import backend, serialization

_MODULE = "keras.constraints"


def _norms(w, axis):
    return tf.sqrt(tf.reduce_sum(tf.square(w), axis=axis, keepdims=True))


@tf_export("keras.constraints.Constraint")
class Constraint:
    """Base class: `__call__(w)` returns the projected weight (the default: w itself)."""

    def __call__(self, w):
        return w

    def get_config(self):
        return {}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


@tf_export("keras.constraints.MaxNorm", "keras.constraints.max_norm")
class MaxNorm(Constraint):
    """Rescale weight vectors whose norm exceeds `max_value` (default 2) down to it."""

    def __init__(self, max_value=2, axis=0):
        self.max_value, self.axis = max_value, axis

    def __call__(self, w):
        w = tf.convert_to_tensor(w)
        norms = _norms(w, self.axis)
        desired = tf.clip_by_value(norms, 0.0, float(self.max_value))
        return w * (desired / (backend.epsilon() + norms))

    def get_config(self):
        return {"max_value": self.max_value, "axis": self.axis}


@tf_export("keras.constraints.NonNeg", "keras.constraints.non_neg")
class NonNeg(Constraint):
    """max(w, 0): weights stay non-negative."""

    def __call__(self, w):
        return tf.maximum(tf.convert_to_tensor(w), 0.0)


@tf_export("keras.constraints.UnitNorm", "keras.constraints.unit_norm")
class UnitNorm(Constraint):
    """Divide each weight vector by its norm (plus epsilon)."""

    def __init__(self, axis=0):
        self.axis = axis

    def __call__(self, w):
        w = tf.convert_to_tensor(w)
        return w / (backend.epsilon() + _norms(w, self.axis))

    def get_config(self):
        return {"axis": self.axis}


@tf_export("keras.constraints.MinMaxNorm", "keras.constraints.min_max_norm")
class MinMaxNorm(Constraint):
    """Move each vector's norm into [min_value, max_value], a fraction `rate` of the way."""

    def __init__(self, min_value=0.0, max_value=1.0, rate=1.0, axis=0):
        self.min_value, self.max_value, self.rate, self.axis = min_value, max_value, rate, axis

    def __call__(self, w):
        w = tf.convert_to_tensor(w)
        norms = _norms(w, self.axis)
        desired = (self.rate * tf.clip_by_value(norms, float(self.min_value),
                                                float(self.max_value))
                   + (1 - self.rate) * norms)
        return w * (desired / (backend.epsilon() + norms))

    def get_config(self):
        return {"min_value": self.min_value, "max_value": self.max_value, "rate": self.rate,
                "axis": self.axis}


_ALL = {"MaxNorm": MaxNorm, "NonNeg": NonNeg, "UnitNorm": UnitNorm, "MinMaxNorm": MinMaxNorm,
        "max_norm": MaxNorm, "non_neg": NonNeg, "unit_norm": UnitNorm,
        "min_max_norm": MinMaxNorm, "Constraint": Constraint}


@tf_export("keras.constraints.serialize")
def serialize(constraint):
    """The Keras 3 config dict of a constraint."""
    return serialization.serialize_keras_object(constraint, _MODULE)


@tf_export("keras.constraints.deserialize")
def deserialize(config, custom_objects=None):
    """A constraint from `serialize`'s dict (or from its name)."""
    return serialization.deserialize_keras_object(config, _ALL, "constraint", custom_objects)


@tf_export("keras.constraints.get")
def get(identifier):
    """A constraint from a name ('non_neg'), a config dict, or a callable."""
    if identifier is None:
        return None
    if isinstance(identifier, (str, dict)):
        return deserialize(identifier)
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret constraint identifier: {identifier}")


del tf_export  # an implementation import: TF's namespace does not show it
