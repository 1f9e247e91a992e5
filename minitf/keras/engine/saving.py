"""`model.save_weights` / `load_weights`: Keras 3's `.weights.h5` files.

The file is HDF5 (written and read with h5py), laid out as Keras 3 lays it
out (see minitf/keras/saving/h5_weights.py), so weights move both ways
between minitf and real Keras. It holds arrays only: loading it never runs
code, and every dataset's shape is checked against its variable before its
values are read. Writing goes to a temporary file first, so a failed save
leaves the previous file intact.

>>> import os, tempfile
>>> import minitf as tf
>>> model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1)])
>>> path = os.path.join(tempfile.mkdtemp(), "model.weights.h5")
>>> model.save_weights(path)
>>> clone = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1)])
>>> clone.load_weights(path)
>>> bool(tf.reduce_all(clone.weights[0] == model.weights[0]))
True
"""
import os

from ...framework.tf_export import tf_export
from ..saving import h5_weights
from ...framework.atomic_file import atomic_write

SUFFIX = ".weights.h5"


@tf_export("keras.saving.save_weights")
def save_weights(model, filepath, overwrite=True, max_shard_size=None):
    """Write `model`'s weights (and its optimizer's) to a `.weights.h5` file, atomically."""
    filepath = os.fspath(filepath)
    if max_shard_size is not None:
        raise NotImplementedError("minitf writes one `.weights.h5` file: max_shard_size "
                                  "(sharded `.weights.json`) is not supported.")
    if not filepath.endswith(SUFFIX):
        raise ValueError(f"The filename must end in `{SUFFIX}`. Received: filepath={filepath}")
    if not model.built:
        raise ValueError("You are saving a model that has not yet been built. Try building "
                         "the model first by calling it on some data or by using `build()`.")
    if not overwrite and os.path.exists(filepath):
        raise FileExistsError(f"{filepath} already exists and overwrite=False.")
    with atomic_write(filepath) as tmp:
        h5_weights.write_weights(model, tmp)


@tf_export("keras.saving.load_weights")
def load_weights(model, filepath, skip_mismatch=False, **kwargs):
    """Read a `.weights.h5` (or `.keras`) file into the built `model`, shapes checked first."""
    filepath = os.fspath(filepath)
    if filepath.endswith(".keras"):
        from ..saving import keras_file
        return keras_file.load_weights_from_keras_file(model, filepath, skip_mismatch)
    if not filepath.endswith(SUFFIX):
        raise ValueError(
            f"File format not supported: filepath={filepath}. Keras 3 only supports V3 "
            "`.keras` files, `.weights.h5` files, legacy H5 format files (`.h5` extension), "
            "or Orbax checkpoints. (minitf reads `.keras` and `.weights.h5`.)")
    if not os.path.exists(filepath):
        raise FileNotFoundError(f"No such file: {filepath}")
    with open_h5(filepath, filepath) as f:
        h5_weights.read_weights(model, f, filepath, skip_mismatch)


def open_h5(file, source):
    """h5py.File(file, 'r'), with a damaged file as ValueError naming `source`."""
    h5py = h5_weights._h5py()
    try:
        return h5py.File(file, "r")
    except OSError as e:
        raise ValueError(f"{source} is not a readable HDF5 weights file ({e}). It may be "
                         "truncated or corrupt; save it again.") from e
