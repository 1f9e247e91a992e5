"""Whole models in and out of files: `model.save("m.keras")`, `load_model`, `to_json`,
`model_from_json`, `clone_model`.

A `.keras` file is a zip archive, as in Keras 3:

* `config.json`: the model's class and `get_config()` (the architecture), and
  the arguments of `compile` (optimizer, loss, metrics) as configs;
* `metadata.json`: which library wrote it, and when;
* `model.weights.npz`: every weight, then the optimizer's variables (its step
  count and slots), so training resumes where it stopped. Keras 3 writes
  `model.weights.h5` (HDF5); minitf needs NumPy only, so it writes the same
  values as a NumPy archive, read back with `allow_pickle=False`.

Only data is written, never Python code: a layer that holds a Python function
(a `Lambda`) cannot be saved this way. Keras 3 stores a lambda's bytecode and
refuses to load it unless `safe_mode=False`; minitf says so when saving.

>>> import os, tempfile
>>> import minitf as tf
>>> model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1)])
>>> model.compile(optimizer="adam", loss="mse")
>>> path = os.path.join(tempfile.mkdtemp(), "model.keras")
>>> model.save(path)
>>> restored = tf.keras.models.load_model(path)
>>> type(restored.optimizer).__name__, restored.loss
('Adam', 'mse')
>>> bool(tf.reduce_all(restored.weights[0] == model.weights[0]))
True
"""
import datetime
import inspect
import io
import json
import os
import zipfile

import numpy as np

from ...framework.tf_export import tf_export
from .. import losses as losses_module
from .. import metrics as metrics_module
from .. import optimizers as optimizers_module
from . import saving

CONFIG, METADATA, WEIGHTS = "config.json", "metadata.json", "model.weights.npz"
_SERIALIZERS = {"keras.losses": losses_module, "keras.metrics": metrics_module,
                "keras.optimizers": optimizers_module}


# --- architecture as JSON ----------------------------------------------------------------------
def _json_default(value):
    """What `json.dumps` cannot write: NumPy values become numbers; code is refused."""
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.tolist()
    if callable(value):
        raise ValueError(
            f"Cannot save the Python function {getattr(value, '__name__', value)!r} held by "
            "the model's config (a Lambda layer's function, say): minitf writes "
            "architectures as JSON data, never code. (Keras 3 stores a lambda's bytecode "
            "and refuses to load it unless safe_mode=False.) Write a custom Layer with "
            "get_config instead, or rebuild the model in code and use "
            "save_weights/load_weights.")
    raise TypeError(f"Cannot write {value!r} of type {type(value).__name__} as JSON.")


def model_config(model):
    """{'module', 'class_name', 'config', 'registered_name'} for a model."""
    return {"module": type(model).__module__.replace("minitf.", ""),
            "class_name": type(model).__name__, "config": model.get_config(),
            "registered_name": None}


def to_json(model, **kwargs):
    """The model's architecture (no weights) as a JSON string."""
    return json.dumps(model_config(model), default=_json_default, **kwargs)


def _model_from_config(config, custom_objects=None):
    from ..layers.serialization import deserialize
    name = config.get("class_name")
    if name in ("Functional", "Model"):  # written by Keras for Model(inputs, outputs)
        from .functional import Functional
        return Functional.from_config(config["config"], custom_objects=custom_objects)
    return deserialize(config, custom_objects)


@tf_export("keras.models.model_from_json")
def model_from_json(json_string, custom_objects=None):
    """A new model (fresh weights) from `model.to_json()`'s string.

    >>> model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2)])
    >>> tf.keras.models.model_from_json(model.to_json()).output_shape
    (None, 2)
    """
    return _model_from_config(json.loads(json_string), custom_objects)


@tf_export("keras.models.clone_model")
def clone_model(model, input_tensors=None, clone_function=None, call_function=None,
                recursive=False, **kwargs):
    """The same architecture with new weights (initialized afresh), via the config.

    >>> model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2)])
    >>> clone = tf.keras.models.clone_model(model)
    >>> clone.output_shape, clone.weights[0] is model.weights[0]
    ((None, 2), False)
    """
    if input_tensors is not None or clone_function is not None or call_function is not None:
        raise NotImplementedError(
            "minitf's clone_model copies the architecture only: input_tensors, "
            "clone_function and call_function are not supported. Build the new model in "
            "code if its layers must differ.")
    # the classes in use are known here, custom ones included
    custom = {type(layer).__name__: type(layer) for layer in model._flatten_layers()}
    config, cls = model.get_config(), type(model)
    if "custom_objects" in inspect.signature(cls.from_config).parameters:
        return cls.from_config(config, custom_objects=custom)
    return cls.from_config(config)


# --- compile arguments -------------------------------------------------------------------------
def _serialize(value):
    if value is None or isinstance(value, (str, bool, int, float)):
        return value
    if isinstance(value, (list, tuple)):
        return [_serialize(v) for v in value]
    if isinstance(value, dict):
        return {k: _serialize(v) for k, v in value.items()}
    if isinstance(value, optimizers_module.Optimizer):
        return optimizers_module.serialize(value)
    if isinstance(value, metrics_module.Metric):
        return metrics_module.serialize(value)
    if isinstance(value, losses_module.Loss) or callable(value) and \
            isinstance(losses_module.serialize(value), str):
        return losses_module.serialize(value)  # a Loss, or a loss function by its name
    return _json_default(value)  # raises with an explanation


