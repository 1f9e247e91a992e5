"""`tf.autograph.trace` and `tf.autograph.set_verbosity`: debugging what AutoGraph does.

`trace` is Python's `print` - so inside `tf.function` it runs once per trace,
printing symbolic tensors, while `tf.print` runs on every call:

>>> @tf.function
... def f(x):
...     tf.autograph.trace("tracing with", x.shape)
...     return x + 1
>>> _ = f(tf.constant([1, 2]))
tracing with (2,)
>>> _ = f(tf.constant([3, 4]))          # same signature: no new trace, nothing printed

`set_verbosity(level, alsologtostdout)` sets the level TF's AutoGraph logs at
(the environment variable AUTOGRAPH_VERBOSITY, when set, wins, as in TF).
In TensorFlow the log lines describe each conversion; minitf's AutoGraph writes
no log lines - read `tf.autograph.to_code(f)` instead.
"""
import os

from ..framework.tf_export import tf_export

_verbosity = {"level": 0, "alsologtostdout": False}


@tf_export("autograph.set_verbosity")
def set_verbosity(level, alsologtostdout=False):
    """Set AutoGraph's log level (0: none; larger: more) and whether logs echo to stdout."""
    _verbosity["level"] = level
    _verbosity["alsologtostdout"] = alsologtostdout


def get_verbosity():
    """The level in effect: AUTOGRAPH_VERBOSITY if set, else set_verbosity's (TF's rule)."""
    env = os.environ.get("AUTOGRAPH_VERBOSITY")
    return int(env) if env is not None else _verbosity["level"]


@tf_export("autograph.trace")
def trace(*args):
    """Print the arguments to sys.stdout at trace time (exactly `print(*args)`, as TF)."""
    print(*args)
