"""Which classes a config may name: built-ins, registered classes, `custom_objects`.

A saved config names classes by string ("Dense", "my_pkg>Scale"). Loading
turns those strings back into classes, and that is where a file could make
the loader run code it should not. So a name is looked up, in this order, in

1. the `custom_objects` passed to the loading call,
2. the objects of the innermost open `CustomObjectScope`,
3. the classes registered with `@register_keras_serializable` ("package>Name"),
4. Keras's own built-in classes,

and nowhere else: a class that merely exists in the process (a user class
named `Dense`, say) is never picked up by its bare name.

>>> import minitf as tf
>>> @tf.keras.saving.register_keras_serializable(package="docs")
... class Twice(tf.keras.layers.Layer):
...     def call(self, x):
...         return 2 * x
>>> tf.keras.saving.get_registered_name(Twice)
'docs>Twice'
>>> tf.keras.saving.get_registered_object("docs>Twice") is Twice
True
>>> with tf.keras.saving.CustomObjectScope({"Half": Twice}):
...     tf.keras.saving.get_registered_object("Half") is Twice
True

In TensorFlow this is `keras/src/saving/object_registration.py`.
"""
import inspect
import threading

from ...framework.tf_export import tf_export

GLOBAL_CUSTOM_OBJECTS = {}  # "package>Name" -> class or function
GLOBAL_CUSTOM_NAMES = {}    # class or function -> "package>Name"
_state = threading.local()  # the open CustomObjectScopes and SafeModeScopes, per thread


def _scopes():
    if not hasattr(_state, "scopes"):
        _state.scopes = []
    return _state.scopes


@tf_export("keras.saving.CustomObjectScope", "keras.saving.custom_object_scope",
           "keras.utils.CustomObjectScope", "keras.utils.custom_object_scope")
class CustomObjectScope:
    """`with CustomObjectScope({"Name": cls}):` makes `Name` loadable inside the block."""

    def __init__(self, custom_objects):
        self.custom_objects = dict(custom_objects or {})

    def __enter__(self):
        _scopes().append(self.custom_objects)
        return self

    def __exit__(self, *exc):
        _scopes().pop()


custom_object_scope = CustomObjectScope


@tf_export("keras.saving.get_custom_objects", "keras.utils.get_custom_objects")
def get_custom_objects():
    """The global registry: {"package>Name": object}. (Keras lets you edit it in place.)"""
    return GLOBAL_CUSTOM_OBJECTS


@tf_export("keras.saving.register_keras_serializable",
           "keras.utils.register_keras_serializable")
def register_keras_serializable(package="Custom", name=None):
    """Decorator: register a class or function under "package>name" for loading."""

    def decorator(arg):
        registered_name = f"{package}>{name if name is not None else arg.__name__}"
        if inspect.isclass(arg) and not hasattr(arg, "get_config"):
            raise ValueError("Cannot register a class that does not have a get_config() "
                             "method.")
        GLOBAL_CUSTOM_OBJECTS[registered_name] = arg
        GLOBAL_CUSTOM_NAMES[arg] = registered_name
        return arg

    return decorator


@tf_export("keras.saving.get_registered_name", "keras.utils.get_registered_name")
def get_registered_name(obj):
    """"package>Name" for a registered object, else its Python name."""
    return GLOBAL_CUSTOM_NAMES.get(obj, getattr(obj, "__name__", None))


@tf_export("keras.saving.get_registered_object", "keras.utils.get_registered_object")
def get_registered_object(name, custom_objects=None, module_objects=None):
    """The object `name` stands for: open scopes, then `custom_objects`, then the
    registry, then `module_objects`; None if nowhere."""
    for scope in reversed(_scopes()):
        if name in scope:
            return scope[name]
    if custom_objects and name in custom_objects:
        return custom_objects[name]
    if name in GLOBAL_CUSTOM_OBJECTS:
        return GLOBAL_CUSTOM_OBJECTS[name]
    if module_objects and name in module_objects:
        return module_objects[name]
    return None


# --- safe mode ---------------------------------------------------------------------------------
class SafeModeScope:
    """`with SafeModeScope(False):` lets a Lambda's config be read inside the block."""

    def __init__(self, safe_mode=True):
        self.safe_mode = safe_mode

    def __enter__(self):
        self._previous = getattr(_state, "safe_mode", None)
        _state.safe_mode = self.safe_mode
        return self

    def __exit__(self, *exc):
        _state.safe_mode = self._previous


_UNSAFE_EVERYWHERE = [False]  # set by tf.keras.config.enable_unsafe_deserialization()


def disable_safe_mode_globally():
    """Keras's `enable_unsafe_deserialization`: safe mode stays off from now on, whatever
    `safe_mode` a later load passes (Keras's global flag outranks the argument)."""
    _UNSAFE_EVERYWHERE[0] = True


def in_safe_mode():
    """True unless a SafeModeScope(False) is open or unsafe deserialization was enabled
    (unset counts as safe: fail closed)."""
    if _UNSAFE_EVERYWHERE[0]:
        return False
    return getattr(_state, "safe_mode", None) is not False
