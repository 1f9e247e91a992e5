"""Layer wrappers: the `Wrapper` base class, `Bidirectional` (an RNN read both ways) and
`TimeDistributed`.

>>> import minitf as tf
>>> bi = tf.keras.layers.Bidirectional(tf.keras.layers.LSTM(3, return_sequences=True))
>>> bi(tf.ones([2, 4, 2])).shape                  # forward and backward outputs concatenated
TensorShape([2, 4, 6])
>>> bi.count_params()                             # two LSTMs: 2 * 4 * (2*3 + 3*3 + 3)
144
>>> tf.keras.layers.TimeDistributed(tf.keras.layers.Dense(3))(tf.ones([2, 4, 5])).shape
TensorShape([2, 4, 3])

In TensorFlow these are `keras/src/layers/rnn/bidirectional.py` and
`time_distributed.py` (Keras 3).
"""
import contextlib

import minitf as tf

from ...framework.tf_export import tf_export
from ..engine import call_context, keras_tensor
from ..engine.base_layer import Layer, is_shape
from .conv_utils import KerasNamed
from .serialization import deserialize, serialize

_MERGES = {"concat": lambda a, b: tf.concat([a, b], axis=-1), "sum": lambda a, b: a + b,
           "mul": lambda a, b: a * b, "ave": lambda a, b: (a + b) / 2}


def _clone(layer, **changes):
    config = serialize(layer)
    config["config"].update(changes)
    return deserialize(config)


def _strip_prefix(name):
    for prefix in ("forward_", "backward_"):
        if name.startswith(prefix):
            return name[len(prefix):]
    return name


def _build_child(layer, shape, dtype):
    """Build a wrapped layer for an input shape (as its first call would)."""
    if not layer.built:
        layer._maybe_build(keras_tensor.KerasTensor(shape, dtype))


@tf_export("keras.layers.Wrapper")
class Wrapper(Layer):
    """Base class of layers that wrap one other layer (`self.layer`), as TimeDistributed and
    SpectralNormalization do: it builds the wrapped layer with the wrapper and saves it in
    the wrapper's config. Subclasses write `call`.

    >>> class Twice(tf.keras.layers.Wrapper):
    ...     def call(self, x):
    ...         return 2 * self.layer(x)
    >>> twice = Twice(tf.keras.layers.Dense(2, kernel_initializer="ones"))
    >>> twice(tf.ones([1, 3])).numpy(), twice.get_config()["layer"]["class_name"]
    (array([[6., 6.]], dtype=float32), 'Dense')
    """

    def __init__(self, layer, **kwargs):
        if not isinstance(layer, Layer):
            raise ValueError(f"Layer {layer} supplied to Wrapper isn't a supported layer type. "
                             "Please ensure wrapped layer is a valid Keras layer.")
        super().__init__(**kwargs)
        self.layer = layer

    def build(self, input_shape=None):
        if not self.layer.built:  # its weights' paths: 'wrapper/layer/kernel', as in Keras
            with contextlib.ExitStack() as scopes:
                if call_context.innermost_scope_name() != self.name:
                    scopes.enter_context(call_context.name_scope(self.name))
                with call_context.name_scope(self.layer.name):
                    self.layer.build(input_shape)
            self.layer.built = True
            self.layer._build_shapes_dict = {"input_shape": input_shape}  # its build_config
        self.built = True

    def get_config(self):
        config = super().get_config()
        config["layer"] = serialize(self.layer)
        return config

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        layer = deserialize(config.pop("layer"), custom_objects=custom_objects)
        return cls(layer, **config)


