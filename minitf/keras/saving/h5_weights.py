"""The `.weights.h5` layout Keras 3 writes, and reading it back safely.

Keras walks the model as a tree and gives every layer a group; a layer's own
variables (trainable first, then non-trainable) are datasets "0", "1", ...
in its `vars` subgroup::

    vars                         (attrs: name='sequential')
    layers/dense/vars/0          (4, 3)  kernel
    layers/dense/vars/1          (3,)    bias
    layers/dense_1/vars/0 ...            the second Dense: named by class, not by layer name
    layers/lstm/cell/vars/0 ...          a layer held in an attribute: named by the attribute
    optimizer/vars/0             ()      iterations, then learning_rate, then the slots

A model's `layers` (Sequential, Functional) come first, named after their
class in snake case, numbered in order ("dense", "dense_1"): not after
`layer.name`, which differs between two builds of the same model. Then come
the layers and optimizers held in attributes (sorted, private ones last),
each under its attribute's name.

Reading checks each dataset's shape against its variable *before* reading the
values, so a file cannot make the loader allocate more than the model holds.

>>> import io, minitf as tf
>>> model = tf.keras.Sequential([tf.keras.Input((2,)), tf.keras.layers.Dense(1)])
>>> [(path, tuple(v.shape)) for path, v in variables_by_path(model)]
[('layers/dense/vars/0', (2, 1)), ('layers/dense/vars/1', (1,))]

In TensorFlow this is `keras/src/saving/saving_lib.py` (`_save_state`,
`_walk_saveable`, `H5IOStore`).
"""
import numpy as np

from ..utils.naming import to_snake_case

_BASE_ATTRIBUTES = None  # what every Layer has: never walked (as Keras's skip set)


def _h5py():
    try:
        import h5py
    except ImportError as e:
        raise ImportError("Keras files (`.keras`, `.weights.h5`) are HDF5 inside, and "
                          "reading or writing them needs h5py: pip install 'h5py>=3.8' "
                          "(or pip install 'minitf[lab]').") from e
    return h5py


def _is_saveable(obj):
    from ..engine.base_layer import Layer
    from ..optimizers.optimizer import Optimizer
    return isinstance(obj, (Layer, Optimizer))


def _base_attributes():
    global _BASE_ATTRIBUTES
    if _BASE_ATTRIBUTES is None:
        from ..engine.base_layer import Layer
        _BASE_ATTRIBUTES = set(dir(Layer())) - {"optimizer"}
    return _BASE_ATTRIBUTES


def _own_variables(obj):
    from ..engine.base_layer import Layer
    if isinstance(obj, Layer):
        return list(obj._trainable_variables) + list(obj._non_trainable_variables)
    return list(obj.variables)  # an optimizer: iterations, learning_rate, slots


def _children(obj):
    """(name, child) pairs in Keras's order: a model's `layers`, then attributes."""
    from ..engine.functional import Functional
    from ..engine.sequential import Sequential
    if isinstance(obj, (Functional, Sequential)):
        yield "layers", list(obj.layers)
    if not hasattr(obj, "__dict__"):
        return
    skip = _base_attributes()
    names = sorted(vars(obj), key=lambda n: "~" + n if n.startswith("_") else n)
    for name in names:
        if name.startswith("__") or name in skip or name in ("layers", "_layers"):
            continue
        yield name, vars(obj)[name]


def _walk(obj, path, visited, out):
    """Append (group path, saveable) for `obj` and everything below it, once each."""
    if id(obj) in visited:
        return
    visited.add(id(obj))
    variables = _own_variables(obj)
    split = _SPLIT_LIKE_KERAS.get(type(obj).__name__)
    if split:  # minitf keeps these weights on the layer; Keras on sublayers
        out.append((path, obj, []))
        size = len(variables) // len(split)  # kernel (and bias) of each, in this order
        for i, attribute in enumerate(split):
            out.append((f"{path}/{attribute}", obj, variables[i * size:(i + 1) * size]))
    else:
        out.append((path, obj, variables))
    for name, child in _children(obj):
        child_path = f"{path}/{name}" if path else name
        if _is_saveable(child):
            _walk(child, child_path, visited, out)
        elif isinstance(child, (list, tuple, dict)):
            used = {}
            for item in (child.values() if isinstance(child, dict) else child):
                if not _is_saveable(item):
                    continue
                base = to_snake_case(type(item).__name__)
                count = used.get(base, 0)
                used[base] = count + 1
                _walk(item, f"{child_path}/{base}" + (f"_{count}" if count else ""),
                      visited, out)


