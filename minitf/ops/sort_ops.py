"""Ordering: `argmax`/`argmin`, `sort`/`argsort`, `top_k` and `unique`.

>>> import minitf as tf
>>> x = tf.constant([[3.0, 1.0, 2.0], [0.0, 5.0, 4.0]])
>>> tf.argmax(x, axis=1)
<tf.Tensor: shape=(2,), dtype=int64, numpy=array([0, 1])>
>>> tf.sort(x)
<tf.Tensor: shape=(2, 3), dtype=float32, numpy=
array([[1., 2., 3.],
       [0., 4., 5.]], dtype=float32)>
>>> tf.math.top_k(x, k=2).indices
<tf.Tensor: shape=(2, 2), dtype=int32, numpy=
array([[0, 2],
       [1, 2]], dtype=int32)>

Indices are not differentiable, but sorted values are: `sort` and `top_k`
only move values around, so their gradient moves each upstream gradient
back to the position its value came from (`PutAlongAxis` below).
Ties keep their original order (the lower index comes first), as in TF.
"""
import collections

import numpy as np

from ..framework import dtypes, errors
from ..framework.op import Op, apply, type_name
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export
from .dtype_rules import from_attr, values_and_indices
from .shape_rules import dims_text, normalize_axis


def _check_index_dtype(op_name, attr, dtype, allowed):
    dtype = dtypes.as_dtype(dtype)
    if dtype not in allowed:
        names = ", ".join(type_name(d) for d in allowed)
        raise errors.op_error(
            errors.InvalidArgumentError, op_name,
            f"Value for attr '{attr}' of {type_name(dtype)} is not in the list of allowed "
            f"values: {names}", "Indices are integers: pick one of the listed dtypes.")
    return dtype


def _static_int(value):
    """A Python int from an int or a scalar tensor (sort axes and k must be known)."""
    if hasattr(value, "numpy"):
        value = value.numpy()
    if np.ndim(value) != 0:
        return None
    return int(value)


# --- moving values along an axis (minitf-internal; TF uses gather/scatter_nd) -------------
def _take_along_axis_shape(params, indices, axis):
    return indices


def _put_along_axis_forward(updates, indices, axis, size):
    shape = list(updates.shape)
    shape[axis] = size
    out = np.zeros(shape, updates.dtype)
    np.put_along_axis(out, indices, updates, axis)
    return out


def _put_along_axis_shape(updates, indices, axis, size):
    dims = updates.as_list() if updates.rank is not None else None
    return TensorShape(None) if dims is None else TensorShape(dims[:axis] + [size] +
                                                              dims[axis + 1:])


# TakeAlongAxis: out[..., j, ...] = params[..., indices[..., j, ...], ...]  (a gather)
TakeAlongAxis = Op("TakeAlongAxis",
                   lambda params, indices, axis: np.take_along_axis(params, indices, axis),
                   typed=(0,), shape=_take_along_axis_shape)
# PutAlongAxis: the reverse move, into zeros of length `size` (indices distinct per slice).
PutAlongAxis = Op("PutAlongAxis", _put_along_axis_forward, typed=(0,),
                  shape=_put_along_axis_shape)


@TakeAlongAxis.def_grad
def _take_along_axis_grad(op, dy):
    params, indices = op.inputs
    axis = op.attrs["axis"]
    return put_along_axis(dy, indices, axis, params.shape[axis], params), None


@PutAlongAxis.def_grad
def _put_along_axis_grad(op, dy):
    return apply(TakeAlongAxis, [dy, op.inputs[1]], {"axis": op.attrs["axis"]}), None


def put_along_axis(updates, indices, axis, size, like=None):
    """Zeros of length `size` along `axis`, with `updates[j]` written at `indices[j]`.
    A None size (inside tf.function) is read from `like`'s shape when the graph runs."""
    if size is None:
        from .shape_ops import dim_of

        return apply(PutAlongAxisDynamic, [updates, indices, dim_of(like, axis)],
                     {"axis": axis})
    return apply(PutAlongAxis, [updates, indices], {"axis": axis, "size": int(size)})


