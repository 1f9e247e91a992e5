"""`tf.keras.regularizers`: penalties on weights, added to a layer's `losses`.

A regularizer maps a weight to a scalar; a layer built with
`kernel_regularizer=...` reports that scalar in `layer.losses`, and training
adds it to the loss - that is all "L2 regularization" means:

>>> import minitf as tf
>>> w = tf.constant([[1.0, -2.0], [3.0, 0.0]])
>>> round(float(tf.keras.regularizers.L2(0.1)(w)), 5)    # 0.1 * (1 + 4 + 9)
1.4
>>> round(float(tf.keras.regularizers.L1(0.1)(w)), 5)    # 0.1 * (1 + 2 + 3)
0.6
"""
import numpy as _np

import minitf as tf

from ..framework.tf_export import tf_export
from . import serialization

_MODULE = "keras.regularizers"


def _check_penalty(name, value):
    if not isinstance(value, (int, float)) or value != value or value < 0 or \
            value == float("inf"):
        raise ValueError(f"Value {value} is not a valid regularization penalty number, "
                         "expected an int or float value. A penalty is a factor >= 0, "
                         f"e.g. {name}=0.01.")


@tf_export("keras.regularizers.Regularizer", "keras.Regularizer")
class Regularizer:
    """Base class: subclasses implement `__call__(x)` -> a scalar penalty."""

    def __call__(self, x):
        return 0.0

    def get_config(self):
        raise NotImplementedError(f"{self} does not implement get_config()")

    @classmethod
    def from_config(cls, config):
        return cls(**config)


@tf_export("keras.regularizers.L1", "keras.regularizers.l1")
class L1(Regularizer):
    """l1 * sum(|x|) (default l1=0.01)."""

    def __init__(self, l1=0.01):
        l1 = 0.01 if l1 is None else l1
        _check_penalty("l1", l1)
        self.l1 = float(l1)

    def __call__(self, x):
        return self.l1 * tf.reduce_sum(tf.abs(x))

    def get_config(self):
        # Keras 3.15 keeps L1's factor as a float32 tensor: the config holds float32's value
        return {"l1": float(_np.float32(self.l1))}


@tf_export("keras.regularizers.L2", "keras.regularizers.l2")
class L2(Regularizer):
    """l2 * sum(x^2) (default l2=0.01). Note: no factor 1/2, unlike tf.nn.l2_loss."""

    def __init__(self, l2=0.01):
        l2 = 0.01 if l2 is None else l2
        _check_penalty("l2", l2)
        self.l2 = float(l2)

    def __call__(self, x):
        return self.l2 * tf.reduce_sum(tf.square(x))

    def get_config(self):
        return {"l2": self.l2}


@tf_export("keras.regularizers.L1L2", "keras.regularizers.l1_l2")
class L1L2(Regularizer):
    """l1 * sum(|x|) + l2 * sum(x^2) (both default 0.0)."""

    def __init__(self, l1=0.0, l2=0.0):
        l1, l2 = 0.0 if l1 is None else l1, 0.0 if l2 is None else l2
        _check_penalty("l1", l1)
        _check_penalty("l2", l2)
        self.l1, self.l2 = float(l1), float(l2)

    def __call__(self, x):
        penalty = tf.constant(0.0, dtype=tf.convert_to_tensor(x).dtype)
        if self.l1:
            penalty = penalty + self.l1 * tf.reduce_sum(tf.abs(x))
        if self.l2:
            penalty = penalty + self.l2 * tf.reduce_sum(tf.square(x))
        return penalty

    def get_config(self):
        return {"l1": self.l1, "l2": self.l2}


@tf_export("keras.regularizers.OrthogonalRegularizer",
           "keras.regularizers.orthogonal_regularizer")
class OrthogonalRegularizer(Regularizer):
    """Pushes the rows (mode='rows') or columns of a 2-D weight towards orthogonality:
    factor * mean |cosine similarity| over distinct pairs.

    >>> float(tf.keras.regularizers.OrthogonalRegularizer(1.0)(tf.eye(3)))
    0.0
    """

    def __init__(self, factor=0.01, mode="rows"):
        _check_penalty("factor", factor)
        if mode not in ("rows", "columns"):
            raise ValueError("Invalid value for argument `mode`. Expected one of "
                             f"{{'rows', 'columns'}}. Received: mode={mode}")
        self.factor, self.mode = factor, mode

    def __call__(self, inputs):
        if len(inputs.shape) != 2:
            raise ValueError("Inputs to OrthogonalRegularizer must have rank 2. Received: "
                             f"inputs.shape={inputs.shape}")
        if self.mode == "rows":
            inputs = tf.math.l2_normalize(inputs, axis=1)
            product, size = tf.matmul(inputs, inputs, transpose_b=True), inputs.shape[0]
        else:
            inputs = tf.math.l2_normalize(inputs, axis=0)
            product, size = tf.matmul(inputs, inputs, transpose_a=True), inputs.shape[1]
        off_diagonal = product * (1.0 - tf.eye(size, dtype=inputs.dtype))
        num_pairs = size * (size - 1.0) / 2.0
        return self.factor * 0.5 * tf.reduce_sum(tf.abs(off_diagonal)) / num_pairs

    def get_config(self):
        return {"factor": float(self.factor), "mode": self.mode}


_ALL = {"L1": L1, "L2": L2, "L1L2": L1L2, "OrthogonalRegularizer": OrthogonalRegularizer,
        "l1": L1, "l2": L2, "l1_l2": L1L2, "orthogonal_regularizer": OrthogonalRegularizer}


@tf_export("keras.regularizers.serialize")
def serialize(regularizer):
    """The Keras 3 config dict of a regularizer."""
    return serialization.serialize_keras_object(regularizer, _MODULE)


@tf_export("keras.regularizers.deserialize")
def deserialize(config, custom_objects=None):
    """A regularizer from `serialize`'s dict (or from its name)."""
    return serialization.deserialize_keras_object(config, _ALL, "regularizer", custom_objects)


@tf_export("keras.regularizers.get")
def get(identifier):
    """A regularizer from 'l1', 'l2', 'l1_l2', a config dict, or a callable.

    >>> tf.keras.regularizers.get("l2").l2
    0.01
    """
    if identifier is None:
        return None
    if isinstance(identifier, (str, dict)):
        return deserialize(identifier)
    if callable(identifier):
        return identifier
    raise ValueError(f"Could not interpret regularizer identifier: {identifier}")


del tf_export  # an implementation import: TF's namespace does not show it
