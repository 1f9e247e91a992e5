"""`keras.Operation` and `keras.Function`: Keras 3's symbolic building blocks.

An `Operation` is anything that can be called on tensors *or* on symbolic
`KerasTensor`s: with real tensors `__call__` runs `call`; with KerasTensors it
runs `symbolic_call`, which only works out the output's shape and dtype
(`compute_output_spec`) and records the call as a `Node` in the graph. Every
Keras Layer is an Operation (in minitf `isinstance(layer, keras.Operation)` is
True too). A `Function` is the graph between some input KerasTensors and
some output KerasTensors, callable on new values; a functional Model is a
Function with weights.

>>> import minitf as tf
>>> class Square(tf.keras.Operation):
...     def call(self, x):
...         return x * x
>>> x = tf.keras.Input((2,), name="x")
>>> y = tf.keras.layers.Dense(1, kernel_initializer="ones")(Square()(x))
>>> y.shape
(None, 1)
>>> fn = tf.keras.Function(x, y, name="square_sum")
>>> fn(tf.constant([[1.0, 2.0]])).numpy()
array([[5.]], dtype=float32)
>>> [op.name for op in fn.operations][-1].startswith("dense")
True

Keras (keras/src/ops/operation.py, keras/src/ops/function.py).
"""
import abc

from ..framework import nest
from ..framework.tf_export import tf_export
from . import backend
from .engine import keras_tensor
from .engine.base_layer import Layer, trace_output_spec
from .engine.functional import _map_graph
from .scopes import get_current_remat_mode, rematerialized_call
from .utils.naming import to_snake_case


@tf_export("keras.Operation")
class Operation(metaclass=abc.ABCMeta):
    """A computation on tensors that can also be called on KerasTensors (override `call`)."""

    autocast = False  # (read by the shape tracer: an Operation casts nothing)
    compute_dtype = variable_dtype = None

    def __init__(self, name=None):
        if name is None:
            name = backend._unique_name(to_snake_case(type(self).__name__))
        if not isinstance(name, str) or "/" in name:
            raise ValueError("Argument `name` must be a string and cannot contain character "
                             f"`/`. Received: name={name} (of type {type(name)})")
        self.name = name
        self._inbound_nodes = []
        self._outbound_nodes = []
        self._remat_mode = get_current_remat_mode()

    def __call__(self, *args, **kwargs):
        if keras_tensor.any_symbolic((args, kwargs)):
            return self.symbolic_call(*args, **kwargs)
        call = self.call
        if self._remat_mode is not None:
            call = rematerialized_call(self, call, args, kwargs)
        return call(*args, **kwargs)

    def symbolic_call(self, *args, **kwargs):
        """The output KerasTensors of a call on KerasTensors; the call becomes a Node."""
        outputs = self.compute_output_spec(*args, **kwargs)
        keras_tensor.Node(self, args, kwargs, outputs)
        return outputs

    def call(self, *args, **kwargs):
        raise NotImplementedError(f"Operation {type(self).__name__} has no `call()` method; "
                                  "override it with the computation on tensors.")

    def compute_output_spec(self, *args, **kwargs):
        """KerasTensors for the outputs: `call` traced on placeholders, nothing computed."""
        try:
            return trace_output_spec(self, args, kwargs)
        except Exception as e:
            raise type(e)(f"Could not automatically infer the output shape / dtype of "
                          f"'{self.name}' (of type {type(self).__name__}). Either the "
                          f"`{type(self).__name__}.call()` method is incorrect, or you need "
                          f"to implement the `{type(self).__name__}.compute_output_spec() / "
                          f"compute_output_shape()` method. Error encountered:\n\n{e}") from e

    def get_config(self):
        return {"name": self.name}

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    @property
    def input(self):
        return self._node_attribute("input_tensors", "input")

    @property
    def output(self):
        return self._node_attribute("output_tensors", "output")

    def _node_attribute(self, attribute, what):
        if not self._inbound_nodes:
            raise AttributeError(f"The layer {self.name} has never been called and thus has "
                                 f"no defined {what}.")
        values = getattr(self._inbound_nodes[0], attribute)
        return values[0] if len(values) == 1 else values

    def __repr__(self):
        return f"<Operation name={self.name}>"


Operation.register(Layer)  # a Keras Layer is an Operation


