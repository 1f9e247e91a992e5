"""Reductions: `reduce_sum`, `reduce_mean`, `reduce_max`, `reduce_prod`, ... over axes.

>>> import minitf as tf
>>> x = tf.constant([[1.0, 2.0], [3.0, 4.0]])
>>> tf.reduce_sum(x, axis=0)
<tf.Tensor: shape=(2,), dtype=float32, numpy=array([4., 6.], dtype=float32)>
>>> tf.reduce_mean(x, axis=1, keepdims=True).shape
TensorShape([2, 1])

Every reduction op takes `axis` as a sorted tuple of non-negative ints (the
Python wrapper normalises `None`, negatives, lists and tensors) and
`keepdims`. A reduction over an empty axis gives the operation's identity:
0 for sum, 1 for prod, -inf for max, +inf for min, True for all.

Each gradient first puts the reduced axes back as size-1 axes (`_keep_dims`)
so that the upstream gradient broadcasts over the values it came from.
"""
import numpy as np

from ..framework import dtypes, errors
from ..framework.op import Op, apply, type_name
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export
from .dtype_rules import real_part


def reduced_shape(shape, axis, keepdims):
    if shape.rank is None:
        return TensorShape(None)
    dims = shape.dims
    if keepdims:
        return TensorShape([1 if i in axis else d for i, d in enumerate(dims)])
    return TensorShape([d for i, d in enumerate(dims) if i not in axis])


def _reduction_rule(name):
    def rule(shape, axis, keepdims):
        return reduced_shape(shape, axis, keepdims)

    rule.__name__ = f"{name}_shape"
    return rule


def normalize_axes(op_name, x, axis):
    """`axis` (None, int, list, or tensor) -> a sorted tuple of non-negative axes.

    None means every axis; an empty list means none (the op returns its input).
    """
    rank = x.shape.rank
    if axis is None:
        return tuple(range(rank))
    if type(axis) is int:
        axes = [axis]  # the common cases, kept fast
    elif type(axis) in (list, tuple) and all(type(a) is int for a in axis):
        axes = axis
    else:
        if hasattr(axis, "numpy"):
            axis = axis.numpy()
        flat = np.reshape(np.asarray(axis), [-1])  # TF also accepts nested lists like [[0], [1]]
        if flat.size and flat.dtype.kind not in "iu":
            raise TypeError(f"Cannot convert {axis!r} to EagerTensor of dtype int32 "
                            "(axes are integers).")
        axes = flat.tolist()
    out = []
    for a in axes:
        if not -rank <= a < rank:
            raise errors.op_error(
                errors.InvalidArgumentError, op_name,
                f"Invalid reduction dimension ({a} for input with {rank} dimension(s)",
                f"axis must be in [-{rank}, {rank}) for a rank-{rank} tensor.")
        if a % rank in out:
            raise errors.op_error(
                errors.InvalidArgumentError, op_name,
                f"Invalid reduction arguments: Axes contains duplicate dimension: {a % rank}",
                "Each axis may be reduced only once (a negative axis counts from the end).")
        out.append(a % rank)
    return tuple(sorted(out))


def _reduce(op, x, axis, keepdims, dtype_hint=None):
    x = convert_to_tensor(x, dtype_hint=dtype_hint)
    axes = normalize_axes(op.name, x, axis)
    return apply(op, [x], {"axis": axes, "keepdims": bool(keepdims)})


def _keep_dims(t, op):
    """`t` (shaped like the op's output) reshaped with the reduced axes kept as size 1."""
    from .array_ops import reshape

    if op.attrs["keepdims"]:
        return t
    x = op.inputs[0]
    shape = [1 if i in op.attrs["axis"] else d for i, d in enumerate(x.shape)]
    if None in shape:  # inside tf.function with unknown sizes
        if shape.count(None) == 1 and 0 not in shape:
            shape = [-1 if d is None else d for d in shape]
        else:  # several unknown: read them from tf.shape(x) when the graph runs
            from .shape_ops import shape_of

            dynamic = shape_of(x)
            shape = [dynamic[i] if d is None else d for i, d in enumerate(shape)]
    return reshape(t, shape)


def _integer(t):
    """Integer (and bool) tensors get no gradient, as in TF."""
    return not (t.dtype.is_floating or t.dtype.is_complex)


