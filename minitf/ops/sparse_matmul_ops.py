"""tf.sparse products and counts: sparse_dense_matmul, sampled_addmm, segment_sum/mean/
sqrt_n, bincount, cross and cross_hashed.

>>> import minitf as tf
>>> a = tf.SparseTensor([[0, 0], [1, 2]], [2.0, 3.0], [2, 3])
>>> tf.sparse.sparse_dense_matmul(a, tf.ones([3, 2])).numpy()
array([[2., 2.],
       [3., 3.]], dtype=float32)

`sparse_dense_matmul` touches only the stored entries: row i of the result
sums values[k] * b[column_k] over the entries k of row i. Its gradient with
respect to the values reads dy at each entry's row and b at its column; with
respect to b it is one more sparse_dense_matmul, with A transposed.
"""
import numpy as np

from ..framework import dtypes, errors
from ..framework.op import Op, apply
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export
from .sparse_tensor import SparseTensor, check_sparse

_I64 = dtypes.int64


def _fail(op_name, message, hint):
    raise errors.op_error(errors.InvalidArgumentError, op_name, message, hint)


# --- SparseTensorDenseMatMul --------------------------------------------------------------
def _matmul(indices, values, shape, b, adjoint_a=False, adjoint_b=False):
    if shape.size != 2 or b.ndim != 2:
        _fail("SparseTensorDenseMatMul", f"Tensor 'a_shape' is not a vector of length 2 and "
              f"'b' not a matrix: got shapes {shape.tolist()} and {list(b.shape)}",
              "sparse_dense_matmul multiplies matrices (rank 2).")
    rows, cols = (indices[:, 1], indices[:, 0]) if adjoint_a else (indices[:, 0], indices[:, 1])
    values = np.conj(values) if adjoint_a else values
    b = np.conj(b.T) if adjoint_b else b
    outer, inner = (shape[::-1] if adjoint_a else shape).tolist()
    if inner != b.shape[0]:
        _fail("SparseTensorDenseMatMul", "Cannot multiply A and B because inner dimension "
              f"does not match: {inner} vs. {b.shape[0]}.  Did you forget a transpose?  "
              f"Dimensions of A: [{outer}, {inner}).  Dimensions of B: "
              f"[{','.join(map(str, b.shape))}]", "A's columns must match B's rows "
              "(adjoint_a/adjoint_b transpose them).")
    out = np.zeros((outer, b.shape[1]), b.dtype)
    np.add.at(out, rows, values[:, None] * b[cols])
    return out


def _matmul_shape(i, v, s, b, adjoint_a=False, adjoint_b=False):
    return TensorShape([None, b[0] if adjoint_b else b[1]])


SparseTensorDenseMatMul = Op("SparseTensorDenseMatMul", _matmul, typed=(1, 3),
                             shape=_matmul_shape)


@SparseTensorDenseMatMul.def_grad
def _matmul_grad(op, dy):
    """d values[k] = <dy[row_k], B'[col_k]>; d B' = A'^T dy (TF's _SparseTensorDenseMatMulGrad;
    real dtypes)."""
    from .array_ops import transpose
    from .gather_ops import gather
    from .reduction_ops import reduce_sum
    indices, values, shape, b = op.inputs
    adjoint_a, adjoint_b = op.attrs["adjoint_a"], op.attrs["adjoint_b"]
    rows, cols = indices[:, 0], indices[:, 1]
    if adjoint_a:
        rows, cols = cols, rows
    b_used = transpose(b) if adjoint_b else b
    d_values = reduce_sum(gather(dy, rows) * gather(b_used, cols), axis=1)
    d_b_used = apply(SparseTensorDenseMatMul, [indices, values, shape, dy],
                     {"adjoint_a": not adjoint_a, "adjoint_b": False})
    return None, d_values, None, transpose(d_b_used) if adjoint_b else d_b_used


