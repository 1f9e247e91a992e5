"""`tf.keras.layers.Layer`: state (weights) plus a computation (`call`).

A layer is a `tf.Module` with a protocol:

* `__init__` stores the configuration (units, activation, ...);
* `build(input_shape)` creates the weights with `add_weight`, once, when the
  layer first sees an input - so `Dense(3)` need not know its input size;
* `call(inputs, training=None)` computes the output from minitf ops.

You call the layer, not `call`: `__call__` converts the inputs, checks them
against `input_spec`, builds, decides the `training` flag, and runs `call`
(converted by AutoGraph when inside `tf.function`, as TensorFlow does).
Called on symbolic `KerasTensor`s (from `tf.keras.Input`) it computes nothing
and records a node of the model graph instead.

>>> import minitf as tf
>>> class Scale(tf.keras.layers.Layer):
...     def build(self, input_shape):
...         self.w = self.add_weight(shape=(input_shape[-1],), initializer="ones", name="w")
...     def call(self, inputs):
...         return inputs * self.w
>>> layer = Scale()
>>> layer(tf.constant([[1.0, 2.0]]))
<tf.Tensor: shape=(1, 2), dtype=float32, numpy=array([[1., 2.]], dtype=float32)>
>>> [w.name for w in layer.weights], layer.count_params()
(['w'], 2)

In TensorFlow this is `keras/src/layers/layer.py` (Keras 3); classic tf.keras
had it in `keras/engine/base_layer.py`, which this file is named after.
"""
import contextlib
import inspect
import math
import warnings

import numpy as np

import minitf as tf

from ...autograph.conversion import converted_callable
from ...framework import context, nest
from ...framework.tensor import Tensor
from ...framework.tf_export import tf_export
from ...module import Module, _on_assign
from .. import backend, constraints, initializers, regularizers, scopes
from .. import variables as variables_module
from ..utils.naming import to_snake_case
from ..saving import budget
from ..variables import Variable
from . import call_context, dtype_policy as dtype_policies, keras_tensor, masking
from .input_spec import assert_input_compatibility, shape_tuple


def _check_positional_tensors(args):
    """Keras 3's rule: every positional leaf is a tensor (a SparseTensor or RaggedTensor
    too, as tf.is_tensor says), an array, a variable or None."""
    for arg in nest.flatten(args):
        if arg is None or isinstance(arg, (Tensor, keras_tensor.KerasTensor, np.ndarray,
                                           np.generic)) or getattr(arg, "_is_variable", False) \
                or getattr(arg, "_is_composite_tensor", False):
            continue
        raise ValueError("Only input tensors may be passed as positional arguments. The "
                         f"following argument value should be passed as a keyword argument: "
                         f"{arg} (of type {type(arg)})")


def _policy(dtype):
    if isinstance(dtype, dict) and dtype.get("config", {}).get("name") is None:
        return dtype_policies.get(None)  # a get_config() entry of a nameless policy
    return dtype_policies.get(dtype)


def _autocast_for(layer):
    """The autocast scope a layer's call runs in (Keras 3's rule in `Layer.__call__`)."""
    current = variables_module.autocast_dtype()
    compute = layer.compute_dtype
    if current is not None:
        if not layer.autocast or not tf.as_dtype(compute).is_floating:
            return variables_module.autocast_scope(None)
        if current != compute:
            return variables_module.autocast_scope(compute)
    elif compute != layer.variable_dtype:  # a mixed policy
        return variables_module.autocast_scope(compute)
    return contextlib.nullcontext()