def _broadcast_back(dy, op):
    """The upstream gradient copied to every input position it summarises."""
    from .array_ops import broadcast_to
    from .shape_ops import shape_of

    return broadcast_to(_keep_dims(dy, op), shape_of(op.inputs[0]))


# --- sum --------------------------------------------------------------------------
def _sum_forward(x, axis, keepdims):
    """np.sum; summing contiguous leading axes of a float array (a bias gradient:
    [batch, h, w, c] -> [c]) is one matrix-vector product `ones @ x.reshape(n, -1)`,
    which BLAS does ~30x faster than NumPy's strided column sums."""
    lead = len(axis)
    if (lead and lead < x.ndim and axis == tuple(range(lead)) and x.size
            and x.dtype in _BLAS_FLOATS and x.flags.c_contiguous):
        rows = x.reshape(-1, x[(0,) * lead].size)
        total = np.ones(rows.shape[0], x.dtype) @ rows
        shape = (1,) * lead + x.shape[lead:] if keepdims else x.shape[lead:]
        return total.reshape(shape)
    return np.sum(x, axis=axis, keepdims=keepdims, dtype=x.dtype)


_BLAS_FLOATS = (np.dtype(np.float32), np.dtype(np.float64))

Sum = Op("Sum", _sum_forward, dtypes=dtypes.NUMERIC, shape=_reduction_rule("Sum"))


@Sum.def_grad
def _sum_grad(op, dy):
    return _broadcast_back(dy, op)  # d(sum x)/dx_i = 1


@tf_export("math.reduce_sum", "reduce_sum")
def reduce_sum(input_tensor, axis=None, keepdims=False, name=None):
    """Sum over `axis` (all axes when None): `sum_i x[..., i, ...]`.

    >>> tf.reduce_sum(tf.constant([[1, 2], [3, 4]]), axis=1, keepdims=True)
    <tf.Tensor: shape=(2, 1), dtype=int32, numpy=
    array([[3],
           [7]], dtype=int32)>
    """
    return _reduce(Sum, input_tensor, axis, keepdims)


# --- mean -------------------------------------------------------------------------
def _mean_forward(x, axis, keepdims):
    if x.dtype.kind in "iu":  # TF's integer mean truncates toward zero
        total = np.sum(x, axis=axis, keepdims=keepdims, dtype=np.int64)
        count = int(np.prod([x.shape[a] for a in axis])) if axis else 1
        return np.trunc(total / max(count, 1)).astype(x.dtype) if count else \
            np.zeros_like(total, dtype=x.dtype)
    count = 1
    for a in axis:
        count *= x.shape[a]
    total = np.add.reduce(x, axis=axis, keepdims=keepdims, dtype=x.dtype)  # (np.sum's core)
    if count == 0:  # an empty mean is 0 / 0: nan, silently
        return np.asarray(total * np.nan, dtype=x.dtype)
    return np.asarray(total / x.dtype.type(count), dtype=x.dtype)  # sum / count, as TF does


Mean = Op("Mean", _mean_forward, dtypes=dtypes.NUMERIC, shape=_reduction_rule("Mean"))


@Mean.def_grad
def _mean_grad(op, dy):
    from .math_ops import cast
    from .shape_ops import dim_of

    count = 1
    for a in op.attrs["axis"]:  # a tensor if some size is known only at run time
        count = count * dim_of(op.inputs[0], a)
    if not isinstance(count, int):
        count = cast(count, dy.dtype)
    return _broadcast_back(dy / count, op)  # divide the small tensor, then copy it out


@tf_export("math.reduce_mean", "reduce_mean")
def reduce_mean(input_tensor, axis=None, keepdims=False, name=None):
    """Mean over `axis`. Integer tensors give an integer (truncated) mean, as in TF.

    >>> tf.reduce_mean(tf.constant([1, 2])), tf.reduce_mean(tf.constant([1.0, 2.0]))
    (<tf.Tensor: shape=(), dtype=int32, numpy=1>, <tf.Tensor: shape=(), dtype=float32, numpy=1.5>)
    """
    return _reduce(Mean, input_tensor, axis, keepdims)


