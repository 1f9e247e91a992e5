"""Cropping/ZeroPadding/UpSampling 1-3D, Permute, RepeatVector, Dot/dot, ThresholdedReLU and
the noise layers (GaussianNoise, GaussianDropout, AlphaDropout, ActivityRegularization):
values, shapes, gradients, errors, configs, a .keras round trip -- and the same as real
Keras 3.15 (one TF subprocess for the file, see layer_compare.py)."""
import json
import math

import numpy as np
import pytest

import minitf as tf
from gradcheck import check_grads
from layer_compare import case, model_spec, plain, real_keras, run_case

L = tf.keras.layers


def ramp(*shape):
    return (np.sin(np.arange(int(np.prod(shape))) * 0.9) * 2).reshape(shape).astype("float32")


X3, X4, X5 = ramp(2, 6, 3), ramp(2, 4, 5, 3), ramp(1, 3, 4, 4, 2)

CASES = {
    "crop1d": case("Cropping1D", {"cropping": [1, 2]}, X3),
    "crop1d_default": case("Cropping1D", {}, X3),
    "crop2d": case("Cropping2D", {"cropping": [[1, 0], [2, 1]]}, X4),
    "crop2d_cf": case("Cropping2D", {"cropping": 1, "data_format": "channels_first"}, X4),
    "crop3d": case("Cropping3D", {"cropping": [[1, 0], [0, 1], [1, 1]]}, X5),
    "crop3d_default": case("Cropping3D", {}, X5),
    "pad1d": case("ZeroPadding1D", {"padding": [1, 2]}, X3),
    "pad2d": case("ZeroPadding2D", {"padding": [[1, 0], [2, 1]]}, X4),
    "pad2d_cf": case("ZeroPadding2D", {"padding": 1, "data_format": "channels_first"}, X4),
    "pad3d": case("ZeroPadding3D", {"padding": [1, [0, 1], 2]}, X5),
    "up1d": case("UpSampling1D", {"size": 3}, X3),
    "up2d": case("UpSampling2D", {"size": [2, 3]}, X4),
    "up2d_bilinear": case("UpSampling2D", {"size": 2, "interpolation": "bilinear"}, X4),
    "up2d_bilinear_cf": case("UpSampling2D", {"size": [1, 2], "interpolation": "bilinear",
                                              "data_format": "channels_first"}, X4),
    "up3d": case("UpSampling3D", {"size": [1, 2, 2], "data_format": "channels_first"}, X5),
    "permute": case("Permute", {"dims": [2, 1]}, X3),
    "permute3": case("Permute", {"dims": [3, 1, 2]}, X4),
    "repeat": case("RepeatVector", {"n": 3}, X3[:, 0]),
    "thresholded": case("ThresholdedReLU", {"theta": 0.1}, X3),
    "thresholded_default": case("ThresholdedReLU", {}, X3),
    "dot_1": case("Dot", {"axes": 1}, [X3[:, 0], X3[:, 1]]),
    "dot_pair": case("Dot", {"axes": [1, 2]}, [X3, ramp(2, 4, 6)]),
    "dot_normalize": case("Dot", {"axes": -1, "normalize": True}, [X3, ramp(2, 5, 3)]),
    "dot_2d_3d": case("Dot", {"axes": [1, 2]}, [X3[:, 0], ramp(2, 4, 3)]),
    "noise": case("GaussianNoise", {"stddev": 0.1, "seed": 3}, X3),
    "gauss_dropout": case("GaussianDropout", {"rate": 0.3}, X3),
    "alpha_dropout": case("AlphaDropout", {"rate": 0.2, "seed": 1}, X3),
    "activity": case("ActivityRegularization", {"l1": 0.01, "l2": 0.02}, X3),
}

