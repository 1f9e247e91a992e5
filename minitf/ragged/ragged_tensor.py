"""`tf.RaggedTensor`: a tensor whose rows have different lengths.

A RaggedTensor is a flat tensor of `values` plus a *row partition* saying
where each row starts and ends. The partition is stored as `row_splits`: row
`i` is `values[row_splits[i]:row_splits[i + 1]]`.

>>> import minitf as tf
>>> rt = tf.RaggedTensor.from_row_splits([3, 1, 4, 1, 5], row_splits=[0, 2, 2, 5])
>>> rt
<tf.RaggedTensor [[3, 1], [], [4, 1, 5]]>
>>> rt.shape
TensorShape([3, None])
>>> rt.row_lengths()
<tf.Tensor: shape=(3,), dtype=int64, numpy=array([2, 0, 3])>

`values` may itself be a RaggedTensor (a ragged tensor of rank 3 has two
partitions, `nested_row_splits`); the innermost dense tensor is `flat_values`.
Every other way to describe rows - lengths, starts, limits, the row id of each
value - is converted to splits on the way in (`from_row_lengths`, ...), and
the same constructors check that the description is consistent, raising
TensorFlow's `InvalidArgumentError` when it is not.

Math on a RaggedTensor is math on its `flat_values`: the rows keep their
shape, and gradients flow to the values through the tape (ragged_math.py).
In TensorFlow the class lives in `tensorflow/python/ops/ragged/ragged_tensor.py`.
"""
import numpy as np

from ..framework import dtypes, errors
from ..framework.graph import SymbolicTensor
from ..framework.tensor import Tensor, convert_to_tensor, register_tensor_conversion_function
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export
from . import ragged_graph

_SPLITS_DTYPES = (dtypes.int32, dtypes.int64)


# --- turning the arguments into tensors -----------------------------------------------------
def _values_tensor(values):
    if isinstance(values, RaggedTensor):
        return values
    values = convert_to_tensor(values)
    if values.shape.rank == 0:
        raise errors.InvalidArgumentError(
            None, "StridedSlice", "slice index 0 of dimension 0 out of bounds. "
            "[Op:StridedSlice] (values must have rank at least 1: they are the rows' entries, "
            "one after another.)")
    return values


def _partition_tensor(value, name, dtype=None, traced_ok=False):
    """A 1-D int32/int64 tensor (TF's int64 default for Python lists); a traced
    (symbolic) one only where `traced_ok` (row_splits and row_lengths: ragged_graph.py)."""
    if isinstance(value, Tensor):
        tensor = value
    elif isinstance(value, (list, tuple)) and any(isinstance(v, SymbolicTensor) for v in value):
        from ..ops.array_ops import stack  # [n // 2, n - n // 2]: packed, as TF converts it
        tensor = stack([convert_to_tensor(v, dtype_hint=dtype or dtypes.int64) for v in value])
    else:
        tensor = convert_to_tensor(value, dtype_hint=dtype or dtypes.int64)
    if tensor.dtype not in _SPLITS_DTYPES:
        raise ValueError(f"{name} must have dtype int32 or int64")
    if isinstance(tensor, SymbolicTensor) and not traced_ok:
        raise ValueError(
            f"minitf computes a RaggedTensor's row partition eagerly, so inside tf.function "
            f"its {name} must be known while tracing: a Python list or a tensor made outside "
            "the function (the values may be traced tensors). TensorFlow also accepts "
            f"{name} computed in the graph (minitf takes row_splits and row_lengths).")
    if dtype is not None and tensor.dtype != dtype:
        raise ValueError(f"dtype mismatch: {name} is {tensor.dtype.name}, row_splits_dtype is "
                         f"{dtype.name}")
    if tensor.shape.rank != 1:
        raise ValueError(f"Shape {tensor.shape} must have rank 1")
    return tensor


def _nvals(values):
    return values.nrows_value() if isinstance(values, RaggedTensor) else values.shape[0]


def _nvals_tensor(values):
    """The number of values (rows of `values`) as an int64 tensor, for a graph check."""
    from ..ops.math_ops import cast
    from ..ops.shape_ops import shape
    if isinstance(values, RaggedTensor):
        return values.nrows(out_type=dtypes.int64)
    return cast(shape(values, out_type=dtypes.int64)[0], dtypes.int64)


def _invalid(constructor, what, detail, teach, kind="RaggedTensor"):
    """TensorFlow's message for an inconsistent partition, then a sentence that teaches."""
    return errors.InvalidArgumentError(
        None, None, f"Arguments to {constructor} do not form a valid {kind}{what}\n{detail}\n"
                    f"({teach})")