# --- max / min ----------------------------------------------------------------------
def _lowest(dtype):
    return -np.inf if dtype.kind == "f" else np.iinfo(dtype).min


def _highest(dtype):
    return np.inf if dtype.kind == "f" else np.iinfo(dtype).max


def _max_forward(x, axis, keepdims):  # `initial`: the answer over an empty axis, as in TF
    return np.max(x, axis=axis, keepdims=keepdims, initial=_lowest(x.dtype))


def _min_forward(x, axis, keepdims):
    return np.min(x, axis=axis, keepdims=keepdims, initial=_highest(x.dtype))


Max = Op("Max", _max_forward, dtypes=dtypes.REAL, shape=_reduction_rule("Max"))
Min = Op("Min", _min_forward, dtypes=dtypes.REAL, shape=_reduction_rule("Min"))


def _min_or_max_grad(op, dy):
    """The gradient goes to the entries equal to the result, split equally among ties."""
    from .math_ops import cast, equal

    x = op.inputs[0]
    if _integer(x):
        return None
    y, dy = _keep_dims(op.outputs[0], op), _keep_dims(dy, op)
    indicators = cast(equal(y, x), dy.dtype)
    num_selected = reduce_sum(indicators, axis=op.attrs["axis"], keepdims=True)
    return indicators / num_selected * dy


Max.def_grad(_min_or_max_grad)
Min.def_grad(_min_or_max_grad)


@tf_export("math.reduce_max", "reduce_max")
def reduce_max(input_tensor, axis=None, keepdims=False, name=None):
    """Largest entry over `axis`; -inf (or the dtype's lowest value) over an empty axis.

    >>> tf.reduce_max(tf.constant([[1.0, 5.0], [3.0, 2.0]]), axis=1)
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([5., 3.], dtype=float32)>
    """
    return _reduce(Max, input_tensor, axis, keepdims)


@tf_export("math.reduce_min", "reduce_min")
def reduce_min(input_tensor, axis=None, keepdims=False, name=None):
    """Smallest entry over `axis`; +inf (or the dtype's highest value) over an empty axis.

    >>> tf.reduce_min(tf.constant([[1.0, 5.0], [3.0, 2.0]]), axis=1)
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([1., 2.], dtype=float32)>
    """
    return _reduce(Min, input_tensor, axis, keepdims)


# --- prod ----------------------------------------------------------------------------
Prod = Op("Prod",
          lambda x, axis, keepdims: np.prod(x, axis=axis, keepdims=keepdims, dtype=x.dtype),
          dtypes=dtypes.NUMERIC, shape=_reduction_rule("Prod"))


@Prod.def_grad
def _prod_grad(op, dy):
    """d(prod x)/dx_i = the product of all the *other* entries.

    Dividing the product by x_i fails when x_i == 0, so, as TF does, the
    reduced axes are moved to the front and flattened into one, and the
    product of the others is (product of those before) * (product of those
    after): two exclusive cumprods.
    """
    from .array_ops import reshape, transpose
    from .math_ops import conj
    from .scan_ops import cumprod

    x, axes = op.inputs[0], list(op.attrs["axis"])
    if _integer(x):
        return None
    dims = x.shape.as_list()
    others = [i for i in range(len(dims)) if i not in axes]
    perm = axes + others
    reduced_num = int(np.prod([dims[a] for a in axes]))
    other_num = int(np.prod([dims[o] for o in others]))
    rows = reshape(transpose(x, perm), [reduced_num, other_num])
    before = cumprod(rows, axis=0, exclusive=True)
    after = cumprod(rows, axis=0, exclusive=True, reverse=True)
    others_product = reshape(conj(before) * conj(after), [dims[p] for p in perm])
    return _broadcast_back(dy, op) * transpose(others_product, list(np.argsort(perm)))


@tf_export("math.reduce_prod", "reduce_prod")
def reduce_prod(input_tensor, axis=None, keepdims=False, name=None):
    """Product over `axis`: `prod_i x[..., i, ...]` (1 over an empty axis).

    >>> tf.reduce_prod(tf.constant([[1.0, 2.0], [3.0, 4.0]]), axis=0)
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([3., 8.], dtype=float32)>
    """
    return _reduce(Prod, input_tensor, axis, keepdims)


