"""compile / fit / evaluate / predict / *_on_batch and the data they accept."""
import numpy as np
import pytest

import minitf as tf


def _blobs(n=64, seed=0):
    """Two separable clusters: label 1 where x0 + x1 > 0."""
    rng = np.random.RandomState(seed)
    x = rng.randn(n, 2).astype("float32")
    y = (x[:, 0] + x[:, 1] > 0).astype("float32")[:, None]
    return x, y


@pytest.fixture(autouse=True)
def seeded():
    """Every test starts from the same random state: "the loss went down" must not
    depend on which tests ran before."""
    tf.random.set_seed(1234)


def _dense_model(seed=1):
    tf.keras.utils.set_random_seed(seed)  # Keras 3: what fixes the initial weights
    return tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(8, "relu"),
                                tf.keras.layers.Dense(1, "sigmoid")])


def test_sequential_fit_decreases_loss_and_learns():
    x, y = _blobs()
    model = _dense_model()
    model.compile(optimizer=tf.keras.optimizers.Adam(0.05), loss="binary_crossentropy",
                  metrics=["accuracy"])
    history = model.fit(x, y, epochs=15, batch_size=16, verbose=0)
    assert list(history.history) == ["accuracy", "loss"]
    assert history.history["loss"][-1] < 0.5 * history.history["loss"][0]
    assert history.history["accuracy"][-1] > 0.9
    assert model.history is history and history.epoch == list(range(15))
    loss, acc = model.evaluate(x, y, verbose=0)
    assert acc > 0.9 and loss < history.history["loss"][0]
    assert model.evaluate(x, y, verbose=0, return_dict=True) == \
        pytest.approx({"accuracy": acc, "loss": loss})
    assert model.metrics_names == ["loss", "accuracy"]


def test_functional_multi_input_multi_output():
    x, y = _blobs()
    a = tf.keras.Input((2,), name="a")
    b = tf.keras.Input((2,), name="b")
    hidden = tf.keras.layers.Dense(8, "relu")(tf.keras.layers.Concatenate()([a, b]))
    out1 = tf.keras.layers.Dense(1, name="sum_out")(hidden)
    out2 = tf.keras.layers.Dense(1, activation="sigmoid", name="cls_out")(hidden)
    model = tf.keras.Model([a, b], [out1, out2])
    model.compile(optimizer=tf.keras.optimizers.Adam(0.05),
                  loss={"sum_out": "mse", "cls_out": "binary_crossentropy"},
                  loss_weights=[0.5, 1.0], metrics={"cls_out": ["accuracy"]})
    targets = [x.sum(axis=1, keepdims=True), y]
    history = model.fit([x, -x], targets, epochs=10, verbose=0)
    assert set(history.history) == {"loss", "sum_out_loss", "cls_out_loss",
                                    "cls_out_accuracy"}
    assert history.history["loss"][-1] < history.history["loss"][0]
    total = 0.5 * history.history["sum_out_loss"][-1] + history.history["cls_out_loss"][-1]
    assert history.history["loss"][-1] == pytest.approx(total, rel=1e-4)
    preds = model.predict([x, -x], verbose=0)
    assert [p.shape for p in preds] == [(64, 1), (64, 1)]


