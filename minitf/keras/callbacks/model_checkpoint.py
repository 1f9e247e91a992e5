"""`tf.keras.callbacks.ModelCheckpoint`: save the model (or its weights) during `fit`.

`filepath` may hold format fields filled from the epoch (1-based) and the
logs: "ckpt-{epoch:02d}-{val_loss:.2f}.keras". With `save_best_only=True` a
file is written only when `monitor` improves. By default the whole model is
saved (`model.save`, a `.keras` file); with `save_weights_only=True` only the
weights (`model.save_weights`, a `.weights.h5` file). Both are written to a
temporary file and renamed, so a crash mid-save never leaves a truncated
checkpoint in place of the previous one.

>>> import os, tempfile, numpy as np
>>> folder = tempfile.mkdtemp()
>>> model = tf.keras.Sequential([tf.keras.Input((1,)), tf.keras.layers.Dense(1)])
>>> model.compile(optimizer="sgd", loss="mse")
>>> ckpt = tf.keras.callbacks.ModelCheckpoint(
...     os.path.join(folder, "e{epoch:02d}.weights.h5"), save_weights_only=True)
>>> _ = model.fit(np.ones((2, 1)), np.ones((2, 1)), epochs=2, verbose=0, callbacks=[ckpt])
>>> sorted(os.listdir(folder))
['e01.weights.h5', 'e02.weights.h5']
"""
import os
import warnings

from ...framework.tf_export import tf_export
from ..engine.saving import SUFFIX
from .monitor_callback import MonitorCallback


@tf_export("keras.callbacks.ModelCheckpoint")
class ModelCheckpoint(MonitorCallback):
    """Save the model (or only its weights) every epoch, or every `save_freq` batches."""

    def __init__(self, filepath, monitor="val_loss", verbose=0, save_best_only=False,
                 save_weights_only=False, mode="auto", save_freq="epoch",
                 initial_value_threshold=None):
        super().__init__(monitor, mode, initial_value_threshold)
        self.filepath = os.fspath(filepath)
        self.verbose = verbose
        self.save_best_only = save_best_only
        self.save_weights_only = save_weights_only
        self.save_freq = save_freq
        self._batches_seen_since_last_saving = 0
        self._current_epoch = 0
        if save_freq != "epoch" and not isinstance(save_freq, int):
            raise ValueError(f"Unrecognized save_freq: {save_freq}. Expected save_freq are "
                             "'epoch' or integer values")
        if save_weights_only and not self.filepath.endswith(SUFFIX):
            raise ValueError("When using `save_weights_only=True` in `ModelCheckpoint`, the "
                             f"filepath provided must end in `{SUFFIX}` (Keras weights "
                             f"format). Received: filepath={self.filepath}")
        if not save_weights_only and not self.filepath.endswith(".keras"):
            raise ValueError("The filepath provided must end in `.keras` (Keras model "
                             f"format). Received: filepath={self.filepath}")

    def on_epoch_begin(self, epoch, logs=None):
        self._current_epoch = epoch

    def on_train_batch_end(self, batch, logs=None):
        if isinstance(self.save_freq, int):
            self._batches_seen_since_last_saving += 1
            if self._batches_seen_since_last_saving >= self.save_freq:
                self._batches_seen_since_last_saving = 0
                self._save_model(self._current_epoch, batch, logs)

    def on_epoch_end(self, epoch, logs=None):
        if self.monitor_op is None and self.save_best_only:
            self._set_monitor_op()
        if self.save_freq == "epoch":
            self._save_model(epoch, None, logs)

    def _should_save_model(self, epoch, logs, filepath):
        if not self.save_best_only:
            return True
        current = (logs or {}).get(self.monitor)
        if current is None:
            warnings.warn(f"Can save best model only with {self.monitor} available.",
                          stacklevel=2)
            return False
        if self._is_improvement(current, self.best):
            if self.verbose > 0:
                print(f"\nEpoch {epoch + 1}: {self.monitor} improved from {self.best} to "
                      f"{current}, saving model to {filepath}")
            self.best = current
            return True
        if self.verbose > 0:
            print(f"\nEpoch {epoch + 1}: {self.monitor} did not improve from {self.best}")
        return False

    def _save_model(self, epoch, batch, logs):
        filepath = self._get_file_path(epoch, batch, logs)
        if self.monitor_op is None and self.save_best_only:
            self._set_monitor_op()
        if os.path.isdir(filepath):
            raise OSError("Please specify a non-directory filepath for ModelCheckpoint. "
                          f"Filepath used is an existing directory: {filepath}")
        if self._should_save_model(epoch, logs, filepath):
            dirname = os.path.dirname(filepath)
            if dirname and not os.path.exists(dirname):
                os.makedirs(dirname)
            if self.save_weights_only:
                self.model.save_weights(filepath, overwrite=True)
            else:
                self.model.save(filepath, overwrite=True)
            if self.verbose > 0 and not self.save_best_only:
                print(f"\nEpoch {epoch + 1}: finished saving model to {filepath}")

    def _get_file_path(self, epoch, batch, logs):
        try:
            if batch is None or "batch" in (logs or {}):
                return self.filepath.format(epoch=epoch + 1, **(logs or {}))
            return self.filepath.format(epoch=epoch + 1, batch=batch + 1, **(logs or {}))
        except KeyError as e:
            raise KeyError(f'Failed to format this callback filepath: "{self.filepath}". '
                           f"Reason: {e}. The fields in braces must be `epoch`, `batch` or "
                           f"keys of the logs: {list(logs or {})}.")
