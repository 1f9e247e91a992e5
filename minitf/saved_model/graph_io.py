"""A traced graph as JSON, and back: the heart of a SavedModel.

A minitf graph is a flat list of nodes (`minitf/framework/graph.py`), so its
file form is a list too. Each node names its op, its inputs as
`[node number, output number]` of an earlier node, its attributes (plain
JSON, see `values.py`) and the dtype and shape of each output:

>>> import minitf as tf
>>> from minitf.saved_model import graph_io
>>> graph = tf.function(lambda x: x * 2.0).get_concrete_function(
...     tf.TensorSpec([None], tf.float32)).graph
>>> for node in graph_io.encode_graph(graph, variable_ids={})["nodes"]:
...     print(node["name"], node["op"], node["inputs"], node["outputs"])
x Placeholder [] [['float32', [None]]]
Const Const [] [['float32', []]]
Mul Mul [[0, 0], [1, 0]] [['float32', [None]]]

A node that reads a variable refers to it by its number in the SavedModel's
object graph (`{"variable": 3}`), so a loaded graph reads the *restored*
variable. Control flow keeps its branches and loop bodies as sub-graphs,
written inside their node. In TensorFlow the same information is a
`GraphDef` of `NodeDef`s inside `saved_model.pb` (a protobuf); the JSON here is
minitf's own and says the same things.
"""
from ..framework.graph import AssignVariable, Graph, Placeholder, ReadVariable
from ..framework.tensor_shape import TensorShape
from . import registry, values

_ASSIGN_METHODS = ("assign", "assign_add", "assign_sub")


# --- saving --------------------------------------------------------------------------------
def encode_graph(graph, variable_ids, parent_slots=None):
    """`graph` as JSON data; `variable_ids` maps id(variable) to its object-graph number
    (a variable missing there is an error: it would not be restored)."""
    slots = {}  # id(SymbolicTensor) -> [node number, output number]
    for n, node in enumerate(graph.nodes):
        for i, t in enumerate(node.outputs):
            slots[id(t)] = [n, i]
    nodes = []
    for node in graph.nodes:
        name, variant = registry.describe(node.op)
        entry = {"name": node.name, "op": name}
        if variant:
            entry["variant"] = variant
        entry["inputs"] = [_slot(slots, t, graph, node) for t in node.inputs]
        entry["attrs"] = {k: _encode_attr(v, f"attribute {k!r} of node {node.name!r}",
                                          variable_ids, slots)
                          for k, v in node.attrs.items()}
        entry["outputs"] = [[t.dtype.name, _dims(t.shape)] for t in node.outputs]
        nodes.append(entry)
    data = {"name": graph.name, "nodes": nodes,
            "inputs": [slots[id(t)][0] for t in graph.inputs],
            "outputs": [_slot(slots, t, graph, None) for t in graph.outputs],
            "variables": [_variable_id(v, variable_ids, graph.name)
                          for v in graph.captured_variables]}
    # Which outer tensor each capture placeholder stands for is bookkeeping of the trace
    # (the control-flow node's inputs carry the values), kept when it names a tensor of
    # the enclosing graph. A loaded graph that was traced again shares its sub-graphs
    # with the loaded one, whose captures name tensors of the old graph: those are left out.
    captures = [[parent_slots[id(outer)], slots[id(inner)][0]] for outer, inner
                in graph.captures if parent_slots and id(outer) in parent_slots]
    if captures:
        data["captures"] = captures
    return data


def _slot(slots, tensor, graph, node):
    found = slots.get(id(tensor))
    if found is None:
        where = f"node {node.name!r}" if node else "its outputs"
        raise ValueError(f"Cannot save graph {graph.name!r}: {where} uses {tensor!r}, which "
                         "is not a tensor of this graph.")
    return found


def _dims(shape):
    return None if shape.rank is None else list(shape.dims)


def _variable_id(variable, variable_ids, where):
    found = variable_ids.get(id(variable))
    if found is None:
        raise AssertionError(
            f"Tried to export a function which references an 'untracked' resource. "
            f"TensorFlow objects (e.g. tf.Variable) captured by functions must be 'tracked' "
            f"by assigning them to an attribute of a tracked object or assigned to an "
            f"attribute of the main object directly. (Function {where!r} reads "
            f"{variable.name!r}, which is not an attribute of anything being saved.)")
    return found


