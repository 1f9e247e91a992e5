"""The Layer protocol: build on first call, add_weight, training flag, losses, config."""
import numpy as np
import pytest

import minitf as tf

keras = tf.keras


class Scale(keras.layers.Layer):
    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        self.calls = 0

    def build(self, input_shape):
        self.w = self.add_weight(shape=(input_shape[-1],), initializer="ones", name="w",
                                 regularizer=keras.regularizers.L2(0.5))
        self.frozen = self.add_weight((1,), name="frozen", trainable=False, initializer="zeros")

    def call(self, inputs, training=None):
        self.calls += 1
        return inputs * self.w if not training else inputs * self.w * 2.0


def test_build_on_first_call_and_weight_lists():
    layer = Scale()
    assert not layer.built and layer.weights == []
    out = layer(np.ones((2, 3)))  # NumPy float64 is converted and cast to float32
    assert out.dtype == tf.float32 and layer.built
    assert [w.name for w in layer.weights] == ["w", "frozen"]
    assert [w.name for w in layer.trainable_weights] == ["w"]
    assert [w.name for w in layer.non_trainable_weights] == ["frozen"]
    assert layer.w.path == f"{layer.name}/w" and layer.count_params() == 4


def test_keras3_add_weight_spellings_and_no_positional_name():
    layer = keras.layers.Layer()
    with pytest.raises(ValueError, match="`name` must be passed as a keyword argument"):
        layer.add_weight("a", (2, 3))            # classic tf.keras: name first (Keras 3 refuses)
    a = layer.add_weight((2, 3), name="a")
    b = layer.add_weight((4,), "zeros", name="b")  # Keras 3: shape, initializer
    c = layer.add_weight(shape=(), dtype="int32", name="c")
    assert (a.name, tuple(a.shape), b.numpy().tolist(), c.dtype) == ("a", (2, 3), [0.0] * 4,
                                                                      tf.int32)
    with pytest.raises(ValueError, match="Shapes used to initialize variables must be fully"):
        layer.add_weight(shape=(None, 3), name="k")


def test_training_flag_explicit_inherited_and_default():
    inner = Scale()

    class Outer(keras.layers.Layer):
        def call(self, x):
            return inner(x)

    x = tf.ones([1, 2])
    assert inner(x).numpy().tolist() == [[1.0, 1.0]]
    assert inner(x, training=True).numpy().tolist() == [[2.0, 2.0]]
    assert Outer()(x, training=True).numpy().tolist() == [[2.0, 2.0]]  # passed down
    assert Outer()(x).numpy().tolist() == [[1.0, 1.0]]


def test_losses_regularizers_and_add_loss():
    layer = Scale()
    layer(tf.ones([1, 3]))
    assert [float(v) for v in layer.losses] == [1.5]  # 0.5 * (1 + 1 + 1)

    class WithLoss(keras.layers.Layer):
        def call(self, x):
            self.add_loss(tf.reduce_sum(x))
            return x

    outer = keras.Sequential([WithLoss(), WithLoss()])
    outer(tf.ones([1, 2]))
    outer(tf.ones([1, 2]))  # losses of the last call only
    assert [float(v) for v in outer.losses] == [2.0, 2.0]
    dense = keras.layers.Dense(2, activity_regularizer="l2", kernel_initializer="ones")
    dense(tf.ones([2, 3]))  # outputs are all 3: 0.01 * 36 / batch 2
    np.testing.assert_allclose(float(dense.losses[0]), 0.18, rtol=1e-6)


def test_trainable_flag_freezes_weights_and_sublayers():
    model = keras.Sequential([keras.Input((3,)), keras.layers.Dense(2),
                              keras.layers.BatchNormalization()])
    assert len(model.trainable_weights) == 4 and len(model.non_trainable_weights) == 2
    model.layers[0].trainable = False
    assert len(model.trainable_weights) == 2
    model.trainable = False
    assert model.trainable_weights == [] and len(model.non_trainable_weights) == 6
    assert all(not layer.trainable for layer in model.layers)


def test_get_set_weights_and_errors():
    dense = keras.layers.Dense(2)
    dense(tf.ones([1, 3]))
    dense.set_weights([np.ones((3, 2)), np.arange(2)])
    assert dense(tf.ones([1, 3])).numpy().tolist() == [[3.0, 4.0]]
    assert [w.shape for w in dense.get_weights()] == [(3, 2), (2,)]
    with pytest.raises(ValueError, match="with a weight list of length 1, but the layer was"):
        dense.set_weights([np.ones((3, 2))])
    with pytest.raises(ValueError, match=r"weight shape \(3, 2\) is not compatible with "
                                         r"provided weight shape \(2, 2\)"):
        dense.set_weights([np.ones((2, 2)), np.ones(2)])
    with pytest.raises(ValueError, match="isn't built"):
        keras.layers.Dense(2).count_params()


def test_input_spec_errors_name_the_layer():
    dense = keras.layers.Dense(3, name="d")
    with pytest.raises(ValueError, match=r"Input 0 with name 'None' of layer 'd' is "
                                         r"incompatible with the layer: expected min_ndim=2, "
                                         r"found ndim=1. Full shape received: \(4,\)"):
        dense(tf.ones([4]))
    dense(tf.ones([1, 4]))
    with pytest.raises(ValueError, match=r"expected axis -1 of input shape to have value 4, "
                                         r"but received input with shape \(1, 5\)"):
        dense(tf.ones([1, 5]))


def test_constructor_errors():
    with pytest.raises(ValueError, match="Received an invalid value for `units`"):
        keras.layers.Dense(-1)
    with pytest.raises(ValueError, match="Unrecognized keyword arguments passed to Dense"):
        keras.layers.Dense(2, bogus=1)
    with pytest.raises(ValueError, match="cannot contain character `/`"):
        keras.layers.Dense(2, name="a/b")


def test_config_round_trip():
    dense = keras.layers.Dense(3, activation="relu", kernel_regularizer="l2", name="dd")
    config = dense.get_config()
    # verified against TF 2.21 (Keras 3.15) for the keys and nested formats
    assert config["units"] == 3 and config["activation"] == "relu"
    assert config["kernel_initializer"] == {
        "module": "keras.initializers", "class_name": "GlorotUniform",
        "config": {"seed": None, "input_axes": None, "output_axes": None},
        "registered_name": None}
    assert config["dtype"]["config"] == {"name": "float32"}
    clone = keras.layers.Dense.from_config(config)
    assert clone.units == 3 and clone.activation is keras.activations.relu
    assert isinstance(clone.kernel_regularizer, keras.regularizers.L2)
    again = keras.layers.deserialize(keras.layers.serialize(dense))
    assert type(again) is keras.layers.Dense and again.name == "dd"


def test_layer_is_a_module_and_repr():
    dense = keras.layers.Dense(2, name="rep")
    assert isinstance(dense, tf.Module)
    assert repr(dense) == "<Dense name=rep, built=False>"
    dense(tf.ones([1, 1]))
    assert len(dense.trainable_variables) == 2


def test_call_inside_tf_function_is_autograph_converted():
    class Gate(keras.layers.Layer):
        def call(self, x):
            if tf.reduce_sum(x) > 0:  # a tensor condition: needs AutoGraph in a graph
                return x * 2.0
            return -x

    gate = Gate()
    f = tf.function(lambda x: gate(x))
    assert f(tf.constant([1.0])).numpy().tolist() == [2.0]
    assert f(tf.constant([-1.0])).numpy().tolist() == [1.0]