# --- all / any (bool only, no gradient) ------------------------------------------------
All = Op("All", lambda x, axis, keepdims: np.all(x, axis=axis, keepdims=keepdims),
         dtypes={dtypes.bool}, shape=_reduction_rule("All"))
Any = Op("Any", lambda x, axis, keepdims: np.any(x, axis=axis, keepdims=keepdims),
         dtypes={dtypes.bool}, shape=_reduction_rule("Any"))


def _logical_reduce(op, x, axis, keepdims):
    x = convert_to_tensor(x)
    if x.dtype is not dtypes.bool:
        raise errors.op_error(
            errors.InvalidArgumentError, op.name,
            f"cannot compute {op.name} as input #0(zero-based) was expected to be a bool tensor "
            f"but is a {type_name(x.dtype)} tensor",
            "Compare first (e.g. tf.reduce_all(x > 0)) or tf.cast(x, tf.bool).")
    return _reduce(op, x, axis, keepdims)


@tf_export("math.reduce_all", "reduce_all")
def reduce_all(input_tensor, axis=None, keepdims=False, name=None):
    """Logical AND over `axis` (True over an empty axis).

    >>> tf.reduce_all(tf.constant([[True, False], [True, True]]), axis=1)
    <tf.Tensor: shape=(2,), dtype=bool, numpy=array([False,  True])>
    """
    return _logical_reduce(All, input_tensor, axis, keepdims)


@tf_export("math.reduce_any", "reduce_any")
def reduce_any(input_tensor, axis=None, keepdims=False, name=None):
    """Logical OR over `axis` (False over an empty axis).

    >>> tf.reduce_any(tf.constant([[True, False], [False, False]]), axis=1)
    <tf.Tensor: shape=(2,), dtype=bool, numpy=array([ True, False])>
    """
    return _logical_reduce(Any, input_tensor, axis, keepdims)


# --- euclidean norm ----------------------------------------------------------------------
def _euclidean_norm_forward(x, axis, keepdims):
    squares = np.sum(x * np.conj(x), axis=axis, keepdims=keepdims, dtype=x.dtype)
    if x.dtype.kind in "iu":  # TF sums integer squares in the input dtype, truncates the root
        with np.errstate(invalid="ignore"):
            return np.sqrt(squares.astype(np.float64)).astype(x.dtype)
    return np.sqrt(squares)


EuclideanNorm = Op("EuclideanNorm", _euclidean_norm_forward, dtypes=dtypes.NUMERIC,
                   shape=_reduction_rule("EuclideanNorm"))


@EuclideanNorm.def_grad
def _euclidean_norm_grad(op, dy):
    # d sqrt(sum x^2) / dx_i = x_i / norm; TF writes it x / (norm / dy), and so gets
    # nan at an all-zero slice, where the norm has no derivative.
    if _integer(op.inputs[0]):
        return None
    norm, dy = _keep_dims(op.outputs[0], op), _keep_dims(dy, op)
    return op.inputs[0] / (norm / dy)


@tf_export("math.reduce_euclidean_norm")
def reduce_euclidean_norm(input_tensor, axis=None, keepdims=False, name=None):
    """sqrt(sum of squares) over `axis`; integer tensors give the truncated root, as in TF.

    >>> tf.math.reduce_euclidean_norm(tf.constant([[3.0, 4.0], [6.0, 8.0]]), axis=1)
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([ 5., 10.], dtype=float32)>
    """
    return _reduce(EuclideanNorm, input_tensor, axis, keepdims)


# --- logsumexp -----------------------------------------------------------------------------
def _logsumexp_forward(x, axis, keepdims):
    # Subtract the max before exp so nothing overflows; a non-finite max (all -inf,
    # or an inf) is replaced by 0, as TF does, so inf - inf never makes a nan.
    top = np.max(x, axis=axis, keepdims=True, initial=-np.inf)
    top = np.where(np.isfinite(top), top, 0).astype(x.dtype)
    with np.errstate(divide="ignore", over="ignore"):
        out = np.log(np.sum(np.exp(x - top), axis=axis, keepdims=True)) + top
    return out if keepdims else np.squeeze(out, axis=axis)


