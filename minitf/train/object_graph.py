"""The object graph a checkpoint saves: who holds which variable, under what name.

A checkpoint does not save "the list of variables". It saves a graph: the
root (`tf.train.Checkpoint(model=m, optimizer=opt)`) has named children,
they have children, and the leaves are variables. Each variable's key is the
path of names that first reaches it in a breadth-first walk from the root:

>>> import minitf as tf
>>> m = tf.Module()
>>> m.layers = [tf.Module(), tf.Module()]
>>> m.layers[1].w = tf.Variable(1.0)
>>> m.shared = m.layers[1].w                   # the same variable, reachable twice
>>> graph = build_graph(tf.train.Checkpoint(model=m))
>>> [key for key, variable in graph.variables()]
['model/shared/.ATTRIBUTES/VARIABLE_VALUE']

`model/shared` (depth 2) wins over `model/layers/1/w` (depth 4): a shared
variable is saved once, under its shortest path, as in TensorFlow (a
written checkpoint also holds `save_counter`, made on first `write`). Children
come in the order they were assigned (a dict keeps assignment order), lists
and tuples are children named "0", "1", ..., dicts by their keys.

Keras objects name their children as Keras 3 does on the TF backend, so the
keys match real TF's: a Sequential holds `_functional`, whose `_operations`
list starts with the InputLayer; Dense and Conv keep their kernel as
`_kernel`, Embedding as `_embeddings`; an RNN's cell is `cell`; MultiHeadAttention's
weights sit under Keras 3's EinsumDense sublayers (`_query_dense/_kernel`, ...),
which minitf does not have as objects (nodes stand in for them).

Where minitf differs: TF 2.21 + Keras 3.15 leave layers that a Keras layer
holds in a list or dict attribute (`self.blocks = [Block(), Block()]`) out of
the checkpoint, silently; minitf saves them, under the keys a tf.Module's list
gets (`model/blocks/0/...`). Nothing a TF checkpoint holds is missing.

In TensorFlow this is `tensorflow/python/checkpoint/graph_view.py` and
`util.py` (`_breadth_first_traversal`, `_escape_local_name`).
"""
import collections

from ..framework.variables import Variable

VARIABLE_VALUE = "VARIABLE_VALUE"
OBJECT_GRAPH_KEY = "_CHECKPOINTABLE_OBJECT_GRAPH"

# Bookkeeping attributes of minitf's Keras classes that Keras 3 does not track
# (they hold layers or variables that are reached by their real names).
_KERAS_IGNORED = frozenset((
    "_layers", "_trainable_variables", "_non_trainable_variables", "_regularizers",
    "_inbound_nodes", "_outbound_nodes", "_losses", "_nodes_by_depth", "inputs", "outputs",
    "_inputs_struct", "_outputs_struct", "input_spec", "_build_shapes_dict"))
_OPTIMIZER_IGNORED = frozenset(("_index", "_slots"))  # minitf's lookup tables
# Keras 3 layers that keep their main weight under a private name (LoRA support).
_KERAS_RENAMED = {"Dense": {"kernel": "_kernel"}, "EinsumDense": {"kernel": "_kernel"},
                  "Embedding": {"embeddings": "_embeddings"},
                  "Conv1D": {"kernel": "_kernel"}, "Conv2D": {"kernel": "_kernel"},
                  "Conv3D": {"kernel": "_kernel"}, "RNN": {"_cell_ref": "cell"}}
# Keras 3 layers whose weights live in sublayers minitf does not have: attribute ->
# (sublayer name, weight name). MultiHeadAttention keeps four EinsumDense layers.
_KERAS_GROUPED = {"MultiHeadAttention": {
    f"{part}_{weight}": (f"_{part}_dense", "_kernel" if weight == "kernel" else "bias")
    for part in ("query", "key", "value", "output") for weight in ("kernel", "bias")}}


def is_variable(obj):
    return isinstance(obj, Variable)


def is_trackable(obj):
    """Can `obj` be a node of a checkpoint's graph (a variable, module, optimizer...)?"""
    from ..keras.optimizers.optimizer import Optimizer
    from ..module import Module

    return (is_variable(obj) or isinstance(obj, (Module, Optimizer))
            or hasattr(obj, "_checkpoint_children") or saves_tensors(obj))


def saves_tensors(obj):
    """Does `obj` save named tensors of its own (a MutableHashTable: `table-keys`, ...)?"""
    return bool(getattr(obj, "_saves_tensors", False))


def _holds_trackable(value, depth=0):
    if is_trackable(value):
        return True
    if depth < 50 and isinstance(value, (list, tuple)):
        return any(_holds_trackable(v, depth + 1) for v in value)
    if depth < 50 and isinstance(value, dict):
        return any(_holds_trackable(v, depth + 1) for v in value.values())
    return False


def children(obj):
    """[(local name, child)] of one node, in TensorFlow's order."""
    if is_variable(obj):
        return []
    if isinstance(obj, (list, tuple)):
        return [(str(i), v) for i, v in enumerate(obj) if _holds_trackable(v)]
    if isinstance(obj, dict):
        pairs = [(k, v) for k, v in obj.items() if _holds_trackable(v)]
        if any(not isinstance(k, str) for k, _ in pairs):
            raise ValueError(
                f"Unable to save the object {obj!r} (a dictionary wrapper constructed "
                "automatically on attribute assignment). The wrapped dictionary contains a "
                "non-string key which maps to a trackable object or mutable data structure."
                "\n\nIf you don't need this dictionary checkpointed, wrap it in a "
                "non-trackable object; it will be subsequently ignored. (A checkpoint key "
                "is text: use string keys.)")
        return pairs
    if hasattr(obj, "_checkpoint_children"):  # tf.train.Checkpoint and helper nodes
        return list(obj._checkpoint_children())
    return _attribute_children(obj)


