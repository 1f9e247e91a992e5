"""Core layers: Dense, Activation, Flatten, Reshape, Lambda, Embedding, Identity.

`Dense(units)` is `activation(inputs @ kernel + bias)`; its weights are made
on the first call, when the input size is known:

>>> import minitf as tf
>>> layer = tf.keras.layers.Dense(4, activation="relu")
>>> layer(tf.ones([2, 3])).shape
TensorShape([2, 4])
>>> [(w.name, tuple(w.shape)) for w in layer.weights]      # 3*4 + 4 = 16 parameters
[('kernel', (3, 4)), ('bias', (4,))]
"""
import inspect
import math
import warnings

import minitf as tf

from ...framework.tf_export import tf_export
from .. import activations, constraints, initializers, regularizers
from ..engine.base_layer import Layer
from ..engine.input_spec import InputSpec


def _serialize(module, obj):
    return None if obj is None else module.serialize(obj)


WEIGHT_OPTIONS = (("kernel_initializer", initializers), ("bias_initializer", initializers),
                  ("kernel_regularizer", regularizers), ("bias_regularizer", regularizers),
                  ("activity_regularizer", regularizers),
                  ("kernel_constraint", constraints), ("bias_constraint", constraints))


def deserialize_weight_options(config):
    """A copy of a layer's config with its initializers, regularizers and constraints made
    into objects again (what `from_config` of Dense, EinsumDense and attention needs)."""
    config = dict(config)
    for key, module in WEIGHT_OPTIONS:
        if config.get(key) is not None:
            config[key] = module.get(config[key])
    return config


@tf_export("keras.layers.Dense")
class Dense(Layer):
    """A fully connected layer: `activation(dot(inputs, kernel) + bias)`.

    On inputs of rank > 2 the kernel acts on the last axis:
    (batch, steps, d) -> (batch, steps, units).
    """

    def __init__(self, units, activation=None, use_bias=True,
                 kernel_initializer="glorot_uniform", bias_initializer="zeros",
                 kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, **kwargs):
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        if not isinstance(units, int) or isinstance(units, bool) or units <= 0:
            raise ValueError("Received an invalid value for `units`, expected a positive "
                             f"integer. Received: units={units}")
        self.units = units
        self.activation = activations.get(activation)
        self.use_bias = use_bias
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.kernel_constraint = constraints.get(kernel_constraint)
        self.bias_constraint = constraints.get(bias_constraint)
        self.input_spec = InputSpec(min_ndim=2)
        self.supports_masking = True

    def build(self, input_shape):
        input_dim = input_shape[-1]
        self.kernel = self.add_weight(name="kernel", shape=(input_dim, self.units),
                                      initializer=self.kernel_initializer,
                                      regularizer=self.kernel_regularizer,
                                      constraint=self.kernel_constraint)
        self.bias = self.add_weight(name="bias", shape=(self.units,),
                                    initializer=self.bias_initializer,
                                    regularizer=self.bias_regularizer,
                                    constraint=self.bias_constraint) if self.use_bias else None
        self.input_spec = InputSpec(min_ndim=2, axes={-1: input_dim})
        self.built = True

    def call(self, inputs, training=None):
        if isinstance(inputs, tf.SparseTensor):  # from Input(sparse=True): as Keras's matmul
            x = tf.sparse.sparse_dense_matmul(inputs, self.kernel)
            return self.activation(x if self.bias is None else tf.nn.bias_add(x, self.bias))
        if not inputs.dtype.is_floating:  # Keras 3's matmul promotes ids/one-hots to float
            inputs = tf.cast(inputs, self.kernel.dtype)
        if len(inputs.shape) == 2:
            x = tf.matmul(inputs, self.kernel)
        else:  # (..., d) -> (-1, d) @ kernel -> (..., units)
            flat = tf.matmul(tf.reshape(inputs, [-1, self.kernel.shape[0]]), self.kernel)
            x = tf.reshape(flat, tf.concat([tf.shape(inputs)[:-1], [self.units]], axis=0))
        if self.bias is not None:
            x = tf.nn.bias_add(x, self.bias)
        return self.activation(x)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape[:-1]) + (self.units,)

    def get_config(self):
        config = super().get_config()
        config.update({
            "units": self.units, "activation": activations.serialize(self.activation),
            "use_bias": self.use_bias,
            "kernel_initializer": initializers.serialize(self.kernel_initializer),
            "bias_initializer": initializers.serialize(self.bias_initializer),
            "kernel_regularizer": _serialize(regularizers, self.kernel_regularizer),
            "bias_regularizer": _serialize(regularizers, self.bias_regularizer),
            "kernel_constraint": _serialize(constraints, self.kernel_constraint),
            "bias_constraint": _serialize(constraints, self.bias_constraint)})
        return config

    @classmethod
    def from_config(cls, config):
        return cls(**deserialize_weight_options(config))


