"""`tf.saved_model.load`: rebuild objects, variables and functions from a directory.

Loading reads only data: the JSON document (every size and count checked
against limits before anything is allocated), the variable files, and op
names looked up in minitf's registry. It never imports your module or runs
code from the file, so the class that was saved need not exist:

>>> import os, tempfile
>>> import minitf as tf
>>> class Affine(tf.Module):
...     def __init__(self):
...         super().__init__()
...         self.w = tf.Variable(3.0, name="w")
...     @tf.function(input_signature=[tf.TensorSpec([None], tf.float32, name="x")])
...     def __call__(self, x):
...         return {"y": x * self.w + 1.0}
>>> path = os.path.join(tempfile.mkdtemp(), "affine")
>>> tf.saved_model.save(Affine(), path)
>>> loaded = tf.saved_model.load(path)
>>> type(loaded).__name__, loaded.w
('_UserObject', <tf.Variable 'w:0' shape=() dtype=float32, numpy=3.0>)
>>> loaded(tf.constant([1.0, 2.0]))["y"]
<tf.Tensor: shape=(2,), dtype=float32, numpy=array([4., 7.], dtype=float32)>
>>> list(loaded.signatures), loaded.signatures["serving_default"](x=tf.constant([0.0]))
(['serving_default'], {'y': <tf.Tensor: shape=(1,), dtype=float32, numpy=array([1.], dtype=float32)>})

Where minitf differs from TensorFlow: it reads minitf's `saved_model.json`,
not TF's `saved_model.pb` (the two cannot read each other's files), and
a loaded object has no `graph_debug_info` or `tensorflow_version`.
"""
import json
import os

from ..framework.tf_export import tf_export
from ..framework.variables import Variable
from . import graph_io, restored, save as save_module, structures, values, variables_io

MAX_DOCUMENT_BYTES = 1 << 30
MAX_OBJECTS = 1 << 20


@tf_export("saved_model.load")
def load(export_dir, tags=None, options=None):
    """The object saved in `export_dir` by `tf.saved_model.save` (or `model.export`)."""
    path = os.path.join(os.fspath(export_dir), save_module.SAVED_MODEL_FILENAME)
    document = read_document(export_dir)
    budget = values.Budget(path)
    objects_data = _list(document.get("object_graph"), budget, "object_graph", MAX_OBJECTS)
    if not objects_data:
        raise budget.fail("the object graph is empty")
    arrays = variables_io.read(export_dir, _wanted(objects_data, budget), budget)
    objects = [_create(entry, arrays, budget) for entry in objects_data]
    variables = [o if isinstance(o, Variable) else None for o in objects]
    concretes = [_concrete(data, variables, budget) for data in
                 _list(document.get("concrete_functions"), budget, "concrete_functions")]
    for number, entry in enumerate(objects_data):
        _finish(number, entry, objects, concretes, budget)
    for number, entry in enumerate(objects_data):
        _attach(number, entry, objects, budget)
    root = objects[0]
    if isinstance(root, restored._UserObject):
        sigs = document.get("signatures")
        if not isinstance(sigs, dict):
            raise budget.fail("signatures is not an object")
        root.signatures = restored._SignatureMap(
            {key: _signature(key, data, concretes, budget) for key, data in sigs.items()})
    return root


def read_document(export_dir):
    """The parsed saved_model.json of `export_dir`; TF's OSError if there is none."""
    export_dir = os.fspath(export_dir)
    path = os.path.join(export_dir, save_module.SAVED_MODEL_FILENAME)
    if not os.path.isfile(path):
        hint = (" It holds TensorFlow's saved_model.pb, which minitf cannot read: minitf "
                "writes and reads its own saved_model.json." if os.path.isfile(
                    os.path.join(export_dir, "saved_model.pb")) else
                " Check the path: it should be the directory tf.saved_model.save wrote.")
        raise OSError(f"SavedModel file does not exist at: {export_dir}/"
                      f"{{{save_module.SAVED_MODEL_FILENAME}}}.{hint}")
    budget = values.Budget(path)
    if os.path.getsize(path) > MAX_DOCUMENT_BYTES:
        raise budget.fail(f"the file is larger than the limit of {MAX_DOCUMENT_BYTES} bytes")
    try:
        with open(path, encoding="utf-8") as f:
            document = json.load(f)
    except (ValueError, UnicodeError) as exc:
        raise budget.fail(f"it is not valid JSON ({exc})") from None
    if not isinstance(document, dict) or document.get("format") != save_module.FORMAT:
        raise budget.fail("it is not a minitf SavedModel document")
    if document.get("version") != save_module.VERSION:
        raise budget.fail(f"format version {values._short(document.get('version'))} is not "
                          f"{save_module.VERSION}, the one this minitf reads")
    return document


def _list(value, budget, what, limit=values.MAX_ITEMS):
    if not isinstance(value, list) or len(value) > limit:
        raise budget.fail(f"{what} is not a list of at most {limit} entries")
    return value


def _wanted(objects_data, budget):
    """(checkpoint key, dtype, shape) of every variable the object graph declares."""
    wanted = []
    for entry in objects_data:
        if isinstance(entry, dict) and entry.get("kind") == "variable":
            key = entry.get("checkpoint_key")
            if not isinstance(key, str):
                raise budget.fail("a variable has no checkpoint key")
            wanted.append((key, values.decode_dtype(entry.get("dtype"), budget),
                           values.element_count(entry.get("shape"), budget)[0]))
    return wanted