# Layers whose weights minitf keeps on the layer itself, in sublayer order, where Keras 3
# keeps them on sublayers: the attributes Keras files them under.
_SPLIT_LIKE_KERAS = {"MultiHeadAttention": ("query_dense", "key_dense", "value_dense",
                                            "output_dense")}


def saveables(model, include_optimizer=True):
    """[(group path, layer or optimizer, its variables)] for `model`, in Keras's order."""
    out = []
    visited = set() if include_optimizer else {id(getattr(model, "optimizer", None))}
    _walk(model, "", visited, out)
    return out


def variables_by_path(model, include_optimizer=True):
    """[(dataset path, variable)]: where each variable lives in a `.weights.h5` file."""
    pairs = []
    for path, _, variables in saveables(model, include_optimizer):
        prefix = f"{path}/vars" if path else "vars"
        pairs.extend((f"{prefix}/{i}", v) for i, v in enumerate(variables))
    return pairs


# --- writing -----------------------------------------------------------------------------------
def write_weights(model, file):
    """Write every variable of `model` (and its optimizer, if built) into `file`
    (a path or a binary file object) in Keras 3's layout."""
    h5py = _h5py()
    with h5py.File(file, "w") as f:
        for path, obj, variables in saveables(model):
            group = f.require_group(f"{path}/vars" if path else "vars")
            if isinstance(getattr(obj, "name", None), str):
                group.attrs["name"] = obj.name
            for i, variable in enumerate(variables):
                group.create_dataset(str(i), data=np.asarray(variable.numpy()))
            for key, value in _named_state(obj).items():
                group.create_dataset(key, data=np.asarray(value))


# --- reading -----------------------------------------------------------------------------------
def stored_values(file, source):
    """How many values the datasets of an open h5 file declare (headers only)."""
    total = 0

    def count(name, obj):
        nonlocal total
        if hasattr(obj, "shape") and obj.shape is not None:
            total += int(np.prod(obj.shape, dtype=object))
    file.visititems(count)
    return total


def read_weights(model, file, source, skip_mismatch=False):
    """Assign `model`'s variables from an open h5py File, checking every shape first."""
    failures = []
    optimizer = getattr(model, "optimizer", None)
    for path, obj, variables in saveables(model):
        if obj is optimizer and optimizer is not None:
            _read_optimizer(optimizer, file, path, source)
            continue
        try:
            if _has_named_state(obj):
                _read_named(obj, file, path, source)
            else:
                _read_own(obj, variables, file, path, source)
        except ValueError as e:
            failures.append((obj, e))
    if failures and not skip_mismatch:
        obj, error = failures[0]
        raise ValueError(
            f"A total of {len(failures)} objects could not be loaded from {source}. Example "
            f"error message for object {_describe(obj)}:\n\n{error}\n\nList of objects that "
            f"could not be loaded:\n[{', '.join(_describe(o) for o, _ in failures)}]")


def _describe(obj):
    return f"<{type(obj).__name__} name={obj.name}, built={getattr(obj, 'built', True)}>"


