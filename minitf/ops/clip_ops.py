"""Guards against bad numbers: clipping, and arithmetic where a zero beats nan and inf.

* `tf.clip_by_value` puts each element into [min, max]; `tf.clip_by_norm`
  rescales a tensor so its L2 norm is at most clip_norm. Neither is an op of
  its own: as in TensorFlow (`clip_ops.py`) both are composed of ops that
  already have gradients (minimum, maximum, sqrt, where, ...), so their
  gradients - and second derivatives - come for free.
* `tf.math.divide_no_nan`, `multiply_no_nan`, `xlogy` and `xdivy` are real ops
  (DivNoNan, MulNoNan, Xlogy, Xdivy) that give 0 where plain arithmetic would
  give nan or inf: 0 / 0, 0 * inf, 0 log 0.

>>> import minitf as tf
>>> tf.clip_by_value(tf.constant([-2.0, 0.5, 3.0]), -1.0, 1.0)
<tf.Tensor: shape=(3,), dtype=float32, numpy=array([-1. ,  0.5,  1. ], dtype=float32)>
>>> tf.math.divide_no_nan(tf.constant([1.0, 0.0]), 0.0)
<tf.Tensor: shape=(2,), dtype=float32, numpy=array([0., 0.], dtype=float32)>
"""
import numpy as np

from ..framework import dtypes
from ..framework.gradient_ops import ones_like
from ..framework.op import Op, apply
from ..framework.tensor import convert_to_tensor
from ..framework.tf_export import tf_export
from .creation_ops import identity
from .math_ops import binary_args, cast, conj, maximum, minimum, not_equal, where
from .reduction_ops import reduce_sum
from .shape_rules import broadcast
from .unary_ops import sqrt
from .unbroadcast import unbroadcast


# --- clipping ------------------------------------------------------------------------------
def _check_not_enlarged(values, result, what):
    """TF refuses clip arguments that would broadcast `t` to a bigger shape."""
    if not values.shape.is_compatible_with(result.shape):
        raise ValueError(f"Shapes {values.shape} and {result.shape} are incompatible. "
                         f"{what} may broadcast against t, but must not make the result "
                         "bigger than t.")


@tf_export("clip_by_value")
def clip_by_value(t, clip_value_min, clip_value_max, name=None):
    """min(max(t, clip_value_min), clip_value_max), element-wise.

    The gradient passes to t where clip_value_min <= t <= clip_value_max
    (boundaries included) and to the bound that was used elsewhere. TF computes
    it as maximum(minimum(t, max), min), so if clip_value_min > clip_value_max
    every element becomes clip_value_min.

    >>> tf.clip_by_value(tf.constant([-10, 0, 5, 10]), -1, 6)
    <tf.Tensor: shape=(4,), dtype=int32, numpy=array([-1,  0,  5,  6], dtype=int32)>
    """
    values = convert_to_tensor(t)
    t_min = minimum(values, clip_value_max)
    _check_not_enlarged(values, t_min, "clip_value_max")
    t_max = maximum(t_min, clip_value_min)
    _check_not_enlarged(values, t_max, "clip_value_min")
    return t_max


@tf_export("clip_by_norm")
def clip_by_norm(t, clip_norm, axes=None, name=None):
    """t * clip_norm / max(||t||_2, clip_norm): shrink t so its L2 norm is at most clip_norm.

    The norm is taken over `axes` (all axes when None), so `axes=[1]` clips each
    row of a matrix on its own. A negative clip_norm counts as 0.

    >>> tf.clip_by_norm(tf.constant([3.0, 4.0]), 1.0)
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([0.6, 0.8], dtype=float32)>
    """
    values = convert_to_tensor(t)
    if np.isscalar(clip_norm):
        clip_norm = max(clip_norm, 0)
    else:
        clip_norm = cast(maximum(clip_norm, 0), values.dtype)
    l2sum = reduce_sum(values * values, axes, keepdims=True)
    pred = l2sum > 0
    # The "double where": sqrt'(0) is inf, and inf * 0 = nan would poison the gradient of
    # an all-zero t, so sqrt never sees a 0 (it gets 1 there, whose result is discarded).
    l2sum_safe = where(pred, l2sum, ones_like(l2sum))
    l2norm = where(pred, sqrt(l2sum_safe), l2sum)
    intermediate = values * clip_norm
    _check_not_enlarged(values, intermediate, "clip_norm")
    return identity(intermediate / maximum(l2norm, clip_norm))


# --- "safe" two-tensor ops: a zero wins over nan and inf ---------------------------------------
def _safe(op_name, forward):
    def quiet(x, y):
        with np.errstate(all="ignore"):  # 0 * inf, x / 0: the very cases these ops are for
            return forward(x, y)

    return Op(op_name, quiet, dtypes=dtypes.INEXACT, shape=broadcast(op_name))


def _zero_where(condition, values):
    return np.where(condition, np.zeros_like(values), values)