def _create(entry, arrays, budget):
    """The object of one node, before its children are attached."""
    kind = entry.get("kind") if isinstance(entry, dict) else None
    if kind == "variable":
        return _variable(entry, arrays, budget)
    if kind in ("user_object", "function", "bare_concrete_function"):
        return restored._UserObject() if kind == "user_object" else None  # functions: _fill
    if kind in ("list", "tuple"):
        return restored._ListWrapper()
    if kind == "dict":
        return restored._DictWrapper()
    raise budget.fail(f"unknown object kind {values._short(kind)}")


def _variable(entry, arrays, budget):
    key, name = entry.get("checkpoint_key"), entry.get("name")
    dtype = values.decode_dtype(entry.get("dtype"), budget)
    shape, _ = values.element_count(entry.get("shape"), budget)
    if key not in arrays or not isinstance(name, str):
        raise budget.fail(f"variable {values._short(name)} has no value in variables/ "
                          f"(key {values._short(key)})")
    value = arrays[key]
    if value.shape != shape or value.dtype != dtype.as_numpy_dtype:
        raise budget.fail(f"variable {name!r} is declared {dtype.name}{list(shape)} but "
                          f"variables/ holds {value.dtype}{list(value.shape)}")
    variable = Variable(value, trainable=bool(entry.get("trainable", True)), dtype=dtype)
    variable._name = name
    return variable


def _concrete(data, variables, budget):
    if not isinstance(data, dict):
        raise budget.fail("a concrete function is not an object")
    graph = graph_io.decode_graph(data.get("graph"), variables, budget)
    signature = structures.decode(data.get("structured_input_signature"), budget)
    outputs = structures.decode(data.get("structured_outputs"), budget, graph.outputs)
    if not (isinstance(signature, tuple) and len(signature) == 2):
        raise budget.fail(f"function {graph.name!r} has a malformed input signature")
    from ..framework.function import ConcreteFunction
    return ConcreteFunction(graph, outputs, signature)


def _finish(number, entry, objects, concretes, budget):
    """Make the function objects (they need the concrete functions)."""
    kind = entry["kind"]
    if kind == "function":
        objects[number] = _function(entry, concretes, budget)
    elif kind == "bare_concrete_function":
        objects[number] = _pick(concretes, entry.get("concrete_function"), budget)


def _attach(number, entry, objects, budget):
    """Give object `number` its children, by attribute name (or list position)."""
    parent = objects[number]
    for child in _list(entry.get("children", []), budget, "children"):
        if not (isinstance(child, dict) and isinstance(child.get("local_name"), str)
                and isinstance(child.get("node_id"), int)
                and 0 < child["node_id"] < len(objects)):
            raise budget.fail(f"object {number} has a malformed child")
        value, name = objects[child["node_id"]], child["local_name"]
        if isinstance(parent, restored._ListWrapper):
            parent.append(value)
        elif isinstance(parent, restored._DictWrapper):
            parent[name] = value
        elif isinstance(parent, restored._UserObject) and name.isidentifier() and (
                not name.startswith("__") or name == "__call__") and name != "signatures":
            setattr(parent, name, value)
        else:
            raise budget.fail(f"object {number} cannot have a child named {name!r}")


def _function(entry, concretes, budget):
    name = entry.get("name")
    params = _list(entry.get("parameters"), budget, "parameters")
    if not isinstance(name, str) or not all(
            isinstance(p, dict) and isinstance(p.get("name"), str) and p["name"].isidentifier()
            for p in params):
        raise budget.fail("a function has a malformed name or parameter list")
    params = [dict(p, default=values.decode(p["default"], budget)) if "default" in p else p
              for p in params]
    signature = entry.get("input_signature")
    if signature is not None:
        signature = structures.decode(signature, budget)
        if not isinstance(signature, tuple):
            raise budget.fail(f"function {name!r} has a malformed input_signature")
    chosen = [_pick(concretes, i, budget) for i in
              _list(entry.get("concrete_functions"), budget, "concrete_functions")]
    return restored.RestoredFunction(name, params, signature, chosen)


def _pick(concretes, index, budget):
    if not isinstance(index, int) or not 0 <= index < len(concretes):
        raise budget.fail(f"{values._short(index)} does not name a saved concrete function")
    return concretes[index]


def _signature(key, data, concretes, budget):
    if not isinstance(data, dict):
        raise budget.fail(f"signature {key!r} is not an object")
    concrete = _pick(concretes, data.get("concrete_function"), budget)
    graph = concrete.graph
    inputs = _list(data.get("inputs"), budget, f"inputs of signature {key!r}")
    outputs = _list(data.get("outputs"), budget, f"outputs of signature {key!r}")
    if len(inputs) != len(graph.inputs) or not all(
            isinstance(i, list) and len(i) == 3 and isinstance(i[0], str) for i in inputs):
        raise budget.fail(f"signature {key!r} does not match its function's inputs")
    if not all(isinstance(o, list) and len(o) == 4 and isinstance(o[0], str)
               and isinstance(o[1], int) and 0 <= o[1] < len(graph.outputs) for o in outputs):
        raise budget.fail(f"signature {key!r} names outputs its function does not have")
    return restored.SignatureFunction(graph, [i[0] for i in inputs],
                                      [(o[0], graph.outputs[o[1]]) for o in outputs])
