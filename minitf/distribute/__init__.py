"""`tf.distribute`: run one step on several devices at once.

`MirroredStrategy` keeps a copy of every variable on each replica device,
runs the step function once per replica - each in a thread of its own, on
its own shard of the global batch - and sums the replicas' results
(all-reduce) so every copy gets the same update. On one machine with the CPU
split into logical devices this is an honest simulation: the numbers equal
single-device training on the whole batch. TPU and multi-machine strategies
exist by name and say what real TensorFlow needs for them.
"""
from . import distribute_lib, input_lib, mirrored_strategy, unavailable, values  # noqa: F401
