"""EinsumDense, GroupNormalization, RMSNormalization, UnitNormalization and the adaptive
pooling layers: values, weights (names, shapes, initializers), gradients against finite
differences, errors, configs, a .keras file both ways -- and the same as real Keras 3.15
(one TF subprocess for the file, see layer_compare.py)."""
import json

import numpy as np
import pytest

import minitf as tf
from gradcheck import check_grads
from layer_compare import (case, check_weight_grads, model_spec, plain, real_keras,
                           run_case)

L = tf.keras.layers


def ramp(*shape, phase=0.0):
    n = int(np.prod(shape))
    return (np.sin(np.arange(n) * 0.9 + phase) * 2).reshape(shape).astype("float32")


X3, X4, X5 = ramp(2, 6, 3), ramp(2, 4, 5, 3), ramp(1, 3, 4, 4, 2)

CASES = {
    "einsum_dense": case("EinsumDense", {"equation": "ab,bc->ac", "output_shape": 4,
                                         "bias_axes": "c"}, X3[:, 0],
                         weights=[ramp(3, 4, phase=1), ramp(4, phase=2)]),
    "einsum_heads": case("EinsumDense", {"equation": "abc,cde->abde",
                                         "output_shape": [None, 2, 3], "bias_axes": "de"},
                         X3, weights=[ramp(3, 2, 3, phase=1), ramp(2, 3, phase=2)]),
    "einsum_left_elided": case("EinsumDense", {"equation": "...b,bc->...c", "output_shape": 2,
                                               "bias_axes": "c", "activation": "relu"},
                               X4, weights=[ramp(3, 2, phase=1), ramp(2, phase=2)]),
    "einsum_right_elided": case("EinsumDense", {"equation": "ab...,bc->ac...",
                                                "output_shape": 4, "bias_axes": "c"},
                                X3, weights=[ramp(6, 4, phase=1), ramp(4, 1, phase=2)]),
    "group_norm": case("GroupNormalization", {"groups": 2}, ramp(2, 3, 3, 4),
                       weights=[ramp(4, phase=1), ramp(4, phase=2)]),
    "instance_norm": case("GroupNormalization", {"groups": -1, "epsilon": 0.01}, X3),
    "group_norm_cf": case("GroupNormalization", {"groups": 2, "axis": 1, "center": False},
                          X4, weights=[ramp(4, phase=1)]),
    "rms_norm": case("RMSNormalization", {}, X3, weights=[ramp(3, phase=1)]),
    "rms_norm_axes": case("RMSNormalization", {"axis": [-1, -2], "epsilon": 0.1}, X4,
                          weights=[ramp(5, 3, phase=1)]),
    "unit_norm": case("UnitNormalization", {}, X3),
    "unit_norm_axes": case("UnitNormalization", {"axis": [1, 2]}, X4),
    "adaptive_avg1d": case("AdaptiveAveragePooling1D", {"output_size": 4}, X3),
    "adaptive_max1d": case("AdaptiveMaxPooling1D", {"output_size": [4]}, X3),
    "adaptive_avg1d_up": case("AdaptiveAveragePooling1D", {"output_size": 8}, X3),
    "adaptive_avg2d": case("AdaptiveAveragePooling2D", {"output_size": [3, 2]}, X4),
    "adaptive_max2d_cf": case("AdaptiveMaxPooling2D", {"output_size": 2,
                                                       "data_format": "channels_first"}, X4),
    "adaptive_avg3d": case("AdaptiveAveragePooling3D", {"output_size": [2, 3, 3]}, X5),
    "adaptive_max3d": case("AdaptiveMaxPooling3D", {"output_size": 2}, X5),
}

