"""Counting and small compositions: bincount, invert_permutation, zero_fraction, polyval.

>>> import minitf as tf
>>> tf.math.bincount([1, 1, 3])  # 0 appears 0 times, 1 twice, 2 never, 3 once
<tf.Tensor: shape=(4,), dtype=int32, numpy=array([0, 2, 0, 1], dtype=int32)>

`bincount` is TF's DenseBincount kernel behind TF's Python wrapper, which picks the
output length: max(arr) + 1, at least `minlength`, at most `maxlength` (values past
the end are dropped). With `weights`, each value adds its weight instead of 1 (and
the result has the weights' dtype). TF registers no gradient for it.
"""
import numpy as np

from ..framework import dtypes, errors
from ..framework.op import Op, apply
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export
from .shape_rules import same_shape

_BINCOUNT_DTYPES = {dtypes.int32, dtypes.int64, dtypes.float32, dtypes.float64}


def _bincount_fail(message, hint):
    raise errors.op_error(errors.InvalidArgumentError, "DenseBincount", message, hint)


def _bincount_shape(arr, size, weights, binary_output):
    if arr.rank is None:
        return TensorShape(None)
    if arr.rank > 2:
        _bincount_fail(f"Shape must be at most rank 2 but is rank {arr.rank}",
                       "Count a matrix row by row with axis=-1, or flatten it (axis=0).")
    return TensorShape([None]) if arr.rank <= 1 else TensorShape([arr[0], None])


def _dense_bincount(arr, size, weights, binary_output):
    _bincount_shape(TensorShape(arr.shape), None, None, binary_output)
    if weights.size and weights.shape != arr.shape:
        _bincount_fail("`weights` must be the same shape as `arr` or a length-0 `Tensor`, in "
                       "which case it acts as all weights equal to 1. Received "
                       f"{list(weights.shape)}", "Give one weight per value of arr.")
    if (arr < 0).any():
        _bincount_fail("Input arr must be non-negative!", "bincount counts values 0, 1, 2, ...")
    size = int(size)
    rows = arr if arr.ndim == 2 else arr.reshape(1, -1)
    w = weights.reshape(rows.shape) if weights.size else np.ones(rows.shape, weights.dtype)
    out = np.zeros((rows.shape[0], size), dtype=weights.dtype)
    keep = rows < size  # values past maxlength are dropped
    row_index = np.broadcast_to(np.arange(rows.shape[0])[:, None], rows.shape)
    np.add.at(out, (row_index[keep], rows[keep]), w[keep])
    if binary_output:
        out = (out > 0).astype(weights.dtype)
    return out if arr.ndim == 2 else out[0]


DenseBincount = Op("DenseBincount", _dense_bincount, dtypes=_BINCOUNT_DTYPES, typed=(2,),
                   shape=_bincount_shape)


def _output_size(arr, minlength, maxlength):
    from .math_ops import cast, maximum, minimum
    from .reduction_ops import reduce_max

    size = reduce_max(arr) + 1 if arr.shape.num_elements() != 0 else \
        convert_to_tensor(0, dtype=arr.dtype)
    if arr.shape.num_elements() is None:  # unknown while tracing: 0 for an empty arr
        from .shape_ops import size as size_of

        size = cast(size_of(arr) > 0, arr.dtype) * (reduce_max(arr) + 1)
    if minlength is not None:
        size = maximum(convert_to_tensor(minlength, dtype=arr.dtype), size)
    if maxlength is not None:
        size = minimum(convert_to_tensor(maxlength, dtype=arr.dtype), size)
    return size


@tf_export("math.bincount")
def bincount(arr, weights=None, minlength=None, maxlength=None, dtype=dtypes.int32, name=None,
             axis=None, binary_output=False):
    """How often each value 0, 1, 2, ... occurs in `arr` (or the sum of its `weights`).

    axis=0 (the default) counts over all of arr; axis=-1 counts each row of a matrix.

    >>> tf.math.bincount([[1, 1], [0, 3]], axis=-1)
    <tf.Tensor: shape=(2, 4), dtype=int32, numpy=
    array([[0, 2, 0, 0],
           [1, 0, 0, 1]], dtype=int32)>
    >>> tf.math.bincount([2, 0, 2], weights=[0.5, 1.0, 2.0])
    <tf.Tensor: shape=(3,), dtype=float32, numpy=array([1. , 0. , 2.5], dtype=float32)>
    """
    from .array_ops import reshape
    from .math_ops import cast

    arr = convert_to_tensor(arr)
    if weights is not None:
        if binary_output:
            raise ValueError("Arguments `binary_output` and `weights` are mutually exclusive. "
                             "Please specify only one.")
        weights = convert_to_tensor(weights)
    if not arr.dtype.is_integer:
        arr = cast(arr, dtypes.int32)  # TF truncates float (and bool) values to int32
    axis = 0 if axis is None else axis
    if axis not in (0, -1):
        raise ValueError(f"Unsupported value for argument axis={axis}. Only 0 and -1 are "
                         "currently supported.")
    size = _output_size(arr, minlength, maxlength)
    if axis == 0:
        arr = reshape(arr, [-1])
        weights = None if weights is None else reshape(weights, [-1])
    if weights is None:
        weights = convert_to_tensor(np.zeros([0], dtypes.as_dtype(dtype).as_numpy_dtype))
    return apply(DenseBincount, [arr, size, weights], {"binary_output": bool(binary_output)})


# --- invert_permutation --------------------------------------------------------------------
def _invert_permutation(x):
    def fail(message):
        raise errors.op_error(errors.InvalidArgumentError, "InvertPermutation", message,
                              "x must hold each of 0 .. len(x) - 1 exactly once.")

    if x.ndim != 1:
        fail("invert_permutation expects a 1D vector.")
    out = np.full_like(x, -1)
    for i, v in enumerate(x):
        if not 0 <= v < x.size:
            fail(f"{v} is not between 0 and {x.size}")
        if out[v] != -1:
            fail(f"{v} is duplicated in the input.")
        out[v] = i
    return out


