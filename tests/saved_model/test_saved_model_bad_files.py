"""Corrupt, truncated and tampered SavedModels fail with a clear error naming the file,
before anything big is allocated and without running anything from the file."""
import json
import os
import shutil

import pytest

import minitf as tf
from minitf.saved_model import values


@pytest.fixture(scope="module")
def good(tmp_path_factory):
    module = tf.Module()
    module.w = tf.Variable([[1.0, 2.0]], name="w")
    module.f = tf.function(lambda x: tf.matmul(x, module.w, transpose_b=True) + 1.0,
                           input_signature=[tf.TensorSpec([None, 2], tf.float32, "x")])
    path = str(tmp_path_factory.mktemp("good") / "m")
    tf.saved_model.save(module, path)
    return path


def copy_with(good, tmp_path, change):
    path = str(tmp_path / "bad")
    shutil.copytree(good, path)
    with open(os.path.join(path, "saved_model.json")) as f:
        document = json.load(f)
    change(document)
    with open(os.path.join(path, "saved_model.json"), "w") as f:
        json.dump(document, f)
    return path


def nodes(document):
    return document["concrete_functions"][0]["graph"]["nodes"]


def node(document, op):
    return [n for n in nodes(document) if n["op"] == op][0]


def variable_entry(document):
    return [o for o in document["object_graph"] if o["kind"] == "variable"][0]


TAMPERED = {
    "unknown op": (lambda d: node(d, "MatMul").update(op="SystemCall"),
                   "op 'SystemCall' is not a registered minitf op"),
    "python code op": (lambda d: node(d, "MatMul").update(op="EagerPyFunc"),
                       "not allowed in a SavedModel"),
    "unknown kernel variant": (lambda d: node(d, "MatMul").update(variant="os.system"),
                               "kernel 'os.system' is not a registered minitf op"),
    "input from a later node": (lambda d: node(d, "MatMul").update(inputs=[[99, 0], [0, 0]]),
                                "does not name an output of an earlier node"),
    "output index out of range": (lambda d: node(d, "MatMul").update(inputs=[[0, 5], [0, 0]]),
                                  "does not name an output of an earlier node"),
    "pickle-like value tag": (
        lambda d: node(d, "MatMul")["attrs"].update(transpose_a={"pickle": "gASV"}),
        "unknown value tag 'pickle'"),
    "huge constant shape": (
        lambda d: node(d, "Const")["attrs"]["value"]["ndarray"].update(shape=[1 << 20, 1 << 20]),
        "larger than the limit"),
    "constant data too short": (
        lambda d: node(d, "Const")["attrs"]["value"]["ndarray"].update(shape=[4]),
        "needs 16 bytes, but its data has another length"),
    "constant data not base64": (
        lambda d: node(d, "Const")["attrs"]["value"]["ndarray"].update(data="!!!!!!!!"),
        "not valid base64"),
    "unknown dtype": (lambda d: node(d, "Const")["outputs"][0].__setitem__(0, "float128"),
                      "unknown dtype 'float128'"),
    "wrong output count": (lambda d: node(d, "MatMul")["outputs"].append(["float32", []]),
                           "declares 2 outputs, not 1"),
    "read of a non-variable": (
        lambda d: node(d, "ReadVariableOp")["attrs"].update(variable={"variable": 0}),
        "does not name a variable of the object graph"),
    "unknown object kind": (lambda d: d["object_graph"][0].update(kind="module_loader"),
                            "unknown object kind 'module_loader'"),
    "dunder child": (lambda d: d["object_graph"][0]["children"][0].update(
        local_name="__class__"), "cannot have a child named '__class__'"),
    "child out of range": (lambda d: d["object_graph"][0]["children"][0].update(node_id=50),
                           "has a malformed child"),
    "variable shape mismatch": (lambda d: variable_entry(d).update(shape=[2, 1]),
                                "declared float32[2, 1] but the checkpoint holds float32[1, 2]"),
    "variable key missing": (lambda d: variable_entry(d).update(checkpoint_key="nope"),
                             "variable key 'nope' is not in"),
    "signature output out of range": (
        lambda d: d["signatures"]["serving_default"]["outputs"][0].__setitem__(1, 7),
        "names outputs its function does not have"),
    "function index out of range": (
        lambda d: d["signatures"]["serving_default"].update(concrete_function=9),
        "does not name a saved concrete function"),
    "deep nesting": (lambda d: node(d, "MatMul")["attrs"].update(
        transpose_a=json.loads('{"list": [' * 70 + ']}' * 70)), "nest deeper than"),
    "attribute the op rejects": (
        lambda d: node(d, "MatMul")["attrs"].update(transpose_b=False),
        "node 'MatMul' (MatMul) does not fit its op"),
    "outputs the rules disagree with": (
        lambda d: node(d, "MatMul")["outputs"].__setitem__(0, ["float32", [1000, 1000]]),
        "declares outputs [('float32', [1000, 1000])], but its inputs and attributes give"),
    "huge declared output": (
        lambda d: node(d, "Const").update(outputs=[["float32", [1 << 20, 1 << 20]]]),
        "declares outputs"),
    "wrong format version": (lambda d: d.update(version=99), "format version 99 is not 1"),
    "not a minitf document": (lambda d: d.update(format="tensorflow"),
                              "not a minitf SavedModel document"),
}


