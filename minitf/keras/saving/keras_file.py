"""The `.keras` file: a zip of `config.json`, `metadata.json` and `model.weights.h5`.

* `config.json`: the model's class and `get_config()` (the architecture),
  its `build_config`, and `compile`'s arguments as configs;
* `metadata.json`: which Keras version wrote it, and when;
* `model.weights.h5`: every weight, then the optimizer's variables, in the
  `.weights.h5` layout (see h5_weights.py);
* `assets/<layer path>/...`: files a layer writes with `save_assets(dir)` and
  reads back with `load_assets(dir)`, e.g. an adapted StringLookup's
  `assets/layers/string_lookup/vocabulary.txt`.

These are Keras 3's files, so a model saved by minitf loads in real Keras and
back. Reading one is defensive, because a file may come from anywhere:

* the zip's member list and declared sizes are checked before anything is
  read (no traversal names such as "../x", no member that inflates more than
  `MAX_RATIO` times, none bigger than its limit);
* the config names classes only among built-ins, registered classes and
  `custom_objects` (object_registration.py), never runs a Lambda's code, and
  may declare no more weight values than the weights file holds (budget.py);
* every failure is a `ValueError` naming the file and what is wrong.

Writing goes to a temporary file next to the target, renamed at the end.

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

In TensorFlow this is `keras/src/saving/saving_lib.py` (`save_model`, `load_model`).
"""
import datetime
import io
import json
import os
import tempfile
import zipfile

from . import h5_weights
from ...framework.atomic_file import atomic_write
from .budget import WeightBudget
from .object_registration import CustomObjectScope, SafeModeScope

CONFIG, METADATA, WEIGHTS = "config.json", "metadata.json", "model.weights.h5"
KERAS_VERSION = "3.15.1"  # the Keras whose format minitf writes
MAX_MEMBER_BYTES = {CONFIG: 64 << 20, METADATA: 1 << 20, WEIGHTS: 16 << 30}
MAX_ASSET_BYTES = 1 << 30  # each file under assets/
MAX_RATIO = 100  # a member may inflate at most this many times its compressed size


# --- writing -----------------------------------------------------------------------------------
def save_model(model, filepath, overwrite=True):
    """Write `model` to the `.keras` file `filepath` (checked by the caller)."""
    from ..engine import model_saving
    if not overwrite and os.path.exists(filepath):
        raise FileExistsError(f"{filepath} already exists and overwrite=False.")
    config = model_saving.model_config(model)
    config["compile_config"] = model_saving.get_compile_config(model)
    text = json.dumps(config, default=model_saving._json_default)
    weights = io.BytesIO()
    h5_weights.write_weights(model, weights)
    metadata = {"keras_version": KERAS_VERSION, "writer": "minitf",
                "date_saved": datetime.datetime.now().strftime("%Y-%m-%d@%H:%M:%S")}
    with atomic_write(filepath) as tmp:
        with zipfile.ZipFile(tmp, "w", compression=zipfile.ZIP_STORED) as archive:
            archive.writestr(METADATA, json.dumps(metadata))
            archive.writestr(CONFIG, text)
            archive.writestr(WEIGHTS, weights.getvalue())
            for name, data in _saved_assets(model):
                archive.writestr(name, data)


def _asset_layers(model):
    """(path, layer) for the layers that keep files (vocabularies) beside their weights."""
    return [(path, obj) for path, obj, _ in h5_weights.saveables(model, False)
            if hasattr(obj, "save_assets") and hasattr(obj, "load_assets")]


def _saved_assets(model):
    """(member name, bytes) of every file the layers' `save_assets(dir)` write."""
    for path, layer in _asset_layers(model):
        with tempfile.TemporaryDirectory() as folder:
            layer.save_assets(folder)
            for name in sorted(os.listdir(folder)):
                with open(os.path.join(folder, name), "rb") as f:
                    yield f"assets/{path}/{name}", f.read()


def _load_assets(model, members, filepath):
    """Hand each asset-keeping layer a folder holding its files from the archive."""
    for path, layer in _asset_layers(model):
        prefix = f"assets/{path}/"
        with tempfile.TemporaryDirectory() as folder:
            for name, data in members.items():
                rest = name[len(prefix):]
                if name.startswith(prefix) and rest and "/" not in rest:
                    with open(os.path.join(folder, rest), "wb") as f:
                        f.write(data)
            try:
                layer.load_assets(folder)
            except (OSError, ValueError) as e:
                raise ValueError(f"{filepath}: the assets of layer '{layer.name}' under "
                                 f"'{prefix}' cannot be loaded ({e}).") from e


