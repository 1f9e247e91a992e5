"""Turning Keras objects into plain dicts and back (what `get_config` nests).

Keras 3 writes every nested object (an initializer inside a Dense config,
say) as `{'module', 'class_name', 'config', 'registered_name'}`; only plain
functions such as activations are written as their name.

>>> import minitf as tf
>>> serialize_keras_object(tf.keras.initializers.Zeros(), "keras.initializers")
{'module': 'keras.initializers', 'class_name': 'Zeros', 'config': {}, 'registered_name': None}
"""


def serialize_keras_object(obj, module):
    """The Keras 3 dict for `obj` (None stays None)."""
    if obj is None:
        return None
    return {"module": module, "class_name": type(obj).__name__, "config": obj.get_config(),
            "registered_name": None}


def deserialize_keras_object(config, objects, kind, custom_objects=None):
    """The object a `serialize_keras_object` dict (or a class name) describes.

    objects: {class or function name: class or function} known for this kind.
    """
    known = dict(objects)
    known.update(custom_objects or {})
    if isinstance(config, str):
        name, arguments = config, {}
    elif isinstance(config, dict) and "class_name" in config:
        name, arguments = config["class_name"], config.get("config") or {}
    else:
        raise ValueError(f"Could not interpret {kind} identifier: {config}")
    if name not in known:
        raise ValueError(f"Could not interpret {kind} identifier: {config}")
    target = known[name]
    return target(**arguments) if isinstance(target, type) else target