PutAlongAxisDynamic = Op(
    "PutAlongAxis", lambda updates, indices, size, axis: _put_along_axis_forward(
        updates, indices, axis, int(size)), typed=(0,),
    shape=lambda updates, indices, size, axis: _put_along_axis_shape(updates, indices, axis,
                                                                     None))


@PutAlongAxisDynamic.def_grad
def _put_along_axis_dynamic_grad(op, dy):
    return apply(TakeAlongAxis, [dy, op.inputs[1]], {"axis": op.attrs["axis"]}), None, None


# --- argmax / argmin -------------------------------------------------------------------
# TF's kernels: ArgMax can also write int16/uint16 indices, ArgMin only int32/int64.
_ARG_INDEX_TYPES = {"ArgMax": (dtypes.int16, dtypes.uint16, dtypes.int32, dtypes.int64),
                    "ArgMin": (dtypes.int32, dtypes.int64)}


def _arg_forward(pick, nan_fill):
    def forward(x, axis, output_type):
        if x.dtype.kind == "f" and np.isnan(x).any():
            x = np.where(np.isnan(x), nan_fill, x)  # TF's kernel never picks a NaN
        return pick(x, axis=axis).astype(output_type.as_numpy_dtype)

    return forward


def _arg_shape(name):
    def rule(shape, axis, output_type):
        if shape.rank is None:
            return TensorShape(None)
        if shape[axis] == 0:
            raise errors.op_error(
                errors.InvalidArgumentError, name,
                f"Reduction axis {axis} is empty in shape {dims_text(shape)}",
                "There is no position to return along an axis of length 0.")
        return TensorShape([d for i, d in enumerate(shape.dims) if i != axis])

    return rule


ArgMax = Op("ArgMax", _arg_forward(np.argmax, -np.inf), dtypes=dtypes.REAL | {dtypes.bool},
            shape=_arg_shape("ArgMax"), dtype=from_attr("output_type"))  # no gradient, like TF
ArgMin = Op("ArgMin", _arg_forward(np.argmin, np.inf), dtypes=dtypes.REAL | {dtypes.bool},
            shape=_arg_shape("ArgMin"), dtype=from_attr("output_type"))


def _arg_reduce(op, input, axis, output_type):
    input = convert_to_tensor(input)
    axis = 0 if axis is None else axis
    if hasattr(axis, "numpy") and np.ndim(axis.numpy()) != 0:
        raise errors.op_error(
            errors.InvalidArgumentError, op.name,
            f"dim must be a scalar, but received tensor of shape: {dims_text(axis.shape)}",
            f"{op.name.lower()} looks along one axis; reduce several with tf.reshape first.")
    if not hasattr(axis, "numpy") and not isinstance(axis, (int, np.integer)):
        raise TypeError("axis must be int or Tensor with integer datatype")
    output_type = _check_index_dtype(op.name, "output_type", output_type,
                                     _ARG_INDEX_TYPES[op.name])
    attrs = {"axis": normalize_axis(op.name, _static_int(axis), input.shape.rank),
             "output_type": output_type}
    op.shape(input.shape, **attrs)  # TF's error for an empty axis, before NumPy's
    return apply(op, [input], attrs)


@tf_export("math.argmax", "argmax")
def argmax(input, axis=None, output_type=dtypes.int64, name=None):
    """The index of the largest value along `axis` (default 0!); ties give the first.

    >>> tf.argmax(tf.constant([2, 20, 30, 3]))
    <tf.Tensor: shape=(), dtype=int64, numpy=2>
    """
    return _arg_reduce(ArgMax, input, axis, output_type)


@tf_export("math.argmin", "argmin")
def argmin(input, axis=None, output_type=dtypes.int64, name=None):
    """The index of the smallest value along `axis` (default 0!); ties give the first.

    >>> tf.argmin(tf.constant([[2, 20], [30, 3]]), axis=1)
    <tf.Tensor: shape=(2,), dtype=int64, numpy=array([0, 1])>
    """
    return _arg_reduce(ArgMin, input, axis, output_type)


# --- sort / argsort ----------------------------------------------------------------------
def _stable_order(x, axis, descending):
    """The stable sorting permutation along `axis`; equal values keep their order."""
    if not descending:
        return np.argsort(x, axis=axis, kind="stable")
    # Sort the reversed axis ascending, then read the result backwards: ties
    # then come out lowest index first, as with TF's top_k.
    n = x.shape[axis]
    return n - 1 - np.flip(np.argsort(np.flip(x, axis), axis=axis, kind="stable"), axis)


