"""Wrapper, SpectralNormalization, ReversibleEmbedding, ConvLSTM1D and ConvLSTM3D: values,
weights (names, paths, order), gradients against finite differences, errors, configs,
.keras files both ways -- and the same as real Keras 3.15 (one TF subprocess for the file,
see layer_compare.py)."""
import json

import numpy as np
import pytest

import minitf as tf
from gradcheck import check_grads
from layer_compare import (case, check_weight_grads, model_spec, plain, real_keras,
                           run_case)

L = tf.keras.layers


def ramp(*shape, phase=0.0, scale=0.5):
    n = int(np.prod(shape))
    return (np.sin(np.arange(n) * 0.7 + phase) * scale).reshape(shape).astype("float32")


def dense(units, name, **kwargs):
    return L.serialize(L.Dense(units, name=name, **kwargs))


IDS = np.array([[1, 0, 4], [3, 3, 2]], "int32")

CASES = {
    "spectral_dense": case("SpectralNormalization", {"layer": dense(3, "inner")},
                           ramp(2, 4), training=True,
                           weights=[ramp(4, 3, phase=1), ramp(1, 3, phase=2),
                                    ramp(3, phase=3)]),
    "spectral_dense_inference": case("SpectralNormalization",
                                     {"layer": dense(3, "inner"), "power_iterations": 3},
                                     ramp(2, 4), weights=[ramp(4, 3, phase=1),
                                                          ramp(1, 3, phase=2), ramp(3)]),
    "spectral_conv": case("SpectralNormalization", {
        "layer": L.serialize(L.Conv1D(2, 2, name="conv")), "power_iterations": 2},
        ramp(2, 5, 3), training=True,
        weights=[ramp(2, 3, 2, phase=1), ramp(1, 2, phase=2), ramp(2, phase=3)]),
    "reversible": case("ReversibleEmbedding", {"input_dim": 6, "output_dim": 4}, IDS,
                       dtype="int32", weights=[ramp(6, 4, phase=1)]),
    "reversible_mask": case("ReversibleEmbedding", {"input_dim": 6, "output_dim": 4,
                                                    "mask_zero": True}, IDS, dtype="int32",
                            weights=[ramp(6, 4, phase=1)]),
    "reversible_reverse": case("ReversibleEmbedding", {"input_dim": 6, "output_dim": 4},
                               ramp(2, 3, 4), call={"reverse": True},
                               weights=[ramp(6, 4, phase=1)]),
    "reversible_untied_cap": case("ReversibleEmbedding", {
        "input_dim": 6, "output_dim": 4, "tie_weights": False, "logit_soft_cap": 0.5},
        ramp(2, 4), call={"reverse": True},
        weights=[ramp(6, 4, phase=1), ramp(4, 6, phase=2)]),
    "conv_lstm1d": case("ConvLSTM1D", {"filters": 2, "kernel_size": 2, "padding": "same",
                                       "return_sequences": True}, ramp(2, 3, 4, 2),
                        weights=[ramp(2, 2, 8, phase=1), ramp(2, 2, 8, phase=2),
                                 ramp(8, phase=3)]),
    "conv_lstm1d_strided": case("ConvLSTM1D", {"filters": 1, "kernel_size": 3, "strides": 2,
                                               "go_backwards": True}, ramp(1, 2, 7, 1),
                                weights=[ramp(3, 1, 4, phase=1), ramp(3, 1, 4, phase=2),
                                         ramp(4, phase=3)]),
    "conv_lstm3d": case("ConvLSTM3D", {"filters": 2, "kernel_size": 2,
                                       "recurrent_activation": "hard_sigmoid"},
                        ramp(1, 2, 3, 3, 2, 1),
                        weights=[ramp(2, 2, 2, 1, 8, phase=1), ramp(2, 2, 2, 2, 8, phase=2),
                                 ramp(8, phase=3)]),
}

