"""Keras behaviours that once differed from TF 2.21: a Model subclass built functionally,
array-valued constant initializers, Sequential given a dict, and Keras's default names.
Expected values were printed by TF 2.21 for the same calls."""
import numpy as np
import pytest

import minitf as tf


# --- CustomModel(inputs, outputs) ---------------------------------------------------------------
class CountingModel(tf.keras.Model):
    """The "customize what happens in fit" pattern: only train_step is overridden."""

    steps = 0

    def train_step(self, data):
        x, y = data
        with tf.GradientTape() as tape:
            y_pred = self(x, training=True)
            loss = self.compute_loss(y=y, y_pred=y_pred)
        gradients = tape.gradient(loss, self.trainable_variables)
        self.optimizer.apply_gradients(zip(gradients, self.trainable_variables))
        type(self).steps += 1  # Python side effect: runs while tracing only
        return {"custom_loss": loss}


def test_subclass_with_train_step_called_with_inputs_and_outputs():
    tf.keras.backend.clear_session()
    inputs = tf.keras.Input((3,))
    outputs = tf.keras.layers.Dense(1, kernel_initializer="ones")(inputs)
    model = CountingModel(inputs, outputs)
    assert type(model) is CountingModel and isinstance(model, tf.keras.Model)
    assert model.name == "counting_model"          # TF: the subclass's own snake-case name
    assert [layer.name for layer in model.layers] == ["input_layer", "dense"]
    assert model.count_params() == 4
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse")
    x = np.ones((4, 3), "float32")
    history = model.fit(x, np.zeros((4, 1)), epochs=3, batch_size=4, verbose=0)
    assert list(history.history) == ["custom_loss"]  # the overridden step's logs
    assert CountingModel.steps == 1                  # traced once, run three times
    losses = history.history["custom_loss"]
    assert losses[0] == pytest.approx(9.0) and losses[2] < losses[1] < losses[0]
    np.testing.assert_allclose(model.predict(x, verbose=0), model(x).numpy())


def test_subclass_with_own_init_and_a_grandchild():
    class WithInit(tf.keras.Model):
        def __init__(self, inputs, outputs, scale=2.0, **kwargs):
            super().__init__(inputs=inputs, outputs=outputs, **kwargs)
            self.scale = scale

        def predict_step(self, data):
            return self.scale * super().predict_step(data)

    class Child(WithInit):
        pass

    inputs = tf.keras.Input((2,))
    outputs = tf.keras.layers.Dense(1, kernel_initializer="ones", use_bias=False)(inputs)
    model = Child(inputs, outputs, scale=3.0, name="scaled")
    assert model.name == "scaled" and model.scale == 3.0
    np.testing.assert_allclose(model.predict(np.ones((2, 2), "float32"), verbose=0), [[6.0]] * 2)
    assert model.inputs[0] is inputs and model.outputs[0] is outputs


def test_plain_subclassing_still_works():
    class TwoLayers(tf.keras.Model):
        def __init__(self):
            super().__init__()
            self.dense = tf.keras.layers.Dense(2)

        def call(self, x):
            return self.dense(x)

    model = TwoLayers()
    assert model(tf.ones([1, 3])).shape == (1, 2)
    assert not hasattr(model, "_nodes_by_depth")


# --- constant initializers with arrays ----------------------------------------------------------
def test_keras_constant_broadcasts_like_tf():
    constant = tf.keras.initializers.Constant
    np.testing.assert_array_equal(constant(np.arange(6.0).reshape(2, 3))((2, 3)).numpy(),
                                  [[0, 1, 2], [3, 4, 5]])
    out = constant([[1, 2, 3], [4, 5, 6]])((2, 3))
    assert out.dtype == tf.float32
    np.testing.assert_array_equal(out.numpy(), [[1, 2, 3], [4, 5, 6]])
    np.testing.assert_array_equal(constant([1.0, 2.0, 3.0])((2, 3)).numpy(),
                                  [[1, 2, 3], [1, 2, 3]])
    assert constant([1, 2])((2,), dtype="int32").dtype == tf.int32
    with pytest.raises(tf.errors.InvalidArgumentError, match=r"Incompatible shapes: \[6\] vs\. "
                       r"\[2,3\]"):
        constant([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])((2, 3))   # Keras does not reshape


