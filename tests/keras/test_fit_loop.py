"""The parts of fit's loop that keep its per-batch overhead small (benchmarks/keras_fit.py
measures the speed; these tests check the behaviour stays exactly Keras's)."""
import collections

import numpy as np
import pytest

import minitf as tf
from minitf.keras.engine.step_function import FlatStepFunction, flatten_batch, rebuild_batch
from minitf.keras.utils import data_adapter


@pytest.mark.parametrize("data", [
    (np.ones((2, 3)), np.zeros(2)),
    ([np.ones(2), np.ones(2)], {"b": np.ones(1), "a": np.zeros(1)}, None),
    ({"x": (np.ones(1), [np.ones(1)])},),
])
def test_flatten_then_rebuild_gives_the_same_structure(data):
    key, tensors = flatten_batch(data)
    assert all(isinstance(t, tf.Tensor) for t in tensors)
    rebuilt = rebuild_batch(key, tensors)
    assert tf.nest.map_structure(lambda v: None, rebuilt) == \
        tf.nest.map_structure(lambda v: None, data)
    for a, b in zip(tf.nest.flatten(rebuilt), tf.nest.flatten(data)):
        if b is None:
            assert a is None
        else:
            np.testing.assert_array_equal(a.numpy(), b)


def test_float64_numpy_leaves_become_float32_like_keras():
    _, tensors = flatten_batch((np.ones((2, 2)), np.arange(2)))
    assert tensors[0].dtype == tf.float32 and tensors[1].dtype == tf.int64


def test_flat_step_function_traces_once_per_structure_and_shape():
    calls = []

    def step(data):
        calls.append(1)
        return data[0] * 2.0

    function = FlatStepFunction(step)
    for _ in range(3):
        assert function((tf.ones([2]), tf.zeros([2]))).numpy().tolist() == [2.0, 2.0]
    assert function.experimental_get_tracing_count() == 1 and len(calls) == 1
    function((tf.ones([3]), tf.zeros([3])))              # a new shape: a new trace
    function([tf.ones([2]), tf.zeros([2])])              # a list, not a tuple: a new structure
    assert function.experimental_get_tracing_count() == 3
    Pair = collections.namedtuple("Pair", "a b")
    assert function(Pair(tf.ones([2]), tf.zeros([2]))).numpy().tolist() == [2.0, 2.0]


def test_fit_traces_the_train_step_once_per_batch_shape():
    x, y = np.ones((70, 3), "float32"), np.zeros((70, 1), "float32")
    model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
    model.fit(x, y, batch_size=32, epochs=3, verbose=0)   # batches of 32, 32 and 6
    assert model.train_function.experimental_get_tracing_count() == 2


def test_loss_tracker_weights_batches_by_their_size():
    """With lr=0 the epoch loss is the per-example mean, though the last batch is short."""
    x = np.arange(10, dtype="float32")[:, None]
    model = tf.keras.Sequential([tf.keras.Input((1,)), tf.keras.layers.Dense(
        1, kernel_initializer="zeros", bias_initializer="zeros")])
    model.compile(optimizer=tf.keras.optimizers.SGD(0.0), loss="mse")
    history = model.fit(x, x, batch_size=4, epochs=1, shuffle=False, verbose=0)
    assert history.history["loss"][0] == pytest.approx(np.mean(x ** 2))   # 28.5, not 32.8...
    assert model.evaluate(x, x, batch_size=3, verbose=0) == pytest.approx(28.5)


def test_array_batches_match_a_manual_shuffle_and_do_not_share_memory():
    x = np.arange(20, dtype="float32").reshape(10, 2)
    y = np.arange(10)
    np.random.seed(3)
    batches = list(data_adapter.get_data_adapter(x, y, None, 4, None, True).get_iterator())
    np.random.seed(3)
    order = np.random.permutation(10)
    assert [b[1].numpy().tolist() for b in batches] == \
        [order[:4].tolist(), order[4:8].tolist(), order[8:].tolist()]
    plain = list(data_adapter.get_data_adapter(x, y, None, 4, None, False).get_iterator())
    x[:] = -1                                           # the user's array changes later
    assert plain[0][0].numpy()[0].tolist() == [0.0, 1.0]


def test_array_batches_keep_keras_structure():
    x, w = np.ones((5, 2), "float32"), np.full(5, 2.0)
    only_x = next(data_adapter.get_data_adapter(x, None, None, 2).get_iterator())
    assert len(only_x) == 1
    with_weights = next(data_adapter.get_data_adapter(x, None, w, 2).get_iterator())
    assert len(with_weights) == 3 and with_weights[1] is None
    assert with_weights[2].numpy().tolist() == [2.0, 2.0]


def test_batch_hooks_are_called_only_when_some_callback_uses_them():
    history = tf.keras.callbacks.History()
    assert not tf.keras.callbacks.CallbackList([history]).overrides("on_train_batch_end")

    class Classic(tf.keras.callbacks.Callback):       # the tf.keras 1 name of the hook
        def on_batch_end(self, batch, logs=None):
            self.seen = logs

    class Modern(tf.keras.callbacks.Callback):
        def __init__(self):
            super().__init__()
            self.losses = []

        def on_train_batch_end(self, batch, logs=None):
            self.losses.append(logs["loss"])

    assert tf.keras.callbacks.CallbackList([Classic()]).overrides("on_train_batch_end")
    modern = Modern()
    model = tf.keras.Sequential([tf.keras.Input((1,)), tf.keras.layers.Dense(1)])
    model.compile(optimizer="sgd", loss="mse")
    model.fit(np.ones((8, 1)), np.ones((8, 1)), batch_size=4, epochs=2, verbose=0,
              callbacks=[modern])
    assert len(modern.losses) == 4 and all(isinstance(v, float) for v in modern.losses)
    callback = tf.keras.callbacks.LambdaCallback(on_batch_begin=lambda batch, logs: None)
    assert tf.keras.callbacks.CallbackList([callback]).overrides("on_train_batch_begin")