@tf_export("keras.layers.Layer", "keras.Layer")
class Layer(Module):
    """Base class of every layer: override `build` (weights) and `call` (computation)."""

    def __init__(self, *, activity_regularizer=None, trainable=True, dtype=None,
                 autocast=True, name=None, **kwargs):
        self.__dict__["_layers"] = []  # sublayers, in assignment order (see __setattr__)
        self.__dict__["_trainable_variables"] = []
        self.__dict__["_non_trainable_variables"] = []
        input_dim = kwargs.pop("input_dim", None)
        input_shape = (input_dim,) if input_dim is not None else kwargs.pop("input_shape", None)
        batch_input_shape = kwargs.pop("batch_input_shape", None)
        kwargs.pop("batch_size", None)
        if input_shape is not None or batch_input_shape is not None:
            warnings.warn("Do not pass an `input_shape`/`input_dim` argument to a layer. When "
                          "using Sequential models, prefer using an `Input(shape)` object as "
                          "the first layer in the model instead.", stacklevel=2)
        self._input_shape_arg = tuple(input_shape) if input_shape is not None else (
            tuple(batch_input_shape[1:]) if batch_input_shape is not None else None)
        if kwargs:
            raise ValueError(f"Unrecognized keyword arguments passed to "
                             f"{type(self).__name__}: {kwargs}")
        if name is not None and (not isinstance(name, str) or "/" in name):
            raise ValueError("Argument `name` must be a string and cannot contain character "
                             f"`/`. Received: name={name} (of type {type(name)})")
        self._name = name or backend._unique_name(to_snake_case(type(self).__name__))
        self._scope_name = self._name + "/"
        self._trainable = bool(trainable)
        self._dtype_policy = _policy(dtype)
        self.autocast = autocast
        self.activity_regularizer = regularizers.get(activity_regularizer)
        self.built = False
        self.input_spec = None
        self.supports_masking = False
        self._inbound_nodes = []
        self._outbound_nodes = []
        self._losses = []
        self._regularizers = []  # (variable, regularizer) pairs: penalties in `losses`
        self._build_shapes_dict = None
        self._remat_mode = scopes.get_current_remat_mode()  # keras.RematScope at creation

    # --- tracking ------------------------------------------------------------------------
    def __setattr__(self, name, value):
        """Assigning a layer or a `keras.Variable` to an attribute makes it part of this layer.

        As in Keras 3, a plain `tf.Variable` (or a `tf.Module` holding some) is *not*
        tracked: it is in no `weights` list, `summary()` does not count it and `fit`
        does not train it. Make weights with `add_weight` (or `keras.Variable`).
        """
        if not name.startswith("__") and "_layers" in self.__dict__:
            for leaf in nest.flatten(value) if nest.is_nested(value) else [value]:
                if isinstance(leaf, Layer) and leaf is not self and not any(
                        leaf is known for known in self._layers):
                    self._layers.append(leaf)
                elif isinstance(leaf, Variable):
                    self._track_variable(leaf)
        object.__setattr__(self, name, value)
        if _on_assign:  # a checkpoint restore waits for attributes to appear (tf.train)
            _on_assign[0](self, name, value)

    def _track_variable(self, variable):
        own = self._trainable_variables if variable.trainable else self._non_trainable_variables
        if not any(variable is v for v in self._trainable_variables +
                   self._non_trainable_variables):
            own.append(variable)

    def _flatten_layers(self, include_self=True, recursive=True):
        """This layer and every sublayer below it, each once, depth first."""
        seen, result = set(), []
        stack = [self] if include_self else list(reversed(self._layers))
        while stack:
            layer = stack.pop()
            if id(layer) in seen:
                continue
            seen.add(id(layer))
            result.append(layer)
            if recursive:
                stack.extend(reversed(layer._layers))
        return result

    # --- properties -----------------------------------------------------------------------
    @property
    def dtype(self):
        """The dtype of the layer's weights: 'float32'."""
        return self._dtype_policy.variable_dtype

    @property
    def compute_dtype(self):
        return self._dtype_policy.compute_dtype

    @property
    def variable_dtype(self):
        return self._dtype_policy.variable_dtype

    @property
    def dtype_policy(self):
        return self._dtype_policy

    @property
    def trainable(self):
        """Whether the optimizer may update this layer's weights (False freezes them)."""
        return self._trainable

    @trainable.setter
    def trainable(self, value):
        value = bool(value)
        self._trainable = value
        for v in self._trainable_variables:
            v.trainable = value
        for layer in self._layers:
            layer.trainable = value

    @property
    def weights(self):
        """Own weights (trainable ones first), then each sublayer's, each once."""
        weights, seen = [], set()
        for w in self._trainable_variables + self._non_trainable_variables:
            if id(w) not in seen:
                weights.append(w)
                seen.add(id(w))
        for layer in self._layers:
            for w in layer.weights:
                if id(w) not in seen:
                    weights.append(w)
                    seen.add(id(w))
        return weights

    @property
    def trainable_weights(self):
        """The weights an optimizer updates: none at all if the layer is frozen."""
        if not self.trainable:
            return []
        return [w for w in self.weights if w.trainable]

    @property
    def non_trainable_weights(self):
        """Weights training leaves to others (moving statistics), or all if frozen."""
        if not self.trainable:
            return self.weights
        return [w for w in self.weights if not w.trainable]

    variables = weights
    trainable_variables = trainable_weights
    non_trainable_variables = non_trainable_weights

    @property
    def losses(self):
        """Penalties to add to the training loss: `add_loss` calls from the last call,
        and a fresh value of every weight regularizer, for this layer and its sublayers."""
        losses = []
        for layer in self._flatten_layers():
            losses.extend(layer._losses)
            for variable, regularizer in layer._regularizers:
                losses.append(regularizer(variable))
        return losses

    def add_loss(self, loss):
        """Add a scalar penalty (e.g. an activity regularization) to `losses`."""
        self._losses.append(loss)

    def _clear_losses(self):
        for layer in self._flatten_layers():
            layer._losses = []

    @property
    def input(self):
        """The KerasTensor this layer was first called on (functional models)."""
        return self._node_attribute("input_tensors", "input")

    @property
    def output(self):
        """The KerasTensor this layer produced when first called on one."""
        return self._node_attribute("output_tensors", "output")

    def _node_attribute(self, attribute, what):
        if not self._inbound_nodes:
            raise AttributeError(f"The layer {self.name} has never been called and thus has "
                                 f"no defined {what}. Call it on a tf.keras.Input first.")
        if len(self._inbound_nodes) > 1:
            raise AttributeError(f"The layer {self.name} has multiple inbound nodes, hence the "
                                 f"notion of 'layer {what}' is ill-defined. Use "
                                 f"`layer._inbound_nodes[i]` for a particular call.")
        tensors = getattr(self._inbound_nodes[0], attribute)
        return tensors[0] if len(tensors) == 1 else tensors

    # --- weights ------------------------------------------------------------------------
    def add_weight(self, *args, shape=None, initializer=None, dtype=None, trainable=True,
                   autocast=True, regularizer=None, constraint=None, aggregation="none",
                   overwrite_with_gradient=False, name=None, **kwargs):
        """Create a weight of this layer and track it.

        Keras 3 order: `add_weight(shape, initializer, dtype, trainable, ...,
        name)`. The classic tf.keras call `add_weight("w", shape)` raises Keras 3's
        ValueError: the name goes by keyword. Default initializer:
        'glorot_uniform' for floats, 'zeros' otherwise.
        """
        if args and isinstance(args[0], str):
            raise ValueError("`name` must be passed as a keyword argument. Received: "
                             f"add_weight('{args[0]}', ...). Use: add_weight(shape=..., "
                             f"name='{args[0]}').")
        given = dict(shape=shape, initializer=initializer, dtype=dtype, trainable=trainable,
                     regularizer=regularizer, constraint=constraint, name=name)
        order = ("shape", "initializer", "dtype", "trainable", "autocast", "regularizer",
                 "constraint", "aggregation", "overwrite_with_gradient", "name")
        given.update(zip(order, args))
        for classic in ("use_resource", "synchronization", "partitioner", "caching_device",
                        "experimental_autocast", "getter"):
            kwargs.pop(classic, None)
        if kwargs:
            raise TypeError(f"add_weight() got unexpected keyword arguments {sorted(kwargs)}")
        return self._make_weight(**given)

    def _make_weight(self, shape, initializer, dtype, trainable, regularizer, constraint, name):
        name = name or "variable"
        shape = () if shape is None else tuple(shape)
        if any(d is None for d in shape):
            raise ValueError("Shapes used to initialize variables must be fully-defined (no "
                             f"`None` dimensions). Received: shape={shape} for variable "
                             f"path='{self.name}/{name}'. Build the layer from an input shape "
                             "whose non-batch sizes are known.")
        budget.charge(shape, f"{self.name}/{name}")  # while loading a file: bounded
        dtype = tf.as_dtype(dtype or self.variable_dtype)
        if initializer is None:
            initializer = "glorot_uniform" if dtype.is_floating else "zeros"
        initializer = initializers.get(initializer)
        variable = Variable(initializer, shape=shape, dtype=dtype, trainable=trainable,
                            name=name, constraint=constraints.get(constraint),
                            path=call_context.weight_path(self.name, name))
        self._track_variable(variable)
        if regularizer is not None:
            self._regularizers.append((variable, regularizers.get(regularizer)))
        return variable

    def get_weights(self):
        """The weights' current values as NumPy arrays (in `weights` order)."""
        return [w.numpy() for w in self.weights]

    def set_weights(self, weights):
        """Assign NumPy arrays (in `weights` order) to the weights."""
        layer_weights = self.weights
        if len(layer_weights) != len(weights):
            raise ValueError(
                f"You called `set_weights(weights)` on layer '{self.name}' with a weight list "
                f"of length {len(weights)}, but the layer was expecting {len(layer_weights)} "
                "weights. Pass one array per entry of layer.weights, in that order.")
        for variable, value in zip(layer_weights, weights):
            value = np.asarray(value)
            if tuple(variable.shape) != value.shape:
                raise ValueError(f"Layer {self.name} weight shape {tuple(variable.shape)} is "
                                 "not compatible with provided weight shape "
                                 f"{value.shape}.")
            variable.assign(value.astype(variable.dtype.as_numpy_dtype))

    def stateless_call(self, trainable_variables, non_trainable_variables, *args,
                       return_losses=False, **kwargs):
        """`call` on the given variable values, in a `keras.StatelessScope`: returns
        `(outputs, new non_trainable_variables)` and leaves the layer's own variables
        alone (see minitf/keras/stateless_scope.py)."""
        from ..stateless_scope import stateless_call
        return stateless_call(self, trainable_variables, non_trainable_variables, *args,
                              return_losses=return_losses, **kwargs)

    def count_params(self):
        """The number of scalars in all weights (what `summary()` prints)."""
        if not self.built:
            raise ValueError(f"You tried to call `count_params` on layer '{self.name}', but "
                             "the layer isn't built. You can build it manually via: "
                             f"`{self.name}.build(batch_input_shape)`.")
        return int(sum(math.prod(tuple(w.shape)) for w in self.weights))

    # --- the protocol: build and call ----------------------------------------------------
    def build(self, input_shape):
        """Create the weights for inputs of `input_shape` (override; the default has none)."""
        self.built = True

    build._is_default = True

    def call(self, *args, **kwargs):
        raise NotImplementedError(f"Layer {type(self).__name__} does not have a `call()` "
                                  "method implemented. Subclasses compute their output there.")

    def _maybe_build(self, first_input):
        if self.built:
            return
        shapes = nest.map_structure(shape_tuple, first_input)
        self._build_shapes_dict = {"input_shape": shapes}
        if not getattr(type(self).build, "_is_default", False):  # else call() builds sublayers
            with call_context.name_scope(self.name):
                self.build(shapes)
        self.built = True

    def __call__(self, *args, **kwargs):
        if not args and "inputs" in kwargs:
            args = (kwargs.pop("inputs"),)
        if not self._allow_non_tensor_positional_args:
            _check_positional_tensors(args)
        if keras_tensor.any_symbolic((args, kwargs)):
            return self._symbolic_call(args, kwargs)
        previous_mask = masking.masks_of(args[0]) if args else None  # before any cast
        args = (nest.map_structure(self._convert_input, args[0]),) + args[1:] if args else ()
        first = args[0] if args else None
        assert_input_compatibility(self.input_spec, first, self.name)
        self._maybe_build(first)
        if call_context.is_entry_call():
            self._clear_losses()
        training = call_context.resolve_training(self.call, kwargs)
        if previous_mask is not None and kwargs.get("mask") is None and \
                masking.call_takes_mask(self):
            kwargs["mask"] = previous_mask
        call = self.call
        if context.graph_stack:  # tracing a tf.function: convert the layer's Python code
            call = converted_callable(call)
        if self._remat_mode is not None:
            call = scopes.rematerialized_call(self, call, args, kwargs)
        with call_context.enter(self, training), call_context.name_scope(self.name), \
                _autocast_for(self):
            outputs = call(*args, **kwargs)
        masking.set_output_masks(self, first, outputs, kwargs.get("mask", previous_mask),
                                 previous_mask)
        if self.activity_regularizer is not None:
            self._add_activity_losses(outputs)
        return outputs

    # Keras 3: positional arguments are tensors (or arrays, which become tensors); other
    # values go by keyword. Functional models and the data layers accept raw data.
    _allow_non_tensor_positional_args = False
    _remat_mode = None  # a layer whose __init__ skipped Layer.__init__

    def compute_mask(self, inputs, mask=None):
        """The mask of the outputs, for a layer that `supports_masking`: by default the
        input's mask, passed on unchanged (see engine/masking.py)."""
        return mask

    def _convert_input(self, x):
        """Arrays become tensors; float inputs are cast to the layer's dtype (autocast)."""
        if x is None or isinstance(x, keras_tensor.KerasTensor):
            return x
        if not isinstance(x, Tensor):
            if not isinstance(x, (np.ndarray, list, tuple, int, float, np.generic)) and \
                    not getattr(x, "_is_variable", False):
                return x
            x = tf.convert_to_tensor(x)
        if self.autocast and x.dtype.is_floating and x.dtype.name != self.compute_dtype:
            x = tf.cast(x, self.compute_dtype)
        return x

    def _add_activity_losses(self, outputs):
        for output in nest.flatten(outputs):
            if isinstance(output, Tensor):
                loss = self.activity_regularizer(output)
                if len(output.shape) > 0:  # Keras 3 divides by the batch size
                    loss = tf.math.divide_no_nan(loss, tf.cast(tf.shape(output)[0], loss.dtype))
                self.add_loss(loss)

    # --- symbolic calls (functional API) -------------------------------------------------
    def _symbolic_call(self, args, kwargs):
        first = args[0] if args else None
        assert_input_compatibility(self.input_spec, first, self.name)
        self._maybe_build(first)
        outputs = self.compute_output_spec(*args, **kwargs)
        keras_tensor.Node(self, args, kwargs, outputs)
        return outputs

    def compute_output_spec(self, *args, **kwargs):
        """The output KerasTensor(s) for KerasTensor inputs, without computing anything.

        If the layer defines `compute_output_shape`, that decides; otherwise
        `call` is traced into a scratch graph (as `tf.function` would trace it)
        and the traced outputs' shapes and dtypes are read off.
        """
        if type(self).compute_output_shape is not Layer.compute_output_shape:
            shapes = self.compute_output_shape(nest.map_structure(shape_tuple, args[0]))
            return _keras_tensors_for_shapes(shapes, self.compute_dtype)
        return trace_output_spec(self, args, kwargs)

    def compute_output_shape(self, input_shape):
        """The output shape for an input shape (default: found by tracing `call`)."""
        spec = trace_output_spec(self, (_placeholder_structure(input_shape, self),), {})
        return nest.map_structure(lambda t: t.shape, spec)

    # --- configuration ------------------------------------------------------------------
    def get_config(self):
        """The constructor arguments as a dict; `from_config` rebuilds the layer from it."""
        config = {"name": self.name, "trainable": self.trainable,
                  "dtype": {"module": "keras", "class_name": "DTypePolicy",
                            "config": self._dtype_policy.get_config(),
                            "registered_name": None}}
        if self.activity_regularizer is not None:
            config["activity_regularizer"] = regularizers.serialize(self.activity_regularizer)
        return config

    @classmethod
    def from_config(cls, config):
        return cls(**config)

    def __repr__(self):
        return f"<{type(self).__name__} name={self.name}, built={self.built}>"


