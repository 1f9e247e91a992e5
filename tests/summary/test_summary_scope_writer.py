"""summary.experimental.summary_scope (tags and scopes) and the tf.summary.SummaryWriter class,
compared with real TF 2.21 in one subprocess."""
import pytest

import minitf as tf
from tests.real_tf import run_tf_json

PROGRAM = '''
def program(tf, logdir):
    out = []
    S = tf.summary.experimental.summary_scope
    with S("loss", "dflt", values=None) as pair:
        out.append(list(pair))
    with S("loss") as pair:
        out.append(list(pair))
    with tf.name_scope("outer"):
        with S("a b:c", "x") as pair:
            out.append(list(pair))
        with S(None, "dflt") as pair:
            out.append(list(pair))
        with S("") as pair:
            out.append(list(pair))
    w = tf.summary.create_file_writer(logdir)
    out.append([isinstance(w, tf.summary.SummaryWriter),
                isinstance(tf.summary.create_noop_writer(), tf.summary.SummaryWriter)])
    return out
'''


def run_here(logdir):
    scope = {}
    exec(PROGRAM, scope)
    return scope["program"](tf, logdir)


def test_summary_scope_by_hand():
    with tf.name_scope("train"):
        with tf.summary.experimental.summary_scope("acc (%)") as (tag, scope):
            assert tag == "train/acc (%)"
            assert scope == "train/acc/"
    with tf.summary.experimental.summary_scope(None) as (tag, scope):
        assert (tag, scope) == ("summary", "summary/")


def test_summary_writer_is_the_base_of_file_writers(tmp_path):
    writer = tf.summary.create_file_writer(str(tmp_path))
    assert isinstance(writer, tf.summary.SummaryWriter)
    with writer.as_default(step=1):
        assert tf.summary.scalar("x", 1.0)
    writer.close()


def test_matches_real_tf(tmp_path):
    real = run_tf_json(PROGRAM + f"\nimport json, tensorflow as tf\n"
                       f"print(json.dumps(program(tf, {str(tmp_path / 'tf')!r})))")
    assert run_here(str(tmp_path / "mine")) == real