ERRORS = {
    "wrapper_not_layer": {"class": "SpectralNormalization", "kwargs": {"layer": 3}},
    "spectral_iterations": {"class": "SpectralNormalization",
                            "kwargs": {"layer": dense(2, "d"), "power_iterations": 0}},
    "spectral_no_kernel": {"class": "SpectralNormalization",
                           "kwargs": {"layer": L.serialize(L.ReLU(name="r"))},
                           "x": ramp(1, 2).tolist()},
    "conv_lstm3d_rank": {"class": "ConvLSTM3D", "kwargs": {"filters": 1, "kernel_size": 1},
                         "x": ramp(1, 2, 3, 3, 1).tolist()},
    "conv_lstm1d_kernel": {"class": "ConvLSTM1D", "kwargs": {"filters": 1,
                                                             "kernel_size": (1, 2)}},
}

EXTRA = """
out["extra"] = {
    "time_distributed_is_wrapper": issubclass(L.TimeDistributed, L.Wrapper),
    "bidirectional_is_wrapper": issubclass(L.Bidirectional, L.Wrapper),
    "spectral_is_wrapper": issubclass(L.SpectralNormalization, L.Wrapper),
    "reversible_is_embedding": issubclass(L.ReversibleEmbedding, L.Embedding),
    "conv_lstm_weights": [[w.path, list(w.shape)] for w in
                          (lambda l: (l(np.ones((1, 2, 4, 1), "float32")), l)[1])(
                              L.ConvLSTM1D(2, 3, name="c")).weights],
    "spectral_paths": [[w.path, w.trainable] for w in
                       (lambda l: (l(np.ones((1, 4), "float32")), l)[1])(
                           L.SpectralNormalization(L.Dense(2, name="d"), name="s")).weights],
}
"""


def make_models():
    tf.random.set_seed(11)
    lstm = model_spec([L.ConvLSTM1D(2, 2, return_sequences=True, name="c1"),
                       L.SpectralNormalization(L.Dense(3, name="inner"), name="sn"),
                       L.Flatten(), L.Dense(2)], ramp(2, 3, 4, 1))
    volume = model_spec([L.ConvLSTM3D(1, 2, padding="same"), L.Flatten()],
                        ramp(1, 2, 2, 3, 2, 1))
    embed = model_spec([L.ReversibleEmbedding(6, 3), L.Flatten(), L.Dense(2)],
                       IDS.astype("float32"))
    return {"lstm": lstm, "volume": volume, "embed": embed}


@pytest.fixture(scope="module")
def keras(tmp_path_factory):
    folder = tmp_path_factory.mktemp("wrappers_conv_lstm")
    models = make_models()
    return real_keras(CASES, models, ERRORS, folder, extra=EXTRA), models, folder


def _config(layer):
    config = plain(layer.get_config())
    config.pop("name")
    return config


@pytest.mark.parametrize("key", sorted(CASES))
def test_values_weights_and_configs_equal_real_keras(keras, key):
    theirs = keras[0]["cases"][key]
    layer, y = run_case(CASES[key])
    np.testing.assert_allclose(y, theirs["y"], rtol=1e-5, atol=1e-6)
    assert y.dtype.name == theirs["dtype"]
    if "layer" in theirs["config"]:  # minitf's Dense/Conv configs leave out Keras's
        theirs["config"]["layer"]["config"].pop("quantization_config", None)  # (off) feature
    assert _config(layer) == theirs["config"]
    theirs["from_minitf_config"].get("layer", {}).get("config", {}).pop("quantization_config",
                                                                        None)
    assert theirs["from_minitf_config"] == theirs["config"]
    np.testing.assert_allclose(theirs["from_minitf_y"], y, rtol=1e-5, atol=1e-6)
    assert [[w.path.split("/", 1)[1], list(w.shape), w.trainable] for w in layer.weights] == \
        theirs["weights"]  # (a ConvLSTM's: conv_lstm_cell/kernel, ...)


@pytest.mark.parametrize("key", sorted(CASES))
def test_symbolic_shape_is_keras_shape(keras, key):
    c = CASES[key]
    x = np.asarray(c["x"], c["dtype"])
    layer = L.deserialize(c["serialized"])
    out = layer(tf.keras.Input(x.shape[1:], dtype=c["dtype"]), **c["call"])
    assert list(out.shape) == keras[0]["cases"][key]["symbolic_shape"]


