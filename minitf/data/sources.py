"""Where elements come from: tensors, ranges, Python generators, other datasets.

>>> import minitf as tf
>>> tf.data.Dataset.from_tensor_slices({"x": [1.0, 2.0], "y": [0, 1]})
<_TensorSliceDataset element_spec={'x': TensorSpec(shape=(), dtype=tf.float32, name=None), 'y': TensorSpec(shape=(), dtype=tf.int32, name=None)}>
"""
import numpy as np

from ..framework import dtypes, errors
from ..framework.function import TensorSpec
from ..framework.tensor import EagerTensor, Tensor, convert_to_tensor
from ..framework.tensor_shape import TensorShape
from .dataset_ops import INFINITE, UNKNOWN, Dataset
from .graph_inputs import bound_value, eager, known_int, value_of
from ..framework.composite_tensor import is_composite_spec
from .sparse_elements import check_sliceable, is_sparse
from .sparse_elements import rows as sparse_rows
from .structure import (
    compatible_spec,
    element_spec_of,
    flatten,
    is_composite,
    is_dataset,
    is_ragged,
    normalize_element,
    pack,
    same_structure,
    spec_of,
    type_text,
    unbatched_spec,
)


def static_int(value):
    """A Python int from an int or an eager scalar tensor; None for a symbolic one."""
    if isinstance(value, Tensor):
        return int(value.numpy()) if isinstance(value, EagerTensor) else None
    if value is None:
        raise ValueError("Attempt to convert a value (None) with an unsupported type "
                         "(<class 'NoneType'>) to a Tensor.")
    if isinstance(value, (str, bytes)) or np.asarray(value).dtype.kind not in "iub":
        raise TypeError(f"Cannot convert {value!r} to EagerTensor of dtype int64")
    return int(value)


def runtime_int(value):
    """A Python int from an int or a tensor; a symbolic one is read from its bound value
    (see graph_inputs.py), so it works while the graph holding it runs."""
    if isinstance(value, Tensor):
        return int(value_of(value))
    return int(value)


def slice_row(array, i):
    """Row `i` of an array as a 0-d-or-more array with the same dtype (strings too)."""
    return array[i, ...]


class _TensorSliceDataset(Dataset):
    """`from_tensor_slices`: element i is row i of every component."""

    def __init__(self, tensors):
        self._structure = normalize_element(tensors)
        leaves = flatten(self._structure)
        rows = None
        for leaf in leaves:
            if is_sparse(leaf):
                check_sliceable(leaf)
            if leaf.shape.rank == 0:
                raise ValueError("Unbatching a tensor is only supported for rank >= 1. "
                                 "from_tensor_slices slices along the first axis; use "
                                 "from_tensors for a single scalar element.")
            n = leaf.shape[0] if leaf.shape.rank is not None else None
            if rows is not None and n is not None and n != rows:
                raise ValueError(f"Dimensions {rows} and {n} are not compatible. Every "
                                 "component must have the same number of rows (first "
                                 "dimension) to be sliced together.")
            rows = n if rows is None else rows
        self._rows = rows
        self._element_spec = pack(self._structure, [unbatched_spec(spec_of(t)) for t in leaves])

    def _cardinality(self):
        if self._rows is not None:
            return self._rows
        values = [bound_value(t) for t in flatten(self._structure)]  # while a graph runs
        sizes = {None if v is None else v.shape[0] for v in values}
        return sizes.pop() if len(sizes) == 1 and None not in sizes else UNKNOWN

    def _generate(self):
        leaves = flatten(self._structure)
        arrays = [list(sparse_rows(t)) if is_sparse(t) else t if is_ragged(t) else value_of(t)
                  for t in leaves]  # rt[i]: a row of a RaggedTensor
        rows = self._rows
        if rows is None:  # symbolic tensors of unknown length: check them now, as TF does
            sizes = [a.shape[0] for a in arrays]
            if any(n != sizes[0] for n in sizes):
                raise errors.InvalidArgumentError(
                    None, "TensorSliceDataset", "All components must have the same size in "
                    f"the 0th dimension (sizes {sizes}) [Op:TensorSliceDataset]. Every "
                    "component is sliced along its first axis, so they need as many rows.")
            rows = sizes[0] if sizes else 0
        template = self._structure
        dtypes_ = [t.dtype for t in leaves]
        for i in range(rows):
            yield pack(template, [a[i] if is_ragged(a) or isinstance(a, list)
                                  else EagerTensor(slice_row(a, i), d)
                                  for a, d in zip(arrays, dtypes_)])


class _TensorDataset(Dataset):
    """`from_tensors`: exactly one element."""

    def __init__(self, tensors):
        self._structure = normalize_element(tensors)
        self._element_spec = element_spec_of(self._structure)

    def _cardinality(self):
        return 1

    def _generate(self):
        yield pack(self._structure, [leaf if is_dataset(leaf) or is_composite(leaf)
                                     else eager(leaf) for leaf in flatten(self._structure)])