def _sort_forward(x, axis, descending):
    order = _stable_order(x, axis, descending)
    return np.take_along_axis(x, order, axis), order.astype(np.int32)


Sort = Op("Sort", _sort_forward, dtypes=dtypes.REAL, num_outputs=2,
          shape=lambda shape, axis, descending: (shape, shape),
          dtype=lambda x, axis, descending: (x, dtypes.int32))  # sorted values, int32 order


@Sort.def_grad
def _sort_grad(op, dy, d_indices):
    # values[j] = x[order[j]], so x[order[j]] receives dy[j]: un-sort the gradient.
    x, order = op.inputs[0], op.outputs[1]
    axis = op.attrs["axis"]
    return put_along_axis(dy, order, axis, x.shape[axis], x)


def _sort(values, axis, direction):
    if direction not in ("ASCENDING", "DESCENDING"):
        raise ValueError("Argument `direction` should be one of ASCENDING, DESCENDING. "
                         f"Received: direction={direction}")
    static_axis = _static_int(axis)
    if static_axis is None:
        raise ValueError(f"Argument `axis` must be a constant scalar. Received: axis={axis}.")
    values = convert_to_tensor(values)
    rank = values.shape.rank
    if not -rank <= static_axis < rank:
        shown = static_axis if static_axis >= 0 else static_axis + rank
        raise errors.op_error(
            errors.InvalidArgumentError, "StridedSlice",
            f"slice index {shown} of dimension 0 out of bounds.",
            f"tf.sort looked up axis {static_axis} of a rank-{rank} tensor, which has axes "
            f"-{rank}..{rank - 1}." if rank else "A scalar has no axis to sort along.")
    attrs = {"axis": static_axis % rank, "descending": direction == "DESCENDING"}
    return apply(Sort, [values], attrs)


@tf_export("sort")
def sort(values, axis=-1, direction="ASCENDING", name=None):
    """The values sorted along `axis` ("ASCENDING" or "DESCENDING").

    In TensorFlow sort is built from top_k; minitf gives it its own op, with
    a gradient that un-sorts the upstream gradient.

    >>> tf.sort(tf.constant([3, 1, 2]), direction="DESCENDING")
    <tf.Tensor: shape=(3,), dtype=int32, numpy=array([3, 2, 1], dtype=int32)>
    """
    return _sort(values, axis, direction)[0]


@tf_export("argsort")
def argsort(values, axis=-1, direction="ASCENDING", stable=False, name=None):
    """int32 indices that sort `values` along `axis`.

    The sort is always stable (equal values keep their order), which is what
    TF does today; `stable=True` asks for that explicitly.

    >>> tf.argsort(tf.constant([30, 10, 20]))
    <tf.Tensor: shape=(3,), dtype=int32, numpy=array([1, 2, 0], dtype=int32)>
    """
    return _sort(values, axis, direction)[1]


# --- top_k ------------------------------------------------------------------------------
TopKV2Result = collections.namedtuple("TopKV2", ["values", "indices"])


def _top_k_forward(x, k, sorted, index_type):  # noqa: A002 - TF's attribute name
    order = _stable_order(x, -1, descending=True)[..., :k]
    return np.take_along_axis(x, order, -1), order.astype(index_type.as_numpy_dtype)


def _top_k_shape(shape, k, sorted, index_type):  # noqa: A002
    if k < 0:
        raise errors.op_error(errors.InvalidArgumentError, "TopKV2", f"Need k >= 0, got {k}",
                              "k counts how many of the largest values to return.")
    if shape.rank is None:
        return TensorShape(None), TensorShape(None)
    if shape.rank == 0:
        raise errors.op_error(errors.InvalidArgumentError, "TopKV2",
                              f"input must be >= 1-D, got shape {dims_text(shape)}",
                              "top_k looks along the last axis, and a scalar has none.")
    n = shape[-1]
    if n is not None and n < k:
        raise errors.op_error(
            errors.InvalidArgumentError, "TopKV2",
            f"input must have at least k columns. Had {n}, needed {k}",
            "k cannot exceed the length of the last axis.")
    out = TensorShape(shape.dims[:-1] + [k])
    return out, out