def _attribute_children(obj):
    from ..keras.engine.base_layer import Layer
    from ..keras.optimizers.optimizer import Optimizer
    from ..module import Module

    ignored = getattr(obj, "_TF_MODULE_IGNORED_PROPERTIES", frozenset())
    renamed, grouped = {}, {}
    if isinstance(obj, Layer):
        ignored = ignored | _KERAS_IGNORED
        renamed = _keras_table(obj, _KERAS_RENAMED)
        grouped = _keras_table(obj, _KERAS_GROUPED)
    elif isinstance(obj, Optimizer):
        ignored = ignored | _OPTIMIZER_IGNORED
    elif not isinstance(obj, Module):
        return []
    result, views = [], {}
    for name, value in vars(obj).items():
        if name in ignored or name.startswith("__") or not _holds_trackable(value):
            continue
        if name == "_functional" and isinstance(obj, Layer):
            value = _FunctionalView(value)  # Keras 3: Sequential -> _functional -> _operations
        if name in grouped:
            sublayer, weight = grouped[name]
            if sublayer not in views:
                views[sublayer] = _View()
                result.append((sublayer, views[sublayer]))
            views[sublayer].children.append((weight, value))
            continue
        result.append((renamed.get(name, name), value))
    return result


def _keras_table(layer, table):
    """The entry of `table` for the first minitf Keras class `layer` is an instance of."""
    for cls in type(layer).__mro__:
        if cls.__module__.startswith("minitf.") and cls.__name__ in table:
            return table[cls.__name__]
    return {}


class _View:
    """A node Keras 3 has and minitf does not (an EinsumDense of MultiHeadAttention)."""

    _checkpoint_owner = False  # made afresh on each walk: restores wait on the real layer

    def __init__(self):
        self.children = []

    def _checkpoint_children(self):
        return list(self.children)


class _FunctionalView:
    """The `_functional` child of a Keras Sequential: its `_operations` are the model's
    layers, InputLayer first (minitf's Functional keeps them the same way)."""

    _checkpoint_owner = False  # made afresh on each walk: restores wait on the Sequential

    def __init__(self, functional):
        self.functional = functional

    def _checkpoint_children(self):
        return [("_operations", list(self.functional._operations))]


def escape(name):
    """TF's escaping of a local name inside a key: '.' -> '..', '/' -> '.S'."""
    return name.replace(".", "..").replace("/", ".S")


class ObjectGraph:
    """The nodes of a breadth-first walk: `objects[i]`, `paths[i]` (local names from the
    root) and `children[i]` ([(name, node id)])."""

    def __init__(self, root):
        self.objects, self.paths, self.children = [], [], []
        ids = {}

        def node_id(obj, path):
            key = id(obj)
            if key not in ids:
                ids[key] = len(self.objects)
                self.objects.append(obj)
                self.paths.append(path)
                self.children.append([])
            return ids[key]

        node_id(root, ())
        queue = collections.deque([0])
        while queue:
            i = queue.popleft()
            for name, child in children(self.objects[i]):
                seen = id(child) in ids
                j = node_id(child, self.paths[i] + (name,))
                self.children[i].append((name, j))
                if not seen:
                    queue.append(j)

    def key(self, i):
        """The checkpoint key of node `i`'s value: 'model/dense/kernel/.ATTRIBUTES/...'."""
        return "/".join(escape(n) for n in self.paths[i]) + "/.ATTRIBUTES/" + VARIABLE_VALUE

    def variables(self):
        """[(checkpoint key, variable)] in node order."""
        return [(self.key(i), obj) for i, obj in enumerate(self.objects) if is_variable(obj)]

    def attribute_key(self, i, name):
        return "/".join(escape(n) for n in self.paths[i]) + "/.ATTRIBUTES/" + name

    def saved_tensors(self):
        """[(checkpoint key, array)] of the objects that save tensors of their own."""
        return [(self.attribute_key(i, name), value) for i, obj in enumerate(self.objects)
                if saves_tensors(obj) for name, value in obj._checkpoint_tensors().items()]

    def to_json(self):
        """The graph as the index file stores it (TF's TrackableObjectGraph, as JSON)."""
        nodes = []
        for i, obj in enumerate(self.objects):
            node = {"children": [{"local_name": n, "node_id": j} for n, j in self.children[i]],
                    "attributes": []}
            if is_variable(obj):
                node["attributes"].append({"name": VARIABLE_VALUE, "checkpoint_key": self.key(i),
                                           "full_name": getattr(obj, "path", obj.name)})
            elif saves_tensors(obj):
                node["attributes"].extend({"name": name, "checkpoint_key": self.attribute_key(
                    i, name), "full_name": ""} for name in obj._checkpoint_tensors())
            nodes.append(node)
        return {"nodes": nodes}


def build_graph(root):
    return ObjectGraph(root)
