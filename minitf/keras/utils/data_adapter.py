"""How `fit`, `evaluate` and `predict` turn what you pass into batches.

Three kinds of input are accepted, as in Keras:

* NumPy arrays or tensors (or lists/dicts of them, for several inputs or
  outputs): `fit` slices them into batches of `batch_size` (32 by default),
  reshuffling the order each epoch when `shuffle=True`. Floating-point
  arrays become float32 (Keras converts them to `floatx`).
* a `tf.data.Dataset` of batches: each element is `(x, y)` or
  `(x, y, sample_weight)`; each epoch is one pass over the dataset.
* a Python generator of such tuples: it is read step by step; pass
  `steps_per_epoch` to cut it into epochs.

>>> import numpy as np
>>> x, y = np.arange(10.0).reshape(5, 2), np.arange(5)
>>> adapter = get_data_adapter(x, y, batch_size=2, shuffle=False)
>>> [tuple(b[0].shape) for b in adapter.get_iterator()]
[(2, 2), (2, 2), (1, 2)]
>>> adapter.num_batches
3
"""
import math

import numpy as np

from ...framework import nest
from ...framework.tensor import Tensor, convert_to_tensor
from ...framework.tf_export import tf_export


@tf_export("keras.utils.unpack_x_y_sample_weight")
def unpack_x_y_sample_weight(data):
    """Split a batch into `(x, y, sample_weight)`, filling the missing ones with None.

    >>> tf.keras.utils.unpack_x_y_sample_weight((1, 2))
    (1, 2, None)
    """
    if isinstance(data, list):
        data = tuple(data)
    if not isinstance(data, tuple):
        return (data, None, None)
    if len(data) == 1:
        return (data[0], None, None)
    if len(data) == 2:
        return (data[0], data[1], None)
    if len(data) == 3:
        return (data[0], data[1], data[2])
    raise ValueError("Data is expected to be in format `x`, `(x,)`, `(x, y)`, or "
                     f"`(x, y, sample_weight)`, found: {data}")


@tf_export("keras.utils.pack_x_y_sample_weight")
def pack_x_y_sample_weight(x, y=None, sample_weight=None):
    """The inverse of `unpack_x_y_sample_weight`: drop trailing Nones.

    >>> tf.keras.utils.pack_x_y_sample_weight(1, 2)
    (1, 2)
    """
    if y is None:
        return (x,)
    if sample_weight is None:
        return (x, y)
    return (x, y, sample_weight)


def _is_array(value):
    return isinstance(value, (np.ndarray, Tensor)) or np.isscalar(value)


def _to_array(value):
    if isinstance(value, Tensor):
        value = value.numpy()
    value = np.asarray(value)
    if value.dtype.kind == "f" and value.dtype != np.float32:
        value = value.astype(np.float32)  # Keras casts float data to floatx
    return value


def _is_plain_number_list(value):
    if isinstance(value, (list, tuple)):
        return all(_is_plain_number_list(v) for v in value)
    return np.isscalar(value) and not isinstance(value, str)


def _standardize(structure):
    """Nested lists/dicts of arrays -> the same nest of NumPy arrays."""
    if structure is None:
        return None
    if isinstance(structure, (list, tuple)) and structure and \
            all(_is_plain_number_list(v) for v in structure):
        return _to_array(structure)  # nested lists of numbers are one array
    return nest.map_structure(_to_array, structure)


def is_dataset(value):
    from ...data.dataset_ops import Dataset
    return isinstance(value, Dataset)


def is_generator(value):
    return hasattr(value, "__next__") and hasattr(value, "__iter__")


def check_data_cardinality(data):
    sizes = {label: [a.shape[0] for a in nest.flatten(arrays)]
             for label, arrays in zip(("x", "y", "sample_weight"), data) if arrays is not None}
    all_sizes = {s for group in sizes.values() for s in group}
    if len(all_sizes) > 1:
        text = "".join(f"'{label}' sizes: {', '.join(map(str, s))}\n"
                       for label, s in sizes.items())
        raise ValueError("Data cardinality is ambiguous. Make sure all arrays contain the "
                         f"same number of samples.{text}Every example needs its input, its "
                         "label (and its weight): the first dimensions must be equal.")


def class_weight_to_sample_weight(y, class_weight):
    """One weight per example: the weight of its class (one-hot or integer labels)."""
    y = np.asarray(y)
    if y.ndim > 1 and y.shape[-1] > 1:
        classes = np.argmax(y, axis=-1)
    else:
        classes = np.round(y.reshape(y.shape[0], -1)[:, 0]).astype(int)
    missing = set(classes.tolist()) - set(class_weight)
    if missing:
        raise ValueError(f"Expected `class_weight` to be a dict with keys for every class, "
                         f"but classes {sorted(missing)} have no weight: {class_weight}.")
    return np.array([class_weight[c] for c in classes], dtype=np.float32)


