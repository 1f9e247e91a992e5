"""`keras.ops` products: matmul, dot, einsum, tensordot, outer, inner, vdot, kron, cross.

Both inputs are cast to their `result_type` first, so an int32 matrix times
a float32 one works (`tf.matmul` would raise). The gradient is `tf.matmul`'s
(or einsum's), as for every op built here.

>>> import minitf as tf
>>> from minitf.keras import ops
>>> ops.matmul(tf.constant([[1, 2]]), tf.constant([[0.5], [0.25]]))
<tf.Tensor: shape=(1, 1), dtype=float32, numpy=array([[1.]], dtype=float32)>
"""
import minitf as tf

from ._export import keras_ops_export
from .. import ops  # noqa: F401 - the examples below call ops.*
from .dtype_rules import convert, promote, result_type


def _pair(x1, x2):
    return promote(convert(x1), convert(x2))


def _computed_in_float(product):
    """Keras's rule for matmul/dot/tensordot: multiply in a float dtype, cast to result_type.

    (TF has no int8/int16/uint matmul kernels; int32 x float32 is float32 either way.)"""
    def op(x1, x2, *args):
        x1, x2 = convert(x1), convert(x2)
        result = result_type(x1.dtype.name, x2.dtype.name)
        compute = result if result in ("int32", "int64") else result_type(result, float)
        out = product(tf.cast(x1, compute), tf.cast(x2, compute), *args)
        return out if out.dtype.name == result else tf.cast(out, result)

    return op


@keras_ops_export("numpy")
def matmul(x1, x2):
    """The matrix product over the last two axes (batch axes broadcast); 1-D as vectors.

    >>> ops.matmul(tf.ones((5, 2, 3)), tf.ones((3, 4))).shape
    TensorShape([5, 2, 4])
    """
    return _computed_in_float(_matmul)(x1, x2)


def _matmul(x1, x2):
    if x1.shape.rank == 1 and x2.shape.rank == 1:
        return tf.reduce_sum(x1 * x2)
    if x1.shape.rank == 1:
        return tf.squeeze(tf.matmul(tf.expand_dims(x1, 0), x2), -2)
    if x2.shape.rank == 1:
        return tf.squeeze(tf.matmul(x1, tf.expand_dims(x2, -1)), -1)
    return tf.matmul(x1, x2)


@keras_ops_export("numpy")
def dot(x1, x2):
    """NumPy's dot: last axis of x1 with the second-to-last of x2 (scalars multiply)."""
    return _computed_in_float(_dot)(x1, x2)


def _dot(x1, x2):
    if x1.shape.rank == 0 or x2.shape.rank == 0:
        return x1 * x2
    if x2.shape.rank == 1:
        return tf.tensordot(x1, x2, [[-1 % x1.shape.rank], [0]])
    return tf.tensordot(x1, x2, [[x1.shape.rank - 1], [x2.shape.rank - 2]])


@keras_ops_export("numpy")
def tensordot(x1, x2, axes=2):
    """Sum over the last `axes` axes of x1 and the first of x2 (or the named pairs)."""
    return _computed_in_float(tf.tensordot)(x1, x2, axes)


@keras_ops_export("numpy")
def einsum(subscripts, *operands, **kwargs):
    """Einstein summation (`tf.einsum`) on operands promoted to one dtype.

    >>> ops.einsum("ij,j->i", tf.constant([[1.0, 2.0]]), tf.constant([3.0, 4.0]))
    <tf.Tensor: shape=(1,), dtype=float32, numpy=array([11.], dtype=float32)>
    """
    operands = [convert(o) for o in operands]
    if len({o.dtype.name for o in operands}) > 1:
        operands = promote(*operands)
    return tf.einsum(subscripts, *operands, **kwargs)


@keras_ops_export("numpy")
def outer(x1, x2):
    """x1[i] * x2[j] for the flattened inputs."""
    x1, x2 = _pair(x1, x2)
    return tf.reshape(x1, [-1, 1]) * tf.reshape(x2, [-1])


@keras_ops_export("numpy")
def inner(x1, x2):
    """Sum of products over the last axes (scalars multiply)."""
    x1, x2 = _pair(x1, x2)
    if x1.shape.rank == 0 or x2.shape.rank == 0:
        return x1 * x2
    return tf.tensordot(x1, x2, [[x1.shape.rank - 1], [x2.shape.rank - 1]])


@keras_ops_export("numpy")
def vdot(x1, x2):
    """The dot product of the flattened inputs (x1 conjugated)."""
    x1, x2 = _pair(x1, x2)
    return tf.reduce_sum(tf.math.conj(tf.reshape(x1, [-1])) * tf.reshape(x2, [-1]))


@keras_ops_export("numpy")
def kron(x1, x2):
    """The Kronecker product: a block of x1[i, j] * x2 for every i, j."""
    x1, x2 = _pair(x1, x2)
    rank = max(x1.shape.rank, x2.shape.rank)
    a = tf.reshape(x1, [1] * (rank - x1.shape.rank) + x1.shape.as_list())
    b = tf.reshape(x2, [1] * (rank - x2.shape.rank) + x2.shape.as_list())
    a_shape, b_shape = a.shape.as_list(), b.shape.as_list()
    a = tf.reshape(a, [d for n in a_shape for d in (n, 1)])
    b = tf.reshape(b, [d for n in b_shape for d in (1, n)])
    return tf.reshape(a * b, [m * n for m, n in zip(a_shape, b_shape)])


@keras_ops_export("numpy")
def cross(x1, x2, axisa=-1, axisb=-1, axisc=-1, axis=None):
    """The cross product of 3-vectors along the last axes.

    >>> ops.cross(tf.constant([1.0, 0.0, 0.0]), tf.constant([0.0, 1.0, 0.0]))
    <tf.Tensor: shape=(3,), dtype=float32, numpy=array([0., 0., 1.], dtype=float32)>
    """
    x1, x2 = _pair(x1, x2)
    if axis is not None:
        axisa = axisb = axisc = axis
    a, b = (tf.unstack(v, axis=ax) for v, ax in ((x1, axisa), (x2, axisb)))
    if len(a) != 3 or len(b) != 3:
        raise ValueError("minitf's `cross` takes 3-vectors. Received vectors of "
                         f"{len(a)} and {len(b)} components.")
    c = [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]]
    return tf.stack(c, axis=axisc)
