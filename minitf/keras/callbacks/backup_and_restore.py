"""`tf.keras.callbacks.BackupAndRestore`: resume an interrupted `fit` where it stopped.

At the end of every epoch (or every `save_freq` batches) the callback writes
the training state into `backup_dir`, in Keras 3's layout:
`latest.weights.h5` (the model's weights and the optimizer's: its
`iterations` counter, learning rate and slots) and `training_metadata.json`
(`{"epoch": epochs done, "batch": last batch seen}`). When `fit` starts, it
reads them back: the weights and optimizer state are restored and `fit`
starts at the saved epoch (Keras keeps it in `model._initial_epoch`, which
wins over `fit`'s `initial_epoch`). When a `fit` completes, the folder is
deleted (unless `delete_checkpoint=False`). With `double_checkpoint=True`
the previous state is kept too (`*.bkp`) and used when the latest one
cannot be read.

>>> import os, tempfile, numpy as np
>>> folder = os.path.join(tempfile.mkdtemp(), "backup")
>>> class Interrupt(tf.keras.callbacks.Callback):
...     def on_epoch_begin(self, epoch, logs=None):
...         if epoch == 2:
...             raise RuntimeError("interrupted")
>>> model = tf.keras.Sequential([tf.keras.Input((1,)), tf.keras.layers.Dense(1)])
>>> model.compile(optimizer="sgd", loss="mse")
>>> backup = tf.keras.callbacks.BackupAndRestore(folder)
>>> x, y = np.ones((4, 1)), np.ones((4, 1))
>>> try:
...     model.fit(x, y, epochs=5, verbose=0, callbacks=[backup, Interrupt()])
... except RuntimeError:
...     print(sorted(os.listdir(folder)))
['latest.weights.h5', 'training_metadata.json']
>>> history = model.fit(x, y, epochs=5, verbose=0, callbacks=[backup])
>>> history.epoch, os.path.exists(folder)
([2, 3, 4], False)
"""
import json
import os
import shutil

from ...framework.atomic_file import atomic_write
from ...framework.tf_export import tf_export
from .callback import Callback


@tf_export("keras.callbacks.BackupAndRestore")
class BackupAndRestore(Callback):
    """Back up the training state every epoch (or `save_freq` batches) and restore it
    when `fit` is called again after an interruption."""

    def __init__(self, backup_dir, save_freq="epoch", double_checkpoint=False,
                 delete_checkpoint=True):
        super().__init__()
        self.save_freq = save_freq
        self.double_checkpoint = double_checkpoint
        self.delete_checkpoint = delete_checkpoint
        self._batches_seen_since_last_saving = 0
        self._last_batch_seen = 0
        self._current_epoch = 0
        if not backup_dir:
            raise ValueError("Empty `backup_dir` argument passed")
        self.backup_dir = os.fspath(backup_dir)
        self._weights_path = os.path.join(self.backup_dir, "latest.weights.h5")
        self._training_metadata_path = os.path.join(self.backup_dir,
                                                    "training_metadata.json")
        self._prev_weights_path = f"{self._weights_path}.bkp"
        self._prev_training_metadata_path = f"{self._training_metadata_path}.bkp"
        if save_freq != "epoch" and not isinstance(save_freq, int):
            raise ValueError("Invalid value for argument `save_freq`. Received: "
                             f"save_freq={save_freq}. Expected either 'epoch' or an "
                             "integer value.")

    def on_train_begin(self, logs=None):
        try:
            self._load_model()
        except (OSError, ValueError):
            # The latest state cannot be read (a damaged file): fall back to the previous one.
            if not os.path.exists(self._prev_weights_path):
                raise
            shutil.copyfile(self._prev_weights_path, self._weights_path)
            if os.path.exists(self._prev_training_metadata_path):
                shutil.copyfile(self._prev_training_metadata_path,
                                self._training_metadata_path)
            elif os.path.exists(self._training_metadata_path):
                os.remove(self._training_metadata_path)
            self._load_model()

    def _load_model(self):
        """Read the training state from `backup_dir`, if there is one."""
        if not self.model.built:
            raise ValueError("To use the BackupAndRestore callback, you model must be built "
                             f"before you call `fit()`. Model {self.model} is unbuilt. You "
                             "can build it beforehand by calling it on a batch of data.")
        if os.path.exists(self._weights_path):
            optimizer = self.model.optimizer
            if optimizer is not None and not optimizer.built:
                # The optimizer's variables must exist before its state can be read in.
                optimizer.build(self.model.trainable_variables)
            self.model.load_weights(self._weights_path)
        if os.path.exists(self._training_metadata_path):
            with open(self._training_metadata_path) as f:
                training_metadata = json.loads(f.read(1 << 16))
            self.model._initial_epoch = training_metadata["epoch"]

    def on_epoch_end(self, epoch, logs=None):
        self._current_epoch = epoch + 1
        self._last_batch_seen = 0
        if self.save_freq == "epoch":
            self._save_model()

    def on_train_batch_end(self, batch, logs=None):
        if self._should_save_on_batch(batch):
            self._save_model()

    def _save_model(self):
        os.makedirs(self.backup_dir, exist_ok=True)
        if self.double_checkpoint:
            for path, prev in ((self._weights_path, self._prev_weights_path),
                               (self._training_metadata_path,
                                self._prev_training_metadata_path)):
                if os.path.exists(path):
                    shutil.copyfile(path, prev)
        self.model.save_weights(self._weights_path, overwrite=True)
        metadata = {"epoch": self._current_epoch, "batch": self._last_batch_seen}
        with atomic_write(self._training_metadata_path) as tmp:
            with open(tmp, "w") as f:
                f.write(json.dumps(metadata))

    def _should_save_on_batch(self, batch):
        """Count batches since the last save (a new epoch restarts `batch` at 0)."""
        if self.save_freq == "epoch":
            return False
        if batch <= self._last_batch_seen:  # a new epoch
            add_batches = batch + 1
        else:
            add_batches = batch - self._last_batch_seen
        self._batches_seen_since_last_saving += add_batches
        self._last_batch_seen = batch
        if self._batches_seen_since_last_saving >= self.save_freq:
            self._batches_seen_since_last_saving = 0
            return True
        return False

    def on_train_end(self, logs=None):
        if self.delete_checkpoint and os.path.exists(self.backup_dir):
            shutil.rmtree(self.backup_dir)
