"""Embeddings in `tf.nn`: embedding_lookup, embedding_lookup_sparse and
safe_embedding_lookup_sparse.

An embedding is a table with one row (a vector) per id; looking ids up is a gather,
so the gradient of the table is the upstream gradient scattered back to the rows
that were read (an IndexedSlices in TF, a dense tensor here).

>>> import minitf as tf
>>> table = tf.constant([[0.0, 1.0], [2.0, 3.0], [4.0, 5.0]])
>>> tf.nn.embedding_lookup(table, [[2], [0]]).numpy()
array([[[4., 5.]],
<BLANKLINE>
       [[0., 1.]]], dtype=float32)

The sparse versions read a bag of ids per example (a SparseTensor: row i holds the
ids of example i, with optional weights) and combine each bag's vectors into one:
their weighted sum, mean, or sum / sqrt(sum of squared weights).
All three are compositions of tensor ops written as TF writes them.
"""
from ..framework import dtypes
from ..framework.tensor import convert_to_tensor
from ..framework.tf_export import tf_export
from .array_ops import concat, reshape
from .clip_ops import clip_by_norm, divide_no_nan
from .creation_ops import range as range_, zeros_like
from .gather_ops import boolean_mask, gather
from .math_ops import (cast, equal, floordiv, floormod, greater, greater_equal, less,
                       logical_not, where)
from .reduction_ops import reduce_any, reduce_prod
from .scatter_ops import segment_sum
from .shape_ops import shape as shape_of
from .sort_ops import argsort, unique
from .sparse_tensor import SparseTensor
from .unary_ops import sqrt, square

_COMBINERS = ("mean", "sqrtn", "sum")


# --- embedding_lookup ----------------------------------------------------------------------
def _as_params_list(params):
    if isinstance(params, (list, tuple)):
        params = list(params)
    else:
        params = [params]
    if not params:
        raise ValueError("Length of params is currently 0. Need at least one param.")
    return [p if getattr(p, "_is_variable", False) else convert_to_tensor(p) for p in params]


def _clip(rows, ids, max_norm):
    """TF's max_norm: each looked-up embedding (the axes after the id axes) is clipped."""
    if max_norm is None:
        return rows
    axes = list(range(ids.shape.rank, rows.shape.rank))
    return clip_by_norm(rows, max_norm, axes=axes)


def _div_lookup(params, ids):
    """TF's "div" partitioning: ids 0..N-1 are split into len(params) contiguous blocks,
    the first N % len(params) blocks one id longer."""
    count = len(params)
    total = sum(int(p.shape[0]) for p in params)
    per_part, extras = total // count, total % count
    ids = cast(ids, dtypes.int64)
    part = where(less(ids, extras * (per_part + 1)), floordiv(ids, per_part + 1),
                 floordiv(ids - extras, max(per_part, 1)))
    local = where(less(part, extras), floormod(ids, per_part + 1),
                  floormod(ids - extras, max(per_part, 1)))
    result = None
    for i, table in enumerate(params):
        mine = equal(part, i)
        rows = gather(table, where(mine, local, zeros_like(local)))
        mask = mine
        for _ in range(table.shape.rank - 1):  # one flag per id, broadcast along its row
            mask = mask[..., None]
        picked = where(mask, rows, zeros_like(rows))
        result = picked if result is None else result + picked
    return result


@tf_export("nn.embedding_lookup")
def embedding_lookup(params, ids, max_norm=None, name=None):
    """params[ids]: the rows of the table at `ids`, shape ids.shape + params.shape[1:].

    params may be a list of tables (a table split by rows, TF's "div" strategy:
    contiguous blocks, the first ones one row longer). With max_norm, each
    embedding whose L2 norm exceeds it is scaled down to that norm.

    >>> table = tf.constant([[3.0, 4.0], [0.6, 0.8]])   # (a Python list would be a list
    >>> tf.nn.embedding_lookup(table, [0, 1], max_norm=1.0).numpy()   # of tables)
    array([[0.6, 0.8],
           [0.6, 0.8]], dtype=float32)
    """
    params = _as_params_list(params)
    ids = convert_to_tensor(ids)
    if len(params) == 1:
        rows = gather(params[0], ids)
    else:
        rows = _div_lookup(params, ids)
    return _clip(rows, ids, max_norm)


# --- embedding_lookup_sparse --------------------------------------------------------------------
def _combine(embeddings, segment_ids, weights, combiner):
    """Each segment's weighted sum, mean or sqrt-n combination (empty segments: 0; the
    result ends at the last segment id, as segment_sum's does)."""
    if weights is None:
        weights = cast(0 * segment_ids + 1, embeddings.dtype)
    weights = reshape(weights, [-1] + [1] * (embeddings.shape.rank - 1))
    summed = segment_sum(embeddings * weights, segment_ids)
    if combiner == "sum":
        return summed
    if combiner == "mean":
        return divide_no_nan(summed, segment_sum(weights, segment_ids))
    return divide_no_nan(summed, sqrt(segment_sum(square(weights), segment_ids)))


