"""benchmarks/keras_fit.py compares like with like: its hand-written NumPy MLP makes exactly
the update minitf's `fit` makes, and its measurement runs end to end (no timing asserted)."""
import importlib.util
import os

import numpy as np

import minitf as tf

_PATH = os.path.join(os.path.dirname(__file__), "..", "..", "benchmarks", "keras_fit.py")
_spec = importlib.util.spec_from_file_location("keras_fit_benchmark", _PATH)
bench = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(bench)


def test_numpy_mlp_step_equals_fit_step():
    x, y = bench.digits(images=False)
    x, y = x[:bench.BATCH], y[:bench.BATCH]          # one batch: the shuffle does not matter
    params = bench.numpy_params(seed=1)
    model = bench.make_model("mlp")
    model.set_weights([p.copy() for p in params])
    bench.numpy_mlp_epoch(params, x, y, np.random.default_rng(0))
    model.fit(x, y, batch_size=bench.BATCH, epochs=1, verbose=0)
    for mine, theirs in zip(params, model.get_weights()):
        np.testing.assert_allclose(mine, theirs, rtol=1e-4, atol=1e-6)


def test_bare_step_trains_the_same_model_as_fit():
    x, y = bench.digits(images=True)
    batches = bench.tensor_batches(x[:64], y[:64])
    model = bench.make_model("cnn")
    step = bench.bare_step_for(model)
    first = float(step(*batches[0]))
    for _ in range(5):
        last = float(step(*batches[0]))
    assert last < first


def test_measure_runs_and_reports_every_figure(capsys):
    best = bench.measure("mlp", repeats=1)
    assert set(best) == {"graph", "eager", "bare", "train_function", "numpy", "steps"}
    assert best["steps"] == 45 and all(best[k] > 0 for k in best)
    bench.report("mlp", best)
    out = capsys.readouterr().out
    assert "epochs/s" in out and "fit overhead per batch vs bare tf.function step" in out
    assert tf.keras.datasets.digits.load_data()[0][0].shape == (1437, 8, 8)
