"""Activation layers: ReLU, LeakyReLU, ELU, PReLU, Softmax (Keras 3's arguments), and the
legacy ThresholdedReLU that tf.keras keeps.

Each is its activation function as a layer, so it can sit in a `Sequential`
model and be saved by name with its settings. `PReLU` is the one with a
weight: a learned slope `alpha` for negative inputs, one per feature unless
`shared_axes` shares it.

>>> import minitf as tf
>>> x = tf.constant([[-2.0, -0.5, 0.0, 3.0]])
>>> tf.keras.layers.LeakyReLU()(x).numpy()              # negative_slope=0.3
array([[-0.6 , -0.15,  0.  ,  3.  ]], dtype=float32)
>>> tf.keras.layers.ReLU(max_value=2.0)(x).numpy()
array([[0., 0., 0., 2.]], dtype=float32)
>>> prelu = tf.keras.layers.PReLU()
>>> prelu(x).numpy(), prelu.count_params()              # alpha starts at zero: a ReLU
(array([[0., 0., 0., 3.]], dtype=float32), 4)
"""
import numbers

import minitf as tf

from ...framework.tf_export import tf_export
from .. import activations, constraints, initializers, regularizers
from ..engine.base_layer import Layer
from ..engine.input_spec import InputSpec
from .core import _serialize


class _ActivationLayer(Layer):
    """A layer without weights that keeps the input's shape (and its mask)."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True
        self.built = True  # no weights: built from the start, as in Keras 3

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)


def _non_negative(value, message):
    if value is None or not isinstance(value, numbers.Real) or value < 0:
        raise ValueError(message)
    return value


@tf_export("keras.layers.ReLU")
class ReLU(_ActivationLayer):
    """`max_value` caps the output; below `threshold` the output is
    `negative_slope * (x - threshold)`, above it x (Keras's `relu`).

    >>> tf.keras.layers.ReLU(negative_slope=0.1, threshold=1.0)(tf.constant([0.0, 2.0])).numpy()
    array([-0.1,  2. ], dtype=float32)
    """

    def __init__(self, max_value=None, negative_slope=0.0, threshold=0.0, **kwargs):
        super().__init__(**kwargs)
        if max_value is not None and (not isinstance(max_value, numbers.Real) or max_value < 0):
            raise ValueError("max_value of a ReLU layer cannot be a negative value. "
                             f"Received: max_value={max_value}")
        _non_negative(negative_slope, "negative_slope of a ReLU layer cannot be None or a "
                                      f"negative value. Received: negative_slope={negative_slope}")
        _non_negative(threshold, "threshold of a ReLU layer cannot be None or a negative "
                                 f"value. Received: threshold={threshold}")
        self.max_value, self.negative_slope, self.threshold = max_value, negative_slope, threshold

    def call(self, inputs):
        return activations.relu(inputs, negative_slope=self.negative_slope,
                                max_value=self.max_value, threshold=self.threshold)

    def get_config(self):
        config = super().get_config()
        config.update({"max_value": self.max_value, "negative_slope": self.negative_slope,
                       "threshold": self.threshold})
        return config


@tf_export("keras.layers.LeakyReLU")
class LeakyReLU(_ActivationLayer):
    """x for x >= 0, `negative_slope * x` below: negative inputs keep a small gradient.

    Keras 3's default slope is 0.3 (`tf.nn.leaky_relu`'s is 0.2). The Keras 2
    name `alpha` is still accepted, with a warning, as in Keras 3.
    """

    def __init__(self, negative_slope=0.3, **kwargs):
        if "alpha" in kwargs:
            import warnings

            negative_slope = kwargs.pop("alpha")
            warnings.warn("Argument `alpha` is deprecated. Use `negative_slope` instead.",
                          stacklevel=2)
        super().__init__(**kwargs)
        _non_negative(negative_slope, "The negative_slope value of a Leaky ReLU layer cannot "
                                      "be None or negative value. Expected a float. Received: "
                                      f"negative_slope={negative_slope}")
        self.negative_slope = negative_slope

    def call(self, inputs):
        return tf.nn.leaky_relu(inputs, alpha=self.negative_slope)

    def get_config(self):
        config = super().get_config()
        config["negative_slope"] = self.negative_slope
        return config


@tf_export("keras.layers.ELU")
class ELU(_ActivationLayer):
    """x for x > 0, `alpha * (exp(x) - 1)` below: smooth, and it saturates at -alpha.

    >>> tf.keras.layers.ELU(alpha=0.5)(tf.constant([-100.0, 1.0])).numpy()
    array([-0.5,  1. ], dtype=float32)
    """

    def __init__(self, alpha=1.0, **kwargs):
        super().__init__(**kwargs)
        self.alpha = alpha

    def call(self, inputs):
        return activations.elu(inputs, alpha=self.alpha)

    def get_config(self):
        config = super().get_config()
        config["alpha"] = self.alpha
        return config


@tf_export("keras.layers.ThresholdedReLU")
class ThresholdedReLU(_ActivationLayer):
    """x where x > theta, else 0 (a legacy layer tf.keras 2.21 still has; Keras 3 has
    not: use `ReLU(threshold=theta)`, which gives the same values for theta >= 0).

    >>> tf.keras.layers.ThresholdedReLU(theta=1.0)(tf.constant([0.5, 1.0, 2.0])).numpy()
    array([0., 0., 2.], dtype=float32)
    """

    _keras_module = "keras._legacy.layers"  # how tf.keras serializes its legacy layers

    def __init__(self, theta=1.0, **kwargs):
        super().__init__(**kwargs)
        if theta is None:
            raise ValueError("Theta of a Thresholded ReLU layer cannot be None, expecting a "
                             f"float. Received: {theta}")
        if theta < 0:
            raise ValueError("The theta value of a Thresholded ReLU layer should be >=0. "
                             f"Received: {theta}")
        self.theta = tf.constant(theta, dtype=self.compute_dtype)  # as in Keras: a tensor

    def call(self, inputs):
        return inputs * tf.cast(inputs > tf.cast(self.theta, inputs.dtype), inputs.dtype)

    def get_config(self):
        config = super().get_config()
        config["theta"] = float(self.theta.numpy())  # theta as float32, as Keras reports it
        return config


@tf_export("keras.layers.Softmax")
class Softmax(_ActivationLayer):
    """`exp(x) / sum(exp(x))` along `axis`. With a boolean `mask`, masked-out
    positions get probability 0 and the rest sum to 1.

    >>> tf.keras.layers.Softmax()(tf.constant([[0.0, 0.0, 5.0]]),
    ...                           mask=tf.constant([[True, True, False]])).numpy()
    array([[0.5, 0.5, 0. ]], dtype=float32)
    """

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        self.axis = axis

    def call(self, inputs, mask=None):
        if mask is not None:  # Keras: a large negative number where the mask is False
            adder = (1.0 - tf.cast(mask, inputs.dtype)) * _large_negative(inputs.dtype)
            inputs = inputs + adder
        if isinstance(self.axis, (tuple, list)):
            if len(self.axis) > 1:  # a softmax over several axes at once
                shifted = inputs - tf.reduce_max(inputs, axis=self.axis, keepdims=True)
                exp = tf.exp(shifted)
                outputs = exp / tf.reduce_sum(exp, axis=self.axis, keepdims=True)
            else:
                outputs = tf.nn.softmax(inputs, axis=self.axis[0])
        else:
            outputs = tf.nn.softmax(inputs, axis=self.axis)
        if mask is not None:
            outputs = outputs * tf.cast(mask, outputs.dtype)
        return outputs

    def compute_mask(self, inputs, mask=None):
        return None  # Keras 3's Softmax does not pass a mask on

    def get_config(self):
        config = super().get_config()
        config["axis"] = self.axis
        return config


def _large_negative(dtype):
    """Keras's stand-in for minus infinity: -1e9, or -3e4 for float16."""
    return -3e4 if dtype == tf.float16 else -1e9