InvertPermutation = Op("InvertPermutation", _invert_permutation,
                       dtypes={dtypes.int32, dtypes.int64}, shape=same_shape)


@tf_export("math.invert_permutation")
def invert_permutation(x, name=None):
    """The permutation y that undoes x: y[x[i]] = i.

    >>> tf.math.invert_permutation([3, 4, 0, 2, 1])
    <tf.Tensor: shape=(5,), dtype=int32, numpy=array([2, 4, 3, 0, 1], dtype=int32)>
    """
    return apply(InvertPermutation, [convert_to_tensor(x)])


# --- zero_fraction, polyval: compositions, as in TF ------------------------------------------
@tf_export("math.zero_fraction", "nn.zero_fraction")
def zero_fraction(value, name=None):
    """The fraction of entries that are zero (False, b""), as a float32 scalar (nan if empty).

    >>> tf.math.zero_fraction(tf.constant([[0.0, 1.0], [0.0, 0.0]]))
    <tf.Tensor: shape=(), dtype=float32, numpy=0.75>
    """
    from .shape_ops import size
    from .math_ops import cast
    from .reduction_ops import count_nonzero

    value = convert_to_tensor(value)
    total = cast(size(value, out_type=dtypes.int64), dtypes.float32)
    nonzero = cast(count_nonzero(value), dtypes.float32)
    return (total - nonzero) / total


@tf_export("math.polyval")
def polyval(coeffs, x, name=None):
    """coeffs[0] * x^(n-1) + ... + coeffs[n-1], by Horner's rule; `coeffs` is a Python list.

    >>> tf.math.polyval([1.0, 2.0, 3.0], 2.0)  # x^2 + 2x + 3 at x = 2
    <tf.Tensor: shape=(), dtype=float32, numpy=11.0>
    """
    from .creation_ops import zeros_like

    if not isinstance(coeffs, list):
        raise ValueError(f"Argument coeffs must be list type. Received type {type(coeffs)}.")
    x = convert_to_tensor(x)
    if not coeffs:
        return zeros_like(x)
    result = convert_to_tensor(coeffs[0])
    for c in coeffs[1:]:
        result = c + result * x
    return result


# --- in_top_k, accumulate_n ----------------------------------------------------------------
def _in_top_k(predictions, targets, k):
    if predictions.ndim != 2 or targets.ndim != 1:
        raise errors.op_error(errors.InvalidArgumentError, "InTopKV2",
                              "predictions must be 2-dimensional and targets 1-dimensional",
                              "One row of class scores per target id.")
    if predictions.shape[0] != targets.shape[0]:
        raise errors.op_error(
            errors.InvalidArgumentError, "InTopKV2",
            f"First dimension of predictions {predictions.shape[0]} must match length of "
            f"targets {targets.shape[0]}", "One row of class scores per target id.")
    out = np.zeros(targets.shape, bool)
    for row, (scores, target) in enumerate(zip(predictions, targets)):
        if 0 <= target < scores.size and np.isfinite(scores).all():  # any nan/inf: "can't say"
            out[row] = np.count_nonzero(scores > scores[target]) < k
    return out


InTopKV2 = Op("InTopKV2", _in_top_k, dtypes={dtypes.int32, dtypes.int64}, typed=(1, 2),
              dtype=dtypes.bool, shape=lambda p, t, k: TensorShape([t[0] if t.rank else None]))


@tf_export("math.in_top_k")
def in_top_k(targets, predictions, k, name=None):
    """Is predictions[i, targets[i]] among the k largest of row i? (ties count in its favour)

    A row holding nan or inf, or a target outside the row, gives False.

    >>> tf.math.in_top_k([2, 0], [[0.1, 0.3, 0.3], [0.2, 0.5, 0.4]], 2)
    <tf.Tensor: shape=(2,), dtype=bool, numpy=array([ True, False])>
    """
    predictions = convert_to_tensor(predictions, dtype=dtypes.float32)
    targets = convert_to_tensor(targets)
    return apply(InTopKV2, [predictions, targets, convert_to_tensor(k, dtype=targets.dtype)])


@tf_export("math.accumulate_n")
def accumulate_n(inputs, shape=None, tensor_dtype=None, name=None):
    """The sum of a list of same-shaped tensors (deprecated in TF: use tf.math.add_n).

    >>> tf.math.accumulate_n([tf.constant([1.0, 2.0]), tf.constant([3.0, 4.0])])
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([4., 6.], dtype=float32)>
    """
    from .creation_ops import add_n

    if not inputs or not isinstance(inputs, (list, tuple)):
        raise ValueError("inputs must be a list of at least one Tensor with the same dtype "
                         "and shape")
    inputs = [convert_to_tensor(x) for x in inputs]
    if any(x.dtype != inputs[0].dtype for x in inputs):
        raise ValueError("inputs must be a list of at least one Tensor with the same dtype "
                         "and shape")
    expected = TensorShape(shape) if shape is not None else TensorShape(None)
    for x in inputs:
        if not expected.is_compatible_with(x.shape):
            raise ValueError(f"Shapes {expected} and {x.shape} are not compatible")
        expected = expected.merge_with(x.shape)
    if tensor_dtype is not None and dtypes.as_dtype(tensor_dtype) != inputs[0].dtype:
        raise TypeError(f"The `tensor_dtype` argument is {tensor_dtype}, but `input` is of "
                        f"type {inputs[0].dtype}. These must be equal. Try casting the input "
                        "to the desired type.")
    return add_n(inputs)