@tf_export("keras.Function")
class Function(Operation):
    """`Function(inputs, outputs, name=None)`: the graph from `inputs` to `outputs`
    (KerasTensors), called on new values with `fn(values)` in `inputs`' structure."""

    def __init__(self, inputs, outputs, name=None):
        super().__init__(name=name)
        self._inputs_struct = inputs
        self._outputs_struct = outputs
        self._inputs = nest.flatten(inputs)
        self._outputs = nest.flatten(outputs)
        for what, flat, given in (("inputs", self._inputs, inputs),
                                  ("outputs", self._outputs, outputs)):
            if not flat:
                raise ValueError(f"`{what}` argument cannot be empty. Received:\n"
                                 f"inputs={inputs}\noutputs={outputs}")
            for x in flat:
                if not isinstance(x, keras_tensor.KerasTensor):
                    raise ValueError(f"All `{what}` of a Function must be KerasTensors "
                                     f"(from keras.Input and calls on them). Received: {x} "
                                     f"of type {type(x)}")
        inputs_ids = {id(x) for x in self._inputs}
        for i, x in enumerate(self._outputs):
            if not _connected(x, inputs_ids):
                raise ValueError(f"Output with path `{self._output_path(i)}` is not "
                                 "connected to `inputs`")
        self._nodes_by_depth, self._operations = _map_graph(self._inputs, self._outputs)

    def _output_path(self, i):
        if not nest.is_nested(self._outputs_struct):
            return ""
        if isinstance(self._outputs_struct, dict):
            return str(sorted(self._outputs_struct)[i])
        return str(i)

    @property
    def operations(self):
        return self._operations[:]

    @property
    def inputs(self):
        """Flat list of the symbolic inputs of the Function."""
        return self._inputs

    @property
    def outputs(self):
        """Flat list of the symbolic outputs of the Function."""
        return self._outputs

    def call(self, inputs):
        """Computes output tensors for new inputs."""
        self._assert_input_compatibility(inputs)
        return self._run_through_graph(inputs)

    def compute_output_spec(self, inputs):
        self._assert_input_compatibility(inputs)
        if all(tuple(x.shape) == tuple(r.shape) for x, r in zip(nest.flatten(inputs),
                                                                 self._inputs)):
            return nest.map_structure(lambda x: keras_tensor.KerasTensor(x.shape, x.dtype),
                                      self._outputs_struct)
        return self._run_through_graph(inputs)

    def compute_output_shape(self, input_shape):
        specs = [keras_tensor.KerasTensor(shape, ref.dtype) for shape, ref in
                 zip(input_shape if isinstance(input_shape, list) else [input_shape],
                     self._inputs)]
        specs = nest.pack_sequence_as(self._inputs_struct, specs)
        return nest.map_structure(lambda x: x.shape, self.compute_output_spec(specs))

    def _run_through_graph(self, inputs):
        values = {id(x): y for x, y in zip(self._inputs, nest.flatten(inputs))}
        for depth in sorted(self._nodes_by_depth, reverse=True):
            for node in self._nodes_by_depth[depth]:
                if node.is_input or any(id(x) not in values for x in node.input_tensors):
                    continue
                args, kwargs = nest.map_structure(
                    lambda x: values[id(x)] if isinstance(x, keras_tensor.KerasTensor) else x,
                    node.arguments)
                outputs = node.operation(*args, **kwargs)
                values.update(zip(map(id, node.output_tensors), nest.flatten(outputs)))
        return nest.pack_sequence_as(self._outputs_struct, [values[id(x)]
                                                            for x in self._outputs])

    def _assert_input_compatibility(self, inputs):
        try:
            nest.assert_same_structure(inputs, self._inputs_struct)
        except (ValueError, TypeError):
            raise ValueError("Function was called with an invalid input structure. Expected "
                             f"input structure: {self._inputs_struct}\nReceived input "
                             f"structure: {inputs}") from None
        for x, ref in zip(nest.flatten(inputs), self._inputs):
            if len(x.shape) != len(ref.shape):
                raise ValueError(f"{type(self).__name__} was passed incompatible inputs. For "
                                 f"input '{ref.name}', expected shape {ref.shape}, but "
                                 f"received instead a tensor with shape {x.shape}.")


def _connected(tensor, inputs_ids):
    """Does `tensor` come from the KerasTensors in `inputs_ids` alone?"""
    if id(tensor) in inputs_ids:
        return True
    history = tensor._keras_history
    if history is None:
        return False
    node = history.operation._inbound_nodes[history.node_index]
    return not node.is_input and all(_connected(x, inputs_ids) for x in node.input_tensors)
