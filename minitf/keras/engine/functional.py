"""Functional models: `tf.keras.Model(inputs, outputs)`, a graph of layer calls.

Building the model walks back from `outputs` through each KerasTensor's
history to the `Input`s, and sorts the layer calls (nodes) by depth - the
longest distance to an output. Calling the model runs the nodes from the
deepest to depth 0, feeding each node the tensors its inputs stand for:

>>> import minitf as tf
>>> a = tf.keras.Input((2,), name="a")
>>> b = tf.keras.Input((2,), name="b")
>>> s = tf.keras.layers.Add()([a, b])
>>> model = tf.keras.Model([a, b], [s, tf.keras.layers.Dense(1, name="head")(s)])
>>> [layer.name for layer in model.layers]
['a', 'b', 'add...', 'head']
>>> total, _ = model([tf.ones([1, 2]), tf.ones([1, 2])])
>>> total.numpy()
array([[2., 2.]], dtype=float32)

In Keras 3 this is `keras/src/models/functional.py` and `ops/function.py`
(`map_graph` there is `_map_graph` here, in the same order).
"""
import collections

from ...framework import nest
from .. import backend
from . import functional_config
from .call_context import training_argument
from ..utils.naming import to_snake_case
from .input_spec import InputSpec
from .keras_tensor import KerasTensor
from .training import Model


class Functional(Model):
    """A model defined by its input and output KerasTensors."""

    def __init__(self, inputs, outputs, name=None, trainable=True, **kwargs):
        for x in nest.flatten(inputs) + nest.flatten(outputs):
            if not isinstance(x, KerasTensor):
                raise ValueError("All `inputs` and `outputs` values must be KerasTensors. "
                                 f"Received: inputs={inputs}, outputs={outputs} including "
                                 f"invalid value {x} of type {type(x)}. Make inputs with "
                                 "tf.keras.Input(...) and outputs by calling layers on them.")
        # "functional", or the subclass's own name for `CustomModel(inputs, outputs)`.
        name = name or backend._unique_name(to_snake_case(type(self).__name__))
        super().__init__(name=name, trainable=trainable, **kwargs)
        self._inputs_struct = inputs
        self._outputs_struct = outputs
        self.inputs = nest.flatten(inputs)
        self.outputs = nest.flatten(outputs)
        nodes_by_depth, operations = _map_graph(self.inputs, self.outputs)
        self._nodes_by_depth = nodes_by_depth
        self._operations = operations  # tracked by Layer.__setattr__: these are `layers`
        self.input_spec = [InputSpec(shape=(None,) + tuple(x.shape[1:]),
                                     allow_last_axis_squeeze=True,
                                     name=x._keras_history.operation.name)
                           for x in self.inputs]
        self.built = True

    @property
    def input_shape(self):
        shapes = [x.shape for x in self.inputs]
        return shapes[0] if len(shapes) == 1 else shapes

    @property
    def output_shape(self):
        shapes = [x.shape for x in self.outputs]
        return shapes[0] if len(shapes) == 1 else shapes

    def _flat_inputs(self, inputs):
        if isinstance(inputs, dict):
            names = [x._keras_history.operation.name for x in self.inputs]
            missing = [n for n in names if n not in inputs]
            if missing:
                raise ValueError(f'Missing data for input "{missing[0]}". You passed a data '
                                 f"dictionary with keys {list(inputs)}. Expected the "
                                 f"following keys: {names}")
            return [inputs[n] for n in names]
        return nest.flatten(inputs)

    def __call__(self, *args, **kwargs):
        if args and isinstance(args[0], dict):  # by input name: order them for input_spec
            args = (self._flat_inputs(args[0]),) + args[1:]
        return super().__call__(*args, **kwargs)

    def call(self, inputs, training=None, mask=None):
        """Run the layer calls, deepest first, on real tensors."""
        flat = _adjust_input_rank(self.inputs, self._flat_inputs(inputs))
        values = {id(x): value for x, value in zip(self.inputs, flat)}
        for depth in sorted(self._nodes_by_depth, reverse=True):
            for node in self._nodes_by_depth[depth]:
                if node.is_input or not all(id(x) in values for x in node.input_tensors):
                    continue
                args, kwargs = nest.map_structure(
                    lambda x: values[id(x)] if isinstance(x, KerasTensor) else x,
                    node.arguments)
                if training is not None and training_argument(node.operation.call)[0]:
                    kwargs = {**kwargs, "training": training}   # the model's flag wins, as
                outputs = node.operation(*args, **kwargs)        # in Keras 3 (predict: False)
                values.update(zip(map(id, node.output_tensors), nest.flatten(outputs)))
        return nest.map_structure(lambda x: values[id(x)], self._outputs_struct)

    def get_config(self):
        """Keras 3's functional config: the layers, the calls between them, the inputs
        and outputs (see `functional_config.py`)."""
        return functional_config.get_config(self)

    @classmethod
    def from_config(cls, config, custom_objects=None):
        """The model `get_config` describes, with new weights."""
        return functional_config.from_config(cls, config, custom_objects)


