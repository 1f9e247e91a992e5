"""The same summaries written by real TF 2.21 and by minitf read back alike with TensorBoard's
EventAccumulator: tags, steps, plugins, tensor dtypes and shapes, values, histogram buckets,
image pixels and WAV samples; and the event file's name and first record. One TF subprocess."""
import json
import os
import re

import numpy as np
import pytest
from real_tf import run_tf_json
from summary_reader import READER, read_logdir

import minitf as tf

# The same program for both: `tf` is TensorFlow in the subprocess and minitf here.
PROGRAM = r'''
import numpy as np
rng = np.random.RandomState(0)
writer = tf.summary.create_file_writer(LOGDIR)
with writer.as_default(step=3):
    tf.summary.scalar("loss", 0.25)
    tf.summary.scalar("count", 7)
    with tf.name_scope("outer"):
        tf.summary.scalar("inner", 1.5, step=4)
    tf.summary.histogram("normal", rng.randn(500))
    tf.summary.histogram("few", rng.rand(20).astype(np.float32), buckets=4)
    tf.summary.histogram("same", np.full(6, 2.0))
    tf.summary.histogram("empty", np.zeros(0, np.float32))
    tf.summary.text("note", "hello *world*")
    tf.summary.text("notes", ["a", "b"])
    tf.summary.image("float_images", rng.rand(3, 4, 5, 3).astype(np.float32), max_outputs=2)
    tf.summary.image("grey", rng.randint(0, 256, (1, 3, 2, 1)).astype(np.uint8))
    tf.summary.audio("clip", np.linspace(-1.2, 1.2, 40, dtype=np.float32).reshape(2, 10, 2),
                     8000, max_outputs=1)
    tf.summary.scalar("negative_step", 1.0, step=tf.constant(-2, tf.int64))

@tf.function(autograph=False)
def step_fn(x, step):
    tf.summary.scalar("in_function", x * 2.0, step=step)
    return x

with writer.as_default():
    for i in range(3):
        step_fn(tf.constant(float(i)), tf.constant(i, tf.int64))
    tf.summary.graph(tf.function(lambda x: x * 2.0, autograph=False).get_concrete_function(
        tf.TensorSpec([2], tf.float32)).graph)
writer.close()
'''


@pytest.fixture(scope="module")
def both(tmp_path_factory):
    tf_dir = str(tmp_path_factory.mktemp("real_tf"))
    ours = str(tmp_path_factory.mktemp("minitf"))
    real = run_tf_json(READER + f"\nimport tensorflow as tf\nLOGDIR = {tf_dir!r}\n" + PROGRAM +
                       "\nimport json\nprint(json.dumps({'read': read_logdir(LOGDIR), "
                       "'files': os.listdir(LOGDIR)}))")
    exec(PROGRAM, {"tf": tf, "LOGDIR": ours})  # noqa: S102 - the program above
    return real, {"read": json.loads(json.dumps(read_logdir(ours))), "files": os.listdir(ours)}


def test_file_names_follow_the_same_pattern(both):
    real, ours = both
    pattern = r"events\.out\.tfevents\.\d{10}\.[^.]+(\.[^.]+)*\.\d+\.\d+\.v2"
    assert all(re.fullmatch(pattern, name) for name in real["files"] + ours["files"])


def test_same_tags_plugins_steps_dtypes_and_shapes(both):
    real, ours = both
    graph_free = [t for t in real["read"] if t != "graph"]
    assert sorted(graph_free) == sorted(t for t in ours["read"] if t != "graph")

    def layout(read):
        return {tag: [(e["step"], e["plugin"], e["dtype"], e["shape"]) for e in events]
                for tag, events in read.items() if tag != "graph"}
    assert layout(ours["read"]) == layout(real["read"])


def test_same_values(both):
    real, ours = both
    for tag, events in real["read"].items():
        if tag == "graph":
            continue
        for theirs, mine in zip(events, ours["read"][tag]):
            if theirs["plugin"] in ("scalars", "histograms"):
                np.testing.assert_allclose(mine["value"], theirs["value"], rtol=1e-12,
                                           err_msg=tag)
            else:  # text, image pixels, WAV samples: equal
                assert mine["value"] == theirs["value"], tag


def test_histogram_buckets_equal_exactly(both):
    real, ours = both
    for tag in ("normal", "few", "same", "empty"):
        assert ours["read"][tag][0]["value"] == real["read"][tag][0]["value"], tag


def test_graph_has_the_same_computation(both):
    real, ours = both
    # TF's function graph ends in an Identity feeding the output; minitf returns Mul directly.
    theirs = [n for n in real["read"]["graph"] if n["op"] != "Identity"]
    assert ours["read"]["graph"] == theirs