@pytest.mark.parametrize("key", sorted(ERRORS))
def test_bad_arguments_raise_keras_error(keras, key):
    theirs = keras[0]["errors"][key]
    assert theirs is not None
    spec = ERRORS[key]
    with pytest.raises(Exception) as raised:
        kwargs = dict(spec["kwargs"])
        if isinstance(kwargs.get("layer"), dict):
            kwargs["layer"] = L.deserialize(kwargs["layer"])
        layer = getattr(tf.keras.layers, spec["class"])(**kwargs)
        if spec.get("x") is not None:
            layer(tf.constant(spec["x"], "float32"))
    assert type(raised.value).__name__ == theirs[0]
    message = theirs[1]
    if "\x1b[1m" in message:  # Keras wraps errors from call() in "Exception encountered ..."
        message = message.split("\x1b[1m", 1)[1].split("\x1b[0m", 1)[0]
    assert str(raised.value)[:24] == message[:24], (str(raised.value), message)


@pytest.mark.parametrize("key", ["lstm", "volume", "embed"])
def test_keras_files_both_ways(keras, key):
    theirs, models, folder = keras
    model, spec = models[key]
    x = np.asarray(spec["x"], "float32")
    mine = model.predict(x, verbose=0)
    np.testing.assert_allclose(theirs["models"][key]["mine"], mine, rtol=1e-5, atol=1e-6)
    loaded = tf.keras.models.load_model(str(folder / f"keras_{key}.keras"))
    for a, b in zip(loaded.get_weights(), model.get_weights()):
        np.testing.assert_array_equal(a, b)
    np.testing.assert_allclose(loaded.predict(x, verbose=0), theirs["models"][key]["theirs"],
                               rtol=1e-5, atol=1e-6)


def test_class_tree_and_weight_paths_are_kerass(keras):
    extra = keras[0]["extra"]
    assert extra["time_distributed_is_wrapper"] == issubclass(L.TimeDistributed, L.Wrapper)
    assert extra["bidirectional_is_wrapper"] == issubclass(L.Bidirectional, L.Wrapper)
    assert extra["spectral_is_wrapper"] and issubclass(L.SpectralNormalization, L.Wrapper)
    assert extra["reversible_is_embedding"] and issubclass(L.ReversibleEmbedding, L.Embedding)
    conv = L.ConvLSTM1D(2, 3, name="c")
    conv(np.ones((1, 2, 4, 1), "float32"))
    assert [[w.path, list(w.shape)] for w in conv.weights] == extra["conv_lstm_weights"]
    sn = L.SpectralNormalization(L.Dense(2, name="d"), name="s")
    sn(np.ones((1, 4), "float32"))
    assert [[w.path, w.trainable] for w in sn.weights] == extra["spectral_paths"]


# ---- without real TF ------------------------------------------------------------------------

def test_wrapper_builds_and_serializes_its_layer():
    class Twice(L.Wrapper):
        def call(self, x):
            return 2 * self.layer(x)

    twice = Twice(L.Dense(2, kernel_initializer="ones", name="inner"), name="twice")
    np.testing.assert_allclose(twice(np.ones((1, 3), "float32")).numpy(), [[6.0, 6.0]])
    assert twice.layer.built and [w.path for w in twice.weights] == \
        ["twice/inner/kernel", "twice/inner/bias"]
    again = Twice.from_config(json.loads(json.dumps(twice.get_config())))
    assert isinstance(again.layer, L.Dense) and again.layer.units == 2
    with pytest.raises(ValueError, match="isn't a supported layer type"):
        Twice("dense")


def test_spectral_normalization_brings_the_spectral_norm_to_one():
    layer = L.SpectralNormalization(L.Dense(4, kernel_initializer=tf.keras.initializers.Constant(
        ramp(5, 4) + 1.0)), power_iterations=1)
    x = np.ones((2, 5), "float32")
    before = layer(x).numpy()  # inference: the kernel as it is
    for _ in range(20):       # power iteration converges over training steps
        layer(x, training=True)
    sigma = np.linalg.svd(layer.layer.kernel.numpy(), compute_uv=False)[0]
    assert abs(sigma - 1.0) < 1e-3
    assert not np.allclose(layer(x).numpy(), before)
    zeros = L.SpectralNormalization(L.Dense(2, kernel_initializer="zeros"))
    zeros(x, training=True)
    assert (zeros.layer.kernel.numpy() == 0).all()  # nothing to normalize: left alone


