"""keras.export.ExportArchive and keras.layers.TFSMLayer, side by side with real Keras 3.15.

The two SavedModel formats cannot read each other (minitf writes saved_model.json, TF
saved_model.pb), so one scenario runs under each (one TF subprocess for the file): the same
model with the same weights, the same endpoints and calls; then their printed endpoints,
reloaded signatures, variable lists, outputs, TFSMLayer weights and errors are compared.
"""
import contextlib
import io
import json
import os
import re

import numpy as np
import pytest

import minitf as tf
from real_tf import require_tf, run_tf_json

SCENARIO = r'''
import contextlib, io, json, os, re
import numpy as np

def printed(fn):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        fn()
    return re.sub(r"\n  \d+: ", "\n  ID: ", out.getvalue().replace(folder, "DIR")).splitlines()

def attempt(fn):
    try:
        fn()
        return None
    except Exception as e:
        text = re.sub(r"<class '[\w.]*\.(\w+)'>", r"<class '\1'>", str(e))  # no module path
        return [type(e).__name__, text.replace(folder, "DIR")]

def build():
    inputs = keras.Input((3,), name="x")
    hidden = keras.layers.BatchNormalization(name="bn")(inputs)
    model = keras.Model(inputs, keras.layers.Dense(2, name="d")(hidden))
    for i, v in enumerate(model.weights):
        v.assign(np.linspace(-1, 1, int(np.prod(v.shape))).reshape(v.shape) + i + 0.5)
    return model

x = np.linspace(0, 2, 12, dtype="float32").reshape(4, 3)
model = build()
out = {}
archive = keras.export.ExportArchive()
archive.track(model)
archive.add_endpoint("call_inference", lambda x: model(x, training=False),
                     input_signature=[keras.InputSpec(shape=(None, 3), dtype="float32")])
archive.add_endpoint("call_training", lambda x: model(x, training=True),
                     input_signature=[tf.TensorSpec(shape=(None, 3), dtype="float32",
                                                    name="foo")])
archive.add_variable_collection("my_vars", model.trainable_variables[:1])
path = os.path.join(folder, "archive")
out["printed"] = printed(lambda: archive.write_out(path))
loaded = tf.saved_model.load(path)
out["signatures"] = sorted(loaded.signatures.keys())
out["inputs"] = {k: [list(s.shape), s.dtype.name] for key in out["signatures"]
                 for k, s in loaded.signatures[key].structured_input_signature[1].items()}
out["outputs"] = sorted(loaded.signatures["serving_default"].structured_outputs)
out["lists"] = [len(loaded.variables), len(loaded.trainable_variables),
                len(loaded.non_trainable_variables), [list(v.shape) for v in loaded.my_vars]]
out["inference"] = np.asarray(loaded.call_inference(x)).tolist()
out["training"] = np.asarray(loaded.call_training(x)).tolist()
out["serving_default"] = np.asarray(loaded.signatures["serving_default"](x=x)["output_0"]).tolist()
out["errors"] = [attempt(f) for f in [
    lambda: archive.add_endpoint("call_inference", model.call,
                                 [keras.InputSpec(shape=(None, 3), dtype="float32")]),
    lambda: archive.add_endpoint("x", model.call),
    lambda: archive.add_variable_collection("v", model.variables[0]),
    lambda: archive.add_variable_collection("v", [1]),
    lambda: keras.export.ExportArchive().write_out(os.path.join(folder, "nothing")),
    lambda: archive.track(keras.layers.Dense(2)),
    lambda: archive.track(3),
    lambda: keras.export.ExportArchive(format="onnx"),
    lambda: keras.export.ExportArchive().add_endpoint(
        "e", model.call, [keras.InputSpec(shape=(None, 3))])]]
twice = tf.function(lambda x: model(x) * 2.0, autograph=False)
twice(x)
second = keras.export.ExportArchive()
second.track(model)
second.add_endpoint("twice", twice)
out["printed_traced"] = printed(lambda: second.write_out(os.path.join(folder, "traced")))
reloaded = tf.saved_model.load(os.path.join(folder, "traced"))
out["traced"] = [sorted(reloaded.signatures), np.asarray(reloaded.twice(x)).tolist()]
model.export(os.path.join(folder, "exported"), verbose=False)
layer = keras.layers.TFSMLayer(os.path.join(folder, "exported"))
out["tfsm"] = np.asarray(layer(x)).tolist()
out["tfsm_weights"] = [[list(w.shape), w.trainable] for w in layer.weights]
frozen = keras.layers.TFSMLayer(path, call_endpoint="call_inference",
                                call_training_endpoint="call_training", trainable=False)
out["tfsm_frozen"] = [len(frozen.trainable_weights), len(frozen.non_trainable_weights),
                      np.asarray(frozen(x, training=True)).tolist()]
out["tfsm_config"] = {k: v for k, v in frozen.get_config().items() if k != "filepath"}
stacked = keras.Sequential([keras.Input((3,)), layer, keras.layers.Dense(1, kernel_initializer="ones")])
out["tfsm_in_model"] = np.asarray(stacked(x)).tolist()
stacked.save(os.path.join(folder, "stacked.keras"))
out["tfsm_errors"] = [attempt(f) for f in [
    lambda: keras.layers.TFSMLayer(path, call_endpoint="nope"),
    lambda: keras.layers.TFSMLayer(path, call_endpoint="call_inference",
                                   call_training_endpoint="nope"),
    lambda: keras.saving.load_model(os.path.join(folder, "stacked.keras"))]]
print(json.dumps(out))
'''