ERRORS = {
    "einsum_bad_equation": {"class": "EinsumDense", "kwargs": {"equation": "ab->b",
                                                               "output_shape": 2},
                            "x": X3[:, 0].tolist()},
    "einsum_bias_axis": {"class": "EinsumDense", "kwargs": {
        "equation": "ab,bc->ac", "output_shape": 2, "bias_axes": "x"}, "x": X3[:, 0].tolist()},
    "einsum_shared_mismatch": {"class": "EinsumDense", "kwargs": {
        "equation": "abc,cd->abd", "output_shape": [5, 2]}, "x": X3.tolist()},
    "group_norm_zero": {"class": "GroupNormalization", "kwargs": {"groups": 0}},
    "group_norm_too_many": {"class": "GroupNormalization", "kwargs": {"groups": 4},
                            "x": X3.tolist()},
    "group_norm_not_divisor": {"class": "GroupNormalization", "kwargs": {"groups": 2},
                               "x": X3.tolist()},
    "unit_norm_axis": {"class": "UnitNormalization", "kwargs": {"axis": "a"}},
    "adaptive_output_str": {"class": "AdaptiveAveragePooling2D", "kwargs": {"output_size": "a"}},
    "adaptive_1d_pair": {"class": "AdaptiveMaxPooling1D", "kwargs": {"output_size": [1, 2]}},
    "adaptive_format": {"class": "AdaptiveMaxPooling3D", "kwargs": {"output_size": 2,
                                                                    "data_format": "nchw"}},
}


def make_model():
    tf.random.set_seed(7)
    layers = [L.EinsumDense("abc,cd->abd", (None, 4), bias_axes="d"), L.GroupNormalization(2),
              L.RMSNormalization(), L.UnitNormalization(), L.AdaptiveAveragePooling1D(4),
              L.AdaptiveMaxPooling1D(3), L.Flatten(), L.Dense(2)]
    model, spec = model_spec(layers, X3)
    weights = [w + ramp(*w.shape, phase=i) * 0.1 for i, w in enumerate(model.get_weights())]
    model.set_weights(weights)  # gamma/beta/scale away from their ones and zeros
    spec["weights"] = [w.tolist() for w in weights]
    return model, spec


@pytest.fixture(scope="module")
def keras(tmp_path_factory):
    folder = tmp_path_factory.mktemp("einsum_norm_pool")
    model = make_model()
    return real_keras(CASES, {"stack": model}, ERRORS, folder), model, folder


@pytest.mark.parametrize("key", sorted(CASES))
def test_values_weights_and_configs_equal_real_keras(keras, key):
    theirs = keras[0]["cases"][key]
    layer, y = run_case(CASES[key])
    np.testing.assert_allclose(y, theirs["y"], rtol=1e-5, atol=1e-5)
    assert y.dtype.name == theirs["dtype"]
    config = layer.get_config()
    config.pop("name")
    assert plain(config) == theirs["config"]
    assert theirs["from_minitf_config"] == theirs["config"]
    np.testing.assert_allclose(theirs["from_minitf_y"], y, rtol=1e-5, atol=1e-5)
    assert [[w.name, list(w.shape), w.trainable] for w in layer.weights] == theirs["weights"]


@pytest.mark.parametrize("key", sorted(CASES))
def test_symbolic_shape_is_keras_shape(keras, key):
    c = CASES[key]
    layer = L.deserialize(c["serialized"])
    assert list(layer(tf.keras.Input(np.asarray(c["x"]).shape[1:])).shape) == \
        keras[0]["cases"][key]["symbolic_shape"]


@pytest.mark.parametrize("key", sorted(ERRORS))
def test_bad_arguments_raise_keras_error(keras, key):
    theirs = keras[0]["errors"][key]
    assert theirs is not None
    spec = ERRORS[key]
    with pytest.raises(Exception) as raised:
        layer = getattr(tf.keras.layers, spec["class"])(**spec["kwargs"])
        if spec.get("x") is not None:
            layer(tf.constant(spec["x"], "float32"))
    assert type(raised.value).__name__ == theirs[0]
    message = theirs[1]
    if "\x1b[1m" in message:  # Keras wraps errors from call() in "Exception encountered ..."
        message = message.split("\x1b[1m", 1)[1].split("\x1b[0m", 1)[0]
    assert str(raised.value)[:24] == message[:24], (str(raised.value), message)


