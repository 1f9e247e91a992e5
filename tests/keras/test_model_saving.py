"""Whole models as configs and files: get_config/from_config for the three kinds of
models, to_json/model_from_json, clone_model, model.save/load_model."""
import json
import zipfile

import numpy as np
import pytest

import minitf as tf

L = tf.keras.layers
X = np.random.default_rng(0).normal(size=(16, 4)).astype("float32")


def json_round_trip(config):
    return json.loads(json.dumps(config))


def two_headed():
    """Two inputs, a shared layer called twice, a residual Add, two outputs."""
    a, b = tf.keras.Input((4,), name="a"), tf.keras.Input((4,), name="b")
    shared = L.Dense(4, activation="tanh", name="shared")
    ha, hb = shared(a), shared(b)
    merged = L.Add(name="residual")([ha, hb])
    head = L.Dense(1, name="score")(merged)
    label = L.Dense(3, activation="softmax", name="label")(L.Concatenate(name="cat")([ha, a]))
    return tf.keras.Model([a, b], [head, label], name="two_headed")


def test_functional_config_is_keras_format_and_round_trips():
    model = two_headed()
    config = json_round_trip(model.get_config())  # plain data only: JSON can hold it
    layers = {entry["name"]: entry for entry in config["layers"]}
    assert len(layers["shared"]["inbound_nodes"]) == 2  # the shared layer, called twice
    histories = [node["args"][0]["config"]["keras_history"]
                 for node in layers["shared"]["inbound_nodes"]]
    assert histories == [["a", 0, 0], ["b", 0, 0]]
    assert layers["residual"]["inbound_nodes"][0]["args"][0][1]["config"]["keras_history"] \
        == ["shared", 1, 0]
    assert config["input_layers"] == [["a", 0, 0], ["b", 0, 0]]
    assert config["output_layers"] == [["score", 0, 0], ["label", 0, 0]]

    clone = tf.keras.Model.from_config(config)
    assert json_round_trip(clone.get_config()) == config
    assert [w.shape for w in clone.weights] == [w.shape for w in model.weights]
    clone.set_weights(model.get_weights())
    for mine, theirs in zip(model([X, X[::-1]]), clone([X, X[::-1]])):
        np.testing.assert_allclose(mine.numpy(), theirs.numpy(), rtol=1e-6)


def test_a_model_inside_a_model_and_dict_inputs():
    trunk = tf.keras.Sequential([tf.keras.Input((4,)), L.Dense(3, name="t1")], name="trunk")
    x = tf.keras.Input((4,), name="x")
    model = tf.keras.Model({"x": x}, {"out": L.Dense(2, name="out")(trunk(x))}, name="outer")
    config = json_round_trip(model.get_config())
    assert config["input_layers"] == {"x": ["x", 0, 0]}
    clone = tf.keras.Model.from_config(config)
    assert [layer.name for layer in clone.layers] == ["x", "trunk", "out"]
    clone.set_weights(model.get_weights())
    np.testing.assert_allclose(clone({"x": X})["out"].numpy(), model({"x": X})["out"].numpy(),
                               rtol=1e-6)


def test_sequential_config_remembers_how_it_was_built():
    model = tf.keras.Sequential([L.Dense(3), L.Dense(1)], name="deferred")
    assert "build_input_shape" not in model.get_config()  # not built yet
    model.build((None, 4))
    config = json_round_trip(model.get_config())
    assert config["build_input_shape"] == [None, 4]
    assert config["layers"][1] == json_round_trip(L.serialize(model.layers[0]))
    clone = tf.keras.Sequential.from_config(config)
    assert clone.built and clone.count_params() == model.count_params() == 19


class Scale(L.Layer):
    """A custom layer with a weight and a constructor argument."""

    def __init__(self, factor=2.0, **kwargs):
        super().__init__(**kwargs)
        self.factor = factor

    def build(self, input_shape):
        self.w = self.add_weight(shape=(input_shape[-1],), initializer="ones", name="w")

    def call(self, x):
        return self.factor * self.w * x

    def get_config(self):
        return {**super().get_config(), "factor": self.factor}


