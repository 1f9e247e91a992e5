"""`tf.saved_model.save`: an object, its variables and its traced functions, as a directory.

    export_dir/
      saved_model.json                        the object graph, the functions' graphs, the signatures
      variables/variables.index               a tf.train.Checkpoint of the object:
      variables/variables.data-00000-of-00001 each variable's value, by checkpoint key
      assets/                                 (extra files; empty in minitf)

The object graph is TensorFlow's design: node 0 is the object you saved, and
each node lists its children by attribute name - submodules, variables,
`tf.function`s (each with the graphs traced so far, or the one its
`input_signature` gives). Loading rebuilds the same tree from the file alone,
without your Python class (`load.py`).

>>> import os, tempfile
>>> import minitf as tf
>>> class Doubler(tf.Module):
...     def __init__(self):
...         super().__init__()
...         self.k = tf.Variable(2.0)
...     @tf.function(input_signature=[tf.TensorSpec([None], tf.float32)])
...     def __call__(self, x):
...         return x * self.k
>>> path = os.path.join(tempfile.mkdtemp(), "doubler")
>>> tf.saved_model.save(Doubler(), path)
>>> sorted(os.listdir(path)), sorted(os.listdir(os.path.join(path, "variables")))
(['assets', 'saved_model.json', 'variables'], ['variables.data-00000-of-00001', 'variables.index'])

Where minitf differs from TensorFlow: the graphs and metadata are JSON
(`saved_model.json`), not the protobuf `saved_model.pb`, and the variable
files use minitf's bytes; the layout is TF's. TF also writes a
`fingerprint.pb`, which minitf does not.
"""
import inspect
import json
from collections.abc import Mapping
import os
import shutil
import tempfile

from ..framework.function import ConcreteFunction, Function
from ..framework.graph import SymbolicTensor
from ..framework.tf_export import tf_export
from . import graph_io, structures, values, variables_io

FORMAT = "minitf.saved_model"
VERSION = 1
SAVED_MODEL_FILENAME = "saved_model.json"
DEFAULT_SIGNATURE = "serving_default"
PREDICT_METHOD = "tensorflow/serving/predict"


@tf_export("saved_model.save")
def save(obj, export_dir, signatures=None, options=None):
    """Write `obj` (a `tf.Module`, a Keras model, any object holding variables and
    tf.functions) to the directory `export_dir`.

    signatures: None (the one `tf.function` with an `input_signature` among
    `obj`'s attributes becomes "serving_default", if there is exactly one), a
    `tf.function` with an input_signature or a concrete function (it becomes
    "serving_default"), or a dict {signature key: either}.

    The directory is built under a temporary name next to `export_dir` and
    renamed into place: if saving fails, an existing SavedModel there stays
    intact.
    """
    if not _is_trackable(obj) or isinstance(obj, (list, tuple, dict)):
        raise ValueError(
            "Expected an object of type `Trackable`, such as `tf.Module` or a subclass of the "
            f"`Trackable` class, for export. Got {obj!r} with type {type(obj)}. (Put the "
            "variables and tf.functions on a tf.Module and save that.)")
    keras_model = _keras_model(obj)
    if keras_model is not None:
        from .keras_export import saved_model_root
        obj, default = saved_model_root(keras_model)
        signatures = default if signatures is None else signatures
    document, checkpoint = export(obj, signatures)
    write_directory(export_dir, document, checkpoint)


def _keras_model(obj):
    from ..keras.engine.training import Model
    return obj if isinstance(obj, Model) else None


def export(root, signatures):
    """(the saved_model.json document, the tf.train.Checkpoint of its variables)."""
    exporter = _Exporter()
    exporter.walk(root)
    checkpoint, keys = variables_io.checkpoint_keys(root, exporter.variables)
    for variable in exporter.variables:
        exporter.nodes[exporter.ids[id(variable)]]["checkpoint_key"] = keys[id(variable)]
    sigs = _signature_functions(root, signatures)
    document = {
        "format": FORMAT, "version": VERSION,
        "meta_info_def": {"tags": ["serve"], "minitf_version": _version()},
        "object_graph": exporter.nodes,
        "signatures": {key: exporter.signature(key, concrete)
                       for key, concrete in sigs.items()},
    }
    document["concrete_functions"] = [exporter.encode_function(c) for c in exporter.concretes]
    return document, checkpoint


def _version():
    import minitf
    return minitf.__version__


# --- the object graph ----------------------------------------------------------------------
def _is_trackable(value, depth=0):
    if getattr(value, "_is_variable", False) or isinstance(value, (Function, ConcreteFunction)):
        return True
    from ..module import Module
    if isinstance(value, Module) or getattr(type(value), "_saved_model_trackable", False):
        return True  # a tf.Module, or an object tf.saved_model.load or model.export made
    if depth < 8 and isinstance(value, (list, tuple)):
        return any(_is_trackable(v, depth + 1) for v in value)
    if depth < 8 and isinstance(value, dict):
        return any(_is_trackable(v, depth + 1) for v in value.values())
    return False


