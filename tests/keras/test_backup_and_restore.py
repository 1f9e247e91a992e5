"""BackupAndRestore: an interrupted fit resumed at the right epoch with the right weights,
optimizer state and epoch counter; Keras 3's files; bad arguments; real TF's behaviour."""
import json
import os
import tempfile

import numpy as np
import pytest

import minitf as tf
from real_tf import run_tf_json

X = np.linspace(-1, 1, 12).astype("float32").reshape(6, 2)
Y = (X @ np.array([[1.5], [-2.0]], np.float32) + 0.5).astype("float32")


def _model():
    model = tf.keras.Sequential([
        tf.keras.Input((2,)),
        tf.keras.layers.Dense(3, activation="tanh", kernel_initializer="ones",
                              bias_initializer="zeros"),
        tf.keras.layers.Dense(1, kernel_initializer="ones", bias_initializer="zeros")])
    model.compile(optimizer=tf.keras.optimizers.Adam(0.05), loss="mse")
    return model


class Interrupt(tf.keras.callbacks.Callback):
    """Raise at the start of epoch `at` (or after batch `batch` of that epoch)."""

    def __init__(self, at, batch=None):
        super().__init__()
        self.at, self.batch, self.epoch = at, batch, None

    def on_epoch_begin(self, epoch, logs=None):
        self.epoch = epoch
        if epoch == self.at and self.batch is None:
            raise RuntimeError("interrupted")

    def on_train_batch_end(self, batch, logs=None):
        if self.epoch == self.at and batch == self.batch:
            raise RuntimeError("interrupted")


def _fit(model, callbacks, epochs=6):
    return model.fit(X, Y, epochs=epochs, batch_size=2, shuffle=False, verbose=0,
                     callbacks=callbacks)


def _interrupted(folder, at, batch=None, **kwargs):
    model = _model()
    with pytest.raises(RuntimeError, match="interrupted"):
        _fit(model, [tf.keras.callbacks.BackupAndRestore(folder, **kwargs),
                     Interrupt(at, batch)])
    return model


def test_resumed_fit_equals_the_uninterrupted_one(tmp_path):
    folder = str(tmp_path / "backup")
    straight = _model()
    full = _fit(straight, [])
    _interrupted(folder, at=3)
    assert sorted(os.listdir(folder)) == ["latest.weights.h5", "training_metadata.json"]
    with open(os.path.join(folder, "training_metadata.json")) as f:
        assert json.load(f) == {"epoch": 3, "batch": 0}
    resumed = _model()  # a new process would build a fresh model: nothing carried over
    history = _fit(resumed, [tf.keras.callbacks.BackupAndRestore(folder)])
    assert history.epoch == [3, 4, 5]
    np.testing.assert_allclose(history.history["loss"], full.history["loss"][3:], atol=1e-6)
    for a, b in zip(resumed.get_weights(), straight.get_weights()):
        np.testing.assert_allclose(a, b, atol=1e-6)
    # The optimizer's state came back too: its step counter and Adam's moments.
    assert int(resumed.optimizer.iterations.numpy()) == 18
    for a, b in zip(resumed.optimizer.variables, straight.optimizer.variables):
        np.testing.assert_allclose(np.asarray(a.numpy()), np.asarray(b.numpy()), atol=1e-6)
    assert not os.path.exists(folder)  # a completed fit deletes the backup


def test_without_the_optimizer_state_the_resumed_run_would_differ(tmp_path):
    """The comparison above can fail: restoring only the layers' weights gives other numbers."""
    folder = str(tmp_path / "backup")
    straight = _model()
    _fit(straight, [])
    interrupted = _interrupted(folder, at=3)
    resumed = _model()
    resumed.set_weights(interrupted.get_weights())
    resumed.fit(X, Y, epochs=6, initial_epoch=3, batch_size=2, shuffle=False, verbose=0)
    gap = max(np.abs(a - b).max() for a, b in zip(resumed.get_weights(),
                                                  straight.get_weights()))
    assert gap > 1e-4


def test_save_freq_in_batches_records_the_last_batch(tmp_path):
    folder = str(tmp_path / "backup")
    _interrupted(folder, at=2, batch=1, save_freq=2)
    with open(os.path.join(folder, "training_metadata.json")) as f:
        # 3 batches an epoch, a save every 2: after batch 1 of epoch 0, batches 0 and 2
        # of epoch 1, batch 1 of epoch 2 (then the interruption).
        assert json.load(f) == {"epoch": 2, "batch": 1}


def test_delete_checkpoint_false_keeps_the_backup(tmp_path):
    folder = str(tmp_path / "backup")
    model = _model()
    history = _fit(model, [tf.keras.callbacks.BackupAndRestore(folder, delete_checkpoint=False)])
    assert history.epoch == list(range(6))
    with open(os.path.join(folder, "training_metadata.json")) as f:
        assert json.load(f)["epoch"] == 6