def test_spectral_normalization_trains_in_fit():
    model = tf.keras.Sequential([tf.keras.Input((3,)), L.SpectralNormalization(L.Dense(2))])
    model.compile("sgd", "mse")
    history = model.fit(np.ones((4, 3), "float32"), np.ones((4, 2), "float32"), epochs=2,
                        verbose=0)
    assert len(history.history["loss"]) == 2
    sigma = np.linalg.svd(model.layers[0].layer.kernel.numpy(), compute_uv=False)[0]
    assert sigma < 1.5


def test_reversible_embedding_ties_input_and_output():
    tf.keras.utils.set_random_seed(0)  # Keras 3 initializers draw from Python's random
    layer = L.ReversibleEmbedding(5, 3, mask_zero=True)
    vectors = layer(np.array([[0, 2]]))
    np.testing.assert_array_equal(vectors.numpy()[0, 1], layer.embeddings.numpy()[2])
    assert vectors._keras_mask.numpy().tolist() == [[False, True]]
    logits = layer(vectors, reverse=True)
    np.testing.assert_allclose(logits.numpy(), vectors.numpy() @ layer.embeddings.numpy().T,
                               rtol=1e-6, atol=1e-7)  # float32 sums of 3 products may cancel
    assert layer.compute_output_shape((None, 7), reverse=True) == [None, 5]
    capped = L.ReversibleEmbedding(5, 3, logit_soft_cap=0.01)
    capped.build()
    assert np.abs(capped(np.ones((2, 3), "float32"), reverse=True).numpy()).max() < 0.01


@pytest.mark.parametrize("make,x", [
    (lambda **k: L.SpectralNormalization(L.Dense(2, **k), **k), ramp(2, 3)),
    (lambda **k: L.ReversibleEmbedding(4, 3, tie_weights=False, **k), IDS[:, :2] % 4),
    (lambda **k: L.ConvLSTM1D(1, 2, **k), ramp(1, 2, 3, 1)),
    (lambda **k: L.ConvLSTM3D(1, 2, padding="same", **k), ramp(1, 2, 2, 1, 2, 1)),
], ids=["spectral", "reversible", "conv_lstm1d", "conv_lstm3d"])
def test_weight_gradients_match_finite_differences(make, x):
    layer = make(dtype="float64")
    layer(x)
    if isinstance(layer, L.ReversibleEmbedding):  # forward: the table; reverse: its own weight
        check_weight_grads(layer, x, weights=[layer.embeddings])
        check_weight_grads(_Reverse(layer), ramp(2, 3).astype("float64"),
                           weights=[layer.reverse_embeddings])
    else:
        check_weight_grads(layer, x)
        check_grads(lambda t: layer(t), x.astype("float64"))


class _Reverse(L.Layer):
    """The reverse pass of a ReversibleEmbedding as a layer (for the gradient check)."""

    def __init__(self, inner):
        super().__init__(dtype="float64")
        self.inner = inner

    def call(self, x):
        return self.inner(x, reverse=True)


@pytest.mark.parametrize("layer", [
    L.SpectralNormalization(L.Conv2D(2, 3), power_iterations=2),
    L.ReversibleEmbedding(10, 2, tie_weights=False, mask_zero=True, logit_soft_cap=3.0),
    L.ConvLSTM1D(3, 2, strides=2, dropout=0.1, return_state=True),
    L.ConvLSTM3D(2, (1, 2, 3), padding="same", go_backwards=True)],
    ids=lambda layer: type(layer).__name__)
def test_config_round_trip(layer):
    config = json.loads(json.dumps(tf.keras.layers.serialize(layer)))
    again = tf.keras.layers.deserialize(config)
    assert type(again) is type(layer) and plain(again.get_config()) == plain(layer.get_config())
