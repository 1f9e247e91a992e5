"""`tf.keras.callbacks.LambdaCallback`: a callback from plain functions.

>>> import numpy as np
>>> seen = []
>>> log_epochs = tf.keras.callbacks.LambdaCallback(
...     on_epoch_end=lambda epoch, logs: seen.append(epoch))
>>> model = tf.keras.Sequential([tf.keras.Input((1,)), tf.keras.layers.Dense(1)])
>>> model.compile(optimizer="sgd", loss="mse")
>>> _ = model.fit(np.ones((2, 1)), np.ones((2, 1)), epochs=2, verbose=0,
...               callbacks=[log_epochs])
>>> seen
[0, 1]
"""
from ...framework.tf_export import tf_export
from .callback import Callback


@tf_export("keras.callbacks.LambdaCallback")
class LambdaCallback(Callback):
    """Pass `on_epoch_end=lambda epoch, logs: ...` and the like (any hook name)."""

    def __init__(self, on_epoch_begin=None, on_epoch_end=None, on_train_begin=None,
                 on_train_end=None, on_train_batch_begin=None, on_train_batch_end=None,
                 **kwargs):
        super().__init__()
        hooks = dict(on_epoch_begin=on_epoch_begin, on_epoch_end=on_epoch_end,
                     on_train_begin=on_train_begin, on_train_end=on_train_end,
                     on_train_batch_begin=on_train_batch_begin,
                     on_train_batch_end=on_train_batch_end, **kwargs)
        for name, function in hooks.items():
            if function is None:
                continue
            if not name.startswith("on_") or not hasattr(Callback, name):
                raise ValueError(f"Unrecognized callback hook: {name}. Hooks are named like "
                                 "`on_epoch_end` or `on_train_batch_begin`.")
            setattr(self, name, function)
