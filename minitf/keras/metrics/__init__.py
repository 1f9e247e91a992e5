"""`tf.keras.metrics`: stateful metrics that accumulate over batches.

A metric keeps its running state in non-trainable variables:
`update_state(y_true, y_pred, sample_weight=None)` adds a batch,
`result()` reads the current value, `reset_state()` starts over (the
classic `reset_states()` is gone in Keras 3). Because the state lives in variables and
updates are `assign_add`s, a metric updated inside a `tf.function` keeps
accumulating across calls.

>>> import minitf as tf
>>> m = tf.keras.metrics.Mean()
>>> m.update_state([1.0, 2.0])
>>> m.update_state([6.0])
>>> print(m.result().numpy())
3.0
"""
