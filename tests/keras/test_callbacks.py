"""Callbacks: hooks order, History, EarlyStopping, ReduceLROnPlateau, schedulers,
ModelCheckpoint, CSVLogger, TerminateOnNaN, LambdaCallback."""
import os

import numpy as np
import pytest

import minitf as tf


def _model(lr=0.1, kernel="zeros"):
    model = tf.keras.Sequential([tf.keras.Input((1,)), tf.keras.layers.Dense(
        1, kernel_initializer=kernel, bias_initializer="zeros")])
    model.compile(optimizer=tf.keras.optimizers.SGD(lr), loss="mse")
    return model


X = np.linspace(-1, 1, 8).astype("float32")[:, None]
Y = 2 * X


class Recorder(tf.keras.callbacks.Callback):
    def __init__(self):
        super().__init__()
        self.calls = []

    def __getattribute__(self, name):
        if name.startswith("on_"):
            calls = object.__getattribute__(self, "calls")
            return lambda *args, logs=None: calls.append(name)
        return object.__getattribute__(self, name)


def test_every_hook_is_called_in_keras_order():
    model = _model()
    rec = Recorder()
    model.fit(X, Y, batch_size=4, epochs=1, verbose=0, validation_data=(X, Y),
              callbacks=[rec])
    assert rec.calls == [
        "on_train_begin", "on_epoch_begin",
        "on_train_batch_begin", "on_train_batch_end",
        "on_train_batch_begin", "on_train_batch_end",
        "on_test_begin", "on_test_batch_begin", "on_test_batch_end",
        "on_test_batch_begin", "on_test_batch_end", "on_test_end",
        "on_epoch_end", "on_train_end"]
    assert rec.model is model
    assert rec.params == {"verbose": 0, "epochs": 1, "steps": 2}
    rec.calls.clear()
    model.predict(X, batch_size=8, verbose=0, callbacks=[rec])
    assert rec.calls == ["on_predict_begin", "on_predict_batch_begin",
                         "on_predict_batch_end", "on_predict_end"]
    rec.calls.clear()
    model.evaluate(X, Y, batch_size=8, verbose=0, callbacks=[rec])
    assert rec.calls == ["on_test_begin", "on_test_batch_begin", "on_test_batch_end",
                         "on_test_end"]


def test_classic_on_batch_hooks_and_stop_training():
    class StopAfterTwoBatches(tf.keras.callbacks.Callback):
        def on_batch_end(self, batch, logs=None):
            if batch == 1:
                self.model.stop_training = True

    model = _model()
    history = model.fit(X, Y, batch_size=2, epochs=5, verbose=0,
                        callbacks=[StopAfterTwoBatches()])
    assert len(history.history["loss"]) == 1
    assert int(model.optimizer.iterations.numpy()) == 2


def test_early_stopping_stops_and_restores_best_weights():
    val_losses = iter([1.0, 0.5, 0.7, 0.6, 0.8, 0.9, 0.95])
    weights_by_epoch = []

    class FakeValLoss(tf.keras.callbacks.Callback):
        def on_epoch_end(self, epoch, logs=None):
            logs["val_loss"] = next(val_losses)
            weights_by_epoch.append(self.model.get_weights())

    model = _model(lr=0.05)
    stop = tf.keras.callbacks.EarlyStopping(patience=2, restore_best_weights=True)
    history = model.fit(X, Y, epochs=10, verbose=0, callbacks=[FakeValLoss(), stop])
    # best at epoch 1 (0.5); epochs 2 and 3 do not improve -> stop at epoch 3
    assert len(history.history["loss"]) == 4
    assert stop.stopped_epoch == 3 and stop.best == 0.5 and stop.best_epoch == 1
    for restored, best in zip(model.get_weights(), weights_by_epoch[1]):
        np.testing.assert_array_equal(restored, best)


