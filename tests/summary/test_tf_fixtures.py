"""minitf's logs read back like the logs real TF 2.21 / Keras 3.15 wrote (committed fixtures,
see tests/fixtures/summary/README.md): no TensorFlow needed."""
import json
import os

import numpy as np
from programs import KERAS_FIT, SUMMARIES
from summary_reader import read_logdir

import minitf as tf
from widgets.tensorboard_reader import read_scalars

FIXTURES = os.path.join(os.path.dirname(os.path.dirname(__file__)), "fixtures", "summary")


def layout(read):
    return {tag: [(e["step"], e["plugin"], e["dtype"], e["shape"]) for e in events]
            for tag, events in read.items() if tag != "graph"}


def runs_layout(logdir):
    return {run: layout(read_logdir(os.path.join(logdir, run))) for run in os.listdir(logdir)}


def test_summaries_match_tfs_files(tmp_path):
    exec(SUMMARIES, {"tf": tf, "LOGDIR": str(tmp_path)})  # noqa: S102 - tests/summary/programs.py
    ours = json.loads(json.dumps(read_logdir(str(tmp_path))))
    theirs = read_logdir(os.path.join(FIXTURES, "summaries"))
    assert layout(ours) == layout(theirs)
    for tag in ("loss", "count", "outer/inner", "in_function", "negative_step", "few", "same",
                "empty", "normal"):
        np.testing.assert_allclose([e["value"] for e in ours[tag]],
                                   [e["value"] for e in theirs[tag]], rtol=1e-12, err_msg=tag)
    for tag in ("note", "notes", "float_images", "grey", "clip"):  # text, pixels, samples
        assert ours[tag] == theirs[tag], tag
    assert ours["graph"] == [n for n in theirs["graph"] if n["op"] != "Identity"]


def test_first_event_matches_tfs(tmp_path):
    from tensorboard.backend.event_processing.event_file_loader import EventFileLoader
    (theirs,) = os.listdir(os.path.join(FIXTURES, "summaries"))
    tf.summary.create_file_writer(str(tmp_path)).close()
    (ours,) = os.listdir(tmp_path)
    assert ours.split(".")[:3] == theirs.split(".")[:3] and ours.endswith(".v2")
    first = [next(iter(EventFileLoader(path).Load())) for path in
             (os.path.join(FIXTURES, "summaries", theirs), os.path.join(tmp_path, ours))]
    assert first[0].file_version == first[1].file_version == "brain.Event:2"
    assert all(event.wall_time == int(event.wall_time) for event in first)


def test_keras_callback_matches_keras_files(tmp_path):
    exec(KERAS_FIT, {"keras": tf.keras, "LOGDIR": str(tmp_path)})  # noqa: S102
    assert runs_layout(str(tmp_path)) == runs_layout(os.path.join(FIXTURES, "keras_fit"))


def test_reader_widget_reads_tfs_files():
    curves = read_scalars(os.path.join(FIXTURES, "keras_fit"))
    assert sorted(curves) == ["train", "validation"]
    assert curves["train"]["epoch_loss"][0] == [0, 1]
    assert curves["validation"]["evaluation_loss_vs_iterations"][0] == [2, 4]
    assert curves["train"]["epoch_learning_rate"][1] == [np.float32(0.01)] * 2