class _RangeDataset(Dataset):
    """`range(start, stop, step)` as int64 (or `output_type`) scalars."""

    def __init__(self, *args, output_type=dtypes.int64, name=None):
        if not 1 <= len(args) <= 3:
            raise ValueError(f"Invalid arguments to RangeDataset: {args}")
        start, stop, step = (0, args[0], 1) if len(args) == 1 else (tuple(args) + (1,))[:3]
        self._raw = (start, stop, step)  # symbolic ones are read when the graph runs
        self._args = [static_int(a) for a in (start, stop, step)]
        if self._args[2] == 0:
            raise errors.InvalidArgumentError(None, "RangeDataset",
                                              "step must be a non-zero integer.")
        self._dtype = dtypes.as_dtype(output_type)
        self._element_spec = TensorSpec([], self._dtype)

    def _cardinality(self):
        args = [known_int(a) for a in self._raw]
        if None in args or args[2] == 0:
            return UNKNOWN
        return len(range(*args))

    def _generate(self):
        np_type = self._dtype._np
        args = [runtime_int(a) for a in self._raw]
        if args[2] == 0:
            raise errors.InvalidArgumentError(None, "RangeDataset",
                                              "step must be a non-zero integer.")
        for i in range(*args):
            yield EagerTensor(np.array(i, dtype=np_type), self._dtype)


class _VariantDataset(Dataset):
    """A dataset given as a list of elements (each window of `window`), or, while a
    function is traced, a stand-in that only knows its element_spec."""

    def __init__(self, element_spec, elements=None):
        self._element_spec = element_spec
        self._elements = elements

    def _cardinality(self):
        return UNKNOWN if self._elements is None else len(self._elements)

    def _generate(self):
        if self._elements is None:
            real = bound_value(self)  # the dataset this stand-in is bound to (interleave_op)
            if real is None:
                raise TypeError("This dataset is a placeholder used while tracing a function; "
                                "it has no elements to iterate over.")
            yield from real._iterate()
            return
        yield from self._elements


class _GeneratorDataset(Dataset):
    """`from_generator`: call the generator afresh on every iteration."""

    def __init__(self, generator, output_types, output_shapes, args, output_signature):
        if not callable(generator):
            raise TypeError("`generator` must be a Python callable.")
        if output_signature is not None:
            if output_types is not None or output_shapes is not None:
                raise TypeError("The `output_types` and `output_shapes` arguments cannot be "
                                "used together with the `output_signature` argument.")
            spec = output_signature
        elif output_types is not None:
            spec = _spec_from_types(output_types, output_shapes)
        else:
            raise TypeError("To specify the output signature you need to provide either the "
                            "`output_signature` argument or the `output_types` argument.")
        self._generator = generator
        self._args = tuple(args) if args is not None else ()
        self._element_spec = spec

    def __repr__(self):  # TF builds from_generator from range + flat_map, hence its name
        return f"<_FlatMapDataset element_spec={self.element_spec!r}>"

    def _generate(self):
        args = [value_of(a) if isinstance(a, Tensor) else convert_to_tensor(a).numpy()
                for a in self._args]
        values = iter(self._generator(*args))
        index = 0
        while True:
            try:
                value = next(values)
            except StopIteration:
                return
            except Exception as exc:
                raise _raised_by_generator(exc, index) from exc
            yield _checked(value, self._element_spec, index)
            index += 1


# How TF's PyFunc op reports a Python exception; any other class is an UnknownError.
_PY_ERRORS = {ValueError: "InvalidArgumentError", TypeError: "InvalidArgumentError",
              NotImplementedError: "UnimplementedError", MemoryError: "ResourceExhaustedError"}


def _raised_by_generator(exc, index):
    """The error TF raises when the generator raises `exc`: an OpError naming it."""
    name = next((n for cls, n in _PY_ERRORS.items() if isinstance(exc, cls)), "UnknownError")
    return getattr(errors, name)(
        None, "IteratorGetNext",
        f"{type(exc).__name__}: {exc} [Op:IteratorGetNext] (the `generator` passed to "
        f"from_generator raised it after yielding {index} element(s); its traceback is above)")


def _spec_from_types(output_types, output_shapes):
    types = flatten(output_types)
    shapes = [None] * len(types) if output_shapes is None else flatten_up_to(
        output_types, output_shapes)
    return pack(output_types, [TensorSpec(s, t) for t, s in zip(types, shapes)])


def flatten_up_to(structure, value):
    """`value`'s parts where `structure` has leaves (None if they do not line up)."""
    if isinstance(structure, dict):
        if not isinstance(value, dict) or set(value) != set(structure):
            return None
        parts = [flatten_up_to(structure[k], value[k]) for k in sorted(structure)]
    elif isinstance(structure, (tuple, list)):
        if not isinstance(value, (tuple, list)) or len(value) != len(structure):
            return None
        parts = [flatten_up_to(s, v) for s, v in zip(structure, value)]
    else:
        return [value]
    if any(p is None for p in parts):
        return None
    return [leaf for part in parts for leaf in part]


