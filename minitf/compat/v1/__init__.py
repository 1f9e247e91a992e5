"""`tf.compat.v1`: enough of TensorFlow 1 to run a TF1 program for real, for contrast.

TF1 built a graph first and ran it later in a `Session`, feeding `placeholder`s;
variables were made with `get_variable` in `variable_scope`s, kept in global
collections and initialized by running an op. minitf runs such programs on its own
graphs (the ones `tf.function` traces):

>>> import minitf as tf
>>> v1 = tf.compat.v1
>>> with v1.Graph().as_default():
...     x = v1.placeholder(tf.float32, shape=[None])
...     w = v1.get_variable("w", initializer=tf.constant(2.0))
...     y = w * x
...     with v1.Session() as sess:
...         sess.run(v1.global_variables_initializer())
...         print(sess.run(y, feed_dict={x: [1.0, 2.0, 3.0]}))
[2. 4. 6.]

What is here (TF 2.21 has ~700 names in tf.compat.v1; minitf holds the teaching subset):
graph mode (graph_mode.py: `Graph`, `placeholder`, `disable_eager_execution`, ...),
`Session` (session.py), variables, scopes, collections and initializers
(variable_scopes.py), `train` optimizers (train.py), `Dimension`, and the names that
TF 2.21's tf.compat.v1 shares with tf itself (`matmul`, `float32`, ...: the same objects
in TF, so here too). Any other name raises an AttributeError that says so.
"""
import sys as _sys

from . import graph_mode, session, train, variable_scopes  # noqa: F401 - register the names
from .dimension import Dimension, dimension_at_index  # noqa: F401
from .graph_mode import get_default_graph  # noqa: F401
from .renamed import SHARED_WITH_TF as _SHARED, missing as _missing  # the TF1 spellings too

# TF has no tf.compat.v1.session, ... : the files' names stay out of the namespace
# (`from minitf.compat.v1.session import Session` still works).
del graph_mode, session, variable_scopes, dimension, renamed  # noqa: F821 - bound by imports


def __getattr__(name):
    """A name TF 2.21's tf.compat.v1 shares with tf is tf's; anything else is missing."""
    if name in _SHARED:
        return getattr(_sys.modules["minitf"], name)
    raise _missing(__name__, name)


def __dir__():
    return sorted({n for n in globals() if not n.startswith("_")} | _SHARED)