def train_validation_split(arrays, validation_split):
    """Keras's rule: the LAST `validation_split` fraction (unshuffled) validates.

    >>> train, val = train_validation_split((np.arange(10), None), 0.2)
    >>> train[0], val[0]
    (array([0, 1, 2, 3, 4, 5, 6, 7]), array([8, 9]))
    """
    flat = [a for a in nest.flatten(arrays) if a is not None]
    if not all(_is_array(a) for a in flat):
        raise ValueError("`validation_split` is only supported for Tensors or NumPy arrays."
                         f" Found incompatible type in the input: "
                         f"{[type(a) for a in flat if not _is_array(a)]}. With a dataset "
                         "or a generator, pass `validation_data` instead.")
    batch_dim = int(flat[0].shape[0])
    split_at = math.floor(batch_dim * (1.0 - validation_split))
    if split_at == 0 or split_at == batch_dim:
        raise ValueError(f"Training data contains {batch_dim} samples, which is not "
                         "sufficient to split it into a validation and training set as "
                         f"specified by `validation_split={validation_split}`. Either "
                         "provide more data, or a different value for the "
                         "`validation_split` argument.")

    def cut(start, stop):
        return nest.map_structure(
            lambda a: None if a is None else _to_array(a)[start:stop], arrays)
    return cut(0, split_at), cut(split_at, batch_dim)


class ArrayDataAdapter:
    """Batches of in-memory arrays, reshuffled each epoch if asked."""

    def __init__(self, x, y=None, sample_weight=None, batch_size=None, shuffle=False,
                 class_weight=None):
        self._data = (_standardize(x), _standardize(y), _standardize(sample_weight))
        check_data_cardinality(self._data)
        if class_weight is not None and y is not None:
            weights = class_weight_to_sample_weight(nest.flatten(self._data[1])[0],
                                                    class_weight)
            if self._data[2] is not None:
                weights = weights * self._data[2]
            self._data = (self._data[0], self._data[1], weights)
        self._size = int(nest.flatten(self._data[0])[0].shape[0])
        self._batch_size = batch_size or 32
        self._shuffle = shuffle

    @property
    def num_batches(self):
        return math.ceil(self._size / self._batch_size)

    def get_iterator(self):
        index = np.arange(self._size)
        if self._shuffle == "batch":
            order = np.random.permutation(self.num_batches)
            index = np.concatenate([index[i * self._batch_size:(i + 1) * self._batch_size]
                                    for i in order])
        elif self._shuffle:
            index = np.random.permutation(self._size)
        if all(part is None or type(part) is np.ndarray for part in self._data):
            yield from self._plain_batches(index)  # the common case, without tf.nest
            return
        for start in range(0, self._size, self._batch_size):
            rows = index[start:start + self._batch_size]
            batch = nest.map_structure(
                lambda a, rows=rows: None if a is None else convert_to_tensor(a[rows]),
                self._data)
            yield tuple(part for part in batch if part is not None) \
                if batch[2] is None else batch


    def _plain_batches(self, index):
        """Batches when x, y and sample_weight are single arrays: reorder each array once
        per epoch, then cut contiguous slices (copies, so no tensor shares the user's
        array)."""
        shuffled = bool(self._shuffle)
        data = self._data if self._data[2] is not None else \
            [a for a in self._data if a is not None]  # (x, y) or (x,), as the general path
        parts = [a if a is None or not shuffled else a[index] for a in data]
        for start in range(0, self._size, self._batch_size):
            stop = start + self._batch_size
            yield tuple(None if a is None else convert_to_tensor(
                a[start:stop] if shuffled else a[start:stop].copy()) for a in parts)


class IterableDataAdapter:
    """Batches from a `tf.data.Dataset` (a fresh pass per epoch) or a generator."""

    def __init__(self, data, steps=None):
        self._data = data
        self._steps = steps
        self._iterator = None
        if is_dataset(data):
            cardinality = int(data.cardinality())
            self._known = cardinality if cardinality >= 0 else None
        else:
            self._known = None

    @property
    def num_batches(self):
        return self._steps if self._steps is not None else self._known

    def get_iterator(self):
        fresh = is_dataset(self._data) and self._steps is None
        if self._iterator is None or fresh:
            self._iterator = iter(self._data)
        count = 0
        while self._steps is None or count < self._steps:
            try:
                batch = next(self._iterator)
            except StopIteration:
                if is_dataset(self._data) and self._steps is not None and count == 0:
                    self._iterator = iter(self._data)  # a finite dataset: start again
                    continue
                return
            count += 1
            yield batch if isinstance(batch, tuple) else tuple(batch) \
                if isinstance(batch, list) else (batch,)


def get_data_adapter(x, y=None, sample_weight=None, batch_size=None, steps=None,
                     shuffle=False, class_weight=None):
    """The adapter for this kind of input (see the module docstring)."""
    from .py_dataset import PyDataset, PyDatasetAdapter
    if isinstance(x, PyDataset):
        if y is not None or sample_weight is not None:
            raise ValueError("`y` and `sample_weight` arguments are not supported when using a "
                             "PyDataset as input: return `(x, y[, sample_weight])` from "
                             "`__getitem__` instead.")
        return PyDatasetAdapter(x, shuffle=shuffle, class_weight=class_weight, steps=steps)
    if is_dataset(x) or is_generator(x):
        kind = "dataset" if is_dataset(x) else "a Python generator"
        if y is not None:
            raise ValueError(f"`y` argument is not supported when using {kind} as input. "
                             "Make the dataset or generator yield `(x, y)` pairs instead.")
        if sample_weight is not None:
            raise ValueError(f"`sample_weight` argument is not supported when using {kind} "
                             "as input. Yield `(x, y, sample_weight)` instead.")
        return IterableDataAdapter(x, steps)
    if x is None:
        raise ValueError("Unrecognized data type: x=None. Pass NumPy arrays, tensors, a "
                         "tf.data.Dataset or a Python generator.")
    return ArrayDataAdapter(x, y, sample_weight, batch_size, shuffle, class_weight)
