"""Turning Keras objects into plain dicts and back (what `get_config` nests).

Keras 3 writes every nested object (an initializer inside a Dense config,
say) as `{'module', 'class_name', 'config', 'registered_name'}`; only plain
functions such as activations are written as their name.

>>> import minitf as tf
>>> serialize_keras_object(tf.keras.initializers.Zeros(), "keras.initializers")
{'module': 'keras.initializers', 'class_name': 'Zeros', 'config': {}, 'registered_name': None}
"""
import difflib


def serialize_keras_object(obj, module):
    """The Keras 3 dict for `obj` (None stays None); a registered class says its
    "package>Name"."""
    if obj is None:
        return None
    from .saving.object_registration import GLOBAL_CUSTOM_NAMES
    registered = GLOBAL_CUSTOM_NAMES.get(type(obj))
    return {"module": type(obj).__module__ if registered else module,
            "class_name": type(obj).__name__, "config": obj.get_config(),
            "registered_name": registered}


def deserialize_keras_object(config, objects, kind, custom_objects=None):
    """The object a `serialize_keras_object` dict (or a class name) describes.

    objects: {class or function name: class or function} known for this kind.
    """
    from .saving.object_registration import get_registered_object
    known = dict(objects)
    known.update(custom_objects or {})
    if isinstance(config, str):
        name, arguments = config, {}
    elif isinstance(config, dict) and "class_name" in config:
        name, arguments = config["class_name"], config.get("config") or {}
    else:
        raise unknown_identifier_error(kind, config, known)
    registered = config.get("registered_name") if isinstance(config, dict) else None
    # custom objects, open scopes and registered classes; then the built-ins; nothing else
    target = next((found for found in (get_registered_object(key, custom_objects)
                                        for key in (registered, name) if isinstance(key, str))
                   if found is not None), known.get(name))
    if target is None:
        raise unknown_identifier_error(kind, config, known)
    if not isinstance(target, type):
        return target
    if hasattr(target, "from_config"):  # e.g. Constant turns a serialized array back
        return target.from_config(arguments)
    return target(**arguments)


def unknown_identifier_error(kind, identifier, known_names):
    """TF's `ValueError("Could not interpret <kind> identifier: x")`, plus a hint.

    >>> print(unknown_identifier_error("activation function", "rellu", ["relu", "tanh"]))
    Could not interpret activation function identifier: rellu Did you mean 'relu'?
    """
    message = f"Could not interpret {kind} identifier: {identifier}"
    names = sorted({str(n) for n in known_names})
    close = difflib.get_close_matches(str(identifier), names, n=3, cutoff=0.6)
    if close:
        return ValueError(message + " Did you mean " +
                          " or ".join(repr(c) for c in close) + "?")
    snake = [n for n in names if n == n.lower()] or names
    return ValueError(message + f" Known names: {', '.join(snake)}.")