def test_keras_file_both_ways(keras):
    theirs, (model, spec), folder = keras
    x = np.asarray(spec["x"], "float32")
    mine = model.predict(x, verbose=0)
    np.testing.assert_allclose(theirs["models"]["stack"]["mine"], mine, rtol=1e-5, atol=1e-5)
    loaded = tf.keras.models.load_model(str(folder / "keras_stack.keras"))
    assert [type(layer).__name__ for layer in loaded.layers] == \
        [type(layer).__name__ for layer in model.layers]
    for a, b in zip(loaded.get_weights(), model.get_weights()):
        np.testing.assert_array_equal(a, b)
    np.testing.assert_allclose(loaded.predict(x, verbose=0), theirs["models"]["stack"]["theirs"],
                               rtol=1e-5, atol=1e-5)


# ---- without real TF ------------------------------------------------------------------------

def test_einsum_dense_is_dense_and_projects_heads():
    dense = L.EinsumDense("ab,bc->ac", 4, bias_axes="c", activation="tanh")
    x = ramp(3, 5)
    y = dense(x).numpy()
    np.testing.assert_allclose(y, np.tanh(x @ dense.kernel.numpy() + dense.bias.numpy()),
                               rtol=1e-5)
    heads = L.EinsumDense("abc,cde->abde", (None, 2, 3))
    y = heads(ramp(2, 4, 5)).numpy()
    assert heads.bias is None and y.shape == (2, 4, 2, 3)
    np.testing.assert_allclose(y, np.einsum("abc,cde->abde", ramp(2, 4, 5),
                                            heads.kernel.numpy()), rtol=1e-5, atol=1e-6)


def test_einsum_dense_glorot_fans_follow_the_equation():
    # kernel (c, d, e) = (20, 30, 40): fan_in = 20, fan_out = 30 * 40 (Keras 3.15's axes)
    layer = L.EinsumDense("abc,cde->abde", (None, 30, 40))
    layer.build((None, 2, 20))
    limit = np.sqrt(6.0 / (20 + 1200))
    kernel = layer.kernel.numpy()
    assert np.abs(kernel).max() <= limit and abs(kernel.std() - limit / np.sqrt(3)) < 0.002
    assert layer.get_config()["kernel_initializer"]["config"]["input_axes"] is None


def test_group_normalization_by_hand():
    x = ramp(2, 3, 6)
    y = L.GroupNormalization(groups=3, epsilon=1e-3)(x).numpy()
    g = x.reshape(2, 3, 3, 2)  # channels (6) -> 3 groups of 2; statistics over steps too
    mean = g.mean(axis=(1, 3), keepdims=True)
    var = g.var(axis=(1, 3), keepdims=True)
    np.testing.assert_allclose(y, ((g - mean) / np.sqrt(var + 1e-3)).reshape(2, 3, 6),
                               rtol=1e-4, atol=1e-5)
    norm = L.GroupNormalization(groups=-1)
    norm(x)
    assert norm.groups == 6 and norm.input_spec.axes == {-1: 6}


def test_rms_and_unit_normalization_by_hand():
    x = ramp(2, 5)
    y = L.RMSNormalization(epsilon=1e-6)(x).numpy()
    np.testing.assert_allclose(y, x / np.sqrt((x ** 2).mean(-1, keepdims=True) + 1e-6),
                               rtol=1e-5)
    y = L.UnitNormalization()(x).numpy()
    np.testing.assert_allclose(np.linalg.norm(y, axis=-1), 1.0, rtol=1e-6)
    assert L.UnitNormalization()(tf.zeros([1, 3])).numpy().tolist() == [[0.0, 0.0, 0.0]]


def test_adaptive_windows_follow_pytorchs_rule():
    from minitf.keras.layers.adaptive_pooling import adaptive_windows
    assert adaptive_windows(5, 3) == [(0, 2), (1, 4), (3, 5)]
    assert adaptive_windows(2, 5) == [(0, 1), (0, 1), (0, 2), (1, 2), (1, 2)]
    x = np.arange(7.0, dtype="float32").reshape(1, 7, 1)
    got = L.AdaptiveMaxPooling1D(5)(x)[0, :, 0].numpy()
    assert got.tolist() == [1.0, 2.0, 4.0, 5.0, 6.0]
    image = ramp(1, 5, 4, 2)
    got = L.AdaptiveAveragePooling2D((2, 2))(image).numpy()
    np.testing.assert_allclose(got[0, 1, 0], image[0, 2:5, 0:2].mean(axis=(0, 1)), rtol=1e-5)


