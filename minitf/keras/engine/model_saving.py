"""Whole models in and out of files: `model.save("m.keras")`, `load_model`, `to_json`,
`model_from_json`, `clone_model`; and `compile`'s arguments as configs.

The `.keras` file itself (a zip of `config.json`, `metadata.json` and
`model.weights.h5`, Keras 3's format) is read and written in
minitf/keras/saving/keras_file.py; this module turns a model into the config
that goes into it, and back.

Only data is written, never Python code: a layer that holds a Python function
(a `Lambda`) cannot be saved. Keras 3 stores a lambda's bytecode and refuses
to load it unless `safe_mode=False`; minitf refuses to write it, and refuses
to run it from a file even with `safe_mode=False` (it never runs code from a
file).

>>> import os, tempfile
>>> import minitf as tf
>>> model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1)])
>>> model.compile(optimizer="adam", loss="mse")
>>> path = os.path.join(tempfile.mkdtemp(), "model.keras")
>>> model.save(path)
>>> restored = tf.keras.models.load_model(path)
>>> type(restored.optimizer).__name__, restored.loss
('Adam', 'mse')
"""
import inspect
import json
import os

import numpy as np

from ...framework.tf_export import tf_export
from .. import losses as losses_module
from .. import metrics as metrics_module
from .. import optimizers as optimizers_module
from ..saving import keras_file
from ..saving.budget import MAX_CONFIG_VALUES, WeightBudget
from ..saving.object_registration import GLOBAL_CUSTOM_NAMES, CustomObjectScope
_SERIALIZERS = {"keras.losses": losses_module, "keras.metrics": metrics_module,
                "keras.optimizers": optimizers_module}


# --- architecture as JSON ----------------------------------------------------------------------
def _json_default(value):
    """What `json.dumps` cannot write: NumPy values become numbers; code is refused."""
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, np.ndarray):
        return value.tolist()
    if callable(value) and value in GLOBAL_CUSTOM_NAMES:  # a registered function: by name
        return {"module": "builtins", "class_name": "function",
                "config": GLOBAL_CUSTOM_NAMES[value], "registered_name": "function"}
    if callable(value):
        raise ValueError(
            f"Cannot save the Python function {getattr(value, '__name__', value)!r} held by "
            "the model's config (a Lambda layer's function, say): minitf writes "
            "architectures as JSON data, never code; a function registered with "
            "@tf.keras.saving.register_keras_serializable() is written by its name. (Keras "
            "3 stores a lambda's bytecode and refuses to load it unless safe_mode=False.) "
            "Register the function, write a custom Layer with "
            "get_config instead, or rebuild the model in code and use "
            "save_weights/load_weights.")
    raise TypeError(f"Cannot write {value!r} of type {type(value).__name__} as JSON.")


def model_config(model):
    """{'module', 'class_name', 'config', 'registered_name', 'build_config'} for a model,
    as Keras 3 writes it."""
    from ..layers.serialization import serialize
    return serialize(model)


def to_json(model, **kwargs):
    """The model's architecture (no weights) as a JSON string."""
    return json.dumps(model_config(model), default=_json_default, **kwargs)


def model_from_config(config, custom_objects=None):
    """The model a `model_config` dict describes: classes resolved only among built-ins,
    registered classes and `custom_objects`; at most `MAX_CONFIG_VALUES` weight values
    unless a caller (load_model) opened a tighter budget."""
    from ..layers.serialization import deserialize
    if not isinstance(config, dict) or not isinstance(config.get("config"), dict):
        raise ValueError("A model config is a dict {'class_name': ..., 'config': {...}}; "
                         f"received {str(config)[:200]}")
    with CustomObjectScope(custom_objects), WeightBudget(MAX_CONFIG_VALUES, "The config"):
        return deserialize(config, custom_objects)


@tf_export("keras.models.model_from_json")
def model_from_json(json_string, custom_objects=None):
    """A new model (fresh weights) from `model.to_json()`'s string.

    >>> model = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2)])
    >>> tf.keras.models.model_from_json(model.to_json()).output_shape
    (None, 2)
    """
    try:
        config = json.loads(json_string)
    except json.JSONDecodeError as e:
        raise ValueError(f"model_from_json needs the JSON text of model.to_json(): {e}") from e
    return model_from_config(config, custom_objects)


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
    if verb == "load" and filepath.endswith(".weights.h5"):
        raise ValueError(f"File format not supported: filepath={filepath}. A `.weights.h5` "
                         "file holds weights only: build the model in code, then call "
                         "model.load_weights(filepath).")
    if filepath.endswith(".h5") or filepath.endswith(".hdf5"):
        raise ValueError(
            f"minitf cannot {verb} legacy `.h5` model files (Keras 2's format, which Keras 3 "
            "keeps only for old files). Use the native `.keras` format. Received: "
            f"filepath={filepath}")
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
    `.keras` file, atomically: a failure leaves any previous file as it was."""
    keras_file.save_model(model, _check_path(filepath, "save"), overwrite)


@tf_export("keras.models.load_model", "keras.saving.load_model")
def load_model(filepath, custom_objects=None, compile=True, safe_mode=True):
    """The model a `.keras` file holds, with its weights; compiled (optimizer state
    included) when it was saved compiled and `compile=True`.

    `safe_mode=True` (the default) refuses a Lambda's code, as Keras does. minitf
    never runs code from a file, so with `safe_mode=False` it still refuses it (Keras
    would unmarshal and run the lambda's bytecode)."""
    filepath = _check_path(filepath, "load")
    if not os.path.exists(filepath):
        raise ValueError(f"File not found: filepath={filepath}. Please ensure the file is an "
                         "accessible `.keras` zip file.")
    return keras_file.load_model(filepath, custom_objects, compile, safe_mode)
