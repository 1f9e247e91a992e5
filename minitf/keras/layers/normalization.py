"""Normalization layers: BatchNormalization and LayerNormalization.

Both compute `gamma * (x - mean) / sqrt(variance + epsilon) + beta`; they
differ in *which* numbers the mean and variance are taken over:

* BatchNormalization: over the batch (and all axes but `axis`), per feature.
  While training it uses the batch's statistics and updates moving averages
  `moving = moving * momentum + batch * (1 - momentum)`; at inference
  (training=False, or a frozen layer) it uses the moving averages instead.
* LayerNormalization: over the features of each example, so it behaves the
  same in training and inference.

>>> import minitf as tf
>>> bn = tf.keras.layers.BatchNormalization()
>>> x = tf.constant([[0.0], [2.0]])
>>> bn(x, training=True).numpy().round(4)         # batch mean 1, variance 1
array([[-0.9995],
       [ 0.9995]], dtype=float32)
>>> bn.moving_mean.numpy()                         # 0.99 * 0 + 0.01 * 1
array([0.01], dtype=float32)
>>> bn.count_params(), len(bn.trainable_weights)    # gamma, beta + 2 moving statistics
(4, 2)
"""
import minitf as tf

from ...framework.tf_export import tf_export
from .. import constraints, initializers, regularizers
from ..engine.base_layer import Layer
from ..engine.input_spec import InputSpec
from .core import _serialize


def _weight_configs(layer, names):
    config = {}
    for name in names:
        for kind, module in (("initializer", initializers), ("regularizer", regularizers),
                             ("constraint", constraints)):
            key = f"{name}_{kind}"
            if hasattr(layer, key):
                config[key] = _serialize(module, getattr(layer, key))
    return config


@tf_export("keras.layers.BatchNormalization")
class BatchNormalization(Layer):
    """Normalize each feature with batch statistics (training) or moving ones (inference)."""

    def __init__(self, axis=-1, momentum=0.99, epsilon=1e-3, center=True, scale=True,
                 beta_initializer="zeros", gamma_initializer="ones",
                 moving_mean_initializer="zeros", moving_variance_initializer="ones",
                 beta_regularizer=None, gamma_regularizer=None, beta_constraint=None,
                 gamma_constraint=None, synchronized=False, **kwargs):
        super().__init__(**kwargs)
        self.axis = int(axis)
        self.momentum, self.epsilon = float(momentum), float(epsilon)
        self.center, self.scale, self.synchronized = center, scale, synchronized
        self.beta_initializer = initializers.get(beta_initializer)
        self.gamma_initializer = initializers.get(gamma_initializer)
        self.moving_mean_initializer = initializers.get(moving_mean_initializer)
        self.moving_variance_initializer = initializers.get(moving_variance_initializer)
        self.beta_regularizer = regularizers.get(beta_regularizer)
        self.gamma_regularizer = regularizers.get(gamma_regularizer)
        self.beta_constraint = constraints.get(beta_constraint)
        self.gamma_constraint = constraints.get(gamma_constraint)
        self.supports_masking = True
        self.gamma = self.beta = None

    def build(self, input_shape):
        rank = len(input_shape)
        self._axis = self.axis % rank
        shape = (input_shape[self._axis],)
        if self.scale:
            self.gamma = self.add_weight(shape=shape, name="gamma",
                                         initializer=self.gamma_initializer,
                                         regularizer=self.gamma_regularizer,
                                         constraint=self.gamma_constraint)
        if self.center:
            self.beta = self.add_weight(shape=shape, name="beta",
                                        initializer=self.beta_initializer,
                                        regularizer=self.beta_regularizer,
                                        constraint=self.beta_constraint)
        self.moving_mean = self.add_weight(shape=shape, name="moving_mean", trainable=False,
                                           initializer=self.moving_mean_initializer)
        self.moving_variance = self.add_weight(shape=shape, name="moving_variance",
                                               trainable=False,
                                               initializer=self.moving_variance_initializer)
        self.input_spec = InputSpec(ndim=rank, axes={self.axis: input_shape[self._axis]})
        self._reduction_axes = [i for i in range(rank) if i != self._axis]
        self._broadcast_shape = [1] * rank
        self._broadcast_shape[self._axis] = input_shape[self._axis]
        self.built = True

    def _broadcast(self, vector):
        """A per-feature vector shaped to line up with `axis` of the input."""
        if vector is None or self._axis == len(self._broadcast_shape) - 1:
            return vector
        return tf.reshape(vector, self._broadcast_shape)

    def call(self, inputs, training=None, mask=None):
        if training and self.trainable:  # a frozen layer always runs in inference mode
            mean, variance = self._moments(inputs, mask)
            self.moving_mean.assign(self.moving_mean * self.momentum
                                    + mean * (1.0 - self.momentum))
            self.moving_variance.assign(self.moving_variance * self.momentum
                                        + variance * (1.0 - self.momentum))
        else:
            mean, variance = self.moving_mean, self.moving_variance
        return tf.nn.batch_normalization(
            inputs, self._broadcast(tf.convert_to_tensor(mean)),
            self._broadcast(tf.convert_to_tensor(variance)),
            self._broadcast(self.beta), self._broadcast(self.gamma), self.epsilon)

    def _moments(self, inputs, mask):
        """Batch mean and variance; with a padding mask, over the real steps only."""
        if mask is None:
            return tf.nn.moments(inputs, axes=self._reduction_axes)
        weights = tf.expand_dims(tf.cast(mask, inputs.dtype), -1)
        total = tf.reduce_sum(weights, self._reduction_axes, keepdims=True) + 1e-7
        mean = tf.reduce_sum(weights * inputs, self._reduction_axes, keepdims=True) / total
        variance = tf.reduce_sum(weights * tf.square(weights * inputs - mean),
                                 self._reduction_axes, keepdims=True) / total
        return tf.squeeze(mean), tf.squeeze(variance)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        config = super().get_config()
        config.update({"axis": self.axis, "momentum": self.momentum, "epsilon": self.epsilon,
                       "center": self.center, "scale": self.scale})
        config.update(_weight_configs(self, ("beta", "gamma", "moving_mean",
                                             "moving_variance")))
        config["synchronized"] = self.synchronized
        return config