def test_keras_constant_config_round_trip_like_keras3():
    init = tf.keras.initializers.Constant(np.arange(6.0).reshape(2, 3))
    config = init.get_config()
    assert config == {"value": {"class_name": "__numpy__", "config": {
        "value": [[0.0, 1.0, 2.0], [3.0, 4.0, 5.0]], "dtype": "float64"}}}
    again = tf.keras.initializers.Constant.from_config(config)
    np.testing.assert_array_equal(again((2, 3)).numpy(), init((2, 3)).numpy())
    layer = tf.keras.layers.Dense(3, kernel_initializer=init)
    clone = tf.keras.layers.Dense.from_config(layer.get_config())
    clone(tf.ones([1, 2]))
    np.testing.assert_array_equal(clone.kernel.numpy(), [[0, 1, 2], [3, 4, 5]])


def test_tf_constant_initializer_follows_tf_constant():
    init = tf.constant_initializer([1.0, 2.0, 3.0, 4.0, 5.0, 6.0])
    np.testing.assert_array_equal(init(shape=(2, 3)).numpy(), [[1, 2, 3], [4, 5, 6]])
    assert init(shape=(2, 3)).dtype == tf.float32
    assert tf.constant_initializer(np.arange(6.0).reshape(2, 3))(shape=(2, 3)).dtype == \
        tf.float64
    assert tf.constant_initializer([[1, 2, 3], [4, 5, 6]])(shape=(2, 3)).dtype == tf.int32
    assert tf.constant_initializer(2.0)(shape=(2, 2)).numpy().tolist() == [[2, 2], [2, 2]]
    with pytest.raises(TypeError, match="has 4 elements, but got `shape` .2, 3. with 6"):
        tf.constant_initializer([1.0, 2.0, 3.0, 4.0])(shape=(2, 3))
    with pytest.raises(TypeError, match="has 3 elements"):
        tf.constant_initializer([1.0, 2.0, 3.0])(shape=(2, 3))   # no broadcasting here
    with pytest.raises(TypeError, match="Invalid type for initial value"):
        tf.constant_initializer({"a": 1})
    layer = tf.keras.layers.Dense(3, kernel_initializer=tf.constant_initializer(
        np.arange(6.0).reshape(2, 3)))
    layer(tf.ones([1, 2]))
    assert layer.kernel.dtype == tf.float32
    np.testing.assert_array_equal(layer.kernel.numpy(), [[0, 1, 2], [3, 4, 5]])
    variable = tf.Variable(tf.constant_initializer([1, 2, 3])(shape=[3]))
    assert variable.dtype == tf.int32
    assert tf.zeros_initializer()(shape=[2], dtype=tf.int32).numpy().tolist() == [0, 0]
    assert tf.ones_initializer()(shape=[2]).dtype == tf.float32


# --- Sequential and dicts -----------------------------------------------------------------------
@pytest.mark.parametrize("make_model", [
    lambda: tf.keras.Sequential([tf.keras.layers.Dense(1, name="first")]),
    lambda: tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(1, name="first")]),
])
def test_sequential_given_a_dict_explains_what_to_do(make_model):
    model = make_model()
    with pytest.raises(ValueError) as info:
        model({"a": np.ones((2, 3), "float32"), "b": np.ones((2, 3), "float32")})
    message = str(info.value)
    assert "received a dict of inputs with keys ['a', 'b']" in message
    assert "first layer 'first' (Dense) takes a single tensor" in message
    assert "tf.keras.Model(inputs, outputs)" in message and "DenseFeatures" in message
    model.compile(optimizer="sgd", loss="mse")
    with pytest.raises(ValueError, match="received a dict of inputs"):
        model.fit({"a": np.ones((4, 3))}, np.ones((4, 1)), verbose=0)


def test_sequential_starting_with_dense_features_takes_a_dict():
    columns = [tf.feature_column.numeric_column("a", shape=(3,)),
               tf.feature_column.numeric_column("b")]
    tf.random.set_seed(0)
    model = tf.keras.Sequential([tf.keras.layers.DenseFeatures(columns),
                                 tf.keras.layers.Dense(1)])
    features = {"a": np.ones((8, 3), "float32"), "b": np.arange(8, dtype="float32")}
    model.compile(optimizer=tf.keras.optimizers.SGD(0.01), loss="mse")
    history = model.fit(features, np.ones((8, 1)), epochs=3, verbose=0)
    assert history.history["loss"][-1] < history.history["loss"][0]
    assert model.count_params() == 5                 # 4 features -> 1 unit, plus a bias
    assert model({"a": np.ones((2, 3), "float32"), "b": np.ones(2, "float32")}).shape == (2, 1)


