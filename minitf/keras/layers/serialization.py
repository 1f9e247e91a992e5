"""`tf.keras.layers.serialize` / `deserialize`: a layer as a config dict and back.

A config names its class by string, and `deserialize` resolves that string
only among `custom_objects` (and open `CustomObjectScope`s), classes
registered with `register_keras_serializable` ("package>Name"), and Keras's
built-in layers and models. A class that merely exists in the process is
never used: a user class named `Dense` does not replace the built-in one, and
an unknown name is TF's `TypeError("Could not locate class ...")`.

>>> import minitf as tf
>>> config = tf.keras.layers.serialize(tf.keras.layers.Dense(3, name="d"))
>>> config["class_name"], config["config"]["units"]
('Dense', 3)
>>> tf.keras.layers.deserialize(config).units
3
"""
import inspect

from ...framework.tf_export import REGISTRY, tf_export
from ..engine import call_context
from ..engine.base_layer import Layer
from ..saving import object_registration
from ..saving.budget import MAX_CONFIG_VALUES, WeightBudget
from ..saving.object_registration import GLOBAL_CUSTOM_NAMES, get_registered_object

_BUILTINS = None
LAMBDA_REFUSED = (
    "Requested the deserialization of a `Lambda` layer whose `function` is a Python lambda. "
    "This carries a potential risk of arbitrary code execution and thus it is disallowed by "
    "default. If you trust the source of the artifact, you can override this error by "
    "passing `safe_mode=False` to the loading function, or calling "
    "`keras.config.enable_unsafe_deserialization().")


def builtin_layer_classes():
    """Keras's own layer and model classes, by name: what `tf.keras` exports."""
    global _BUILTINS
    if _BUILTINS is None:
        from ..engine.functional import Functional
        found = {"Functional": Functional}
        for name, obj in REGISTRY:
            if name.startswith("keras.") and isinstance(obj, type) and issubclass(obj, Layer):
                found.setdefault(name.rsplit(".", 1)[-1], obj)
                found.setdefault(obj.__name__, obj)
        _BUILTINS = found
    return _BUILTINS


def _is_builtin(cls):
    return builtin_layer_classes().get(cls.__name__) is cls and cls not in GLOBAL_CUSTOM_NAMES


@tf_export("keras.layers.serialize")
def serialize(layer):
    """{'module', 'class_name', 'config', 'registered_name', 'build_config'} for a layer,
    as Keras 3 writes it (build_config only once the layer is built)."""
    cls = type(layer)
    if _is_builtin(cls):
        # tf.keras's legacy layers (AlphaDropout, ThresholdedReLU) say so in their module
        module, registered = getattr(cls, "_keras_module", "keras.layers"), None
        if cls.__name__ == "Sequential":
            module = "keras"
        elif cls.__name__ == "Functional":
            module, registered = "keras.src.models.functional", "Functional"
        elif cls.__name__ == "FeatureSpace":  # keras.utils.FeatureSpace is a Layer too
            module = "keras.utils"
    else:
        module = cls.__module__
        registered = object_registration.get_registered_name(cls)
    # a built-in class exported under another name is written under that name, as Keras does
    # (GroupedQueryAttention is "GroupQueryAttention")
    class_name = cls.__dict__.get("_keras_class_name", cls.__name__) if registered is None \
        and module.startswith("keras") else cls.__name__
    config = {"module": module, "class_name": class_name, "config": layer.get_config(),
              "registered_name": registered}
    shapes = getattr(layer, "_build_shapes_dict", None)
    if layer.built and shapes and "input_shape" in shapes and cls.__name__ != "InputLayer" \
            and len(inspect.signature(cls.build).parameters) == 2:  # build(self, input_shape)
        config["build_config"] = {"input_shape": _plain(shapes["input_shape"])}
    elif hasattr(layer, "get_build_config"):  # a layer that says how to rebuild it (FeatureSpace)
        config["build_config"] = layer.get_build_config()
    # (a build with several shapes, as MultiHeadAttention's, is Keras's "shapes_dict": not
    # written; the model's calls build such layers when it is loaded)
    return config


def _plain(shape):
    """A shape as JSON-able lists (TensorShape, tuples, nested for several inputs)."""
    if shape is None or isinstance(shape, (int, str)):
        return shape
    if hasattr(shape, "as_list"):
        return shape.as_list() if shape.rank is not None else None
    return [_plain(s) for s in shape]


def resolve_class(config, custom_objects=None):
    """The class a config names: custom objects, then registered, then built-in."""
    name = config.get("class_name")
    registered = config.get("registered_name") or name
    for key in (registered, name):
        if isinstance(key, str):
            found = get_registered_object(key, custom_objects)
            if found is not None:
                return found
    found = builtin_layer_classes().get(name) if isinstance(name, str) else None
    if found is None:
        raise TypeError(
            f"Could not locate class '{name}'. Make sure custom classes and functions are "
            "decorated with `@keras.saving.register_keras_serializable()`. If they are "
            "already decorated, make sure they are all imported so that the decorator is run "
            "before trying to load them. Full object config: "
            f"{str(config)[:300]}")
    return found


