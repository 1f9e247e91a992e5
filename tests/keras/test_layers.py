"""Core, regularization, normalization and merge layers: numbers, parameter counts
(derived by hand), gradients against finite differences, and Keras's errors."""
import numpy as np
import pytest

import minitf as tf
from tests.gradcheck import check_grads

keras = tf.keras
RNG = np.random.default_rng(0)


def _built(layer, shape, dtype="float32"):
    layer(tf.zeros(shape, dtype=dtype))
    return layer


@pytest.mark.parametrize("layer,shape,count", [
    (lambda: keras.layers.Dense(4), (2, 3), 3 * 4 + 4),
    (lambda: keras.layers.Dense(4, use_bias=False), (2, 3), 12),
    (lambda: keras.layers.Dense(5), (2, 7, 3), 3 * 5 + 5),  # acts on the last axis
    (lambda: keras.layers.BatchNormalization(), (2, 6), 4 * 6),  # gamma, beta, 2 moving
    (lambda: keras.layers.BatchNormalization(center=False), (2, 6), 3 * 6),
    (lambda: keras.layers.LayerNormalization(), (2, 5, 6), 2 * 6),
    (lambda: keras.layers.Embedding(10, 4), (2, 3), 40),
    (lambda: keras.layers.Flatten(), (2, 3, 4), 0),
    (lambda: keras.layers.Dropout(0.5), (2, 3), 0),
])
def test_parameter_counts_by_hand(layer, shape, count):
    dtype = "int32" if "Embedding" in repr(layer()) else "float32"
    assert _built(layer(), shape, dtype).count_params() == count


def test_dense_numbers_and_rank3():
    dense = keras.layers.Dense(2, activation="relu")
    dense(tf.zeros([1, 3]))
    kernel = np.array([[1.0, -1.0], [2.0, 0.5], [0.0, 1.0]], np.float32)
    dense.set_weights([kernel, np.array([0.5, -4.0], np.float32)])
    x = RNG.normal(size=(2, 4, 3)).astype(np.float32)
    expected = np.maximum(x @ kernel + [0.5, -4.0], 0)
    np.testing.assert_allclose(dense(x).numpy(), expected, rtol=1e-6)


def test_dense_gradients_match_finite_differences():
    dense = keras.layers.Dense(3, activation="tanh", dtype="float64")
    dense(tf.zeros([1, 4], dtype=tf.float64))

    def f(x, kernel, bias):
        object.__setattr__(dense, "kernel", kernel)
        object.__setattr__(dense, "bias", bias)
        return dense(x)

    check_grads(f, RNG.normal(size=(2, 4)), RNG.normal(size=(4, 3)), RNG.normal(size=(3,)))


def test_batch_normalization_training_vs_inference():
    bn = keras.layers.BatchNormalization()
    x = tf.constant(RNG.normal(3.0, 2.0, size=(8, 3)).astype(np.float32))
    out = bn(x, training=True).numpy()
    mean, var = x.numpy().mean(0), x.numpy().var(0)
    np.testing.assert_allclose(out, (x.numpy() - mean) / np.sqrt(var + 1e-3), rtol=1e-4,
                               atol=1e-5)
    np.testing.assert_allclose(bn.moving_mean.numpy(), 0.01 * mean, rtol=1e-5)
    np.testing.assert_allclose(bn.moving_variance.numpy(), 0.99 + 0.01 * var, rtol=1e-5)
    inference = bn(x).numpy()  # training=None: the moving statistics
    np.testing.assert_allclose(inference, (x.numpy() - bn.moving_mean.numpy()) /
                               np.sqrt(bn.moving_variance.numpy() + 1e-3), rtol=1e-5)
    assert (bn.momentum, bn.epsilon) == (0.99, 1e-3)
    bn.trainable = False  # a frozen BatchNormalization runs in inference mode
    np.testing.assert_allclose(bn(x, training=True).numpy(), inference, rtol=1e-6)


def test_batch_normalization_other_axis():
    bn = keras.layers.BatchNormalization(axis=1)
    x = RNG.normal(size=(4, 3, 5)).astype(np.float32)
    out = bn(x, training=True).numpy()
    mean, var = x.mean((0, 2), keepdims=True), x.var((0, 2), keepdims=True)
    np.testing.assert_allclose(out, (x - mean) / np.sqrt(var + 1e-3), rtol=1e-4, atol=1e-5)


@pytest.mark.parametrize("training", [True, False])
def test_batch_normalization_gradients(training):
    bn = keras.layers.BatchNormalization(dtype="float64")
    bn(tf.zeros([1, 3], dtype=tf.float64))
    bn.moving_variance.assign([0.5, 2.0, 1.5])

    def f(x, gamma, beta):
        object.__setattr__(bn, "gamma", gamma)
        object.__setattr__(bn, "beta", beta)
        return bn(x, training=training)

    check_grads(f, RNG.normal(size=(5, 3)), RNG.normal(size=(3,)), RNG.normal(size=(3,)),
                rtol=1e-4)


