"""benchmarks/saving.py's SavedModel entry saves and loads the lesson CNN correctly."""
import importlib.util
import json
import os

import numpy as np

import minitf as tf

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def load_benchmark():
    spec = importlib.util.spec_from_file_location(
        "saving_benchmark", os.path.join(ROOT, "benchmarks", "saving.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_savedmodel_entry_round_trips_the_lesson_cnn(tmp_path):
    benchmark = load_benchmark()
    [(name, save, load)] = [f for f in benchmark.FORMATS if "SavedModel" in f[0]]
    model = benchmark.lesson_cnn()
    save(model, str(tmp_path))
    loaded = load(model, str(tmp_path))
    x = np.random.default_rng(1).normal(size=(4, 8, 8, 1)).astype("float32")
    got = loaded.signatures["serving_default"](inputs=tf.constant(x))["output_0"]
    np.testing.assert_allclose(got.numpy(), model(x, training=False).numpy(), rtol=1e-5,
                               atol=1e-6)
    with open(os.path.join(str(tmp_path), "cnn_saved_model", "saved_model.json")) as f:
        document = json.load(f)
    assert "Conv2D" in {node["op"] for function in document["concrete_functions"]
                        for node in function["graph"]["nodes"]}
