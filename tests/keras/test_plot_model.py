"""tf.keras.utils.model_to_dot / plot_model: the graph's boxes and arrows (compared with what
TF 2.21 + pydot draws for the same models), labels, rendering with Graphviz, and TF's
behaviour when Graphviz is missing."""
import re
import shutil
import subprocess
import sys

import pytest

import minitf as tf
from minitf.keras.utils import model_visualization
from system_tools import require_tool



@pytest.fixture
def dot_installed():
    """Skip without Graphviz's `dot`, saying how to install it (fail under MINITF_REQUIRE_TOOLS=1)."""
    return require_tool("dot")


needs_dot = pytest.mark.usefixtures("dot_installed")


def _boxes_and_arrows(dot):
    """({node: bold title}, sorted [(source title, destination title)]) over clusters too."""
    titles, edges = {}, []

    def walk(graph):
        for node in graph.get_nodes():
            titles[node.get_name()] = re.search(r"<b>(.*?)</b>", node.get("label")).group(1)
        for sub in graph.get_subgraphs():
            walk(sub)
        edges.extend((e.get_source(), e.get_destination()) for e in graph.get_edges())

    walk(dot)
    return titles, sorted((titles[a], titles[b]) for a, b in edges)


def _nested_model():
    inner_in = tf.keras.Input((4,), name="inner_in")
    inner = tf.keras.Model(inner_in, tf.keras.layers.Dense(3, name="inner_dense")(inner_in),
                           name="inner")
    seq = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2, name="seq_dense"),
                               tf.keras.layers.Dense(2, name="seq_dense2")], name="seq")
    x = tf.keras.Input((4,), name="x")
    return tf.keras.Model(x, tf.keras.layers.Dense(1, name="top")(seq(inner(x))), name="outer")


def test_nested_model_collapsed_and_expanded_as_tf_draws_it():
    model = _nested_model()
    titles, edges = _boxes_and_arrows(tf.keras.utils.model_to_dot(model))
    assert sorted(titles.values()) == ["inner", "seq", "top", "x"]
    assert edges == [("inner", "seq"), ("seq", "top"), ("x", "inner")]
    dot = tf.keras.utils.model_to_dot(model, expand_nested=True)
    titles, edges = _boxes_and_arrows(dot)
    # Recorded from TF 2.21's keras.utils.model_to_dot on the same model.
    assert sorted(titles.values()) == ["inner_dense", "inner_in", "seq_dense", "seq_dense2",
                                       "top", "x"]
    assert edges == [("inner_dense", "seq_dense"), ("inner_in", "inner_dense"),
                     ("seq_dense", "seq_dense2"), ("seq_dense2", "top"), ("x", "inner_in")]
    assert [s.get_name() for s in dot.get_subgraphs()] == ["cluster_inner", "cluster_seq"]
    assert "subgraph cluster_inner {" in dot.to_string() and "style=dashed;" in dot.to_string()


def test_functional_multi_input_labels_with_shapes_and_dtype():
    a = tf.keras.Input((2,), name="a")
    b = tf.keras.Input((2,), name="b")
    added = tf.keras.layers.Add(name="add")([a, b])
    model = tf.keras.Model([a, b], tf.keras.layers.Dense(1, name="head")(added))
    dot = tf.keras.utils.model_to_dot(model, show_shapes=True, show_dtype=True)
    labels = {n.get_name(): n.get("label") for n in dot.get_nodes()}
    assert list(labels) == ["a", "b", "add", "head"]
    assert [(e.get_source(), e.get_destination()) for e in dot.get_edges()] == \
        [("a", "add"), ("b", "add"), ("add", "head")]
    assert "Input shape: <b>[(None, 2), (None, 2)]</b>" in labels["add"]
    assert "Output shape: <b>(None, 1)</b>" in labels["head"]
    assert "Output dtype: <b>float32</b>" in labels["head"]
    assert "Input shape" not in labels["a"]          # an InputLayer has no input shape
    assert '<b>head</b> (Dense)' in labels["head"]
    assert 'colspan="3"' in labels["head"]


def test_label_matches_tf_exactly():
    model = tf.keras.Sequential([tf.keras.Input((3,)),
                                 tf.keras.layers.Dense(2, activation="relu", name="hidden"),
                                 tf.keras.layers.Dense(1, name="dense")])
    dot = tf.keras.utils.model_to_dot(model, show_shapes=True, show_dtype=True)
    # The label TF 2.21 + pydot printed for the same layer.
    expected = ('<<table border="0" cellborder="1" bgcolor="black" cellpadding="10"><tr><td '
                'colspan="3" bgcolor="black"><font point-size="16" color="white"><b>hidden</b> '
                '(Dense)</font></td></tr><tr><td bgcolor="white"><font point-size="14">Input '
                'shape: <b>(None, 3)</b></font></td><td bgcolor="white"><font point-size="14">'
                'Output shape: <b>(None, 2)</b></font></td><td bgcolor="white"><font '
                'point-size="14">Output dtype: <b>float32</b></font></td></tr></table>>')
    assert dot.get_nodes()[0].get("label") == expected
    text = dot.to_string()
    assert text.startswith("digraph G {\nrankdir=TB;\nconcentrate=true;\ndpi=200;\n"
                           "splines=ortho;\nnode [shape=record];\n")
    assert "hidden -> dense [penwidth=2];" in text