def _adjust_input_rank(keras_inputs, values):
    """Keras's one forgiven mismatch: a trailing axis of size 1 too many or too few
    (labels-like data of shape (n, 3, 1) for an Input((3,)), or (n,) for Input((1,)))."""
    from ...ops.array_ops import expand_dims, squeeze
    adjusted = []
    for reference, x in zip(keras_inputs, values):
        rank, expected = len(x.shape), len(reference.shape)
        if rank == expected + 1 and x.shape[-1] == 1:
            x = squeeze(x, axis=-1)
        elif rank == expected - 1 and reference.shape[-1] == 1:
            x = expand_dims(x, axis=-1)
        elif rank != expected:
            raise ValueError(f"Invalid input shape for input {x} with name "
                             f"'{reference._keras_history.operation.name}'. Expected shape "
                             f"{reference.shape}, but input has incompatible shape "
                             f"{tuple(x.shape)}. Only a trailing axis of size 1 may be "
                             "added or left out.")
        adjusted.append(x)
    return adjusted


def _map_graph(inputs, outputs):
    """(nodes by depth, layers in Keras's order) for the graph between inputs and outputs."""
    nodes, operation_indices = _nodes_in_decreasing_depth(inputs, outputs)
    node_depths, operation_depths = {}, {}
    for node in reversed(nodes):
        depth = max(node_depths.setdefault(node, 0), operation_depths.get(node.operation, 0))
        operation_depths[node.operation] = depth
        node_depths[node] = depth
        for parent in node.parent_nodes:
            node_depths[parent] = max(depth + 1, node_depths.get(parent, 0))
    for x in inputs:  # an input nothing reads still belongs to the model
        operation = x._keras_history.operation
        if operation not in operation_depths:
            operation_depths[operation] = 0
            operation_indices[operation] = -1
            node_depths[operation._inbound_nodes[0]] = 0
    nodes_by_depth = collections.defaultdict(list)
    for node, depth in node_depths.items():
        nodes_by_depth[depth].append(node)
    operations_by_depth = collections.defaultdict(list)
    for operation, depth in operation_depths.items():
        operations_by_depth[depth].append(operation)
    operations = []
    for depth in sorted(operations_by_depth, reverse=True):
        operations.extend(sorted(operations_by_depth[depth], key=lambda op: operation_indices[op]))
    _check_connected(inputs, nodes_by_depth)
    return dict(nodes_by_depth), operations


def _nodes_in_decreasing_depth(inputs, outputs):
    """Depth-first walk from each output back to the inputs (Keras's `_build_map`)."""
    finished, in_progress, ordered, operation_indices = set(), set(), [], {}
    input_ids = {id(x) for x in inputs}

    def visit(tensor):
        operation, node_index, _ = tensor._keras_history
        node = operation._inbound_nodes[node_index]
        if node in finished:
            return
        if node in in_progress:
            raise ValueError(f"Tensor {tensor} from operation '{operation.name}' is part of "
                             "a cycle.")
        operation_indices.setdefault(operation, len(operation_indices))
        in_progress.add(node)
        if not node.is_input and id(tensor) not in input_ids:
            for x in node.input_tensors:
                visit(x)
        finished.add(node)
        in_progress.remove(node)
        ordered.append(node)

    for output in outputs:
        visit(output)
    return ordered, operation_indices


def _check_connected(inputs, nodes_by_depth):
    computable = {id(x) for x in inputs}
    done = []
    for depth in sorted(nodes_by_depth, reverse=True):
        for node in nodes_by_depth[depth]:
            if node.is_input and not all(id(x) in computable for x in node.output_tensors):
                tensor = node.output_tensors[0]
                raise ValueError(
                    f"Graph disconnected: cannot find parent for tensor {tensor} at layer "
                    f"'{node.operation.name}'. The following previous layers were accessed "
                    f"without issue: {done}. Every tf.keras.Input the outputs depend on must "
                    "be listed in `inputs`.")
            computable.update(id(x) for x in node.output_tensors)
            done.append(node.operation.name)
