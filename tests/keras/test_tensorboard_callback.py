"""tf.keras.callbacks.TensorBoard writes Keras 3's folders, tags and steps (compared with real
Keras 3.15 in one TF subprocess), read back with TensorBoard's EventAccumulator."""
import json
import os
import sys

import numpy as np
import pytest
from real_tf import run_tf_json

import minitf as tf

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(__file__)), "summary"))
from programs import KERAS_FIT as PROGRAM  # noqa: E402
from summary_reader import READER, read_logdir  # noqa: E402



def layout(logdir):
    """{run folder: {tag: [(step, plugin), ...]}}, with the folders' event-file counts."""
    result = {}
    for run in sorted(os.listdir(logdir)):
        read = read_logdir(os.path.join(logdir, run))
        result[run] = {tag: [(e["step"], e["plugin"]) for e in events]
                       for tag, events in sorted(read.items())}
    return result


def fit_with_minitf(logdir):
    namespace = {"keras": tf.keras, "LOGDIR": logdir}
    exec(PROGRAM, namespace)  # noqa: S102 - the program above
    return namespace["weights"]


def test_folders_tags_and_steps_without_tf(tmp_path):
    fit_with_minitf(str(tmp_path))
    found = layout(str(tmp_path))
    assert set(found) == {"train", "validation"}
    assert found["train"]["epoch_loss"] == [(0, "scalars"), (1, "scalars")]
    assert found["train"]["epoch_learning_rate"] == [(0, "scalars"), (1, "scalars")]
    assert found["train"]["sequential/d1/kernel/histogram"] == [(0, "histograms"),
                                                               (1, "histograms")]
    assert found["train"]["keras"] == [(0, "graph_keras_model")]
    assert found["validation"]["evaluation_loss_vs_iterations"] == [(2, "scalars"),
                                                                    (4, "scalars")]
    assert found["validation"]["epoch_mae"] == [(0, "scalars"), (1, "scalars")]


def test_epoch_values_are_the_history(tmp_path):
    x = np.random.RandomState(1).rand(6, 2).astype("float32")
    model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1)])
    model.compile(optimizer=tf.keras.optimizers.SGD(0.05), loss="mse")
    history = model.fit(x, x[:, :1], epochs=3, verbose=0, validation_data=(x, x[:, :1]),
                        callbacks=[tf.keras.callbacks.TensorBoard(str(tmp_path))])
    train = read_logdir(str(tmp_path / "train"))
    validation = read_logdir(str(tmp_path / "validation"))
    np.testing.assert_allclose([e["value"] for e in train["epoch_loss"]],
                               history.history["loss"], rtol=1e-6)
    np.testing.assert_allclose([e["value"] for e in validation["epoch_loss"]],
                               history.history["val_loss"], rtol=1e-6)
    assert [e["value"] for e in train["epoch_learning_rate"]] == [pytest.approx(0.05)] * 3
    assert not [tag for tag in train if tag.endswith("/histogram")]  # histogram_freq=0


def test_batch_level_summaries_with_update_freq(tmp_path):
    x = np.ones((8, 3), "float32")
    model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2, name="d")],
                                name="sequential")
    model.compile(optimizer="sgd", loss="mse")
    model.fit(x, x[:, :2], batch_size=2, epochs=1, verbose=0,
              callbacks=[tf.keras.callbacks.TensorBoard(str(tmp_path), update_freq=2,
                                                        write_images=True, histogram_freq=1)])
    train = read_logdir(str(tmp_path / "train"))
    assert [e["step"] for e in train["batch_loss"]] == [2, 4]  # every 2nd of 4 batches
    kernel = train["sequential/d/kernel/image"][0]  # [3, 2]: drawn 2 high and 3 wide
    assert kernel["plugin"] == "images" and kernel["value"]["size"] == [3, 2]


def test_unsupported_options_say_why():
    with pytest.raises(ValueError, match="no profiler"):
        tf.keras.callbacks.TensorBoard(profile_batch=2)
    with pytest.raises(ValueError, match="no embedding projector"):
        tf.keras.callbacks.TensorBoard(embeddings_freq=1)


def test_same_layout_and_histograms_as_keras_3(tmp_path):
    tf_dir, ours = str(tmp_path / "real"), str(tmp_path / "ours")
    real = run_tf_json(READER + "\nimport json, os, keras\nimport tensorflow as tf\n"
                       f"keras.utils.set_random_seed(0)\nLOGDIR = {tf_dir!r}\n" + PROGRAM + r'''
def layout(logdir):
    result = {}
    for run in sorted(os.listdir(logdir)):
        read = read_logdir(os.path.join(logdir, run))
        result[run] = {tag: [(e["step"], e["plugin"]) for e in events]
                       for tag, events in sorted(read.items())}
    return result
print(json.dumps({"layout": layout(LOGDIR), "weights": weights,
                  "histogram": read_logdir(os.path.join(LOGDIR, "train"))[
                      "sequential/d1/kernel/histogram"][-1]["value"],
                  "files": {run: len(os.listdir(os.path.join(LOGDIR, run)))
                            for run in os.listdir(LOGDIR)}}))
''')
    fit_with_minitf(ours)
    assert json.loads(json.dumps(layout(ours))) == real["layout"]
    assert {run: len(os.listdir(os.path.join(ours, run))) for run in os.listdir(ours)} == \
        real["files"]
    # Keras's final kernel, written with minitf's histogram: the same buckets as Keras wrote.
    from minitf.summary.plugin_data import histogram_buckets
    kernel = np.array(real["weights"]["sequential/d1/kernel"])
    np.testing.assert_array_equal(histogram_buckets(kernel), real["histogram"])