@tf_export("keras.layers.Activation")
class Activation(Layer):
    """Applies an activation function: `Activation("relu")(x)` is `relu(x)`."""

    def __init__(self, activation, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True
        self.activation = activations.get(activation)
        self.built = True  # no weights: built from the start, as in Keras 3

    def call(self, inputs):
        return self.activation(inputs)

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        config = super().get_config()
        config["activation"] = activations.serialize(self.activation)
        return config


@tf_export("keras.layers.Identity")
class Identity(Layer):
    """Returns its input unchanged."""

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.built = True  # no weights: built from the start, as in Keras 3

    def call(self, inputs):
        return inputs

    def compute_output_shape(self, input_shape):
        return input_shape


@tf_export("keras.layers.Flatten")
class Flatten(Layer):
    """(batch, d1, d2, ...) -> (batch, d1 * d2 * ...); the batch axis is kept.

    >>> tf.keras.layers.Flatten()(tf.ones([2, 3, 4])).shape
    TensorShape([2, 12])
    """

    def __init__(self, data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.data_format = data_format or "channels_last"
        self.input_spec = InputSpec(min_ndim=1)

    def call(self, inputs):
        rank = len(inputs.shape)
        if self.data_format == "channels_first" and rank > 2:  # make channels last first
            inputs = tf.transpose(inputs, [0] + list(range(2, rank)) + [1])
        size = self.compute_output_shape(tuple(inputs.shape))[1]
        if size is not None:
            return tf.reshape(inputs, [-1, size])
        return tf.reshape(inputs, tf.stack([tf.shape(inputs)[0], -1]))

    def compute_output_shape(self, input_shape):
        rest = input_shape[1:]
        size = None if any(d is None for d in rest) else math.prod(rest)
        return (input_shape[0], size)

    def get_config(self):
        config = super().get_config()
        config["data_format"] = self.data_format
        return config


@tf_export("keras.layers.Reshape")
class Reshape(Layer):
    """Reshape each example to `target_shape` (the batch axis is kept; one entry may be -1).

    >>> tf.keras.layers.Reshape((3, 2))(tf.ones([4, 6])).shape
    TensorShape([4, 3, 2])
    """

    def __init__(self, target_shape, **kwargs):
        super().__init__(**kwargs)
        self.target_shape = tuple(target_shape)
        if self.target_shape.count(-1) > 1:
            raise ValueError("There must be at most one unknown dimension (-1) in "
                             f"`target_shape`. Received: target_shape={self.target_shape}.")
        self.built = True  # no weights: built from the start, as in Keras 3

    def compute_output_shape(self, input_shape):
        known = math.prod(d for d in self.target_shape if d != -1)
        rest = input_shape[1:]
        total = None if any(d is None for d in rest) else math.prod(rest)
        if total is not None and (-1 not in self.target_shape and total != known or
                                  -1 in self.target_shape and total % known):
            raise ValueError("The total size of the tensor must be unchanged. Received: "
                             f"input_shape={tuple(rest)}, target_shape={self.target_shape}. "
                             "Reshape only regroups the numbers of each example.")
        resolved = tuple((total // known if total is not None else None) if d == -1 else d
                         for d in self.target_shape)
        return (input_shape[0],) + resolved

    def call(self, inputs):
        self.compute_output_shape(tuple(inputs.shape))  # Keras's size check, before TF's
        return tf.reshape(inputs, tf.concat([tf.shape(inputs)[:1],
                                             list(self.target_shape)], axis=0))

    def get_config(self):
        config = super().get_config()
        config["target_shape"] = self.target_shape
        return config


@tf_export("keras.layers.Lambda")
class Lambda(Layer):
    """Wraps a function of tensors as a layer: `Lambda(lambda x: x ** 2)`.

    The function may take `training` and `mask` arguments; `arguments` adds
    fixed keyword arguments. A Lambda has no weights (use a custom Layer for
    those), and its config holds the function itself, not source code.
    """

    def __init__(self, function, output_shape=None, mask=None, arguments=None, **kwargs):
        super().__init__(**kwargs)
        self.function = function
        self.arguments = dict(arguments or {})
        self._output_shape = output_shape
        self.mask = mask
        parameters = inspect.signature(function).parameters
        self._fn_expects_training = "training" in parameters
        self._fn_expects_mask = "mask" in parameters

    def call(self, inputs, mask=None, training=None):
        kwargs = dict(self.arguments)
        if self._fn_expects_mask:
            kwargs["mask"] = mask
        if self._fn_expects_training:
            kwargs["training"] = training
        return self.function(inputs, **kwargs)

    def compute_output_shape(self, input_shape):
        if self._output_shape is None:
            return super().compute_output_shape(input_shape)
        if callable(self._output_shape):
            return self._output_shape(input_shape)
        return (input_shape[0],) + tuple(self._output_shape)

    def compute_output_spec(self, *args, **kwargs):
        if self._output_shape is None:
            from ..engine.base_layer import trace_output_spec
            return trace_output_spec(self, args, kwargs)
        return super().compute_output_spec(*args, **kwargs)

    def get_config(self):
        config = super().get_config()
        config.update({"function": self.function, "arguments": self.arguments,
                       "output_shape": self._output_shape})
        return config


@tf_export("keras.layers.Embedding")
class Embedding(Layer):
    """Turns integer ids into dense vectors: row `i` of an (input_dim, output_dim) table.

    >>> emb = tf.keras.layers.Embedding(input_dim=10, output_dim=3)
    >>> emb(tf.constant([[1, 2, 2]])).shape, emb.count_params()
    (TensorShape([1, 3, 3]), 30)
    """

    def __init__(self, input_dim, output_dim, embeddings_initializer="uniform",
                 embeddings_regularizer=None, embeddings_constraint=None, mask_zero=False,
                 weights=None, **kwargs):
        if "input_length" in kwargs:
            kwargs.pop("input_length")
            warnings.warn("Argument `input_length` is deprecated. Just remove it.",
                          stacklevel=2)
        super().__init__(**kwargs)
        self.input_dim, self.output_dim = input_dim, output_dim
        self.embeddings_initializer = initializers.get(embeddings_initializer)
        self.embeddings_regularizer = regularizers.get(embeddings_regularizer)
        self.embeddings_constraint = constraints.get(embeddings_constraint)
        self.mask_zero = mask_zero
        self.supports_masking = mask_zero
        self._initial_weights = weights

    def build(self, input_shape=None):
        self.embeddings = self.add_weight(
            shape=(self.input_dim, self.output_dim), initializer=self.embeddings_initializer,
            name="embeddings", regularizer=self.embeddings_regularizer,
            constraint=self.embeddings_constraint)
        self.built = True
        if self._initial_weights is not None:
            self.set_weights(self._initial_weights)

    def call(self, inputs):
        if not inputs.dtype.is_integer:
            inputs = tf.cast(inputs, tf.int32)
        return tf.gather(self.embeddings, inputs)

    def compute_mask(self, inputs, mask=None):
        """True where the id is not 0 (only with mask_zero=True)."""
        return tf.not_equal(inputs, 0) if self.mask_zero else None

    def compute_output_shape(self, input_shape):
        return tuple(input_shape) + (self.output_dim,)

    def compute_output_spec(self, *args, **kwargs):
        from ..engine.keras_tensor import KerasTensor
        return KerasTensor(self.compute_output_shape(args[0].shape), self.compute_dtype)

    def get_config(self):
        config = super().get_config()
        config.update({
            "input_dim": self.input_dim, "output_dim": self.output_dim,
            "embeddings_initializer": initializers.serialize(self.embeddings_initializer),
            "embeddings_regularizer": _serialize(regularizers, self.embeddings_regularizer),
            "activity_regularizer": _serialize(regularizers, self.activity_regularizer),
            "embeddings_constraint": _serialize(constraints, self.embeddings_constraint),
            "mask_zero": self.mask_zero})
        return config