def _deserialize(value, custom_objects):
    if isinstance(value, list):
        return [_deserialize(v, custom_objects) for v in value]
    if isinstance(value, dict) and value.get("module") in _SERIALIZERS:
        return _SERIALIZERS[value["module"]].deserialize(value, custom_objects=custom_objects)
    if isinstance(value, dict):
        return {k: _deserialize(v, custom_objects) for k, v in value.items()}
    return value


def get_compile_config(model):
    """`compile`'s arguments as configs, or None for a model not compiled."""
    args = getattr(model, "_compile_args", None)
    if not model.compiled or args is None:
        return None
    return {key: _serialize(value) for key, value in args.items()}


def compile_from_config(model, config, custom_objects=None):
    """`model.compile(...)` with the arguments `get_compile_config` wrote."""
    model.compile(**{key: _deserialize(value, custom_objects) for key, value in config.items()})


# --- the .keras archive ------------------------------------------------------------------------
def _check_path(filepath, verb):
    filepath = os.fspath(filepath)
    if filepath.endswith(".h5") or filepath.endswith(".hdf5"):
        raise ValueError(
            f"minitf cannot {verb} `.h5` files: the legacy HDF5 format needs h5py, and minitf "
            f"needs NumPy only. Use the native `.keras` format. Received: filepath={filepath}")
    if not filepath.endswith(".keras"):
        raise ValueError(
            "Invalid filepath extension for saving. Please add either a `.keras` extension "
            "for the native Keras format (recommended) or a `.h5` extension. Use "
            "`model.export(filepath)` if you want to export a SavedModel for use with "
            f"TFLite/TFServing/etc. Received: filepath={filepath}." if verb == "save" else
            f"File format not supported: filepath={filepath}. minitf can load `.keras` "
            "files (written by model.save); weights alone go through load_weights.")
    return filepath


@tf_export("keras.models.save_model", "keras.saving.save_model")
def save_model(model, filepath, overwrite=True, zipped=None, **kwargs):
    """Write `model` (architecture, weights, compile arguments, optimizer state) to a
    `.keras` file."""
    filepath = _check_path(filepath, "save")
    if not overwrite and os.path.exists(filepath):
        raise FileExistsError(f"{filepath} already exists and overwrite=False.")
    config = model_config(model)
    config["compile_config"] = get_compile_config(model)
    text = json.dumps(config, default=_json_default)
    arrays = saving.weight_arrays(model.weights)
    optimizer = getattr(model, "optimizer", None)
    if optimizer is not None and getattr(optimizer, "built", False):
        arrays.update(saving.weight_arrays(optimizer.variables, prefix="optimizer"))
    weights = io.BytesIO()
    np.savez(weights, **arrays)
    metadata = {"keras_version": "3 (written by minitf)",
                "date_saved": datetime.datetime.now().strftime("%Y-%m-%d@%H:%M:%S")}
    with zipfile.ZipFile(filepath, "w") as archive:
        archive.writestr(METADATA, json.dumps(metadata))
        archive.writestr(CONFIG, text)
        archive.writestr(WEIGHTS, weights.getvalue())


@tf_export("keras.models.load_model", "keras.saving.load_model")
def load_model(filepath, custom_objects=None, compile=True, safe_mode=True):
    """The model a `.keras` file holds, with its weights; compiled (optimizer state
    included) when it was saved compiled and `compile=True`. (`safe_mode` is accepted:
    minitf's files hold no code, so there is nothing unsafe to allow.)"""
    filepath = _check_path(filepath, "load")
    if not os.path.exists(filepath):
        raise ValueError(f"File not found: filepath={filepath}. Please ensure the file is an "
                         "accessible `.keras` zip file.")
    with zipfile.ZipFile(filepath) as archive:
        config = json.loads(archive.read(CONFIG))
        weights = archive.read(WEIGHTS)
    compile_config = config.pop("compile_config", None)
    model = _model_from_config(config, custom_objects)
    if not model.built:
        raise ValueError(f"The saved model '{model.name}' was never built (no Input and "
                         "never called), so its weights cannot be restored.")
    with np.load(io.BytesIO(weights), allow_pickle=False) as data:
        saving.assign_weights(model, data, source=filepath)
        if compile and compile_config is not None:
            compile_from_config(model, compile_config, custom_objects)
            if "optimizer_paths" in data:
                _restore_optimizer(model.optimizer, model.trainable_variables, data, filepath)
    return model


def _restore_optimizer(optimizer, variables, data, source):
    optimizer.build(variables)
    saved = list(data["optimizer_paths"])
    if len(saved) != len(optimizer.variables):
        raise ValueError(f"{source} holds {len(saved)} optimizer variables, but the "
                         f"rebuilt {type(optimizer).__name__} has {len(optimizer.variables)}.")
    for i, variable in enumerate(optimizer.variables):
        variable.assign(data[f"optimizer_{i:04d}"])
