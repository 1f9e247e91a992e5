"""tf.sparse: making, reordering and reshaping SparseTensors.

A SparseTensor's structure (indices, dense_shape) and its values travel apart
here: a structure op works out the new indices and, for each new entry, the
position of the old value it carries; `tf.gather` then moves the values. So
the gradient with respect to the values is gather's, and no op here needs a
gradient of its own.

>>> import minitf as tf
>>> st = tf.SparseTensor([[1, 0], [0, 2]], [1.0, 2.0], [2, 3])   # not in row-major order
>>> tf.sparse.reorder(st).indices.numpy().tolist()
[[0, 2], [1, 0]]
>>> tf.sparse.to_dense(tf.sparse.transpose(tf.sparse.reorder(st))).numpy()
array([[0., 1.],
       [0., 0.],
       [2., 0.]], dtype=float32)

In TensorFlow the kernels SparseReorder and SparseFillEmptyRows return the new
values themselves and have gradient kernels of their own; minitf's return the
positions, and GatherV2 moves the values (same numbers, same gradients).
"""
import numpy as np

from ..framework import dtypes, errors
from ..framework.op import Op, apply
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export
from .sparse_tensor import SparseTensor, check_sparse, row_major_order

_I64 = dtypes.int64


def _gather(values, positions):
    from .gather_ops import gather
    return gather(values, positions)


def _constant(value):
    from .shape_ops import constant_value
    return constant_value(value)


# --- SparseReorder: sort the entries into row-major order -------------------------------------
def _reorder(indices, shape):
    order = row_major_order(indices)
    return indices[order], order.astype(np.int64)


SparseReorder = Op("SparseReorder", _reorder, num_outputs=2, typed=(),
                   shape=lambda i, s: (i, TensorShape([i[0]])), dtype=lambda i, s: (_I64, _I64))


@tf_export("sparse.reorder")
def reorder(sp_input, name=None):
    """The same SparseTensor with its entries in row-major (canonical) order.

    Many sparse ops (to_dense, add, softmax, ...) expect that order.

    >>> st = tf.SparseTensor([[1, 1], [0, 0]], [1.0, 2.0], [2, 3])
    >>> tf.sparse.reorder(st).values.numpy()
    array([2., 1.], dtype=float32)
    """
    sp_input = check_sparse(sp_input)
    indices, order = apply(SparseReorder, [sp_input.indices, sp_input.dense_shape])
    return SparseTensor(indices, _gather(sp_input.values, order), sp_input.dense_shape)


# --- SparseReshape: the same entries at their places in another shape --------------------------
def _reshape_fail(message):
    raise errors.op_error(errors.InvalidArgumentError, "SparseReshape", message,
                          "A reshape keeps the number of dense elements; at most one "
                          "dimension may be -1 (worked out from the others).")


def _dims(shape):
    return "[" + ",".join(str(int(d)) for d in shape) + "]"


def _reshape_target(in_shape, new_shape):
    unknown = [i for i, d in enumerate(new_shape) if d == -1]
    if len(unknown) > 1:
        _reshape_fail(f"only one output dimension may be -1, not both {unknown[0]} and "
                      f"{unknown[1]}")
    total = int(np.prod(in_shape, dtype=np.int64))
    known = int(np.prod([d for d in new_shape if d != -1], dtype=np.int64))
    shown = _dims([1 if d == -1 else d for d in new_shape])
    out = np.array(new_shape, np.int64)
    if unknown:
        if known == 0 or total % known:
            _reshape_fail(f"Input to reshape is a SparseTensor with {total} dense values, but "
                          f"the requested shape requires a multiple of {known}. input_shape="
                          f"{_dims(in_shape)} output_shape={shown}")
        out[unknown[0]] = total // known
    elif known != total:
        _reshape_fail(f"Input to reshape is a tensor with {total} dense values, but the "
                      f"requested shape has {known}. input_shape={_dims(in_shape)} "
                      f"output_shape={shown}")
    return out


def _sparse_reshape(indices, in_shape, new_shape):
    out_shape = _reshape_target(in_shape, new_shape)
    flat = np.zeros(indices.shape[0], np.int64)
    for axis, size in enumerate(in_shape):  # the row-major position of each entry
        flat = flat * int(size) + indices[:, axis]
    out = np.zeros((indices.shape[0], out_shape.size), np.int64)
    for axis in range(out_shape.size - 1, -1, -1):
        out[:, axis] = flat % out_shape[axis] if out_shape[axis] else 0
        flat = flat // out_shape[axis] if out_shape[axis] else flat
    return out, out_shape


SparseReshape = Op("SparseReshape", _sparse_reshape, num_outputs=2, typed=(),
                   shape=lambda i, s, n: (TensorShape([i[0], n[0]]), n),
                   dtype=lambda i, s, n: (_I64, _I64))


