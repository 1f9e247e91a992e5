"""`MirroredStrategy` and `OneDeviceStrategy`: one thread per replica, on its device.

`strategy.run(fn, args)` starts one thread per replica device. Each thread
enters its device (so its ops record it), its replica context (so `fn` can ask
`tf.distribute.get_replica_context().replica_id_in_sync_group`), and calls `fn`
on its own part of any `PerReplica` argument. Replicas meet only in
`all_reduce`: each hands in its value, waits for the others (a barrier), and
takes the sum. The threads really run at the same time (NumPy releases the
GIL in its larger loops), but nothing more is shared than on real devices.

Called inside a `tf.function` (the usual `distributed_train_step`), the
replicas trace into the caller's graph, taking turns, so every node records
its replica's device; the graph executor then runs all replicas' nodes in
one thread (placement is recorded, not enforced). Called eagerly with a `tf.function` as `fn`, minitf runs
fn's Python in each replica eagerly (TF would trace it once per replica):
replicas tracing separate graphs could not all-reduce symbolic tensors.

>>> import minitf as tf
>>> strategy = tf.distribute.OneDeviceStrategy("/cpu:0")
>>> strategy.run(lambda x: x * 2, args=(tf.constant(3.0),))
<tf.Tensor: shape=(), dtype=float32, numpy=6.0>
"""
import threading

from ..framework import context, device, nest
from ..framework.function import Function
from ..framework.tf_export import tf_export
from . import distribute_lib
from .distribute_lib import ReduceOp, ReplicaContext, Strategy, StrategyExtended
from .values import DistributedValues, PerReplica


class MirroredExtended(StrategyExtended):
    """`MirroredStrategy.extended`."""


def _full_names(devices):
    names = []
    for spec in devices:
        parts = device.parse(spec)
        parts.update(job=parts["job"] or "localhost", replica=parts["replica"] or 0,
                     task=parts["task"] or 0, device_type=parts["device_type"] or "CPU",
                     device_index=parts["device_index"] or 0)
        names.append(device.to_string(parts))
    if len(set(names)) != len(names):
        raise ValueError(f"No duplicates allowed in `devices` argument: {list(devices)}.")
    return names


@tf_export("distribute.MirroredStrategy")
class MirroredStrategy(Strategy):
    """Synchronous training on several devices of one machine.

    `devices` defaults to every logical CPU (split the CPU first with
    `tf.config.set_logical_device_configuration`). `cross_device_ops` is
    accepted and ignored: minitf's all-reduce adds the replicas' arrays in
    replica order, so results are the same on every run.

    >>> strategy = tf.distribute.MirroredStrategy(["/cpu:0"])
    >>> strategy.num_replicas_in_sync
    1
    """

    def __init__(self, devices=None, cross_device_ops=None):
        device.initialize()
        if devices is None:
            devices = device.logical_cpu_names()
        super().__init__(MirroredExtended(self, _full_names(devices)))

    def run(self, fn, args=(), kwargs=None, options=None):
        """Call `fn(*args, **kwargs)` once per replica, concurrently; returns PerReplica
        results (a plain value when there is one replica)."""
        kwargs = kwargs or {}
        count = self.num_replicas_in_sync
        graphs = list(context.graph_stack)  # run inside a tf.function: replicas trace into it
        if isinstance(fn, Function) and not graphs:
            fn = fn.python_function  # eager run: each replica runs fn's Python (see above)
        rendezvous = _Rendezvous(count, traced=bool(graphs))
        results, failures = [None] * count, [None] * count

        def replica_main(i):
            state = distribute_lib._state
            saved_devices = []
            state.replica = ReplicaContext(self, i, rendezvous)
            device.enter(self._placements[i], saved_devices)
            for graph in graphs:
                context.graph_stack.append(graph)
            if rendezvous.lock is not None:
                rendezvous.lock.acquire()  # one replica adds nodes to the graph at a time
            try:
                mine_args = nest.map_structure(lambda v: _part(v, i), args)
                mine_kwargs = nest.map_structure(lambda v: _part(v, i), kwargs)
                results[i] = fn(*mine_args, **mine_kwargs)
            except BaseException as exc:  # noqa: BLE001 - handed to the caller below
                failures[i] = exc
                rendezvous.barrier.abort()  # never leave the other replicas waiting
            finally:
                if rendezvous.lock is not None:
                    rendezvous.lock.release()
                for _ in graphs:
                    context.graph_stack.pop()
                device.leave(saved_devices)
                state.replica = None

        threads = [threading.Thread(target=replica_main, args=(i,), name=f"replica_{i}")
                   for i in range(count)]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        real = [f for f in failures if f is not None and
                not isinstance(f, threading.BrokenBarrierError)]
        if real or any(failures):
            raise (real or [f for f in failures if f is not None])[0]
        if count == 1:
            return results[0]
        return nest.map_structure(lambda *parts: PerReplica(parts), *results)

    @property
    def _placements(self):
        return [device.Placement(name, name) for name in self._extended.worker_devices]

    def _reducible(self, reduce_op, value):
        if self.num_replicas_in_sync > 1 and not any(
                isinstance(v, DistributedValues) for v in nest.flatten(value)):
            raise ValueError(f"A non-DistributedValues value {value!s} cannot be reduced with "
                             f"the given reduce op {reduce_op}. Reduce what strategy.run "
                             "returned (a PerReplica value).")
        return super()._reducible(reduce_op, value)

    def experimental_local_results(self, value):
        if isinstance(value, DistributedValues):
            return value.values
        if nest.is_nested(value):
            parts = [self.experimental_local_results(v) for v in nest.flatten(value)]
            return tuple(nest.pack_sequence_as(value, [p[i] for p in parts])
                         for i in range(self.num_replicas_in_sync))
        return (value,)

    def experimental_distribute_dataset(self, dataset, options=None):
        """Each global batch of `dataset` split among the replicas (see input_lib)."""
        from .input_lib import DistributedDataset
        return DistributedDataset(dataset, self)


def _part(value, i):
    return value.values[i] if isinstance(value, PerReplica) else value


@tf_export("distribute.OneDeviceStrategy")
class OneDeviceStrategy(MirroredStrategy):
    """Everything on one device: `run` calls `fn` once, placed there."""

    def __init__(self, device):
        super().__init__([device])

    def _reducible(self, reduce_op, value):
        return (value,)


class _Rendezvous:
    """Where the replicas of one `run` meet to all-reduce."""

    def __init__(self, count, traced=False):
        self.count = count
        self.barrier = threading.Barrier(count, timeout=600)
        self.slots = [None] * count
        # While tracing, replicas share the caller's graph: they take turns adding nodes.
        self.lock = threading.Lock() if traced else None

    def _exchange(self, replica_id, value):
        self.slots[replica_id] = value
        self._wait()  # everyone has handed in a value
        everything = list(self.slots)
        self._wait()  # everyone has read them: the slots may be reused
        return everything

    def _wait(self):
        if self.lock is not None:
            self.lock.release()
        try:
            self.barrier.wait()
        finally:
            if self.lock is not None:
                self.lock.acquire()

    def all_reduce(self, replica_id, reduce_op, value):
        from ..ops.creation_ops import add_n
        everything = self._exchange(replica_id, value)

        def combine(*parts):  # runs in each replica's thread: placed on its device
            total = add_n(list(parts)) if len(parts) > 1 else parts[0] + 0
            return total / len(parts) if reduce_op is ReduceOp.MEAN else total

        return nest.map_structure(combine, *everything)

    def broadcast_first(self, replica_id, value):
        return self._exchange(replica_id, value)[0]