@pytest.mark.parametrize("make,x", [
    (lambda **k: L.EinsumDense("abc,cde->abde", (None, 2, 2), bias_axes="e", **k),
     ramp(1, 2, 3)),
    (lambda **k: L.EinsumDense("...b,bc->...c", 2, bias_axes="c", **k), ramp(1, 2, 2, 3)),
    (lambda **k: L.GroupNormalization(2, **k), ramp(2, 3, 4)),
    (lambda **k: L.RMSNormalization(**k), ramp(2, 3)),
], ids=["einsum", "einsum_elided", "groupnorm", "rmsnorm"])
def test_gradients_match_finite_differences(make, x):
    layer = make(dtype="float64")
    layer(x.astype("float64"))
    for w in layer.trainable_weights:  # away from the initial ones/zeros
        w.assign(w.numpy() + ramp(*w.shape, phase=1.0).astype("float64") * 0.3)
    check_weight_grads(layer, x)
    check_grads(lambda t: layer(t), x.astype("float64"))


@pytest.mark.parametrize("make", [
    lambda **k: L.UnitNormalization(**k), lambda **k: L.AdaptiveAveragePooling1D(2, **k),
    lambda **k: L.AdaptiveMaxPooling2D((2, 1), **k)], ids=["unit", "avg", "max"])
def test_input_gradients_match_finite_differences(make):
    layer = make(dtype="float64")
    shape = (1, 3, 3, 2) if isinstance(layer, L.AdaptiveMaxPooling2D) else (1, 3, 2)
    check_grads(lambda t: layer(t), ramp(*shape).astype("float64"))


@pytest.mark.parametrize("layer", [
    L.EinsumDense("abc,cd->abd", (None, 3), bias_axes="d", activation="relu",
                  kernel_regularizer="l2"),
    L.GroupNormalization(4, axis=1, center=False, gamma_initializer="zeros"),
    L.RMSNormalization(axis=[1, 2], epsilon=0.5), L.UnitNormalization([1, 2]),
    L.AdaptiveMaxPooling3D((1, 2, 3), data_format="channels_first"),
    L.AdaptiveAveragePooling1D(3)], ids=lambda layer: type(layer).__name__)
def test_config_round_trip(layer):
    config = json.loads(json.dumps(tf.keras.layers.serialize(layer)))
    again = tf.keras.layers.deserialize(config)
    assert type(again) is type(layer) and plain(again.get_config()) == plain(layer.get_config())


def test_errors_teach():
    with pytest.raises(ValueError, match="choose a divisor"):
        L.GroupNormalization(2)(tf.ones([1, 3]))
    pool = L.AdaptiveAveragePooling1D(2)
    traced = tf.function(pool, input_signature=[tf.TensorSpec([1, None, 3])])
    with pytest.raises(ValueError, match="give the spatial sizes"):
        traced(tf.ones([1, 4, 3]))
    with pytest.raises(NotImplementedError, match="no LoRA"):
        L.EinsumDense("ab,bc->ac", 2, lora_rank=2)


def test_the_new_layers_train_in_a_traced_fit_step():
    tf.random.set_seed(3)
    model = tf.keras.Sequential([
        tf.keras.Input((6, 3)), L.ZeroPadding1D(1), L.Cropping1D((1, 0)), L.UpSampling1D(2),
        L.EinsumDense("abc,cd->abd", (None, 4), bias_axes="d"), L.GroupNormalization(2),
        L.RMSNormalization(), L.GaussianNoise(0.01), L.AdaptiveAveragePooling1D(3),
        L.Permute((2, 1)), L.Flatten(), L.Dense(1)])
    model.compile(tf.keras.optimizers.Adam(0.05), "mse")
    x, y = ramp(8, 6, 3), ramp(8, 1, phase=1.0)
    history = model.fit(x, y, epochs=12, batch_size=4, verbose=0)
    losses = history.history["loss"]
    assert losses[-1] < 0.7 * losses[0]
    np.testing.assert_allclose(model.predict(x, verbose=0), model(x).numpy(), rtol=1e-5,
                               atol=1e-6)
