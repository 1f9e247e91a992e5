"""How `tf.math`, `tf.keras.layers`, ... are filled, and why `import minitf` is quick.

Every public object is marked with `@tf_export("math.exp", "exp")` (tf_export.py).
`minitf/__init__.py` imports the modules a first cell needs (tensors, ops, tf.function,
AutoGraph), then `assemble` puts their registered names into namespace modules:
`tf.math` is a module made here, `tf.keras.layers` is the real package
`minitf.keras.layers` with the names set on it.

The big subpackages (`tf.keras`, `tf.data`, `tf.train`, `tf.saved_model`, ...) are
imported on first use (PEP 562: `minitf.__getattr__` calls `lazy_attribute`). From
then on every name they register is put in place at once (`go_live`), so
`from minitf.keras import layers` works as well as `tf.keras.layers`.
A name whose namespace is a package not imported yet (`tf.io.read_file`, defined
with the ops) waits until that package is imported.

>>> import minitf as tf
>>> lazy_attribute("keras") is tf.keras
True
>>> sorted(name for name in LAZY_ATTRIBUTES if name.islower())[:3]
['compat', 'data', 'distribute']

In TensorFlow the same happens through generated `_api/v2` modules and
`tensorflow/python/util/lazy_loader.py`.
"""
import importlib
import importlib.util
import sys
import types

from .tf_export import REGISTRY, add_listener

ROOT = "minitf"

# tf.<name> that is imported on first use -> the subpackage whose import makes it.
LAZY_ATTRIBUTES = {
    "data": "data", "py_function": "data", "numpy_function": "data",
    "keras": "keras", "losses": "keras", "metrics": "keras", "optimizers": "keras",
    "feature_column": "feature_column", "summary": "summary", "saved_model": "saved_model",
    "train": "train", "io": "io", "distribute": "distribute", "image": "image",
    "ragged": "ragged", "RaggedTensor": "ragged", "RaggedTensorSpec": "ragged",
    "lookup": "lookup", "version": "version", "compat": "compat", "Graph": "compat",
}

_waiting = []  # (dotted name, object) whose namespace is a module not imported yet
_real = {}  # dotted module name -> whether a real module of that name exists


def _is_real_module(full):
    if full not in _real:
        _real[full] = importlib.util.find_spec(full) is not None
    return _real[full]


def namespace(path):
    """The module for `tf.<path>` ("" is `tf`), or None while it is a package not imported yet.

    A namespace with no package of its own (`tf.math`) is a module made here."""
    module = sys.modules[ROOT]
    full = ROOT
    for part in path.split(".") if path else ():
        full = f"{full}.{part}"
        if full in sys.modules:
            module = sys.modules[full]
            continue
        if hasattr(module, "__path__") and _is_real_module(full):
            return None  # importing the package would defeat the lazy import: wait
        child = types.ModuleType(full, f"The `tf.{full[len(ROOT) + 1:]}` namespace.")
        sys.modules[full] = child
        setattr(module, part, child)
        module = child
    return module


def _place(dotted, obj):
    path, _, attr = dotted.rpartition(".")
    module = namespace(path)
    if module is None:
        _waiting.append((dotted, obj))
    else:
        setattr(module, attr, obj)


def _place_waiting():
    if _waiting:
        entries = list(_waiting)
        _waiting.clear()
        for dotted, obj in entries:
            _place(dotted, obj)


def assemble(registry):
    """Put every (dotted name, object) of `registry` into its namespace."""
    for dotted, obj in registry:
        _place(dotted, obj)


def _on_register(dotted, obj):
    _place_waiting()  # the package a waiting name needs may have just been imported
    _place(dotted, obj)


def go_live():
    """From now on, names registered by modules imported later go into place at once."""
    assemble(REGISTRY)
    add_listener(_on_register)


def lazy_attribute(name):
    """`tf.<name>` for a subpackage imported on first use; AttributeError for any other."""
    root = sys.modules[ROOT]
    if name not in LAZY_ATTRIBUTES:
        raise AttributeError(f"module {ROOT!r} has no attribute {name!r}")
    importlib.import_module(f"{ROOT}.{LAZY_ATTRIBUTES[name]}")
    _place_waiting()
    return vars(root)[name]


def public_dir():
    """`dir(tf)`: what is there now and what is imported on first use."""
    return sorted(set(vars(sys.modules[ROOT])) | set(LAZY_ATTRIBUTES))
