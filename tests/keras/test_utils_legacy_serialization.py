"""keras.utils.legacy.serialize_keras_object / deserialize_keras_object: Keras 2's
{"class_name", "config"} format, nested objects, names and lookups; one real-TF subprocess."""
import json

import pytest

import minitf as tf

from real_tf import run_tf_json

L = tf.keras.utils.legacy

COMMON = """
import json

def run(tf):
    L = tf.keras.utils.legacy

    class Inner:
        def __init__(self, k=1):
            self.k = k
        def get_config(self):
            return {"k": self.k}

    class Outer:
        def __init__(self, inner=None, fn=None, sizes=(1,), name="o"):
            self.inner, self.fn, self.sizes, self.name = inner, fn, sizes, name
        def get_config(self):
            return {"inner": self.inner, "fn": self.fn, "sizes": list(self.sizes),
                    "name": self.name}

    def act(x):
        return x

    objects = {"Inner": Inner, "Outer": Outer, "act": act}
    out = {}
    out["sgd"] = L.serialize_keras_object(tf.keras.optimizers.SGD(0.5, name="s"))
    outer = Outer(Inner(4), act, (2, 3))
    out["outer"] = L.serialize_keras_object(outer)
    back = L.deserialize_keras_object(json.loads(json.dumps(out["outer"])),
                                      module_objects=objects)
    out["back"] = [type(back.inner).__name__, back.inner.k, back.fn is act, back.sizes,
                   back.name]
    out["names"] = [L.serialize_keras_object(tf.keras.activations.relu),
                    L.serialize_keras_object(act), L.serialize_keras_object(None)]
    # (a name found only in module_objects or the registry crashes Keras 3.15's reader with an
    # AttributeError: it reads a removed `_THREAD_LOCAL_CUSTOM_OBJECTS`; minitf looks there)
    out["by_name"] = [type(L.deserialize_keras_object("Inner", custom_objects=objects)).__name__,
                      L.deserialize_keras_object("act", custom_objects=objects) is act]
    errors = []
    for call in (lambda: L.serialize_keras_object("text"),
                 lambda: L.deserialize_keras_object({"class_name": "Nope", "config": {}},
                                                    module_objects={}),
                 lambda: L.deserialize_keras_object({"config": {}}),
                 lambda: L.deserialize_keras_object(3)):
        try:
            call()
            errors.append(None)
        except Exception as e:
            errors.append([type(e).__name__, str(e)])
    out["errors"] = errors
    return out
"""


def _ours():
    namespace = {}
    exec(COMMON, namespace)
    return json.loads(json.dumps(namespace["run"](tf)))


def test_nested_objects_round_trip_through_the_keras_2_format():
    ours = _ours()
    assert ours["outer"] == {"class_name": "Outer", "config": {
        "inner": {"class_name": "Inner", "config": {"k": 4}, "__passive_serialization__": True},
        "fn": "act", "sizes": [2, 3], "name": "o"}}
    assert ours["back"] == ["Inner", 4, True, [2, 3], "o"]
    assert ours["names"] == ["relu", "act", None]
    assert ours["by_name"] == ["Inner", True]


def test_errors_name_what_is_unknown():
    errors = _ours()["errors"]
    assert errors[0] == ["ValueError",
                         "Cannot serialize text because it doesn't implement `get_config()`."]
    assert errors[1][1].startswith("Unknown object: 'Nope'. Please ensure")
    assert errors[2][1].startswith("Improper config format for {'config': {}}")
    assert errors[3] == ["ValueError", "Could not interpret serialized object: 3"]
    with pytest.raises(ValueError, match="Unknown loss: 'nope'"):
        L.deserialize_keras_object("nope", module_objects={}, printable_module_name="loss")
    assert L.deserialize_keras_object("relu", module_objects={
        "relu": tf.keras.activations.relu}) is tf.keras.activations.relu


def test_registered_classes_are_found_without_module_objects():
    @tf.keras.saving.register_keras_serializable(package="KOPT")
    class Registered:
        def get_config(self):
            return {}

    config = L.serialize_keras_object(Registered())
    assert config == {"class_name": "KOPT>Registered", "config": {}}
    assert isinstance(L.deserialize_keras_object(config), Registered)


@pytest.fixture(scope="module")
def keras_results():
    return run_tf_json(COMMON + """
import tensorflow as tf
print(json.dumps(run(tf)))
""")


def test_outputs_equal_keras_3_15(keras_results):
    assert _ours() == keras_results
