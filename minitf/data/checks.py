"""Counts and errors: `ignore_errors`, `assert_cardinality`, `pad_to_cardinality`, `at`,
`get_single_element`, and re-batching (`rebatch`, `sparse_batch`).

`assert_cardinality(n)` makes a count TF cannot know (after `filter`, from a
generator) known, and checks it while the data flows:

>>> import minitf as tf
>>> ds = tf.data.Dataset.range(5).filter(lambda x: x < 3)
>>> int(ds.cardinality()), int(ds.apply(tf.data.experimental.assert_cardinality(3)).cardinality())
(-2, 3)
"""
import warnings

import numpy as np

from ..framework import dtypes, errors
from ..framework.function import TensorSpec
from ..framework.tensor import EagerTensor
from ..framework.tf_export import tf_export
from .dataset_ops import INFINITE, UNKNOWN, Dataset
from .map_op import _FilterDataset, _MapDataset
from .sources import static_int
from .structure import flatten, pack, unbatched_spec
from .structured_function import truth

_SKIP = object()


class _IgnoreErrorsDataset(Dataset):
    """The input's elements, without those whose computation raised an error.

    TF's iterators go on after an error; a Python generator that raised is finished.
    So minitf runs the element-wise `map`/`filter` stages right below it itself, one
    element at a time, and drops an element when one of them raises. An error in any
    other stage (or the source) ends the iteration, with a warning that says so."""

    def __init__(self, dataset, log_warning):
        self._input = dataset
        self._log = bool(log_warning)
        self._element_spec = dataset.element_spec

    def _generate(self):
        stages, source = [], self._input
        while isinstance(source, (_MapDataset, _FilterDataset)):
            stages.append(source)
            source = source._input
        elements = source._iterate()
        while True:
            try:
                element = next(elements)
            except StopIteration:
                return
            except Exception as exc:  # the source's generator is finished now
                warnings.warn(f"ignore_errors: {type(source).__name__} raised {exc!r}; "
                              "minitf cannot resume it, so the dataset ends here.")
                return
            try:
                for stage in reversed(stages):
                    element = _through(stage, element)
                    if element is _SKIP:
                        break
            except Exception as exc:
                if self._log:
                    warnings.warn(f"Error raised with error message {exc}")
                continue
            if element is not _SKIP:
                yield element


def _through(stage, element):
    if isinstance(stage, _FilterDataset):
        return element if truth(stage._function(element)) else _SKIP
    return stage._function(element)


@tf_export("data.experimental.ignore_errors")
def ignore_errors(log_warning=False):
    """`Dataset.ignore_errors` as a transformation for `apply`.

    >>> ds = tf.data.Dataset.from_tensor_slices([1., 0.]).map(
    ...     lambda x: tf.debugging.check_numerics(1. / x, "inf"))
    >>> list(ds.apply(tf.data.experimental.ignore_errors()).as_numpy_iterator())
    [np.float32(1.0)]
    """
    return lambda dataset: _IgnoreErrorsDataset(dataset, log_warning)


class _AssertCardinalityDataset(Dataset):
    """The input's elements; its cardinality is `expected`, checked as they flow."""

    def __init__(self, dataset, expected):
        self._input = dataset
        self._expected = static_int(expected)
        self._element_spec = dataset.element_spec

    def _cardinality(self):
        return self._expected

    def _generate(self):
        n = self._expected
        count = 0
        for element in self._input._iterate():
            count += 1
            if n != INFINITE and count > n:
                raise _cardinality_error(f"Input dataset was expected to contain {n} "
                                         f"elements but contained at least {count} elements.")
            yield element
        if n == INFINITE or count < n:
            raise _cardinality_error(f"Input dataset was expected to contain "
                                     f"{'an infinite number of' if n == INFINITE else n} "
                                     f"elements but contained only {count} elements.")


def _cardinality_error(message):
    return errors.FailedPreconditionError(None, "AssertCardinalityDataset", message)


@tf_export("data.experimental.assert_cardinality")
def assert_cardinality(expected_cardinality):
    """A transformation for `apply`: the dataset has `expected_cardinality` elements
    (`FailedPreconditionError` while iterating if it has not)."""
    return lambda dataset: _AssertCardinalityDataset(dataset, expected_cardinality)


@tf_export("data.experimental.pad_to_cardinality")
def pad_to_cardinality(cardinality, mask_key="valid"):
    """A transformation for `apply`: pad a dataset of dicts to `cardinality` elements with
    zero elements, adding a bool `mask_key` entry (True for the real ones).

    >>> ds = tf.data.Dataset.from_tensor_slices({"a": [1, 2]})
    >>> ds = ds.apply(tf.data.experimental.pad_to_cardinality(3))
    >>> [(int(e["a"]), bool(e["valid"])) for e in ds.as_numpy_iterator()]
    [(1, True), (2, True), (0, False)]
    """

    def transform(dataset):
        spec = dataset.element_spec
        if not isinstance(spec, dict):
            raise ValueError("`pad_to_cardinality` requires its input dataset to be a "
                             f"dictionary, got {spec!r}.")
        if mask_key in spec:
            raise ValueError(f"The mask key {mask_key!r} is already a key of the elements.")
        n = dataset._cardinality()
        if n in (INFINITE, UNKNOWN):
            raise ValueError("The dataset passed into `pad_to_cardinality` must have a known "
                             f"cardinality, but has cardinality {n}. Use "
                             "`assert_cardinality` to state it.")
        if n > cardinality:
            raise ValueError(f"The dataset passed into `pad_to_cardinality` must have a "
                             f"cardinality less than the target cardinality ({cardinality}), "
                             f"but has cardinality {n}.")
        from .sources import _TensorDataset
        valid = dataset.map(lambda x: {**x, mask_key: np.bool_(True)})
        zero = {k: np.zeros([d or 0 for d in s.shape.as_list()], s.dtype._np)
                if s.dtype is not dtypes.string else np.full(s.shape.as_list(), b"", object)
                for k, s in spec.items()}
        padding = _TensorDataset({**zero, mask_key: np.bool_(False)}).repeat(cardinality - n)
        return valid.concatenate(padding)
    return transform


