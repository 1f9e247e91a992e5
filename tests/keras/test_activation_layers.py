"""ReLU, LeakyReLU, ELU, PReLU and Softmax layers: values, gradients, errors, configs,
.keras round trips, and the same numbers and configs as real Keras 3 (which also reads
the configs minitf serializes)."""
import json
import os

import numpy as np
import pytest

import minitf as tf
from gradcheck import check_grads
from real_tf import run_tf_json

L = tf.keras.layers
X = np.array([[-2.0, -0.5, 0.0, 0.5, 2.0, 7.0]], np.float32)


def np_relu(x, max_value=None, negative_slope=0.0, threshold=0.0):
    out = np.where(x >= threshold, x, negative_slope * (x - threshold))
    return out if max_value is None else np.minimum(out, max_value)


@pytest.mark.parametrize("layer,expected", [
    (lambda: L.ReLU(), np_relu(X)),
    (lambda: L.ReLU(max_value=6.0, negative_slope=0.1, threshold=1.0),
     np_relu(X, 6.0, 0.1, 1.0)),
    (lambda: L.LeakyReLU(), np.where(X >= 0, X, 0.3 * X)),
    (lambda: L.LeakyReLU(negative_slope=0.05), np.where(X >= 0, X, 0.05 * X)),
    (lambda: L.ELU(), np.where(X > 0, X, np.expm1(X))),
    (lambda: L.ELU(alpha=0.5), np.where(X > 0, X, 0.5 * np.expm1(X))),
    (lambda: L.PReLU(), np.maximum(X, 0)),
    (lambda: L.PReLU(alpha_initializer=tf.keras.initializers.Constant(0.25)),
     np.where(X >= 0, X, 0.25 * X)),
    (lambda: L.Softmax(), np.exp(X) / np.exp(X).sum(-1, keepdims=True)),
])
def test_values(layer, expected):
    got = layer()(tf.constant(X))
    assert got.shape == X.shape and got.dtype == tf.float32
    np.testing.assert_allclose(got.numpy(), expected, rtol=1e-6, atol=1e-7)


def test_defaults_are_keras_3s():
    assert L.LeakyReLU().negative_slope == 0.3
    relu = L.ReLU()
    assert (relu.max_value, relu.negative_slope, relu.threshold) == (None, 0.0, 0.0)
    assert L.ELU().alpha == 1.0 and L.Softmax().axis == -1
    assert isinstance(L.PReLU().alpha_initializer, tf.keras.initializers.Zeros)
    assert all(layer.built and not layer.weights
               for layer in (L.ReLU(), L.LeakyReLU(), L.ELU(), L.Softmax()))


def test_leaky_relu_accepts_the_keras_2_name_alpha_with_a_warning():
    with pytest.warns(UserWarning, match="`alpha` is deprecated"):
        layer = L.LeakyReLU(alpha=0.1)
    assert layer.negative_slope == 0.1 and "alpha" not in layer.get_config()


def test_softmax_mask_and_several_axes():
    mask = tf.constant([[True, True, False, True, False, True]])
    got = L.Softmax()(tf.constant(X), mask=mask).numpy()
    kept = np.exp(X) * mask.numpy()
    np.testing.assert_allclose(got, kept / kept.sum(), rtol=1e-5)
    square = np.array([[1.0, 2.0], [3.0, 4.0]], np.float32)
    np.testing.assert_allclose(L.Softmax(axis=(0, 1))(tf.constant(square)).numpy(),
                               np.exp(square) / np.exp(square).sum(), rtol=1e-6)


def test_prelu_weight_shapes_and_shared_axes():
    prelu = L.PReLU()
    prelu(tf.zeros([2, 4, 4, 3]))
    assert prelu.alpha.shape == (4, 4, 3) and prelu.count_params() == 48
    assert prelu.alpha.path == f"{prelu.name}/alpha" and prelu.alpha.trainable
    per_channel = L.PReLU(shared_axes=[1, 2])
    per_channel(tf.zeros([2, 4, 4, 3]))
    assert per_channel.alpha.shape == (1, 1, 3) and per_channel.count_params() == 3
    single = L.PReLU(shared_axes=1)
    single.build((None, 5))
    assert single.shared_axes == [1] and single.alpha.shape == (1,)


def test_prelu_learns_its_slope():
    prelu = L.PReLU(alpha_initializer=tf.keras.initializers.Constant(0.5))
    x = tf.constant([[-2.0, 3.0]])
    with tf.GradientTape() as tape:
        y = tf.reduce_sum(prelu(x))
    (grad,) = tape.gradient(y, [prelu.alpha])
    np.testing.assert_allclose(grad.numpy(), [-2.0, 0.0])  # d(alpha*x)/d alpha = x where x < 0


@pytest.mark.parametrize("make", [
    lambda **k: L.ReLU(max_value=1.5, negative_slope=0.2, threshold=0.3, **k),
    lambda **k: L.LeakyReLU(**k), lambda **k: L.ELU(alpha=0.7, **k),
    lambda **k: L.Softmax(**k),
    lambda **k: L.PReLU(alpha_initializer=tf.keras.initializers.Constant(0.2), **k),
], ids=["relu", "leaky", "elu", "softmax", "prelu"])
def test_gradients_match_finite_differences(make):
    layer = make(dtype="float64")  # float64 layers: finite differences need the precision
    points = np.array([[-1.7, -0.6, 0.4, 0.9, 1.8]])  # away from the kinks
    check_grads(lambda x: layer(x), points)
    if isinstance(layer, L.PReLU):  # and with respect to the slope alpha
        x = tf.constant(points)
        with tf.GradientTape() as tape:
            loss = tf.reduce_sum(layer(x) ** 2)
        analytic = tape.gradient(loss, layer.alpha).numpy()
        numeric, start, eps = [], layer.alpha.numpy(), 1e-6
        for i in range(start.size):
            values = []
            for step in (eps, -eps):
                moved = start.copy()
                moved[i] += step
                layer.alpha.assign(moved)
                values.append(float(tf.reduce_sum(layer(x) ** 2)))
            numeric.append((values[0] - values[1]) / (2 * eps))
        np.testing.assert_allclose(analytic, numeric, rtol=1e-5, atol=1e-7)