@tf_export("sparse.sparse_dense_matmul")
def sparse_dense_matmul(sp_a, b, adjoint_a=False, adjoint_b=False, name=None):
    """The matrix product of a SparseTensor and a dense matrix (either may come first).

    adjoint_a / adjoint_b use the (conjugate) transpose of that operand.

    >>> a = tf.SparseTensor([[0, 1]], [2.0], [2, 2])
    >>> tf.sparse.sparse_dense_matmul(tf.constant([[1.0, 3.0]]), a).numpy()
    array([[0., 2.]], dtype=float32)
    """
    from .array_ops import transpose
    if isinstance(b, SparseTensor) and not isinstance(sp_a, SparseTensor):
        # dense @ sparse = (sparse^T @ dense^T)^T
        return transpose(sparse_dense_matmul(b, sp_a, adjoint_a=not adjoint_b,
                                             adjoint_b=not adjoint_a))
    sp_a = check_sparse(sp_a, "sp_a")
    b = convert_to_tensor(b) if hasattr(b, "_dtype") else convert_to_tensor(b, sp_a.dtype)
    return apply(SparseTensorDenseMatMul, [sp_a.indices, sp_a.values, sp_a.dense_shape, b],
                 {"adjoint_a": bool(adjoint_a), "adjoint_b": bool(adjoint_b)})


@tf_export("sparse.sampled_addmm")
def sampled_addmm(indices, values, dense_shape, mat1, mat2, beta=1.0, alpha=1.0,
                  output_type=dtypes.float32):
    """(indices, alpha * (mat1 @ mat2)[indices] + beta * values, dense_shape): the product
    computed where the sparse pattern has entries.

    >>> _, values, _ = tf.sparse.sampled_addmm([[0, 0], [1, 1]], [1.0, 2.0], [2, 2],
    ...                                        tf.ones([2, 3]), tf.ones([3, 2]))
    >>> values.numpy()
    array([4., 5.], dtype=float32)
    """
    from .gather_ops import gather_nd
    from .linalg_ops import matmul
    indices = convert_to_tensor(indices)
    values = convert_to_tensor(values, dtype=output_type)
    dense_shape = convert_to_tensor(dense_shape, dtype=dtypes.int32)
    mat1 = convert_to_tensor(mat1, dtype=output_type)
    mat2 = convert_to_tensor(mat2, dtype=output_type)
    output_shape = [mat1.shape[-2], mat2.shape[-1]]
    if hasattr(dense_shape, "numpy") and dense_shape.numpy().tolist()[-2:] != output_shape:
        raise ValueError(f"Dense shape: {dense_shape}, does not match output shape: "
                         f"{convert_to_tensor(output_shape, dtype=dtypes.int32)}")
    dense = matmul(mat1, mat2)
    dense_values = gather_nd(dense, indices, batch_dims=indices.shape.rank - 2)
    return indices, alpha * dense_values + beta * values, dense_shape


# --- SparseSegmentSum / Mean / SqrtN: segment reductions of the rows data[indices] -------------
_FLOATS = {dtypes.bfloat16, dtypes.float16, dtypes.float32, dtypes.float64} \
    if hasattr(dtypes, "bfloat16") else {dtypes.float16, dtypes.float32, dtypes.float64}


def _segment_scale(kind, segment_ids, count):
    sizes = np.bincount(segment_ids, minlength=count).astype(np.float64)
    if kind == "sum":
        return np.ones(count)
    safe = np.maximum(sizes, 1)
    return 1.0 / safe if kind == "mean" else 1.0 / np.sqrt(safe)


def _segment_forward(data, indices, segment_ids, kind, op_name, num_segments=None):
    if np.any(np.diff(segment_ids) < 0):
        _fail(op_name, "segment ids are not increasing", "segment_ids must be sorted: one "
              "id per index, in increasing order (use tf.math.unsorted_segment_* if not).")
    for i, index in enumerate(indices.tolist()):
        if not 0 <= index < data.shape[0]:
            _fail(op_name, f"Bad: indices[{i}] == {index} out of range [0, {data.shape[0]})",
                  "indices pick rows of data.")
    count = num_segments if num_segments is not None else \
        (int(segment_ids[-1]) + 1 if segment_ids.size else 0)
    out = np.zeros((count,) + data.shape[1:], data.dtype)
    np.add.at(out, segment_ids, data[indices])
    if kind != "sum":
        scale = _segment_scale(kind, segment_ids, count).astype(data.dtype)
        out = out * scale.reshape((-1,) + (1,) * (data.ndim - 1))
    return out


