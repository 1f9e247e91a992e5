"""tf.autograph.trace prints at trace time (to stdout), set_verbosity's level; compared with TF."""
import minitf as tf
from minitf.autograph.ag_logging import get_verbosity
from tests.real_tf import run_tf_json

PROGRAM = '''
def program(tf, io, contextlib):
    buf = io.StringIO()
    with contextlib.redirect_stdout(buf):
        @tf.function(autograph=False)
        def f(x):
            tf.autograph.trace("tracing", x.shape, 3)
            return x + 1
        f(tf.constant([1, 2]))
        f(tf.constant([3, 4]))
        f(tf.constant([1, 2, 3]))
        tf.autograph.trace("eager", 1.5)
    tf.autograph.set_verbosity(2, alsologtostdout=True)
    tf.autograph.set_verbosity(0)
    return buf.getvalue()
'''


def run_here():
    import contextlib
    import io
    scope = {}
    exec(PROGRAM, scope)
    return scope["program"](tf, io, contextlib)


def test_trace_prints_once_per_trace(capsys):
    @tf.function(autograph=False)
    def f(x):
        tf.autograph.trace("shape", x.shape)
        return x * 2

    f(tf.constant([1.0]))
    f(tf.constant([2.0]))
    assert capsys.readouterr().out == "shape (1,)\n"


def test_set_verbosity_and_environment(monkeypatch):
    monkeypatch.delenv("AUTOGRAPH_VERBOSITY", raising=False)
    tf.autograph.set_verbosity(3, alsologtostdout=True)
    try:
        assert get_verbosity() == 3
        monkeypatch.setenv("AUTOGRAPH_VERBOSITY", "7")
        assert get_verbosity() == 7  # the environment wins, as in TF
    finally:
        tf.autograph.set_verbosity(0)


def test_matches_real_tf():
    real = run_tf_json(PROGRAM + "\nimport io, json, contextlib, tensorflow as tf\n"
                       "print(json.dumps(program(tf, io, contextlib)))")
    assert run_here() == real
