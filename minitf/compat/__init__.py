"""`tf.compat`: text helpers, forward compatibility, and the two API versions.

`tf.compat.as_bytes`, `as_str`, `dimension_value`, ... are in
`minitf/framework/compat.py`; `tf.compat.v1` is minitf's own TF1 teaching
subset (this package's `v1/`), and `tf.compat.v2` is the TF2 API itself:

>>> import minitf as tf
>>> tf.compat.v2.constant is tf.constant
True
>>> tf.compat.v1.placeholder.__module__
'minitf.compat.v1.graph_mode'

This package is imported on first use of `tf.compat` (see framework/api_namespace.py).
"""
import sys as _sys

from ..framework import compat as _text_helpers  # noqa: F401 - registers tf.compat.as_bytes, ...
from ..framework.tf_export import tf_export as _tf_export
from . import v1  # noqa: F401 - tf.compat.v1

# TF's tf.compat.v2 is a module holding the TF2 API (tf.compat.v2.constant is tf.constant):
# minitf's TF2 API is the `minitf` module itself.
_tf_export("compat.v2")(_sys.modules[__name__.rpartition(".")[0]])
