"""`keras.saving.KerasFileEditor`: open a `.keras` or `.weights.h5` file's weights as a tree
of dicts, look at them, edit them, and save them as a new `.weights.h5`.

The use: a model's architecture changed (a layer renamed, added, removed) and
old weights should still load. The tree follows the file's groups, with each
layer's `vars` group folded into the layer (see h5_weights.py for the layout)::

    {"layers": {"dense": {"0": kernel, "1": bias}, "dense_1": {...}},
     "optimizer": {"0": iterations, "1": learning_rate, ...}}

An object is named by its path ("layers/dense") or, when the name occurs only
once in the tree, by its last part ("dense"); weights are named "0", "1", ...

>>> import os, tempfile, contextlib, io
>>> import minitf as tf
>>> folder = tempfile.mkdtemp()
>>> old = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2)])
>>> old.save_weights(os.path.join(folder, "old.weights.h5"))
>>> with contextlib.redirect_stdout(io.StringIO()):  # it prints the file's name
...     editor = tf.keras.saving.KerasFileEditor(os.path.join(folder, "old.weights.h5"))
>>> editor.summary()
Weights structure
  > layers
      └─ dense
          ├─ 0: shape=(3, 2), dtype=float32
          └─ 1: shape=(2,), dtype=float32
>>> editor.add_object("layers/dense_1", {"0": np.ones((2, 1), "float32"),
...                                      "1": np.zeros(1, "float32")})
>>> editor.save(os.path.join(folder, "new.weights.h5"))
>>> new = tf.keras.Sequential([tf.keras.Input((3,)), tf.keras.layers.Dense(2),
...                            tf.keras.layers.Dense(1)])
>>> new.load_weights(os.path.join(folder, "new.weights.h5"))
>>> new.layers[1].kernel.numpy().ravel().tolist()
[1.0, 1.0]

Where minitf differs from Keras 3.15, on purpose:

* a layer held inside another layer (an LSTM's `cell`, a Bidirectional's two
  RNNs) is in the tree under its parent; Keras 3.15 reads only the parent's own
  `vars` and drops such layers, so its `save` loses their weights;
* a short name that occurs once is found; Keras 3.15 miscounts occurrences
  and refuses e.g. `rename_object("dense", ...)` when the file also holds an
  optimizer ("occurs more than once").

The printed text is Keras's, without `rich`'s colours. In TensorFlow this is
`keras/src/saving/file_editor.py`.
"""
import collections
import io
import json
import math
import os

import numpy as np

from ...framework.atomic_file import atomic_write
from ...framework.tf_export import tf_export
from . import h5_weights, keras_file

MAX_DATASET_BYTES = 1 << 32  # 4 GiB, Keras's limit for one dataset


