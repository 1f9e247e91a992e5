"""`KerasTensor`: a symbolic placeholder for a shape and a dtype, and the `Node`s that
connect layers into a graph (the functional API).

`tf.keras.Input((3,))` makes a KerasTensor. Calling a layer on KerasTensors
computes nothing: it works out the output shape and records a `Node`
(layer, inputs, outputs). Each output remembers where it came from in
`_keras_history = (layer, node_index, tensor_index)`, so
`tf.keras.Model(inputs, outputs)` can walk back from the outputs to find
every layer in between.

>>> import minitf as tf
>>> x = tf.keras.Input((3,), name="x")
>>> y = tf.keras.layers.Dense(2)(x)
>>> y.shape, y._keras_history.operation.name.startswith("dense")
((None, 2), True)
"""
import collections

from ...framework import dtypes, nest
from ...framework.tensor import register_tensor_conversion_function
from ...framework.tf_export import tf_export
from .. import backend

KerasHistory = collections.namedtuple("KerasHistory",
                                      ["operation", "node_index", "tensor_index"])


@tf_export("keras.KerasTensor")
class KerasTensor:
    """A symbolic tensor of the functional API: a `shape` (None = any size) and a `dtype`."""

    def __init__(self, shape, dtype="float32", sparse=False, name=None):
        self._shape = _as_shape(shape)
        self._dtype = dtypes.as_dtype(dtype)
        self.sparse = sparse
        self.name = name or backend._unique_name("keras_tensor")
        self._keras_history = None

    @property
    def shape(self):
        return self._shape

    @property
    def dtype(self):
        return self._dtype

    @property
    def ndim(self):
        return len(self._shape)

    def __repr__(self):
        return (f"<KerasTensor shape={self._shape}, dtype={self._dtype.name}, "
                f"sparse={self.sparse}, ragged=False, name={self.name}>")

    def __bool__(self):
        raise TypeError("A symbolic KerasTensor cannot be used as a boolean. It has no value: "
                        "it only stands for the tensors the model will receive.")

    def __hash__(self):
        return id(self)

    def __eq__(self, other):
        return self is other

    # Arithmetic on KerasTensors becomes a small Lambda layer in the model, as in Keras.
    def __add__(self, other):
        return _operation("add", lambda a, b: a + b, self, other)

    def __radd__(self, other):
        return _operation("add", lambda a, b: b + a, self, other)

    def __sub__(self, other):
        return _operation("subtract", lambda a, b: a - b, self, other)

    def __rsub__(self, other):
        return _operation("subtract", lambda a, b: b - a, self, other)

    def __mul__(self, other):
        return _operation("multiply", lambda a, b: a * b, self, other)

    def __rmul__(self, other):
        return _operation("multiply", lambda a, b: b * a, self, other)

    def __truediv__(self, other):
        return _operation("divide", lambda a, b: a / b, self, other)

    def __matmul__(self, other):
        return _operation("matmul", lambda a, b: a @ b, self, other)

    def __neg__(self):
        return _operation("negative", lambda a, _: -a, self, None)

    def __getitem__(self, key):
        return _operation("get_item", lambda a, _: a[key], self, None)


def _as_shape(shape, shown=None):
    """A tuple of ints and None, or TF's ValueError naming the dimension that is not one."""
    dims = []
    for d in shape:
        if d is not None and (isinstance(d, (str, bytes, dict, list, tuple, float)) or
                              not hasattr(d, "__index__") and not hasattr(d, "__int__")):
            raise ValueError(f"Cannot convert '{shown or shape}' to a shape. Found invalid "
                             f"dimension '{d}' of type '{type(d)}'. A shape is a tuple of "
                             "sizes (None for any size); for several named inputs make one "
                             "tf.keras.Input per name and pass a dict of them to "
                             "tf.keras.Model.")
        dims.append(None if d is None else int(d))
    return tuple(dims)


def _operation(name, function, tensor, other):
    """A Lambda layer computing `function(tensor, other)`; `other` is a second input if
    it is a KerasTensor, else a constant captured by the layer."""
    from ..layers.core import Lambda
    layer_name = backend._unique_name(name)
    if isinstance(other, KerasTensor):
        return Lambda(lambda xs: function(xs[0], xs[1]), name=layer_name)([tensor, other])
    return Lambda(lambda x: function(x, other), name=layer_name)(tensor)


def _no_conversion(value, dtype=None):
    raise ValueError(
        "A KerasTensor cannot be used as input to a TensorFlow function. A KerasTensor is a "
        "symbolic placeholder for a shape and dtype, used when constructing Keras Functional "
        "models or Keras Functions. You can only use it as input to a Keras layer or a Keras "
        f"operation. You passed {value!r}. Wrap the TensorFlow call in a layer, e.g. "
        "tf.keras.layers.Lambda(lambda x: tf.reduce_mean(x, axis=1))(x).")


register_tensor_conversion_function(KerasTensor, _no_conversion)


def is_keras_tensor(x):
    return isinstance(x, KerasTensor)


def any_symbolic(structure):
    return any(isinstance(x, KerasTensor) for x in nest.flatten(structure))


class Node:
    """One call of a layer on KerasTensors: its arguments and its outputs.

    `layer._inbound_nodes` lists the layer's calls; a shared layer has several.
    """

    def __init__(self, operation, call_args=(), call_kwargs=None, outputs=()):
        self.operation = operation
        self.arguments = (tuple(call_args), dict(call_kwargs or {}))
        self.input_tensors = [x for x in nest.flatten(self.arguments)
                              if isinstance(x, KerasTensor)]
        self.outputs = outputs
        self.output_tensors = [x for x in nest.flatten(outputs) if isinstance(x, KerasTensor)]
        self.is_input = not self.input_tensors
        operation._inbound_nodes.append(self)
        node_index = len(operation._inbound_nodes) - 1
        for index, tensor in enumerate(self.output_tensors):
            tensor._keras_history = KerasHistory(operation, node_index, index)
        for tensor in self.input_tensors:
            if tensor._keras_history is not None:
                tensor._keras_history.operation._outbound_nodes.append(self)

    @property
    def parent_nodes(self):
        """The nodes that produced this node's inputs."""
        parents = []
        for tensor in self.input_tensors:
            if tensor._keras_history is not None:
                operation, node_index, _ = tensor._keras_history
                parents.append(operation._inbound_nodes[node_index])
        return parents

    def __repr__(self):
        return f"<Node {self.operation.name}: {len(self.input_tensors)} in, " \
               f"{len(self.output_tensors)} out>"