def test_subclassed_model_fit():
    class Net(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.hidden = tf.keras.layers.Dense(8, activation="relu")
            self.out = tf.keras.layers.Dense(1)

        def call(self, x, training=None):
            return self.out(self.hidden(x))

    x, y = _blobs()
    model = Net()
    model.compile(optimizer=tf.keras.optimizers.Adam(0.05), loss="mse")
    history = model.fit(x, y, epochs=10, verbose=0)
    assert history.history["loss"][-1] < history.history["loss"][0]


def test_custom_train_step_as_in_the_keras_guide():
    class CustomModel(tf.keras.Model):
        def train_step(self, data):
            x, y = data
            with tf.GradientTape() as tape:
                y_pred = self(x, training=True)
                loss = self.compute_loss(y=y, y_pred=y_pred)
            gradients = tape.gradient(loss, self.trainable_variables)
            self.optimizer.apply(gradients, self.trainable_variables)
            for metric in self.metrics:
                if metric.name == "loss":
                    metric.update_state(loss)
                else:
                    metric.update_state(y, y_pred)
            self.steps_seen = getattr(self, "steps_seen", 0) + 1
            return {m.name: m.result() for m in self.metrics}

        def __init__(self):
            super().__init__()
            self.dense = tf.keras.layers.Dense(1)

        def call(self, x, training=None):
            return self.dense(x)

    model = CustomModel()
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse", metrics=["mae"])
    x, y = _blobs()
    history = model.fit(x, y, epochs=5, verbose=0)
    assert sorted(history.history) == ["loss", "mae"]
    assert history.history["loss"][-1] < history.history["loss"][0]
    assert model.steps_seen == 1  # the Python body ran once: it was traced (tf.function)


def test_graph_and_eager_give_identical_weights():
    x, y = _blobs()
    results = []
    for run_eagerly in (False, True):
        model = _dense_model(seed=3)
        model.compile(optimizer=tf.keras.optimizers.Adam(0.01), loss="binary_crossentropy",
                      run_eagerly=run_eagerly)
        model.fit(x, y, epochs=2, batch_size=10, shuffle=False, verbose=0)
        results.append(model.get_weights())
    for graph_w, eager_w in zip(*results):
        np.testing.assert_allclose(graph_w, eager_w, rtol=1e-5, atol=1e-6)


def test_validation_split_takes_the_last_fraction_unshuffled():
    x = np.arange(10, dtype="float32")[:, None]
    y = np.zeros((10, 1), "float32")
    model = tf.keras.Sequential([tf.keras.Input((1,)), tf.keras.layers.Dense(1,
                                kernel_initializer="ones", bias_initializer="zeros")])
    model.compile(optimizer=tf.keras.optimizers.SGD(0.0), loss="mse")
    history = model.fit(x, y, validation_split=0.2, epochs=1, verbose=0)
    assert history.history["val_loss"][0] == pytest.approx((8.0 ** 2 + 9.0 ** 2) / 2)
    assert history.history["loss"][0] == pytest.approx(np.mean(np.arange(8.0) ** 2))


def test_validation_data_and_freq():
    x, y = _blobs()
    model = _dense_model()
    model.compile(optimizer="adam", loss="binary_crossentropy", metrics=["accuracy"])
    history = model.fit(x, y, validation_data=(x[:8], y[:8]), epochs=2, verbose=0)
    assert list(history.history) == ["accuracy", "loss", "val_accuracy", "val_loss"]
    assert history.history["val_loss"][-1] == pytest.approx(
        model.evaluate(x[:8], y[:8], verbose=0)[0], rel=1e-5)


def test_fit_on_dataset_and_on_generator():
    x, y = _blobs()
    model = _dense_model()
    model.compile(optimizer=tf.keras.optimizers.Adam(0.05), loss="binary_crossentropy")
    ds = tf.data.Dataset.from_tensor_slices((x, y)).batch(16)
    history = model.fit(ds, epochs=5, verbose=0, validation_data=ds)
    assert history.history["loss"][-1] < history.history["loss"][0]
    assert "val_loss" in history.history

    def batches():
        while True:
            for i in range(0, 64, 16):
                yield x[i:i + 16], y[i:i + 16]
    history = model.fit(batches(), steps_per_epoch=4, epochs=3, verbose=0)
    assert len(history.history["loss"]) == 3
    assert model.evaluate(ds, verbose=0) < history.history["loss"][0]
    assert model.predict(ds.map(lambda a, b: a), verbose=0).shape == (64, 1)


def test_dataset_with_sample_weights_and_class_weight():
    x = np.ones((4, 1), "float32")
    y = np.array([[0.0], [0.0], [1.0], [1.0]], "float32")
    model = tf.keras.Sequential([tf.keras.Input((1,)), tf.keras.layers.Dense(
        1, kernel_initializer="zeros", bias_initializer="zeros")])
    model.compile(optimizer=tf.keras.optimizers.SGD(0.0), loss="mse")
    # prediction 0 everywhere: per-example losses 0, 0, 1, 1
    sw = np.array([1.0, 1.0, 3.0, 0.0], "float32")
    ds = tf.data.Dataset.from_tensor_slices((x, y, sw)).batch(4)
    assert model.evaluate(ds, verbose=0) == pytest.approx(3.0 / 4)  # sum_over_batch_size
    history = model.fit(x, y, class_weight={0: 1.0, 1: 3.0}, epochs=1, verbose=0)
    assert history.history["loss"][0] == pytest.approx(6.0 / 4)


def test_on_batch_methods_and_metrics_reset():
    x, y = _blobs(8)
    model = _dense_model()
    model.compile(optimizer="sgd", loss="mse", metrics=["mae"])
    before = model.test_on_batch(x, y, return_dict=True)
    assert sorted(before) == ["loss", "mae"]
    logs = model.train_on_batch(x, y)
    assert len(logs) == 2
    np.testing.assert_allclose(model.predict_on_batch(x), model(x).numpy(), rtol=1e-6)
    model.reset_metrics()
    assert all(float(m.result()) == 0.0 for m in model.metrics)


def test_regularization_losses_are_added():
    x = np.ones((2, 1), "float32")
    model = tf.keras.Sequential([tf.keras.Input((1,)), tf.keras.layers.Dense(
        1, kernel_initializer="ones", bias_initializer="zeros",
        kernel_regularizer=tf.keras.regularizers.L2(0.5))])
    model.compile(optimizer=tf.keras.optimizers.SGD(0.0), loss="mse")
    # prediction 1, target 1: mse 0, penalty 0.5 * 1^2
    assert model.evaluate(x, x, verbose=0) == pytest.approx(0.5)


def test_constraints_apply_after_updates():
    model = tf.keras.Sequential([tf.keras.Input((1,)), tf.keras.layers.Dense(
        1, kernel_constraint=tf.keras.constraints.NonNeg())])
    model.compile(optimizer=tf.keras.optimizers.SGD(1.0), loss="mse")
    model.fit(np.ones((4, 1)), -10 * np.ones((4, 1)), epochs=3, verbose=0)
    assert float(model.layers[0].kernel.numpy().min()) >= 0.0


def test_transfer_learning_frozen_trunk_changes_only_the_head():
    inputs = tf.keras.Input((2,))
    trunk = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(4, "relu")],
                                name="trunk")
    features = trunk(inputs)
    head_a = tf.keras.layers.Dense(1, name="head_a")(features)
    head_b = tf.keras.layers.Dense(1, name="head_b")(features)
    model_a = tf.keras.Model(inputs, head_a)
    tf.keras.Model(inputs, head_b)  # the second head shares the trunk
    trunk.trainable = False
    model_a.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
    trunk_before = [w.copy() for w in trunk.get_weights()]
    head_before = model_a.get_layer("head_a").get_weights()[0].copy()
    x, y = _blobs()
    model_a.fit(x, y, epochs=2, verbose=0)
    for before, after in zip(trunk_before, trunk.get_weights()):
        np.testing.assert_array_equal(before, after)
    assert not np.allclose(head_before, model_a.get_layer("head_a").get_weights()[0])