ERRORS = {
    "crop1d_too_big": {"class": "Cropping1D", "kwargs": {"cropping": [3, 3]}, "x": X3.tolist()},
    "crop2d_three": {"class": "Cropping2D", "kwargs": {"cropping": [1, 2, 3]}},
    "crop2d_negative": {"class": "Cropping2D", "kwargs": {"cropping": -1}},
    "crop3d_too_big": {"class": "Cropping3D", "kwargs": {"cropping": 2}, "x": X5.tolist()},
    "pad3d_two": {"class": "ZeroPadding3D", "kwargs": {"padding": [1, 1]}},
    "pad1d_negative": {"class": "ZeroPadding1D", "kwargs": {"padding": -1}},
    "up1d_zero": {"class": "UpSampling1D", "kwargs": {"size": 0}},
    "up1d_float": {"class": "UpSampling1D", "kwargs": {"size": 1.5}},
    "up2d_zero": {"class": "UpSampling2D", "kwargs": {"size": 0}},
    "repeat_zero": {"class": "RepeatVector", "kwargs": {"n": 0}},
    "repeat_float": {"class": "RepeatVector", "kwargs": {"n": 2.0}},
    "permute_gap": {"class": "Permute", "kwargs": {"dims": [1, 3]}},
    "noise_big": {"class": "GaussianNoise", "kwargs": {"stddev": 2}},
    "gauss_dropout_negative": {"class": "GaussianDropout", "kwargs": {"rate": -0.1}},
    "thresholded_negative": {"class": "ThresholdedReLU", "kwargs": {"theta": -1}},
    "thresholded_none": {"class": "ThresholdedReLU", "kwargs": {"theta": None}},
    "dot_axes_str": {"class": "Dot", "kwargs": {"axes": "a"}},
    "dot_axes_three": {"class": "Dot", "kwargs": {"axes": [1, 2, 3]}},
    "dot_mismatch": {"class": "Dot", "kwargs": {"axes": 1}, "multi": True,
                     "x": [np.ones((2, 3)).tolist(), np.ones((2, 4)).tolist()]},
}


def make_model():
    tf.random.set_seed(5)
    layers = [L.ZeroPadding1D(1), L.Cropping1D((2, 1)), L.UpSampling1D(2), L.Permute((2, 1)),
              L.Flatten(), L.Dense(2), L.RepeatVector(2), L.GaussianNoise(0.1),
              L.ActivityRegularization(0.01), L.ThresholdedReLU(0.05)]
    return model_spec(layers, X3)


@pytest.fixture(scope="module")
def keras(tmp_path_factory):
    folder = tmp_path_factory.mktemp("reshaping")
    model = make_model()
    return real_keras(CASES, {"stack": model}, ERRORS, folder), model, folder


@pytest.mark.parametrize("key", sorted(CASES))
def test_values_shapes_and_configs_equal_real_keras(keras, key):
    theirs = keras[0]["cases"][key]
    layer, y = run_case(CASES[key])
    np.testing.assert_allclose(y, theirs["y"], rtol=1e-5, atol=1e-6)
    assert y.dtype.name == theirs["dtype"]
    config = layer.get_config()
    config.pop("name")
    assert plain(config) == theirs["config"]
    assert theirs["from_minitf_config"] == theirs["config"]  # Keras reads minitf's config
    np.testing.assert_allclose(theirs["from_minitf_y"], y, rtol=1e-5, atol=1e-6)
    assert [w.name for w in layer.weights] == [w[0] for w in theirs["weights"]]
    assert [float(v) for v in layer.losses] == pytest.approx(theirs["losses"], rel=1e-5)


@pytest.mark.parametrize("key", sorted(CASES))
def test_symbolic_shape_is_keras_shape(keras, key):
    c = CASES[key]
    layer = L.deserialize(c["serialized"])
    if c["multi"]:
        ins = [tf.keras.Input(np.asarray(v).shape[1:]) for v in c["x"]]
    else:
        ins = tf.keras.Input(np.asarray(c["x"]).shape[1:])
    assert list(layer(ins).shape) == keras[0]["cases"][key]["symbolic_shape"]


@pytest.mark.parametrize("key", sorted(ERRORS))
def test_bad_arguments_raise_keras_error(keras, key):
    theirs = keras[0]["errors"][key]
    assert theirs is not None
    spec = ERRORS[key]
    with pytest.raises(Exception) as raised:
        layer = getattr(tf.keras.layers, spec["class"])(**spec["kwargs"])
        if spec.get("x") is not None:
            x = spec["x"]
            layer([tf.constant(v, "float32") for v in x] if spec.get("multi")
                  else tf.constant(x, "float32"))
    assert type(raised.value).__name__ == theirs[0]
    message = theirs[1]
    if "\x1b[1m" in message:  # Keras wraps errors from call() in "Exception encountered ..."
        message = message.split("\x1b[1m", 1)[1].split("\x1b[0m", 1)[0]
    # the same first words as Keras's message (minitf may add a sentence that teaches)
    assert str(raised.value)[:24] == message[:24], (str(raised.value), message)


def test_keras_file_both_ways(keras):
    theirs, (model, spec), folder = keras
    x = np.asarray(spec["x"], "float32")
    mine = model.predict(x, verbose=0)
    np.testing.assert_allclose(theirs["models"]["stack"]["mine"], mine, rtol=1e-5, atol=1e-6)
    loaded = tf.keras.models.load_model(str(folder / "keras_stack.keras"))
    assert [type(layer).__name__ for layer in loaded.layers] == \
        [type(layer).__name__ for layer in model.layers]
    np.testing.assert_allclose(loaded.predict(x, verbose=0), theirs["models"]["stack"]["theirs"],
                               rtol=1e-5, atol=1e-6)
    np.testing.assert_allclose(loaded.predict(x, verbose=0), mine, rtol=1e-5, atol=1e-6)


