"""Convolution layers: parameter counts derived by hand, output shapes, configs,
numbers against TF 2.21 and a NumPy reference, gradients, Keras's errors."""
import numpy as np
import pytest

import minitf as tf
from tests.gradcheck import check_grads

keras = tf.keras
L = tf.keras.layers
RNG = np.random.default_rng(0)


def pattern(shape, scale=0.1):
    n = int(np.prod(shape))
    return (np.sin(np.arange(n) * 0.7 + 0.3) * scale * 10).reshape(shape).astype("float32")


@pytest.mark.parametrize("make,shape,count", [
    (lambda: L.Conv1D(4, 3), (2, 7, 3), 3 * 3 * 4 + 4),
    (lambda: L.Conv2D(4, 3), (1, 5, 5, 2), 3 * 3 * 2 * 4 + 4),
    (lambda: L.Conv2D(4, 3, use_bias=False), (1, 5, 5, 2), 3 * 3 * 2 * 4),
    (lambda: L.Conv2D(6, 3, groups=3), (1, 5, 5, 6), 3 * 3 * (6 // 3) * 6 + 6),
    (lambda: L.Conv3D(2, 2), (1, 3, 3, 3, 2), 2 * 2 * 2 * 2 * 2 + 2),
    (lambda: L.DepthwiseConv2D(3, depth_multiplier=2), (1, 5, 5, 3), 3 * 3 * 3 * 2 + 3 * 2),
    (lambda: L.SeparableConv2D(4, 3, depth_multiplier=2), (1, 5, 5, 3),
     3 * 3 * 3 * 2 + 1 * 1 * 6 * 4 + 4),
    (lambda: L.SeparableConv1D(4, 3), (1, 5, 3), 3 * 3 * 1 + 3 * 4 + 4),
    (lambda: L.Conv2DTranspose(4, 3, strides=2), (1, 3, 3, 2), 3 * 3 * 4 * 2 + 4),
    (lambda: L.Conv1DTranspose(4, 3), (1, 3, 2), 3 * 4 * 2 + 4),
    (lambda: L.Conv3DTranspose(2, 2), (1, 2, 2, 2, 2), 2 ** 3 * 2 * 2 + 2),
])
def test_parameter_counts_by_hand(make, shape, count):
    layer = make()
    layer(tf.zeros(shape))
    assert layer.count_params() == count


# (layer, kwargs, input shape) -> (output shape, sum(y), sum(y * pattern), params)
# with input and weights from `pattern`: all verified against TF 2.21.
TF_CASES = [
    ("Conv1D", {"filters": 3, "kernel_size": 3, "padding": "causal", "dilation_rate": 2}, (2, 7, 2),
     ((2, 7, 3), 17.754316329956055, -0.2817777991294861, 21)),
    ("Conv1D", {"filters": 2, "kernel_size": 2, "strides": 2, "padding": "same"}, (1, 5, 3),
     ((1, 3, 2), 1.4245511293411255, -0.5942515134811401, 14)),
    ("Conv2D", {"filters": 4, "kernel_size": 3, "strides": 2, "padding": "same", "groups": 2,
                    "activation": "relu"}, (1, 6, 5, 4),
     ((1, 3, 3, 4), 15.205798149108887, 0.3232108950614929, 76)),
    ("Conv2D", {"filters": 2, "kernel_size": (2, 3), "dilation_rate": 2}, (2, 6, 6, 1),
     ((2, 4, 2, 2), 12.210872650146484, 2.697744607925415, 14)),
    ("Conv2D", {"filters": 3, "kernel_size": 2, "data_format": "channels_first"}, (1, 2, 4, 3),
     ((1, 3, 3, 2), 7.689759731292725, -1.3379324674606323, 27)),
    ("Conv3D", {"filters": 2, "kernel_size": 2, "padding": "same", "strides": (1, 2, 1)},
     (1, 3, 4, 3, 2), ((1, 3, 2, 3, 2), 11.811582565307617, -7.904469966888428, 34)),
    ("DepthwiseConv2D", {"kernel_size": 3, "depth_multiplier": 2, "padding": "same"}, (1, 4, 4, 2),
     ((1, 4, 4, 4), 26.54883575439453, -2.792712926864624, 40)),
    ("DepthwiseConv1D", {"kernel_size": 2, "strides": 2}, (1, 6, 3),
     ((1, 3, 3), 3.8144147396087646, 1.6216167211532593, 9)),
    ("SeparableConv2D", {"filters": 3, "kernel_size": 2, "depth_multiplier": 2}, (1, 4, 4, 2),
     ((1, 3, 3, 3), 14.185226440429688, -0.42343851923942566, 31)),
    ("SeparableConv1D", {"filters": 2, "kernel_size": 3, "padding": "same"}, (2, 5, 2),
     ((2, 5, 2), 8.551521301269531, 4.454054832458496, 12)),
    ("Conv2DTranspose", {"filters": 2, "kernel_size": 3, "strides": 2, "padding": "same",
                             "output_padding": 1}, (1, 3, 3, 2),
     ((1, 6, 6, 2), 24.331382751464844, 2.2683167457580566, 38)),
    ("Conv2DTranspose", {"filters": 3, "kernel_size": (2, 3), "strides": (2, 1)}, (1, 2, 3, 2),
     ((1, 4, 5, 3), 25.547435760498047, 0.7744120359420776, 39)),
    ("Conv1DTranspose", {"filters": 2, "kernel_size": 3, "strides": 2}, (1, 3, 2),
     ((1, 7, 2), 5.923827171325684, 1.5826468467712402, 14)),
    ("Conv3DTranspose", {"filters": 2, "kernel_size": 2, "strides": 2, "padding": "same"},
     (1, 2, 2, 1, 2), ((1, 4, 4, 2, 2), 22.106456756591797, -2.574169397354126, 34)),
]


@pytest.mark.parametrize("name,kwargs,shape,expected", TF_CASES)
def test_numbers_match_tensorflow(name, kwargs, shape, expected):
    layer = getattr(L, name)(**kwargs)
    x = pattern(shape)
    layer(x)
    layer.set_weights([pattern(w.shape, 0.05 + 0.01 * i) for i, w in enumerate(layer.weights)])
    y = layer(x).numpy()
    out_shape, total, weighted, count = expected
    assert y.shape == out_shape
    assert layer.compute_output_shape(shape) == out_shape
    assert layer.count_params() == count
    np.testing.assert_allclose([y.sum(), (y * pattern(y.shape)).sum()], [total, weighted],
                               rtol=1e-5, atol=1e-5)


def numpy_conv2d(x, k, b, stride, padding):
    """The definition: y[n,i,j,o] = sum_{a,b,c} x_pad[n, i*s+a, j*s+b, c] * k[a,b,c,o] + b[o]."""
    kh, kw = k.shape[:2]
    if padding == "same":
        def pads(n, kk):
            total = max((-(-n // stride) - 1) * stride + kk - n, 0)
            return total // 2, total - total // 2
        x = np.pad(x, [(0, 0), pads(x.shape[1], kh), pads(x.shape[2], kw), (0, 0)])
    oh, ow = (x.shape[1] - kh) // stride + 1, (x.shape[2] - kw) // stride + 1
    y = np.zeros((x.shape[0], oh, ow, k.shape[3]))
    for i in range(oh):
        for j in range(ow):
            patch = x[:, i * stride:i * stride + kh, j * stride:j * stride + kw, :]
            y[:, i, j, :] = np.tensordot(patch, k, axes=([1, 2, 3], [0, 1, 2]))
    return y + b


@pytest.mark.parametrize("stride,padding", [(1, "valid"), (2, "same"), (2, "valid")])
def test_conv2d_matches_numpy_definition(stride, padding):
    layer = L.Conv2D(3, (3, 2), strides=stride, padding=padding, bias_initializer="ones")
    x = RNG.normal(size=(2, 7, 6, 2)).astype("float32")
    y = layer(x).numpy()
    expected = numpy_conv2d(x, layer.kernel.numpy(), layer.bias.numpy(), stride, padding)
    np.testing.assert_allclose(y, expected, rtol=1e-5, atol=1e-5)


def _gradcheck_layer(layer, x_shape):
    layer(tf.zeros(x_shape, dtype=tf.float64))
    names = [w.name for w in layer.weights]

    def f(x, *weights):
        for name, w in zip(names, weights):
            object.__setattr__(layer, name, w)
        return layer(x)

    check_grads(f, RNG.normal(size=x_shape), *[RNG.normal(size=w.shape) for w in layer.weights],
                rtol=1e-4)


@pytest.mark.parametrize("make,shape", [
    (lambda: L.Conv2D(2, 2, strides=2, padding="same", activation="tanh", dtype="float64"),
     (1, 3, 3, 2)),
    (lambda: L.Conv1D(2, 2, padding="causal", dtype="float64"), (1, 4, 2)),
    (lambda: L.SeparableConv2D(2, 2, dtype="float64"), (1, 3, 3, 2)),
    (lambda: L.Conv2DTranspose(2, 2, strides=2, dtype="float64"), (1, 2, 2, 1)),
])
def test_gradients_match_finite_differences(make, shape):
    _gradcheck_layer(make(), shape)


def test_config_round_trip_and_keras_names():
    layer = L.Conv2D(8, 3, strides=2, padding="SAME", activation="relu",
                     kernel_regularizer="l2", name="c")
    config = layer.get_config()
    assert config["kernel_size"] == (3, 3) and config["strides"] == (2, 2)
    assert config["padding"] == "same" and config["activation"] == "relu"
    assert list(config)[3:10] == ["filters", "kernel_size", "strides", "padding",
                                  "data_format", "dilation_rate", "groups"]
    clone = L.Conv2D.from_config(config)
    assert clone.get_config() == config
    keras.backend.clear_session()
    names = [L.Conv2D(1, 1).name, L.Conv2D(1, 1).name, L.SeparableConv2D(1, 1).name,
             L.Conv2DTranspose(1, 1).name, L.DepthwiseConv2D(1).name]
    assert names == ["conv2d", "conv2d_1", "separable_conv2d", "conv2d_transpose",
                     "depthwise_conv2d"]
    assert set(L.SeparableConv2D(2, 3).get_config()) >= {
        "depthwise_initializer", "pointwise_initializer", "depth_multiplier"}
    assert L.Conv2DTranspose(2, 3).get_config()["output_padding"] is None


def test_regularizer_losses_and_aliases():
    layer = L.Conv2D(2, 2, kernel_regularizer=keras.regularizers.L2(0.5))
    layer(tf.ones([1, 3, 3, 1]))
    expected = 0.5 * np.sum(layer.kernel.numpy() ** 2)
    np.testing.assert_allclose(float(sum(layer.losses)), expected, rtol=1e-6)
    assert L.Convolution2D is L.Conv2D and L.Convolution2DTranspose is L.Conv2DTranspose


def test_in_sequential_model_and_tf_function():
    model = keras.Sequential([keras.Input((8, 8, 1)), L.Conv2D(4, 3, activation="relu"),
                              L.SeparableConv2D(2, 3, padding="same"),
                              L.Conv2DTranspose(1, 2, strides=2)])
    assert model.output_shape == (None, 12, 12, 1)
    x = RNG.normal(size=(2, 8, 8, 1)).astype("float32")
    eager = model(x).numpy()
    graph = tf.function(lambda t: model(t))(tf.constant(x)).numpy()
    np.testing.assert_allclose(graph, eager, rtol=1e-5, atol=1e-6)


@pytest.mark.parametrize("make,message", [
    (lambda: L.Conv2D(4, 3, strides=2, dilation_rate=2), "not supported in conjunction"),
    (lambda: L.Conv2D(5, 3, groups=2), "number of filters must be evenly divisible"),
    (lambda: L.Conv2D(4, 3, padding="full"), "The `padding` argument must be"),
    (lambda: L.Conv2D(4, 3, padding="causal"), "The `padding` argument must be"),
    (lambda: L.Conv2D(0, 3), "Expected a strictly positive value"),
    (lambda: L.Conv2D(4, (3, 3, 3)), "must be a tuple of 2 integers"),
    (lambda: L.Conv2D(4, 3, groups=2)(tf.ones([1, 5, 5, 3])),
     "number of input channels must be evenly divisible"),
    (lambda: L.Conv2D(4, 3)(tf.ones([5, 5, 3])), "expected min_ndim=4, found ndim=3"),
    (lambda: L.Conv2DTranspose(4, 3, strides=2, output_padding=2),
     "Strides must be greater than output padding"),
])
def test_errors_match_keras(make, message):
    with pytest.raises(ValueError, match=message):
        make()


def test_wrong_channels_after_build():
    layer = L.Conv2D(2, 3)
    layer(tf.ones([1, 5, 5, 3]))
    with pytest.raises(ValueError, match="expected axis -1 of input shape to have value 3"):
        layer(tf.ones([1, 5, 5, 4]))


def test_locally_connected_counts_and_numpy_reference():
    layer = L.LocallyConnected2D(2, (2, 3), strides=(2, 1), bias_initializer="ones")
    x = RNG.normal(size=(2, 5, 6, 3)).astype("float32")
    y = layer(x).numpy()
    positions = 2 * 4  # rows ceil((5 - 2 + 1) / 2) = 2, cols 6 - 3 + 1 = 4
    assert layer.count_params() == positions * (2 * 3 * 3) * 2 + positions * 2
    kernel, bias = layer.kernel.numpy(), layer.bias.numpy()
    assert kernel.shape == (8, 18, 2) and bias.shape == (2, 4, 2)
    for i in range(2):
        for j in range(4):
            window = x[:, 2 * i:2 * i + 2, j:j + 3, :].reshape(2, -1)
            np.testing.assert_allclose(y[:, i, j], window @ kernel[i * 4 + j] + bias[i, j],
                                       rtol=1e-5, atol=1e-5)
    one_d = L.LocallyConnected1D(2, 3)
    one_d(tf.ones([1, 5, 2]))
    assert one_d.count_params() == 3 * (3 * 2 * 2) + 3 * 2
    assert L.LocallyConnected2D.from_config(layer.get_config()).get_config() == \
        layer.get_config()


def test_locally_connected_gradients_and_errors():
    _gradcheck_layer(L.LocallyConnected2D(2, 2, activation="tanh", dtype="float64"),
                     (1, 3, 3, 1))
    with pytest.raises(ValueError, match="only \"valid\" is supported"):
        L.LocallyConnected2D(2, 3, padding="same")
    with pytest.raises(ValueError, match="needs fixed spatial sizes"):
        L.LocallyConnected2D(2, 3)(keras.Input((None, 5, 1)))
