"""`tf.keras.Model`: a layer that is also the unit you train, save and summarize.

There are three ways to make one, and all three give a `Model`:

* `tf.keras.Sequential([...])`: a stack of layers (engine/sequential.py);
* `tf.keras.Model(inputs, outputs)`: the functional API, a graph of layers
  built by calling them on `tf.keras.Input`s (engine/functional.py);
* subclassing: define layers in `__init__` and the computation in `call`.

>>> import minitf as tf
>>> class TwoLayers(tf.keras.Model):
...     def __init__(self):
...         super().__init__()
...         self.hidden = tf.keras.layers.Dense(4, activation="relu")
...         self.out = tf.keras.layers.Dense(1)
...     def call(self, x, training=None):
...         return self.out(self.hidden(x))
>>> model = TwoLayers()
>>> model(tf.ones([2, 3])).shape
TensorShape([2, 1])
>>> [layer.name.split("_")[0] for layer in model.layers], model.count_params()
(['dense', 'dense'], 21)

Training (`compile`, `fit`, `evaluate`, `predict`, ...) is added to this
class by the training helpers in this package; this file holds what every
model has: its layers, `summary()`, and weights in and out of files.
"""
from ...framework.tf_export import tf_export
from .. import backend
from . import model_saving, saving, summary
from .base_layer import Layer
from .trainer import Trainer


def _is_functional_call(args, kwargs):
    return ("inputs" in kwargs and "outputs" in kwargs) or len(args) == 2 or (
        len(args) == 1 and "outputs" in kwargs)


