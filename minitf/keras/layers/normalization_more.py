"""More normalization layers: UnitNormalization, RMSNormalization, GroupNormalization.

* UnitNormalization: divide each example by its L2 norm over `axis` (no weights).
* RMSNormalization: divide by the root mean square over `axis`, times a learned
  `scale` (as in LLaMA-style transformers; no centering, no bias).
* GroupNormalization: split the channels into `groups` and normalize each group
  of each example by its own mean and variance -- like LayerNormalization on
  every group, so it does not depend on the batch size. groups=1 is layer
  normalization over the features, groups=-1 (one channel per group) is
  instance normalization.

>>> import minitf as tf
>>> tf.keras.layers.UnitNormalization()(tf.constant([[3.0, 4.0]])).numpy()
array([[0.6, 0.8]], dtype=float32)
>>> gn = tf.keras.layers.GroupNormalization(groups=2)
>>> gn(tf.constant([[1.0, 3.0, 10.0, 10.0]])).numpy().round(4)    # groups (1, 3), (10, 10)
array([[-0.9995,  0.9995,  0.    ,  0.    ]], dtype=float32)
>>> [(w.name, tuple(w.shape)) for w in gn.weights]
[('gamma', (4,)), ('beta', (4,))]

In Keras these are `keras/src/layers/normalization/{unit,rms,group}_normalization.py`.
"""
import minitf as tf

from ...framework.tf_export import tf_export
from .. import constraints, initializers, regularizers
from ..engine.base_layer import Layer
from ..engine.input_spec import InputSpec
from .normalization import _weight_configs


def _check_axes(axis, input_shape, message_axis):
    for a in (axis if isinstance(axis, (list, tuple)) else [axis]):
        if a >= len(input_shape) or a < -len(input_shape):
            raise ValueError(f"Axis {a} is out of bounds for input shape {tuple(input_shape)}. "
                             f"Received: axis={message_axis}")


@tf_export("keras.layers.UnitNormalization")
class UnitNormalization(Layer):
    """x / ||x||_2 over `axis` (an int or a list of ints), so each slice has norm 1."""

    def __init__(self, axis=-1, **kwargs):
        super().__init__(**kwargs)
        if isinstance(axis, (list, tuple)):
            self.axis = list(axis)
        elif isinstance(axis, int):
            self.axis = axis
        else:
            raise TypeError("Invalid value for `axis` argument: expected an int or a "
                            f"list/tuple of ints. Received: axis={axis}")
        self.supports_masking = True
        self.built = True

    def call(self, inputs):
        if not inputs.dtype.is_floating:
            inputs = tf.cast(inputs, self.compute_dtype)
        square_sum = tf.reduce_sum(tf.square(inputs), axis=self.axis, keepdims=True)
        # Keras 3: x * min(1 / sqrt(sum x^2), 1 / epsilon) with epsilon 1e-12 (zeros stay 0)
        return inputs * tf.minimum(tf.math.rsqrt(square_sum), 1e12)

    def compute_output_shape(self, input_shape):
        _check_axes(self.axis, input_shape, self.axis)
        return input_shape

    def get_config(self):
        config = super().get_config()
        config["axis"] = self.axis
        return config


@tf_export("keras.layers.RMSNormalization")
class RMSNormalization(Layer):
    """x / sqrt(mean(x^2 over axis) + epsilon) * scale; `scale` starts at ones."""

    def __init__(self, axis=-1, epsilon=1e-6, **kwargs):
        super().__init__(**kwargs)
        self.axis, self.epsilon = axis, epsilon

    def build(self, input_shape):
        _check_axes(self.axis, input_shape, self.axis)
        if isinstance(self.axis, (list, tuple)):
            self.axis = sorted(self.axis)
            shape = tuple(input_shape[a] for a in self.axis)
        else:
            shape = (input_shape[self.axis],)
            self.axis = [self.axis]
        if None in shape:
            raise ValueError(f"RMSNormalization needs the size of axis {self.axis} to make its "
                             f"`scale` weight. Received: input_shape={tuple(input_shape)}")
        self.scale = self.add_weight(name="scale", shape=shape, initializer="ones")
        self.built = True

    def call(self, inputs):
        dtype = inputs.dtype
        x = tf.cast(inputs, "float32") if dtype.name in ("float16", "bfloat16") else inputs
        mean_square = tf.reduce_mean(tf.square(x), axis=self.axis, keepdims=True)
        out = x * tf.math.rsqrt(mean_square + self.epsilon) * tf.cast(self.scale, x.dtype)
        return tf.cast(out, dtype)

    def compute_output_shape(self, input_shape):
        _check_axes(self.axis, input_shape, self.axis)
        return input_shape

    def get_config(self):
        config = super().get_config()
        config.update({"axis": self.axis, "epsilon": self.epsilon})
        return config