def _segment_op(kind, name, allowed):
    op = Op(name, lambda d, i, s, num_segments=None: _segment_forward(
        d, i, s, kind, name, num_segments), typed=(0,), dtypes=allowed,
        shape=lambda d, i, s, num_segments=None: TensorShape([num_segments]).concatenate(d[1:])
        if d.rank is not None else TensorShape(None))

    @op.def_grad
    def _grad(op, dy):
        """Each picked row fed its segment's output, scaled by 1, 1/n or 1/sqrt(n)."""
        from .array_ops import reshape
        from .gather_ops import gather
        from .scatter_ops import unsorted_segment_sum
        data, indices, segment_ids = op.inputs
        rows = gather(dy, segment_ids)
        if kind != "sum":  # n for each picked row: how many ids equal its own (graphs too)
            from .math_ops import cast, equal
            from .reduction_ops import reduce_sum
            from .unary_ops import sqrt
            same = cast(equal(segment_ids[:, None], segment_ids[None, :]), data.dtype)
            sizes = reduce_sum(same, axis=1)
            factor = 1 / (sizes if kind == "mean" else sqrt(sizes))
            rows = rows * reshape(factor, [-1] + [1] * (data.shape.rank - 1))
        return unsorted_segment_sum(rows, indices, data.shape[0]), None, None
    return op


SparseSegmentSum = _segment_op("sum", "SparseSegmentSum", None)
SparseSegmentMean = _segment_op("mean", "SparseSegmentMean", _FLOATS)
SparseSegmentSqrtN = _segment_op("sqrt_n", "SparseSegmentSqrtN", _FLOATS)


def _segment_call(op, data, indices, segment_ids, num_segments):
    data = convert_to_tensor(data)
    attrs = {} if num_segments is None else {"num_segments": int(num_segments)}
    return apply(op, [data, convert_to_tensor(indices), convert_to_tensor(segment_ids)], attrs)


@tf_export("sparse.segment_sum")
def segment_sum(data, indices, segment_ids, num_segments=None, name=None,
                sparse_gradient=False):
    """output[s] = sum of data[indices[i]] over the i with segment_ids[i] == s (ids sorted).

    >>> tf.sparse.segment_sum(tf.constant([[1, 2], [3, 4], [5, 6]]), [0, 2], [0, 0]).numpy()
    array([[6, 8]], dtype=int32)
    """
    return _segment_call(SparseSegmentSum, data, indices, segment_ids, num_segments)


@tf_export("sparse.segment_mean")
def segment_mean(data, indices, segment_ids, num_segments=None, name=None,
                 sparse_gradient=False):
    """output[s] = mean of data[indices[i]] over the i in segment s (0 for an empty segment).

    >>> tf.sparse.segment_mean(tf.constant([[1.0], [3.0]]), [0, 1], [0, 0]).numpy()
    array([[2.]], dtype=float32)
    """
    return _segment_call(SparseSegmentMean, data, indices, segment_ids, num_segments)


@tf_export("sparse.segment_sqrt_n")
def segment_sqrt_n(data, indices, segment_ids, num_segments=None, name=None,
                   sparse_gradient=False):
    """output[s] = sum of data[indices[i]] over segment s, divided by sqrt(its size).

    >>> tf.sparse.segment_sqrt_n(tf.constant([[1.0], [3.0]]), [0, 1], [0, 0]).numpy()
    array([[2.828427]], dtype=float32)
    """
    return _segment_call(SparseSegmentSqrtN, data, indices, segment_ids, num_segments)


