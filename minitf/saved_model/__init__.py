"""`tf.saved_model`: save an object with its variables and traced functions; load it
back without the Python code that made it.

>>> import os, tempfile
>>> import minitf as tf
>>> module = tf.Module()
>>> module.v = tf.Variable([1.0, 2.0])
>>> module.total = tf.function(lambda: tf.reduce_sum(module.v))
>>> _ = module.total()                       # traced once: that graph is saved
>>> path = os.path.join(tempfile.mkdtemp(), "m")
>>> tf.saved_model.save(module, path)
>>> tf.saved_model.load(path).total()
<tf.Tensor: shape=(), dtype=float32, numpy=3.0>

The directory has TensorFlow's layout (`variables/`, `assets/`), but its
files are minitf's own safe formats: `saved_model.json` instead of the
protobuf `saved_model.pb`. minitf and TensorFlow cannot read each other's
SavedModels.
"""
from ..framework.tf_export import tf_export as _tf_export
from .load import load
from .save import DEFAULT_SIGNATURE as _DEFAULT_SIGNATURE
from .save import save

SERVING = _tf_export("saved_model.SERVING", "saved_model.tag_constants.SERVING")("serve")
DEFAULT_SERVING_SIGNATURE_DEF_KEY = _tf_export(
    "saved_model.DEFAULT_SERVING_SIGNATURE_DEF_KEY",
    "saved_model.signature_constants.DEFAULT_SERVING_SIGNATURE_DEF_KEY")(_DEFAULT_SIGNATURE)

__all__ = ["save", "load", "SERVING", "DEFAULT_SERVING_SIGNATURE_DEF_KEY"]
