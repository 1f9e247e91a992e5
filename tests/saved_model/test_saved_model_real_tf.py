"""What real TensorFlow 2.21's SavedModel exposes, compared with minitf's (one TF run)."""
import contextlib
import io
import json
import re

import numpy as np
import pytest

import minitf as tf
from minitf.tools import saved_model_cli
from tests.real_tf import require_tf, run_tf_json

# The same module in both libraries: `tf` is real TensorFlow in the snippet, minitf here.
MODULE = '''
class Dense(tf.Module):
    def __init__(self):
        super().__init__()
        self.w = tf.Variable([[1.0], [2.0]], name="w")
        self.b = tf.Variable([0.5], name="b")

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32)], autograph=False)
    def __call__(self, x):
        return tf.matmul(x, self.w) + self.b


class Net(tf.Module):
    def __init__(self):
        super().__init__()
        self.dense = Dense()
        self.scale = tf.Variable(3.0)

    @tf.function(input_signature=[tf.TensorSpec([None, 2], tf.float32, name="x")],
                 autograph=False)
    def predict(self, x):
        return {"y": self.dense(x) * self.scale}

    @tf.function(autograph=False)  # (exec'd source: nothing for AutoGraph to read)
    def plain(self, x, times=2):
        return x * self.scale * times


def build():
    net = Net()
    net.plain(tf.constant(1.0))
    net.plain(tf.constant([1.0, 2.0]), times=3)
    return net


def keras_model():
    return keras.Sequential([keras.Input((3,)), keras.layers.Dense(4, activation="relu"),
                             keras.layers.Dense(2)])
'''

PROBE = '''
import contextlib, io, json, os, re, tempfile
import numpy as np
import tensorflow as tf, keras
from tensorflow.python.tools import saved_model_cli
''' + MODULE + '''
def address_free(text):
    return re.sub(r" at 0x[0-9A-Fa-f]+", "", text)

def error(call):
    try:
        call()
    except Exception as e:
        return [type(e).__name__, str(e).splitlines()[0]]

def exposed(loaded):
    out = {"attributes": sorted(a for a in dir(loaded) if not a.startswith("_")
                                and a not in ("graph_debug_info", "tensorflow_version",
                                              "tensorflow_git_version")),
           "has_variables": hasattr(loaded, "variables"),
           "signature_keys": sorted(loaded.signatures),
           "signatures_repr": address_free(repr(loaded.signatures))}
    out["signatures"] = {k: [repr(f.structured_input_signature), repr(f.structured_outputs)]
                         for k, f in loaded.signatures.items()}
    return out

folder = tempfile.mkdtemp()
path = os.path.join(folder, "net")
tf.saved_model.save(build(), path)
loaded = tf.saved_model.load(path)
result = exposed(loaded)
result["dense_attributes"] = sorted(a for a in dir(loaded.dense) if not a.startswith("_"))
result["variable_names"] = [loaded.dense.w.name, loaded.scale.name]
result["untraced"] = error(lambda: loaded.plain(tf.constant([1.0, 2.0, 3.0])))
result["wrong_shape"] = error(lambda: loaded.predict(tf.constant([[1.0, 2.0, 3.0]])))
result["missing"] = error(lambda: tf.saved_model.load(os.path.join(folder, "nowhere")))
result["keys"] = sorted(k for k, _ in tf.train.list_variables(
    os.path.join(path, "variables", "variables")) if k != "_CHECKPOINTABLE_OBJECT_GRAPH")
result["outputs"] = [loaded.predict(tf.constant([[1.0, 2.0]]))["y"].numpy().tolist(),
                     loaded.plain(tf.constant([1.0, 2.0]), 3).numpy().tolist()]
text = io.StringIO()
with contextlib.redirect_stdout(text):
    saved_model_cli._show_all(path)
result["cli_all"] = text.getvalue()

model = keras_model()
with contextlib.redirect_stdout(io.StringIO()):
    model.export(os.path.join(folder, "exported"))
exported = tf.saved_model.load(os.path.join(folder, "exported"))
result["export"] = exposed(exported)
result["export"]["variables"] = [v.name for v in exported.variables]
tf.saved_model.save(model, os.path.join(folder, "keras_saved"))
result["keras_saved"] = exposed(tf.saved_model.load(os.path.join(folder, "keras_saved")))
print(json.dumps(result))
'''


@pytest.fixture(scope="module")
def real():
    require_tf()
    return run_tf_json(PROBE)