def test_layer_normalization_numbers_and_gradients():
    ln = keras.layers.LayerNormalization(dtype="float64")
    x = RNG.normal(size=(2, 3, 4))
    out = ln(x).numpy()
    expected = (x - x.mean(-1, keepdims=True)) / np.sqrt(x.var(-1, keepdims=True) + 1e-3)
    np.testing.assert_allclose(out, expected, rtol=1e-6)

    def f(x, gamma, beta):
        object.__setattr__(ln, "gamma", gamma)
        object.__setattr__(ln, "beta", beta)
        return ln(x)

    check_grads(f, x, RNG.normal(size=(4,)), RNG.normal(size=(4,)), rtol=1e-4)
    rms = keras.layers.LayerNormalization(rms_scaling=True)
    y = rms(x.astype(np.float32)).numpy()
    np.testing.assert_allclose(y, x / np.sqrt((x ** 2).mean(-1, keepdims=True) + 1e-3),
                               rtol=1e-5)


def test_dropout_training_flag_scaling_and_seed():
    x = tf.ones([4, 50])
    layer = keras.layers.Dropout(0.4, seed=3)
    assert np.array_equal(layer(x).numpy(), x.numpy())
    dropped = layer(x, training=True).numpy()
    assert set(np.unique(dropped)) <= {0.0, np.float32(1 / 0.6)}
    assert 0.2 < (dropped == 0).mean() < 0.6
    with pytest.raises(ValueError, match="Invalid value received for argument `rate`"):
        keras.layers.Dropout(1.5)


def test_spatial_dropout_drops_whole_channels():
    x = tf.ones([3, 4, 5, 6])
    out = keras.layers.SpatialDropout2D(0.5, seed=1)(x, training=True).numpy()
    per_channel = out.reshape(3, 20, 6)
    assert np.all(per_channel.min(1) == per_channel.max(1))  # one decision per channel
    out1 = keras.layers.SpatialDropout1D(0.5, seed=1)(tf.ones([2, 7, 3]), training=True)
    assert np.all(out1.numpy().min(1) == out1.numpy().max(1))


def test_flatten_reshape_activation_lambda_embedding():
    assert keras.layers.Flatten()(tf.ones([2, 3, 4])).shape == [2, 12]
    assert keras.layers.Reshape((-1, 2))(tf.ones([2, 6])).shape == [2, 3, 2]
    with pytest.raises(ValueError, match=r"The total size of the tensor must be unchanged. "
                                         r"Received: input_shape=\(6,\), target_shape=\(5,\)"):
        keras.layers.Reshape((5,))(tf.ones([2, 6]))
    with pytest.raises(ValueError, match="at most one unknown dimension"):
        keras.layers.Reshape((-1, -1))
    np.testing.assert_allclose(keras.layers.Activation("sigmoid")(tf.zeros([1, 2])).numpy(),
                               [[0.5, 0.5]])
    assert keras.layers.Lambda(lambda t: t * 3)(tf.ones([1, 2])).numpy().tolist() == [[3, 3]]
    emb = keras.layers.Embedding(5, 2)
    rows = emb(tf.constant([[4, 1]])).numpy()  # builds the (5, 2) table on the first call
    np.testing.assert_array_equal(rows[0], emb.embeddings.numpy()[[4, 1]])


def test_merge_layers_numbers():
    a, b = tf.constant([[1.0, 5.0]]), tf.constant([[3.0, 2.0]])
    L = keras.layers
    assert L.Add()([a, b]).numpy().tolist() == [[4.0, 7.0]]
    assert L.Subtract()([a, b]).numpy().tolist() == [[-2.0, 3.0]]
    assert L.Multiply()([a, b]).numpy().tolist() == [[3.0, 10.0]]
    assert L.Average()([a, b]).numpy().tolist() == [[2.0, 3.5]]
    assert L.Maximum()([a, b]).numpy().tolist() == [[3.0, 5.0]]
    assert L.Minimum()([a, b]).numpy().tolist() == [[1.0, 2.0]]
    assert L.concatenate([a, b]).numpy().tolist() == [[1.0, 5.0, 3.0, 2.0]]
    assert L.Concatenate(axis=0)([a, b]).shape == [2, 2]
    assert L.add([a, tf.ones([1, 1])]).shape == [1, 2]  # broadcasting size 1


def test_merge_layer_errors():
    L = keras.layers
    with pytest.raises(ValueError, match=r"Inputs have incompatible shapes. Received shapes "
                                         r"\(3,\) and \(4,\)"):
        L.Add()([keras.Input((3,)), keras.Input((4,))])
    with pytest.raises(ValueError, match=r"Inputs have incompatible shapes"):
        L.Add()([tf.ones([2, 3]), tf.ones([2, 4])])
    with pytest.raises(ValueError, match=r"A `Concatenate` layer requires inputs with matching "
                                         r"shapes except for the concatenation axis. Received: "
                                         r"input_shape=\[\(None, 3, 5\), \(None, 4, 6\)\]"):
        L.Concatenate()([keras.Input((3, 5)), keras.Input((4, 6))])
    with pytest.raises(ValueError, match="A `Subtract` layer should be called on exactly 2 "):
        L.Subtract()([keras.Input((3,))] * 3)
    with pytest.raises(ValueError, match="A merge layer should be called on a list of inputs"):
        L.Add()(tf.ones([2, 3]))