def test_custom_layers_need_custom_objects_unless_known():
    x = tf.keras.Input((4,))
    model = tf.keras.Model(x, Scale(3.0, name="scale")(x))
    text = model.to_json()
    clone = tf.keras.models.model_from_json(text, custom_objects={"Scale": Scale})
    assert clone.get_layer("scale").factor == 3.0
    with pytest.raises(TypeError, match="Could not locate class 'Nope'"):
        tf.keras.models.model_from_json(text.replace('"Scale"', '"Nope"'))
    with pytest.raises(TypeError, match="Could not locate class 'Scale'"):  # not registered
        tf.keras.models.model_from_json(text)


def test_lambda_layers_are_code_and_are_not_written():
    x = tf.keras.Input((4,))
    model = tf.keras.Model(x, L.Lambda(lambda t: t * 2.0, name="double")(x))
    with pytest.raises(ValueError, match="never code.*safe_mode=False"):
        model.to_json()
    clone = tf.keras.models.clone_model(model)  # in memory, the function is shared
    np.testing.assert_allclose(clone(X).numpy(), 2 * X)


def test_clone_model_has_the_architecture_and_new_weights():
    tf.random.set_seed(1)
    model = tf.keras.Sequential([tf.keras.Input((4,)), L.Dense(8, activation="relu"),
                                 Scale(name="scale"), L.Dense(1)])
    clone = tf.keras.models.clone_model(model)
    assert [type(layer) for layer in clone.layers] == [type(layer) for layer in model.layers]
    assert clone.count_params() == model.count_params()
    assert not np.allclose(clone.weights[0].numpy(), model.weights[0].numpy())  # re-initialized
    with pytest.raises(NotImplementedError, match="architecture only"):
        tf.keras.models.clone_model(model, clone_function=lambda layer: layer)


# --- model.save / load_model -------------------------------------------------------------------
def trained(tmp_path):
    y = (X[:, 0] > 0).astype("int64")
    model = two_headed()
    model.compile(optimizer=tf.keras.optimizers.Adam(0.01),
                  loss=["mse", tf.keras.losses.SparseCategoricalCrossentropy()],
                  metrics=[[], ["accuracy"]])
    model.fit([X, X], [X[:, :1], y], epochs=2, batch_size=8, verbose=0)
    return model, y


def test_save_and_load_restore_everything_and_training_resumes(tmp_path):
    model, y = trained(tmp_path)
    path = tmp_path / "model.keras"
    model.save(path)
    with zipfile.ZipFile(path) as archive:
        assert sorted(archive.namelist()) == ["config.json", "metadata.json",
                                              "model.weights.h5"]
        config = json.loads(archive.read("config.json"))
    assert config["class_name"] == "Functional"
    assert config["compile_config"]["optimizer"]["class_name"] == "Adam"

    restored = tf.keras.models.load_model(path)
    for a, b in zip(restored.get_weights(), model.get_weights()):
        np.testing.assert_array_equal(a, b)
    assert restored.optimizer.iterations.numpy() == model.optimizer.iterations.numpy() == 4
    for a, b in zip(restored.optimizer.variables, model.optimizer.variables):
        np.testing.assert_array_equal(a.numpy(), b.numpy())  # Adam's slots too
    # one more epoch from the file = one more epoch of the original
    more = dict(epochs=1, batch_size=8, verbose=0, shuffle=False)
    assert restored.fit([X, X], [X[:, :1], y], **more).history == \
        model.fit([X, X], [X[:, :1], y], **more).history

    bare = tf.keras.models.load_model(path, compile=False)
    assert not bare.compiled and bare.optimizer is None


def test_saving_errors_teach(tmp_path):
    model = tf.keras.Sequential([tf.keras.Input((4,)), L.Dense(1)])
    with pytest.raises(ValueError, match="Invalid filepath extension for saving"):
        model.save(tmp_path / "model.zip")
    with pytest.raises(ValueError, match="legacy `.h5` model files"):
        model.save(tmp_path / "model.h5")
    model.save(tmp_path / "m.keras")
    with pytest.raises(FileExistsError):
        model.save(tmp_path / "m.keras", overwrite=False)
    with pytest.raises(ValueError, match="File not found"):
        tf.keras.models.load_model(tmp_path / "missing.keras")
    with pytest.raises(ValueError, match="File format not supported"):
        tf.keras.models.load_model(tmp_path / "m.weights.h5")
    tf.keras.saving.save_model(model, tmp_path / "n.keras")  # the module-level spellings
    assert tf.keras.saving.load_model(tmp_path / "n.keras").count_params() == 5
