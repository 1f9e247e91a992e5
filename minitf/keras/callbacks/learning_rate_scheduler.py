"""`tf.keras.callbacks.LearningRateScheduler`: set the learning rate each epoch.

`schedule(epoch, lr)` (or `schedule(epoch)`) returns the rate for the epoch
about to start; the logs get "learning_rate" (TF 2.21's key).

>>> import numpy as np
>>> model = tf.keras.Sequential([tf.keras.Input((1,)), tf.keras.layers.Dense(1)])
>>> model.compile(optimizer="sgd", loss="mse")
>>> halve = tf.keras.callbacks.LearningRateScheduler(lambda epoch, lr: 0.1 / 2 ** epoch)
>>> h = model.fit(np.ones((2, 1)), np.ones((2, 1)), epochs=3, verbose=0, callbacks=[halve])
>>> [round(v, 4) for v in h.history["learning_rate"]]
[0.1, 0.05, 0.025]
"""
import numpy as np

from ...framework.tf_export import tf_export
from .callback import Callback


@tf_export("keras.callbacks.LearningRateScheduler")
class LearningRateScheduler(Callback):
    """Call `schedule(epoch, lr)` at each epoch start and use its result."""

    def __init__(self, schedule, verbose=0):
        super().__init__()
        self.schedule = schedule
        self.verbose = verbose

    def on_epoch_begin(self, epoch, logs=None):
        optimizer = self.model.optimizer
        if not hasattr(optimizer, "learning_rate"):
            raise ValueError('Optimizer must have a "learning_rate" attribute.')
        try:  # new API: schedule(epoch, lr)
            learning_rate = float(np.array(optimizer.learning_rate))
            learning_rate = self.schedule(epoch, learning_rate)
        except TypeError:  # old API: schedule(epoch)
            learning_rate = self.schedule(epoch)
        if not isinstance(learning_rate, (float, np.float32, np.float64)):
            raise ValueError(  # noqa: TRY004  (Keras raises ValueError)
                "The output of the `schedule` function should be a float. "
                             f"Got: {learning_rate}")
        optimizer.learning_rate = float(learning_rate)
        if self.verbose > 0:
            print(f"\nEpoch {epoch + 1}: LearningRateScheduler setting learning rate to "
                  f"{learning_rate}.")

    def on_epoch_end(self, epoch, logs=None):
        if logs is not None:
            logs["learning_rate"] = float(np.array(self.model.optimizer.learning_rate))