@tf_export("data.experimental.at")
def at(dataset, index):
    """Element `index` of `dataset` (`OutOfRangeError` past its end).

    >>> tf.data.experimental.at(tf.data.Dataset.range(10, 20), 3).numpy()
    np.int64(13)
    """
    i = static_int(index)
    n = dataset._cardinality()
    if i < 0 or n >= 0 and i >= n:
        raise errors.OutOfRangeError(None, "GetElementAtIndex", f"Index out of range [0, "
                                     f"{n}):{i} [Op:GetElementAtIndex]")
    for position, element in enumerate(dataset._iterate()):
        if position == i:
            return element
    raise errors.OutOfRangeError(None, "GetElementAtIndex",
                                 f"Index out of range [0, {position + 1 if i else 0}):{i}")


def get_single_element(dataset):
    elements = dataset._iterate()
    try:
        first = next(elements)
    except StopIteration:
        raise errors.InvalidArgumentError(None, "DatasetToSingleElement",
                                          "Dataset was empty.") from None
    if next(elements, _SKIP) is not _SKIP:
        raise errors.InvalidArgumentError(
            None, "DatasetToSingleElement", "Dataset had more than one element. "
            "get_single_element needs a dataset of exactly one element (take(1) or batch).")
    return first


@tf_export("data.experimental.get_single_element")
def experimental_get_single_element(dataset):
    """`dataset.get_single_element()`.

    >>> tf.data.experimental.get_single_element(tf.data.Dataset.range(7, 8)).numpy()
    np.int64(7)
    """
    return get_single_element(dataset)


class _RebatchDataset(Dataset):
    """Batched input, cut again into batches of `batch_size` (a list: sizes in turn)."""

    def __init__(self, dataset, batch_size, drop_remainder):
        sizes = np.asarray(getattr(batch_size, "numpy", lambda: batch_size)()).reshape(-1)
        if sizes.size == 0 or (sizes < 1).any():
            raise ValueError(f"`batch_size` must be positive, got {sizes.tolist()}.")
        self._sizes = [int(s) for s in sizes]
        self._input, self._drop = dataset, bool(drop_remainder)
        fixed = self._sizes[0] if len(set(self._sizes)) == 1 and self._drop else None
        self._element_spec = pack(dataset.element_spec, [
            TensorSpec([fixed] + unbatched_spec(s).shape.as_list(), s.dtype)
            for s in flatten(dataset.element_spec)])

    def _generate(self):
        rows = self._input.unbatch()._iterate()
        turn = 0
        while True:
            size = self._sizes[turn % len(self._sizes)]
            turn += 1
            batch = [e for _, e in zip(range(size), rows)]
            if not batch or (self._drop and len(batch) < size):
                return
            yield _stacked(self._element_spec, batch)


def _stacked(spec, batch):
    columns = zip(*[flatten(e) for e in batch])
    return pack(spec, [EagerTensor(np.stack([c.numpy() if c.dtype is not dtypes.string
                                             else c._value for c in column]), column[0].dtype)
                       for column in columns])


class _SparseBatchDataset(Dataset):
    """Batches as SparseTensors of dense shape [n, *row_shape]: element i's entries
    at [i, index within the element]."""

    def __init__(self, dataset, batch_size, row_shape):
        from ..ops.sparse_tensor_spec import SparseTensorSpec
        spec = dataset.element_spec
        if not isinstance(spec, TensorSpec):
            raise TypeError(f"sparse_batch needs elements that are single tensors, got {spec!r}.")
        self._input, self._size = dataset, static_int(batch_size)
        self._row_shape = [int(d) for d in np.asarray(row_shape).reshape(-1)]
        self._element_spec = SparseTensorSpec([None] + self._row_shape, spec.dtype)

    def _generate(self):
        from ..ops.sparse_tensor import SparseTensor
        elements = self._input._iterate()
        while True:
            batch = [e for _, e in zip(range(self._size), elements)]
            if not batch:
                return
            indices, values = [], []
            for i, element in enumerate(batch):
                value = element._value
                if value.ndim != len(self._row_shape) or any(
                        n > m for n, m in zip(value.shape, self._row_shape)):
                    raise errors.InvalidArgumentError(
                        None, "DenseToSparseBatchDataset", f"Input element of shape "
                        f"{list(value.shape)} does not fit row_shape {self._row_shape}.")
                for index in np.ndindex(*value.shape):
                    indices.append((i,) + index)
                    values.append(value[index])
            yield SparseTensor(np.asarray(indices, np.int64).reshape(-1, 1 + value.ndim),
                               EagerTensor(np.asarray(values, value.dtype).reshape(-1),
                                           batch[0].dtype),
                               [len(batch)] + self._row_shape)


@tf_export("data.experimental.dense_to_sparse_batch")
def dense_to_sparse_batch(batch_size, row_shape):
    """`Dataset.sparse_batch` as a transformation for `apply`.

    >>> ds = tf.data.Dataset.from_tensors([7, 8]).apply(
    ...     tf.data.experimental.dense_to_sparse_batch(1, [3]))
    >>> next(iter(ds)).dense_shape.numpy()
    array([1, 3])
    """
    return lambda dataset: _SparseBatchDataset(dataset, batch_size, row_shape)


del tf_export