# ---- without real TF ------------------------------------------------------------------------

def test_values_by_hand():
    x = tf.constant(np.arange(6.0).reshape(1, 6, 1))
    assert L.Cropping1D((1, 2))(x)[0, :, 0].numpy().tolist() == [1.0, 2.0, 3.0]
    assert L.ZeroPadding1D((2, 1))(x)[0, :, 0].numpy().tolist() == \
        [0, 0, 0, 1, 2, 3, 4, 5, 0]
    assert L.UpSampling1D(2)(x[:, :2])[0, :, 0].numpy().tolist() == [0, 0, 1, 1]
    image = np.arange(12.0).reshape(1, 3, 4, 1)
    np.testing.assert_array_equal(L.Cropping2D(((1, 0), (1, 2)))(image)[0, :, :, 0],
                                  image[0, 1:, 1:2, 0])
    np.testing.assert_array_equal(L.ZeroPadding2D(((0, 1), (2, 0)))(image)[0, :, :, 0],
                                  np.pad(image[0, :, :, 0], ((0, 1), (2, 0))))
    np.testing.assert_array_equal(L.UpSampling2D((2, 1))(image)[0, :, :, 0],
                                  np.repeat(image[0, :, :, 0], 2, axis=0))
    volume = np.arange(24.0).reshape(1, 2, 3, 4, 1)
    np.testing.assert_array_equal(L.UpSampling3D((2, 1, 2))(volume),
                                  np.repeat(np.repeat(volume, 2, 1), 2, 3))
    np.testing.assert_array_equal(L.Cropping3D(((1, 0), (0, 1), (1, 1)))(volume),
                                  volume[:, 1:, :2, 1:3])
    np.testing.assert_array_equal(L.Permute((2, 3, 1))(tf.constant(X4)),
                                  X4.transpose(0, 2, 3, 1))
    np.testing.assert_array_equal(L.RepeatVector(2)(tf.constant([[1.0, 2.0]])),
                                  [[[1.0, 2.0], [1.0, 2.0]]])
    assert L.ThresholdedReLU(1.0)(tf.constant([1.0, 1.5])).numpy().tolist() == [0.0, 1.5]


def test_bilinear_up_sampling_is_half_pixel_interpolation():
    got = L.UpSampling2D((1, 2), interpolation="bilinear")(
        tf.constant([[[[0.0], [4.0]]]]))[0, 0, :, 0].numpy()
    # output pixel centres 0.25, 0.75, 1.25, 1.75 in input pixels (clamped at the edges)
    np.testing.assert_allclose(got, [0.0, 1.0, 3.0, 4.0])


def test_dot_values_and_cosine_similarity():
    a, b = np.array([[1.0, 2.0, 2.0]], "float32"), np.array([[2.0, 0.0, 1.0]], "float32")
    assert L.Dot(axes=1)([a, b]).numpy().tolist() == [[4.0]]
    np.testing.assert_allclose(L.dot([a, b], axes=1, normalize=True).numpy(),
                               [[4.0 / (3.0 * math.sqrt(5.0))]], rtol=1e-6)
    x, y = ramp(2, 3, 4), ramp(2, 5, 4)
    np.testing.assert_allclose(L.Dot(axes=2)([x, y]).numpy(), np.einsum("bik,bjk->bij", x, y),
                               rtol=1e-5)
    np.testing.assert_allclose(L.Dot(axes=(1, 1))([x, ramp(2, 3, 2)]).numpy(),
                               np.einsum("bki,bkj->bij", x, ramp(2, 3, 2)), rtol=1e-5)


def test_noise_layers_are_identity_at_inference_and_noisy_in_training():
    x = tf.ones([200, 50])
    for layer in (L.GaussianNoise(0.5), L.GaussianDropout(0.5), L.AlphaDropout(0.5)):
        np.testing.assert_array_equal(layer(x).numpy(), x.numpy())
        assert layer.compute_output_shape((None, 50)) == (None, 50)
    noise = L.GaussianNoise(0.5, seed=2)(x, training=True).numpy() - 1.0
    assert abs(noise.mean()) < 0.02 and abs(noise.std() - 0.5) < 0.02
    factor = L.GaussianDropout(0.2, seed=2)(x, training=True).numpy()
    assert abs(factor.mean() - 1.0) < 0.02 and abs(factor.std() - 0.5) < 0.02  # sqrt(.2/.8)