@pytest.mark.parametrize("case", sorted(TAMPERED))
def test_tampered_documents(good, tmp_path, case):
    change, message = TAMPERED[case]
    path = copy_with(good, tmp_path, change)
    with pytest.raises(ValueError) as info:
        tf.saved_model.load(path)
    assert message in str(info.value)
    assert os.path.join(path, "saved_model.json") in str(info.value) or \
        os.path.join(path, "variables") in str(info.value)


def test_too_many_nodes(good, monkeypatch):
    monkeypatch.setattr(values, "MAX_NODES", 3)
    with pytest.raises(ValueError, match="more than 3 nodes"):
        tf.saved_model.load(good)


def test_missing_directory_is_tfs_oserror(tmp_path):
    with pytest.raises(OSError, match="SavedModel file does not exist at: .*nowhere"):
        tf.saved_model.load(str(tmp_path / "nowhere"))


def test_a_savedmodel_written_by_tensorflow_is_recognised():
    # tests/fixtures/saved_model/tf_module: written by TF 2.21 (see the README there)
    path = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))),
                        "fixtures", "saved_model", "tf_module")
    assert os.path.isfile(os.path.join(path, "saved_model.pb"))
    with pytest.raises(OSError, match="TensorFlow's saved_model.pb, which minitf cannot read"):
        tf.saved_model.load(path)
    from minitf.tools import saved_model_cli
    with pytest.raises(OSError, match="SavedModel file does not exist at: .*tf_module"):
        saved_model_cli.main(["show", "--dir", path, "--all"])


@pytest.mark.parametrize("content", [b"", b"{\"format\": \"minitf.saved_model\", \"vers",
                                     b"\xff\xfe garbage", b"[1, 2, 3]"])
def test_corrupt_or_truncated_json(good, tmp_path, content):
    path = str(tmp_path / "bad")
    shutil.copytree(good, path)
    with open(os.path.join(path, "saved_model.json"), "wb") as f:
        f.write(content)
    with pytest.raises(ValueError, match="saved_model.json: "):
        tf.saved_model.load(path)


def test_missing_or_truncated_variables(good, tmp_path):
    path = str(tmp_path / "no_vars")
    shutil.copytree(good, path)
    os.remove(os.path.join(path, "variables", "variables.index"))
    with pytest.raises(ValueError, match="variables.index: file is missing"):
        tf.saved_model.load(path)
    path = str(tmp_path / "short")
    shutil.copytree(good, path)
    data = os.path.join(path, "variables", "variables.data-00000-of-00001")
    with open(data, "rb") as f:
        content = f.read()
    with open(data, "wb") as f:
        f.write(content[:len(content) // 2])
    with pytest.raises(tf.errors.DataLossError, match="variables.data-00000-of-00001"):
        tf.saved_model.load(path)


def test_unserializable_ops_are_refused_at_save_time(tmp_path):
    module = tf.Module()
    module.f = tf.function(lambda x: tf.numpy_function(lambda a: a * 2, [x], tf.float32),
                           input_signature=[tf.TensorSpec([], tf.float32)])
    with pytest.raises(ValueError, match="Cannot save a graph with op 'EagerPyFunc'"):
        tf.saved_model.save(module, str(tmp_path / "m"))
    assert os.listdir(tmp_path) == []
