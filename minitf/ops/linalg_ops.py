"""Matrix products: matmul, matvec, tensordot, cross, and matrix_transpose / adjoint.

>>> import minitf as tf
>>> a = tf.constant([[1.0, 2.0]])
>>> tf.matmul(a, a, transpose_b=True)
<tf.Tensor: shape=(1, 1), dtype=float32, numpy=array([[5.]], dtype=float32)>

`matmul` works on the last two axes and broadcasts the leading (batch) axes.
`tensordot` is not an op of its own: like TensorFlow, it transposes and
reshapes both operands into matrices, calls matmul once, and reshapes back, so
its gradient comes for free. The rest of tf.linalg lives next door:
einsum_ops.py, matrix_diag_ops.py, linalg_solve_ops.py,
linalg_decompositions.py and linalg_norm_ops.py.
"""
import numpy as np

from ..framework import dtypes, errors
from ..framework.op import Op, apply
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export
from .array_ops import expand_dims, reshape, squeeze, transpose
from .math_ops import binary_args, conj
from .shape_ops import dim_of, shape as shape_of
from .shape_rules import broadcast, dims_text
from .unbroadcast import unbroadcast

_MATMUL_TYPES = dtypes.FLOATING | dtypes.COMPLEX | {dtypes.int32, dtypes.int64}


# --- matmul ------------------------------------------------------------------------------
def _matmul_forward(a, b, transpose_a, transpose_b):
    if transpose_a:
        a = np.swapaxes(a, -1, -2)
    if transpose_b:
        b = np.swapaxes(b, -1, -2)
    return np.matmul(a, b)


def _matmul_name(a, b):
    """TF's Python wrapper calls MatMul for plain matrices, BatchMatMulV2 otherwise."""
    ranks = (a.rank or 0, b.rank or 0)
    return "BatchMatMulV2" if max(ranks) > 2 else "MatMul"


def _check_matmul_ranks(name, a, b):
    if a.rank is None or b.rank is None or (a.rank >= 2 and b.rank >= 2):
        return
    if name == "MatMul":
        message = (f"In[0] and In[1] ndims must be == 2: {a.rank}" if a.rank == b.rank
                   else f"In[0] and In[1] has different ndims: {dims_text(a)} vs. {dims_text(b)}")
    else:
        which, rank = (0, a.rank) if a.rank < 2 else (1, b.rank)
        message = f"In[{which}] ndims must be >= 2: {rank}"
    raise errors.op_error(
        errors.InvalidArgumentError, name, message,
        "matmul multiplies matrices (rank >= 2); for a vector use tf.linalg.matvec, "
        "tf.tensordot, or reshape it to [1, n] / [n, 1] first.")


def _matmul_shape(a, b, transpose_a, transpose_b):
    name = _matmul_name(a, b)
    _check_matmul_ranks(name, a, b)
    if a.rank is None or b.rank is None:
        return TensorShape(None)
    a_rows, a_cols = (a[-1], a[-2]) if transpose_a else (a[-2], a[-1])
    b_rows, b_cols = (b[-1], b[-2]) if transpose_b else (b[-2], b[-1])
    if a_cols is not None and b_rows is not None and a_cols != b_rows:
        raise errors.op_error(
            errors.InvalidArgumentError, name,
            f"Matrix size-incompatible: In[0]: {dims_text(a)}, In[1]: {dims_text(b)}",
            f"The columns of the first matrix ({a_cols}) must equal the rows of the second "
            f"({b_rows}).")
    try:
        batch = broadcast(name)(a[:-2], b[:-2])
    except errors.InvalidArgumentError:
        raise errors.op_error(
            errors.InvalidArgumentError, name,
            f"In[0] and In[1] must have compatible batch dimensions: {dims_text(a)} vs. "
            f"{dims_text(b)}",
            "The batch axes (all but the last two) broadcast: equal, or one of them 1.") from None
    return batch.concatenate([a_rows, b_cols])


MatMul = Op("MatMul", _matmul_forward, dtypes=_MATMUL_TYPES, shape=_matmul_shape)


@MatMul.def_grad
def _matmul_grad(op, dy):
    # For C = A B: dA = dC B^H and dB = A^H dC (^H: conjugate transpose; plain
    # transpose for real numbers). The transposed variants just move the ^H around.
    # An input the backward pass does not need (op.wanted) gets no matmul at all.
    a, b = op.inputs
    ta, tb = op.attrs["transpose_a"], op.attrs["transpose_b"]
    want_a, want_b = op.wanted
    da = unbroadcast(_matmul_grad_a(a, b, dy, ta, tb), a) if want_a else None
    db = unbroadcast(_matmul_grad_b(a, b, dy, ta, tb), b) if want_b else None
    return da, db