def test_fit_before_compile_raises_keras_text():
    model = _dense_model()
    with pytest.raises(ValueError, match=r"You must call `compile\(\)` before using the model."):
        model.fit(np.ones((2, 2)), np.ones((2, 1)))


def test_mismatched_lengths_raise():
    model = _dense_model()
    model.compile(loss="mse")
    with pytest.raises(ValueError, match="Data cardinality is ambiguous. Make sure all "
                                         "arrays contain the same number of samples.'x' "
                                         "sizes: 64\n'y' sizes: 10"):
        model.fit(np.ones((64, 2)), np.ones((10, 1)), verbose=0)


def test_unknown_loss_string_raises():
    model = _dense_model()
    with pytest.raises(ValueError, match="Could not interpret loss identifier: nope"):
        model.compile(optimizer="sgd", loss="nope")


def test_validation_split_on_dataset_raises():
    model = _dense_model()
    model.compile(loss="mse")
    ds = tf.data.Dataset.from_tensor_slices((np.ones((4, 2)), np.ones((4, 1)))).batch(2)
    with pytest.raises(ValueError, match="`validation_split` is only supported for Tensors"):
        model.fit(ds, validation_split=0.5, verbose=0)


def test_compile_resolves_strings_and_objects():
    model = _dense_model()
    model.compile(optimizer="adam", loss=tf.keras.losses.BinaryCrossentropy(),
                  metrics=[tf.keras.metrics.AUC(), "accuracy"])
    assert isinstance(model.optimizer, tf.keras.optimizers.Adam)
    x, y = _blobs()
    logs = model.fit(x, y, epochs=1, verbose=0).history
    assert sorted(logs) == ["accuracy", "auc", "loss"]
    assert model.metrics_names == ["loss", "auc", "accuracy"]


