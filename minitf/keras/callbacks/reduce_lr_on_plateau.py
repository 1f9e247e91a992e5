"""`tf.keras.callbacks.ReduceLROnPlateau`: lower the learning rate when stuck.

After `patience` epochs without improvement, multiply the optimizer's
learning rate by `factor` (never below `min_lr`), then wait `cooldown`
epochs before counting again. Every epoch's logs get "learning_rate".

>>> import numpy as np
>>> model = tf.keras.Sequential([tf.keras.Input((1,)), tf.keras.layers.Dense(1)])
>>> model.compile(optimizer=tf.keras.optimizers.SGD(0.0), loss="mse")  # never improves
>>> reduce = tf.keras.callbacks.ReduceLROnPlateau(monitor="loss", factor=0.5, patience=1)
>>> model.optimizer.learning_rate.assign(0.8)  # doctest: +ELLIPSIS
<...>
>>> h = model.fit(np.ones((2, 1)), np.ones((2, 1)), epochs=3, verbose=0, callbacks=[reduce])
>>> [round(v, 3) for v in h.history["learning_rate"]]
[0.8, 0.8, 0.4]
"""
import warnings

import numpy as np

from ...framework.tf_export import tf_export
from .monitor_callback import MonitorCallback


@tf_export("keras.callbacks.ReduceLROnPlateau")
class ReduceLROnPlateau(MonitorCallback):
    """Multiply the learning rate by `factor` when `monitor` plateaus."""

    def __init__(self, monitor="val_loss", factor=0.1, patience=10, verbose=0, mode="auto",
                 min_delta=1e-4, cooldown=0, min_lr=0.0, **kwargs):
        super().__init__(monitor, mode, min_delta=min_delta)
        if factor >= 1.0:
            raise ValueError("ReduceLROnPlateau does not support a factor >= 1.0. Received "
                             f"factor={factor}. A factor below 1 makes the rate smaller.")
        self.factor = factor
        self.min_lr = min_lr
        self.patience = patience
        self.verbose = verbose
        self.cooldown = cooldown
        self.cooldown_counter = 0
        self.wait = 0

    def _reset(self):
        self.cooldown_counter = 0
        self.wait = 0

    def on_train_begin(self, logs=None):
        self._reset()

    def in_cooldown(self):
        return self.cooldown_counter > 0

    def on_epoch_end(self, epoch, logs=None):
        if self.monitor_op is None:
            self._set_monitor_op()
        logs = logs if logs is not None else {}
        logs["learning_rate"] = float(np.array(self.model.optimizer.learning_rate))
        current = logs.get(self.monitor)
        if current is None:
            warnings.warn("Learning rate reduction is conditioned on metric "
                          f"`{self.monitor}` which is not available. Available metrics are: "
                          f"{','.join(list(logs))}.", stacklevel=2)
            return
        if self.in_cooldown():
            self.cooldown_counter -= 1
            self.wait = 0
        if self._is_improvement(current, self.best):
            self.best = current
            self.wait = 0
        elif not self.in_cooldown():
            self.wait += 1
            if self.wait >= self.patience:
                self._reduce_lr(epoch)

    def _reduce_lr(self, epoch):
        old_lr = float(np.array(self.model.optimizer.learning_rate))
        if old_lr > np.float32(self.min_lr):
            new_lr = max(old_lr * self.factor, self.min_lr)
            self.model.optimizer.learning_rate = new_lr
            if self.verbose > 0:
                print(f"\nEpoch {epoch + 1}: ReduceLROnPlateau reducing learning rate to "
                      f"{new_lr}.")
            self.cooldown_counter = self.cooldown
            self.wait = 0
