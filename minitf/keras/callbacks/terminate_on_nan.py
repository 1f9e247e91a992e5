"""`tf.keras.callbacks.TerminateOnNaN`: stop `fit` at the first NaN or inf loss.

>>> import numpy as np
>>> model = tf.keras.Sequential([tf.keras.Input((1,)), tf.keras.layers.Dense(1)])
>>> model.compile(optimizer="sgd", loss="mse")
>>> h = model.fit(np.full((4, 1), np.nan), np.ones((4, 1)), epochs=5, batch_size=2,
...               verbose=0, callbacks=[tf.keras.callbacks.TerminateOnNaN()])
Batch 0: Invalid loss, terminating training
>>> len(h.history["loss"])
1
"""
import numpy as np

from ...framework.tf_export import tf_export
from .callback import Callback


@tf_export("keras.callbacks.TerminateOnNaN")
class TerminateOnNaN(Callback):
    """Set `model.stop_training` when a batch's loss is NaN or infinite."""

    def on_batch_end(self, batch, logs=None):
        loss = (logs or {}).get("loss")
        if loss is not None and (np.isnan(loss) or np.isinf(loss)):
            print(f"Batch {batch}: Invalid loss, terminating training")
            self.model.stop_training = True