DivNoNan = _safe("DivNoNan", lambda x, y: _zero_where(y == 0, x / y))
MulNoNan = _safe("MulNoNan", lambda x, y: _zero_where(y == 0, x * y))
Xlogy = _safe("Xlogy", lambda x, y: _zero_where(x == 0, x * np.log(y)))
Xdivy = _safe("Xdivy", lambda x, y: _zero_where(x == 0, x / y))


def _reduce_to_inputs(op, gx, gy):
    x, y = op.inputs
    return unbroadcast(gx, x), unbroadcast(gy, y)


@DivNoNan.def_grad
def _div_no_nan_grad(op, dy):
    x, y = conj(op.inputs[0]), conj(op.inputs[1])  # d(x/y)/dx = 1/y, d(x/y)/dy = -x/y^2
    return _reduce_to_inputs(op, divide_no_nan(dy, y),
                             dy * divide_no_nan(divide_no_nan(-x, y), y))


@MulNoNan.def_grad
def _mul_no_nan_grad(op, dy):
    x, y = op.inputs
    return _reduce_to_inputs(op, multiply_no_nan(dy, y), multiply_no_nan(x, dy))


def _nonzero(x):
    return cast(not_equal(x, 0), x.dtype)  # 1 where x != 0, else 0


@Xlogy.def_grad
def _xlogy_grad(op, dy):
    x, y = op.inputs  # d(x log y)/dx = log y (0 where x == 0, as TF), d/dy = x / y
    return _reduce_to_inputs(op, dy * xlogy(_nonzero(x), y), dy * xdivy(x, y))


@Xdivy.def_grad
def _xdivy_grad(op, dy):
    x, y = op.inputs  # d(x/y)/dx = 1/y (0 where x == 0, as TF), d/dy = -x/y^2
    return _reduce_to_inputs(op, dy * xdivy(_nonzero(x), y), dy * xdivy(-x, y * y))


_TRUEDIV_FLOAT = {1: dtypes.float32, 2: dtypes.float32, 4: dtypes.float64, 8: dtypes.float64}


@tf_export("math.divide_no_nan")
def divide_no_nan(x, y, name=None):
    """x / y, but 0 wherever y == 0 (even 0 / 0 and inf / 0); integers divide as floats like `/`.

    >>> tf.math.divide_no_nan(tf.constant([3.0, 3.0]), tf.constant([2.0, 0.0]))
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([1.5, 0. ], dtype=float32)>
    """
    x, y = binary_args(x, y)
    if x.dtype is not y.dtype:
        raise TypeError(f"`x` and `y` must have the same dtype, got {x.dtype!r} != {y.dtype!r}. "
                        "Cast one of them with tf.cast first.")
    if x.dtype.is_integer:  # TF's truediv table: int8/16 -> float32, int32/64 -> float64
        x, y = cast(x, _TRUEDIV_FLOAT[x.dtype.size]), cast(y, _TRUEDIV_FLOAT[y.dtype.size])
    elif not (x.dtype.is_floating or x.dtype.is_complex):
        raise TypeError(f"Invalid dtype {x.dtype!r} in tf.math.divide_no_nan. Expected one of "
                        "{tf.uint8, tf.int8, tf.uint16, tf.int16, tf.uint32, tf.int32, tf.uint64, "
                        "tf.int64, tf.float16, tf.float32, tf.float64, tf.complex64, "
                        "tf.complex128}. Division needs numbers: tf.cast bool tensors first.")
    return apply(DivNoNan, [x, y])


@tf_export("math.multiply_no_nan")
def multiply_no_nan(x, y, name=None):
    """x * y, but 0 wherever y == 0, even if x is nan or inf there.

    >>> tf.math.multiply_no_nan(tf.constant([float("inf"), 2.0]), tf.constant([0.0, 3.0]))
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([0., 6.], dtype=float32)>
    """
    x = convert_to_tensor(x)
    y = convert_to_tensor(y, dtype=x.dtype)  # TF converts y to x's dtype, or fails
    return apply(MulNoNan, [x, y])


@tf_export("math.xlogy")
def xlogy(x, y, name=None):
    """x * log(y), but 0 wherever x == 0 (so 0 log 0 = 0, as in entropy formulas).

    >>> tf.math.xlogy(tf.constant([0.0, 2.0]), tf.constant([0.0, 1.0]))
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([0., 0.], dtype=float32)>
    """
    x, y = binary_args(x, y)
    return apply(Xlogy, [x, y])


@tf_export("math.xdivy")
def xdivy(x, y, name=None):
    """x / y, but 0 wherever x == 0 (so 0 / 0 = 0).

    >>> tf.math.xdivy(tf.constant([0.0, 3.0]), tf.constant([0.0, 2.0]))
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([0. , 1.5], dtype=float32)>
    """
    x, y = binary_args(x, y)
    return apply(Xdivy, [x, y])