@tf_export("keras.layers.LayerNormalization")
class LayerNormalization(Layer):
    """Normalize each example over `axis` (default: its last axis), then scale and shift.

    rms_scaling=True divides by the root mean square instead (no centering).

    >>> ln = tf.keras.layers.LayerNormalization()
    >>> ln(tf.constant([[1.0, 3.0]])).numpy().round(4)
    array([[-0.9995,  0.9995]], dtype=float32)
    """

    def __init__(self, axis=-1, epsilon=1e-3, center=True, scale=True, rms_scaling=False,
                 beta_initializer="zeros", gamma_initializer="ones", beta_regularizer=None,
                 gamma_regularizer=None, beta_constraint=None, gamma_constraint=None,
                 **kwargs):
        super().__init__(**kwargs)
        self.axis = list(axis) if isinstance(axis, (list, tuple)) else int(axis)
        self.epsilon, self.center, self.scale = float(epsilon), center, scale
        self.rms_scaling = rms_scaling
        self.beta_initializer = initializers.get(beta_initializer)
        self.gamma_initializer = initializers.get(gamma_initializer)
        self.beta_regularizer = regularizers.get(beta_regularizer)
        self.gamma_regularizer = regularizers.get(gamma_regularizer)
        self.beta_constraint = constraints.get(beta_constraint)
        self.gamma_constraint = constraints.get(gamma_constraint)
        self.supports_masking = True
        self.gamma = self.beta = None

    def build(self, input_shape):
        rank = len(input_shape)
        axes = self.axis if isinstance(self.axis, list) else [self.axis]
        self._axes = sorted(a % rank for a in axes)
        shape = tuple(input_shape[a] for a in self._axes)
        if self.scale or self.rms_scaling:
            self.gamma = self.add_weight(shape=shape, name="gamma",
                                         initializer=self.gamma_initializer,
                                         regularizer=self.gamma_regularizer,
                                         constraint=self.gamma_constraint)
        if self.center and not self.rms_scaling:
            self.beta = self.add_weight(shape=shape, name="beta",
                                        initializer=self.beta_initializer,
                                        regularizer=self.beta_regularizer,
                                        constraint=self.beta_constraint)
        self._broadcast_shape = [input_shape[i] if i in self._axes else 1 for i in range(rank)]
        self.built = True

    def _broadcast(self, weight):
        return None if weight is None else tf.reshape(weight, self._broadcast_shape)

    def call(self, inputs):
        if self.rms_scaling:
            mean_square = tf.reduce_mean(tf.square(inputs), axis=self._axes, keepdims=True)
            return inputs * tf.math.rsqrt(mean_square + self.epsilon) * \
                self._broadcast(self.gamma)
        mean, variance = tf.nn.moments(inputs, axes=self._axes, keepdims=True)
        return tf.nn.batch_normalization(inputs, mean, variance, self._broadcast(self.beta),
                                         self._broadcast(self.gamma), self.epsilon)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        config = super().get_config()
        config.update({"axis": self.axis if isinstance(self.axis, list) else [self.axis],
                       "epsilon": self.epsilon, "center": self.center, "scale": self.scale,
                       "rms_scaling": self.rms_scaling})
        config.update(_weight_configs(self, ("beta", "gamma")))
        return config