def test_alpha_dropout_keeps_mean_zero_and_variance_one():
    rate = 0.3
    # not seed=4 twice: as in TF, normal and uniform kernels with the same seeds read the
    # same Philox stream, so the input and the dropout mask would be correlated
    x = tf.random.normal([400, 100], seed=5)
    y = L.AlphaDropout(rate, seed=4)(x, training=True).numpy()
    assert abs(y.mean()) < 0.03 and abs(y.var() - 1.0) < 0.05
    alpha_p = -1.6732632423543772 * 1.0507009873554805
    a = ((1 - rate) * (1 + rate * alpha_p ** 2)) ** -0.5
    dropped = np.isclose(y, a * alpha_p - a * alpha_p * rate, atol=1e-6)
    assert abs(dropped.mean() - rate) < 0.02


def test_activity_regularization_adds_its_penalty_to_the_loss():
    layer = L.ActivityRegularization(l1=0.1, l2=0.5)
    x = np.array([[1.0, -2.0], [0.0, 3.0]], "float32")
    np.testing.assert_array_equal(layer(x).numpy(), x)
    expected = (0.1 * np.abs(x).sum() + 0.5 * (x ** 2).sum()) / 2  # / batch size
    assert [float(v) for v in layer.losses] == pytest.approx([expected])
    assert "activity_regularizer" not in layer.get_config()


@pytest.mark.parametrize("make,shape", [
    (lambda **k: L.Cropping2D(((1, 0), (0, 1)), **k), (1, 3, 3, 1)),
    (lambda **k: L.ZeroPadding3D(1, **k), (1, 1, 2, 1, 1)),
    (lambda **k: L.UpSampling1D(2, **k), (1, 2, 2)),
    (lambda **k: L.Permute((2, 1), **k), (1, 2, 3)),
    (lambda **k: L.RepeatVector(2, **k), (1, 3)),
], ids=["crop", "pad", "up1d", "permute", "repeat"])
def test_gradients_match_finite_differences(make, shape):
    layer = make(dtype="float64")  # float64 layers: finite differences need the precision
    check_grads(lambda x: layer(x), ramp(*shape).astype("float64"))


def test_bilinear_up_sampling_gradient_is_its_matrix_transposed():
    # tf.image.resize computes in float32 (as TF does), too coarse for finite differences;
    # the map is linear, so its columns are the outputs of the unit images -- exactly.
    layer = L.UpSampling2D((2, 3), interpolation="bilinear")
    x = tf.constant(ramp(1, 2, 3, 1))
    w = tf.constant(ramp(1, 4, 9, 1) + 2.0)
    with tf.GradientTape() as tape:
        tape.watch(x)
        loss = tf.reduce_sum(layer(x) * w)
    units = np.eye(6, dtype="float32").reshape(6, 2, 3, 1)
    columns = layer(units).numpy().reshape(6, -1)  # row i: the output of unit image i
    np.testing.assert_allclose(tape.gradient(loss, x).numpy().ravel(),
                               columns @ w.numpy().ravel(), rtol=1e-5)


def test_dot_gradients_match_finite_differences():
    layer = L.Dot(axes=(1, 2), normalize=True, dtype="float64")
    check_grads(lambda a, b: layer([a, b]), ramp(1, 3, 2).astype("float64") + 3,
                ramp(1, 2, 3).astype("float64") + 3)


@pytest.mark.parametrize("layer", [
    L.Cropping2D(((1, 2), (3, 4)), data_format="channels_first"), L.ZeroPadding1D((0, 2)),
    L.UpSampling2D((2, 1), interpolation="bilinear"), L.UpSampling3D(3), L.Permute((3, 1, 2)),
    L.RepeatVector(4), L.Dot((1, 2), normalize=True), L.GaussianNoise(0.2, seed=1),
    L.GaussianDropout(0.1), L.AlphaDropout(0.1, seed=2), L.ActivityRegularization(0.1, 0.2),
    L.ThresholdedReLU(0.5)], ids=lambda layer: type(layer).__name__)
def test_config_round_trip(layer):
    config = json.loads(json.dumps(tf.keras.layers.serialize(layer)))
    again = tf.keras.layers.deserialize(config)
    assert type(again) is type(layer) and plain(again.get_config()) == plain(layer.get_config())


def test_errors_teach():
    with pytest.raises(ValueError, match="At least one entry must remain"):
        L.Cropping2D(2)(tf.ones([1, 4, 4, 1]))
    with pytest.raises(ValueError, match="Axis 0 .the batch. never moves"):
        L.Permute((0, 1))
    with pytest.raises(ValueError, match="must have the same size"):
        L.Dot(axes=1)([tf.ones([1, 2]), tf.ones([1, 3])])
    with pytest.raises(ValueError, match="a divisor of the channels"):
        L.GroupNormalization(3)(tf.ones([1, 4]))