def test_options_names_activations_trainable_rankdir_dpi():
    model = tf.keras.Sequential([tf.keras.Input((3,)),
                                 tf.keras.layers.Dense(2, activation="relu", name="hidden"),
                                 tf.keras.layers.Dropout(0.5, name="drop")])
    model.layers[0].trainable = False
    dot = tf.keras.utils.model_to_dot(model, show_layer_names=False, rankdir="LR", dpi=72,
                                      show_layer_activations=True, show_trainable=True)
    hidden, drop = [n.get("label") for n in dot.get_nodes()]
    assert "<b>Dense</b>" in hidden and "hidden" not in hidden
    assert "Activation: <b>relu</b>" in hidden and "Activation" not in drop
    assert "Non-trainable" in hidden and "rainable" not in drop   # no weights, no badge
    assert "rankdir=LR;" in dot.to_string() and "dpi=72;" in dot.to_string()


def test_subclassed_model_is_one_box_and_unbuilt_model_raises():
    class Tiny(tf.keras.Model):
        def __init__(self):
            super().__init__(name="tiny")
            self.dense = tf.keras.layers.Dense(1)

        def call(self, x):
            return self.dense(x)

    model = Tiny()
    with pytest.raises(ValueError, match="has not yet been built"):
        tf.keras.utils.model_to_dot(model)
    with pytest.raises(ValueError, match="has not yet been built"):
        tf.keras.utils.plot_model(model)
    model(tf.ones([1, 2]))
    dot = tf.keras.utils.model_to_dot(model)
    assert [n.get_name() for n in dot.get_nodes()] == ["tiny"] and dot.get_edges() == []


def test_bad_arguments():
    model = tf.keras.Sequential([tf.keras.Input((1,)), tf.keras.layers.Dense(1)])
    with pytest.raises(ValueError, match="`layer_range` is no longer supported"):
        tf.keras.utils.model_to_dot(model, layer_range=["a", "b"])
    with pytest.raises(ValueError, match="Unrecognized keyword arguments"):
        tf.keras.utils.model_to_dot(model, colour="red")


def test_same_name_in_nested_models_gets_distinct_nodes():
    inner_in = tf.keras.Input((2,), name="same_in")
    inner = tf.keras.Model(inner_in, tf.keras.layers.Dense(2, name="same")(inner_in))
    x = tf.keras.Input((2,), name="x")
    model = tf.keras.Model(x, tf.keras.layers.Dense(1, name="same")(inner(x)))
    dot = tf.keras.utils.model_to_dot(model, expand_nested=True)
    names = [n.get_name() for s in dot.get_subgraphs() for n in s.get_nodes()]
    names += [n.get_name() for n in dot.get_nodes()]
    assert sorted(names) == ["same", "same_1", "same_in", "x"]


@needs_dot
@pytest.mark.parametrize("extension, magic", [(".png", b"\x89PNG"), (".svg", b"<?xml"),
                                              (".pdf", b"%PDF"), ("", b"\x89PNG")])
def test_plot_model_writes_the_picture_and_returns_a_display_object(tmp_path, extension, magic):
    pytest.importorskip("IPython")
    from IPython import display
    model = _nested_model()
    path = tmp_path / f"model{extension}"
    result = tf.keras.utils.plot_model(model, to_file=path, show_shapes=True, expand_nested=True)
    assert path.read_bytes().startswith(magic)
    expected = {".svg": display.SVG, ".pdf": type(None)}.get(extension, display.Image)
    assert type(result) is expected
    if extension == ".svg":
        assert "inner_dense" in path.read_text()


@needs_dot
def test_dpi_changes_the_png_size(tmp_path):
    model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(1)])
    small = tf.keras.utils.model_to_dot(model, dpi=50).create(format="png")
    large = tf.keras.utils.model_to_dot(model, dpi=200).create(format="png")

    def width(png):  # the IHDR chunk holds the width
        return int.from_bytes(png[16:20], "big")

    assert width(large) > 3 * width(small)


def test_without_graphviz_plot_model_raises_tf_import_error(monkeypatch, tmp_path):
    monkeypatch.setattr(model_visualization.shutil, "which", lambda name: None)
    model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(1)])
    monkeypatch.delitem(sys.modules, "IPython.core.magics.namespace", raising=False)
    with pytest.raises(ImportError, match=re.escape(
            "You must install graphviz (see instructions at https://graphviz.gitlab.io/"
            "download/) for `plot_model` to work.")):
        tf.keras.utils.plot_model(model, to_file=tmp_path / "m.png")
    assert not (tmp_path / "m.png").exists()
    # model_to_dot needs no Graphviz at all: it only writes text.
    assert "digraph" in tf.keras.utils.model_to_dot(model).to_string()


def test_without_graphviz_in_a_notebook_prints_and_returns_none(monkeypatch, capsys):
    monkeypatch.setattr(model_visualization.shutil, "which", lambda name: None)
    monkeypatch.setitem(sys.modules, "IPython.core.magics.namespace", object())
    model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(1)])
    assert tf.keras.utils.plot_model(model) is None
    assert "You must install graphviz" in capsys.readouterr().out


@needs_dot
def test_dot_text_is_valid_graphviz_input():
    text = tf.keras.utils.model_to_dot(_nested_model(), show_shapes=True, show_dtype=True,
                                       expand_nested=True, show_trainable=True).to_string()
    result = subprocess.run(["dot", "-Tcanon"], input=text.encode(), capture_output=True,
                            check=False)
    assert result.returncode == 0, result.stderr.decode()