def _generator_error(message, index):
    return errors.InvalidArgumentError(
        None, "IteratorGetNext",
        f"TypeError: `generator` yielded an element {message} [Op:IteratorGetNext] "
        f"(element {index}, counting from 0.) Make the generator yield values that "
        "match output_signature, or change the signature.")


def _checked(value, spec, index):
    """A yielded value as tensors, checked against the signature like TF does."""
    values = flatten_up_to(spec, value)
    if values is None:
        raise _generator_error(f"that did not match the expected structure. The expected "
                               f"structure was {type_text(spec)}, but the yielded element "
                               f"was {value}.", index)
    tensors = []
    for leaf_spec, leaf in zip(flatten(spec), values):
        if is_composite_spec(leaf_spec):  # a RaggedTensorSpec or SparseTensorSpec
            tensors.append(_checked_composite(leaf, leaf_spec, value, index))
            continue
        array = _convert(leaf, leaf_spec.dtype)
        if array is None:
            raise _generator_error(
                f"that could not be converted to the expected type. The expected type was "
                f"{leaf_spec.dtype.name}, but the yielded element was {leaf}.", index)
        if not leaf_spec.shape.is_compatible_with(TensorShape(array.shape)):
            raise _generator_error(
                f"of shape {TensorShape(array.shape)} where an element of shape "
                f"{leaf_spec.shape} was expected.", index)
        tensors.append(EagerTensor(array, leaf_spec.dtype))
    return pack(spec, tensors)


def _checked_composite(leaf, spec, value, index):
    """A yielded RaggedTensor/SparseTensor, checked against its spec as TF checks it."""
    if is_composite(leaf):
        given = leaf._type_spec
    else:
        try:
            given = TensorSpec.from_tensor(convert_to_tensor(leaf))
        except (TypeError, ValueError):
            raise _generator_error(f"that did not match the expected structure. The expected "
                                   f"structure was {spec!r}, but the yielded element was "
                                   f"{value}.", index) from None
    if not spec.is_compatible_with(given):
        raise _generator_error(f"of {given!r} where an element of {spec!r} was expected.",
                               index)
    return leaf


def _convert(value, dtype):
    """`np.asarray(value, dtype)` as TF's py_func does (2.5 -> int32 2); None if it fails."""
    if isinstance(value, EagerTensor):
        value = value._value
    if dtype is dtypes.string:
        array = np.asarray(value, dtype=object)
        if not all(isinstance(s, (str, bytes)) for s in array.flat):
            return None
        out = np.empty(array.shape, dtype=object)
        out.flat[:] = [s.encode() if isinstance(s, str) else s for s in array.flat]
        return out
    try:
        array = np.asarray(value)
        if array.dtype.kind in "USO":
            return None
        return np.asarray(value, dtype=dtype._np)
    except (TypeError, ValueError, OverflowError):
        return None


class _ZipDataset(Dataset):
    """`zip`: a nest of datasets gives a nest of their elements."""

    def __init__(self, datasets):
        for leaf in flatten(datasets):
            if not is_dataset(leaf):
                raise TypeError("Invalid input to `zip`. Inputs are expected to be (nested) "
                                "structures of `tf.data.Dataset` objects but encountered "
                                f"object of type {type(leaf)}.")
        self._datasets = datasets
        self._element_spec = pack(datasets, [d.element_spec for d in flatten(datasets)])

    def _cardinality(self):
        counts = [d._cardinality() for d in flatten(self._datasets)]
        finite = [c for c in counts if c >= 0]
        if UNKNOWN in counts:
            return min(finite) if finite and min(finite) == 0 else UNKNOWN
        return min(finite) if finite else INFINITE

    def _generate(self):
        iterators = [d._iterate() for d in flatten(self._datasets)]
        try:
            while True:
                parts = []
                for it in iterators:
                    try:
                        parts.append(next(it))
                    except StopIteration:
                        return
                yield pack(self._datasets, parts)
        finally:
            for it in iterators:
                it.close()


class _ConcatenateDataset(Dataset):
    """`a.concatenate(b)`: same structure and dtypes; shapes may differ (dims become None)."""

    def __init__(self, first, second):
        a, b = first.element_spec, second.element_spec
        ok = same_structure(a, b) and all(
            x.dtype is y.dtype for x, y in zip(flatten(a), flatten(b)))
        if not ok:
            raise TypeError(f"Incompatible dataset elements:\n  {a!r} vs.   {b!r}")
        self._first, self._second = first, second
        self._element_spec = pack(a, [compatible_spec(x, y)
                                      for x, y in zip(flatten(a), flatten(b))])

    def _cardinality(self):
        a, b = self._first._cardinality(), self._second._cardinality()
        if INFINITE in (a, b):
            return INFINITE
        if UNKNOWN in (a, b):
            return UNKNOWN
        return a + b

    def _generate(self):
        yield from self._first._iterate()
        yield from self._second._iterate()