@tf_export("keras.saving.KerasFileEditor")
class KerasFileEditor:
    """Inspect and edit the weights of a `.keras` or `.weights.h5` file (see the module)."""

    def __init__(self, filepath):
        self.filepath = filepath = os.fspath(filepath)
        self.metadata = None
        self.config = None
        self.model = None
        if filepath.endswith(".keras"):
            members = keras_file.read_members(filepath)  # names and sizes checked first
            self.config = _json(members[keras_file.CONFIG], filepath)
            if keras_file.METADATA in members:
                self.metadata = _json(members[keras_file.METADATA], filepath)
            source, where = io.BytesIO(members[keras_file.WEIGHTS]), \
                f"{filepath} ('{keras_file.WEIGHTS}')"
        elif filepath.endswith(".weights.h5"):
            if not os.path.exists(filepath):
                raise FileNotFoundError(f"No such file: {filepath}")
            source, where = filepath, filepath
        else:
            raise ValueError("Invalid filename: expected a `.keras` `.weights.h5` extension. "
                             f"Received: filepath={filepath}")
        from ..engine.saving import open_h5
        with open_h5(source, where) as weights:
            self.weights_dict, self.object_metadata = _extract(weights, "", {}, where)
        print(f"Keras model file '{self.filepath}'")
        if self.metadata is not None:
            print(f"Saved with Keras {self.metadata.get('keras_version')} - date: "
                  f"{self.metadata.get('date_saved')}")

    # --- looking ----------------------------------------------------------------------------
    def summary(self):
        """Print the tree of objects and weights (shape and dtype of each)."""
        print("Weights structure")
        _print_tree(self.weights_dict, "  ")

    def compare(self, reference_model):
        """List every difference between the file and `reference_model`'s weights.

        Returns {'status': 'success' or 'error', 'error_count', 'match_count'}.
        """
        print("Running comparison")
        reference = weight_spec(reference_model)
        checked = set()
        errors, matches = _compare(self.weights_dict, reference, "", "saved file",
                                   "reference model", checked)
        errors += _compare(reference, self.weights_dict, "", "reference model", "saved file",
                           checked)[0]
        print("─────────────────────")
        if errors == 0:
            print("Comparison successful: saved file is compatible with the reference model")
            print(f"    Found {matches} matching weight{'' if matches == 1 else 's'}")
        else:
            print(f"Found {errors} error{'' if errors == 1 else 's'}: saved file is not "
                  "compatible with the reference model")
        return {"status": "success" if errors == 0 else "error", "error_count": errors,
                "match_count": matches}

    # --- editing ----------------------------------------------------------------------------
    def rename_object(self, object_name, new_name):
        """Rename an object (e.g. "dense_2" or "layers/dense_2") to the leaf name `new_name`."""
        def rename(parent, source_name, target_name):
            parent[target_name] = parent.pop(source_name)

        self._edit_object(rename, object_name, new_name)

    def delete_object(self, object_name):
        """Remove an object (e.g. "dense_2" or "layers/dense_2") and all its weights."""
        self._edit_object(lambda parent, source_name, target_name: parent.pop(source_name),
                          object_name)

    def add_object(self, object_path, weights):
        """Add an object at `object_path` (e.g. "layers/dense_2") holding `weights`,
        a dict such as {"0": kernel, "1": bias}; its parent must exist."""
        _check_weights(weights)
        elements = object_path.split("/")
        parent = self.weights_dict
        for element in elements[:-1]:
            if element not in parent:
                raise ValueError(f"Path '{'/'.join(elements[:-1])}' not found in model.")
            parent = parent[element]
        parent[elements[-1]] = {name: np.asarray(value) for name, value in weights.items()}

    def delete_weight(self, object_name, weight_name):
        """Remove the weight `weight_name` (e.g. "0") from an object."""
        def delete(parent, source_name, target_name):
            if weight_name not in parent[source_name]:
                raise ValueError(f"Weight {weight_name} not found in object {object_name}. "
                                 f"Weights found: {list(parent[source_name].keys())}")
            parent[source_name].pop(weight_name)

        self._edit_object(delete, object_name)

    def add_weights(self, object_name, weights):
        """Add (or replace) weights of an existing object: {"2": array, ...}."""
        _check_weights(weights)
        self._edit_object(lambda parent, source_name, target_name: parent[source_name].update(
            {name: np.asarray(value) for name, value in weights.items()}), object_name)

    def _edit_object(self, edit_fn, source_name, target_name=None):
        if target_name is not None and "/" in target_name:
            raise ValueError("Argument `target_name` should be a leaf name, not a full path "
                             f"name. Received: target_name='{target_name}'")
        if "/" in source_name:
            elements = source_name.split("/")
            parent = self.weights_dict
            for element in elements[:-1]:
                if not isinstance(parent.get(element), dict):
                    raise ValueError(f"Path '{source_name}' not found in model.")
                parent = parent[element]
            if elements[-1] not in parent:
                raise ValueError(f"Path '{source_name}' not found in model.")
            return edit_fn(parent, source_name=elements[-1], target_name=target_name)
        parents = [d for d in _dicts(self.weights_dict) if source_name in d]
        if len(parents) > 1:
            raise ValueError(f"Name '{source_name}' occurs more than once in the model; try "
                             "passing a complete path")
        if not parents:
            raise ValueError(f"Source name '{source_name}' does not appear in the model. Use "
                             "`editor.summary()` to list all objects.")
        edit_fn(parents[0], source_name=source_name, target_name=target_name)

    # --- saving -----------------------------------------------------------------------------
    def save(self, filepath):
        """Write the edited weights to a `.weights.h5` file (atomically), loadable with
        `model.load_weights` by a model whose layout matches the tree."""
        filepath = os.fspath(filepath)
        if not filepath.endswith(".weights.h5"):
            raise ValueError("Invalid `filepath` argument: expected a `.weights.h5` "
                             f"extension. Received: filepath={filepath}")
        h5py = h5_weights._h5py()
        with atomic_write(filepath) as tmp:
            with h5py.File(tmp, "w") as f:
                _write(f, self.weights_dict, "")

    def resave_weights(self, filepath):
        """`save(filepath)`, Keras's other name for it."""
        self.save(filepath)


