"""The strategy machinery every strategy shares: scopes, replica contexts, `reduce`.

A thread is in one of three contexts, as in TensorFlow:

* the *default* one (no strategy scope): `tf.distribute.get_strategy()` is the
  default strategy, one replica, and ops run as usual;
* *cross-replica*, inside `with strategy.scope():` - variables created here
  become the strategy's kind (MirroredVariable), `get_replica_context()` is None;
* *replica*, inside `strategy.run(fn)`: `fn` runs once per replica and
  `get_replica_context()` tells it which (`replica_id_in_sync_group`).

>>> import minitf as tf
>>> tf.distribute.has_strategy(), tf.distribute.get_strategy().num_replicas_in_sync
(False, 1)
>>> tf.distribute.get_replica_context().replica_id_in_sync_group
0
"""
import enum
import threading

from ..framework import dtypes, nest
from ..framework.tf_export import tf_export


@tf_export("distribute.ReduceOp")
class ReduceOp(enum.Enum):
    """How `reduce`/`all_reduce` combine the replicas' values: add them, or average."""

    SUM = "SUM"
    MEAN = "MEAN"

    @staticmethod
    def from_variable_aggregation(aggregation):
        return {1: ReduceOp.SUM, 2: ReduceOp.MEAN}[aggregation]


def as_reduce_op(reduce_op):
    if isinstance(reduce_op, ReduceOp):
        return reduce_op
    if isinstance(reduce_op, str) and reduce_op.upper() in ("SUM", "MEAN"):
        return ReduceOp(reduce_op.upper())
    raise ValueError(f"Invalid reduce_op: {reduce_op!r}. Use tf.distribute.ReduceOp.SUM or "
                     "tf.distribute.ReduceOp.MEAN (or the strings 'SUM', 'MEAN').")


class _ThreadState(threading.local):
    def __init__(self):
        self.strategy_stack = []  # strategies whose scope() is open, innermost last
        self.replica = None  # the ReplicaContext while strategy.run runs fn in this thread


_state = _ThreadState()


@tf_export("distribute.ReplicaContext")
class ReplicaContext:
    """What `fn` sees inside `strategy.run(fn)`: its replica id and the all-reduce."""

    def __init__(self, strategy, replica_id, sync=None):
        self._strategy = strategy
        self._replica_id = replica_id
        self._sync = sync  # the run's rendezvous (mirrored_strategy._Rendezvous) or None

    @property
    def strategy(self):
        return self._strategy

    @property
    def num_replicas_in_sync(self):
        return self._strategy.num_replicas_in_sync

    @property
    def replica_id_in_sync_group(self):
        """This replica's index: an int32 tensor under a strategy (0 in the default one)."""
        if self._sync is None:
            return self._replica_id
        from ..ops.creation_ops import constant
        return constant(self._replica_id, dtype=dtypes.int32)

    def all_reduce(self, reduce_op, value, options=None):
        """Combine `value` (a tensor or nest of them) over all replicas; every replica
        gets the result. Each replica must call it, in the same order."""
        reduce_op = as_reduce_op(reduce_op)
        if self._sync is None:
            return value
        return self._sync.all_reduce(self._replica_id, reduce_op, value)


@tf_export("distribute.StrategyExtended")
class StrategyExtended:
    """`strategy.extended`: the devices behind a strategy."""

    def __init__(self, strategy, devices):
        self._container_strategy = strategy
        self._devices = tuple(devices)

    @property
    def worker_devices(self):
        return self._devices

    @property
    def parameter_devices(self):
        return self._devices


@tf_export("distribute.Strategy")
class Strategy:
    """The base of every `tf.distribute` strategy."""

    def __init__(self, extended):
        self._extended = extended

    @property
    def extended(self):
        return self._extended

    @property
    def num_replicas_in_sync(self):
        return len(self._extended.worker_devices)

    def scope(self):
        """`with strategy.scope():` - variables made inside are distributed ones."""
        return _StrategyScope(self)

    def experimental_local_results(self, value):
        """The per-replica parts of `value` as a tuple (a plain value: a 1-tuple)."""
        from .values import DistributedValues
        if isinstance(value, DistributedValues):
            return value.values
        return (value,)

    def reduce(self, reduce_op, value, axis):
        """Combine a per-replica value across replicas (and along `axis`, if given).

        SUM adds the replicas' values; MEAN divides by the number of replicas - or,
        with `axis`, by the total length of that axis over all replicas.
        """
        from ..ops.creation_ops import add_n
        from ..ops.math_ops import cast
        from ..ops.reduction_ops import reduce_sum
        reduce_op = as_reduce_op(reduce_op)
        parts = self._reducible(reduce_op, value)

        def combine(*tensors):
            if axis is None:
                total = tensors[0] if len(tensors) == 1 else add_n(list(tensors))
                return total if reduce_op is ReduceOp.SUM else total / len(tensors)
            total = add_n([reduce_sum(t, axis=axis) for t in tensors])
            if reduce_op is ReduceOp.SUM:
                return total
            count = sum(int(t.shape[axis]) for t in tensors)
            return total / cast(count, total.dtype)

        return nest.map_structure(combine, *parts)

    def _reducible(self, reduce_op, value):
        return self.experimental_local_results(value)

    def run(self, fn, args=(), kwargs=None, options=None):
        raise NotImplementedError

    def experimental_distribute_dataset(self, dataset, options=None):
        raise NotImplementedError


class _StrategyScope:
    def __init__(self, strategy):
        self._strategy = strategy

    def __enter__(self):
        stack = _state.strategy_stack
        current = stack[-1] if stack else None
        if current is not None and current is not self._strategy:
            raise RuntimeError(f"Mixing different tf.distribute.Strategy objects: {current} "
                               f"is not {self._strategy}. Leave one strategy's scope before "
                               "entering another's.")
        stack.append(self._strategy)
        return self._strategy

    def __exit__(self, *exc):
        _state.strategy_stack.pop()
        return False


class _DefaultDistributionStrategy(Strategy):
    """The strategy in effect outside any scope: one replica, ops run as usual."""

    def __init__(self):
        super().__init__(StrategyExtended(self, ("/job:localhost/replica:0/task:0/device:CPU:0",)))

    def run(self, fn, args=(), kwargs=None, options=None):
        return fn(*args, **(kwargs or {}))

    def experimental_distribute_dataset(self, dataset, options=None):
        return dataset


_DEFAULT = _DefaultDistributionStrategy()
_DEFAULT_REPLICA = ReplicaContext(_DEFAULT, 0)


@tf_export("distribute.get_strategy")
def get_strategy():
    """The strategy of the current scope or replica (the default strategy outside)."""
    if _state.replica is not None:
        return _state.replica.strategy
    return _state.strategy_stack[-1] if _state.strategy_stack else _DEFAULT


@tf_export("distribute.has_strategy")
def has_strategy():
    """True inside a (non-default) strategy's scope or replica function."""
    return get_strategy() is not _DEFAULT


@tf_export("distribute.in_cross_replica_context")
def in_cross_replica_context():
    """True inside `strategy.scope()` but not inside `strategy.run`."""
    return _state.replica is None and bool(_state.strategy_stack)


@tf_export("distribute.get_replica_context")
def get_replica_context():
    """The ReplicaContext inside `strategy.run`; None in cross-replica context."""
    if _state.replica is not None:
        return _state.replica
    return None if _state.strategy_stack else _DEFAULT_REPLICA


def current_replica():
    """(strategy, replica id) of the calling thread's replica, or None."""
    replica = _state.replica
    return None if replica is None else (replica.strategy, replica._replica_id)