def trackable_children(obj):
    """(attribute name, value) of what `obj` holds that a SavedModel keeps: variables,
    modules, tf.functions (also those defined on its class) and lists/dicts of them."""
    if hasattr(obj, "_saved_model_children"):  # model.export's root says what it holds
        return list(obj._saved_model_children.items())
    children = []
    ignored = getattr(obj, "_TF_MODULE_IGNORED_PROPERTIES", ())
    attributes = vars(obj) if hasattr(obj, "__dict__") else {}
    for name in sorted(attributes):
        if name not in ignored and _is_trackable(attributes[name]):
            children.append((name, attributes[name]))
    for name in sorted(dir(type(obj))):
        if name not in attributes and isinstance(
                inspect.getattr_static(type(obj), name, None), Function):
            children.append((name, getattr(obj, name)))
    return children


class _Exporter:
    def __init__(self):
        self.nodes, self.ids, self.variables = [], {}, []
        self.variable_ids = {}
        self.concretes, self.concrete_ids = [], {}
        self.keep = []  # objects numbered by id() stay alive until the export is done

    def walk(self, root):
        queue = [(root, ())]
        self._number(root)
        while queue:
            obj, path = queue.pop(0)
            entry = self.nodes[self.ids[id(obj)]]
            for name, child in self._children(obj):
                known = id(child) in self.ids
                number = self._number(child)
                entry.setdefault("children", []).append({"local_name": str(name),
                                                         "node_id": number})
                if not known:
                    queue.append((child, path + (str(name),)))
                    self._describe(child, path + (str(name),))

    def _children(self, obj):
        if isinstance(obj, (list, tuple)):
            return [(str(i), v) for i, v in enumerate(obj) if _is_trackable(v)]
        if isinstance(obj, dict):
            return [(str(k), v) for k, v in obj.items() if _is_trackable(v)]
        if getattr(obj, "_is_variable", False) or isinstance(obj, (Function, ConcreteFunction)):
            return []
        return trackable_children(obj)

    def _number(self, obj):
        if id(obj) not in self.ids:
            self.ids[id(obj)] = len(self.nodes)
            self.keep.append(obj)
            self.nodes.append({"kind": "user_object"})
        return self.ids[id(obj)]

    def _describe(self, obj, path):
        entry = self.nodes[self.ids[id(obj)]]
        if getattr(obj, "_is_variable", False):
            name = getattr(obj, "path", None) or obj.name
            entry.update(kind="variable", name=name if name.endswith(":0") else name + ":0",
                         dtype=obj.dtype.name, shape=list(obj.shape.dims),
                         trainable=bool(obj.trainable))
            self.variables.append(obj)
            self.variable_ids[id(obj)] = self.ids[id(obj)]
        elif isinstance(obj, Function):
            entry.update(kind="function", **self._function(obj))
        elif isinstance(obj, ConcreteFunction):
            entry.update(kind="bare_concrete_function", concrete_function=self.concrete(obj))
        elif isinstance(obj, (list, tuple, dict)):
            entry["kind"] = "dict" if isinstance(obj, dict) else \
                "tuple" if isinstance(obj, tuple) else "list"

    def _function(self, function):
        traced = []
        if hasattr(function, "concrete_functions"):  # restored from a file: its own graphs
            traced = list(function.concrete_functions)
        elif function.input_signature is not None:
            traced.append(function.get_concrete_function())
        for concrete in function._cache.values():
            if not any(c is concrete for c in traced):
                traced.append(concrete)
        signature = function.input_signature
        return {"name": function._name, "parameters": _parameters(function.python_function),
                "input_signature": None if signature is None else structures.encode(
                    tuple(signature)),
                "concrete_functions": [self.concrete(c) for c in traced]}

    def concrete(self, concrete):
        if id(concrete) not in self.concrete_ids:
            self.concrete_ids[id(concrete)] = len(self.concretes)
            self.concretes.append(concrete)
        return self.concrete_ids[id(concrete)]

    def encode_function(self, concrete):
        graph = concrete.graph
        where = f"function {graph.name!r}"
        return {"graph": graph_io.encode_graph(graph, self.variable_ids),
                "structured_input_signature": structures.encode(
                    concrete.structured_input_signature, where=where),
                "structured_outputs": structures.encode(_outputs(concrete), graph.outputs,
                                                        where)}

    def signature(self, key, concrete):
        graph = concrete.graph  # (Python arguments it was traced with are baked in)
        outputs = signature_outputs(key, concrete)
        return {"concrete_function": self.concrete(concrete),
                "inputs": [[name, t.dtype.name, _dims(t.shape)]
                           for name, t in zip(graph.input_names, graph.inputs)],
                "outputs": [[name, [i for i, o in enumerate(graph.outputs) if o is t][0],
                             t.dtype.name, _dims(t.shape)] for name, t in outputs],
                "method_name": PREDICT_METHOD}