@tf_export("nn.embedding_lookup_sparse")
def embedding_lookup_sparse(params, sp_ids, sp_weights, combiner=None, max_norm=None,
                            name=None, allow_fast_lookup=False):
    """One combined embedding per row of the SparseTensor `sp_ids` ([batch, bag] ids).

    combiner: "mean" (default; weighted by sp_weights if given), "sum" or "sqrtn"
    (sum / sqrt(sum of squared weights)). As in TF the result has one row per id
    row up to the last row that holds an id (trailing empty rows are left out;
    empty rows between give zeros). allow_fast_lookup changes only TF's speed.

    >>> ids = tf.SparseTensor([[0, 0], [0, 1], [1, 0]], tf.constant([0, 2, 0], tf.int64),
    ...                       [2, 2])
    >>> table = tf.constant([[1.0], [5.0], [3.0]])
    >>> tf.nn.embedding_lookup_sparse(table, ids, None, combiner="sum").numpy()
    array([[4.],
           [1.]], dtype=float32)
    """
    if combiner is None:
        combiner = "mean"
    if combiner not in _COMBINERS:
        raise ValueError(f"combiner must be one of 'mean', 'sqrtn' or 'sum', got {combiner}")
    if not isinstance(sp_ids, SparseTensor):
        raise TypeError(f"sp_ids must be SparseTensor, got {type(sp_ids)}")
    if sp_weights is not None and not isinstance(sp_weights, SparseTensor):
        raise TypeError(f"sp_weights must be either None or SparseTensor,got {type(sp_weights)}")
    params = _as_params_list(params)
    segment_ids = cast(sp_ids.indices[:, 0], dtypes.int32)
    ids, idx = unique(sp_ids.values)
    embeddings = gather(embedding_lookup(params, ids, max_norm=max_norm), idx)
    original_dtype = embeddings.dtype
    if original_dtype is dtypes.float16:
        embeddings = cast(embeddings, dtypes.float32)
    weights = None
    if sp_weights is not None:
        weights = sp_weights.values
        weights = weights if weights.dtype is embeddings.dtype else cast(weights,
                                                                         embeddings.dtype)
    result = _combine(embeddings, segment_ids, weights, combiner)
    return result if result.dtype is original_dtype else cast(result, original_dtype)


# --- safe_embedding_lookup_sparse --------------------------------------------------------------
def _to_rows(sparse):
    """[d0, ..., dn-1, bag] ids as [d0 * ... * dn-1, bag]: each leading index becomes a row."""
    indices, shape = sparse.indices, sparse.dense_shape
    rank = shape.shape[0]
    row = indices[:, 0]
    for axis in range(1, rank - 1):
        row = row * shape[axis] + indices[:, axis]
    rows = reduce_prod(shape[:rank - 1])
    return row, indices[:, rank - 1], sparse.values, rows


def _fill_empty_rows(row, column, values, weights, rows, default_id):
    """Give each row without ids one id (default_id, weight 1), as sparse_fill_empty_rows."""
    every_row = range_(rows, dtype=dtypes.int64)
    empty = logical_not(reduce_any(equal(every_row[:, None], row[None, :]), axis=1))
    missing = boolean_mask(every_row, empty)
    row = concat([row, missing], 0)
    column = concat([column, 0 * missing], 0)
    values = concat([values, cast(0 * missing + default_id, values.dtype)], 0)
    if weights is not None:
        weights = concat([weights, cast(0 * missing + 1, weights.dtype)], 0)
    order = argsort(row, stable=True)     # back to row-major order, as segment_sum needs
    row, column, values = gather(row, order), gather(column, order), gather(values, order)
    weights = None if weights is None else gather(weights, order)
    return row, column, values, weights, empty


@tf_export("nn.safe_embedding_lookup_sparse")
def safe_embedding_lookup_sparse(embedding_weights, sparse_ids, sparse_weights=None,
                                 combiner="mean", default_id=None, max_norm=None, name=None,
                                 allow_fast_lookup=False):
    """embedding_lookup_sparse made safe for real data: ids < 0 are dropped (and, unless
    combiner="sum", entries with weight <= 0); an example with no id left gets the
    embedding of default_id, or zeros if default_id is None; ids of any rank
    [d0, ..., dn-1, bag] give a [d0, ..., dn-1, dim] result.

    >>> ids = tf.SparseTensor([[0, 0], [2, 0]], tf.constant([1, -1], tf.int64), [3, 1])
    >>> tf.nn.safe_embedding_lookup_sparse(tf.constant([[1.0], [5.0]]), ids).numpy()
    array([[5.],
           [0.],
           [0.]], dtype=float32)
    """
    if embedding_weights is None:
        raise ValueError(f"Missing embedding_weights {embedding_weights}.")
    params = embedding_weights if isinstance(embedding_weights, (list, tuple)) \
        else [embedding_weights]
    if not params:
        raise ValueError(f"Missing embedding_weights {embedding_weights}.")
    if sparse_weights is not None:
        params = [p if getattr(p, "_is_variable", False) and p.dtype is sparse_weights.dtype
                  else convert_to_tensor(p, dtype=sparse_weights.dtype) for p in params]
    row, column, values, rows = _to_rows(sparse_ids)
    weights = None if sparse_weights is None else sparse_weights.values
    keep = greater_equal(values, 0)
    if combiner != "sum" and weights is not None:
        keep = keep & greater(weights, 0)
    row, column, values = (boolean_mask(t, keep) for t in (row, column, values))
    weights = None if weights is None else boolean_mask(weights, keep)
    row, column, values, weights, empty = _fill_empty_rows(row, column, values, weights, rows,
                                                           default_id or 0)
    indices = concat([row[:, None], column[:, None]], 1)
    dense_shape = concat([rows[None], sparse_ids.dense_shape[-1:]], 0)
    result = embedding_lookup_sparse(
        params, SparseTensor(indices, values, dense_shape),
        None if weights is None else SparseTensor(indices, weights, dense_shape),
        combiner=combiner, max_norm=max_norm)
    if default_id is None:
        result = where(reshape(empty, [-1, 1]), zeros_like(result), result)
    leading = cast(sparse_ids.dense_shape[:-1], dtypes.int32)
    return reshape(result, concat([leading, shape_of(result)[1:]], 0))
