"""The same summaries written by real TF 2.21 and by minitf read back alike with TensorBoard's
EventAccumulator: tags, steps, plugins, tensor dtypes and shapes, values, histogram buckets,
image pixels and WAV samples; and the event file's name and first record. One TF subprocess."""
import json
import os
import re

import numpy as np
import pytest
from real_tf import run_tf_json
from programs import SUMMARIES as PROGRAM
from summary_reader import READER, read_logdir

import minitf as tf



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
