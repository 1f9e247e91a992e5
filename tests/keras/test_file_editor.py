"""keras.saving.KerasFileEditor against real Keras 3.15 (one TF subprocess): the printed tree
and comparison, the errors, and edited files going both ways (minitf edits a file real Keras
wrote and Keras loads the result; Keras edits a file minitf wrote and minitf loads it).

Where Keras 3.15 has bugs minitf does not copy (see file_editor.py), the comparisons use
files and models on which Keras is right: no nested layers, one matching layer.
"""
import contextlib
import io
import os

import h5py
import numpy as np
import pytest

import minitf as tf
from real_tf import require_tf, run_tf_json

FIXTURES = os.path.join(os.path.dirname(__file__), "..", "fixtures", "keras")
SEQUENTIAL = os.path.join(FIXTURES, "sequential.keras")
FUNCTIONAL = os.path.join(FIXTURES, "functional.keras")
RNN_STACK = os.path.join(FIXTURES, "rnn_stack.weights.h5")
X = np.linspace(-1, 1, 8, dtype="float32").reshape(2, 4)
EDIT_CALLS = ["e.delete_object('nothing')", "e.delete_object('layers/nothing')",
              "e.rename_object('layers/dense', 'a/b')", "e.delete_weight('layers/dense', '7')",
              "e.add_object('x/y', {})", "e.add_weights('layers/dense', [1])",
              "e.save('edited.keras')", "E('model.h5')"]

TF_CODE = """
import contextlib, io, json, os, sys
os.environ["COLUMNS"] = "300"  # rich would wrap lines at 80 columns
import numpy as np, keras
from keras.saving import KerasFileEditor as E
folder, fixtures = sys.argv[1], sys.argv[2]
x = np.linspace(-1, 1, 8, dtype="float32").reshape(2, 4)
def printed(fn):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        value = fn()
    return out.getvalue().splitlines(), value
def dense_stack(*units):
    return keras.Sequential([keras.Input((4,))] + [keras.layers.Dense(u) for u in units])
result = {}
result["open"], e = printed(lambda: E(os.path.join(fixtures, "sequential.keras")))
result["summary"] = printed(e.summary)[0]
result["rnn_summary"] = printed(lambda: E(os.path.join(fixtures, "rnn_stack.weights.h5"))
                                .summary())[0][1:]
errors = []
for call in %(calls)r:
    try:
        eval(call)
        errors.append(None)
    except Exception as ex:
        errors.append([type(ex).__name__, str(ex)])
result["errors"] = errors
one = printed(lambda: E(os.path.join(folder, "one.weights.h5")))[1]
result["compare_same"] = printed(lambda: one.compare(dense_stack(3)))
result["compare_more"] = printed(lambda: one.compare(dense_stack(3, 2)))
result["compare_shape"] = printed(lambda: one.compare(dense_stack(5)))
# minitf's edit of Keras's file, loaded by Keras
edited = keras.Sequential([keras.Input((4,)), keras.layers.Dense(3, activation="relu"),
                           keras.layers.Dropout(0.5), keras.layers.Dense(2)])
edited.load_weights(os.path.join(folder, "minitf_edit.weights.h5"))
result["minitf_edit"] = np.asarray(edited(x)).tolist()
# Keras's edit of minitf's file, loaded by minitf
k = printed(lambda: E(os.path.join(folder, "minitf.keras")))[1]
result["minitf_file_summary"] = printed(k.summary)[0]
k.rename_object("layers/dense_1", "dense_2")
k.add_object("layers/dense_1", {"0": np.full((3, 3), 0.5, "float32"),
                                "1": np.array([0.1, 0.2, 0.3], "float32")})
k.save(os.path.join(folder, "keras_edit.weights.h5"))
model = dense_stack(3, 3, 2)
model.load_weights(os.path.join(folder, "keras_edit.weights.h5"))
result["keras_edit"] = np.asarray(model(x)).tolist()
print(json.dumps(result))
""" % {"calls": EDIT_CALLS}


