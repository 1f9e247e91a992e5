"""`tf.version`: which TensorFlow this is - here, which TensorFlow minitf follows.

TensorFlow keeps six names in `tf.version`. minitf is not TensorFlow, so each
name says what is true of minitf while keeping the meaning code relies on:

* `VERSION` - the TensorFlow API that minitf follows: "2.21.0". Code copied from
  guides checks it (`if tf.version.VERSION >= "2.16"`, the Keras 3 switch); the
  answer it gets must describe the behaviour it will meet, and minitf behaves as
  TensorFlow 2.21 does. minitf's own release is `minitf.__version__`.
* `GIT_VERSION` - in TensorFlow the `git describe` of the build ("v2.21.0-rc1-5-g...").
  minitf is built from no TensorFlow commit, so it names itself: "minitf-<release>".
* `COMPILER_VERSION` - in TensorFlow the C++ compiler ("Clang 18.1.8"). minitf has
  no compiled code; the Python that runs it is named instead ("CPython 3.11.9").
* `GRAPH_DEF_VERSION`, `GRAPH_DEF_VERSION_MIN_CONSUMER`, `GRAPH_DEF_VERSION_MIN_PRODUCER` -
  the GraphDef format version of TensorFlow 2.21 (2474, 0, 0). minitf's graphs are
  its own (a flat node list, printed as text, stored as JSON), not GraphDef protos;
  the numbers are TF 2.21's, for code that prints or compares them.

>>> import minitf as tf
>>> tf.version.VERSION
'2.21.0'
>>> tf.version.GIT_VERSION == "minitf-" + tf.__version__
True
>>> tf.version.GRAPH_DEF_VERSION, tf.version.GRAPH_DEF_VERSION_MIN_CONSUMER
(2474, 0)
>>> tf.version.COMPILER_VERSION.split()[0] in ("CPython", "PyPy")
True

In TensorFlow these come from `tensorflow/python/framework/versions.py`.
"""
import platform

VERSION = "2.21.0"
GIT_VERSION = "minitf-0.1.0"  # tests/test_version.py checks it against minitf.__version__
COMPILER_VERSION = f"{platform.python_implementation()} {platform.python_version()}"
GRAPH_DEF_VERSION = 2474
GRAPH_DEF_VERSION_MIN_CONSUMER = 0
GRAPH_DEF_VERSION_MIN_PRODUCER = 0

__all__ = ["VERSION", "GIT_VERSION", "COMPILER_VERSION", "GRAPH_DEF_VERSION",
           "GRAPH_DEF_VERSION_MIN_CONSUMER", "GRAPH_DEF_VERSION_MIN_PRODUCER"]