def test_double_checkpoint_falls_back_to_the_previous_state(tmp_path):
    folder = str(tmp_path / "backup")
    _interrupted(folder, at=3, double_checkpoint=True)
    assert sorted(os.listdir(folder)) == [
        "latest.weights.h5", "latest.weights.h5.bkp",
        "training_metadata.json", "training_metadata.json.bkp"]
    with open(os.path.join(folder, "latest.weights.h5"), "wb") as f:
        f.write(b"damaged")
    history = _fit(_model(), [tf.keras.callbacks.BackupAndRestore(folder)])
    assert history.epoch == [2, 3, 4, 5]  # the previous state: two epochs done


def test_a_damaged_backup_without_a_previous_one_is_an_error(tmp_path):
    folder = str(tmp_path / "backup")
    _interrupted(folder, at=1)
    with open(os.path.join(folder, "latest.weights.h5"), "wb") as f:
        f.write(b"damaged")
    with pytest.raises(ValueError, match="truncated or corrupt"):
        _fit(_model(), [tf.keras.callbacks.BackupAndRestore(folder)])


def test_bad_arguments_are_errors_as_in_keras(tmp_path):
    with pytest.raises(ValueError, match="Empty `backup_dir` argument passed"):
        tf.keras.callbacks.BackupAndRestore("")
    with pytest.raises(ValueError, match="Expected either 'epoch' or an integer value"):
        tf.keras.callbacks.BackupAndRestore(str(tmp_path), save_freq="batch")


def test_an_unbuilt_model_is_an_error(tmp_path):
    model = tf.keras.Sequential([tf.keras.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
    with pytest.raises(ValueError, match="must be built before you call `fit"):
        model.fit(X, Y, epochs=1, verbose=0,
                  callbacks=[tf.keras.callbacks.BackupAndRestore(str(tmp_path / "b"))])


TF_SNIPPET = """
import json, os, tempfile
import numpy as np
import tensorflow as tf
X = np.linspace(-1, 1, 12).astype("float32").reshape(6, 2)
Y = (X @ np.array([[1.5], [-2.0]], np.float32) + 0.5).astype("float32")
def model_():
    m = tf.keras.Sequential([tf.keras.Input((2,)),
        tf.keras.layers.Dense(3, activation="tanh", kernel_initializer="ones"),
        tf.keras.layers.Dense(1, kernel_initializer="ones")])
    m.compile(optimizer=tf.keras.optimizers.Adam(0.05), loss="mse")
    return m
class Interrupt(tf.keras.callbacks.Callback):
    def on_epoch_begin(self, epoch, logs=None):
        if epoch == 3:
            raise RuntimeError("interrupted")
folder = os.path.join(tempfile.mkdtemp(), "backup")
try:
    model_().fit(X, Y, epochs=6, batch_size=2, shuffle=False, verbose=0,
                 callbacks=[tf.keras.callbacks.BackupAndRestore(folder), Interrupt()])
except RuntimeError:
    pass
files = sorted(os.listdir(folder))
metadata = json.load(open(os.path.join(folder, "training_metadata.json")))
m = model_()
h = m.fit(X, Y, epochs=6, batch_size=2, shuffle=False, verbose=0,
          callbacks=[tf.keras.callbacks.BackupAndRestore(folder)])
errors = []
for kwargs in ({"backup_dir": ""}, {"backup_dir": folder, "save_freq": "batch"}):
    try:
        tf.keras.callbacks.BackupAndRestore(**kwargs)
    except ValueError as e:
        errors.append(str(e))
print(json.dumps({"files": files, "metadata": metadata, "epoch": h.epoch,
                  "loss": h.history["loss"], "exists": os.path.exists(folder),
                  "iterations": int(m.optimizer.iterations.numpy()),
                  "weights": [w.tolist() for w in m.get_weights()], "errors": errors}))
"""


def test_matches_real_tf():
    theirs = run_tf_json(TF_SNIPPET)
    folder = os.path.join(tempfile.mkdtemp(), "backup")
    _interrupted(folder, at=3)
    assert sorted(os.listdir(folder)) == theirs["files"]
    with open(os.path.join(folder, "training_metadata.json")) as f:
        assert json.load(f) == theirs["metadata"]
    model = _model()
    history = _fit(model, [tf.keras.callbacks.BackupAndRestore(folder)])
    assert history.epoch == theirs["epoch"]
    assert os.path.exists(folder) is theirs["exists"]
    assert int(model.optimizer.iterations.numpy()) == theirs["iterations"]
    np.testing.assert_allclose(history.history["loss"], theirs["loss"], rtol=1e-5)
    for a, b in zip(model.get_weights(), theirs["weights"]):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
    errors = []
    for kwargs in ({"backup_dir": ""}, {"backup_dir": folder, "save_freq": "batch"}):
        with pytest.raises(ValueError) as caught:
            tf.keras.callbacks.BackupAndRestore(**kwargs)
        errors.append(str(caught.value))
    assert errors == theirs["errors"]
