"""`batch`, `padded_batch`, `unbatch` and `window`.

`batch` stacks consecutive elements along a new first axis. Because the last
batch may be short, the batch dimension is unknown (None) in `element_spec`
unless `drop_remainder=True`:

>>> import minitf as tf
>>> tf.data.Dataset.range(7).batch(3).element_spec
TensorSpec(shape=(None,), dtype=tf.int64, name=None)
>>> [b.shape for b in tf.data.Dataset.range(7).batch(3)]
[TensorShape([3]), TensorShape([3]), TensorShape([1])]
"""
import numpy as np

from ..framework import errors
from ..framework.function import TensorSpec
from ..framework.tensor import EagerTensor
from ..framework.tensor_shape import TensorShape
from .dataset_ops import Dataset
from .graph_inputs import known_int
from .sources import _VariantDataset, flatten_up_to, runtime_int, static_int
from . import sparse_elements
from .sparse_elements import is_sparse
from .structure import (DatasetSpec, batched_spec, flatten, is_ragged, map_structure, pack,
                        unbatched_spec)


def _positive(value, message, op):
    n = static_int(value)  # None for a symbolic value: checked when the graph runs
    if n is not None and n <= 0:
        raise errors.InvalidArgumentError(None, op, f"{message} [Op:{op}]")
    return n


def _batched_count(n, size, drop_remainder):
    if n < 0 or size is None:
        return n if n < 0 else -2
    return n // size if drop_remainder else -(-n // size)


def _collect(source, size):
    batch = []
    for element in source:
        batch.append(element)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


class _BatchDataset(Dataset):
    """Stack `batch_size` elements (the last batch may be short)."""

    def __init__(self, dataset, batch_size, drop_remainder):
        self._input = dataset
        self._raw_size = batch_size  # read when the graph runs if symbolic
        self._size = _positive(batch_size, "Batch size must be greater than zero.",
                               "BatchDatasetV2")
        self._drop = bool(drop_remainder)
        dim = self._size if self._drop else None
        self._element_spec = map_structure(lambda s: batched_spec(s, dim),
                                           dataset.element_spec)

    def _cardinality(self):
        return _batched_count(self._input._cardinality(), known_int(self._raw_size), self._drop)

    def _generate(self):
        size = _positive(runtime_int(self._raw_size), "Batch size must be greater than zero.",
                         "BatchDatasetV2")
        for batch in _collect(self._input._iterate(), size):
            if self._drop and len(batch) < size:
                return
            yield _stack(batch)


def _stack(batch):
    columns = zip(*[[t if is_sparse(t) else t._value for t in flatten(e)] for e in batch])
    stacked = []
    for component, arrays in enumerate(columns):
        if is_sparse(arrays[0]):  # SparseTensors: one with a new first axis
            stacked.append(sparse_elements.stack(list(arrays)))
            continue
        first = arrays[0].shape
        for i, a in enumerate(arrays):
            if a.shape != first:
                raise errors.InvalidArgumentError(
                    None, "IteratorGetNext",
                    f"Cannot batch tensors with different shapes in component {component}. "
                    f"First element had shape {list(first)} and element {i} had shape "
                    f"{list(a.shape)}. [Op:IteratorGetNext] Use padded_batch to pad "
                    "elements of different lengths to a common shape.")
        stacked.append(EagerTensor(np.stack(arrays)))
    return pack(batch[0], stacked)


class _PaddedBatchDataset(Dataset):
    """Batch elements of different shapes, padding them with `padding_values`."""

    def __init__(self, dataset, batch_size, padded_shapes, padding_values, drop_remainder):
        self._input = dataset
        self._raw_size = batch_size  # read when the graph runs if symbolic
        self._size = _positive(batch_size, "Batch size must be greater than zero.",
                               "PaddedBatchDatasetV2")
        self._drop = bool(drop_remainder)
        specs = flatten(dataset.element_spec)
        for spec in specs:
            if not isinstance(spec, TensorSpec):
                raise TypeError(
                    "`padded_batch` is only supported for datasets that produce tensor "
                    "elements but type spec of elements in the input dataset is not a subclass "
                    f"of TensorSpec: `{spec!r}`.")
        self._shapes = self._padded_shapes(specs, padded_shapes)
        self._values = self._padding_values(specs, padding_values)
        dim = self._size if self._drop else None
        self._element_spec = pack(dataset.element_spec, [
            TensorSpec([dim] + list(shape), s.dtype) for s, shape in zip(specs, self._shapes)])

    def _padded_shapes(self, specs, padded_shapes):
        if padded_shapes is None:
            for i, s in enumerate(specs):
                if s.shape.rank is None:
                    raise ValueError("You must provide `padded_shapes` argument because "
                                     f"component {i} has unknown rank.")
            return [s.shape for s in specs]
        given = flatten_up_to(self._input.element_spec, padded_shapes)
        if given is None:
            raise TypeError("The structure of `padded_shapes` must match the structure of the "
                            f"elements, {self._input.element_spec!r}; got {padded_shapes!r}. "
                            "Give one shape (a list, possibly empty) per component.")
        shapes = []
        for s, shape in zip(specs, given):
            shape = _as_shape(shape)
            if not _padded_shape_fits(shape, s.shape):
                raise ValueError(f"The padded shape {shape} is not compatible with the shape "
                                 f"{s.shape} of the corresponding input component.")
            shapes.append(shape)
        return shapes

    def _padding_values(self, specs, padding_values):
        if padding_values is None:
            return [b"" if s.dtype.name == "string" else 0 for s in specs]
        given = flatten(padding_values)
        if len(given) == 1 and len(specs) > 1:
            given = given * len(specs)
        return [np.asarray(getattr(v, "_value", v)) for v in given]

    def _cardinality(self):
        return _batched_count(self._input._cardinality(), known_int(self._raw_size), self._drop)

    def _generate(self):
        size = _positive(runtime_int(self._raw_size), "Batch size must be greater than zero.",
                         "PaddedBatchDatasetV2")
        for batch in _collect(self._input._iterate(), size):
            if self._drop and len(batch) < size:
                return
            columns = zip(*[[t._value for t in flatten(e)] for e in batch])
            padded = [EagerTensor(self._pad(list(arrays), shape, value))
                      for arrays, shape, value in zip(columns, self._shapes, self._values)]
            yield pack(batch[0], padded)

    @staticmethod
    def _pad(arrays, shape, value):
        target = [d if d is not None else max(a.shape[i] for a in arrays)
                  for i, d in enumerate(shape)]
        out = np.full([len(arrays)] + target, value, dtype=arrays[0].dtype)
        for i, a in enumerate(arrays):
            if any(n > t for n, t in zip(a.shape, target)):
                raise errors.DataLossError(
                    None, "IteratorGetNext",
                    "Attempted to pad to a smaller size than the input element. "
                    f"[Op:IteratorGetNext] Element {i} of the batch has shape "
                    f"{list(a.shape)} but padded_shapes asks for {target}.")
            out[(i,) + tuple(slice(0, n) for n in a.shape)] = a
        return out