def _matmul_grad_a(a, b, dy, ta, tb):
    if not ta:
        return matmul(dy, b, adjoint_b=True) if not tb else matmul(dy, conj(b))
    return matmul(b, dy, adjoint_b=True) if not tb else matmul(b, dy, adjoint_a=True,
                                                               adjoint_b=True)


def _matmul_grad_b(a, b, dy, ta, tb):
    if not tb:
        return matmul(a, dy, adjoint_a=True) if not ta else matmul(conj(a), dy)
    return matmul(dy, a, adjoint_a=True) if not ta else matmul(dy, a, adjoint_a=True,
                                                               adjoint_b=True)


@tf_export("linalg.matmul", "matmul")
def matmul(a, b, transpose_a=False, transpose_b=False, adjoint_a=False, adjoint_b=False,
           a_is_sparse=False, b_is_sparse=False, output_type=None, grad_a=False, grad_b=False,
           name=None):
    """The matrix product a @ b over the last two axes; leading (batch) axes broadcast.

    out[..., i, j] = sum_k a[..., i, k] * b[..., k, j]. transpose_a/b transpose a
    matrix first; adjoint_a/b also conjugate it.
    """
    a, b = binary_args(a, b)
    if adjoint_a:
        a, transpose_a = conj(a), True
    if adjoint_b:
        b, transpose_b = conj(b), True
    if a.shape.rank < 2 or b.shape.rank < 2:
        _matmul_shape(a.shape, b.shape, transpose_a, transpose_b)
    return apply(MatMul, [a, b], {"transpose_a": bool(transpose_a),
                                  "transpose_b": bool(transpose_b)})


@tf_export("linalg.matvec")
def matvec(a, b, transpose_a=False, adjoint_a=False, a_is_sparse=False, b_is_sparse=False,
           name=None):
    """Matrix times vector: out[..., i] = sum_j a[..., i, j] * b[..., j].

    Written, as in TF, as matmul(a, b[..., None])[..., 0].

    >>> tf.linalg.matvec(tf.constant([[1.0, 2.0], [3.0, 4.0]]), tf.constant([1.0, 1.0]))
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([3., 7.], dtype=float32)>
    """
    a, b = binary_args(a, b)
    product = matmul(a, expand_dims(b, -1), transpose_a=transpose_a, adjoint_a=adjoint_a)
    return squeeze(product, axis=-1)


# --- matrix_transpose / adjoint -------------------------------------------------------------
@tf_export("linalg.matrix_transpose")
def matrix_transpose(a, name="matrix_transpose", conjugate=False):
    """Swap the last two axes: out[..., i, j] = a[..., j, i] (conjugated if asked)."""
    a = convert_to_tensor(a)
    rank = a.shape.rank
    if rank < 2:
        raise ValueError("Argument `a` should be a (batch) matrix with rank >= 2.  Received "
                         f"`a` = {a} with shape: {a.shape}")
    return transpose(a, perm=list(range(rank - 2)) + [rank - 1, rank - 2], conjugate=conjugate)


@tf_export("linalg.adjoint")
def adjoint(matrix, name=None):
    """The conjugate transpose A^H of the innermost matrices (the transpose, for reals).

    >>> tf.linalg.adjoint(tf.constant([[1 + 2j, 3j]]))
    <tf.Tensor: shape=(2, 1), dtype=complex128, numpy=
    array([[1.-2.j],
           [0.-3.j]])>
    """
    return matrix_transpose(matrix, conjugate=True)


# --- tensordot -------------------------------------------------------------------------------
def _tensordot_axes(a, b, axes):
    """`axes` as two lists of non-negative axes (TF's `_tensordot_axes`)."""
    if hasattr(axes, "numpy"):
        axes = axes.numpy()
    if isinstance(axes, np.ndarray):
        axes = axes.tolist()
    if isinstance(axes, (int, np.integer)):
        if axes < 0:
            raise ValueError(f"`axes` must be at least 0. Received: {axes}.")
        if axes > a.shape.rank:
            raise ValueError(
                "`axes` must not be larger than the number of dimensions of tensor "
                f"{a}.  Received {axes}, vs tensor dimensions {a.shape.rank}.")
        a_axes, b_axes = list(range(a.shape.rank - axes, a.shape.rank)), list(range(axes))
    elif isinstance(axes, (list, tuple)):
        if len(axes) != 2:
            raise ValueError(f"`axes` must be an integer or have length 2. Received {axes}.")
        a_axes, b_axes = axes
        if isinstance(a_axes, (int, np.integer)) and isinstance(b_axes, (int, np.integer)):
            a_axes, b_axes = [a_axes], [b_axes]
        if len(a_axes) != len(b_axes):
            raise ValueError("Different number of contraction axes `a` and `b`, "
                             f"{len(a_axes)} != {len(b_axes)}.")
    else:
        raise TypeError(f"`axes` must be an int or a pair of lists of ints, got {axes!r}.")
    return _positive_axes(a_axes, a.shape.rank), _positive_axes(b_axes, b.shape.rank)


