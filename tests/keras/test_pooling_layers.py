"""Pooling layers: shapes, numbers against TF 2.21 and NumPy, configs, gradients, errors."""
import numpy as np
import pytest

import minitf as tf
from tests.gradcheck import check_grads

keras = tf.keras
L = tf.keras.layers
RNG = np.random.default_rng(1)
X = np.sin(np.arange(2 * 5 * 4 * 3) * 0.7).reshape(2, 5, 4, 3).astype("float32")


def checksums(y):
    y = np.asarray(y, dtype=np.float64)
    return [y.sum(), (y * np.cos(np.arange(y.size)).reshape(y.shape)).sum()]


# (layer, input) -> (output shape, sum(y), sum(y * cos(arange))): verified against TF 2.21.
TF_CASES = [
    (lambda: L.MaxPooling2D(), X, (2, 2, 2, 3), 20.212648391723633, -0.5274390632722757),
    (lambda: L.MaxPooling2D(3, 2, "same"), X, (2, 3, 2, 3), 30.45591163635254,
     -0.3624469962351349),
    (lambda: L.AveragePooling2D(3, 2, "same"), X, (2, 3, 2, 3), -0.31727197766304016,
     0.4318244628756135),
    (lambda: L.AveragePooling2D((2, 1)), X, (2, 2, 4, 3), -0.34953856468200684,
     -4.221080123175728),
    (lambda: L.GlobalAveragePooling2D(), X, (2, 3), 0.09673137962818146, 0.10568922093149005),
    (lambda: L.GlobalMaxPooling2D(keepdims=True), X, (2, 1, 1, 3), 5.1714372634887695,
     -0.18978453494052605),
    (lambda: L.MaxPooling2D(2, data_format="channels_first"), X, (2, 5, 2, 1),
     15.618280410766602, 0.9056820254984983),
    (lambda: L.AveragePooling2D(2, padding="same", data_format="channels_first"), X,
     (2, 5, 2, 2), 0.7473080158233643, 4.430245312983872),
    (lambda: L.MaxPooling1D(), X.reshape(2, 20, 3), (2, 10, 3), 34.166053771972656,
     1.3414029169441315),
    (lambda: L.MaxPooling1D(3, 2, "same"), X.reshape(2, 20, 3), (2, 10, 3), 49.942901611328125,
     -0.05543755865627986),
    (lambda: L.AveragePooling1D(4, 3, "same"), X.reshape(2, 20, 3), (2, 7, 3),
     -2.525512933731079, 0.3454971364108493),
    (lambda: L.AveragePooling1D(3, 2), X.reshape(2, 20, 3), (2, 9, 3), 0.0001247526379302144,
     0.008526331409201324),
    (lambda: L.GlobalMaxPooling1D(), X.reshape(2, 20, 3), (2, 3), 5.1714372634887695,
     -0.18978453494052605),
    (lambda: L.GlobalAveragePooling1D(keepdims=True), X.reshape(2, 20, 3), (2, 1, 3),
     0.09673137962818146, 0.10568922093149005),
    (lambda: L.MaxPooling3D((2, 1, 2)), X.reshape(2, 5, 2, 2, 3), (2, 2, 2, 1, 3),
     20.212648391723633, -0.5274390632722757),
    (lambda: L.AveragePooling3D(2, padding="same"), X.reshape(2, 5, 2, 2, 3), (2, 3, 1, 1, 3),
     0.5710415840148926, 0.22932548336786995),
    (lambda: L.GlobalAveragePooling3D(), X.reshape(2, 5, 2, 2, 3), (2, 3), 0.09673137962818146,
     0.10568922093149005),
    (lambda: L.GlobalMaxPooling3D(), X.reshape(2, 5, 2, 2, 3), (2, 3), 5.1714372634887695,
     -0.18978453494052605),
]