@tf_export("keras.layers.deserialize")
def deserialize(config, custom_objects=None):
    """The layer a `serialize` dict describes (custom classes via `custom_objects`)."""
    if not isinstance(config, dict) or not isinstance(config.get("config", {}), dict):
        raise ValueError(f"A layer config is a dict with 'class_name' and 'config'; received "
                         f"{str(config)[:200]}")
    cls = resolve_class(config, custom_objects)
    if not (isinstance(cls, type) and issubclass(cls, Layer)):
        raise ValueError(f"Could not deserialize '{config.get('class_name')}' because it is "
                         "not a Keras layer or model class.")
    arguments = dict(config.get("config") or {})
    if _is_builtin(cls):
        _drop_features_turned_off(arguments)
    if cls.__name__ == "Lambda" and _is_builtin(cls):
        arguments["function"] = _lambda_function(arguments.get("function"), custom_objects)
    # a config is data: the weights it asks for are bounded (load_model opens a tighter budget)
    with WeightBudget(MAX_CONFIG_VALUES, "The config"):
        if "custom_objects" in inspect.signature(cls.from_config).parameters:  # models
            layer = cls.from_config(arguments, custom_objects=custom_objects)
        else:
            layer = cls.from_config(arguments)
        build_config = config.get("build_config")
        if isinstance(build_config, dict) and build_config.get("input_shape") is not None:
            _build_from_config(layer, build_config["input_shape"])
    return layer


def _build_from_config(layer, input_shape):
    """Create the weights now, as the first call would (Keras's `build_from_config`).

    A subclassed model without its own `build` makes its weights when first called: it
    is called once on zeros of the saved shape (None sizes as 1)."""
    if layer.built:
        return

    def as_shape(s):
        if isinstance(s, (list, tuple)) and all(d is None or isinstance(d, int) for d in s):
            return tuple(s)
        if isinstance(s, (list, tuple)):
            return [as_shape(d) for d in s]
        raise ValueError(f"build_config input_shape {input_shape!r} is not a shape.")
    shapes = as_shape(input_shape)
    if getattr(type(layer).build, "_is_default", False):
        from ..engine.training import Model
        if isinstance(layer, Model) and isinstance(shapes, tuple):  # a subclassed model
            import numpy as np
            layer(np.zeros([1 if d is None else d for d in shapes], "float32"))
        return  # other layers without a build: their first call in the model builds them
    layer._build_shapes_dict = {"input_shape": shapes}
    with call_context.name_scope(layer.name):
        layer.build(shapes)
    layer.built = True


# Arguments of Keras 3.15 layers for features minitf lacks, and the value that means "off".
# A config with them off loads; one that turns them on is refused, never silently ignored.
KERAS_ONLY_ARGUMENTS = {"quantization_config": None, "renorm": False, "renorm_clipping": None,
                        "renorm_momentum": "renorm"}  # renorm_momentum matters only with renorm


def _drop_features_turned_off(arguments):
    for key, off in KERAS_ONLY_ARGUMENTS.items():
        if key not in arguments:
            continue
        value = arguments.pop(key)
        if off == "renorm" or value == off:
            continue
        raise NotImplementedError(
            f"Layer '{arguments.get('name')}' uses {key}={value!r}, a Keras feature minitf "
            "does not have. Load this model in Keras, or save it without that feature.")


def _lambda_function(function, custom_objects):
    """A Lambda's function from its config: only a registered/custom function by name."""
    if isinstance(function, dict) and function.get("class_name") == "__lambda__":
        if object_registration.in_safe_mode():
            raise ValueError(LAMBDA_REFUSED)
        raise ValueError(
            "This Lambda layer's function is Python bytecode. Keras runs it when "
            "safe_mode=False; minitf never runs code from a file, even then. Register the "
            "function with @tf.keras.saving.register_keras_serializable() (or pass it in "
            "custom_objects) and save again, or rebuild the layer in code.")
    name = function.get("config") if isinstance(function, dict) else function
    registered = function.get("registered_name") if isinstance(function, dict) else None
    for key in (registered, name):
        if isinstance(key, str):
            found = get_registered_object(key, custom_objects)
            if found is not None:
                return found
    if callable(function):  # an in-memory config (clone_model), not from a file
        return function
    raise ValueError(f"Could not locate the function {name!r} of a Lambda layer: register it "
                     "with @tf.keras.saving.register_keras_serializable() or pass it in "
                     "custom_objects.")