@pytest.fixture(scope="module")
def mine(tmp_path_factory):
    namespace = {"tf": tf, "keras": tf.keras}
    exec(MODULE, namespace)
    folder = tmp_path_factory.mktemp("mine")
    path = str(folder / "net")
    tf.saved_model.save(namespace["build"](), path)
    model = namespace["keras_model"]()
    model.export(str(folder / "exported"), verbose=False)
    tf.saved_model.save(model, str(folder / "keras_saved"))
    return path, folder


def exposed(loaded):
    out = {"attributes": sorted(a for a in dir(loaded) if not a.startswith("_")),
           "has_variables": hasattr(loaded, "variables"),
           "signature_keys": sorted(loaded.signatures),
           "signatures_repr": re.sub(r" at 0x[0-9A-Fa-f]+", "", repr(loaded.signatures))}
    out["signatures"] = {k: [repr(f.structured_input_signature), repr(f.structured_outputs)]
                         for k, f in loaded.signatures.items()}
    return out


def test_a_loaded_module_exposes_what_tfs_does(real, mine):
    loaded = tf.saved_model.load(mine[0])
    got = exposed(loaded)
    for key in ("attributes", "has_variables", "signature_keys", "signatures_repr",
                "signatures"):
        assert got[key] == real[key], key
    assert sorted(a for a in dir(loaded.dense) if not a.startswith("_")) == \
        real["dense_attributes"]
    assert [loaded.dense.w.name, loaded.scale.name] == real["variable_names"]
    outputs = [loaded.predict(tf.constant([[1.0, 2.0]]))["y"].numpy().tolist(),
               loaded.plain(tf.constant([1.0, 2.0]), 3).numpy().tolist()]
    np.testing.assert_allclose(outputs[0], real["outputs"][0])
    np.testing.assert_allclose(outputs[1], real["outputs"][1])


def test_errors_match_tfs(real, mine):
    loaded = tf.saved_model.load(mine[0])

    def error(call):
        try:
            call()
        except Exception as e:  # noqa: BLE001 - the class is what is compared
            return [type(e).__name__, str(e).splitlines()[0]]

    assert error(lambda: loaded.plain(tf.constant([1.0, 2.0, 3.0]))) == real["untraced"]
    got = error(lambda: loaded.predict(tf.constant([[1.0, 2.0, 3.0]])))
    assert got[0] == real["wrong_shape"][0]
    assert got[1].startswith("Binding inputs to tf.function failed due to `Can not cast ")
    missing = error(lambda: tf.saved_model.load(str(mine[1] / "nowhere")))
    assert missing[0] == real["missing"][0] == "OSError"
    assert missing[1].startswith("SavedModel file does not exist at:")


def test_variables_have_tfs_checkpoint_keys(real, mine):
    keys = sorted(k for k, _ in tf.train.list_variables(f"{mine[0]}/variables/variables")
                  if k != "_CHECKPOINTABLE_OBJECT_GRAPH")
    assert keys == real["keys"]


def test_cli_show_all_matches_tfs_text(real, mine):
    text = io.StringIO()
    with contextlib.redirect_stdout(text):
        saved_model_cli.main(["show", "--dir", mine[0], "--all"])
    # minitf has no __saved_model_init_op signature, and its op list names its own ops.
    want = re.sub(r"\nsignature_def\['__saved_model_init_op'\]:.*?Method name is: \n", "",
                  real["cli_all"], flags=re.S)
    ops = re.compile(r"contains the following ops: \{.*\}")
    assert ops.sub("ops", text.getvalue()) == ops.sub("ops", want)


def test_keras_export_and_save_match_tfs(real, mine):
    exported = tf.saved_model.load(str(mine[1] / "exported"))
    got = exposed(exported)

    def unnumbered(value):  # Keras numbers input names per process: keras_tensor_7
        return re.sub(r"keras_tensor_\d+", "keras_tensor", json.dumps(value))

    for key in ("attributes", "has_variables", "signature_keys", "signatures_repr",
                "signatures"):
        assert unnumbered(got[key]) == unnumbered(real["export"][key]), key
    # Keras 3 numbers layers per process (dense, dense_1, ...): compare the shape of names.
    names = [v.name for v in exported.variables]
    assert [re.sub(r"_\d+/", "/", n) for n in names] == \
        [re.sub(r"_\d+/", "/", n) for n in real["export"]["variables"]]
    saved = exposed(tf.saved_model.load(str(mine[1] / "keras_saved")))
    for key in ("signature_keys", "signatures_repr", "signatures"):
        assert saved[key] == real["keras_saved"][key], key
