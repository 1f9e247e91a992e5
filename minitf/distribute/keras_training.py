"""`model.fit` under `strategy.scope()`: each replica trains on its shard of the batch.

One distributed training step, as Keras 3 does it on TensorFlow:

1. the global batch is cut into one shard per replica (input_lib.split_batch);
2. every replica, in its own thread and on its own device, runs the forward
   pass on its shard and takes the gradient of its loss divided by the number
   of replicas (Keras's `scale_loss_for_distribution`);
3. the replicas all-reduce (sum) their gradients, so each holds the gradient
   of the mean loss over the whole batch;
4. the optimizer applies that gradient once to the mirrored variables, which
   updates every copy alike.

A replica whose shard is empty (a short last batch) adds zero gradients.
With equal shards the sum in step 3 is exactly the single-device gradient of
the full batch (up to float rounding): the simulation is honest. Loss and
metrics are then computed from all replicas' predictions together.

In TensorFlow the step runs inside `tf.function` in each replica; minitf runs
each replica's step eagerly (threads and tracing do not mix here).
`evaluate` and `predict` are not distributed: they run on the whole batch in
the calling thread, reading the first copy of each mirrored weight (all copies
are equal). The strategy is the one `compile` was called under (Keras 3 takes
the one in effect when the model is made).

>>> import minitf as tf
>>> with tf.distribute.MirroredStrategy(["/cpu:0"]).scope():
...     model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1)])
...     model.compile(optimizer="sgd", loss="mse")
>>> history = model.fit(tf.ones((4, 2)), tf.ones((4, 1)), batch_size=4, verbose=0)
>>> len(history.history["loss"])
1
"""
from ..framework.tape import GradientTape
from ..ops.array_ops import concat
from ..ops.creation_ops import constant, zeros_like
from . import distribute_lib
from .input_lib import split_batch


def train_function(model, strategy):
    """A `fit` step function for `model` on `strategy` (replaces make_train_function's)."""
    from ..keras.utils.data_adapter import unpack_x_y_sample_weight

    count = strategy.num_replicas_in_sync

    def replica_step(shard):
        x, y, sample_weight = unpack_x_y_sample_weight(shard)
        variables = model.trainable_variables
        rows = int(_leaves(x)[0].shape[0])
        with GradientTape() as tape:
            y_pred = model(x, training=True)
            if rows == 0:  # a short last batch left this replica nothing
                loss = scaled = constant(0.0)
            else:
                loss = model.compute_loss(x=x, y=y, y_pred=y_pred, sample_weight=sample_weight)
                scaled = model.optimizer.scale_loss(loss) / count  # + loss scaling
        grads = tape.gradient(scaled, variables)
        grads = [zeros_like(v) if g is None else g for g, v in zip(grads, variables)]
        context = distribute_lib.get_replica_context()
        # the loss logged is each replica's mean loss weighted by its rows, as Keras does
        return context.all_reduce("SUM", grads), loss * float(rows), y_pred

    def one_step_on_data(data):
        grads, weighted_loss, y_pred = strategy.run(
            replica_step, args=(split_batch(data, strategy),))
        first = strategy.experimental_local_results
        model.optimizer.apply(first(grads)[0] if count > 1 else grads,
                              model.trainable_variables)
        x, y, sample_weight = unpack_x_y_sample_weight(data)
        rows = float(_leaves(x)[0].shape[0])
        model._track_loss(strategy.reduce("SUM", weighted_loss, axis=None) / rows, x)
        parts = [first(p) for p in _leaves(y_pred)]
        y_pred = _rebuild(y_pred, [concat(list(p), axis=0) for p in parts])
        return model.compute_metrics(x, y, y_pred, sample_weight=sample_weight)

    return one_step_on_data


def _leaves(value):
    from ..framework import nest
    return nest.flatten(value)


def _rebuild(structure, leaves):
    from ..framework import nest
    return nest.pack_sequence_as(structure, leaves)


def strategy_for(model):
    """The strategy `compile` was called under (None outside any scope)."""
    return distribute_lib.get_strategy() if distribute_lib.has_strategy() else None