@tf_export("keras.layers.Bidirectional")
class Bidirectional(KerasNamed, Layer):
    """Runs a copy of an RNN forwards and another backwards; merges their outputs.

    merge_mode: "concat" (default), "sum", "mul", "ave", or None (a list of both).
    The backward output of `return_sequences=True` is flipped back, so step t
    of both halves refers to input step t.
    """

    def __init__(self, layer, merge_mode="concat", weights=None, backward_layer=None,
                 **kwargs):
        if not isinstance(layer, Layer) or not hasattr(layer, "go_backwards"):
            raise ValueError("Please initialize `Bidirectional` layer with a "
                             f"`keras.layers.RNN` instance. Received: {layer}. It runs the "
                             "layer over the sequence in both directions.")
        if merge_mode not in ("sum", "mul", "ave", "concat", None):
            raise ValueError(f"Invalid merge mode. Received: {merge_mode}. Merge mode should "
                             'be one of {"sum", "mul", "ave", "concat", None}')
        super().__init__(**kwargs)
        name = _strip_prefix(layer.name)
        self.forward_layer = _clone(layer, name="forward_" + name)
        if backward_layer is None:
            backward_layer = _clone(layer, name="backward_" + name,
                                    go_backwards=not layer.go_backwards)
        self.backward_layer = backward_layer
        for half in (self.forward_layer, self.backward_layer):  # as Keras 3 forces it
            half.zero_output_for_mask = half.return_sequences
        self.merge_mode = merge_mode
        self.supports_masking = True
        self.return_sequences = layer.return_sequences
        self.return_state = layer.return_state
        self.stateful = layer.stateful
        self._initial_weights = weights

    def build(self, sequences_shape, initial_state_shape=None):
        for half in (self.forward_layer, self.backward_layer):
            _build_child(half, sequences_shape, self.compute_dtype)
        if self._initial_weights is not None:
            self.set_weights(self._initial_weights)
        self.built = True

    def call(self, sequences, initial_state=None, mask=None, training=None):
        forward_state = backward_state = None
        if initial_state is not None:
            half = len(initial_state) // 2
            forward_state, backward_state = initial_state[:half], initial_state[half:]
        y = self.forward_layer(sequences, initial_state=forward_state, mask=mask,
                               training=training)
        y_rev = self.backward_layer(sequences, initial_state=backward_state, mask=mask,
                                    training=training)
        states = []
        if self.return_state:
            states = list(y[1:]) + list(y_rev[1:])
            y, y_rev = y[0], y_rev[0]
        if self.return_sequences:
            y_rev = tf.reverse(y_rev, [1])
        output = (y, y_rev) if self.merge_mode is None else _MERGES[self.merge_mode](y, y_rev)
        if not self.return_state:
            return output
        return (list(output) if self.merge_mode is None else [output]) + states

    def compute_output_shape(self, sequences_shape, initial_state_shape=None):
        shapes = self.forward_layer.compute_output_shape(sequences_shape)
        output, states = (shapes[0], shapes[1:]) if self.return_state else (shapes, [])
        if self.merge_mode is None:
            outputs = [output, output]
        elif self.merge_mode == "concat":
            outputs = [tuple(output[:-1]) + (output[-1] * 2,)]
        else:
            outputs = [output]
        if not self.return_state and self.merge_mode is not None:
            return outputs[0]
        return outputs + list(states) * 2

    def compute_mask(self, inputs, mask=None):
        output_mask = mask if self.return_sequences else None
        outputs = [output_mask] if self.merge_mode is not None else [output_mask] * 2
        if not self.return_state:
            return outputs[0] if self.merge_mode is not None else outputs
        return outputs + [None] * (2 * len(self.forward_layer._state_sizes))

    def reset_states(self):
        self.forward_layer.reset_states()
        self.backward_layer.reset_states()

    def get_config(self):
        config = super().get_config()
        config.update({"merge_mode": self.merge_mode, "layer": serialize(self.forward_layer),
                       "backward_layer": serialize(self.backward_layer)})
        return config

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        config["layer"] = deserialize(config["layer"])
        if config.get("backward_layer") is not None:
            config["backward_layer"] = deserialize(config["backward_layer"])
        return cls(**config)


@tf_export("keras.layers.TimeDistributed")
class TimeDistributed(KerasNamed, Wrapper):
    """Apply one layer (same weights) to every time step: (batch, time, ...) -> per step.

    It folds time into the batch, (batch * time, ...), calls the layer once,
    and unfolds the result.
    """

    def __init__(self, layer, **kwargs):
        if not isinstance(layer, Layer):  # Keras raises ValueError here
            raise ValueError(  # noqa: TRY004
                "Please initialize `TimeDistributed` layer with a "
                f"`keras.layers.Layer` instance. Received: {layer}")
        super().__init__(layer, **kwargs)
        self.supports_masking = True  # a step's mask passes through unchanged

    def _check(self, input_shape):
        if len(input_shape) < 3:
            raise ValueError("`TimeDistributed` Layer should be passed an `input_shape` with "
                             f"at least 3 dimensions, received: {tuple(input_shape)}. Axis 1 "
                             "is the time axis the layer is applied along.")

    def build(self, input_shape):
        self._check(input_shape)
        _build_child(self.layer, (None,) + tuple(input_shape[2:]), self.compute_dtype)
        self.built = True

    def compute_output_shape(self, input_shape):
        self._check(input_shape)
        inner = self.layer.compute_output_shape((None,) + tuple(input_shape[2:]))
        if not is_shape(inner):
            raise ValueError("TimeDistributed wraps layers with one output tensor.")
        return (input_shape[0], input_shape[1]) + tuple(inner[1:])

    def call(self, inputs, training=None):
        self._check(inputs.shape)
        shape = tf.shape(inputs)
        folded = tf.reshape(inputs, tf.concat([[-1], shape[2:]], axis=0))
        kwargs = {"training": training} if training is not None else {}
        y = self.layer(folded, **kwargs)
        return tf.reshape(y, tf.concat([shape[:2], tf.shape(y)[1:]], axis=0))

    def get_config(self):
        config = super().get_config()
        config["layer"] = serialize(self.layer)
        return config

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        config["layer"] = deserialize(config["layer"])
        return cls(**config)
