"""`model.save_weights` / `load_weights`: weights in a NumPy `.npz` file.

Keras 3 writes `.weights.h5` (HDF5). minitf depends on NumPy only, so it
writes the same information - every weight's path and value, in
`model.weights` order - as a `.weights.npz` archive, and reads it back with
`allow_pickle=False`: loading a weights file can never run code.

>>> import os, tempfile
>>> import minitf as tf
>>> model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1)])
>>> path = os.path.join(tempfile.mkdtemp(), "model.weights.npz")
>>> model.save_weights(path)
>>> clone = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1)])
>>> clone.load_weights(path)
>>> bool(tf.reduce_all(clone.weights[0] == model.weights[0]))
True
"""
import os

import numpy as np

SUFFIX = ".weights.npz"


def _check_filepath(filepath):
    filepath = os.fspath(filepath)
    if filepath.endswith(".h5") or filepath.endswith(".keras"):
        raise ValueError(
            f"The filename must end in `{SUFFIX}`. Received: filepath={filepath}. "
            "TensorFlow writes `.weights.h5` (HDF5); minitf stores weights as a NumPy "
            f".npz archive instead, so name the file e.g. 'model{SUFFIX}'.")
    if not filepath.endswith(SUFFIX):
        raise ValueError(f"The filename must end in `{SUFFIX}`. Received: filepath="
                         f"{filepath}")
    return filepath


def save_weights(model, filepath, overwrite=True):
    filepath = _check_filepath(filepath)
    if not overwrite and os.path.exists(filepath):
        raise FileExistsError(f"{filepath} already exists and overwrite=False.")
    with open(filepath, "wb") as f:
        np.savez(f, **weight_arrays(model.weights))


def weight_arrays(weights, prefix="weight"):
    """{'weight_0000': value, ..., 'paths': names}: what a weights archive holds."""
    arrays = {f"{prefix}_{i:04d}": np.asarray(w.numpy()) for i, w in enumerate(weights)}
    arrays[f"{prefix}_paths" if prefix != "weight" else "paths"] = np.array(
        [getattr(w, "path", w.name) for w in weights], dtype=str)
    return arrays


def load_weights(model, filepath, skip_mismatch=False):
    filepath = _check_filepath(filepath)
    if not os.path.exists(filepath):
        raise FileNotFoundError(f"No such file: {filepath}")
    with np.load(filepath, allow_pickle=False) as data:
        assign_weights(model, data, skip_mismatch, filepath)


def assign_weights(model, data, skip_mismatch=False, source="the file"):
    """Set `model.weights` from an opened weights archive, checking count and shapes."""
    weights = model.weights
    paths = list(data["paths"]) if "paths" in data else []
    values = [data[f"weight_{i:04d}"] for i in range(len(paths))]
    if not weights and values:
        raise ValueError(f"Model '{model.name}' has no weights yet, but the file holds "
                         f"{len(values)}. Build the model first (call it on a batch, or give "
                         "it an Input), then load.")
    if len(values) != len(weights):
        raise ValueError(f"The file {source} holds {len(values)} weights ({paths}), but "
                         f"model '{model.name}' has {len(weights)}: "
                         f"{[w.path for w in weights]}. Load into the same architecture.")
    for variable, value, path in zip(weights, values, paths):
        if tuple(variable.shape) != value.shape:
            if skip_mismatch:
                continue
            raise ValueError(f"Weight {variable.path} has shape {tuple(variable.shape)}, but "
                             f"the saved value for {path} has shape {value.shape}.")
        variable.assign(value.astype(variable.dtype.as_numpy_dtype))
