"""`serialize_keras_object` / `deserialize_keras_object`: any Keras object as a config.

One door for layers, models, optimizers, losses, metrics, initializers,
regularizers, constraints and activations: the config's `module` says which
family's `deserialize` reads it, and each family resolves class names only
among its built-ins, registered classes and `custom_objects`.

>>> import minitf as tf
>>> config = tf.keras.utils.serialize_keras_object(tf.keras.optimizers.SGD(0.5))
>>> config["module"], config["class_name"]
('keras.optimizers', 'SGD')
>>> float(tf.keras.utils.deserialize_keras_object(config).learning_rate.numpy())
0.5

In TensorFlow 2.21 these are `tf.keras.utils.*`; Keras 3 also has them as
`keras.saving.*`, and minitf offers both spellings.
"""
from ...framework.tf_export import tf_export
from .object_registration import CustomObjectScope, SafeModeScope


def _families():
    from .. import (activations, constraints, initializers, losses, metrics, optimizers,
                    regularizers)
    from ..engine.base_layer import Layer
    from ..layers import serialization as layers
    return [("keras.layers", Layer, layers), ("keras.optimizers", optimizers.Optimizer,
                                              optimizers),
            ("keras.losses", losses.Loss, losses), ("keras.metrics", metrics.Metric, metrics),
            ("keras.initializers", initializers.Initializer, initializers),
            ("keras.regularizers", regularizers.Regularizer, regularizers),
            ("keras.constraints", constraints.Constraint, constraints),
            ("keras.activations", None, activations)]


@tf_export("keras.utils.serialize_keras_object", "keras.saving.serialize_keras_object")
def serialize_keras_object(obj):
    """The config dict of a Keras object (plain values pass through)."""
    if obj is None or isinstance(obj, (str, int, float, bool)):
        return obj
    if isinstance(obj, (list, tuple)):
        return [serialize_keras_object(item) for item in obj]
    if isinstance(obj, dict):
        return {key: serialize_keras_object(value) for key, value in obj.items()}
    for _, cls, family in _families():
        if cls is not None and isinstance(obj, cls):
            return family.serialize(obj)
    if callable(obj):
        from .. import activations
        return activations.serialize(obj)
    raise TypeError(f"Cannot serialize {obj!r} of type {type(obj).__name__}: it is not a "
                    "Keras object.")


@tf_export("keras.utils.deserialize_keras_object", "keras.saving.deserialize_keras_object")
def deserialize_keras_object(config, custom_objects=None, safe_mode=True, **kwargs):
    """The object a `serialize_keras_object` config describes."""
    if config is None or isinstance(config, (int, float, bool)):
        return config
    if isinstance(config, list):
        return [deserialize_keras_object(c, custom_objects, safe_mode) for c in config]
    if isinstance(config, str):  # a function by name: an activation, or registered
        from .. import activations
        from .object_registration import get_registered_object
        found = get_registered_object(config, custom_objects)
        return found if found is not None else activations.deserialize(config, custom_objects)
    if not isinstance(config, dict) or "class_name" not in config:
        raise ValueError(f"Could not deserialize {config!r}: a Keras config is a dict with "
                         "'module', 'class_name' and 'config'.")
    module = config.get("module") or "keras.layers"
    with CustomObjectScope(custom_objects), SafeModeScope(safe_mode):
        for prefix, _, family in _families():
            if module == prefix or module.startswith(prefix + "."):
                return family.deserialize(config, custom_objects=custom_objects)
        from ..layers.serialization import deserialize  # models, custom layers
        return deserialize(config, custom_objects)
