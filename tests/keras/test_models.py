"""Models three ways: Sequential, functional, subclassed; tf.function equals eager;
freezing a shared trunk; functional-API errors."""
import numpy as np
import pytest

import minitf as tf

keras = tf.keras
X = np.random.default_rng(1).normal(size=(5, 3)).astype(np.float32)


def test_sequential_list_add_and_deferred_build():
    model = keras.Sequential(name="s")
    model.add(keras.layers.Dense(4))
    model.add(keras.layers.Dense(2))
    assert not model.built and len(model.layers) == 2
    assert model(X).shape == [5, 2] and model.built
    assert model.count_params() == (3 * 4 + 4) + (4 * 2 + 2)
    assert model.input_shape == (5, 3) and model.output_shape == (5, 2)  # as Keras 3
    with pytest.warns(UserWarning, match="Do not pass an `input_shape`"):
        classic = keras.Sequential([keras.layers.Dense(4, input_shape=(3,))])
    assert classic.built and classic.input_shape == (None, 3)
    with pytest.raises(ValueError, match="Only instances of `keras.Layer` can be added"):
        model.add("dense")
    with pytest.raises(ValueError, match="should have unique names"):
        model.add(keras.layers.Dense(1, name=model.layers[0].name))


def test_functional_multi_input_multi_output_residual_and_shared_layer():
    a, b = keras.Input((3,), name="a"), keras.Input((3,), name="b")
    shared = keras.layers.Dense(3, name="shared")
    ha, hb = shared(a), shared(b)  # one layer, two calls: one set of weights
    residual = keras.layers.Add()([a, ha])
    out1 = keras.layers.Dense(1, name="out1")(residual)
    out2 = keras.layers.Concatenate()([ha, hb])
    model = keras.Model(inputs=[a, b], outputs=[out1, out2])
    assert type(model).__name__ == "Functional" and isinstance(model, keras.Model)
    assert model.count_params() == (3 * 3 + 3) + (3 + 1)
    y1, y2 = model([X, 2 * X])
    kernel, bias = shared.kernel.numpy(), shared.bias.numpy()
    h = X @ kernel + bias
    np.testing.assert_allclose(y2.numpy()[:, 3:], (2 * X) @ kernel + bias, rtol=1e-5)
    np.testing.assert_allclose(y1.numpy(), (X + h) @ model.get_layer("out1").kernel.numpy() +
                               model.get_layer("out1").bias.numpy(), rtol=1e-5)
    by_name = model({"a": X, "b": 2 * X})
    np.testing.assert_allclose(by_name[0].numpy(), y1.numpy())


def test_layer_order_matches_keras():
    # verified against TF 2.21: x, dense, y, add, o1, o2
    x, y = keras.Input((8,), name="x"), keras.Input((8,), name="y")
    h = keras.layers.Dense(8, name="d")(x)
    s = keras.layers.Add(name="s")([h, y])
    model = keras.Model([x, y], [keras.layers.Dense(1, name="o1")(s),
                                 keras.layers.Dense(2, name="o2")(s)])
    assert [layer.name for layer in model.layers] == ["x", "d", "y", "s", "o1", "o2"]


def test_functional_errors():
    inp = keras.Input((4,))
    model = keras.Model(inp, keras.layers.Dense(2)(inp))
    with pytest.raises(ValueError, match=r"of layer '.*' is incompatible with the layer: "
                                         r"expected shape=\(None, 4\), found shape=\(2, 5\)"):
        model(tf.ones([2, 5]))
    other = keras.Input((4,))
    with pytest.raises(ValueError, match="Graph disconnected"):
        keras.Model(inp, keras.layers.Dense(2)(other))
    with pytest.raises(ValueError, match="must be KerasTensors"):
        keras.Model(inp, tf.ones([1]))
    with pytest.raises(ValueError, match="A KerasTensor cannot be used as input to a "
                                         "TensorFlow function"):
        tf.reduce_sum(inp)


