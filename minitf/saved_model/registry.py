"""Which ops a SavedModel may name: minitf's op registry, looked up by name.

A graph in a SavedModel file names each node's op ("MatMul", "AddV2"). Loading
looks the name up here and nowhere else: the registry holds every `Op` that a
minitf module defines at module level, so a file can only ever ask for
computations minitf already has - never import a module or run code of its
own. A few TensorFlow names have several minitf kernels (a static `Reshape`
and one for shapes known only at run time); the file then also names the
kernel (`"variant": "minitf.ops.shape_ops.ReshapeDynamic"`).

>>> from minitf.saved_model import registry
>>> registry.lookup("MatMul", None, "saved_model.json").name
'MatMul'

In TensorFlow the same role is played by the C++ op registry (`REGISTER_OP`):
a SavedModel naming an op the runtime does not have fails to load.
"""
import importlib
import sys

from ..framework.graph import AssignVariable, Const, Placeholder, ReadVariable
from ..framework.op import Op

# Ops that hold Python code in their attributes: a graph with them cannot be a file.
UNSERIALIZABLE = {
    "EagerPyFunc": "tf.py_function/tf.numpy_function call a Python function, which a "
                   "SavedModel cannot hold (loading must never run code from a file)",
}

_GRAPH_OPS = {"Placeholder": Placeholder, "Const": Const, "ReadVariableOp": ReadVariable,
              "AssignVariableOp": AssignVariable}

_registry = None  # op name -> {qualified name: Op}
# Subpackages that `import minitf` leaves for later and that define ops of their own.
_PACKAGES_WITH_OPS = ("data", "summary", "feature_column")


def _build():
    for package in _PACKAGES_WITH_OPS:  # imported on first use (api_namespace.py)
        importlib.import_module(f"minitf.{package}")
    names = {}  # id(op) -> (op, qualified names where a minitf module defines it)
    for module_name, module in sorted(sys.modules.items()):
        if module is None or not (module_name == "minitf" or module_name.startswith("minitf.")):
            continue
        for attr, value in list(vars(module).items()):
            if type(value) is Op and value.forward is not None:
                names.setdefault(id(value), (value, []))[1].append(f"{module_name}.{attr}")
    registry = {}
    for op, qualified in names.values():  # each distinct Op is named by its first name
        registry.setdefault(op.name, {})[min(qualified)] = op
    for name, op in _GRAPH_OPS.items():
        registry[name] = {f"minitf.framework.graph.{name}": op}
    return registry


def _ops():
    global _registry
    if _registry is None:
        _registry = _build()
    return _registry


def describe(op):
    """(name, variant) to write for `op`; ValueError if a file cannot hold it."""
    if op.name in UNSERIALIZABLE:
        raise ValueError(f"Cannot save a graph with op '{op.name}': "
                         f"{UNSERIALIZABLE[op.name]}. Compute that part with TensorFlow ops, "
                         "or keep it outside the saved function.")
    kernels = _ops().get(op.name, {})
    matches = [q for q, known in kernels.items() if known is op]
    if not matches:
        raise ValueError(
            f"Cannot save a graph with op '{op.name}': it is not a registered minitf op "
            "(for example one made by a graph optimization or tf.custom_gradient), so a "
            "loader could not find it again. Save the function before optimizing it, or "
            "write it with registered ops.")
    return op.name, (matches[0] if len(kernels) > 1 else None)


def lookup(name, variant, filename):
    """The Op a file names, or ValueError naming the file."""
    if not isinstance(name, str) or name in UNSERIALIZABLE:
        raise ValueError(f"{filename}: op {name!r} is not allowed in a SavedModel "
                         f"({UNSERIALIZABLE.get(name, 'not an op name')}); the file was made "
                         "by something other than tf.saved_model.save, or was changed.")
    kernels = _ops().get(name)
    if not kernels:
        raise ValueError(f"{filename}: op {name!r} is not a registered minitf op, so this "
                         "graph cannot be loaded. The file was written by another program "
                         "or changed by hand.")
    if len(kernels) == 1 and variant is None:
        return next(iter(kernels.values()))
    if variant not in kernels:
        raise ValueError(f"{filename}: op {name!r} with kernel {variant!r} is not a "
                         f"registered minitf op (known kernels: {sorted(kernels)}).")
    return kernels[variant]