def _run_minitf(folder):
    scope = {"tf": tf, "keras": tf.keras, "folder": str(folder)}
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(SCENARIO, scope)
    return json.loads(printed.getvalue().strip().splitlines()[-1])


@pytest.fixture(scope="module")
def real(tmp_path_factory):
    require_tf()
    folder = tmp_path_factory.mktemp("export_tf")
    result = run_tf_json(f"import tensorflow as tf, keras\nfolder = {str(folder)!r}\n"
                         + SCENARIO)
    result["folder"] = str(folder)
    return result


@pytest.fixture(scope="module")
def ours(tmp_path_factory):
    return _run_minitf(tmp_path_factory.mktemp("export_minitf"))


def test_printed_endpoints_equal_keras(real, ours):
    assert ours["printed"] == real["printed"]
    assert ours["printed_traced"] == real["printed_traced"]


def test_reloaded_archive_equals_keras(real, ours):
    for key in ("signatures", "inputs", "outputs", "lists", "errors", "tfsm_weights",
                "tfsm_config"):
        assert ours[key] == real[key], key
    for key in ("inference", "training", "serving_default", "tfsm", "tfsm_in_model"):
        np.testing.assert_allclose(ours[key], real[key], rtol=1e-5, atol=1e-6, err_msg=key)
    assert ours["traced"][0] == real["traced"][0]
    np.testing.assert_allclose(ours["traced"][1], real["traced"][1], rtol=1e-5)
    assert ours["tfsm_frozen"][:2] == real["tfsm_frozen"][:2]
    np.testing.assert_allclose(ours["tfsm_frozen"][2], real["tfsm_frozen"][2], rtol=1e-5,
                               atol=1e-6)


def test_tfsm_layer_errors_equal_keras(real, ours):
    assert ours["tfsm_errors"] == real["tfsm_errors"]


def test_tf_saved_model_is_refused_with_a_teaching_oserror(real):
    """TF's saved_model.pb is not minitf's format: TF's OSError class, and why."""
    with pytest.raises(OSError, match="saved_model.pb, which minitf cannot read"):
        tf.keras.layers.TFSMLayer(os.path.join(real["folder"], "exported"))


# --- TF-free ---------------------------------------------------------------------------------
def _model():
    inputs = tf.keras.Input((3,))
    return tf.keras.Model(inputs, tf.keras.layers.Dense(2)(inputs))


def test_tfsm_layer_trains_the_reloaded_variables(tmp_path):
    model = _model()
    model.export(str(tmp_path / "m"), verbose=False)
    layer = tf.keras.layers.TFSMLayer(str(tmp_path / "m"))
    x = tf.ones((2, 3))
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(layer(x) ** 2)
    grads = tape.gradient(loss, layer.trainable_weights)
    assert all(g is not None for g in grads)
    before = layer(x).numpy()
    tf.keras.optimizers.SGD(0.1).apply_gradients(zip(grads, layer.trainable_weights))
    assert not np.allclose(layer(x).numpy(), before)


def test_tfsm_layer_round_trips_through_keras_files_when_unsafe(tmp_path):
    model = _model()
    model.export(str(tmp_path / "m"), verbose=False)
    stacked = tf.keras.Sequential([tf.keras.Input((3,)),
                                   tf.keras.layers.TFSMLayer(str(tmp_path / "m"))])
    stacked.save(str(tmp_path / "s.keras"))
    with pytest.raises(ValueError, match="safe_mode=False"):
        tf.keras.models.load_model(str(tmp_path / "s.keras"))
    again = tf.keras.models.load_model(str(tmp_path / "s.keras"), safe_mode=False)
    np.testing.assert_allclose(again(np.ones((2, 3))).numpy(), model(np.ones((2, 3))).numpy(),
                               rtol=1e-6)


def test_endpoints_from_tensors_keras_tensors_and_nested_specs(tmp_path):
    model = _model()
    archive = tf.keras.export.ExportArchive()
    fn = archive.track_and_add_endpoint("serve", model, [model.inputs[0]])
    assert fn.input_signature[0].shape.as_list() == [None, 3]
    archive.add_endpoint("from_tensor", lambda x: model(x), [tf.ones((5, 3))])
    with pytest.raises(NotImplementedError, match="separate arguments"):
        archive.add_endpoint("pair", lambda xs: model(xs[0]),
                             [[tf.TensorSpec((None, 3)), tf.TensorSpec((None, 3))]])
    archive.write_out(str(tmp_path / "a"), verbose=False)
    loaded = tf.saved_model.load(str(tmp_path / "a"))
    assert sorted(loaded.signatures) == ["from_tensor", "serve", "serving_default"]
    np.testing.assert_allclose(loaded.from_tensor(tf.ones((7, 3))).numpy(),
                               model(np.ones((7, 3))).numpy(), rtol=1e-6)
    assert re.search(r"Endpoint 'serve'", _printed(lambda: archive.write_out(
        str(tmp_path / "b"))))


def _printed(fn):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        fn()
    return out.getvalue()