# --- DenseCountSparseOutput / SparseCountSparseOutput: tf.sparse.bincount --------------------
def _count(rows, values, weights, minlength, maxlength, binary_output, op_name, nrows):
    if values.size and values.min() < 0:
        _fail(op_name, "Input values must all be non-negative", "bincount counts ids 0, 1, 2, "
              "...; a negative value has no bin.")
    top = (int(values.max()) if values.size else 0) + 1  # no values: one bin, as TF
    size = max(top, minlength) if minlength >= 0 else top
    if maxlength >= 0:
        size = min(size, maxlength)
    keep = values < size
    out_dtype = weights.dtype if weights.size else values.dtype
    counts = {}
    for r, v, w in zip(rows[keep].tolist(), values[keep].tolist(),
                       (weights[keep] if weights.size else np.ones(keep.sum())).tolist()):
        counts[(r, v)] = 1 if binary_output else counts.get((r, v), 0) + w
    keys = sorted(counts)
    indices = np.array(keys, np.int64).reshape(-1, 2)
    shape = [nrows, size]
    if nrows is None:
        indices, shape = indices[:, 1:], [size]
    return indices, np.array([counts[k] for k in keys], out_dtype), np.array(shape, np.int64)


def _dense_count(values, weights, minlength=-1, maxlength=-1, binary_output=False):
    if values.ndim == 2:
        rows = np.repeat(np.arange(values.shape[0]), values.shape[1])
        return _count(rows, values.reshape(-1), weights.reshape(-1), minlength, maxlength,
                      binary_output, "DenseCountSparseOutput", values.shape[0])
    return _count(np.zeros(values.size, np.int64), values.reshape(-1), weights.reshape(-1),
                  minlength, maxlength, binary_output, "DenseCountSparseOutput", None)


def _sparse_count(indices, values, shape, weights, minlength=-1, maxlength=-1,
                  binary_output=False):
    batched = shape.size == 2
    rows = indices[:, 0] if batched else np.zeros(values.size, np.int64)
    return _count(rows, values, weights, minlength, maxlength, binary_output,
                  "SparseCountSparseOutput", int(shape[0]) if batched else None)


def _count_dtypes(*input_dtypes, **attrs):
    weights = input_dtypes[-1]
    return _I64, weights, _I64


DenseCountSparseOutput = Op("DenseCountSparseOutput", _dense_count, num_outputs=3, typed=(),
                            shape=lambda *s, **a: (TensorShape([None, None]),
                                                   TensorShape([None]), TensorShape([None])),
                            dtype=_count_dtypes)
SparseCountSparseOutput = Op("SparseCountSparseOutput", _sparse_count, num_outputs=3,
                             typed=(), shape=lambda *s, **a: (TensorShape([None, None]),
                                                              TensorShape([None]),
                                                              TensorShape([None])),
                             dtype=_count_dtypes)


@tf_export("sparse.bincount")
def bincount(values, weights=None, axis=0, minlength=None, maxlength=None, binary_output=False,
             name=None):
    """How often each id occurs, as a SparseTensor of the non-zero counts.

    axis=0 counts over everything; axis=-1 counts each row of a 2-D input
    ([rows, bins]). With `weights` each occurrence adds its weight;
    binary_output=True marks presence with 1.

    >>> tf.sparse.bincount(tf.constant([[1, 1, 3], [2, 2, 0]]), axis=-1).values.numpy()
    array([2, 1, 1, 2], dtype=int32)
    """
    from .array_ops import reshape
    if axis is None:
        axis = 0
    if axis not in (0, -1):
        raise ValueError(f"Unsupported value for argument axis={axis}. Only 0 and -1 are "
                         "currently supported.")
    attrs = {"minlength": -1 if minlength is None else int(minlength),
             "maxlength": -1 if maxlength is None else int(maxlength),
             "binary_output": bool(binary_output)}
    if isinstance(values, SparseTensor):
        if axis == 0:
            values = _flat_sparse(values)
        dtype = values.dtype
        weights = convert_to_tensor([] if weights is None else weights,
                                    dtype=None if weights is not None else dtype)
        return SparseTensor(*apply(SparseCountSparseOutput, [
            values.indices, values.values, values.dense_shape, weights], attrs))
    values = convert_to_tensor(values)
    if axis == 0:
        values = reshape(values, [-1])
    weights = convert_to_tensor([] if weights is None else weights,
                                dtype=None if weights is not None else values.dtype)
    if weights.shape.rank and axis == 0:
        weights = reshape(weights, [-1])
    return SparseTensor(*apply(DenseCountSparseOutput, [values, weights], attrs))


