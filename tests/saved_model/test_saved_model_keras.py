"""Keras models as SavedModels: model.export and tf.saved_model.save(model)."""
import numpy as np
import pytest

import minitf as tf


def sequential():
    tf.random.set_seed(1)
    return tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(4, activation="relu"),
                                tf.keras.layers.BatchNormalization(),
                                tf.keras.layers.Dense(2)])


def test_export_sequential(tmp_path, capsys):
    model = sequential()
    model.export(str(tmp_path / "m"))
    printed = capsys.readouterr().out
    name = model.inputs[0].name  # 'keras_tensor', numbered on in a process that made more
    assert printed.startswith(
        f"Saved artifact at '{tmp_path / 'm'}'. The following endpoints are available:\n\n"
        "* Endpoint 'serve'\n  args_0 (POSITIONAL_ONLY): TensorSpec(shape=(None, 3), "
        f"dtype=tf.float32, name='{name}')\nOutput Type:\n  TensorSpec(shape=(None, 2), "
        "dtype=tf.float32, name=None)\nCaptures:\n")
    loaded = tf.saved_model.load(str(tmp_path / "m"))
    assert {a for a in dir(loaded) if not a.startswith("_")} == {
        "non_trainable_variables", "serve", "signatures", "trainable_variables", "variables"}
    assert sorted(loaded.signatures) == ["serve", "serving_default"]
    assert [v.name for v in loaded.variables] == [v.path + ":0" for v in model.variables]
    assert len(loaded.non_trainable_variables) == 2  # BatchNormalization's moving statistics
    x = np.random.default_rng(0).normal(size=(5, 3)).astype(np.float32)
    want = model(x, training=False).numpy()
    np.testing.assert_allclose(loaded.serve(x).numpy(), want, rtol=1e-6)
    serving = loaded.signatures["serving_default"]
    assert serving.structured_input_signature == (
        (), {name: tf.TensorSpec([None, 3], tf.float32, name)})
    out = serving(**{name: tf.constant(x)})
    assert list(out) == ["output_0"]
    np.testing.assert_allclose(out["output_0"].numpy(), want, rtol=1e-6)


def test_export_functional_names_inputs_after_the_input_tensors(tmp_path):
    inputs = tf.keras.Input((2,), name="feat")
    outputs = tf.keras.layers.Dense(1, name="out")(tf.keras.layers.Dense(3, name="hid")(inputs))
    model = tf.keras.Model(inputs, outputs)
    model.export(str(tmp_path / "f"), verbose=False)
    loaded = tf.saved_model.load(str(tmp_path / "f"))
    assert list(loaded.signatures["serve"].structured_input_signature[1]) == ["feat"]
    x = tf.constant([[1.0, -1.0]])
    np.testing.assert_allclose(loaded.signatures["serving_default"](feat=x)["output_0"].numpy(),
                               model(x).numpy(), rtol=1e-6)
    with pytest.raises(ValueError, match="format='tf_saved_model'"):
        model.export(str(tmp_path / "g"), format="onnx")


def test_saved_model_save_of_a_keras_model(tmp_path):
    model = sequential()
    tf.saved_model.save(model, str(tmp_path / "s"))
    loaded = tf.saved_model.load(str(tmp_path / "s"))
    assert list(loaded.signatures) == ["serving_default"]
    assert not hasattr(loaded, "variables") and not hasattr(loaded, "serve")
    serving = loaded.signatures["serving_default"]
    assert list(serving.structured_input_signature[1]) == ["inputs"]
    x = np.ones((2, 3), np.float32)
    np.testing.assert_allclose(serving(inputs=tf.constant(x))["output_0"].numpy(),
                               model(x, training=False).numpy(), rtol=1e-6)


def test_exported_variables_train_under_a_tape(tmp_path):
    model = sequential()
    model.export(str(tmp_path / "m"), verbose=False)
    loaded = tf.saved_model.load(str(tmp_path / "m"))
    x, y = tf.ones([4, 3]), tf.zeros([4, 2])
    with tf.GradientTape() as tape:
        loss = tf.reduce_mean((loaded.serve(x) - y) ** 2)
    grads = tape.gradient(loss, loaded.trainable_variables)
    assert len(grads) == 6 and all(g is not None for g in grads)
    with tf.GradientTape() as tape:
        reference = tf.reduce_mean((model(x, training=False) - y) ** 2)
    for got, want in zip(grads, tape.gradient(reference, model.trainable_variables)):
        np.testing.assert_allclose(got.numpy(), want.numpy(), rtol=1e-5, atol=1e-7)


def test_an_unbuilt_model_cannot_be_exported(tmp_path):
    model = tf.keras.Sequential([tf.keras.layers.Dense(2)])
    with pytest.raises(ValueError, match="called at least once"):
        model.export(str(tmp_path / "m"))


def test_several_inputs_are_named_as_in_keras(tmp_path):
    a, b = tf.keras.Input((2,), name="a"), tf.keras.Input((3,), name="b")
    model = tf.keras.Model([a, b], tf.keras.layers.Dense(1)(
        tf.keras.layers.Concatenate()([a, b])))
    model.export(str(tmp_path / "e"), verbose=False)
    tf.saved_model.save(model, str(tmp_path / "s"))
    exported = tf.saved_model.load(str(tmp_path / "e"))
    saved = tf.saved_model.load(str(tmp_path / "s"))
    assert list(exported.signatures["serving_default"].structured_input_signature[1]) == [
        "a", "b"]
    assert list(saved.signatures["serving_default"].structured_input_signature[1]) == [
        "inputs", "inputs_1"]  # as TF 2.21 names them
    x, y = tf.ones([1, 2]), tf.ones([1, 3])
    want = model([x, y]).numpy()
    np.testing.assert_allclose(exported.serve(x, y).numpy(), want, rtol=1e-6)
    np.testing.assert_allclose(saved.signatures["serving_default"](
        inputs=x, inputs_1=y)["output_0"].numpy(), want, rtol=1e-6)
