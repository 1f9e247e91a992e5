"""`strategy.experimental_distribute_dataset`: each replica gets its shard of a batch.

A global batch of B examples over N replicas is cut in order into pieces of
ceil(B / N): B=7, N=2 gives 4 and 3; B=1, N=2 gives 1 and 0 (an empty shard),
as TF's rebatching does. Each piece is made on its replica's device.

>>> import minitf as tf
>>> strategy = tf.distribute.OneDeviceStrategy("/cpu:0")
>>> [x.numpy().tolist() for x in strategy.experimental_distribute_dataset(
...     tf.data.Dataset.range(5).batch(3))]
[[0, 1, 2], [3, 4]]
"""
from ..framework import device, nest
from ..framework.tf_export import tf_export
from .values import PerReplica


def split_batch(batch, strategy):
    """One global batch (a tensor or nest of them) -> PerReplica shards."""
    count = strategy.num_replicas_in_sync
    devices = strategy.extended.worker_devices

    def shards(tensor):
        size = int(tensor.shape[0])
        per = -(-size // count)
        pieces = []
        for i, name in enumerate(devices):
            with device.device(name):
                pieces.append(tensor[min(i * per, size):min((i + 1) * per, size)])
        return PerReplica(pieces)

    return nest.map_structure(shards, batch)


@tf_export("distribute.DistributedDataset")
class DistributedDataset:
    """Iterates the dataset's global batches, each split among the replicas."""

    def __init__(self, dataset, strategy):
        self._dataset = dataset
        self._strategy = strategy

    def __iter__(self):
        for batch in self._dataset:
            if self._strategy.num_replicas_in_sync == 1:
                yield batch  # one replica: the batch itself, as TF gives it
            else:
                yield split_batch(batch, self._strategy)

    @property
    def element_spec(self):
        return self._dataset.element_spec
