"""benchmarks/saving.py's checkpoint entry saves and restores the lesson CNN correctly."""
import importlib.util
import os

import numpy as np

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def load_benchmark():
    spec = importlib.util.spec_from_file_location(
        "saving_benchmark", os.path.join(ROOT, "benchmarks", "saving.py"))
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_checkpoint_entry_round_trips_model_and_optimizer(tmp_path):
    benchmark = load_benchmark()
    [(name, save, load)] = [f for f in benchmark.FORMATS if "Checkpoint" in f[0]]
    model = benchmark.lesson_cnn()
    save(model, str(tmp_path))
    saved = [v.numpy() for v in model.variables + model.optimizer.variables]
    for v in model.variables + model.optimizer.variables:
        v.assign(np.zeros(v.shape, v.dtype.as_numpy_dtype))
    load(model, str(tmp_path)).assert_consumed()
    for before, v in zip(saved, model.variables + model.optimizer.variables):
        np.testing.assert_array_equal(v.numpy(), before)
    assert int(model.optimizer.iterations.numpy()) == 1