@tf_export("keras.Model", "keras.models.Model")
class Model(Trainer, Layer):
    """A layer with training and saving: subclass it, or call `Model(inputs, outputs)`."""

    def __new__(cls, *args, **kwargs):
        if cls is Model and _is_functional_call(args, kwargs):
            from .functional import Functional
            return Functional.__new__(Functional)
        return super().__new__(cls)

    def __init__(self, *args, **kwargs):
        if _is_functional_call(args, kwargs) and type(self) is Model:
            raise TypeError("Model(inputs, outputs) is handled by Functional.")
        from .functional import Functional
        if _is_functional_call(args, kwargs) and not isinstance(self, Functional):
            # `class CustomModel(tf.keras.Model)` (say, with its own `train_step`) called as
            # `CustomModel(inputs, outputs)`: make the class a Functional subclass, as Keras
            # 3 does, then build the graph of layers.
            _inject_functional_model_class(type(self))
            Functional.__init__(self, *args, **kwargs)
            return
        name = kwargs.pop("name", None)
        super().__init__(name=name or backend._unique_name(_default_name(self)), **kwargs)
        self.compiled = False
        self.optimizer = None
        self.stop_training = False
        self._initial_epoch = None
        self.history = None

    @property
    def layers(self):
        """The model's direct sublayers, in the order they were added or assigned."""
        return list(self._layers)

    def get_layer(self, name=None, index=None):
        """A sublayer by `name` or by position `index` in `layers`."""
        if index is not None and name is not None:
            raise ValueError("Provide only a layer name or a layer index. Received: "
                             f"index={index}, name={name}.")
        if index is not None:
            if len(self.layers) <= index:
                raise ValueError(f"Was asked to retrieve layer at index {index} but model "
                                 f"only has {len(self.layers)} layers.")
            return self.layers[index]
        if name is not None:
            for layer in self.layers:
                if layer.name == name:
                    return layer
            raise ValueError(f"No such layer: {name}. Existing layers are: "
                             f"{[layer.name for layer in self.layers]}.")
        raise ValueError("Provide either a layer name or layer index at `get_layer`.")

    def call(self, *args, **kwargs):
        raise NotImplementedError(f"Model {type(self).__name__} does not have a `call()` "
                                  "method implemented. A subclassed model computes its "
                                  "output in `call(self, inputs, training=None)`.")

    def build(self, input_shape):
        """Create every weight by tracing `call` once on a placeholder of `input_shape`."""
        if type(self).call is Model.call:
            raise ValueError("You cannot build your model by calling `build` if your layers "
                             "do not support float type inputs. A model without `call` "
                             "cannot be built.")
        from .base_layer import _placeholder_structure, trace_output_spec
        trace_output_spec(self, (_placeholder_structure(input_shape, self),), {})
        self.built = True

    build._is_default = True  # a first real call builds the sublayers itself

    def summary(self, line_length=None, positions=None, print_fn=None, expand_nested=False,
                show_trainable=False, layer_range=None):
        """Print a table of the layers, their output shapes and parameter counts."""
        text = summary.summary_text(self, line_length=line_length, positions=positions,
                                    show_trainable=show_trainable)
        if print_fn is None:
            print(text, end="")
        else:
            print_fn(text)

    def save_weights(self, filepath, overwrite=True, max_shard_size=None):
        """Write every weight (and the optimizer's) to `filepath`, a Keras 3 `.weights.h5`
        file, atomically."""
        saving.save_weights(self, filepath, overwrite, max_shard_size)

    def load_weights(self, filepath, skip_mismatch=False, **kwargs):
        """Read a `.weights.h5` (or `.keras`) file into this (built) model."""
        saving.load_weights(self, filepath, skip_mismatch)

    def save(self, filepath, overwrite=True, zipped=None, **kwargs):
        """Write the whole model (architecture, weights, compile arguments, optimizer
        state) to a `.keras` file; `tf.keras.models.load_model` reads it back."""
        model_saving.save_model(self, filepath, overwrite=overwrite, zipped=zipped, **kwargs)

    def export(self, filepath, format="tf_saved_model", verbose=None, input_signature=None,
               **kwargs):
        """Write a serving SavedModel (Keras 3's `ExportArchive`): a `serve` endpoint and
        the "serve"/"serving_default" signatures; `tf.saved_model.load` reads it back
        (see minitf/saved_model/keras_export.py)."""
        from ...saved_model.keras_export import export_model
        export_model(self, filepath, format=format, verbose=verbose,
                     input_signature=input_signature)

    def to_json(self, **kwargs):
        """The architecture (no weights) as JSON; `tf.keras.models.model_from_json`."""
        return model_saving.to_json(self, **kwargs)

    def get_compile_config(self):
        """`compile`'s arguments as configs (None when not compiled)."""
        return model_saving.get_compile_config(self)

    def compile_from_config(self, config):
        """Compile with the arguments `get_compile_config` returned."""
        model_saving.compile_from_config(self, config)

    def get_config(self):
        config = super().get_config()
        config.pop("dtype", None)
        return config

    @classmethod
    def from_config(cls, config, custom_objects=None):
        """A functional config (layers, input_layers, output_layers) is rebuilt as a
        functional model of `cls`; any other config goes to `cls(**config)`."""
        if all(key in config for key in ("name", "layers", "input_layers", "output_layers")):
            from . import functional_config
            return functional_config.from_config(cls, config, custom_objects)
        try:
            return cls(**config)
        except TypeError as e:
            raise TypeError(
                f"Unable to revive model from config. When overriding the `get_config()` "
                f"method, make sure that the returned config contains all items used as "
                f"arguments in the constructor to {cls}, which is the default behavior. You "
                f"can override this default behavior by defining a `from_config(cls, config)` "
                f"class method to specify how to create an instance of {cls.__name__} from "
                f"its config.\n\nReceived config={config}\n\nError encountered during "
                f"deserialization: {e}") from None


def _inject_functional_model_class(cls):
    """Put `Functional` in place of `Model` among the bases of `cls` (and of its Model
    ancestors), so `cls` inherits Functional's `call`, `inputs` and `outputs` while its
    own overrides (`train_step`, ...) still come first. (Keras 3: models/model.py.)"""
    from .functional import Functional
    if cls is Model:
        return Functional
    if cls is object or not issubclass(cls, Model) or issubclass(cls, Functional):
        return cls
    cls.__bases__ = tuple(_inject_functional_model_class(base) for base in cls.__bases__)
    return cls


def _default_name(model):
    from ..utils.naming import to_snake_case
    return to_snake_case(type(model).__name__)