# In TensorFlow reduce_logsumexp is composed of Max, Exp, Sum and Log; minitf makes it
# one op so that its gradient, the softmax, is visible in one line.
ReduceLogSumExp = Op("ReduceLogSumExp", _logsumexp_forward, dtypes=dtypes.FLOATING,
                     shape=_reduction_rule("ReduceLogSumExp"))


@ReduceLogSumExp.def_grad
def _logsumexp_grad(op, dy):
    from .unary_ops import exp

    # d logsumexp(x) / dx_i = e^{x_i} / sum_j e^{x_j} = exp(x_i - logsumexp(x)): the softmax.
    lse, dy = _keep_dims(op.outputs[0], op), _keep_dims(dy, op)
    return dy * exp(op.inputs[0] - lse)


@tf_export("math.reduce_logsumexp", "reduce_logsumexp")
def reduce_logsumexp(input_tensor, axis=None, keepdims=False, name=None):
    """log(sum(exp(x))) over `axis`, computed without overflow (-inf over an empty axis).

    >>> tf.reduce_logsumexp(tf.constant([1000.0, 1000.0]))
    <tf.Tensor: shape=(), dtype=float32, numpy=1000.6931762695312>
    """
    return _reduce(ReduceLogSumExp, input_tensor, axis, keepdims)


# --- variance, standard deviation, count_nonzero: compositions, as in TF ---------------------
# TF's `Real` op (tf.math.real), which the variance of a complex tensor needs; minitf
# has no public tf.math.real, so it is declared here for that one use.
Real = Op("Real", np.real, dtypes=dtypes.COMPLEX, shape=lambda shape: shape, dtype=real_part)


@Real.def_grad
def _real_grad(op, dy):
    from .math_ops import cast

    return cast(dy, op.inputs[0].dtype)  # TF: complex(dy, 0)


@tf_export("math.reduce_variance")
def reduce_variance(input_tensor, axis=None, keepdims=False, name=None):
    """mean((x - mean(x))^2) over `axis` (the population variance, like np.var).

    >>> tf.math.reduce_variance(tf.constant([[1.0, 2.0], [3.0, 4.0]]))
    <tf.Tensor: shape=(), dtype=float32, numpy=1.25>
    """
    x = convert_to_tensor(input_tensor)
    means = reduce_mean(x, axis=axis, keepdims=True)
    if means.dtype.is_integer:
        raise TypeError(f"Input must be either real or complex. Received integer type "
                        f"{means.dtype!r}. Cast it first: tf.cast(x, tf.float32).")
    diff = x - means
    if diff.dtype.is_complex:  # |diff|^2 = real(conj(diff) * diff), a real tensor
        from .math_ops import conj

        squared_deviations = apply(Real, [conj(diff) * diff])
    else:
        from .unary_ops import square

        squared_deviations = square(diff)
    return reduce_mean(squared_deviations, axis=axis, keepdims=keepdims)


@tf_export("math.reduce_std")
def reduce_std(input_tensor, axis=None, keepdims=False, name=None):
    """sqrt(reduce_variance(x)) over `axis` (the population standard deviation, like np.std).

    >>> tf.math.reduce_std(tf.constant([[1.0, 2.0], [3.0, 4.0]]), axis=0)
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([1., 1.], dtype=float32)>
    """
    from .unary_ops import sqrt

    return sqrt(reduce_variance(input_tensor, axis=axis, keepdims=keepdims))


@tf_export("math.count_nonzero")
def count_nonzero(input, axis=None, keepdims=None, dtype=dtypes.int64, name=None):
    """How many entries are not zero (not False, not b"") over `axis`, as int64.

    >>> tf.math.count_nonzero(tf.constant([[0, 1, 0], [1, 1, 0]]), axis=0)
    <tf.Tensor: shape=(3,), dtype=int64, numpy=array([1, 2, 0])>
    """
    from .math_ops import cast, not_equal

    x = convert_to_tensor(input)
    if x.dtype is dtypes.bool:
        predicate = x
    else:
        zero = b"" if x.dtype is dtypes.string else 0
        predicate = not_equal(x, convert_to_tensor(zero, dtype=x.dtype))
    counts = reduce_sum(cast(predicate, dtypes.int64), axis=axis, keepdims=bool(keepdims))
    return cast(counts, dtype)
