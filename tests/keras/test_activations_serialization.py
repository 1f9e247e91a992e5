"""keras.activations.serialize / deserialize: built-ins by name, your own functions and callable
objects as Keras 3.15's dicts, back through custom_objects, scopes and the registry; one
real-TF subprocess gives Keras's values."""
import json

import numpy as np
import pytest

import minitf as tf
from real_tf import run_tf_json

A = tf.keras.activations
BUILTINS = ["relu", "silu", "swish", "gelu", "softmax", "linear", "hard_silu", "hard_swish",
            "leaky_relu", "relu6", "log_softmax", "sparse_plus", "threshold", "celu", "glu",
            "squareplus", "sparsemax", "tanh_shrink", "soft_shrink", "hard_shrink",
            "hard_tanh", "mish", "elu", "selu", "exponential", "hard_sigmoid", "sigmoid",
            "softplus", "softsign", "tanh", "log_sigmoid", "sparse_sigmoid"]


def double(x):
    return 2 * x


class Scaled:
    def __init__(self, s=2.0):
        self.s = s

    def __call__(self, x):
        return x * self.s

    def get_config(self):
        return {"s": self.s}

    @classmethod
    def from_config(cls, config):
        return cls(**config)


def test_builtins_round_trip_by_name():
    for name in BUILTINS:
        fn = getattr(A, name)
        assert A.deserialize(A.serialize(fn)) is fn, name
    assert A.serialize(A.swish) == "silu" and A.serialize(A.hard_swish) == "hard_silu"


def test_own_function_serializes_as_keras_dict_and_comes_back_by_name():
    config = A.serialize(double)
    assert config == {"module": "builtins", "class_name": "function", "config": "double",
                      "registered_name": "function"}
    assert A.deserialize(config, custom_objects={"double": double}) is double
    with tf.keras.saving.custom_object_scope({"double": double}):
        assert A.get(config) is double
    with pytest.raises(ValueError, match="Could not interpret activation function identifier"):
        A.deserialize(config)


def test_registered_function_uses_its_registered_name():
    @tf.keras.saving.register_keras_serializable(package="KOPT")
    def triple(x):
        return 3 * x

    config = A.serialize(triple)
    assert config["config"] == "KOPT>triple"
    assert A.deserialize(config) is triple


def test_callable_object_serializes_its_class_and_config():
    config = A.serialize(Scaled(3.0))
    assert config == {"module": __name__, "class_name": "Scaled", "config": {"s": 3.0},
                      "registered_name": "Scaled"}
    restored = A.deserialize(config, custom_objects={"Scaled": Scaled})
    assert isinstance(restored, Scaled) and restored.s == 3.0
    with pytest.raises(TypeError, match="Could not locate class 'Scaled'"):
        A.deserialize(config)

    class NoFromConfig:
        def __call__(self, x):
            return x

        def get_config(self):
            return {}

    with pytest.raises(TypeError, match="missing a `from_config\\(\\)` method"):
        A.deserialize(A.serialize(NoFromConfig()), custom_objects={
            "NoFromConfig": NoFromConfig})


def test_unserializable_activations_raise_clear_errors():
    class NoConfig:
        def __call__(self, x):
            return x

    with pytest.raises(TypeError, match="must implement the `get_config\\(\\)` method"):
        A.serialize(NoConfig())
    with pytest.raises(ValueError, match="Cannot serialize a `lambda` activation"):
        A.serialize(lambda x: x)


def test_a_dense_layer_with_an_own_activation_round_trips():
    layer = tf.keras.layers.Dense(2, activation=double)
    config = layer.get_config()
    assert config["activation"]["config"] == "double"
    with tf.keras.saving.custom_object_scope({"double": double}):
        again = tf.keras.layers.Dense.from_config(config)
    assert again.activation is double
    np.testing.assert_allclose(again.activation(tf.constant([1.0])).numpy(), [2.0])


COMMON = """
import json

def double(x):
    return 2 * x

class Scaled:
    def __init__(self, s=2.0):
        self.s = s
    def __call__(self, x):
        return x * self.s
    def get_config(self):
        return {"s": self.s}

def run(A, names):
    out = {name: A.serialize(getattr(A, name)) for name in names}
    out["double"] = A.serialize(double)
    scaled = A.serialize(Scaled())
    out["scaled"] = dict(scaled, module=None)  # the defining module's name differs
    out["round_trip"] = A.deserialize(A.serialize(double), {"double": double}) is double
    return out
"""


@pytest.fixture(scope="module")
def keras_results():
    return run_tf_json(COMMON + f"""
import tensorflow as tf
print(json.dumps(run(tf.keras.activations, {BUILTINS!r})))
""")


def test_serialized_forms_equal_keras_3_15(keras_results):
    namespace = {}
    exec(COMMON, namespace)
    assert json.loads(json.dumps(namespace["run"](A, BUILTINS))) == keras_results