# --- default names ------------------------------------------------------------------------------
# keras.src.utils.naming.to_snake_case in TF 2.21, for each class name.
TF_SNAKE_CASE = {
    "Conv2D": "conv2d", "Conv2DTranspose": "conv2d_transpose", "MyMLP2Block": "my_mlp2_block",
    "BatchNormalization": "batch_normalization", "LSTM": "lstm", "GRUCell": "gru_cell",
    "HTTPServer": "http_server", "SeparableConv2D": "separable_conv2d",
    "GlobalAveragePooling2D": "global_average_pooling2d", "MaxPooling1D": "max_pooling1d",
    "LocallyConnected2D": "locally_connected2d", "ConvLSTM2D": "conv_lstm2d",
    "UpSampling2D": "up_sampling2d", "_Private": "__private", "ABC": "abc",
    "SimpleRNN": "simple_rnn", "PReLU": "p_re_lu", "ReLU": "re_lu",
    "DepthwiseConv2D": "depthwise_conv2d", "SpatialDropout1D": "spatial_dropout1d",
}


@pytest.mark.parametrize("class_name", sorted(TF_SNAKE_CASE))
def test_to_snake_case_matches_keras(class_name):
    from minitf.keras.utils.naming import to_snake_case
    assert to_snake_case(class_name) == TF_SNAKE_CASE[class_name]


def test_default_names_of_layers_models_and_modules():
    tf.keras.backend.clear_session()

    class Conv2DBlock(tf.keras.layers.Layer):
        pass

    class HTTPServer(tf.keras.Model):
        pass

    class Conv2DModule(tf.Module):
        pass

    assert Conv2DBlock().name == "conv2d_block"          # TF: conv2d_block
    assert HTTPServer().name == "http_server"
    assert tf.keras.layers.Conv2D(2, 3).name == "conv2d"
    assert tf.keras.layers.Conv2D(2, 3).name == "conv2d_1"
    assert tf.keras.layers.Conv1D(2, 3).name == "conv1d"
    assert tf.keras.layers.GlobalAveragePooling2D().name == "global_average_pooling2d"
    # tf.Module keeps TensorFlow's own rule, which splits at the digit (TF: conv2_d_module).
    assert Conv2DModule().name == "conv2_d_module"


def test_sequential_starting_with_a_model_of_named_inputs_takes_a_dict():
    inputs = {"a": tf.keras.Input((2,), name="a"), "b": tf.keras.Input((1,), name="b")}
    joined = tf.keras.layers.Concatenate()([inputs["a"], inputs["b"]])
    trunk = tf.keras.Model(inputs, joined)
    model = tf.keras.Sequential([trunk, tf.keras.layers.Dense(1, kernel_initializer="ones",
                                                              use_bias=False)])
    out = model({"a": np.ones((2, 2), "float32"), "b": np.full((2, 1), 2.0, "float32")})
    np.testing.assert_allclose(out.numpy(), [[4.0], [4.0]])

    class Reader(tf.keras.layers.Layer):
        _is_feature_layer = True  # classic tf.keras's mark of a layer that reads a dict

        def call(self, features):
            return features["a"] * 2.0

    model = tf.keras.Sequential([Reader(), tf.keras.layers.Dense(1)])
    assert model({"a": np.ones((3, 2), "float32")}).shape == (3, 1)


# --- configs survive JSON ------------------------------------------------------------------------
def test_sequential_config_round_trips_through_json():
    import json

    model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(4, activation="relu"),
                                 tf.keras.layers.Dense(1)])
    config = json.loads(json.dumps(model.get_config()))
    assert config["layers"][0]["config"]["ragged"] is False  # Keras 3 writes it...
    rebuilt = tf.keras.Sequential.from_config(config)  # ...and InputLayer accepts it back
    assert [w.shape for w in rebuilt.weights] == [w.shape for w in model.weights]
    assert rebuilt.get_config() == model.get_config()


def test_ragged_inputs_are_refused_with_a_hint():
    with pytest.raises(ValueError, match="`ragged=True` is not supported.*pad_sequences"):
        tf.keras.Input((None,), ragged=True)
    assert tf.keras.Input((2,), ragged=False).shape == (None, 2)


def test_classic_lr_spelling_works_with_a_deprecation_warning():
    with pytest.warns(UserWarning, match="`lr` argument is deprecated"):
        optimizer = tf.keras.optimizers.SGD(lr=0.25)
    assert float(optimizer.learning_rate.numpy()) == 0.25
