"""Values that live on several replicas: `PerReplica` results and `MirroredVariable`s.

>>> import minitf as tf
>>> from minitf.distribute.values import PerReplica
>>> PerReplica((tf.constant(1.0), tf.constant(2.0)))
PerReplica:{
  0: <tf.Tensor: shape=(), dtype=float32, numpy=1.0>,
  1: <tf.Tensor: shape=(), dtype=float32, numpy=2.0>
}
"""
from ..framework import context, device, variables
from ..framework.tensor import EagerTensor
from ..framework.tf_export import tf_export
from ..framework.variables import Variable, VariableAggregation
from . import distribute_lib


@tf_export("distribute.DistributedValues")
class DistributedValues:
    """One value per replica (`.values`, in replica order)."""

    def __init__(self, values):
        self._values = tuple(values)

    @property
    def values(self):
        return self._values

    def _listing(self, show):
        rows = ",\n".join(f"  {i}: {show(v)}" for i, v in enumerate(self._values))
        return f"{type(self).__name__}:{{\n{rows}\n}}"

    def __repr__(self):
        return self._listing(repr)

    def __str__(self):
        return self._listing(str)


class PerReplica(DistributedValues):
    """What `strategy.run` returns: each replica's own result (they may differ)."""


# --- mirrored variables ---------------------------------------------------------------


class MirroredVariable(DistributedValues, Variable):
    """A variable with one copy per replica device, kept equal.

    Made by `tf.Variable(...)` inside a MirroredStrategy's scope. Inside
    `strategy.run`, replica i reads and writes its own copy (`.values[i]`) and a
    GradientTape sees the variable itself; in cross-replica context reads give
    the first copy and `assign*` writes every copy. In replica context an
    update with `aggregation=SUM/MEAN` is all-reduced first (every copy gets the
    same update); with `NONE`, each replica updates its own copy.
    """

    def __init__(self, *args, **kwargs):
        pass  # built by `_mirrored`: Variable.__new__ hands it back fully made

    @classmethod
    def _build(cls, strategy, variable_class, args, kwargs):
        self = object.__new__(_mirrored_class(variable_class))
        self._strategy = strategy
        devices = strategy.extended.worker_devices
        with device.device(devices[0]):
            primary = variable_class(*args, **kwargs)
        base = primary._name[:-2] if primary._name.endswith(":0") else primary._name
        copies = [primary]
        for i, name in enumerate(devices[1:], start=1):
            with device.device(name):
                copies.append(Variable(primary.value(), trainable=primary.trainable,
                                       name=f"{base}/replica_{i}",
                                       synchronization=primary.synchronization,
                                       aggregation=primary.aggregation))
        DistributedValues.__init__(self, copies)
        for field, value in vars(primary).items():  # name, dtype, shape, Keras's path...
            if field not in ("_value", "_cached"):
                setattr(self, field, value)
        return self

    def _copy(self):
        """The copy this thread works on: its replica's, or the first one."""
        replica = distribute_lib.current_replica()
        if replica is not None and replica[0] is self._strategy:
            return self._values[replica[1]]
        return self._values[0]

    @property
    def _value(self):  # Variable's methods (numpy, repr, shape checks) read this
        return self._copy()._value

    @_value.setter
    def _value(self, array):
        raise AssertionError("a MirroredVariable stores values only in its copies")

    def _read(self):
        copy = self._copy()
        state = context._state if context.active else None
        if state is not None and state.graph_stack:
            read = state.graph_stack[-1].read_variable(copy)
        else:
            read = copy._cached
            if read is None:
                read = copy._cached = EagerTensor(copy._value, copy._dtype)
                if copy._device != self._device or copy is not self._values[0]:
                    read._device = copy._device
        if state is not None:
            for tape in state.tape_stack:
                if tape._recording:
                    tape._variable_accessed(self, read)  # gradients reach the mirrored var
        return read

    def assign(self, value, use_locking=None, name=None, read_value=True):
        return self._update("assign", value, read_value)

    def assign_add(self, delta, use_locking=None, name=None, read_value=True):
        return self._update("assign_add", delta, read_value)

    def assign_sub(self, delta, use_locking=None, name=None, read_value=True):
        return self._update("assign_sub", delta, read_value)

    def _update(self, method, value, read_value):
        context_ = distribute_lib.get_replica_context()
        in_replica = distribute_lib.current_replica() is not None
        if not in_replica:
            for copy in self._values:  # cross-replica: every copy gets the same update
                getattr(copy, method)(value, read_value=False)
            return self if read_value else None
        aggregation = self._aggregation
        if aggregation in (VariableAggregation.SUM, VariableAggregation.MEAN):
            value = context_.all_reduce(
                distribute_lib.ReduceOp.from_variable_aggregation(aggregation), value)
        elif aggregation == VariableAggregation.ONLY_FIRST_REPLICA:
            value = context_._sync.broadcast_first(context_._replica_id, value)
        getattr(self._copy(), method)(value, read_value=False)
        return self if read_value else None

    def __repr__(self):
        return DistributedValues.__repr__(self)

    __str__ = __repr__


_classes = {}


def _mirrored_class(variable_class):
    """MirroredVariable, or a MirroredVariable that is also a `variable_class` (a
    tf.keras.Variable keeps its `path` and Keras name)."""
    if variable_class is Variable:
        return MirroredVariable
    if variable_class not in _classes:
        _classes[variable_class] = type("MirroredVariable", (MirroredVariable, variable_class),
                                        {"__doc__": MirroredVariable.__doc__})
    return _classes[variable_class]


def _mirrored(variable_class, args, kwargs):
    """`Variable.__new__`'s hook: a MirroredVariable inside a mirrored strategy's scope."""
    state = distribute_lib._state
    if not state.strategy_stack or not (args or kwargs):  # no scope open (or a copy.copy)
        return None
    if state.replica is not None or getattr(state, "creating", False) or \
            issubclass(variable_class, MirroredVariable):
        return None
    from .mirrored_strategy import MirroredStrategy
    strategy = distribute_lib.get_strategy()
    if not isinstance(strategy, MirroredStrategy):
        return None
    state.creating = True
    try:
        return MirroredVariable._build(strategy, variable_class, args, kwargs)
    finally:
        state.creating = False


variables._creator_hook = _mirrored
