"""`tf.keras.Sequential`: a plain stack of layers, each feeding the next.

With an input shape (an `Input` first, or `input_shape=` on the first
layer) the model is built at once, as a functional graph; without one it
waits for the first batch ("deferred build") and is built from its shape:

>>> import minitf as tf
>>> model = tf.keras.Sequential([tf.keras.layers.Dense(4), tf.keras.layers.Dense(1)])
>>> model.built
False
>>> model(tf.ones([2, 3])).shape
TensorShape([2, 1])
>>> model.built, model.count_params()               # (3*4 + 4) + (4*1 + 1)
(True, 21)
"""
import contextlib

from ...framework.tf_export import tf_export
from .. import backend
from . import call_context
from .base_layer import Layer
from .input_layer import InputLayer
from .keras_tensor import KerasTensor
from .training import Model

_NO_SCOPE = contextlib.nullcontext()


@tf_export("keras.Sequential", "keras.models.Sequential")
class Sequential(Model):
    """A model made of `layers`, in order; add more with `add`."""

    def __init__(self, layers=None, trainable=True, name=None):
        super().__init__(trainable=trainable, name=name or backend._unique_name("sequential"))
        self.__dict__["_functional"] = None  # not a sublayer: bypass tracking
        for layer in layers or []:
            self.add(layer, rebuild=False)
        self._maybe_rebuild()

    @property
    def layers(self):
        """The layers, without the InputLayer (as in Keras)."""
        layers = list(self._layers)
        return layers[1:] if layers and isinstance(layers[0], InputLayer) else layers

    def add(self, layer, rebuild=True):
        """Append a layer (or a `tf.keras.Input`, which sets the input shape)."""
        if isinstance(layer, KerasTensor):  # Sequential([Input((3,)), ...])
            layer = layer._keras_history.operation
        if not isinstance(layer, Layer):
            raise ValueError("Only instances of `keras.Layer` can be added to a Sequential "
                             f"model. Received: {layer} (of type {type(layer)})")
        if isinstance(layer, InputLayer) and self._layers:
            raise ValueError(f"Sequential model '{self.name}' has already been configured to "
                             "use an input shape. An InputLayer can only come first.")
        if not self._layers and not isinstance(layer, InputLayer) and \
                layer._input_shape_arg is not None:  # classic Dense(4, input_shape=(3,))
            self._layers.append(InputLayer(shape=layer._input_shape_arg))
        if any(layer.name == known.name for known in self._layers):
            raise ValueError("All layers added to a Sequential model should have unique names. "
                             f"Name '{layer.name}' is already the name of a layer in this "
                             "model. Update the `name` argument to pass a unique name.")
        self._layers.append(layer)
        if rebuild:
            self._maybe_rebuild()
        else:
            self.built = False
            self.__dict__["_functional"] = None  # not a sublayer: bypass tracking

    def pop(self, rebuild=True):
        """Remove the last layer."""
        if not self.layers:
            raise TypeError("There are no layers in the model.")
        layer = self._layers.pop()
        self.built = False
        self.__dict__["_functional"] = None  # not a sublayer: bypass tracking
        if rebuild:
            self._maybe_rebuild()
        return layer

    def _maybe_rebuild(self):
        self.built = False
        self.__dict__["_functional"] = None  # not a sublayer: bypass tracking
        if self._layers and isinstance(self._layers[0], InputLayer) and len(self._layers) > 1:
            self.build(self._layers[0].batch_shape)
        elif self._layers and isinstance(self._layers[0], InputLayer):
            self.built = True  # only an input so far

    def build(self, input_shape=None):
        """Build every layer by calling it on a KerasTensor of `input_shape` (batch included)."""
        from .functional import Functional
        if not self._layers:
            raise ValueError(f"Sequential model {self.name} cannot be built because it has no "
                             "layers. Call `model.add(layer)`.")
        if isinstance(input_shape, dict):
            self._check_dict_inputs(input_shape)
            self.built = True  # the layers build themselves on the first batch
            return
        if not isinstance(self._layers[0], InputLayer):
            self._layers.insert(0, InputLayer(batch_shape=tuple(input_shape)))
        inputs = self._layers[0].output
        x = inputs
        # Keras opens the model's scope once (deduplicated by caller): 'sequential/lstm/...'
        own = call_context.innermost_scope_name() == self.name
        with call_context.name_scope(self.name, caller=self) if not own else _NO_SCOPE:
            for layer in self._layers[1:]:
                x = layer(x)
        self.__dict__["_functional"] = Functional(inputs=inputs, outputs=x)
        self.built = True

    def _maybe_build(self, first_input):
        if not self.built:
            super()._maybe_build(first_input)

    def _check_dict_inputs(self, inputs):
        """A dict of inputs only suits a first layer that reads a dict (DenseFeatures, a
        model with named inputs); anything else gets a clear error instead of a puzzle."""
        from ..layers.dense_features import DenseFeatures
        from .functional import Functional
        first = self.layers[0] if self.layers else None
        reads_dict = isinstance(first, DenseFeatures) or \
            getattr(first, "_is_feature_layer", False) or \
            (isinstance(first, Functional) and isinstance(first._inputs_struct, dict))
        if self._functional is not None or not reads_dict:
            what = f"its first layer '{first.name}' ({type(first).__name__})" if first else \
                "it"
            raise ValueError(
                f"Sequential model '{self.name}' received a dict of inputs with keys "
                f"{sorted(inputs)}, but {what} takes a single tensor. A Sequential model "
                "passes one tensor from layer to layer. For named inputs use the functional "
                "API (inputs = {name: tf.keras.Input(...)}, then tf.keras.Model(inputs, "
                "outputs)), or make the first layer one that reads a dict, such as "
                "tf.keras.layers.DenseFeatures.")

    def call(self, inputs, training=None, mask=None):
        if isinstance(inputs, dict):
            self._check_dict_inputs(inputs)
        if self._functional is not None:
            return self._functional.call(inputs, training=training, mask=mask)
        for layer in self.layers:  # not built from shapes: just apply the layers in turn
            inputs = layer(inputs)
        return inputs

    @property
    def inputs(self):
        return self._functional.inputs if self._functional else None

    @property
    def outputs(self):
        return self._functional.outputs if self._functional else None

    @property
    def input_shape(self):
        if self._functional is None:
            raise AttributeError(f"Sequential model '{self.name}' has no defined input shape "
                                 "yet: it is built on its first call.")
        return self._functional.input_shape

    @property
    def output_shape(self):
        if self._functional is None:
            raise AttributeError(f"Sequential model '{self.name}' has no defined output shape "
                                 "yet: it is built on its first call.")
        return self._functional.output_shape

    def get_config(self):
        """The layers (the InputLayer first, when there is one), each as
        `tf.keras.layers.serialize` writes it, and the input shape it was built for."""
        from ..layers.serialization import serialize
        config = {"name": self.name, "trainable": self.trainable,
                  "layers": [serialize(layer) for layer in self._layers]}
        if self._functional is not None:
            config["build_input_shape"] = list(self._layers[0].batch_shape)
        return config

    @classmethod
    def from_config(cls, config, custom_objects=None):
        from ..layers.serialization import deserialize
        model = cls(name=config.get("name"), trainable=config.get("trainable", True))
        for entry in config["layers"]:
            model.add(deserialize(entry, custom_objects))
        shape = config.get("build_input_shape")
        if model._functional is None and shape is not None:
            model.build(tuple(shape))  # built without an Input: build it the same way
        return model