def _check_nondecreasing(constructor, name, array, kind="RaggedTensor", what=""):
    steps = np.diff(array)
    if np.any(steps < 0):
        shown = ", ".join(f"'{s}'" for s in steps)
        raise _invalid(constructor, what, "Condition x >= 0 did not hold element-wise:\n"
                       f"x (shape={steps.shape} dtype=int64) = \n[{shown}]",
                       f"{name} must never decrease: each row starts where the one before "
                       "it ends.", kind)


def _check_equal(constructor, got, want, teach, what=""):
    if got != want:
        raise _invalid(constructor, what, "Condition x == y did not hold.\nFirst 1 elements of "
                       f"x:\n[{got}]\nFirst 1 elements of y:\n[{want}]", teach)


def _splits_from(splits, dtype):
    return convert_to_tensor(np.asarray(splits, dtype=dtype.as_numpy_dtype))


# --- the class ------------------------------------------------------------------------------
@tf_export("RaggedTensor")
class RaggedTensor:
    """Rows of different lengths: `values` cut into rows by `row_splits`.

    Make one with a factory method (`from_row_splits`, `from_row_lengths`,
    `from_tensor`, ... or `tf.ragged.constant`), not the constructor.
    """

    _is_composite_tensor = True

    def __init__(self, values, row_partition, internal=False, uniform_row_length=None):
        if not internal:
            raise ValueError("RaggedTensor constructor is private; please use one of the "
                             "factory methods instead (e.g., RaggedTensor.from_row_lengths())")
        self._values = values
        self._row_splits = row_partition
        self._uniform_row_length = uniform_row_length

    # ----- factories ------------------------------------------------------------------------
    @classmethod
    def _from_splits(cls, values, splits, constructor, validate=True, uniform_row_length=None):
        """The one door every factory goes through: splits must start at 0, never
        decrease, and end at the number of values."""
        if isinstance(splits, SymbolicTensor):  # checked when the graph runs
            if validate:
                splits = ragged_graph.checked_splits(splits, _nvals_tensor(values), constructor)
            return cls(values, splits, internal=True, uniform_row_length=uniform_row_length)
        if validate and splits.shape[0] is not None:
            array = splits.numpy()
            if array.size == 0:
                raise errors.InvalidArgumentError(
                    None, None, f"Arguments to {constructor} do not form a valid RaggedTensor: "
                    "row_splits is empty (row_splits holds nrows + 1 numbers: it always "
                    "starts with 0).")
            _check_equal(constructor, int(array[0]), 0,
                         "row_splits[0] must be 0: the first row starts at the first value.",
                         what=":zero")
            _check_nondecreasing(constructor, "row_splits", array, what=":monotonic.  ")
            if _nvals(values) is not None:  # unknown while tracing a graph: trusted
                _check_equal("_from_row_partition", int(array[-1]), _nvals(values),
                             "the last row must end at the last value: row_splits[-1] must "
                             "be the number of values.")
        return cls(values, splits, internal=True, uniform_row_length=uniform_row_length)

    @classmethod
    def from_row_splits(cls, values, row_splits, name=None, validate=True):
        """Row `i` is `values[row_splits[i]:row_splits[i + 1]]`.

        >>> tf.RaggedTensor.from_row_splits([1, 2, 3], row_splits=[0, 2, 2, 3])
        <tf.RaggedTensor [[1, 2], [], [3]]>
        """
        values = _values_tensor(values)
        splits = _partition_tensor(row_splits, "row_splits", traced_ok=True)
        return cls._from_splits(values, splits, "from_row_splits", validate)

    @classmethod
    def from_row_lengths(cls, values, row_lengths, name=None, validate=True):
        """Row `i` holds the next `row_lengths[i]` values.

        >>> tf.RaggedTensor.from_row_lengths([1, 2, 3], row_lengths=[2, 0, 1])
        <tf.RaggedTensor [[1, 2], [], [3]]>
        """
        values = _values_tensor(values)
        lengths = _partition_tensor(row_lengths, "row_lengths", traced_ok=True)
        if isinstance(lengths, SymbolicTensor):  # a negative length makes splits decrease
            return cls._from_splits(values, ragged_graph.splits_from_lengths(lengths),
                                    "_from_row_partition", validate)
        array = lengths.numpy()
        if validate and np.any(array < 0):
            shown = ", ".join(f"'{s}'" for s in array)
            raise _invalid("from_row_lengths", ".  ", "Condition x >= 0 did not hold "
                           f"element-wise:\nx (shape={array.shape} dtype=int64) = \n[{shown}]",
                           "a row cannot have a negative length.", "RowPartition")
        splits = np.concatenate([[0], np.cumsum(array)])
        return cls._from_splits(values, _splits_from(splits, lengths.dtype), "_from_row_partition",
                                validate)

    @classmethod
    def from_value_rowids(cls, values, value_rowids, nrows=None, name=None, validate=True):
        """Value `j` belongs to row `value_rowids[j]` (ids sorted; rows may be empty).

        >>> tf.RaggedTensor.from_value_rowids([1, 2, 3], [0, 0, 2], nrows=4)
        <tf.RaggedTensor [[1, 2], [], [3], []]>
        """
        values = _values_tensor(values)
        rowids = _partition_tensor(value_rowids, "value_rowids")
        ids = rowids.numpy()
        if ids.shape[0] != _nvals(values):
            raise ValueError(f"Shapes ({_nvals(values)},) and {ids.shape} are incompatible")
        if validate:
            if np.any(ids < 0):
                raise _invalid("from_value_rowids", ".  ", "Condition x >= 0 did not hold "
                               "element-wise.", "a row id cannot be negative.", "RowPartition")
            _check_nondecreasing("from_value_rowids", "value_rowids", ids, "RowPartition", ".  ")
        count = int(ids[-1]) + 1 if ids.size else 0
        if nrows is None:
            nrows = count
        nrows = int(convert_to_tensor(nrows).numpy())
        if nrows < count:
            raise ValueError(f"Expected nrows >= value_rowids[-1] + 1; got nrows={nrows}, "
                             f"value_rowids[-1]={count - 1}")
        splits = np.searchsorted(ids, np.arange(nrows + 1), side="left")
        return cls._from_splits(values, _splits_from(splits, rowids.dtype), "from_value_rowids",
                                validate)

    @classmethod
    def from_row_starts(cls, values, row_starts, name=None, validate=True):
        """Row `i` starts at `row_starts[i]` and ends where row `i + 1` starts.

        >>> tf.RaggedTensor.from_row_starts([1, 2, 3], row_starts=[0, 2])
        <tf.RaggedTensor [[1, 2], [3]]>
        """
        values = _values_tensor(values)
        starts = _partition_tensor(row_starts, "row_starts")
        if validate and starts.shape[0]:
            _check_equal("from_row_starts", int(starts.numpy()[0]), 0,
                         "row_starts[0] must be 0: the first row starts at the first value.")
        splits = np.concatenate([starts.numpy(), [_nvals(values)]])
        return cls._from_splits(values, _splits_from(splits, starts.dtype), "from_row_starts",
                                validate)

    @classmethod
    def from_row_limits(cls, values, row_limits, name=None, validate=True):
        """Row `i` ends at `row_limits[i]` and starts where row `i - 1` ends.

        >>> tf.RaggedTensor.from_row_limits([1, 2, 3], row_limits=[2, 3])
        <tf.RaggedTensor [[1, 2], [3]]>
        """
        values = _values_tensor(values)
        limits = _partition_tensor(row_limits, "row_limits")
        splits = np.concatenate([[0], limits.numpy()])
        if validate:
            _check_nondecreasing("from_row_limits", "row_limits", limits.numpy(), what=".  ")
        return cls._from_splits(values, _splits_from(splits, limits.dtype), "from_row_limits",
                                validate)

    @classmethod
    def from_uniform_row_length(cls, values, uniform_row_length, nrows=None, validate=True,
                                name=None):
        """Every row holds `uniform_row_length` values: the dimension stays known in `shape`.

        >>> rt = tf.RaggedTensor.from_uniform_row_length([1, 2, 3, 4], 2)
        >>> rt.shape
        TensorShape([2, 2])
        """
        values = _values_tensor(values)
        length = int(convert_to_tensor(uniform_row_length, dtype_hint=dtypes.int64).numpy())
        nvals = _nvals(values)
        if nrows is None:
            nrows = nvals // length if length else 0
        nrows = int(convert_to_tensor(nrows).numpy())
        if validate and nrows * length != nvals:
            raise _invalid("from_uniform_row_length", "", "Condition x == y did not hold.",
                           f"{nrows} rows of {length} need {nrows * length} values, not "
                           f"{nvals}.")
        splits = _splits_from(np.arange(nrows + 1) * length, dtypes.int64)
        return cls._from_splits(values, splits, "from_uniform_row_length", validate,
                                uniform_row_length=length)

    @classmethod
    def from_nested_row_splits(cls, flat_values, nested_row_splits, name=None, validate=True):
        """One `from_row_splits` per partition, innermost last.

        >>> tf.RaggedTensor.from_nested_row_splits([1, 2, 3, 4], [[0, 2, 3], [0, 1, 3, 4]])
        <tf.RaggedTensor [[[1], [2, 3]], [[4]]]>
        """
        if isinstance(nested_row_splits, Tensor):
            raise TypeError("nested_row_splits must be a list of Tensors")
        result = flat_values
        for splits in reversed(list(nested_row_splits)):
            result = cls.from_row_splits(result, splits, validate=validate)
        return result

    @classmethod
    def from_nested_row_lengths(cls, flat_values, nested_row_lengths, name=None, validate=True):
        """One `from_row_lengths` per partition, innermost last.

        >>> tf.RaggedTensor.from_nested_row_lengths([1, 2, 3], [[2, 0], [1, 2]])
        <tf.RaggedTensor [[[1], [2, 3]], []]>
        """
        result = flat_values
        for lengths in reversed(list(nested_row_lengths)):
            result = cls.from_row_lengths(result, lengths, validate=validate)
        return result

    @classmethod
    def from_nested_value_rowids(cls, flat_values, nested_value_rowids, nested_nrows=None,
                                 name=None, validate=True):
        """One `from_value_rowids` per partition, innermost last.

        >>> tf.RaggedTensor.from_nested_value_rowids([1, 2, 3], [[0, 1], [0, 1, 1]])
        <tf.RaggedTensor [[[1]], [[2, 3]]]>
        """
        rowids = list(nested_value_rowids)
        nrows = [None] * len(rowids) if nested_nrows is None else list(nested_nrows)
        result = flat_values
        for ids, n in reversed(list(zip(rowids, nrows))):
            result = cls.from_value_rowids(result, ids, n, validate=validate)
        return result

    @classmethod
    def from_tensor(cls, tensor, lengths=None, padding=None, ragged_rank=1, name=None,
                    row_splits_dtype=dtypes.int64):
        """Rows of a dense tensor, cut short by `lengths` or by trailing `padding`.

        >>> tf.RaggedTensor.from_tensor([[1, 0, 0], [2, 3, 0]], padding=0)
        <tf.RaggedTensor [[1], [2, 3]]>
        """
        from .ragged_conversion_ops import from_tensor
        return from_tensor(tensor, lengths, padding, ragged_rank, row_splits_dtype)

    @classmethod
    def from_sparse(cls, st_input, name=None, row_splits_dtype=dtypes.int64):
        """The rows of a 2-D SparseTensor whose entries are packed to the left.

        >>> st = tf.SparseTensor([[0, 0], [0, 1], [2, 0]], [1, 2, 3], [3, 4])
        >>> tf.RaggedTensor.from_sparse(st)
        <tf.RaggedTensor [[1, 2], [], [3]]>
        """
        from .ragged_conversion_ops import from_sparse
        return from_sparse(st_input, row_splits_dtype)

    # ----- the parts ------------------------------------------------------------------------
    @property
    def values(self):
        """The rows' entries one after another (a RaggedTensor again if nested)."""
        return self._values

    @property
    def row_splits(self):
        """Where each row starts, and the end of the last: `nrows + 1` numbers."""
        return self._row_splits

    @property
    def flat_values(self):
        """The innermost dense tensor of values."""
        values = self._values
        while isinstance(values, RaggedTensor):
            values = values.values
        return values

    @property
    def nested_row_splits(self):
        """The row_splits of every partition, outermost first."""
        result, rt = [], self
        while isinstance(rt, RaggedTensor):
            result.append(rt.row_splits)
            rt = rt.values
        return tuple(result)

    @property
    def ragged_rank(self):
        """How many partitions: 1 for `[[1], [2, 3]]`, 2 for `[[[1]], [[2, 3]]]`."""
        values = self._values
        return 1 + (values.ragged_rank if isinstance(values, RaggedTensor) else 0)

    @property
    def dtype(self):
        return self.flat_values.dtype

    @property
    def row_splits_dtype(self):
        return self._row_splits.dtype

    @property
    def shape(self):
        """`[nrows, None (a ragged dimension), ...]`; a uniform dimension is known."""
        nrows = self._row_splits.shape[0]
        inner = self._values.shape.as_list()[1:] if self._values.shape.rank else []
        return TensorShape([None if nrows is None else nrows - 1, self._uniform_row_length]
                           + inner)

    def get_shape(self):
        return self.shape

    @property
    def _type_spec(self):
        """The tf.RaggedTensorSpec of this value (TF's CompositeTensor._type_spec)."""
        from .ragged_tensor_spec import RaggedTensorSpec
        return RaggedTensorSpec.from_value(self)

    @property
    def ndim(self):
        return self.shape.rank

    def nrows_value(self):
        """The number of rows as a Python int, None if a traced graph does not know it
        (minitf helper)."""
        count = self._row_splits.shape[0]
        return None if count is None else int(count) - 1

    def _splits(self):
        if isinstance(self._row_splits, SymbolicTensor):
            raise ValueError(
                "This use of a RaggedTensor needs the values of its row_splits, which a traced "
                "graph only has when it runs. Inside tf.function and Dataset.map minitf "
                "supports element-wise math, flat_values, row_lengths, nrows, value_rowids, "
                "to_tensor and reductions over axis 1 of such a tensor (ragged_graph.py); "
                "do the rest outside the function.")
        return self._row_splits.numpy()

    def nrows(self, out_type=None, name=None):
        """The number of rows, as a scalar tensor of `row_splits`' dtype."""
        dtype = out_type or self.row_splits_dtype
        if isinstance(self._row_splits, SymbolicTensor):
            return ragged_graph.nrows(self, dtypes.as_dtype(dtype))
        return convert_to_tensor(np.array(self.nrows_value(), dtype.as_numpy_dtype))

    def row_lengths(self, axis=1, name=None):
        """The length of each row (axis=1), or of each row of a deeper partition.

        >>> tf.ragged.constant([[[1], [2, 3]], []]).row_lengths(axis=2)
        <tf.RaggedTensor [[1, 2], []]>
        """
        rank = self.shape.rank
        if not -rank <= axis < rank:
            raise ValueError(f"axis={axis} out of bounds: expected {-rank}<=axis<{rank}")
        axis %= rank
        if axis == 0:
            return self.nrows()
        if axis == 1 and isinstance(self._row_splits, SymbolicTensor):
            return ragged_graph.row_lengths(self)
        if axis == 1:
            return convert_to_tensor(np.diff(self._splits()).astype(
                self.row_splits_dtype.as_numpy_dtype))
        if not isinstance(self._values, RaggedTensor):
            dim = self._values.shape[axis - 1]
            return convert_to_tensor(np.full(self.shape[:axis].num_elements(), dim, np.int64)
                                     .reshape(self.shape[:axis].as_list()))
        return self.with_values(self._values.row_lengths(axis - 1))

    def nested_row_lengths(self, name=None):
        """`row_lengths()` of every partition, outermost first."""
        return tuple(rt.row_lengths() for rt in self._partitions())

    def _partitions(self):
        rt = self
        while isinstance(rt, RaggedTensor):
            yield rt
            rt = rt.values

    def row_starts(self, name=None):
        if isinstance(self._row_splits, SymbolicTensor):
            return self._row_splits[:-1]
        return convert_to_tensor(self._splits()[:-1])

    def row_limits(self, name=None):
        if isinstance(self._row_splits, SymbolicTensor):
            return self._row_splits[1:]
        return convert_to_tensor(self._splits()[1:])

    def value_rowids(self, name=None):
        """The row each value belongs to."""
        if isinstance(self._row_splits, SymbolicTensor):
            return ragged_graph.value_rowids(self)
        lengths = np.diff(self._splits())
        return convert_to_tensor(np.repeat(np.arange(len(lengths)), lengths).astype(
            self.row_splits_dtype.as_numpy_dtype))

    def nested_value_rowids(self, name=None):
        return tuple(rt.value_rowids() for rt in self._partitions())

    @property
    def uniform_row_length(self):
        """The length every row has when this partition is uniform, else None."""
        length = self._uniform_row_length
        return None if length is None else convert_to_tensor(np.int64(length))

    def bounding_shape(self, axis=None, name=None, out_type=None):
        """The smallest dense shape that holds every row.

        >>> tf.ragged.constant([[1, 2], [3], []]).bounding_shape()
        <tf.Tensor: shape=(2,), dtype=int64, numpy=array([3, 2])>
        """
        if ragged_graph.is_traced(self):
            return ragged_graph.bounding_shape(self, axis, out_type or self.row_splits_dtype)
        dims = [self.nrows_value()]
        values = self
        while isinstance(values, RaggedTensor):
            lengths = np.diff(values._splits())
            dims.append(int(lengths.max()) if lengths.size else 0)
            values = values.values
        dims.extend(values.shape.as_list()[1:])
        result = np.array(dims, dtype=(out_type or self.row_splits_dtype).as_numpy_dtype)
        return convert_to_tensor(result if axis is None else result[axis])

    # ----- new tensors with the same rows ---------------------------------------------------
    def with_values(self, new_values):
        """The same row partition around new `values` (same number of rows' entries)."""
        new_values = _values_tensor(new_values)
        if _nvals(new_values) != _nvals(self._values):
            raise ValueError(f"Shapes ({_nvals(self._values)},) and ({_nvals(new_values)},) are "
                             "incompatible (the new values must be as many as the old: the "
                             "row partition stays.)")
        return RaggedTensor(new_values, self._row_splits, internal=True,
                            uniform_row_length=self._uniform_row_length)

    def with_flat_values(self, new_values):
        """The same nested partitions around new `flat_values`.

        >>> rt = tf.ragged.constant([[1, 2], [3]])
        >>> rt.with_flat_values(rt.flat_values * 10)
        <tf.RaggedTensor [[10, 20], [30]]>
        """
        if isinstance(self._values, RaggedTensor):
            return self.with_values(self._values.with_flat_values(new_values))
        return self.with_values(new_values)

    def with_row_splits_dtype(self, dtype):
        """The same tensor with every row_splits cast to int32 or int64."""
        dtype = dtypes.as_dtype(dtype)
        if dtype not in _SPLITS_DTYPES:
            raise ValueError(f"dtype must be int32 or int64, not {dtype.name}")
        values = self._values
        if isinstance(values, RaggedTensor):
            values = values.with_row_splits_dtype(dtype)
        splits = _splits_from(self._splits(), dtype)
        return RaggedTensor(values, splits, internal=True,
                            uniform_row_length=self._uniform_row_length)

    def merge_dims(self, outer_axis, inner_axis):
        """Join axes `outer_axis..inner_axis` into one.

        >>> tf.ragged.constant([[1, 2], [3]]).merge_dims(0, 1)
        <tf.Tensor: shape=(3,), dtype=int32, numpy=array([1, 2, 3], dtype=int32)>
        """
        from .ragged_array_ops import merge_dims
        return merge_dims(self, outer_axis, inner_axis)

    # ----- conversions ----------------------------------------------------------------------
    def to_tensor(self, default_value=None, name=None, shape=None):
        """A dense tensor: rows padded with `default_value` (0) to the longest, or to `shape`.

        >>> tf.ragged.constant([[1, 2], [3]]).to_tensor(default_value=9, shape=[2, 3])
        <tf.Tensor: shape=(2, 3), dtype=int32, numpy=
        array([[1, 2, 9],
               [3, 9, 9]], dtype=int32)>
        """
        from .ragged_conversion_ops import to_tensor
        return to_tensor(self, default_value, shape)

    def to_sparse(self, name=None):
        """A SparseTensor with one entry per value, at its (row, column, ...) position."""
        from .ragged_conversion_ops import to_sparse
        return to_sparse(self)

    def to_list(self):
        """The rows as nested Python lists.

        >>> tf.ragged.constant([[1, 2], [3]]).to_list()
        [[1, 2], [3]]
        """
        from .ragged_print import to_list
        return to_list(self)

    def numpy(self):
        """A NumPy array: an object array of rows when their lengths differ."""
        from .ragged_print import to_numpy
        return to_numpy(self)

    def __repr__(self):
        from .ragged_print import ragged_repr
        return ragged_repr(self)

    __str__ = __repr__

    def __getitem__(self, key):
        from .ragged_getitem import ragged_getitem
        return ragged_getitem(self, key)

    def __bool__(self):
        raise TypeError("RaggedTensor may not be used as a boolean.")

    def __iter__(self):
        return (self[i] for i in range(self.nrows_value()))

    def consumers(self):
        return []


def _refuse_conversion(value, dtype=None):
    raise ValueError(
        f"TypeError: object of type 'RaggedTensor' has no len()\n(A RaggedTensor is not a "
        "Tensor: its rows have different lengths. Use rt.to_tensor() for a padded dense "
        "tensor, or rt.flat_values for the values alone.)")


register_tensor_conversion_function(RaggedTensor, _refuse_conversion)


def is_ragged(value):
    return isinstance(value, RaggedTensor)