def _encode_attr(value, where, variable_ids, slots):
    if isinstance(value, Graph):
        return {"graph": encode_graph(value, variable_ids, slots)}
    if getattr(value, "_is_variable", False):
        return {"variable": _variable_id(value, variable_ids, where)}
    if isinstance(value, (list, tuple)) and any(
            isinstance(v, Graph) or getattr(v, "_is_variable", False) for v in value):
        items = [_encode_attr(v, where, variable_ids, slots) for v in value]
        return {"tuple" if isinstance(value, tuple) else "list": items}
    try:
        return values.encode(value, where)
    except values.Unrepresentable as exc:
        raise ValueError(f"Cannot save this graph: {exc}.") from None


# --- loading -------------------------------------------------------------------------------
def decode_graph(data, variables, budget, parent=None, depth=0):
    """A `Graph` from JSON data; `variables` is the list of restored objects by number."""
    fail = budget.fail
    if depth > values.MAX_DEPTH:
        raise fail("sub-graphs nest too deeply")
    if not isinstance(data, dict) or not isinstance(data.get("nodes"), list):
        raise fail("a graph entry has no node list")
    budget.take_nodes(len(data["nodes"]))
    graph = Graph(str(data.get("name", "graph")))
    tensors = []  # per node, its outputs
    for n, entry in enumerate(data["nodes"]):
        if not isinstance(entry, dict):
            raise fail(f"node {n} of graph {graph.name!r} is not an object")
        tensors.append(_decode_node(graph, entry, tensors, variables, budget, parent, depth))
    inputs = data.get("inputs")
    if not isinstance(inputs, list) or not all(
            isinstance(i, int) and 0 <= i < len(graph.nodes) and
            graph.nodes[i].op is Placeholder for i in inputs):
        raise fail(f"graph {graph.name!r} lists inputs that are not its placeholders")
    graph.inputs = [tensors[i][0] for i in inputs]
    graph.input_names = [graph.nodes[i].name for i in inputs]
    graph.outputs = [_tensor(ref, tensors, budget, graph.name) for ref in
                     _list(data.get("outputs"), budget, "outputs")]
    graph.captured_variables = [_variable(i, variables, budget) for i in
                                _list(data.get("variables"), budget, "variables")]
    for ref, inner in _list(data.get("captures", []), budget, "captures"):
        if parent is None or not isinstance(inner, int) or inner not in inputs:
            raise fail(f"graph {graph.name!r} has a malformed capture")
        graph.captures.append((_tensor(ref, parent, budget, "the enclosing graph"),
                               tensors[inner][0]))
    return graph


def _decode_node(graph, entry, tensors, variables, budget, parent, depth):
    fail = budget.fail
    name = entry.get("name")
    if not isinstance(name, str) or not name:
        raise fail("a node has no name")
    op = registry.lookup(entry.get("op"), entry.get("variant"), budget.filename)
    inputs = [_tensor(ref, tensors, budget, graph.name)
              for ref in _list(entry.get("inputs"), budget, f"inputs of {name!r}")]
    attrs = entry.get("attrs")
    if not isinstance(attrs, dict):
        raise fail(f"node {name!r} has no attribute object")
    attrs = {k: _decode_attr(v, variables, budget, tensors, depth) for k, v in attrs.items()}
    outputs = _list(entry.get("outputs"), budget, f"outputs of {name!r}")
    if not all(isinstance(o, list) and len(o) == 2 for o in outputs):
        raise fail(f"node {name!r} has malformed outputs")
    dtypes_ = [values.decode_dtype(d, budget) for d, _ in outputs]
    shapes = [values.decode_shape(s, budget) for _, s in outputs]
    _check_node(op, name, inputs, attrs, outputs, budget)
    if op is Placeholder:
        return (graph.placeholder(shapes[0], dtypes_[0], name),)
    _check_rules(op, name, inputs, attrs, shapes, dtypes_, budget)
    node = graph._add(op, inputs, attrs, shapes, dtypes_, name=name)
    node.source = None
    return node.outputs