def _flat_sparse(st):
    """A SparseTensor's values as one row (axis=0 counts them all together)."""
    from .array_ops import reshape
    from .creation_ops import range as tf_range
    from .shape_ops import shape as shape_of
    count = shape_of(st.values, out_type=_I64)
    return SparseTensor(reshape(tf_range(count[0], dtype=_I64), [-1, 1]), st.values, count)


# --- SparseCrossV2 / SparseCrossHashed: tf.sparse.cross ---------------------------------------
def _cross_rows(inputs):
    """Each row's combinations; TF's kernel takes the sparse inputs first, then the dense."""
    from ..ragged.ragged_cross import _combinations
    if not isinstance(inputs, (list, tuple)):
        raise TypeError("Inputs must be a list")
    ordered = [v for v in inputs if isinstance(v, SparseTensor)] + \
        [v for v in inputs if not isinstance(v, SparseTensor)]
    return _combinations(ordered)


def _as_sparse(rows, values, dtype):
    indices = [[b, j] for b, row in enumerate(rows) for j in range(len(row))]
    width = max((len(r) for r in rows), default=0)
    array = np.array(values, dtype=object if dtype == dtypes.string else np.int64).reshape(-1)
    return SparseTensor(np.array(indices, np.int64).reshape(-1, 2),
                        convert_to_tensor(array, dtype=dtype), [len(rows), width])


@tf_export("sparse.cross")
def cross(inputs, name=None, separator=None):
    """Every combination of one value per input, per row, joined by `separator` ("_X_").

    Inputs are 2-D: SparseTensors, dense Tensors (strings or ints). As in TF,
    the SparseTensors come first in each combination, then the dense inputs.

    >>> st = tf.sparse.cross([tf.constant([["a"], ["b"]]), tf.constant([[1], [2]])])
    >>> st.values.numpy()
    array([b'a_X_1', b'b_X_2'], dtype=object)
    """
    from ..ragged.ragged_cross import _text
    joiner = b"_X_" if separator is None else _text(separator)
    rows = _cross_rows(inputs)
    values = [joiner.join(_text(v) for v in combo) for row in rows for combo in row]
    return _as_sparse(rows, values, dtypes.string)


@tf_export("sparse.cross_hashed")
def cross_hashed(inputs, num_buckets=0, hash_key=None, name=None):
    """Every combination of one value per input, hashed (TF's FingerprintCat64) into
    `num_buckets` buckets (0: the whole int64 range), as a SparseTensor.

    >>> tf.sparse.cross_hashed([tf.constant([["a"], ["c"]]), tf.constant([["b"], ["e"]])],
    ...                        num_buckets=7, hash_key=5).values.numpy()
    array([6, 4])
    """
    from ..ops.hash_ops import fingerprint_cat64
    from ..ragged.ragged_cross import _DEFAULT_HASH_KEY, _INT64_MAX, _hash
    key = _DEFAULT_HASH_KEY if hash_key is None else int(hash_key)
    modulus = num_buckets if num_buckets > 0 else _INT64_MAX
    rows = _cross_rows(inputs)
    values = []
    for row in rows:
        for combo in row:
            h = key
            for v in combo:
                h = fingerprint_cat64(h, _hash(v))
            values.append(h % modulus)
    return _as_sparse(rows, values, dtypes.int64)
