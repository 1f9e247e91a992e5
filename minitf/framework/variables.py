"""`tf.Variable`: the one mutable thing, holding state such as weights.

A variable owns a NumPy array that `assign*` replaces (never mutates in
place), so a tensor read earlier keeps its old value, as in TensorFlow.
Reading a trainable variable inside a `GradientTape` makes the tape watch it:

>>> import minitf as tf
>>> v = tf.Variable([1.0, 2.0], name="w")
>>> v.assign_add([1.0, 1.0])
<tf.Variable 'w:0' shape=(2,) dtype=float32, numpy=array([2., 3.], dtype=float32)>
>>> v * 2
<tf.Tensor: shape=(2,), dtype=float32, numpy=array([4., 6.], dtype=float32)>
"""
import numpy as np

from . import context, dtypes, errors
from .device import current_device_name
from .op import Op
from .tensor import EagerTensor, Tensor, _numpy_text, convert_to_tensor, \
    register_tensor_conversion_function
from .tensor_shape import TensorShape, as_shape

# The op a tape records for a variable read: variable -> tensor. Its gradient
# passes straight through, so gradients reach the variable itself.
ReadVariableOp = Op("ReadVariableOp", lambda value: value, shape=lambda shape: shape,
                    stateful=True)  # a read sees whatever the last assign left


@ReadVariableOp.def_grad
def _read_variable_grad(op, dy):
    return dy


_creator_hook = None  # set by minitf.distribute: f(cls, args, kwargs) -> a Variable or None


class VariableSynchronization:
    AUTO, NONE, ON_WRITE, ON_READ = 0, 1, 2, 3


class VariableAggregation:
    NONE, SUM, MEAN, ONLY_FIRST_REPLICA = 0, 1, 2, 3