@tf_export("sparse.reshape")
def reshape(sp_input, shape, name=None):
    """The same entries in a dense shape of the same size (`-1` in one place is worked out).

    >>> st = tf.SparseTensor([[0, 0], [1, 2]], [1, 2], [2, 3])
    >>> tf.sparse.reshape(st, [3, -1]).indices.numpy().tolist()
    [[0, 0], [2, 1]]
    """
    sp_input = check_sparse(sp_input)
    indices, dense_shape = apply(SparseReshape, [sp_input.indices, sp_input.dense_shape,
                                                 convert_to_tensor(shape, dtype=_I64)])
    return SparseTensor(indices, sp_input.values, dense_shape)


# --- shape changes that move no entry ----------------------------------------------------------
def _same_length(n, m):
    if n is not None and m is not None and n != m:
        raise ValueError(f"Dimensions {n} and {m} are not compatible")


@tf_export("sparse.reset_shape")
def reset_shape(sp_input, new_shape=None):
    """The same entries with a larger `new_shape`, or with the tightest shape (None).

    >>> st = tf.SparseTensor([[0, 1], [1, 0]], [1, 2], [5, 6])
    >>> tf.sparse.reset_shape(st).dense_shape.numpy()
    array([2, 2])
    """
    from .math_ops import maximum
    from .reduction_ops import reduce_max
    sp_input = check_sparse(sp_input)
    if new_shape is None:  # 0 for every dimension when there are no entries, as in TF
        tightest = maximum(reduce_max(sp_input.indices, axis=0) + 1, 0)
        return SparseTensor(sp_input.indices, sp_input.values, tightest)
    new_shape = convert_to_tensor(new_shape, dtype=_I64)
    if new_shape.shape.rank != 1:
        raise ValueError(f"Shape {new_shape.shape} must have rank 1")
    _same_length(new_shape.shape[0], sp_input.dense_shape.shape[0])
    wanted, old = _constant(new_shape), _constant(sp_input.dense_shape)
    if wanted is not None and old is not None and np.any(wanted < old):
        raise ValueError(
            "Requested new_shape should have dimension sizes >= sp_input.shape.  Found "
            f"new_shape ({old}), sp_input.shape ({wanted}). (TensorFlow's message swaps the "
            "two: the second is the requested shape, which must not be smaller.)")
    return SparseTensor(sp_input.indices, sp_input.values, new_shape)


@tf_export("sparse.expand_dims")
def expand_dims(sp_input, axis=None, name=None):
    """A new dimension of size 1 at `axis` (default -1, the end); every index gets a 0 there.

    >>> st = tf.SparseTensor([[0, 2]], [7], [2, 3])
    >>> tf.sparse.expand_dims(st, 0).dense_shape.numpy()
    array([1, 2, 3])
    """
    from .array_ops import concat
    from .creation_ops import zeros
    sp_input = check_sparse(sp_input)
    rank = sp_input.dense_shape.shape[0]
    axis = -1 if axis is None else int(axis)
    where = axis + rank + 1 if axis < 0 else axis
    if not 0 <= where <= rank:
        raise errors.InvalidArgumentError(
            None, "Slice", f"Expected size[1] in [0, {rank}], but got {where} [Op:Slice] "
            f"(axis must lie in [-{rank + 1}, {rank}] for a SparseTensor of rank {rank}.)")
    indices, shape = sp_input.indices, sp_input.dense_shape
    column = indices[:, :1] * 0  # one 0 per entry (indices has at least one column)
    if rank == 0:
        column = zeros([indices.shape[0] or 0, 1], dtype=_I64)
    new_indices = concat([indices[:, :where], column, indices[:, where:]], axis=1)
    new_shape = concat([shape[:where], convert_to_tensor([1], dtype=_I64), shape[where:]], 0)
    return SparseTensor(new_indices, sp_input.values, new_shape)


@tf_export("sparse.transpose")
def transpose(sp_input, perm=None, name=None):
    """Axes permuted (`perm`, default reversed), entries re-sorted into row-major order.

    >>> st = tf.SparseTensor([[0, 2], [1, 0]], [1, 2], [2, 3])
    >>> tf.sparse.transpose(st).indices.numpy().tolist()
    [[0, 1], [2, 0]]
    """
    from .gather_ops import gather
    sp_input = check_sparse(sp_input)
    if perm is None:
        rank = sp_input.dense_shape.shape[0]
        perm = list(builtins_range(rank - 1, -1, -1))
    perm = convert_to_tensor(perm, dtype=_I64)
    indices = gather(sp_input.indices, perm, axis=1)
    shape = gather(sp_input.dense_shape, perm)
    return reorder(SparseTensor(indices, sp_input.values, shape))