def _positive_axes(axes, rank):
    out = []
    for axis in axes:
        if not -rank <= axis < rank:
            raise IndexError(f"tensordot axis {axis} is out of range for a tensor of rank {rank}.")
        out.append(int(axis) % rank)
    return out


def _as_matrix(x, axes, contracted_first):
    """Transpose the free axes and the contracted axes into two groups, then flatten
    each group: the tensor becomes a matrix (TF's `_tensordot_reshape`). Inside
    tf.function a size that is None is read when the graph runs (`_group_size`); the
    free sizes come back as ints where known, else as scalar tensors."""
    dims = x.shape.as_list()
    free = [i for i in range(len(dims)) if i not in axes]
    perm = axes + free if contracted_first else free + axes
    size_free, size_axes = _group_size(x, free), _group_size(x, axes)
    free_dims = [dims[i] if dims[i] is not None else dim_of(x, i) for i in free]
    if perm != list(range(len(dims))):
        x = transpose(x, perm)
    matrix = reshape(x, [size_axes, size_free] if contracted_first else [size_free, size_axes])
    return matrix, free_dims


def _group_size(x, group):
    """How many elements one group of axes holds: an int, or (a size is None) the
    product of tf.shape(x)'s entries, computed when the graph runs."""
    sizes = [x.shape[i] for i in group]
    if None not in sizes:
        return int(np.prod(sizes, dtype=np.int64))
    from .gather_ops import gather
    from .reduction_ops import reduce_prod

    return reduce_prod(gather(shape_of(x), convert_to_tensor(group, dtype=dtypes.int32)))


@tf_export("linalg.tensordot", "tensordot")
def tensordot(a, b, axes, name=None):
    """Sum the products of a and b over the paired axes a_axes and b_axes.

    axes=N pairs the last N axes of a with the first N of b (N=1 is matmul for
    matrices, N=0 the outer product); axes=[[1, 2], [0, 1]] names them.

    >>> tf.tensordot(tf.ones([2, 3]), tf.ones([3, 4]), axes=1).shape
    TensorShape([2, 4])
    """
    a, b = binary_args(a, b)
    a_axes, b_axes = _tensordot_axes(a, b, axes)
    a_matrix, a_free = _as_matrix(a, a_axes, contracted_first=False)
    b_matrix, b_free = _as_matrix(b, b_axes, contracted_first=True)
    product = matmul(a_matrix, b_matrix)
    if product.shape.as_list() == a_free + b_free:
        return product
    return reshape(product, a_free + b_free)  # (None, 4) when a's free size is None, as TF


# --- cross ----------------------------------------------------------------------------------
def _cross_shape(a, b):
    if a.rank == 0:
        raise errors.op_error(errors.InvalidArgumentError, "Cross",
                              f"Input must be at least 1D{dims_text(a)}",
                              "cross takes 3-vectors (on the last axis).")
    if a.is_fully_defined() and b.is_fully_defined() and a != b:
        raise errors.op_error(
            errors.InvalidArgumentError, "Cross",
            f"Both inputs must be of same shape: {dims_text(a)} vs. {dims_text(b)}",
            "cross does not broadcast; tf.broadcast_to both inputs to one shape first.")
    if a.rank is not None and a[-1] not in (None, 3):
        raise errors.op_error(errors.FailedPreconditionError, "Cross",
                              "Cross-products are only defined for 3-element vectors.",
                              f"The last axis has {a[-1]} elements, not 3.")
    return a


def _cross_forward(a, b):
    _cross_shape(TensorShape(a.shape), TensorShape(b.shape))
    return np.cross(a, b)


Cross = Op("Cross", _cross_forward, dtypes=dtypes.REAL, shape=_cross_shape)


@Cross.def_grad
def _cross_grad(op, dy):
    u, v = op.inputs  # <dy, u x v> = <v x dy, u> = <dy x u, v>
    return cross(v, dy), cross(dy, u)


@tf_export("linalg.cross")
def cross(a, b, name=None):
    """The cross product of 3-vectors on the last axis: a x b, perpendicular to both.

    >>> tf.linalg.cross([1.0, 0.0, 0.0], [0.0, 1.0, 0.0])
    <tf.Tensor: shape=(3,), dtype=float32, numpy=array([0., 0., 1.], dtype=float32)>
    """
    a, b = binary_args(a, b)
    return apply(Cross, [a, b])
