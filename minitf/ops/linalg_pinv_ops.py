"""tf.linalg.pinv and matrix_rank (both read the singular values), and the
tensor diagonals tf.linalg.tensor_diag / tensor_diag_part.

>>> import minitf as tf
>>> tf.linalg.matrix_rank(tf.constant([[1.0, 2.0], [2.0, 4.0]]))
<tf.Tensor: shape=(), dtype=int32, numpy=1>
>>> tf.linalg.tensor_diag(tf.constant([1, 2]))
<tf.Tensor: shape=(2, 2), dtype=int32, numpy=
array([[1, 0],
       [0, 2]], dtype=int32)>

pinv and matrix_rank are compositions of svd and elementwise ops, as TF writes
them (linalg_impl.py), so the gradient of pinv is svd's. A singular value
counts when it exceeds a cutoff relative to the largest one: rcond * max(s)
for pinv (rcond defaults to 10 * max(m, n) * eps) and max(s) * max(m, n) * eps
for matrix_rank unless `tol` is given.
"""
import numpy as np

from ..framework import dtypes, errors
from ..framework.op import Op, apply
from ..framework.tensor import convert_to_tensor
from ..framework.tf_export import tf_export
from .array_ops import expand_dims
from .creation_ops import fill
from .linalg_decompositions import svd
from .linalg_ops import matmul
from .math_ops import cast, where
from .reduction_ops import reduce_max, reduce_sum
from .shape_ops import shape as dynamic_shape


def _check_float(a):
    if not a.dtype.is_floating:
        raise TypeError(f"Input `a` must have `float`-like `dtype` (saw {a.dtype.name}). "
                        "Cast it first, e.g. tf.cast(a, tf.float32).")


@tf_export("linalg.pinv")
def pinv(a, rcond=None, validate_args=False, name=None):
    """The Moore-Penrose pseudo-inverse: V diag(1/s) U^H over the singular values above the cutoff.

    >>> tf.linalg.pinv(tf.constant([[1.0, 2.0]]), rcond=0.5)
    <tf.Tensor: shape=(2, 1), dtype=float32, numpy=
    array([[0.19999999],
           [0.39999998]], dtype=float32)>
    """
    a = convert_to_tensor(a)
    _check_float(a)
    if rcond is None:
        rcond = 10.0 * max(a.shape[-2], a.shape[-1]) * np.finfo(a.dtype.as_numpy_dtype).eps
    rcond = convert_to_tensor(rcond, dtype=a.dtype)
    s, u, v = svd(a, full_matrices=False, compute_uv=True)
    cutoff = rcond * reduce_max(s, axis=-1)
    # Dropped singular values become inf, so 1/s is 0 for them.
    s = where(s > expand_dims(cutoff, -1), s, fill(dynamic_shape(s), np.array(np.inf, s.dtype.as_numpy_dtype)))
    return matmul(v / expand_dims(s, -2), u, adjoint_b=True)


@tf_export("linalg.matrix_rank")
def matrix_rank(a, tol=None, validate_args=False, name=None):
    """How many singular values exceed `tol` (default max(s) * max(m, n) * eps), as int32."""
    a = convert_to_tensor(a, dtype_hint=dtypes.float32)  # as TF: NumPy float64 becomes float32
    _check_float(a)
    s = svd(a, compute_uv=False)
    if tol is None:
        eps = np.finfo(a.dtype.as_numpy_dtype).eps
        tol = reduce_max(s, axis=-1, keepdims=True) * (max(a.shape[-2], a.shape[-1]) * eps)
    else:
        tol = expand_dims(convert_to_tensor(tol, dtype=a.dtype), -1)
    return reduce_sum(cast(s > tol, dtypes.int32), axis=-1)


# --- tensor_diag / tensor_diag_part (TF's Diag and DiagPart) ---------------------------------
_DIAG_TYPES = frozenset({dtypes.float16, dtypes.float32, dtypes.float64,
                         dtypes.int32, dtypes.int64, dtypes.complex64, dtypes.complex128})


def _diag_forward(x):
    if x.ndim == 0:
        raise errors.op_error(errors.InvalidArgumentError, "Diag",
                              "Input must be at least rank 1, got 0",
                              "Pass a vector (or any tensor of rank >= 1).")
    out = np.zeros(x.shape + x.shape, dtype=x.dtype)
    flat = out.reshape(x.size, x.size)
    np.fill_diagonal(flat, x.reshape(-1))
    return out


def _diag_part_forward(x):
    half = x.ndim // 2
    if x.ndim % 2:
        raise errors.op_error(errors.InvalidArgumentError, "DiagPart",
                              "The rank of the tensor should be                                "
                              f"          even and positive, got shape [{_dims(x.shape)}]",
                              "tensor_diag_part undoes tensor_diag: its input has shape s + s.")
    for i in range(half):
        if x.shape[i] != x.shape[i + half]:
            raise errors.op_error(errors.InvalidArgumentError, "DiagPart",
                                  f"Invalid shape [{_dims(x.shape)}]: dimensions {i} and "
                                  f"{i + half} do not match.",
                                  "tensor_diag_part undoes tensor_diag: its input has shape s + s.")
    size = int(np.prod(x.shape[:half], dtype=np.int64))
    return np.ascontiguousarray(np.diagonal(x.reshape(size, size))).reshape(x.shape[:half])


def _dims(shape):
    return ",".join(str(d) for d in shape)


def _diag_shape(shape):
    return shape if shape.rank is None else shape.concatenate(shape)


def _diag_part_shape(shape):
    return shape if shape.rank is None else shape[:shape.rank // 2]


Diag = Op("Diag", _diag_forward, dtypes=_DIAG_TYPES, shape=_diag_shape)
DiagPart = Op("DiagPart", _diag_part_forward, dtypes=_DIAG_TYPES, shape=_diag_part_shape)
Diag.def_grad(lambda op, dy: apply(DiagPart, [dy]))
DiagPart.def_grad(lambda op, dy: apply(Diag, [dy]))


@tf_export("linalg.tensor_diag")
def tensor_diag(diagonal, name=None):
    """output[i1..ik, i1..ik] = diagonal[i1..ik], zeros elsewhere: shape s becomes s + s."""
    return apply(Diag, [convert_to_tensor(diagonal)])


@tf_export("linalg.tensor_diag_part")
def tensor_diag_part(input, name=None):
    """The inverse of tensor_diag: output[i1..ik] = input[i1..ik, i1..ik] for shape s + s.

    >>> tf.linalg.tensor_diag_part(tf.constant([[1, 2], [3, 4]]))
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([1, 4], dtype=int32)>
    """
    return apply(DiagPart, [convert_to_tensor(input)])