def _dims(shape):
    return None if shape.rank is None else list(shape.dims)


def _parameters(function):
    """The positional parameters of the traced Python function (without `self`), each
    with its default where a file can hold it: a restored function binds by them."""
    try:
        params = inspect.signature(function).parameters.values()
    except (TypeError, ValueError):
        return []
    result = []
    for p in params:
        if p.kind not in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD):
            continue
        entry = {"name": p.name}
        if p.default is not p.empty:
            try:
                entry["default"] = values.encode(p.default)
            except values.Unrepresentable:
                pass
        result.append(entry)
    return result


# --- signatures ----------------------------------------------------------------------------
def _signature_functions(root, signatures):
    """{key: ConcreteFunction} as TF's `signatures` argument describes it."""
    if signatures is None and isinstance(getattr(root, "signatures", None), Mapping):
        signatures = dict(root.signatures)  # a loaded object saved again keeps its signatures
    if signatures is None:
        candidates = [f for _, f in trackable_children(root)
                      if isinstance(f, Function) and f.input_signature is not None]
        return {DEFAULT_SIGNATURE: candidates[0].get_concrete_function()} \
            if len(candidates) == 1 else {}
    if not isinstance(signatures, dict):
        signatures = {DEFAULT_SIGNATURE: signatures}
    result = {}
    for key, fn in signatures.items():
        if isinstance(fn, Function):
            if fn.input_signature is None:
                raise ValueError(
                    f"Expected a TensorFlow function for which to generate a signature (such "
                    f"as a tf.function with an input_signature), but got {fn!r} without one. "
                    "Give it an input_signature, or pass fn.get_concrete_function(spec).")
            fn = fn.get_concrete_function()
        if not isinstance(fn, ConcreteFunction):
            raise ValueError(f"Expected a TensorFlow function for which to generate a "
                             f"signature for key {key!r}, got {fn!r}.")
        result[key] = fn
    return result


def _outputs(concrete):
    """The function's results as graph tensors (a loaded signature describes its own
    with TensorSpecs and keeps the tensors aside)."""
    return getattr(concrete, "_named_outputs", concrete.structured_outputs)


def signature_outputs(key, concrete):
    """A signature's outputs as (name, tensor) pairs, as TF names them: a dict keeps its
    keys; a single tensor is "output_0"; a list or tuple gives output_0, output_1, ..."""
    outs = _outputs(concrete)
    if isinstance(outs, dict) and all(isinstance(k, str) and isinstance(v, SymbolicTensor)
                                      for k, v in outs.items()):
        pairs = list(outs.items())
    elif isinstance(outs, SymbolicTensor):
        pairs = [("output_0", outs)]
    elif isinstance(outs, (list, tuple)) and all(isinstance(v, SymbolicTensor) for v in outs):
        pairs = [(f"output_{i}", t) for i, t in enumerate(outs)]
    else:
        raise ValueError(
            f"Got a non-Tensor value {outs!r} for key 'output_0' in the output of the "
            f"function {concrete.name} used to generate the SavedModel signature {key!r}. "
            "Outputs for functions used as signatures must be a single Tensor, a sequence "
            "of Tensors, or a dictionary from string to Tensor.")
    return sorted(pairs)


# --- writing, atomically -------------------------------------------------------------------
def write_directory(export_dir, document, checkpoint):
    """Write the SavedModel into a fresh temporary directory beside `export_dir`, then
    rename it into place (an older SavedModel there is replaced only once the new one
    is complete)."""
    export_dir = os.fspath(export_dir)
    parent = os.path.dirname(os.path.abspath(export_dir))
    os.makedirs(parent, exist_ok=True)
    if os.path.exists(export_dir) and not os.path.isdir(export_dir):
        raise OSError(f"Cannot save a SavedModel to {export_dir}: a file of that name exists "
                      "(a SavedModel is a directory).")
    staging = tempfile.mkdtemp(prefix=".tmp-saved_model-", dir=parent)
    try:
        os.makedirs(os.path.join(staging, "variables"))
        os.makedirs(os.path.join(staging, "assets"))
        variables_io.write(checkpoint, staging)
        with open(os.path.join(staging, SAVED_MODEL_FILENAME), "w", encoding="utf-8") as f:
            json.dump(document, f, allow_nan=False)
        _swap_in(staging, export_dir, parent)
    except BaseException:
        shutil.rmtree(staging, ignore_errors=True)
        raise


def _swap_in(staging, export_dir, parent):
    if not os.path.exists(export_dir):
        os.replace(staging, export_dir)
        return
    old = tempfile.mkdtemp(prefix=".old-saved_model-", dir=parent)
    os.rmdir(old)
    os.replace(export_dir, old)  # the old SavedModel steps aside...
    try:
        os.replace(staging, export_dir)  # ...the complete new one takes its name
    except BaseException:
        os.replace(old, export_dir)
        raise
    shutil.rmtree(old, ignore_errors=True)