def _datasets(file, path, source):
    """The datasets "0", "1", ... of group `path/vars` (missing group: none)."""
    h5py = _h5py()
    group = file.get(f"{path}/vars" if path else "vars")
    if group is None:
        return []
    if not isinstance(group, h5py.Group):
        raise ValueError(f"{source}: '{group.name}' should be a group of datasets.")
    keys = list(group.keys())
    if sorted(keys, key=lambda k: int(k) if k.isdigit() else -1) != \
            [str(i) for i in range(len(keys))]:
        raise ValueError(f"{source}: the datasets of '{group.name}' should be named 0, 1, ..., "
                         f"but are {keys}. The file is not a Keras weights file.")
    return [group[str(i)] for i in range(len(keys))]


def _read_value(dataset, variable, source):
    h5py = _h5py()
    if not isinstance(dataset, h5py.Dataset):
        raise ValueError(f"{source}: '{dataset.name}' should be a dataset of numbers.")
    if tuple(dataset.shape or ()) != tuple(variable.shape):
        raise ValueError(
            "The shape of the target variable and the shape of the target value in "
            "`variable.assign(value)` must match. "
            f"variable.shape={tuple(variable.shape)}, Received: value.shape="
            f"{tuple(dataset.shape or ())}. Target variable: "
            f"{getattr(variable, 'path', variable.name)} (dataset '{dataset.name}' of {source})")
    if dataset.dtype.kind not in "fiub":
        raise ValueError(f"{source}: dataset '{dataset.name}' holds {dataset.dtype}, not "
                         "numbers.")
    try:
        value = dataset[()]
    except (OSError, RuntimeError) as e:  # h5py's error for a damaged chunk
        raise ValueError(f"{source}: dataset '{dataset.name}' cannot be read ({e}); the file "
                         "is truncated or corrupt.") from e
    return np.asarray(value).astype(variable.dtype.as_numpy_dtype)


def _read_own(obj, variables, file, path, source):
    datasets = _datasets(file, path, source)
    if len(datasets) != len(variables):
        raise ValueError(
            f"Layer '{obj.name}' expected {len(variables)} variables, but received "
            f"{len(datasets)} variables during loading. Expected: "
            f"{[v.name.split(':')[0].split('/')[-1] for v in variables]}")
    values = [_read_value(d, v, source) for d, v in zip(datasets, variables)]
    for variable, value in zip(variables, values):  # all checked: now assign
        variable.assign(value)


def _has_named_state(obj):
    """Layers that keep state outside variables (e.g. StringLookup's tf_idf weights) save it
    as named datasets through `save_own_variables`/`load_own_variables`, as in Keras 3."""
    return hasattr(obj, "save_own_variables") and type(obj).__name__ not in _SPLIT_LIKE_KERAS


def _named_state(obj):
    store = {}
    if _has_named_state(obj):
        obj.save_own_variables(store)
    return store


def _read_named(obj, file, path, source):
    h5py = _h5py()
    group = file.get(f"{path}/vars" if path else "vars")
    store = {}
    if group is not None:
        for key in group.keys():
            dataset = group[key]
            if not isinstance(dataset, h5py.Dataset) or dataset.dtype.kind not in "fiub":
                raise ValueError(f"{source}: '{group.name}/{key}' should be a dataset of "
                                 "numbers.")
            store[key] = dataset[()]
    try:
        obj.load_own_variables(store)
    except KeyError as e:
        raise ValueError(f"{source}: layer '{obj.name}' needs the dataset {e} in "
                         f"'{path}/vars', which the file does not hold.") from None


def _read_optimizer(optimizer, file, path, source):
    datasets = _datasets(file, path, source)
    if not datasets:
        return
    variables = list(optimizer.variables)
    if len(datasets) == 2 < len(variables):  # saved before its first step: no slots yet
        variables = variables[:2]  # iterations and learning_rate; the slots start at zero
    if len(datasets) != len(variables):
        import warnings
        warnings.warn(
            f"Skipping variable loading for optimizer '{optimizer.name}', because it has "
            f"{len(optimizer.variables)} variables whereas the saved optimizer "
            f"({source}) has {len(datasets)} variables.", stacklevel=4)
        return
    values = [_read_value(d, v, source) for d, v in zip(datasets, variables)]
    for variable, value in zip(variables, values):
        variable.assign(value)
