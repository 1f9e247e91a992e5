"""Norms: tf.norm (= tf.linalg.norm), tf.linalg.normalize and tf.math.l2_normalize.

>>> import minitf as tf
>>> tf.norm(tf.constant([3.0, 4.0]))
<tf.Tensor: shape=(), dtype=float32, numpy=5.0>
>>> tf.math.l2_normalize(tf.constant([3.0, 4.0]))
<tf.Tensor: shape=(2,), dtype=float32, numpy=array([0.6, 0.8], dtype=float32)>

None of these is an op of its own: as in TensorFlow they are compositions of
abs, reduce_sum, reduce_max, sqrt, pow and (for the matrix 2-norm) svd, so
their gradients follow from those ops' gradients.
"""
import numbers

import numpy as np

from ..framework.tensor import convert_to_tensor
from ..framework.tf_export import tf_export
from .array_ops import expand_dims, squeeze, transpose
from .linalg_decompositions import svd
from .math_ops import abs as abs_
from .math_ops import cast, conj, maximum, pow as pow_
from .reduction_ops import reduce_max, reduce_sum
from .unary_ops import rsqrt, sqrt, square

_MATRIX_NORMS = ["euclidean", "fro", 1, 2, np.inf]
_VECTOR_NORMS = ["euclidean", 1, 2, np.inf]


def _check_norm_args(ord, axis):
    """TF's argument checks; returns (is_matrix_norm, axis as a tuple or None)."""
    is_matrix_norm = isinstance(axis, (tuple, list)) and len(axis) == 2
    if is_matrix_norm:
        axis = tuple(axis)
        if not all(isinstance(a, numbers.Integral) for a in axis) or axis[0] == axis[1]:
            raise ValueError("'axis' must be None, an integer, or a tuple of 2 unique "
                             f"integers, got {axis}")
        if ord not in _MATRIX_NORMS:
            raise ValueError(f"'ord' must be a supported matrix norm in {_MATRIX_NORMS}, "
                             f"got {ord}")
        return True, axis
    if not (isinstance(axis, numbers.Integral) or axis is None):
        raise ValueError("'axis' must be None, an integer, or a tuple of 2 unique integers, "
                         f"got {axis}")
    p_norm = isinstance(ord, numbers.Real) and not isinstance(ord, bool) and ord > 0
    if not p_norm and ord not in _VECTOR_NORMS:
        raise ValueError(f"'ord' must be a supported vector norm, got {ord}")
    return False, None if axis is None else (axis,)


def _spectral_norm(tensor, axis):
    """The matrix 2-norm: the largest singular value of the matrices on `axis`."""
    rank = tensor.shape.rank
    axis = [a % rank for a in axis]
    perm = [i for i in range(rank) if i not in axis] + axis  # the matrix axes go last
    s = svd(transpose(tensor, perm), compute_uv=False)
    largest = expand_dims(reduce_max(s, axis=-1, keepdims=True), -1)
    return transpose(largest, [int(i) for i in np.argsort(perm)])


@tf_export("norm", "linalg.norm")
def norm(tensor, ord="euclidean", axis=None, keepdims=None, name=None):
    """The p-norm of a vector, or a norm of a matrix, over `axis`.

    Vector norms (axis None or an int): 'euclidean' (= 2), 1, inf, or any p > 0:
    (sum_i |x_i|^p)^(1/p). With axis None the tensor is one long vector.
    Matrix norms (axis a pair): 'fro'/'euclidean' (sqrt of the sum of squares),
    1 (largest column sum of |x|), inf (largest row sum), 2 (largest singular value).

    >>> x = tf.constant([[1.0, -2.0], [3.0, 4.0]])
    >>> tf.norm(x, ord=1, axis=[0, 1])
    <tf.Tensor: shape=(), dtype=float32, numpy=6.0>
    """
    is_matrix_norm, axis = _check_norm_args(ord, axis)
    tensor = convert_to_tensor(tensor)
    if ord in ("fro", "euclidean", 2, 2.0):
        if is_matrix_norm and ord in (2, 2.0):
            result = _spectral_norm(tensor, axis)
        else:
            result = sqrt(reduce_sum(tensor * conj(tensor), axis, keepdims=True))
    else:
        result = abs_(tensor)
        if ord == 1:
            result = reduce_sum(result, None if axis is None else axis[0], keepdims=True)
            if is_matrix_norm:
                result = reduce_max(result, axis[-1], keepdims=True)
        elif ord == np.inf:
            if is_matrix_norm:
                result = reduce_sum(result, axis[1], keepdims=True)
            result = reduce_max(result, None if axis is None else axis[0], keepdims=True)
        else:
            result = pow_(reduce_sum(pow_(result, ord), axis, keepdims=True), 1.0 / ord)
    if not keepdims:
        result = squeeze(result, axis)
    return result


@tf_export("linalg.normalize")
def normalize(tensor, ord="euclidean", axis=None, name=None):
    """(tensor / norm, norm), with the norm kept as a broadcastable tensor.

    >>> unit, length = tf.linalg.normalize(tf.constant([3.0, 4.0]))
    >>> unit, length
    (<tf.Tensor: shape=(2,), dtype=float32, numpy=array([0.6, 0.8], dtype=float32)>, <tf.Tensor: shape=(1,), dtype=float32, numpy=array([5.], dtype=float32)>)
    """
    tensor = convert_to_tensor(tensor)
    length = cast(norm(tensor, ord=ord, axis=axis, keepdims=True), tensor.dtype)
    return tensor / length, length


@tf_export("math.l2_normalize", "linalg.l2_normalize", "nn.l2_normalize")
def l2_normalize(x, axis=None, epsilon=1e-12, name=None, dim=None):
    """x / sqrt(max(sum(x**2, axis), epsilon)): unit length along `axis` (zeros stay zero).

    minitf handles real floating tensors (TensorFlow also takes complex ones).
    """
    axis = dim if axis is None else axis
    x = convert_to_tensor(x)
    if x.dtype.is_complex:
        raise TypeError("minitf's l2_normalize takes real floating tensors; for complex x "
                        "use x / tf.cast(tf.norm(x, axis=axis, keepdims=True), x.dtype).")
    square_sum = reduce_sum(square(x), axis, keepdims=True)
    return x * rsqrt(maximum(square_sum, epsilon))