@tf_export("keras.layers.PReLU")
class PReLU(Layer):
    """x for x >= 0, `alpha * x` below, with `alpha` a trainable weight.

    alpha has the input's shape without the batch axis (one slope per unit);
    `shared_axes` lists axes (1 = the first after the batch) that share one
    slope, e.g. `shared_axes=[1, 2]` for one slope per channel of an image.
    """

    def __init__(self, alpha_initializer="Zeros", alpha_regularizer=None,
                 alpha_constraint=None, shared_axes=None, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True
        self.alpha_initializer = initializers.get(alpha_initializer)
        self.alpha_regularizer = regularizers.get(alpha_regularizer)
        self.alpha_constraint = constraints.get(alpha_constraint)
        if shared_axes is None or isinstance(shared_axes, (list, tuple)):
            self.shared_axes = None if shared_axes is None else list(shared_axes)
        else:
            self.shared_axes = [shared_axes]
        self.alpha = None

    def build(self, input_shape):
        param_shape = list(input_shape[1:])
        for axis in self.shared_axes or ():
            if not 1 <= axis < len(input_shape):
                raise ValueError(f"shared_axes={self.shared_axes} of a PReLU layer must name "
                                 f"axes 1 to {len(input_shape) - 1} of its input of shape "
                                 f"{tuple(input_shape)} (axis 0 is the batch).")
            param_shape[axis - 1] = 1
        if any(d is None for d in param_shape):
            raise ValueError(f"PReLU needs a known size on every axis it does not share; the "
                             f"input has shape {tuple(input_shape)}. Share the unknown axes "
                             "with shared_axes.")
        self.alpha = self.add_weight(shape=tuple(param_shape), name="alpha",
                                     initializer=self.alpha_initializer,
                                     regularizer=self.alpha_regularizer,
                                     constraint=self.alpha_constraint)
        axes = {i: input_shape[i] for i in range(1, len(input_shape))
                if i not in (self.shared_axes or ())}
        self.input_spec = InputSpec(ndim=len(input_shape), axes=axes)
        self.built = True

    def call(self, inputs):
        positive = tf.nn.relu(inputs)
        negative = -self.alpha * tf.nn.relu(-inputs)
        return positive + negative

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        config = super().get_config()
        config.update({
            "alpha_initializer": initializers.serialize(self.alpha_initializer),
            "alpha_regularizer": _serialize(regularizers, self.alpha_regularizer),
            "alpha_constraint": _serialize(constraints, self.alpha_constraint),
            "shared_axes": self.shared_axes,
        })
        return config