def test_keras_tensor_arithmetic_and_nested_models():
    inp = keras.Input((2,))
    out = (inp * 2.0 + inp)[:, :1]
    model = keras.Model(inp, out)
    assert model(tf.constant([[1.0, 2.0]])).numpy().tolist() == [[3.0]]
    outer_in = keras.Input((2,))
    nested = keras.Model(outer_in, keras.layers.Dense(1)(model(outer_in)))
    assert nested(tf.ones([3, 2])).shape == [3, 1]


class TwoLayers(keras.Model):
    def __init__(self):
        super().__init__()
        self.hidden = keras.layers.Dense(4, activation="relu")
        self.norm = keras.layers.BatchNormalization()
        self.drop = keras.layers.Dropout(0.5, seed=2)
        self.out = keras.layers.Dense(1)

    def call(self, x, training=None):
        h = self.norm(self.hidden(x))
        if training:
            h = self.drop(h)
        return self.out(h)


def test_subclassed_model_tracks_layers_and_weights():
    model = TwoLayers()
    assert [layer.name.split("_")[0] for layer in model.layers] == \
        ["dense", "batch", "dropout", "dense"]
    model(X)
    assert model.count_params() == 16 + 16 + 5
    assert len(model.trainable_variables) == 6 and len(model.non_trainable_variables) == 2
    assert model.weights[0].path.startswith(model.name + "/")


def test_tf_function_gives_the_same_numbers_as_eager():
    tf.random.set_seed(4)
    for model in (TwoLayers(), keras.Sequential([keras.Input((3,)), keras.layers.Dense(4),
                                                 keras.layers.LayerNormalization(),
                                                 keras.layers.Dense(2)])):
        eager = model(X).numpy()
        graph = tf.function(lambda x: model(x))(tf.constant(X)).numpy()
        np.testing.assert_allclose(graph, eager, rtol=1e-6)

    model = TwoLayers()
    model(X)

    def step(x):
        with tf.GradientTape() as tape:
            loss = tf.reduce_mean(model(x, training=False) ** 2)
        return tape.gradient(loss, model.trainable_variables)

    for g_eager, g_graph in zip(step(X), tf.function(step)(tf.constant(X))):
        np.testing.assert_allclose(g_graph.numpy(), g_eager.numpy(), rtol=1e-5, atol=1e-7)


def test_batchnorm_statistics_update_inside_tf_function():
    bn = keras.layers.BatchNormalization()
    f = tf.function(lambda x: bn(x, training=True))
    f(tf.constant(X))
    f(tf.constant(X))
    np.testing.assert_allclose(bn.moving_mean.numpy(),
                               X.mean(0) * (1 - 0.99 ** 2), rtol=1e-4)


def test_shared_trunk_with_two_heads_freezing():
    trunk = keras.Sequential([keras.Input((3,)), keras.layers.Dense(4, name="trunk_dense")])
    inp = keras.Input((3,))
    features = trunk(inp)
    head_a = keras.Model(inp, keras.layers.Dense(1, name="head_a")(features))
    head_b = keras.Model(inp, keras.layers.Dense(2, name="head_b")(features))
    assert len(head_a.trainable_weights) == 4 and len(head_b.trainable_weights) == 4
    trunk.trainable = False
    assert [w.name for w in head_a.trainable_weights] == ["kernel", "bias"]
    assert len(head_a.non_trainable_weights) == 2
    before = trunk.get_weights()
    with tf.GradientTape() as tape:
        loss = tf.reduce_sum(head_a(X))
    grads = tape.gradient(loss, head_a.trainable_weights)
    assert all(g is not None for g in grads)
    assert all(np.array_equal(a, b) for a, b in zip(before, trunk.get_weights()))
    assert head_a.layers[1] is trunk and head_b.layers[1] is trunk  # really shared


def test_get_layer_errors():
    model = keras.Sequential([keras.Input((2,)), keras.layers.Dense(1, name="only")])
    assert model.get_layer("only") is model.get_layer(index=0)
    with pytest.raises(ValueError, match="No such layer: nope. Existing layers are"):
        model.get_layer("nope")