def test_early_stopping_min_delta_baseline_and_start_from_epoch():
    stop = tf.keras.callbacks.EarlyStopping(monitor="loss", min_delta=10.0, patience=1)
    history = _model().fit(X, Y, epochs=6, verbose=0, callbacks=[stop])
    assert len(history.history["loss"]) == 2  # no improvement counts: stop at epoch 1
    stop = tf.keras.callbacks.EarlyStopping(monitor="loss", patience=1, min_delta=1e-3,
                                            start_from_epoch=3)
    history = _model(lr=0.0).fit(X, Y, epochs=8, verbose=0, callbacks=[stop])
    assert len(history.history["loss"]) == 5  # watching starts at epoch 3
    stop = tf.keras.callbacks.EarlyStopping(monitor="loss", patience=2, min_delta=1e-3)
    history = _model(lr=0.0).fit(X, Y, epochs=8, verbose=0, callbacks=[stop])
    assert len(history.history["loss"]) == 3  # best at epoch 0, waits 2 epochs
    stop = tf.keras.callbacks.EarlyStopping(monitor="loss", patience=2, min_delta=1e-3,
                                            baseline=-1.0)
    history = _model(lr=0.0).fit(X, Y, epochs=8, verbose=0, callbacks=[stop])
    assert len(history.history["loss"]) == 2  # epoch 0 did not beat the baseline


def test_early_stopping_mode_auto_needs_a_known_direction():
    stop = tf.keras.callbacks.EarlyStopping(monitor="loss", mode="max", patience=0)
    history = _model().fit(X, Y, epochs=5, verbose=0, callbacks=[stop])
    assert len(history.history["loss"]) == 2  # loss goes down: "max" sees no progress
    stop = tf.keras.callbacks.EarlyStopping(monitor="weird_thing")
    with pytest.raises(ValueError, match="isn't able to automatically determine"):
        _model().fit(X, Y, epochs=1, verbose=0, callbacks=[stop])


def test_reduce_lr_on_plateau_changes_learning_rate_with_cooldown_and_min_lr():
    model = _model(lr=1.0)  # zero weights, zero targets: the loss stays 0
    reduce = tf.keras.callbacks.ReduceLROnPlateau(monitor="loss", factor=0.5, patience=1,
                                                  cooldown=2, min_lr=0.2)
    history = model.fit(X, 0 * Y, epochs=7, verbose=0, callbacks=[reduce])
    assert history.history["learning_rate"] == pytest.approx(
        [1.0, 1.0, 0.5, 0.5, 0.25, 0.25, 0.2])
    assert float(model.optimizer.learning_rate.numpy()) == pytest.approx(0.2)
    with pytest.raises(ValueError, match="does not support a factor >= 1.0"):
        tf.keras.callbacks.ReduceLROnPlateau(factor=2.0)


def test_learning_rate_scheduler_both_signatures():
    model = _model()
    sched = tf.keras.callbacks.LearningRateScheduler(lambda epoch: 0.1 * (epoch + 1))
    history = model.fit(X, Y, epochs=3, verbose=0, callbacks=[sched])
    assert history.history["learning_rate"] == pytest.approx([0.1, 0.2, 0.3])
    bad = tf.keras.callbacks.LearningRateScheduler(lambda epoch, lr: "fast")
    with pytest.raises(ValueError, match="should be a float"):
        model.fit(X, Y, epochs=1, verbose=0, callbacks=[bad])


def test_model_checkpoint_files_and_save_best_only(tmp_path):
    model = _model()
    path = str(tmp_path / "ckpt-{epoch:02d}-{loss:.2f}.weights.h5")
    ckpt = tf.keras.callbacks.ModelCheckpoint(path, save_weights_only=True)
    history = model.fit(X, Y, epochs=2, verbose=0, callbacks=[ckpt])
    names = sorted(os.listdir(tmp_path))
    assert names == [f"ckpt-{e + 1:02d}-{loss:.2f}.weights.h5"
                     for e, loss in enumerate(history.history["loss"])]
    clone = _model()
    clone.load_weights(str(tmp_path / names[-1]))
    for a, b in zip(clone.get_weights(), model.get_weights()):
        np.testing.assert_array_equal(a, b)

    val_losses = iter([1.0, 2.0, 0.5])

    class FakeValLoss(tf.keras.callbacks.Callback):
        def on_epoch_end(self, epoch, logs=None):
            logs["val_loss"] = next(val_losses)

    best = tmp_path / "best"
    ckpt = tf.keras.callbacks.ModelCheckpoint(str(best / "e{epoch}.weights.h5"),
                                              save_best_only=True, save_weights_only=True)
    model.fit(X, Y, epochs=3, verbose=0, callbacks=[FakeValLoss(), ckpt])
    assert sorted(os.listdir(best)) == ["e1.weights.h5", "e3.weights.h5"]
    with pytest.raises(ValueError, match="must end in `.weights.h5`"):
        tf.keras.callbacks.ModelCheckpoint("w.h5", save_weights_only=True)
    with pytest.raises(ValueError, match="must end in `.keras`"):
        tf.keras.callbacks.ModelCheckpoint("model.weights.h5")  # whole models: .keras