def _json(data, filepath):
    try:
        return json.loads(data)
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise ValueError(f"{filepath}: a member is not valid JSON ({e}).") from e


def _check_weights(weights):
    if not isinstance(weights, dict):
        raise ValueError("Argument `weights` should be a dict where keys are weight names "
                         "(usually '0', '1', etc.) and values are NumPy arrays. "
                         f"Received: type(weights)={type(weights)}")


def _dicts(tree):
    """Every dict in the tree, the root first (iteratively)."""
    stack, out = [tree], []
    while stack:
        d = stack.pop()
        out.append(d)
        stack.extend(v for v in d.values() if isinstance(v, dict))
    return out


# --- reading the file into a tree ------------------------------------------------------------
def _extract(group, inner_path, metadata, source, skip=()):
    """(tree, metadata) of an open h5 group: each `vars` group folded into its owner, links,
    external and virtual datasets refused, each dataset's size checked before reading."""
    if group.attrs:
        metadata.setdefault(inner_path, dict(group.attrs.items()))
    result = collections.OrderedDict()
    for key in group.keys():
        if key in skip:
            continue
        path = f"{inner_path}/{key}"
        value = _child(group, key, path, source)
        if hasattr(value, "keys"):  # a group: a layer's `vars` come first, then its sublayers
            tree = collections.OrderedDict()
            if "vars" in value:
                tree = _extract(_child(value, "vars", f"{path}/vars", source), path, metadata,
                                source)[0]
            tree.update(_extract(value, path, metadata, source, skip=("vars",))[0])
            if tree:
                result[key] = tree
            else:  # an object without weights (Dropout, the model's own `vars`) is not listed
                metadata.pop(path, None)
        elif value is not None:
            result[key] = _read_dataset(value, path, source)
    return result, metadata


def _child(group, key, path, source):
    """group[key], refusing links to other places or files (Keras's rule)."""
    h5py = h5_weights._h5py()
    link = group.get(key, default=None, getclass=True, getlink=True)
    if link in (h5py.ExternalLink, h5py.SoftLink):
        raise ValueError(f"Not allowed: H5 file with {link.__name__} ({source}: {path}). A "
                         "Keras weights file holds its arrays itself.")
    value = group[key]
    if isinstance(value, (h5py.Group, h5py.Dataset)):
        return value
    return None


