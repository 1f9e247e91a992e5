"""`tf.keras.utils.legacy`: Keras 2's `serialize_keras_object` / `deserialize_keras_object`.

The Keras 2 format is `{"class_name": ..., "config": ...}` with no "module":
the reader must be told where to look the class up (`module_objects`,
`custom_objects`, a `custom_object_scope` or the registry). A function is
written as its (registered) name. Keras 3's own format (`tf.keras.saving.
serialize_keras_object`) adds "module" and "registered_name"; these two stay
for code that reads old configs.

>>> tf.keras.utils.legacy.serialize_keras_object(tf.keras.activations.relu)
'relu'
>>> config = tf.keras.utils.legacy.serialize_keras_object(tf.keras.optimizers.SGD(0.5))
>>> config["class_name"], config["config"]["learning_rate"]
('SGD', 0.5)
>>> opt = tf.keras.utils.legacy.deserialize_keras_object(
...     config, module_objects={"SGD": tf.keras.optimizers.SGD})
>>> type(opt).__name__
'SGD'

Keras 2's shared-object scopes (one object used by several layers written
once) are not implemented.

In TensorFlow this is `keras/src/legacy/saving/serialization.py`.
"""
import inspect

from ...framework.tf_export import tf_export


def _unknown(printable_module_name, name):
    return ValueError(
        f"Unknown {printable_module_name}: '{name}'. Please ensure you are using a "
        "`keras.utils.custom_object_scope` and that this object is included in the scope. "
        "See https://www.tensorflow.org/guide/keras/save_and_serialize"
        "#registering_the_custom_object for details.")


@tf_export("keras.utils.legacy.serialize_keras_object")
def serialize_keras_object(instance):
    """`{"class_name": registered name, "config": get_config()}`; a function: its name.

    Objects with a `get_config` inside the config are serialized too, marked
    `"__passive_serialization__": True` so that `deserialize_keras_object` rebuilds them.
    """
    instance = inspect.unwrap(instance)
    if instance is None:
        return None
    from ..saving.object_registration import get_registered_name
    if hasattr(instance, "get_config"):
        config = {}
        for key, item in instance.get_config().items():
            if isinstance(item, str):
                config[key] = item
                continue
            try:
                serialized = serialize_keras_object(item)
                if isinstance(serialized, dict) and not isinstance(item, dict):
                    serialized["__passive_serialization__"] = True
                config[key] = serialized
            except ValueError:  # plain values (numbers, lists, dicts) stay as they are
                config[key] = item
        return {"class_name": get_registered_name(instance.__class__), "config": config}
    if hasattr(instance, "__name__"):
        return get_registered_name(instance)
    raise ValueError(f"Cannot serialize {instance} because it doesn't implement "
                     "`get_config()`.")


def _class_and_config(config, module_objects, custom_objects, printable_module_name):
    from ..saving.object_registration import get_registered_object
    if not isinstance(config, dict) or "class_name" not in config or "config" not in config:
        raise ValueError(f"Improper config format for {config}. Expecting python dict "
                         "contains `class_name` and `config` as keys")
    cls = get_registered_object(config["class_name"], custom_objects, module_objects)
    if cls is None:
        raise _unknown(printable_module_name, config["class_name"])
    cls_config = config["config"]
    if isinstance(cls_config, list):
        return cls, cls_config
    for key, item in list(cls_config.items()):
        if key == "name":
            continue
        if isinstance(item, dict) and "__passive_serialization__" in item:
            cls_config[key] = deserialize_keras_object(item, module_objects, custom_objects,
                                                       "config_item")
        elif isinstance(item, str) and inspect.isfunction(
                get_registered_object(item, custom_objects, module_objects)):
            cls_config[key] = get_registered_object(item, custom_objects, module_objects)
    return cls, cls_config


@tf_export("keras.utils.legacy.deserialize_keras_object")
def deserialize_keras_object(identifier, module_objects=None, custom_objects=None,
                             printable_module_name="object"):
    """The object a Keras 2 config (a dict, or a name) describes; a class named by a
    string is instantiated with no arguments, a function is returned as it is.

    >>> tf.keras.utils.legacy.deserialize_keras_object("tanh", module_objects={})
    Traceback (most recent call last):
    ValueError: Unknown object: 'tanh'. Please ensure you are using a ...
    """
    from ..saving.object_registration import CustomObjectScope, get_registered_object
    if identifier is None:
        return None
    if isinstance(identifier, dict):
        cls, cls_config = _class_and_config(identifier, module_objects, custom_objects,
                                            printable_module_name)
        with CustomObjectScope(custom_objects or {}):
            if not hasattr(cls, "from_config"):
                return cls(**cls_config)
            if "custom_objects" in inspect.getfullargspec(cls.from_config).args:
                return cls.from_config(cls_config, custom_objects=custom_objects or {})
            return cls.from_config(cls_config)
    if isinstance(identifier, str):
        obj = get_registered_object(identifier, custom_objects, module_objects)
        if obj is None:
            raise _unknown(printable_module_name, identifier)
        return obj() if inspect.isclass(obj) else obj
    if inspect.isfunction(identifier):
        return identifier
    raise ValueError(f"Could not interpret serialized {printable_module_name}: {identifier}")
