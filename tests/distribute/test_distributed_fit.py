"""model.fit under strategy.scope(): N replicas give the weights one device gives on the
full batch, and each replica sees only its shard."""
import contextlib
import threading

import numpy as np
import pytest

import minitf as tf
from minitf.framework import device


@pytest.fixture(autouse=True)
def four_cpus():
    device._reset()
    cpu = tf.config.list_physical_devices("CPU")[0]
    tf.config.set_logical_device_configuration(cpu, [tf.config.LogicalDeviceConfiguration()] * 4)
    yield
    device._reset()


class Recorder(tf.keras.layers.Layer):
    """Passes x through; notes which thread and device saw how many rows."""

    def __init__(self, seen, **kwargs):
        super().__init__(**kwargs)
        self.seen = seen

    def call(self, x):
        y = tf.identity(x)
        if tf.executing_eagerly():  # distributed replicas run eagerly; skip symbolic builds
            self.seen.append((threading.current_thread().name, y.device, x.numpy().tolist()))
        return y


def make_model(seen):
    tf.keras.utils.set_random_seed(3)
    return tf.keras.Sequential([tf.keras.Input((3,)), Recorder(seen),
                                tf.keras.layers.Dense(4, activation="tanh"),
                                tf.keras.layers.Dense(2)])


def data():
    rng = np.random.default_rng(0)
    return rng.normal(size=(16, 3)).astype("float32"), rng.normal(size=(16, 2)).astype("float32")


def train(strategy, optimizer="sgd"):
    seen = []
    x, y = data()
    if strategy is None:
        model = make_model(seen)
        model.compile(optimizer=optimizer, loss="mse", metrics=["mae"])
    else:
        with strategy.scope():
            model = make_model(seen)
            model.compile(optimizer=optimizer, loss="mse", metrics=["mae"])
    history = model.fit(x, y, batch_size=8, epochs=2, shuffle=False, verbose=0)
    return model, history, seen


@pytest.mark.parametrize("replicas", [2, 4])
@pytest.mark.parametrize("optimizer", ["sgd", "adam"])
def test_replicas_train_like_one_device(replicas, optimizer):
    single, single_history, _ = train(None, optimizer)
    strategy = tf.distribute.MirroredStrategy([f"/cpu:{i}" for i in range(replicas)])
    model, history, seen = train(strategy, optimizer)
    # fit's first-batch build calls the model once in the main thread (training=False)
    assert [s[0] for s in seen].count("MainThread") == 1
    seen = [s for s in seen if s[0] != "MainThread"]
    assert type(model.layers[1].kernel).__name__ == "MirroredVariable"
    for w, w1 in zip(model.weights, single.weights):
        np.testing.assert_allclose(w.numpy(), w1.numpy(), rtol=1e-5, atol=1e-6)
        for copy in w.values:  # every replica's copy got the same update
            np.testing.assert_array_equal(copy.numpy(), w.values[0].numpy())
    np.testing.assert_allclose(history.history["loss"], single_history.history["loss"],
                               rtol=1e-5)
    np.testing.assert_allclose(history.history["mae"], single_history.history["mae"],
                               rtol=1e-5)
    # 2 epochs x 2 batches of 8 rows, each cut into `replicas` shards, one per thread
    x, _ = data()
    shard = 8 // replicas
    assert len(seen) == 4 * replicas
    for name, dev, rows in seen:
        i = int(name.rsplit("_", 1)[1])
        assert dev == f"/job:localhost/replica:0/task:0/device:CPU:{i}"
        assert len(rows) == shard
        start = int(np.flatnonzero((x == np.float32(rows[0])).all(axis=1))[0])
        assert start % 8 == i * shard  # replica i got rows [i*shard, (i+1)*shard) of its batch


def test_without_scope_fit_is_unchanged():
    model, _, seen = train(None)
    assert [s[0] for s in seen] == ["MainThread"]  # the build; then one traced step function
    assert type(model.layers[1].kernel) is tf.keras.Variable


def test_short_last_batch_leaves_a_replica_empty():
    # 9 rows in batches of 8: the last batch is 1 row, so replica 1 gets none and adds zero
    # gradients; the logged loss is still the mean over the rows (as in Keras on TF).
    x, y = data()
    histories, weights = [], []
    for strategy in (None, tf.distribute.MirroredStrategy(["/cpu:0", "/cpu:1"])):
        tf.keras.utils.set_random_seed(1)
        with strategy.scope() if strategy else contextlib.nullcontext():
            model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2)])
            model.compile(optimizer="sgd", loss="mse")
        histories.append(model.fit(x[:9], y[:9], batch_size=8, shuffle=False,
                                   verbose=0).history["loss"])
        weights.append(model.get_weights()[0])
    np.testing.assert_allclose(histories[0], histories[1], rtol=1e-5)
    assert np.isfinite(weights[1]).all()
    # the lone row's loss counts half (scaled by 1/replicas), so the weights differ
    assert not np.allclose(weights[0], weights[1], rtol=1e-6, atol=1e-7)