@tf_export("keras.layers.GroupNormalization")
class GroupNormalization(Layer):
    """Normalize each of `groups` groups of channels (the `axis`) per example."""

    def __init__(self, groups=32, axis=-1, epsilon=1e-3, center=True, scale=True,
                 beta_initializer="zeros", gamma_initializer="ones", beta_regularizer=None,
                 gamma_regularizer=None, beta_constraint=None, gamma_constraint=None,
                 **kwargs):
        if not isinstance(groups, int) or (groups <= 0 and groups != -1):
            raise ValueError("Received an invalid value for argument `groups`, expected a "
                             "positive integer (or `-1` for instance normalization). "
                             f"Received: groups={groups}")
        super().__init__(**kwargs)
        self.supports_masking = True
        self.groups, self.axis, self.epsilon = groups, axis, epsilon
        self.center, self.scale = center, scale
        self.beta_initializer = initializers.get(beta_initializer)
        self.gamma_initializer = initializers.get(gamma_initializer)
        self.beta_regularizer = regularizers.get(beta_regularizer)
        self.gamma_regularizer = regularizers.get(gamma_regularizer)
        self.beta_constraint = constraints.get(beta_constraint)
        self.gamma_constraint = constraints.get(gamma_constraint)
        self.gamma = self.beta = None

    def build(self, input_shape):
        dim = input_shape[self.axis]
        if dim is None:
            raise ValueError(f"Axis {self.axis} of input tensor should have a defined "
                             f"dimension but the layer received an input with shape "
                             f"{tuple(input_shape)}.")
        if self.groups == -1:
            self.groups = dim
        if dim < self.groups:
            raise ValueError(f"Number of groups ({self.groups}) cannot be more than the number "
                             f"of channels ({dim}).")
        if dim % self.groups != 0:
            raise ValueError(f"Number of groups ({self.groups}) must be a multiple of the "
                             f"number of channels ({dim}). Each group takes "
                             "channels / groups channels, so choose a divisor of the channels.")
        self.input_spec = InputSpec(ndim=len(input_shape), axes={self.axis: dim})
        for name, on in (("gamma", self.scale), ("beta", self.center)):
            setattr(self, name, self.add_weight(
                shape=(dim,), name=name, initializer=getattr(self, f"{name}_initializer"),
                regularizer=getattr(self, f"{name}_regularizer"),
                constraint=getattr(self, f"{name}_constraint")) if on else None)
        self.built = True

    def call(self, inputs):
        rank = len(inputs.shape)
        axis = self.axis % rank
        dim = inputs.shape[axis]
        dynamic = tf.shape(inputs)
        # (..., C, ...) -> (..., groups, C // groups, ...): one group per slot of axis `axis`
        grouped_shape = [dynamic[i] for i in range(axis)] + [self.groups, dim // self.groups] + \
            [dynamic[i] for i in range(axis + 1, rank)]
        x = tf.reshape(inputs, tf.stack(grouped_shape))
        dtype = x.dtype
        if dtype.name in ("float16", "bfloat16"):
            x = tf.cast(x, "float32")
        reduce_axes = [i for i in range(1, rank + 1) if i != axis]
        mean, variance = tf.nn.moments(x, axes=reduce_axes, keepdims=True)
        broadcast = [1] * (rank + 1)
        broadcast[axis], broadcast[axis + 1] = self.groups, dim // self.groups
        inv = tf.math.rsqrt(variance + self.epsilon)
        if self.gamma is not None:
            inv = inv * tf.cast(tf.reshape(self.gamma, broadcast), x.dtype)
        shift = -mean * inv
        if self.beta is not None:
            shift = shift + tf.cast(tf.reshape(self.beta, broadcast), x.dtype)
        out = tf.cast(x * inv + shift, dtype)
        return tf.reshape(out, dynamic)

    def compute_output_shape(self, input_shape):
        _check_axes(self.axis, input_shape, self.axis)
        return input_shape

    def get_config(self):
        config = super().get_config()
        config.update({"groups": self.groups, "axis": self.axis, "epsilon": self.epsilon,
                       "center": self.center, "scale": self.scale})
        config.update(_weight_configs(self, ("beta", "gamma")))
        return config
