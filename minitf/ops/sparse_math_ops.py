"""tf.sparse math: add, maximum, minimum, reduce_sum, reduce_max, softmax, `st * dense`.

>>> import minitf as tf
>>> a = tf.SparseTensor([[0, 0], [1, 1]], [1.0, 2.0], [2, 2])
>>> b = tf.SparseTensor([[0, 0], [0, 1]], [10.0, 20.0], [2, 2])
>>> tf.sparse.to_dense(tf.sparse.add(a, b)).numpy()
array([[11., 20.],
       [ 0.,  2.]], dtype=float32)
>>> tf.sparse.reduce_sum(a, axis=1).numpy()
array([1., 2.], dtype=float32)
>>> (a * tf.constant([[3.0], [4.0]])).values.numpy()     # a dense factor, read at each entry
array([3., 8.], dtype=float32)

Two SparseTensors are merged the way TF's kernels do it: one walk over both
index lists, assuming each is in row-major order (`tf.sparse.reorder` first if
not). A sum whose magnitude is below `threshold` is left out.

Some element-wise ops take a SparseTensor and apply to its values (zero stays
zero for each of them): tf.math.abs, negative, sign, square, sqrt, sin, tan,
asin, atan, asinh, atanh, tanh, erf, bessel_i0e, bessel_i1e, and tf.cast,
tf.identity - the same list as TF 2.21.
"""
import functools
import sys

import numpy as np

from ..framework import api_namespace, dtypes, errors
from ..framework.op import Op, apply
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import REGISTRY, tf_export
from . import math_ops, unary_ops  # noqa: F401 - their names must be registered first
from .sparse_tensor import SparseTensor, check_sparse

_I64 = dtypes.int64


def _fail(op_name, message, hint):
    raise errors.op_error(errors.InvalidArgumentError, op_name, message, hint)


def _compare(x, y):
    for u, v in zip(x, y):
        if u != v:
            return -1 if u < v else 1
    return 0


def merge_walk(a_indices, b_indices):
    """[(i or -1, j or -1)]: TF's one walk over two (sorted) index lists, matching equal ones."""
    a, b = a_indices.tolist(), b_indices.tolist()
    i = j = 0
    steps = []
    while i < len(a) and j < len(b):
        order = _compare(a[i], b[j])
        steps.append((i if order <= 0 else -1, j if order >= 0 else -1))
        i, j = i + (order <= 0), j + (order >= 0)
    steps += [(k, -1) for k in range(i, len(a))] + [(-1, k) for k in range(j, len(b))]
    return steps


def _check_same_shape(op_name, a_shape, b_shape):
    if a_shape.size != b_shape.size:
        _fail(op_name, f"Operands do not have the same ranks; got shapes: {a_shape.tolist()} "
              f"and {b_shape.tolist()}", "Both SparseTensors need the same dense_shape.")
    for d, (x, y) in enumerate(zip(a_shape, b_shape)):
        if x != y:
            _fail(op_name, f"Operands' shapes do not match: got {x} and {y} for dimension {d}",
                  "Both SparseTensors need the same dense_shape.")


def _take(indices_a, indices_b, steps, rank):
    rows = [indices_a[i] if i >= 0 else indices_b[j] for i, j in steps]
    return np.array(rows, np.int64).reshape(-1, rank)


# --- SparseAdd --------------------------------------------------------------------------------
def _sparse_add(a_indices, a_values, a_shape, b_indices, b_values, b_shape, thresh):
    _check_same_shape("SparseAdd", a_shape, b_shape)
    kept, values = [], []
    for i, j in merge_walk(a_indices, b_indices):
        if i >= 0 and j >= 0:
            total = a_values[i] + b_values[j]
            if thresh <= np.abs(total):
                kept.append((i, j))
                values.append(total)
        else:
            kept.append((i, j))
            values.append(a_values[i] if i >= 0 else b_values[j])
    indices = _take(a_indices, b_indices, kept, a_shape.size)
    return indices, np.array(values, a_values.dtype).reshape(-1), a_shape


SparseAdd = Op("SparseAdd", _sparse_add, num_outputs=3, typed=(1, 4, 6),
               shape=lambda ai, av, ash, *rest: (TensorShape([None, ash[0]]),
                                                  TensorShape([None]), ash),
               dtype=lambda ai, av, *rest: (_I64, av, _I64))


def _sparse_add_grad(dy, a_indices, b_indices, sum_indices):
    """TF's SparseAddGrad: each input entry's gradient is dy at its output entry (0 if it
    was dropped by the threshold)."""
    out = sum_indices.tolist()
    grads = []
    for indices in (a_indices, b_indices):
        grad, k = np.zeros(indices.shape[0], dy.dtype), 0
        for i, index in enumerate(indices.tolist()):
            while k < len(out) and _compare(out[k], index) < 0:
                k += 1
            if k < len(out) and out[k] == index:
                grad[i] = dy[k]
        grads.append(grad)
    return tuple(grads)