def quiet(fn):
    """fn()'s value and the lines it printed."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        value = fn()
    return out.getvalue().splitlines(), value


def dense_stack(*units):
    return tf.keras.Sequential([tf.keras.Input((4,))] +
                               [tf.keras.layers.Dense(u) for u in units])


def open_editor(path):
    return quiet(lambda: tf.keras.saving.KerasFileEditor(path))[1]


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    """minitf's files for Keras to read: one Dense's weights, a two-Dense `.keras`, and the
    fixture `sequential.keras` (written by Keras) edited by minitf."""
    folder = tmp_path_factory.mktemp("file_editor")
    one = dense_stack(3)
    one.save_weights(str(folder / "one.weights.h5"))
    two = dense_stack(3, 2)
    for i, v in enumerate(two.weights):
        v.assign(np.linspace(-1, 1, int(np.prod(v.shape))).reshape(v.shape) * (i + 1))
    two.save(str(folder / "minitf.keras"))
    editor = open_editor(SEQUENTIAL)
    editor.delete_object("layers/batch_normalization")
    editor.delete_object("optimizer")
    editor.save(str(folder / "minitf_edit.weights.h5"))
    return folder


@pytest.fixture(scope="module")
def real(folder):
    require_tf()
    return run_tf_json(f"import sys; sys.argv = ['-', {str(folder)!r}, {FIXTURES!r}]\n"
                       + TF_CODE)


def test_printed_tree_equals_keras(real):
    lines, editor = quiet(lambda: tf.keras.saving.KerasFileEditor(SEQUENTIAL))
    assert lines == real["open"]
    assert quiet(editor.summary)[0] == real["summary"]
    assert editor.metadata["keras_version"] == "3.15.1"
    assert editor.config["class_name"] == "Sequential"


def test_errors_equal_keras(real, folder, monkeypatch):
    e = open_editor(SEQUENTIAL)  # noqa: F841 - the calls name it
    E = tf.keras.saving.KerasFileEditor  # noqa: F841
    monkeypatch.chdir(folder)
    for call, theirs in zip(EDIT_CALLS, real["errors"]):
        with pytest.raises(ValueError) as info:
            eval(call)
        assert theirs[0] == "ValueError"
        if "does not appear" in theirs[1]:  # Keras points to a method it lacks
            assert "does not appear in the model" in str(info.value)
        else:
            assert str(info.value) == theirs[1], call


@pytest.mark.parametrize("key, units", [("compare_same", (3,)), ("compare_more", (3, 2)),
                                        ("compare_shape", (5,))])
def test_compare_equals_keras(real, folder, key, units):
    editor = open_editor(str(folder / "one.weights.h5"))
    lines, result = quiet(lambda: editor.compare(dense_stack(*units)))
    assert [lines, result] == real[key]


def test_edits_travel_both_ways(real, folder):
    edited = tf.keras.Sequential([tf.keras.Input((4,)), tf.keras.layers.Dense(3, "relu"),
                                  tf.keras.layers.Dropout(0.5), tf.keras.layers.Dense(2)])
    edited.load_weights(str(folder / "minitf_edit.weights.h5"))
    np.testing.assert_allclose(edited(X).numpy(), real["minitf_edit"], rtol=1e-6)
    original = tf.keras.models.load_model(SEQUENTIAL)
    np.testing.assert_array_equal(edited.layers[2].kernel.numpy(),
                                  original.layers[3].kernel.numpy())
    model = dense_stack(3, 3, 2)
    model.load_weights(str(folder / "keras_edit.weights.h5"))
    np.testing.assert_allclose(model(X).numpy(), real["keras_edit"], rtol=1e-6)
    assert quiet(open_editor(str(folder / "minitf.keras")).summary)[0] == \
        real["minitf_file_summary"]


# --- TF-free ---------------------------------------------------------------------------------
def test_nested_layers_are_kept(tmp_path, monkeypatch):
    """Keras 3.15 drops an LSTM's cell and a Bidirectional's RNNs; minitf keeps them, so a
    resaved file still loads into the model."""
    editor = open_editor(RNN_STACK)
    assert list(editor.weights_dict["layers"]["gru"]) == ["cell"]
    assert set(editor.weights_dict["layers"]["bidirectional"]) == {"backward_layer",
                                                                    "forward_layer"}
    assert editor.object_metadata["/layers/gru/cell"] == {"name": "gru_cell"}
    path = str(tmp_path / "same.weights.h5")
    editor.save(path)
    monkeypatch.syspath_prepend(FIXTURES)
    from make_fixtures import build_functional, build_rnn_stack
    model = build_rnn_stack(tf.keras)
    model.load_weights(path)
    reference = build_rnn_stack(tf.keras)
    reference.load_weights(RNN_STACK)
    for mine, theirs in zip(model.weights, reference.weights):
        np.testing.assert_array_equal(mine.numpy(), theirs.numpy())
    lines, result = quiet(lambda: open_editor(FUNCTIONAL).compare(build_functional(tf.keras)))
    # the file holds an optimizer the fresh model lacks: the only error
    assert result == {"status": "error", "error_count": 1, "match_count": 12}, lines


def test_short_names_rename_add_delete_and_save(tmp_path):
    editor = open_editor(SEQUENTIAL)
    editor.rename_object("dense_1", "head")  # Keras 3.15 refuses: it miscounts "dense_1"
    assert list(editor.weights_dict["layers"]) == ["batch_normalization", "dense", "head"]
    editor.delete_weight("batch_normalization", "3")
    editor.add_weights("batch_normalization", {"3": np.full(3, 2.0, "float32")})
    editor.delete_object("optimizer")
    editor.add_object("layers/x", {"0": np.zeros(1)})
    editor.add_object("layers/head/x", {"0": np.zeros(1)})
    with pytest.raises(ValueError, match="occurs more than once"):
        editor.delete_object("x")
    editor.delete_object("layers/head/x")
    editor.rename_object("layers/head", "dense_1")
    path = tmp_path / "edited.weights.h5"
    editor.save(str(path))
    with h5py.File(path, "r") as f:
        assert sorted(f["layers"]) == ["batch_normalization", "dense", "dense_1", "x"]
        np.testing.assert_array_equal(f["layers/batch_normalization/vars/3"][()], [2, 2, 2])
    assert [p.name for p in tmp_path.iterdir()] == ["edited.weights.h5"]  # atomic: no leftovers


def test_bad_files_are_refused(tmp_path):
    link = str(tmp_path / "link.weights.h5")
    with h5py.File(link, "w") as f:
        f.create_dataset("layers/dense/vars/0", data=np.zeros(2))
        f["layers/dense/vars/1"] = h5py.SoftLink("/layers/dense/vars/0")
    with pytest.raises(ValueError, match="Not allowed: H5 file with SoftLink"):
        open_editor(link)
    external = str(tmp_path / "external.weights.h5")
    with h5py.File(external, "w") as f:
        f["layers/dense/vars/0"] = h5py.ExternalLink("/etc/passwd", "/x")
    with pytest.raises(ValueError, match="ExternalLink"):
        open_editor(external)
    broken = tmp_path / "broken.keras"
    broken.write_bytes(b"not a zip")
    with pytest.raises(ValueError, match="is not a `.keras` zip file"):
        open_editor(str(broken))
    with pytest.raises(FileNotFoundError):
        open_editor(str(tmp_path / "missing.weights.h5"))