TopKV2 = Op("TopKV2", _top_k_forward, dtypes=dtypes.REAL, num_outputs=2, shape=_top_k_shape,
            dtype=values_and_indices("index_type"))


@TopKV2.def_grad
def _top_k_grad(op, dy, d_indices):
    # Each chosen value's gradient goes back to its position; the rest get 0.
    x, indices = op.inputs[0], op.outputs[1]
    return put_along_axis(dy, indices, x.shape.rank - 1, x.shape[-1], x)


@tf_export("math.top_k", "nn.top_k")
def top_k(input, k=1, sorted=True, index_type=dtypes.int32, name=None):  # noqa: A002
    """The `k` largest entries of the last axis and their indices, as `(values, indices)`.

    Equal values come out lower index first. With `sorted=False` TF leaves
    the order unspecified; minitf still returns them sorted.

    >>> values, indices = tf.math.top_k(tf.constant([1.0, 3.0, 2.0]), k=2)
    >>> values.numpy(), indices.numpy()
    (array([3., 2.], dtype=float32), array([1, 2], dtype=int32))
    """
    input = convert_to_tensor(input)
    static_k = _static_int(k)
    if static_k is None:
        raise errors.op_error(errors.InvalidArgumentError, "TopKV2",
                              f"k must be scalar, got shape {dims_text(np.shape(k))}",
                              "k is a single number: how many values to keep.")
    index_type = _check_index_dtype("TopKV2", "index_type", index_type,
                                    (dtypes.int16, dtypes.int32, dtypes.int64))
    attrs = {"k": static_k, "sorted": bool(sorted), "index_type": index_type}
    _top_k_shape(input.shape, **attrs)  # TF's errors for a bad k, in TF's words
    return TopKV2Result(*apply(TopKV2, [input], attrs))


# --- unique -----------------------------------------------------------------------------
UniqueResult = collections.namedtuple("Unique", ["y", "idx"])


def _unique_forward(x, out_idx):
    if x.size == 0:
        return x, np.zeros(0, out_idx.as_numpy_dtype)
    kwargs = {"equal_nan": False} if x.dtype.kind == "f" else {}  # TF: NaN != NaN
    _, first, inverse = np.unique(x, return_index=True, return_inverse=True, **kwargs)
    # np.unique sorts; TF keeps the order of first appearance, so renumber.
    appearance = np.argsort(first, kind="stable")
    renumber = np.empty_like(appearance)
    renumber[appearance] = np.arange(appearance.size)
    return x[first[appearance]], renumber[inverse.reshape(-1)].astype(out_idx.as_numpy_dtype)


def _unique_shape(shape, out_idx):
    if shape.rank is not None and shape.rank != 1:
        raise errors.op_error(errors.InvalidArgumentError, "Unique",
                              "unique expects a 1D vector.",
                              f"Got shape {dims_text(shape)}; flatten it with "
                              "tf.reshape(x, [-1]) first.")
    return TensorShape([None]), shape


Unique = Op("Unique", _unique_forward, dtypes=dtypes.REAL | {dtypes.bool, dtypes.string},
            num_outputs=2, shape=_unique_shape,
            dtype=values_and_indices("out_idx"))  # no gradient, like TF


@tf_export("unique")
def unique(x, out_idx=dtypes.int32, name=None):
    """The distinct values of a 1-D tensor in order of first appearance, and for each
    entry of `x` the position of its value in `y`: `x == tf.gather(y, idx)`.

    >>> y, idx = tf.unique(tf.constant([1, 1, 2, 4, 4, 4, 7, 8, 8]))
    >>> y.numpy(), idx.numpy()
    (array([1, 2, 4, 7, 8], dtype=int32), array([0, 0, 1, 2, 2, 2, 3, 4, 4], dtype=int32))
    """
    x = convert_to_tensor(x)
    out_idx = _check_index_dtype("Unique", "out_idx", out_idx, (dtypes.int32, dtypes.int64))
    _unique_shape(x.shape, out_idx)
    return UniqueResult(*apply(Unique, [x], {"out_idx": out_idx}))