@pytest.mark.parametrize("make,x,shape,total,weighted", TF_CASES)
def test_numbers_match_tensorflow(make, x, shape, total, weighted):
    layer = make()
    y = layer(x)
    assert y.shape == shape
    assert layer.compute_output_shape(x.shape) == shape
    assert layer.count_params() == 0 and layer.weights == []
    np.testing.assert_allclose(checksums(y), [total, weighted], rtol=1e-5, atol=1e-5)


def test_max_and_average_pooling_match_numpy():
    x = RNG.normal(size=(2, 6, 4, 3)).astype("float32")
    windows = x.reshape(2, 3, 2, 2, 2, 3)  # (n, i, a, j, b, c): 2x2 windows, stride 2
    np.testing.assert_allclose(L.MaxPooling2D()(x).numpy(), windows.max(axis=(2, 4)))
    np.testing.assert_allclose(L.AveragePooling2D(2)(x).numpy(), windows.mean(axis=(2, 4)),
                               rtol=1e-6)
    np.testing.assert_allclose(L.GlobalMaxPool2D()(x).numpy(), x.max(axis=(1, 2)))
    np.testing.assert_allclose(L.GlobalAvgPool1D()(x[:, :, 0]).numpy(), x[:, :, 0].mean(1),
                               rtol=1e-6)


def test_gradients_match_finite_differences():
    x = RNG.normal(size=(1, 4, 4, 2))
    for layer in [L.AveragePooling2D(3, 1, "same", dtype="float64"),
                  L.MaxPooling2D(dtype="float64"),
                  L.GlobalAveragePooling2D(dtype="float64")]:
        check_grads(layer, x)


def test_configs_names_and_aliases():
    keras.backend.clear_session()
    layer = L.MaxPooling2D()
    config = layer.get_config()
    assert layer.name == "max_pooling2d"
    assert {k: config[k] for k in list(config)[3:]} == {
        "pool_size": (2, 2), "padding": "valid", "strides": (2, 2),
        "data_format": "channels_last"}
    assert L.AveragePooling1D(3, strides=1, padding="SAME").get_config()["strides"] == (1,)
    glob = L.GlobalMaxPooling2D(keepdims=True)
    assert glob.name == "global_max_pooling2d"
    assert list(glob.get_config().items())[3:] == [("data_format", "channels_last"),
                                                   ("keepdims", True)]
    assert L.MaxPooling2D.from_config(config).get_config() == config
    assert L.MaxPool2D is L.MaxPooling2D and L.AvgPool2D is L.AveragePooling2D
    assert L.GlobalAvgPool2D is L.GlobalAveragePooling2D
    assert L.GlobalMaxPool1D is L.GlobalMaxPooling1D


def test_in_model_with_unknown_batch_and_tf_function():
    model = keras.Sequential([keras.Input((8, 8, 2)), L.Conv2D(4, 3, padding="same"),
                              L.MaxPooling2D(), L.AveragePooling2D(2, padding="same"),
                              L.GlobalAveragePooling2D()])
    assert model.output_shape == (None, 4)
    x = RNG.normal(size=(3, 8, 8, 2)).astype("float32")
    graph = tf.function(model)(tf.constant(x))
    np.testing.assert_allclose(graph.numpy(), model(x).numpy(), rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("make,message", [
    (lambda: L.MaxPooling2D((2, 2, 2)), r"The `pool_size` argument must be a tuple of 2"),
    (lambda: L.MaxPooling2D(0), r"including values \{0\} that do not satisfy `value > 0`"),
    (lambda: L.MaxPooling2D()(tf.zeros([3, 4, 4])), "expected ndim=4, found ndim=3"),
    (lambda: L.MaxPooling2D(padding="full"), "The `padding` argument must be"),
    (lambda: L.GlobalAveragePooling2D(data_format="NHWC"), "`data_format` argument must be"),
])
def test_errors(make, message):
    with pytest.raises(ValueError, match=message):
        make()
