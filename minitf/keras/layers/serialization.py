"""`tf.keras.layers.serialize` / `deserialize`: a layer as a config dict and back.

>>> import minitf as tf
>>> config = tf.keras.layers.serialize(tf.keras.layers.Dense(3, name="d"))
>>> config["class_name"], config["config"]["units"]
('Dense', 3)
>>> tf.keras.layers.deserialize(config).units
3
"""
import inspect

from ...framework.tf_export import tf_export
from ..engine.base_layer import Layer


def _layer_classes():
    """Every Layer subclass defined so far, by class name (later definitions win)."""
    found, stack = {}, [Layer]
    while stack:
        cls = stack.pop()
        found.setdefault(cls.__name__, cls)
        stack.extend(cls.__subclasses__())
    return found


@tf_export("keras.layers.serialize")
def serialize(layer):
    """{'module', 'class_name', 'config', 'registered_name'} for a layer."""
    return {"module": "keras.layers", "class_name": type(layer).__name__,
            "config": layer.get_config(), "registered_name": None}


@tf_export("keras.layers.deserialize")
def deserialize(config, custom_objects=None):
    """The layer a `serialize` dict describes (custom classes via `custom_objects`)."""
    classes = _layer_classes()
    classes.update(custom_objects or {})
    name = config.get("class_name")
    if name not in classes:
        raise ValueError(f"Unknown layer: '{name}'. Please ensure you are using a "
                         "`keras.utils.custom_object_scope` and that this object is included "
                         "in the scope, or pass it in `custom_objects`.")
    cls = classes[name]
    if "custom_objects" in inspect.signature(cls.from_config).parameters:  # models
        return cls.from_config(dict(config["config"]), custom_objects=custom_objects)
    return cls.from_config(dict(config["config"]))