builtins_range = range


# --- making SparseTensors ---------------------------------------------------------------------
@tf_export("sparse.from_dense")
def from_dense(tensor, name=None):
    """The entries of `tensor` that are not zero (not b"" for strings), in row-major order.

    >>> tf.sparse.from_dense([[0, 5], [6, 0]]).indices.numpy().tolist()
    [[0, 1], [1, 0]]
    """
    from .gather_ops import gather_nd, where
    from .math_ops import not_equal
    from .shape_ops import shape as shape_of
    tensor = convert_to_tensor(tensor)
    if tensor.shape.rank == 0:
        raise errors.InvalidArgumentError(
            None, "Where", "WhereOp : Unhandled input dimensions: 0 [Op:Where] A scalar has "
            "no positions: from_dense needs a tensor of rank >= 1.")
    zero = {dtypes.string: b"", dtypes.bool: False}.get(tensor.dtype, 0)
    zero = convert_to_tensor(zero, dtype=tensor.dtype)
    indices = where(not_equal(tensor, zero))
    return SparseTensor(indices, gather_nd(tensor, indices), shape_of(tensor, out_type=_I64))


@tf_export("sparse.eye")
def eye(num_rows, num_columns=None, dtype=dtypes.float32, name=None):
    """A [num_rows, num_columns] SparseTensor with ones on the main diagonal.

    >>> tf.sparse.to_dense(tf.sparse.eye(2, 3, dtype=tf.int32)).numpy()
    array([[1, 0, 0],
           [0, 1, 0]], dtype=int32)
    """
    from .array_ops import stack
    from .creation_ops import ones, range as tf_range
    from .math_ops import minimum
    rows = convert_to_tensor(num_rows, dtype=_I64)
    columns = rows if num_columns is None else convert_to_tensor(num_columns, dtype=_I64)
    size = minimum(rows, columns)
    diagonal = tf_range(size, dtype=_I64)
    return SparseTensor(stack([diagonal, diagonal], axis=1),
                        ones(stack([size]), dtype=dtypes.as_dtype(dtype)), stack([rows, columns]))


@tf_export("sparse.retain")
def retain(sp_input, to_retain):
    """Only the entries whose flag in the bool vector `to_retain` is True.

    >>> st = tf.SparseTensor([[0, 0], [1, 1], [2, 2]], [1, 2, 3], [3, 3])
    >>> tf.sparse.retain(st, [True, False, True]).values.numpy()
    array([1, 3], dtype=int32)
    """
    from .array_ops import reshape as dense_reshape
    from .gather_ops import gather, where
    sp_input = check_sparse(sp_input)
    to_retain = convert_to_tensor(to_retain)
    if to_retain.shape.rank != 1:
        raise ValueError(f"Shape {to_retain.shape} must have rank 1")
    _same_length(sp_input.values.shape[0], to_retain.shape[0])
    kept = dense_reshape(where(to_retain), [-1])
    return SparseTensor(gather(sp_input.indices, kept), gather(sp_input.values, kept),
                        sp_input.dense_shape)


@tf_export("sparse.to_indicator")
def to_indicator(sp_input, vocab_size, name=None):
    """A dense bool tensor [..., vocab_size]: True at [..., v] when the row's ids include v.

    The values of `sp_input` are ids below `vocab_size` (cast to int64); its last
    dimension only counts the ids of a row.

    >>> st = tf.SparseTensor([[0, 0], [0, 1], [1, 0]], [0, 3, 1], [2, 2])
    >>> tf.sparse.to_indicator(st, 4).numpy()
    array([[ True, False, False,  True],
           [False,  True, False, False]])
    """
    from .array_ops import concat
    from .math_ops import cast
    from .sparse_tensor import to_dense
    sp_input = check_sparse(sp_input)
    ids = cast(sp_input.values, _I64)[:, None]
    indices = concat([sp_input.indices[:, :-1], ids], axis=1)
    shape = concat([sp_input.dense_shape[:-1],
                    convert_to_tensor(vocab_size, dtype=_I64)[None]], axis=0)
    from .creation_ops import ones_like
    flags = SparseTensor(indices, ones_like(sp_input.values, dtype=dtypes.bool), shape)
    return to_dense(reorder(flags), default_value=False, validate_indices=False)


# --- SparseFillEmptyRows: one default entry in every row that has none ------------------------
def _fill_empty_rows(indices, shape):
    rows = int(shape[0])
    present = np.zeros(rows, bool)
    present[indices[:, 0]] = True
    empty = np.flatnonzero(~present)
    added = np.zeros((empty.size, indices.shape[1]), np.int64)
    added[:, 0] = empty
    every = np.concatenate([indices, added])
    order = np.argsort(every[:, 0], kind="stable")  # by row; a row's entries keep their order
    source = np.concatenate([np.arange(indices.shape[0]), np.full(empty.size, indices.shape[0])])
    return every[order], source[order].astype(np.int64), ~present