@pytest.mark.parametrize("make,message", [
    (lambda: L.LeakyReLU(negative_slope=-1), "cannot be None or negative value"),
    (lambda: L.LeakyReLU(negative_slope=None), "cannot be None or negative value"),
    (lambda: L.ReLU(max_value=-1), "max_value of a ReLU layer cannot be a negative value"),
    (lambda: L.ReLU(negative_slope=-1), "negative_slope of a ReLU layer cannot be None"),
    (lambda: L.ReLU(threshold=None), "threshold of a ReLU layer cannot be None"),
    (lambda: L.PReLU(shared_axes=[0]).build((None, 3)), "axis 0 is the batch"),
    (lambda: L.PReLU().build((None, None, 3)), "Share the unknown axes"),
])
def test_bad_arguments_raise_value_error_that_teaches(make, message):
    with pytest.raises(ValueError, match=message):
        make()


CONFIGS = {
    "ReLU": dict(max_value=6.0, negative_slope=0.1, threshold=1.0),
    "LeakyReLU": dict(negative_slope=0.2),
    "ELU": dict(alpha=0.5),
    "Softmax": dict(axis=1),
    "PReLU": dict(alpha_initializer="ones", shared_axes=[1]),
}


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_serialization_round_trip(name):
    layer = getattr(L, name)(**CONFIGS[name])
    config = tf.keras.layers.serialize(layer)
    assert config["class_name"] == name and config["module"] == "keras.layers"
    again = tf.keras.layers.deserialize(json.loads(json.dumps(config)))
    assert type(again) is type(layer) and again.get_config() == layer.get_config()


def test_keras_file_round_trip(tmp_path):
    tf.random.set_seed(20)
    model = tf.keras.Sequential([
        tf.keras.Input((6,)), L.Dense(6), L.PReLU(alpha_initializer="ones"), L.LeakyReLU(0.1),
        L.ReLU(max_value=6.0), L.ELU(alpha=0.5), L.Dense(3), L.Softmax()])
    model.layers[1].alpha.assign(np.linspace(0.1, 0.6, 6).astype(np.float32))
    path = os.path.join(tmp_path, "activations.keras")
    model.save(path)
    loaded = tf.keras.models.load_model(path)
    assert [type(layer).__name__ for layer in loaded.layers] == \
        ["Dense", "PReLU", "LeakyReLU", "ReLU", "ELU", "Dense", "Softmax"]
    np.testing.assert_allclose(loaded.layers[1].alpha.numpy(), np.linspace(0.1, 0.6, 6),
                               rtol=1e-6)
    np.testing.assert_allclose(loaded(tf.constant(X)).numpy(), model(tf.constant(X)).numpy(),
                               rtol=1e-6)


TF_SNIPPET = """
import json
import numpy as np
import keras
L = keras.layers
x = np.array({x}, np.float32)
configs = json.loads({configs!r})
out = {{}}
for name, kwargs in sorted(configs.items()):
    layer = getattr(L, name)(**kwargs)
    y = layer(x)
    config = layer.get_config()
    config.pop("name")
    out[name] = {{"y": np.asarray(y).tolist(), "config": config,
                  "weights": [list(w.shape) for w in layer.weights]}}
mask = np.array([[True, True, False, True, False, True]])
out["masked"] = np.asarray(L.Softmax()(x, mask=mask)).tolist()
out["from_minitf"] = {{}}
for name, serialized in sorted(json.loads({minitf_serialized!r}).items()):
    layer = keras.layers.deserialize(serialized)  # minitf's serialized form, read by Keras
    config = layer.get_config()
    config.pop("name")
    out["from_minitf"][name] = {{"class": type(layer).__name__, "config": config,
                                 "y": np.asarray(layer(x)).tolist()}}
print(json.dumps(out))
"""


def test_same_values_and_configs_as_real_keras():
    serialized = {name: tf.keras.layers.serialize(getattr(L, name)(**kwargs))
                  for name, kwargs in CONFIGS.items()}
    theirs = run_tf_json(TF_SNIPPET.format(x=X.tolist(), configs=json.dumps(CONFIGS),
                                           minitf_serialized=json.dumps(serialized)))
    for name, kwargs in CONFIGS.items():
        layer = getattr(L, name)(**kwargs)
        y = layer(tf.constant(X))
        config = layer.get_config()
        config.pop("name")
        np.testing.assert_allclose(y.numpy(), theirs[name]["y"], rtol=1e-6, atol=1e-7)
        assert config == theirs[name]["config"], name
        assert [list(w.shape) for w in layer.weights] == theirs[name]["weights"]
    mask = tf.constant([[True, True, False, True, False, True]])
    np.testing.assert_allclose(L.Softmax()(tf.constant(X), mask=mask).numpy(), theirs["masked"],
                               rtol=1e-6, atol=1e-7)
    for name, loaded in theirs["from_minitf"].items():  # real Keras reads minitf's configs
        assert loaded["class"] == name
        np.testing.assert_allclose(loaded["y"], theirs[name]["y"], rtol=1e-6, atol=1e-7)
        assert loaded["config"] == theirs[name]["config"], name