def _check_node(op, name, inputs, attrs, outputs, budget):
    """What every node of its kind must have (the executor trusts these)."""
    fail = budget.fail
    if op.num_outputs is not None and len(outputs) != op.num_outputs:
        raise fail(f"node {name!r} ({op.name}) declares {len(outputs)} outputs, not "
                   f"{op.num_outputs}")
    if op is Placeholder and (inputs or attrs):
        raise fail(f"placeholder {name!r} has inputs or attributes")
    if op is ReadVariable or op is AssignVariable:
        variable = attrs.get("variable")
        if not getattr(variable, "_is_variable", False):
            raise fail(f"node {name!r} ({op.name}) does not name a variable")
        if op is AssignVariable and (attrs.get("method") not in _ASSIGN_METHODS
                                     or len(inputs) != 1):
            raise fail(f"node {name!r} is a malformed assignment")
        if op is ReadVariable and set(attrs) != {"variable"}:
            raise fail(f"node {name!r} has unexpected attributes")
    if op.name == "Const":
        value = attrs.get("value")
        if set(attrs) != {"value"} or not hasattr(value, "dtype") or inputs:
            raise fail(f"constant {name!r} has no array value")


def _check_rules(op, name, inputs, attrs, shapes, dtypes_, budget):
    """The op's own shape and dtype rules, applied to the node as the file gives it, must
    give the outputs the file declares (as they did while tracing): a changed attribute
    cannot make a node compute something other than what its graph says. Outputs of a
    known size must also be within the limits (they are allocated when the graph runs)."""
    try:
        rule = op.shape(*[t.shape for t in inputs], **attrs) if op.shape else TensorShape(None)
        rule = rule if isinstance(rule, tuple) else (rule,)
        rule_dtypes = op.output_dtypes([t.dtype for t in inputs], attrs, len(rule))
    except Exception as exc:  # noqa: BLE001 - any rule's failure on a changed file is reported
        raise budget.fail(f"node {name!r} ({op.name}) does not fit its op "
                          f"({type(exc).__name__}: {exc})") from None
    if [_dims(s) for s in rule] != [_dims(s) for s in shapes] or \
            any(a is not b for a, b in zip(rule_dtypes, dtypes_)):
        declared = [(d.name, _dims(s)) for d, s in zip(dtypes_, shapes)]
        computed = [(d.name, _dims(s)) for d, s in zip(rule_dtypes, rule)]
        raise budget.fail(f"node {name!r} ({op.name}) declares outputs {declared}, but its "
                          f"inputs and attributes give {computed}")
    for shape in shapes:
        if shape.rank is not None and all(d is not None for d in shape.dims):
            values.element_count(list(shape.dims), budget)


def _decode_attr(data, variables, budget, tensors, depth):
    if isinstance(data, dict) and len(data) == 1:
        (tag, body), = data.items()
        if tag == "graph":
            return decode_graph(body, variables, budget, parent=tensors, depth=depth + 1)
        if tag == "variable":
            return _variable(body, variables, budget)
        if tag in ("tuple", "list") and isinstance(body, list) and any(
                isinstance(v, dict) and ("graph" in v or "variable" in v) for v in body):
            items = [_decode_attr(v, variables, budget, tensors, depth) for v in body]
            return tuple(items) if tag == "tuple" else items
    return values.decode(data, budget)


def _list(value, budget, what):
    if not isinstance(value, list) or len(value) > values.MAX_ITEMS:
        raise budget.fail(f"{what} is not a list")
    return value


def _tensor(ref, tensors, budget, where):
    if not (isinstance(ref, list) and len(ref) == 2 and all(
            isinstance(i, int) and not isinstance(i, bool) for i in ref)
            and 0 <= ref[0] < len(tensors) and 0 <= ref[1] < len(tensors[ref[0]])):
        raise budget.fail(f"a tensor reference {values._short(ref)} in {where!r} does not "
                          "name an output of an earlier node")
    return tensors[ref[0]][ref[1]]


def _variable(index, variables, budget):
    if not (isinstance(index, int) and 0 <= index < len(variables)
            and getattr(variables[index], "_is_variable", False)):
        raise budget.fail(f"{values._short(index)} does not name a variable of the object "
                          "graph")
    return variables[index]

