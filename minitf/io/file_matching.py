"""`tf.io.matching_files`, `tf.io.match_filenames_once` and `tf.io.write_graph`.

`matching_files` is the op form of `tf.io.gfile.glob`: inside `Dataset.map` or a
`tf.function` it looks at the disk each time the graph runs.

>>> import os, tempfile
>>> import minitf as tf
>>> folder = tempfile.mkdtemp()
>>> for name in ("b.csv", "a.csv", "notes.txt"):
...     _ = open(os.path.join(folder, name), "w").write("x")
>>> [os.path.basename(p) for p in tf.io.matching_files(os.path.join(folder, "*.csv")).numpy()]
[b'a.csv', b'b.csv']
"""
import os

import numpy as np

from ..framework import dtypes, errors
from ..framework.atomic_file import atomic_write
from ..framework.op import Op, apply
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export
from .gfile import glob


def _matching_files(patterns):
    if patterns.ndim > 1:
        raise errors.op_error(
            errors.InvalidArgumentError, "MatchingFiles",
            "Input patterns tensor must be scalar or vector, but had shape: "
            f"[{','.join(str(d) for d in patterns.shape)}]", "Flatten the patterns first.")
    found = sorted(set(os.fsencode(p) for p in glob(
        [os.fsdecode(p) for p in patterns.reshape(-1).tolist()])))
    out = np.empty([len(found)], dtype=object)
    out[:] = found
    return out


MatchingFiles = Op("MatchingFiles", _matching_files, dtypes={dtypes.string}, stateful=True,
                   shape=lambda s: TensorShape([None]))


@tf_export("io.matching_files")
def matching_files(pattern, name=None):
    """The sorted paths of the files matching a glob pattern (or any of a vector of them).

    `*` and `?` match within one path component and `[...]` a set of characters, as
    in `tf.io.gfile.glob`. A pattern matching nothing adds nothing (no error).
    """
    return apply(MatchingFiles, [convert_to_tensor(pattern, dtype=dtypes.string)])


@tf_export("io.match_filenames_once")
def match_filenames_once(pattern, name=None):
    """A non-trainable `tf.Variable` holding `matching_files(pattern)` as it was when made
    (TF 1 initialised it in a session; in TF 2 it is filled at once).

    >>> import tempfile
    >>> tf.io.match_filenames_once(tempfile.mkdtemp() + "/*").shape
    TensorShape([0])
    """
    from ..framework.variables import Variable

    return Variable(matching_files(pattern), trainable=False, name=name or "Variable",
                    validate_shape=False)


@tf_export("io.write_graph")
def write_graph(graph_or_graph_def, logdir, name, as_text=True):
    """Write a graph as a `GraphDef` protocol buffer to `logdir/name`; return the path.

    `graph_or_graph_def`: a minitf graph (`f.get_concrete_function(...).graph`), a
    ConcreteFunction, or a `GraphDef`. `as_text=True` writes protobuf's text format
    (TF's `.pbtxt`), else the binary encoding (`.pb`). The GraphDef is the one
    `tf.summary.graph` gives TensorBoard: minitf's node names and ops, TF 2.21's
    GraphDef version. Writing is atomic; `logdir` is made if missing.

    >>> import os, tempfile
    >>> f = tf.function(lambda x: x + 1.0)
    >>> graph = f.get_concrete_function(tf.TensorSpec([], tf.float32)).graph
    >>> path = tf.io.write_graph(graph, tempfile.mkdtemp(), "add.pbtxt")
    >>> print(open(path).read().splitlines()[:3])
    ['node {', '  name: "x"', '  op: "Placeholder"']
    """
    from ..summary.graph_summary import _as_graph_def
    from ..train.example import _protobuf
    from ..version import GRAPH_DEF_VERSION

    graph_def = _as_graph_def(graph_or_graph_def)
    if not graph_def.HasField("versions"):
        graph_def = type(graph_def).FromString(graph_def.SerializeToString())
        graph_def.versions.producer = GRAPH_DEF_VERSION
    os.makedirs(os.fspath(logdir), exist_ok=True)
    path = os.path.join(os.fspath(logdir), os.fspath(name))
    if as_text:
        data = _protobuf("text_format").MessageToString(graph_def).encode()
    else:
        data = graph_def.SerializeToString()
    with atomic_write(path) as tmp:
        with open(tmp, "wb") as f:
            f.write(data)
    return path
