"""`tf.keras.callbacks.EarlyStopping`: stop `fit` when the monitored value stalls.

After `patience` epochs without an improvement of at least `min_delta`,
training stops; `restore_best_weights=True` then puts back the weights of the
best epoch (Keras 3 rule: also when training ran to the last epoch).

>>> import numpy as np
>>> model = tf.keras.Sequential([tf.keras.Input((1,)), tf.keras.layers.Dense(1)])
>>> model.compile(optimizer=tf.keras.optimizers.SGD(0.0), loss="mse")  # never improves
>>> stop = tf.keras.callbacks.EarlyStopping(monitor="loss", patience=2)
>>> history = model.fit(np.ones((4, 1)), np.ones((4, 1)), epochs=10, verbose=0,
...                     callbacks=[stop])
>>> len(history.history["loss"]), stop.stopped_epoch
(3, 2)
"""
import warnings

from ...framework.tf_export import tf_export
from .monitor_callback import MonitorCallback


@tf_export("keras.callbacks.EarlyStopping")
class EarlyStopping(MonitorCallback):
    """Stop training when `monitor` has not improved for `patience` epochs."""

    def __init__(self, monitor="val_loss", min_delta=0, patience=0, verbose=0, mode="auto",
                 baseline=None, restore_best_weights=False, start_from_epoch=0):
        super().__init__(monitor, mode, min_delta=min_delta)
        self.patience = patience
        self.verbose = verbose
        self.baseline = baseline
        self.wait = 0
        self.stopped_epoch = 0
        self.restore_best_weights = restore_best_weights
        self.best_weights = None
        self.start_from_epoch = start_from_epoch

    def on_train_begin(self, logs=None):
        self.wait = 0
        self.stopped_epoch = 0
        self.best = None
        self.best_weights = None
        self.best_epoch = 0

    def on_epoch_end(self, epoch, logs=None):
        if self.monitor_op is None:
            self._set_monitor_op()
        current = self.get_monitor_value(logs)
        if current is None or epoch < self.start_from_epoch:
            return
        if self.restore_best_weights and self.best_weights is None:
            self.best_weights = self.model.get_weights()
            self.best_epoch = epoch
        self.wait += 1
        if self._is_improvement(current, self.best):
            self.best = current
            self.best_epoch = epoch
            if self.restore_best_weights:
                self.best_weights = self.model.get_weights()
            if self.baseline is None or self._is_improvement(current, self.baseline):
                self.wait = 0
            return
        if self.wait >= self.patience and epoch > 0:
            self.stopped_epoch = epoch
            self.model.stop_training = True

    def on_train_end(self, logs=None):
        if self.stopped_epoch > 0 and self.verbose > 0:
            print(f"Epoch {self.stopped_epoch + 1}: early stopping")
        if self.restore_best_weights and self.best_weights is not None:
            if self.verbose > 0:
                print("Restoring model weights from the end of the best epoch: "
                      f"{self.best_epoch + 1}.")
            self.model.set_weights(self.best_weights)

    def get_monitor_value(self, logs):
        logs = logs or {}
        value = logs.get(self.monitor)
        if value is None:
            warnings.warn(f"Early stopping conditioned on metric `{self.monitor}` which is "
                          f"not available. Available metrics are: {','.join(list(logs))}",
                          stacklevel=2)
        return value