class Variable:
    """A tensor-like value that can change: `assign`, `assign_add`, `assign_sub`."""

    _is_variable = True
    __array_priority__ = 100

    def __new__(cls, *args, **kwargs):
        # Inside a tf.distribute strategy's scope the strategy makes the variable
        # (a MirroredVariable: minitf/distribute/values.py).
        if _creator_hook is not None:
            made = _creator_hook(cls, args, kwargs)
            if made is not None:
                return made
        return super().__new__(cls)

    def __init__(self, initial_value=None, trainable=None, validate_shape=True,
                 caching_device=None, name=None, variable_def=None, dtype=None,
                 import_scope=None, constraint=None,
                 synchronization=VariableSynchronization.AUTO,
                 aggregation=VariableAggregation.NONE, shape=None,
                 experimental_enable_variable_lifting=True):
        if initial_value is None:
            raise ValueError("The `initial_value` arg (`None`) must be specified. A Variable "
                             "needs a starting value, e.g. tf.Variable(tf.zeros([3])).")
        if context.graph_stack:
            initial_value = _lifted(initial_value)  # TF's init_scope: initialise eagerly
            for graph in context.graph_stack:
                graph.created_variables.append(self)
        elif callable(initial_value):
            initial_value = initial_value()
        value = convert_to_tensor(initial_value, dtype=dtype)
        self._value = np.array(value._value)  # a private copy
        self._dtype = value.dtype
        self._shape = as_shape(shape) if shape is not None else TensorShape(self._value.shape)
        if not self._shape.is_compatible_with(self._value.shape):
            raise ValueError(f"The initial value's shape ({value.shape}) is not compatible with "
                             f"the explicitly supplied `shape` argument ({self._shape}).")
        self._trainable = True if trainable is None else bool(trainable)
        if synchronization == VariableSynchronization.ON_READ and trainable is None:
            self._trainable = False
        self._name = _unique_name(name or "Variable")
        self._constraint = constraint
        self._synchronization = synchronization
        self._aggregation = aggregation
        self._cached = None  # the EagerTensor of the current value, made on first read
        self._device = current_device_name()  # the tf.device it was made under

    # --- reading -----------------------------------------------------------------
    def _read(self):
        """The current value as a tensor; tells active tapes about the access.

        Inside a traced graph the read is a node, so every run sees the value the
        variable has then: variables are captured by reference.
        """
        # `context.active` is 0 in plain eager code: then no per-thread lookup at all.
        state = context._state if context.active else None
        if state is not None and state.graph_stack:
            read = state.graph_stack[-1].read_variable(self)
        else:
            read = self._cached
            if read is None:
                read = self._cached = EagerTensor(self._value, self._dtype)
        if state is not None:
            for tape in state.tape_stack:
                if tape._recording:
                    tape._variable_accessed(self, read)
        return read

    def read_value(self):
        return self._read()

    def value(self):
        return self._read()

    def numpy(self):
        return self._value[()] if self._value.ndim == 0 else self._value.copy()

    def __array__(self, dtype=None, copy=None):
        return self._value.copy() if dtype is None else self._value.astype(dtype)

    # --- writing ------------------------------------------------------------------
    def assign(self, value, use_locking=None, name=None, read_value=True):
        """Replace the value; the new one must have this variable's dtype and shape."""
        checked = self._checked(value, "assign")
        if context.graph_stack:
            return self._assign_in_graph(checked, "assign", read_value)
        return self._store(np.array(checked._value), read_value)

    def _assign_in_graph(self, value, method, read_value):
        """Inside tf.function an assignment is a node that runs, in order, on every call."""
        context.graph_stack[-1].assign_variable(self, value, method)
        return self if read_value else None

    def assign_add(self, delta, use_locking=None, name=None, read_value=True):
        delta = self._checked_update(delta, "assign_add", "AssignAddVariableOp")
        if context.graph_stack:
            return self._assign_in_graph(delta, "assign_add", read_value)
        return self._store(self._value + delta._value, read_value)

    def assign_sub(self, delta, use_locking=None, name=None, read_value=True):
        delta = self._checked_update(delta, "assign_sub", "AssignSubVariableOp")
        if context.graph_stack:
            return self._assign_in_graph(delta, "assign_sub", read_value)
        return self._store(self._value - delta._value, read_value)

    def _checked_update(self, delta, method, op_name):
        """assign_add/sub need exactly the variable's shape (no broadcasting), as in TF."""
        delta = convert_to_tensor(delta, dtype=self._dtype)
        if not TensorShape(self._value.shape).is_compatible_with(delta.shape):
            raise errors.op_error(
                errors.InvalidArgumentError, op_name,
                f"Cannot update variable with shape {_dims(self._value.shape)} using a Tensor "
                f"with shape {_dims(delta.shape)}, shapes must be equal.",
                f"{method} adds element by element without broadcasting; reshape or "
                "tf.broadcast_to the update first.")
        return delta

    def _checked(self, value, method):
        value = convert_to_tensor(value, dtype=self._dtype)
        if not self._shape.is_compatible_with(value.shape):
            raise ValueError(
                f"Cannot {method} value to variable ' {self._name}': Shape mismatch.The variable "
                f"shape {self._shape}, and the assigned value shape {value.shape} are "
                "incompatible. A variable keeps its shape; create a new tf.Variable for a "
                "different one (or pass shape=tf.TensorShape(None)).")
        return value

    def _store(self, array, read_value):
        array = np.asarray(array)  # a 0-d sum is a NumPy scalar; keep an array (np.asarray(v))
        if array.dtype != self._dtype._np:
            array = array.astype(self._dtype._np)
        self._value = array
        self._cached = None
        return self if read_value else None

    # --- description -------------------------------------------------------------
    @property
    def dtype(self):
        return self._dtype

    @property
    def shape(self):
        return self._shape if not self._shape.is_fully_defined() else \
            TensorShape(self._value.shape)

    @property
    def ndim(self):
        return self._value.ndim

    def get_shape(self):
        return self.shape

    @property
    def name(self):
        return self._name

    @property
    def trainable(self):
        return self._trainable

    @property
    def constraint(self):
        return self._constraint

    @property
    def synchronization(self):
        return self._synchronization

    @property
    def aggregation(self):
        return self._aggregation

    @property
    def device(self):
        return self._device

    @property
    def initial_value(self):
        return self._read()

    def ref(self):
        from .tensor import _TensorRef

        return _TensorRef(self)

    def __hash__(self):
        raise TypeError("Variable is unhashable. Instead, use variable.ref() as the key.")

    def __repr__(self):
        return (f"<tf.Variable '{self._name}' shape={self.shape} dtype={self._dtype.name}, "
                f"numpy={_numpy_text(self._value, is_repr=True)}>")

    def __bool__(self):
        return bool(self._read())  # inside tf.function this raises, as for any symbolic tensor

    def __float__(self):
        return float(self._value)

    def __int__(self):
        return int(self._value)

    def __index__(self):
        return self._value[()].__index__()

    def __iter__(self):
        return iter(self._read())


def _lifted(initial_value):
    """A variable's initial value computed eagerly even while tracing (TF's init_scope)."""
    if callable(initial_value):
        saved = list(context.graph_stack)
        context.graph_stack[:] = []
        try:
            return initial_value()
        finally:
            context.graph_stack[:] = saved
    if getattr(initial_value, "graph", None) is not None:
        from .executor import evaluate

        return evaluate(initial_value)
    return initial_value


def _unique_name(name):
    # Eager TF prefixes the open tf.name_scopes ('outer/q:0') but does not
    # uniquify: two variables may both be 'Variable:0' (and like TF,
    # name="a:0" becomes 'a:0:0'). In a TF1 graph (tf.compat.v1.Graph, not a function
    # being traced) names are unique in the graph, as its op names: 'Variable_1:0'.
    scoped = f"{context.current_name_scope()}{name}"
    graph = context.graph_stack[-1] if context.graph_stack else None
    if graph is not None and not graph.building_function:
        scoped = graph._unique(scoped)
    return f"{scoped}:0"


def _dims(shape):
    return "[" + ",".join(str(d) for d in shape) + "]"


def _convert_variable(variable, dtype):
    if dtype is not None and dtype is not variable.dtype:
        raise ValueError(
            f"Tensor conversion requested dtype {dtype.name} for Tensor with dtype "
            f"{variable.dtype.name}: {variable!r}. Use tf.cast to change a dtype.")
    return variable._read()


register_tensor_conversion_function(Variable, _convert_variable)


def is_variable(x):
    return isinstance(x, Variable)


__all__ = ["Variable", "VariableSynchronization", "VariableAggregation", "is_variable",
           "ReadVariableOp", "Tensor", "dtypes"]