SparseAddGrad = Op("SparseAddGrad", _sparse_add_grad, num_outputs=2, typed=(0,),
                   shape=lambda dy, a, b, s: (TensorShape([a[0]]), TensorShape([b[0]])),
                   dtype=lambda dy, *rest: (dy, dy))


@SparseAdd.def_grad
def _sparse_add_gradient(op, d_indices, d_values, d_shape):
    a_grad, b_grad = apply(SparseAddGrad, [d_values, op.inputs[0], op.inputs[3],
                                           op.outputs[0]])
    return None, a_grad, None, None, b_grad, None, None


def _sparse_dense_add(indices, values, shape, dense):
    hint = "The dense operand must have the SparseTensor's dense_shape."
    if shape.size != dense.ndim:
        _fail("SparseTensorDenseAdd", "Two operands have different ranks; received: "
              f"{shape.size} and {dense.ndim}", hint)
    for d, (x, y) in enumerate(zip(shape.tolist(), dense.shape)):
        if x != y:
            _fail("SparseTensorDenseAdd", f"Dimension {d} does not equal (no broadcasting is "
                  f"supported): sparse side {x} vs dense side {y}", hint)
    out = dense.copy()
    np.add.at(out, tuple(indices.T), values)
    return out


SparseTensorDenseAdd = Op("SparseTensorDenseAdd", _sparse_dense_add, typed=(1, 3),
                          shape=lambda i, v, s, d: d)


@SparseTensorDenseAdd.def_grad
def _sparse_dense_add_grad(op, dy):
    from .gather_ops import gather_nd
    return None, gather_nd(dy, op.inputs[0]), None, dy


@tf_export("sparse.add")
def add(a, b, threshold=0):
    """a + b. Two SparseTensors give a SparseTensor (a sum with |sum| < threshold is left
    out); a SparseTensor and a dense Tensor give a dense Tensor.

    >>> a = tf.SparseTensor([[0, 0], [0, 1]], [1.0, 0.5], [1, 2])
    >>> b = tf.SparseTensor([[0, 0], [0, 1]], [-1.0, 0.5], [1, 2])
    >>> tf.sparse.add(a, b, threshold=0.1).values.numpy()
    array([1.], dtype=float32)
    """
    sparse_a, sparse_b = isinstance(a, SparseTensor), isinstance(b, SparseTensor)
    if not (sparse_a or sparse_b):
        raise TypeError("At least one input should be SparseTensor; do you mean to use tf.add()?")
    if sparse_a and sparse_b:
        thresh = convert_to_tensor(threshold, dtype=_real_dtype(a.dtype))
        indices, values, shape = apply(SparseAdd, [a.indices, a.values, a.dense_shape,
                                                   b.indices, b.values, b.dense_shape, thresh])
        return SparseTensor(indices, values, shape)
    sparse, dense = (a, b) if sparse_a else (b, a)
    dense = convert_to_tensor(dense, dtype=sparse.dtype)
    return apply(SparseTensorDenseAdd, [sparse.indices, sparse.values, sparse.dense_shape,
                                        dense])


def _real_dtype(dtype):
    return getattr(dtype, "real_dtype", dtype)


# --- SparseSparseMaximum / Minimum -----------------------------------------------------------
def _extremum(pick, name):
    def forward(a_indices, a_values, a_shape, b_indices, b_values, b_shape):
        _check_same_shape(name, a_shape, b_shape)
        steps = merge_walk(a_indices, b_indices)
        zero = np.zeros((), a_values.dtype)
        values = [pick(a_values[i] if i >= 0 else zero, b_values[j] if j >= 0 else zero)
                  for i, j in steps]
        return _take(a_indices, b_indices, steps, a_shape.size), \
            np.array(values, a_values.dtype).reshape(-1)
    return Op(name, forward, num_outputs=2, typed=(1, 4),
              shape=lambda ai, av, ash, *r: (TensorShape([None, ash[0]]), TensorShape([None])),
              dtype=lambda ai, av, *r: (_I64, av))


SparseSparseMaximum = _extremum(np.maximum, "SparseSparseMaximum")
SparseSparseMinimum = _extremum(np.minimum, "SparseSparseMinimum")


def _extremum_call(op, sp_a, sp_b):
    check_sparse(sp_a, "sp_a")
    check_sparse(sp_b, "sp_b")
    indices, values = apply(op, [sp_a.indices, sp_a.values, sp_a.dense_shape,
                                 sp_b.indices, sp_b.values, sp_b.dense_shape])
    return SparseTensor(indices, values, sp_a.dense_shape)