def is_shape(value):
    """A single shape (a tuple/list of ints and None), as opposed to a list of shapes."""
    return isinstance(value, (tuple, list)) and all(
        d is None or isinstance(d, (int, np.integer)) for d in value)


def _keras_tensors_for_shapes(shapes, dtype):
    if is_shape(shapes):
        return keras_tensor.KerasTensor(shapes, dtype)
    return [_keras_tensors_for_shapes(s, dtype) for s in shapes]


def _placeholder_structure(input_shape, layer):
    return _keras_tensors_for_shapes(input_shape, layer.compute_dtype)


def trace_output_spec(layer, args, kwargs):
    """Run `layer.call` on graph placeholders standing for the KerasTensors in `args`,
    and describe its outputs as new KerasTensors (nothing is computed)."""
    from ...framework.graph import Graph, SymbolicTensor

    graph = Graph(f"{layer.name}_output_spec")
    with graph.as_default():
        def placeholder(x):
            if isinstance(x, keras_tensor.KerasTensor):
                held = graph.placeholder(x.shape, x.dtype, x.name)
                if layer.autocast and held.dtype.is_floating and \
                        held.dtype.name != layer.compute_dtype:
                    held = tf.cast(held, layer.compute_dtype)
                return held
            return x

        args = nest.map_structure(placeholder, tuple(args))
        kwargs = nest.map_structure(placeholder, dict(kwargs))
        training = call_context.resolve_training(layer.call, kwargs)
        with call_context.enter(layer, training), _autocast_for(layer), \
                scopes.SymbolicScope():  # as Keras's compute_output_spec
            outputs = converted_callable(layer.call)(*args, **kwargs)

    def describe(t):
        if isinstance(t, SymbolicTensor):
            dims = t.shape.as_list() if t.shape.rank is not None else None
            return keras_tensor.KerasTensor(dims, t.dtype)
        return t

    return nest.map_structure(describe, outputs)