def _as_shape(shape):
    """A padded shape given as a TensorShape, list or tuple (-1 or None: pad to the longest)."""
    dims = shape.as_list() if isinstance(shape, TensorShape) else list(
        getattr(shape, "numpy", lambda: shape)())
    return TensorShape([None if d is None or int(d) == -1 else int(d) for d in dims])


def _padded_shape_fits(padded, shape):
    """TF's rule: same rank, and no padded dimension smaller than a known input one."""
    if padded.rank is None or shape.rank is None:
        return True
    return padded.rank == shape.rank and all(
        p is None or d is None or p >= d for p, d in zip(padded.as_list(), shape.as_list()))


class _UnbatchDataset(Dataset):
    """Split each element along its first axis."""

    def __init__(self, dataset):
        self._input = dataset
        self._element_spec = map_structure(unbatched_spec, dataset.element_spec)
        known = {s.shape[0] for s in flatten(dataset.element_spec)
                 if s.shape.rank is not None and s.shape[0] is not None}
        if len(known) > 1:
            a, b = sorted(known)[:2]
            raise ValueError("`unbatch()` is only supported for datasets of elements whose "
                             "components have a matching leading dimension. Encountered both "
                             f"{a} and {b}.")

    def _generate(self):
        for element in self._input._iterate():
            arrays = [list(sparse_elements.rows(t)) if is_sparse(t) else t if is_ragged(t)
                      else t._value for t in flatten(element)]
            sizes = [a.nrows_value() if is_ragged(a) else len(a) if isinstance(a, list)
                     else a.shape[0] for a in arrays]
            for i, n in enumerate(sizes):
                if n != sizes[0]:
                    raise errors.InvalidArgumentError(
                        None, "IteratorGetNext",
                        "Input element must have the same batch size in each component. "
                        f"Component 0 had size {sizes[0]} but component {i} had size {n}.")
            for row in range(sizes[0]):  # a RaggedTensor's row: rt[row]
                yield pack(element, [a[row] if is_ragged(a) or isinstance(a, list)
                                     else EagerTensor(a[row, ...]) for a in arrays])


def _window_args(size, shift, stride):
    """Check size, shift and stride (ints or tensors; symbolic ones pass until they run)."""
    _positive(size, "Window size must be greater than zero.", "WindowDataset")
    _positive(shift, "Window shift must be greater than zero.", "WindowDataset")
    _positive(stride, "Window stride must be greater than zero.", "WindowDataset")
    return size, shift, stride


class _WindowDataset(Dataset):
    """Windows of `size` elements, `shift` apart, taking every `stride`-th element."""

    def __init__(self, dataset, size, shift, stride, drop_remainder):
        self._input = dataset
        self._raw = (size, size if shift is None else shift, stride)  # symbolic: read later
        _window_args(*self._raw)
        self._drop = bool(drop_remainder)
        self._element_spec = map_structure(DatasetSpec, dataset.element_spec)

    def _cardinality(self):
        n = self._input._cardinality()
        size, shift, stride = (known_int(v) for v in self._raw)
        if n < 0 or None in (size, shift, stride):
            return n if n < 0 else -2
        if not self._drop:
            return -(-n // shift)
        need = (size - 1) * stride + 1
        return 0 if n < need else (n - need) // shift + 1

    def _generate(self):
        size, shift, stride = _window_args(*(runtime_int(v) for v in self._raw))
        need = (size - 1) * stride + 1
        source = self._input._iterate()
        buffer, exhausted = [], False
        while True:
            while not exhausted and len(buffer) < need:
                try:
                    buffer.append(next(source))
                except StopIteration:
                    exhausted = True
            if not buffer or self._drop and len(buffer) < need:
                return
            yield self._window(buffer[0:need:stride])
            skip = shift - len(buffer)
            del buffer[:shift]
            for _ in range(max(0, skip)):
                if next(source, None) is None:
                    exhausted = True
                    break

    def _window(self, elements):
        specs = flatten(self._input.element_spec)
        columns = list(zip(*[flatten(e) for e in elements]))
        return pack(self._input.element_spec, [
            _VariantDataset(spec, list(column)) for spec, column in zip(specs, columns)])