def _read_dataset(dataset, path, source):
    if dataset.external:
        raise ValueError(f"Not allowed: H5 file Dataset with external links: "
                         f"{dataset.external} ({source}: {path})")
    if dataset.is_virtual:
        raise ValueError(f"Not allowed: H5 file with virtual Dataset at {path} ({source})")
    shape = dataset.shape or ()
    if len(shape) > 64:
        raise ValueError("Malformed HDF5 dataset shape encountered in .keras file; tensor "
                         f"rank exceeds safety limit ({source}: {path}).")
    size = math.prod(shape) * dataset.dtype.itemsize
    if size > MAX_DATASET_BYTES:
        raise ValueError(f"HDF5 dataset too large to load safely ({size} bytes; limit is "
                         f"{MAX_DATASET_BYTES}) ({source}: {path}).")
    try:
        return dataset[()]
    except (OSError, RuntimeError) as e:
        raise ValueError(f"{source}: dataset '{path}' cannot be read ({e}); the file is "
                         "truncated or corrupt.") from e


# --- printing, comparing, writing ------------------------------------------------------------
def _print_tree(tree, prefix, is_first=True):
    """Keras's tree: '> ' for the very first entry, then '├─ ' and '└─ '."""
    items = list(tree.items())
    for index, (key, value) in enumerate(items):
        is_last = index == len(items) - 1
        connector = "> " if is_first else ("└─ " if is_last else "├─ ")
        is_first = False
        if isinstance(value, dict):
            print(f"{prefix}{connector}{key}")
            _print_tree(value, prefix + ("    " if is_last else "│   "), is_first=False)
        elif hasattr(value, "shape"):
            print(f"{prefix}{connector}{key}: shape={tuple(value.shape)}, dtype={value.dtype}")
        else:
            print(f"{prefix}{connector}{key}: {value}")


WeightSpec = collections.namedtuple("WeightSpec", "shape dtype")


def weight_spec(model):
    """The tree `KerasFileEditor` would read from a file `model` saved: WeightSpec leaves."""
    spec = {}
    for path, obj, variables in h5_weights.saveables(model):
        named = h5_weights._named_state(obj)
        leaves = ({k: WeightSpec(tuple(np.shape(v)), np.asarray(v).dtype.name)
                   for k, v in sorted(named.items())} if named else
                  {str(i): WeightSpec(tuple(v.shape), v.dtype.name)
                   for i, v in enumerate(variables)})
        if leaves:
            node = spec
            for part in (path.split("/") if path else ["vars"]):
                node = node.setdefault(part, {})
            node.update(leaves)
    return spec


def _compare(target, reference, inner_path, target_name, ref_name, checked):
    """(errors, matches) for every entry of `reference` looked up in `target`."""
    errors = matches = 0
    for key, ref_value in reference.items():
        path = f"{inner_path}/{key}"
        if path in checked:
            continue
        if key not in target:
            errors += 1
            checked.add(path)
            kind = "Object" if isinstance(ref_value, dict) else "Weight"
            print(f"...{kind} {path} present in {ref_name}, missing from {target_name}")
            if isinstance(ref_value, dict):
                print(f"    In {ref_name}, {path} contains the following keys: "
                      f"{list(ref_value.keys())}")
        elif isinstance(ref_value, dict):
            more_errors, more_matches = _compare(target[key], ref_value, path, target_name,
                                                 ref_name, checked)
            errors, matches = errors + more_errors, matches + more_matches
        elif tuple(target[key].shape) != tuple(ref_value.shape):
            errors += 1
            checked.add(path)
            print(f"...Weight shape mismatch for {path}\n    In {ref_name}: "
                  f"shape={tuple(ref_value.shape)}\n    In {target_name}: "
                  f"shape={tuple(target[key].shape)}")
        else:
            matches += 1
    return errors, matches


def _write(file, tree, path):
    """Datasets of `tree` into `path/vars`, sub-dicts into their own groups."""
    arrays = {k: v for k, v in tree.items() if not isinstance(v, dict)}
    if arrays:
        group = file.require_group(f"{path}/vars" if path else "vars")
        for name, value in arrays.items():
            group.create_dataset(name, data=np.asarray(value))
    for name, value in tree.items():
        if isinstance(value, dict) and value:
            _write(file, value, f"{path}/{name}" if path else name)
