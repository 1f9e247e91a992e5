"""A functional model as a config dict and back (Keras 3's format).

`get_config` lists every layer with the calls that built the model
("inbound_nodes"): each call's arguments, with the KerasTensors written as
`[layer name, node index, tensor index]` of the call that made them.
`from_config` makes the layers again and replays the calls in an order where
each call's inputs exist, then names the model's inputs and outputs the same way.

>>> import minitf as tf
>>> x = tf.keras.Input((3,), name="x")
>>> model = tf.keras.Model(x, tf.keras.layers.Dense(2, name="d")(x), name="m")
>>> config = model.get_config()
>>> [(layer["name"], len(layer["inbound_nodes"])) for layer in config["layers"]]
[('x', 0), ('d', 1)]
>>> config["layers"][1]["inbound_nodes"][0]["args"][0]["config"]["keras_history"]
['x', 0, 0]
>>> config["input_layers"], config["output_layers"]
([['x', 0, 0]], [['d', 0, 0]])
>>> clone = tf.keras.Model.from_config(config)
>>> [layer.name for layer in clone.layers], clone.output_shape
(['x', 'd'], (None, 2))
"""
from ...framework import nest
from ..layers.serialization import deserialize, serialize
from .keras_tensor import KerasTensor

KERAS_TENSOR = "__keras_tensor__"


def get_config(model):
    """The Keras 3 config of a functional `model`."""
    own = {id(node) for nodes in model._nodes_by_depth.values() for node in nodes}
    # node indices count only the nodes of this model (a shared layer may have others)
    reindexed = {}
    for layer in model._operations:
        kept = 0
        for index, node in enumerate(layer._inbound_nodes):
            if id(node) in own:
                reindexed[(id(layer), index)] = kept
                kept += 1

    def history(tensor):
        layer, node_index, tensor_index = tensor._keras_history
        return [layer.name, reindexed[(id(layer), node_index)], tensor_index]

    def argument(value):
        if isinstance(value, KerasTensor):
            return {"class_name": KERAS_TENSOR,
                    "config": {"shape": list(value.shape), "dtype": value.dtype.name,
                               "keras_history": history(value)}}
        return value

    layers = []
    for layer in model._operations:
        entry = serialize(layer)
        entry["name"] = layer.name
        entry["inbound_nodes"] = [
            {"args": _lists(nest.map_structure(argument, list(node.arguments[0]))),
             "kwargs": _lists(nest.map_structure(argument, dict(node.arguments[1])))}
            for node in layer._inbound_nodes if id(node) in own and not node.is_input]
        layers.append(entry)

    def tensors(structure):
        if isinstance(structure, KerasTensor):
            return [history(structure)]
        return _lists(nest.map_structure(history, structure))

    return {"name": model.name, "trainable": model.trainable, "layers": layers,
            "input_layers": tensors(model._inputs_struct),
            "output_layers": tensors(model._outputs_struct)}


def from_config(cls, config, custom_objects=None):
    """A `cls` (Functional or a subclass) rebuilt from `get_config`'s dict."""
    config = dict(config)
    layer_entries = config.pop("layers")
    input_layers, output_layers = config.pop("input_layers"), config.pop("output_layers")
    name, trainable = config.pop("name", None), config.pop("trainable", True)
    created, pending = {}, {}
    for entry in layer_entries:
        layer = deserialize(entry, custom_objects)
        created[entry["name"]] = layer
        pending[entry["name"]] = list(entry.get("inbound_nodes", []))

    def tensor(layer_name, node_index, tensor_index):
        if layer_name not in created:
            raise ValueError(f"Unknown layer: '{layer_name}' (named in the config's "
                             "keras_history but not among its layers).")
        nodes = created[layer_name]._inbound_nodes
        if node_index >= len(nodes):
            raise IndexError(layer_name)  # not called yet: try again after other layers
        return nodes[node_index].output_tensors[tensor_index]

    def revive(value):
        if isinstance(value, dict) and value.get("class_name") == KERAS_TENSOR:
            return tensor(*value["config"]["keras_history"])
        if isinstance(value, dict):
            return {k: revive(v) for k, v in value.items()}
        if isinstance(value, list):
            return [revive(v) for v in value]
        return value

    while any(pending.values()):
        progress = False
        for entry in layer_entries:
            calls = pending[entry["name"]]
            while calls:
                try:
                    args, kwargs = revive(calls[0]["args"]), revive(calls[0]["kwargs"])
                except IndexError:
                    break  # an input of this call is made by a call not replayed yet
                created[entry["name"]](*args, **kwargs)
                calls.pop(0)
                progress = True
        if not progress:
            stuck = [n for n, calls in pending.items() if calls]
            raise ValueError(f"The config's layer calls cannot be replayed: the inputs of "
                             f"{stuck} are never made. Is the config complete?")

    def tensors(structure):
        if isinstance(structure, list) and len(structure) == 3 and isinstance(structure[0], str):
            return tensor(*structure)
        if isinstance(structure, dict):
            return {k: tensors(v) for k, v in structure.items()}
        return [tensors(v) for v in structure]

    inputs, outputs = tensors(input_layers), tensors(output_layers)
    if isinstance(inputs, list) and len(inputs) == 1:
        inputs = inputs[0]
    if isinstance(outputs, list) and len(outputs) == 1:
        outputs = outputs[0]
    return cls(inputs=inputs, outputs=outputs, name=name, trainable=trainable, **config)


def _lists(structure):
    """Tuples as lists, as JSON writes them (so a config equals its JSON round trip)."""
    if isinstance(structure, (list, tuple)):
        return [_lists(v) for v in structure]
    if isinstance(structure, dict):
        return {k: _lists(v) for k, v in structure.items()}
    return structure