def test_model_checkpoint_saves_whole_models_that_load_and_resume(tmp_path):
    model = _model()
    path = str(tmp_path / "best.keras")
    ckpt = tf.keras.callbacks.ModelCheckpoint(path, monitor="loss", save_best_only=True)
    model.fit(X, Y, epochs=3, verbose=0, callbacks=[ckpt])
    restored = tf.keras.models.load_model(path)
    assert restored.compiled and restored.optimizer.iterations.numpy() > 0
    for a, b in zip(restored.get_weights(), model.get_weights()):
        np.testing.assert_array_equal(a, b)  # the loss fell every epoch: the last is best


def test_csv_logger_content(tmp_path):
    path = tmp_path / "log.csv"
    model = _model()
    history = model.fit(X, Y, epochs=2, verbose=0, validation_data=(X, Y),
                        callbacks=[tf.keras.callbacks.CSVLogger(str(path))])
    lines = path.read_text().splitlines()
    assert lines[0] == "epoch,loss,val_loss"
    for epoch, line in enumerate(lines[1:]):
        cells = line.split(",")
        assert cells[0] == str(epoch)
        assert float(cells[1]) == pytest.approx(history.history["loss"][epoch])
        assert float(cells[2]) == pytest.approx(history.history["val_loss"][epoch])
    model.fit(X, Y, epochs=1, verbose=0, validation_data=(X, Y),
              callbacks=[tf.keras.callbacks.CSVLogger(str(path), separator=";", append=True)])
    lines = path.read_text().splitlines()
    assert len(lines) == 4 and lines[3].startswith("0;")


def test_terminate_on_nan(capsys):
    model = _model()
    x = X.copy()
    x[4:] = np.inf
    history = model.fit(x, Y, batch_size=4, epochs=3, verbose=0, shuffle=False,
                        callbacks=[tf.keras.callbacks.TerminateOnNaN()])
    assert "Batch 1: Invalid loss, terminating training" in capsys.readouterr().out
    assert len(history.history["loss"]) == 1
    assert int(model.optimizer.iterations.numpy()) == 2


def test_lambda_callback_and_unknown_hook():
    events = []
    cb = tf.keras.callbacks.LambdaCallback(
        on_train_begin=lambda logs: events.append("begin"),
        on_epoch_end=lambda epoch, logs: events.append(("epoch", epoch, sorted(logs))),
        on_train_end=lambda logs: events.append("end"))
    _model().fit(X, Y, epochs=2, verbose=0, callbacks=[cb])
    assert events == ["begin", ("epoch", 0, ["loss"]), ("epoch", 1, ["loss"]), "end"]
    with pytest.raises(ValueError, match="Unrecognized callback hook: on_banana"):
        tf.keras.callbacks.LambdaCallback(on_banana=print)


def test_history_and_callback_list():
    history = tf.keras.callbacks.History()
    callbacks = tf.keras.callbacks.CallbackList([history], add_progbar=True)
    assert [type(c).__name__ for c in callbacks] == ["History", "ProgbarLogger"]
    model = _model()
    result = model.fit(X, Y, epochs=2, verbose=0, callbacks=[history])
    assert result is history and history.epoch == [0, 1]
    assert len(history.history["loss"]) == 2


def test_fit_with_no_epochs_left_still_returns_history():
    model = _model()
    history = model.fit(X, Y, epochs=2, initial_epoch=2, verbose=0)
    assert isinstance(history, tf.keras.callbacks.History) and history.history == {}
    history = model.fit(X, Y, epochs=3, initial_epoch=1, verbose=0)
    assert history.epoch == [1, 2]
