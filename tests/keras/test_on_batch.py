"""train_on_batch / test_on_batch report this batch's loss and metrics: Keras 3 resets the
metrics before each call (a running mean over earlier calls would be a different number).
Compared with TF 2.21 too."""
import numpy as np
import pytest

import minitf as tf
from real_tf import run_tf_json

SNIPPET = """
import json
import numpy as np
import tensorflow as tf
rng = np.random.default_rng(5)
x = rng.normal(size=(12, 3)).astype("float32")
y = rng.normal(size=(12, 1)).astype("float32")
model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(1)])
model.set_weights([np.full((3, 1), 0.5, "float32"), np.zeros(1, "float32")])
model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse", metrics=["mae"])
out = {"train": [model.train_on_batch(x[i:i + 4], y[i:i + 4]) for i in (0, 4, 8)],
       "test": model.test_on_batch(x[:4], y[:4], return_dict=True),
       "weights": [w.tolist() for w in model.get_weights()]}
try:
    model.train_on_batch(x[:4], y[:4], sample_weight=np.ones(4), class_weight={0: 1.0})
except ValueError as error:
    out["error"] = str(error).split(".")[0]
print(json.dumps(out))
"""


def _model():
    model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(1)])
    model.set_weights([np.full((3, 1), 0.5, "float32"), np.zeros(1, "float32")])
    model.compile(optimizer=tf.keras.optimizers.SGD(0.1), loss="mse", metrics=["mae"])
    return model


def _data():
    rng = np.random.default_rng(5)
    return (rng.normal(size=(12, 3)).astype("float32"),
            rng.normal(size=(12, 1)).astype("float32"))


def test_each_call_reports_its_own_batch():
    x, y = _data()
    model = _model()
    for i in (0, 4, 8):
        prediction = model(x[i:i + 4]).numpy()  # before this step's update
        loss, mae = model.train_on_batch(x[i:i + 4], y[i:i + 4])
        assert loss == pytest.approx(float(np.mean((prediction - y[i:i + 4]) ** 2)), rel=1e-5)
        assert mae == pytest.approx(float(np.mean(np.abs(prediction - y[i:i + 4]))), rel=1e-5)
    prediction = model(x[:4]).numpy()
    logs = model.test_on_batch(x[:4], y[:4], return_dict=True)
    assert logs["loss"] == pytest.approx(float(np.mean((prediction - y[:4]) ** 2)), rel=1e-5)


def test_sample_weight_and_class_weight_together_are_refused():
    x, y = _data()
    with pytest.raises(ValueError, match="cannot be specified at the same time"):
        _model().train_on_batch(x[:4], y[:4], sample_weight=np.ones(4), class_weight={0: 1.0})


def test_matches_real_tf():
    theirs = run_tf_json(SNIPPET)
    x, y = _data()
    model = _model()
    ours = [model.train_on_batch(x[i:i + 4], y[i:i + 4]) for i in (0, 4, 8)]
    np.testing.assert_allclose(ours, theirs["train"], rtol=1e-5)
    test = model.test_on_batch(x[:4], y[:4], return_dict=True)
    assert sorted(test) == sorted(theirs["test"])
    for key in test:
        assert test[key] == pytest.approx(theirs["test"][key], rel=1e-5)
    for a, b in zip(model.get_weights(), theirs["weights"]):
        np.testing.assert_allclose(a, b, rtol=1e-5, atol=1e-6)
    with pytest.raises(ValueError) as error:
        model.train_on_batch(x[:4], y[:4], sample_weight=np.ones(4), class_weight={0: 1.0})
    assert str(error.value).split(".")[0] == theirs["error"]