@tf_export("sparse.maximum")
def maximum(sp_a, sp_b, name=None):
    """The element-wise maximum of two SparseTensors (a missing entry counts as 0).

    >>> a = tf.SparseTensor([[0], [1]], [1.0, -2.0], [2])
    >>> tf.sparse.maximum(a, tf.SparseTensor([[0]], [3.0], [2])).values.numpy()
    array([3., 0.], dtype=float32)
    """
    return _extremum_call(SparseSparseMaximum, sp_a, sp_b)


@tf_export("sparse.minimum")
def minimum(sp_a, sp_b, name=None):
    """The element-wise minimum of two SparseTensors (a missing entry counts as 0).

    >>> a = tf.SparseTensor([[0], [1]], [1.0, -2.0], [2])
    >>> tf.sparse.minimum(a, tf.SparseTensor([[0]], [3.0], [2])).values.numpy()
    array([ 1., -2.], dtype=float32)
    """
    return _extremum_call(SparseSparseMinimum, sp_a, sp_b)


# --- st * dense, st / dense: the dense operand read at each stored entry ---------------------
def _dense_at_entries(op_name, sp, dense):
    """dense broadcast to sp's dense_shape (never the other way), read at sp's indices."""
    from .array_ops import broadcast_to
    from .gather_ops import gather_nd
    from .shape_ops import constant_value
    shape = constant_value(sp.dense_shape)
    if shape is not None and dense.shape.rank is not None:
        dims = dense.shape.as_list()
        fits = len(dims) <= len(shape) and all(
            d is None or d in (1, s) for d, s in zip(dims[::-1], shape[::-1].tolist()))
        if not fits:
            _fail(op_name, "SparseDenseBinaryOpShared broadcasts dense to sparse only; got "
                  f"incompatible shapes: [{','.join(map(str, shape.tolist()))}] vs. "
                  f"[{','.join(str(d) for d in dims)}]", "The dense operand must broadcast to "
                  "the SparseTensor's shape (trailing axes equal or 1).")
    return gather_nd(broadcast_to(dense, sp.dense_shape), sp.indices)


def _cwise_mul(sp, other):
    other = convert_to_tensor(other, dtype=sp.dtype)
    return sp.with_values(sp.values * _dense_at_entries("SparseDenseCwiseMul", sp, other))


def _cwise_div(sp, other):
    from .math_ops import cast
    if sp.dtype.is_integer:  # as tf.truediv: integers divide as floats (int32 -> float64)
        wide = dtypes.float32 if sp.dtype.size <= 2 else dtypes.float64
        sp = sp.with_values(cast(sp.values, wide))
        other = cast(convert_to_tensor(other), wide)
    other = convert_to_tensor(other, dtype=sp.dtype)
    at = _dense_at_entries("SparseDenseCwiseDiv", sp, other)
    if hasattr(other, "numpy") and np.any(other.numpy() == 0):  # eager: TF's check
        _fail("SparseDenseCwiseDiv", "SparseDenseCwiseDiv cannot divide by zero,but input "
              "dense tensor contains zero ", "A SparseTensor's missing entries are zeros, and "
              "0 / 0 has no value: keep zeros out of the divisor.")
    return sp.with_values(sp.values / at)


SparseTensor.__mul__ = _cwise_mul
SparseTensor.__truediv__ = _cwise_div
SparseTensor.__div__ = _cwise_div  # Python 2's name, which TF's SparseTensor still has


# --- element-wise ops that keep zeros zero accept a SparseTensor ------------------------------
_ZERO_PRESERVING = ("math.abs math.negative math.sign math.square math.sqrt math.sin math.tan "
                    "math.asin math.atan math.asinh math.atanh math.tanh math.erf "
                    "math.bessel_i0e math.bessel_i1e cast identity").split()


def _sparse_aware(original):
    @functools.wraps(original)
    def op(x, *args, **kwargs):
        if type(x) is SparseTensor:
            return x.with_values(original(x.values, *args, **kwargs))
        return original(x, *args, **kwargs)
    return op


def _install():
    registered = dict(REGISTRY)
    wrappers = {id(registered[n]): _sparse_aware(registered[n]) for n in _ZERO_PRESERVING
                if n in registered}
    for i, (dotted, obj) in enumerate(REGISTRY):
        wrapper = wrappers.get(id(obj))
        if wrapper is None:
            continue
        REGISTRY[i] = (dotted, wrapper)  # `import minitf` builds tf.math & co. from these
        path, _, attr = dotted.rpartition(".")
        module = sys.modules.get(".".join(filter(None, [api_namespace.ROOT, path])))
        if module is not None and getattr(module, attr, None) is obj:
            setattr(module, attr, wrapper)


_install()