def test_sparse_labels_with_accuracy_and_crossentropy_strings():
    rng = np.random.RandomState(0)
    x = rng.randn(90, 4).astype("float32")
    y = np.argmax(x[:, :3], axis=1)  # integer labels
    tf.random.set_seed(0)
    model = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(16, "relu"),
                                 tf.keras.layers.Dropout(0.1),
                                 tf.keras.layers.Dense(3, "softmax")])
    model.compile(tf.keras.optimizers.Adam(0.05), "crossentropy",
                  metrics=["accuracy", "crossentropy"])
    history = model.fit(x, y, epochs=10, verbose=0)
    assert model.compiled_loss.losses[0].fn.__name__ == "sparse_categorical_crossentropy"
    assert [type(m).__name__ for m in model.metrics[1:]] == [
        "SparseCategoricalAccuracy", "SparseCategoricalCrossentropy"]
    assert history.history["accuracy"][-1] > 0.85
    # evaluate runs with training=False: the crossentropy metric equals the loss
    logs = model.evaluate(x, y, verbose=0, return_dict=True)
    assert logs["crossentropy"] == pytest.approx(logs["loss"], rel=1e-5)


def test_exhausted_generator_warns_and_stops():
    x, y = _blobs(32)

    def once():
        for i in range(0, 32, 16):
            yield x[i:i + 16], y[i:i + 16]
    model = _dense_model()
    model.compile(optimizer="sgd", loss="mse")
    with pytest.warns(UserWarning, match="Your input ran out of data"):
        history = model.fit(once(), epochs=3, verbose=0)
    assert len(history.history["loss"]) == 1


def test_classic_custom_train_step_with_compiled_loss_and_own_metrics():
    class Classic(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.dense = tf.keras.layers.Dense(1)

        def call(self, x, training=None):
            return self.dense(x)

        def train_step(self, data):
            x, y = data
            with tf.GradientTape() as tape:
                y_pred = self(x, training=True)
                loss = self.compiled_loss(y, y_pred, regularization_losses=self.losses)
            grads = tape.gradient(loss, self.trainable_variables)
            self.optimizer.apply_gradients(zip(grads, self.trainable_variables))
            self.compiled_metrics.update_state(y, y_pred)
            return {m.name: m.result() for m in self.compiled_metrics.metrics}

    class LowLevel(Classic):  # no compiled loss: the model keeps its own trackers
        def __init__(self):
            super().__init__()
            self.loss_tracker = tf.keras.metrics.Mean(name="loss")

        @property
        def metrics(self):
            return [self.loss_tracker]

        def train_step(self, data):
            x, y = data
            with tf.GradientTape() as tape:
                loss = tf.reduce_mean(tf.square(y - self(x, training=True)))
            grads = tape.gradient(loss, self.trainable_variables)
            self.optimizer.apply(grads, self.trainable_variables)
            self.loss_tracker.update_state(loss)
            return {"loss": self.loss_tracker.result()}

    x, y = _blobs()
    classic = Classic()
    classic.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse", metrics=["mae"])
    assert list(classic.fit(x, y, epochs=2, verbose=0).history) == ["mae"]
    low = LowLevel()
    low.compile(optimizer=tf.keras.optimizers.SGD(0.1))
    history = low.fit(x, y, epochs=4, verbose=0)
    assert history.history["loss"][-1] < history.history["loss"][0]


def test_set_random_seed_makes_shuffled_fit_repeatable():
    x, y = _blobs()
    runs = []
    for _ in range(2):
        tf.keras.utils.set_random_seed(7)
        model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1)])
        model.compile(optimizer="sgd", loss="mse")
        model.fit(x, y, epochs=2, batch_size=8, verbose=0)  # shuffle=True
        runs.append(model.get_weights())
    for a, b in zip(*runs):
        np.testing.assert_array_equal(a, b)
    with pytest.raises(ValueError, match="Expected `seed` argument to be an integer"):
        tf.keras.utils.set_random_seed(1.5)


def test_to_categorical_and_normalize():
    # verified against TF 2.21: float64 NumPy for NumPy input, trailing 1-axis dropped
    one_hot = tf.keras.utils.to_categorical(np.array([[1], [0]]), 3)
    assert one_hot.dtype == np.float64
    np.testing.assert_array_equal(one_hot, [[0, 1, 0], [1, 0, 0]])
    tensor = tf.keras.utils.to_categorical(tf.constant([1, 0]), 2)
    assert tensor.dtype == tf.float32
    np.testing.assert_array_equal(tensor.numpy(), [[0, 1], [1, 0]])
    with pytest.raises(ValueError, match="Class labels must be in"):
        tf.keras.utils.to_categorical([0, 3], num_classes=3)
    np.testing.assert_allclose(tf.keras.utils.normalize(np.array([[3.0, 4.0], [0, 0]])),
                               [[0.6, 0.8], [0.0, 0.0]])