SparseFillEmptyRows = Op(
    "SparseFillEmptyRows", _fill_empty_rows, num_outputs=3, typed=(),
    shape=lambda i, s: (TensorShape([None, i[1]]), TensorShape([None]), TensorShape([None])),
    dtype=lambda i, s: (_I64, _I64, dtypes.bool))


@tf_export("sparse.fill_empty_rows")
def fill_empty_rows(sp_input, default_value, name=None):
    """(sp_output, empty_row_indicator): each empty row i gains `default_value` at [i, 0, ...].

    >>> st = tf.SparseTensor([[1, 0]], [5.0], [3, 2])
    >>> out, empty = tf.sparse.fill_empty_rows(st, -1.0)
    >>> out.values.numpy(), empty.numpy()
    (array([-1.,  5., -1.], dtype=float32), array([ True, False,  True]))
    """
    from .array_ops import concat
    sp_input = check_sparse(sp_input)
    default_value = convert_to_tensor(default_value, dtype=sp_input.dtype)
    if default_value.shape.rank != 0:
        raise ValueError(f"Shape {default_value.shape} must have rank 0")
    indices, source, empty = apply(SparseFillEmptyRows, [sp_input.indices,
                                                         sp_input.dense_shape])
    values = _gather(concat([sp_input.values, default_value[None]], axis=0), source)
    return SparseTensor(indices, values, sp_input.dense_shape), empty


# --- map_values and mask ---------------------------------------------------------------------
def _sparse_arguments(args, kwargs):
    return [v for v in list(args) + list(kwargs.values()) if isinstance(v, SparseTensor)]


def _same_structure(first, other):
    """TF's check that two SparseTensors share indices and dense_shape (eager values only)."""
    pairs = (("indices", first.indices, other.indices),
             ("dense_shapes", first.dense_shape, other.dense_shape))
    for what, x, y in pairs:
        if not hasattr(x, "numpy") or not hasattr(y, "numpy"):
            continue  # symbolic: TF checks when the graph runs
        a, b = x.numpy(), y.numpy()
        if a.shape != b.shape or not np.array_equal(a, b):
            raise errors.InvalidArgumentError(
                None, "assert_equal", f"Mismatched {what}! map_values applies `op` to the "
                "values of SparseTensors that store their entries at the same indices.")


@tf_export("sparse.map_values")
def map_values(op, *args, **kwargs):
    """`op` applied to the values of the SparseTensor arguments; the indices stay.

    Every SparseTensor argument must have the same indices and dense_shape;
    other arguments are passed to `op` as they are.

    >>> st = tf.SparseTensor([[0, 1], [1, 0]], [1.0, 4.0], [2, 2])
    >>> tf.sparse.map_values(tf.math.add, st, 10.0).values.numpy()
    array([11., 14.], dtype=float32)
    """
    sparse = _sparse_arguments(args, kwargs)
    if not sparse:
        raise ValueError("No SparseTensor in argument list of map_values")
    for other in sparse[1:]:
        _same_structure(sparse[0], other)

    def unwrap(v):
        return v.values if isinstance(v, SparseTensor) else v
    values = op(*[unwrap(a) for a in args], **{k: unwrap(v) for k, v in kwargs.items()})
    return SparseTensor(sparse[0].indices, values, sparse[0].dense_shape)


def _list_diff(x, y):
    keep = ~np.isin(x, y)
    return x[keep], np.flatnonzero(keep).astype(np.int32)


ListDiff = Op("ListDiff", _list_diff, num_outputs=2,
              shape=lambda x, y: (TensorShape([None]), TensorShape([None])),
              dtype=lambda x, y: (x, dtypes.int32))


@tf_export("sparse.mask")
def mask(a, mask_indices, name=None):
    """The rows of the IndexedSlices `a` whose index is not in `mask_indices`.

    >>> a = tf.IndexedSlices(tf.constant([[1., 2.], [3., 4.], [5., 6.]]), tf.constant([12, 26, 37]),
    ...                      tf.constant([40, 2]))
    >>> tf.sparse.mask(a, [12, 37]).indices.numpy()
    array([26], dtype=int32)
    """
    from .indexed_slices import IndexedSlices
    if not isinstance(a, IndexedSlices):
        raise TypeError(f"tf.sparse.mask works on an IndexedSlices, not {type(a).__name__}.")
    mask_indices = convert_to_tensor(mask_indices, dtype=a.indices.dtype)
    out_indices, to_gather = apply(ListDiff, [a.indices, mask_indices])
    return IndexedSlices(_gather(a.values, to_gather), out_indices, a.dense_shape)
