"""Scans: running sums and products along one axis (`cumsum`, `cumprod`).

>>> import minitf as tf
>>> tf.cumsum(tf.constant([1.0, 2.0, 3.0]))
<tf.Tensor: shape=(3,), dtype=float32, numpy=array([1., 3., 6.], dtype=float32)>
>>> tf.cumsum(tf.constant([1.0, 2.0, 3.0]), exclusive=True, reverse=True)
<tf.Tensor: shape=(3,), dtype=float32, numpy=array([5., 3., 0.], dtype=float32)>

`exclusive=True` leaves out the current entry (output i combines entries
before i); `reverse=True` runs from the end of the axis towards the start.
"""
import numpy as np

from ..framework import dtypes, errors
from ..framework.gradient_ops import ones_like, zeros_like
from ..framework.op import Op, apply
from ..framework.tensor import convert_to_tensor
from ..framework.tf_export import tf_export
from .shape_rules import same_shape


def _scan(ufunc, identity):
    """A NumPy forward for a scan: `ufunc.accumulate` plus the exclusive/reverse options."""

    def forward(x, axis, exclusive, reverse):
        if reverse:
            x = np.flip(x, axis)
        out = ufunc.accumulate(x, axis=axis, dtype=x.dtype)
        if exclusive and out.shape[axis]:  # shift by one along the axis, start at the identity
            first = np.full_like(np.take(out, [0], axis=axis), identity)
            out = np.concatenate([first, np.delete(out, -1, axis=axis)], axis=axis)
        return np.flip(out, axis) if reverse else out

    return forward


def _scan_axis(op_name, x, axis):
    """The scan axis as a non-negative int, or TF's ScanOp error."""
    if hasattr(axis, "numpy"):
        axis = axis.numpy()
    if np.ndim(axis) != 0:
        raise errors.op_error(
            errors.InvalidArgumentError, op_name,
            f"ScanOp: axis must be a scalar, not {np.reshape(axis, [-1]).tolist()}",
            "A scan runs along exactly one axis.")
    if isinstance(axis, (float, np.floating)):
        raise TypeError(f"Cannot convert {axis!r} to EagerTensor of dtype int32 "
                        "(axis is an integer).")
    rank = x.shape.rank
    axis = int(axis)
    shown = axis + rank if axis < 0 else axis  # TF reports a negative axis after adding rank
    if not 0 <= shown < rank:
        raise errors.op_error(
            errors.InvalidArgumentError, op_name,
            f"ScanOp: Expected scan axis in the range [{-rank}, {rank}), but got {shown}",
            f"A rank-{rank} tensor has axes 0..{rank - 1} (or -{rank}..-1 from the end)."
            + (" A scalar has no axis to scan along." if rank == 0 else ""))
    return shown


def _apply_scan(op, x, axis, exclusive, reverse):
    x = convert_to_tensor(x)
    attrs = {"axis": _scan_axis(op.name, x, axis), "exclusive": bool(exclusive),
             "reverse": bool(reverse)}
    return apply(op, [x], attrs)


# --- cumsum ------------------------------------------------------------------------
Cumsum = Op("Cumsum", _scan(np.add, 0), dtypes=dtypes.NUMERIC, shape=same_shape)


@Cumsum.def_grad
def _cumsum_grad(op, dy):
    # y_j = sum_{i <= j} x_i, so dL/dx_i = sum_{j >= i} dy_j: the same scan, run backwards.
    a = op.attrs
    return cumsum(dy, a["axis"], exclusive=a["exclusive"], reverse=not a["reverse"])


@tf_export("math.cumsum", "cumsum")
def cumsum(x, axis=0, exclusive=False, reverse=False, name=None):
    """Running sum along `axis`: `y[i] = x[0] + ... + x[i]`.

    >>> tf.cumsum(tf.constant([[1, 2], [3, 4]]), axis=1)
    <tf.Tensor: shape=(2, 2), dtype=int32, numpy=
    array([[1, 3],
           [3, 7]], dtype=int32)>
    """
    return _apply_scan(Cumsum, x, axis, exclusive, reverse)


# --- cumprod -----------------------------------------------------------------------
Cumprod = Op("Cumprod", _scan(np.multiply, 1), dtypes=dtypes.NUMERIC, shape=same_shape)


@Cumprod.def_grad
def _cumprod_grad(op, dy):
    """TF's formula: dL/dx_i = (sum_{j >= i} y_j dy_j) / x_i.

    y_j / x_i is the product of the entries of y_j other than x_i. Where
    x_i == 0 the division is replaced by 0 (TF's `div_no_nan`), so the
    gradient at an exact zero is 0, as in TF, even where the true partial
    derivative is not (use `tf.reduce_prod`, whose gradient handles zeros,
    when that matters).
    """
    from .math_ops import equal, where

    x, a = op.inputs[0], op.attrs
    if not (x.dtype.is_floating or x.dtype.is_complex):
        return None  # integer inputs get no gradient
    out = cumsum(op.outputs[0] * dy, a["axis"], exclusive=a["exclusive"],
                 reverse=not a["reverse"])
    is_zero = equal(x, 0)
    return where(is_zero, zeros_like(x), out / where(is_zero, ones_like(x), x))  # div_no_nan


@tf_export("math.cumprod")
def cumprod(x, axis=0, exclusive=False, reverse=False, name=None):
    """Running product along `axis`: `y[i] = x[0] * ... * x[i]`.

    >>> tf.math.cumprod(tf.constant([1.0, 2.0, 3.0]), exclusive=True)
    <tf.Tensor: shape=(3,), dtype=float32, numpy=array([1., 1., 2.], dtype=float32)>
    """
    return _apply_scan(Cumprod, x, axis, exclusive, reverse)


# --- cumulative_logsumexp -----------------------------------------------------------
CumulativeLogsumexp = Op("CumulativeLogsumexp", _scan(np.logaddexp, -np.inf),
                         dtypes=dtypes.FLOATING, shape=same_shape)


@CumulativeLogsumexp.def_grad
def _cumulative_logsumexp_grad(op, dy):
    """TF's formula: dL/dx_i = sum_{j >= i} dy_j exp(x_i - y_j), split by the sign of dy.

    Each half is itself a cumulative_logsumexp, run backwards, of log|dy_j| - y_j; the
    lowest float stands in for log 0 where dy has the other sign.
    """
    from .math_ops import greater, less, log, where
    from .unary_ops import exp

    x, y, a = op.inputs[0], op.outputs[0], op.attrs
    lowest = convert_to_tensor(x.dtype.min, dtype=x.dtype)

    def half(mask, magnitude):
        log_dy = where(mask, log(where(mask, magnitude, ones_like(magnitude))), lowest)
        summed = cumulative_logsumexp(log_dy - y, a["axis"], exclusive=a["exclusive"],
                                      reverse=not a["reverse"])
        return exp(summed + x)

    return half(greater(dy, 0), dy) - half(less(dy, 0), -dy)


@tf_export("math.cumulative_logsumexp")
def cumulative_logsumexp(x, axis=0, exclusive=False, reverse=False, name=None):
    """Running log(sum(exp(x))) along `axis`, without overflow (-inf for an empty sum).

    >>> tf.math.cumulative_logsumexp(tf.constant([0.0, 1.0, 2.0]))
    <tf.Tensor: shape=(3,), dtype=float32, numpy=array([0.       , 1.3132617, 2.4076061], dtype=float32)>
    """
    return _apply_scan(CumulativeLogsumexp, x, axis, exclusive, reverse)