# --- reading -----------------------------------------------------------------------------------
def read_members(filepath):
    """{member name: bytes} of a `.keras` file, every name and size checked first."""
    try:
        archive = zipfile.ZipFile(filepath)
    except (zipfile.BadZipFile, OSError, EOFError) as e:
        raise ValueError(f"{filepath} is not a `.keras` zip file ({e}). It may be truncated "
                         "or corrupt; save the model again.") from e
    with archive:
        infos = archive.infolist()
        for info in infos:
            name = info.filename
            if name.startswith(("/", "\\")) or ".." in name.replace("\\", "/").split("/") \
                    or ":" in name:
                raise ValueError(f"{filepath} holds a member named {name!r}, a path outside "
                                 "the archive. Keras never writes such names; refusing the "
                                 "file.")
        names = [info.filename for info in infos]
        for required in (CONFIG, WEIGHTS):
            if required not in names:
                raise ValueError(f"{filepath} has no '{required}' (it holds {names}), so it "
                                 "is not a Keras 3 `.keras` file.")
        return {info.filename: _read_member(archive, info, filepath) for info in infos
                if info.filename in MAX_MEMBER_BYTES or _is_asset(info)}


def _is_asset(info):
    return info.filename.startswith("assets/") and not info.is_dir()


def _read_member(archive, info, filepath):
    limit = MAX_MEMBER_BYTES.get(info.filename, MAX_ASSET_BYTES)
    if info.file_size > limit:
        raise ValueError(f"{filepath}: member '{info.filename}' declares {info.file_size} "
                         f"bytes, more than the {limit} allowed.")
    if info.file_size > (1 << 20) and info.file_size > MAX_RATIO * max(info.compress_size, 1):
        raise ValueError(f"{filepath}: member '{info.filename}' would inflate from "
                         f"{info.compress_size} to {info.file_size} bytes (more than "
                         f"{MAX_RATIO}x): a zip bomb, or not a file Keras wrote.")
    try:
        with archive.open(info) as member:
            data = member.read(info.file_size + 1)
    except (zipfile.BadZipFile, OSError, EOFError, RuntimeError, ValueError) as e:
        raise ValueError(f"{filepath}: member '{info.filename}' cannot be read ({e}); the "
                         "file is truncated or corrupt.") from e
    if len(data) != info.file_size:
        raise ValueError(f"{filepath}: member '{info.filename}' holds {len(data)} bytes but "
                         f"declares {info.file_size}; the file is corrupt.")
    return data


def parse_json(data, what, source):
    try:
        value = json.loads(data)
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ValueError(f"{source}: {what} is not valid JSON ({e}).") from e
    if not isinstance(value, dict) or "class_name" not in value:
        raise ValueError(f"{source}: {what} should be an object with a 'class_name'; the "
                         "file was not written by Keras.")
    return value


def load_model(filepath, custom_objects=None, compile=True, safe_mode=True):
    """The model in the `.keras` file `filepath` (path checked by the caller)."""
    from ..engine import model_saving
    from ..engine.saving import open_h5
    members = read_members(filepath)
    config = parse_json(members[CONFIG], f"'{CONFIG}'", filepath)
    compile_config = config.pop("compile_config", None)
    with open_h5(io.BytesIO(members[WEIGHTS]), f"{filepath} ('{WEIGHTS}')") as weights:
        budget = h5_weights.stored_values(weights, filepath)
        with CustomObjectScope(custom_objects), SafeModeScope(safe_mode), \
                WeightBudget(budget, filepath):
            model = model_saving.model_from_config(config, custom_objects)
            if not model.built:
                raise ValueError(f"The saved model '{model.name}' in {filepath} was never "
                                 "built (no Input and never called), so its weights cannot "
                                 "be restored.")
            if compile and compile_config:
                model_saving.compile_from_config(model, compile_config, custom_objects)
                if model.optimizer is not None:
                    model.optimizer.build(model.trainable_variables)
        h5_weights.read_weights(model, weights, filepath)
    _load_assets(model, members, filepath)
    return model


def load_weights_from_keras_file(model, filepath, skip_mismatch=False):
    """`model.load_weights("m.keras")`: the weights member of a `.keras` file."""
    from ..engine.saving import open_h5
    members = read_members(filepath)
    with open_h5(io.BytesIO(members[WEIGHTS]), f"{filepath} ('{WEIGHTS}')") as weights:
        h5_weights.read_weights(model, weights, filepath, skip_mismatch)
