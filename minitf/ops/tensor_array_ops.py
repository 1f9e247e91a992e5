"""The ops behind `tf.TensorArray`: a buffer tensor and a size, read and written by row.

A TensorArray is stored as two tensors: a *buffer* `[rows, *element_shape]`
and its `size` (an int32 scalar). The buffer starts with no rows (shape `(0,)`
while the element shape is unknown); the first write allocates all `size`
rows, zero-filled, and a `dynamic_size` array grows to fit the index. So
`rows` is 0 (nothing written yet) or `size`, and every method is one op on
(buffer, size) - which is what lets a TensorArray ride through a
`tf.while_loop` as two loop variables, and a tape differentiate it:

>>> buffer, size = tf.zeros([0]), tf.constant(3)
>>> buffer, size = apply(TensorArrayScatter, [buffer, size, tf.constant(1), tf.constant(5.0)],
...                      {"dynamic_size": False})
>>> buffer
<tf.Tensor: shape=(3,), dtype=float32, numpy=array([0., 5., 0.], dtype=float32)>

Gradients pair up: reading rows (gather) sends the gradient back into those
rows of a zero buffer; writing rows sends each written row's gradient to
the value written, and the rest (rows not overwritten) to the old buffer.
In TensorFlow a TF2 graph stores a TensorList (a `variant` tensor) and eager
mode a Python list; the numbers are the same.
"""
import numpy as np

from ..framework import dtypes, errors
from ..framework.op import Op, apply
from ..framework.tensor import EagerTensor
from ..framework.tensor_shape import TensorShape


def _element(attr_shape, buffer_shape):
    """The static element shape: the one recorded on the TensorArray, else the buffer's."""
    if attr_shape is not None:
        return TensorShape(list(attr_shape))
    return buffer_shape[1:] if buffer_shape.rank is not None else TensorShape(None)


def _zeros(shape_prefix, element_shape, dtype, what):
    """Rows of zeros for a TensorArray nothing was written to yet."""
    if element_shape is None or None in element_shape:
        raise errors.op_error(
            errors.InvalidArgumentError, what,
            f"Tried to {'stack' if what == 'TensorListStack' else 'read from'} an empty "
            f"TensorArray with non-fully-defined element_shape: "
            f"{'<unknown>' if element_shape is None else TensorShape(list(element_shape))}",
            "Nothing was written yet, so its elements' shape is unknown; pass "
            "element_shape= when you create it.")
    return np.zeros(tuple(shape_prefix) + tuple(element_shape), dtype)


# --- write / scatter ------------------------------------------------------------------------
def _scatter_forward(buffer, size, indices, values, dynamic_size, _rows=None):
    size, where = int(size), np.asarray(indices).reshape(-1).astype(np.int64)
    rows = values[None] if np.ndim(indices) == 0 else values
    if len(where) != len(rows):
        raise errors.op_error(errors.InvalidArgumentError, "TensorArrayScatterV3",
                              f"Must have as many values ({len(rows)}) as indices "
                              f"({len(where)}).", "scatter writes one row per index.")
    for i in where:
        if i < 0 or i >= size and not dynamic_size:
            raise errors.op_error(
                errors.InvalidArgumentError, "TensorListSetItem",
                f"Trying to modify element {i} in a list with {size} elements.",
                "A TensorArray without dynamic_size=True cannot grow.")
    new_size = max([size] + [int(i) + 1 for i in where])
    if buffer.shape[0] > 0 and buffer.shape[1:] != rows.shape[1:]:
        raise errors.op_error(
            errors.InvalidArgumentError, "TensorListSetItem",
            "Tried to set a tensor with incompatible shape at a list index. Item element "
            f"shape: {list(rows.shape[1:])} list shape: {list(buffer.shape[1:])}",
            "Every element of a TensorArray has one shape.")
    out = np.zeros((new_size,) + rows.shape[1:], dtype=values.dtype)
    if buffer.shape[0] > 0:
        out[:buffer.shape[0]] = buffer
    out[where] = rows
    return out, np.array(new_size, np.int32)


def _scatter_shape(buffer, size, indices, values, dynamic_size, _rows=None):
    element = values if indices.rank == 0 else values[1:]
    return TensorShape([_rows]).concatenate(element), TensorShape([])


TensorArrayScatter = Op("TensorArrayScatterV3", _scatter_forward, typed=(0, 3), num_outputs=2,
                        shape=_scatter_shape, dtype=lambda b, s, i, v, **a: (b, dtypes.int32))


@TensorArrayScatter.def_grad
def _scatter_grad(op, d_buffer, d_size):
    """Written rows send their gradient to the values; the old buffer gets the rest."""
    buffer, _, indices, values = op.inputs
    d_old = apply(TensorArrayCrop, [d_buffer, buffer, indices])
    # The values' static shape, so a gradient read inside a loop (whose buffer may have an
    # unknown shape) still has the rank of what was written.
    element = values.shape if indices.shape.rank == 0 else values.shape[1:]
    d_values = apply(TensorArrayGather, [d_buffer, op.outputs[1], indices],
                     {"element_shape": None if element.rank is None else
                      tuple(element.as_list())})
    return [d_old, None, None, d_values]


# --- read / gather ----------------------------------------------------------------------------
def _gather_forward(buffer, size, indices, element_shape):
    size, where = int(size), np.asarray(indices)
    for i in where.reshape(-1):
        if i < 0 or i >= size:
            raise errors.op_error(errors.InvalidArgumentError, "TensorListGetItem",
                                  f"Trying to access element {i} in a list with {size} "
                                  "elements.", f"Valid indices are 0..{size - 1}.")
    if buffer.shape[0] == 0:  # nothing written yet: zeros, as TensorFlow reads them
        return _zeros(where.shape, element_shape, buffer.dtype, "TensorListGetItem")
    return buffer[where]


def _gather_shape(buffer, size, indices, element_shape):
    return indices.concatenate(_element(element_shape, buffer))


TensorArrayGather = Op("TensorArrayGatherV3", _gather_forward, typed=(0,), shape=_gather_shape)


@TensorArrayGather.def_grad
def _gather_grad(op, dy):
    buffer, size, indices = op.inputs
    return [apply(TensorArrayScatterAdd, [dy, buffer, size, indices],
                  {"element_shape": op.attrs["element_shape"]}), None, None]


def _scatter_add_forward(dy, like, size, indices, element_shape):
    """Zeros shaped like the buffer `like`, plus `dy`'s rows added at `indices`."""
    out = np.zeros(like.shape, dtype=dy.dtype)
    if like.shape[0] > 0:
        np.add.at(out, np.asarray(indices), dy)
    return out


TensorArrayScatterAdd = Op("TensorArrayGradScatterAdd", _scatter_add_forward, typed=(0,),
                           shape=lambda dy, like, size, indices, element_shape: like)


@TensorArrayScatterAdd.def_grad
def _scatter_add_grad(op, dd):
    _, _, size, indices = op.inputs
    return [apply(TensorArrayGather, [dd, size, indices],
                  {"element_shape": op.attrs["element_shape"]}), None, None, None]


# --- the gradient of a write: keep the rows that were not overwritten ---------------------------
def _crop_forward(dy, like, indices):
    """`dy` cut to the rows of buffer `like`, with the rows at `indices` zeroed."""
    if like.shape[0] == 0:
        return np.zeros(like.shape, dtype=dy.dtype)
    out = np.array(dy[:like.shape[0]])
    where = np.asarray(indices).reshape(-1)
    out[where[where < len(out)]] = 0  # rows past the old buffer (it grew) are not in it
    return out


def _uncrop_forward(dd, big, indices):
    """The transpose of crop: `dd` placed in zeros shaped like `big`, rows at `indices` zeroed."""
    out = np.zeros(big.shape, dtype=dd.dtype)
    if dd.shape[0] > 0:
        out[:dd.shape[0]] = dd
        out[np.asarray(indices).reshape(-1)] = 0
    return out


TensorArrayCrop = Op("TensorArrayGradCrop", _crop_forward, typed=(0,),
                     shape=lambda dy, like, indices: like)
TensorArrayUncrop = Op("TensorArrayGradUncrop", _uncrop_forward, typed=(0,),
                       shape=lambda dd, big, indices: big)


@TensorArrayCrop.def_grad
def _crop_grad(op, dd):
    return [apply(TensorArrayUncrop, [dd, op.inputs[0], op.inputs[2]]), None, None]


@TensorArrayUncrop.def_grad
def _uncrop_grad(op, ddd):
    return [apply(TensorArrayCrop, [ddd, op.inputs[0], op.inputs[2]]), None, None]


# --- stack / unstack / concat ------------------------------------------------------------------
def _stack_forward(buffer, size, element_shape, _rows=None):
    if buffer.shape[0] > 0 or int(size) == 0 and element_shape is None:
        return buffer
    return _zeros((int(size),), element_shape, buffer.dtype, "TensorListStack")


def _stack_shape(buffer, size, element_shape, _rows=None):
    return TensorShape([_rows]).concatenate(_element(element_shape, buffer))


TensorArrayStack = Op("TensorListStack", _stack_forward, typed=(0,), shape=_stack_shape)


@TensorArrayStack.def_grad
def _stack_grad(op, dy):
    no_rows = EagerTensor(np.zeros((0,), np.int32))
    return [apply(TensorArrayCrop, [dy, op.inputs[0], no_rows]), None]


def _unstack_forward(value, size, dynamic_size):
    if len(value) > int(size) and not dynamic_size:
        raise errors.op_error(
            errors.InvalidArgumentError, "TensorListFromTensor",
            f"Cannot unstack {len(value)} tensors into a TensorArray of static size "
            f"{int(size)}", "Create it with dynamic_size=True, or with a larger size.")
    return value, np.array(len(value), np.int32)


TensorArrayUnstack = Op(
    "TensorListFromTensor", _unstack_forward, typed=(0,), num_outputs=2,
    shape=lambda value, size, dynamic_size: (value, TensorShape([])),
    dtype=lambda v, s, **a: (v, dtypes.int32))


@TensorArrayUnstack.def_grad
def _unstack_grad(op, d_buffer, d_size):
    return [d_buffer, None]


def _merge_forward(x):
    if x.ndim < 2:
        raise errors.op_error(errors.InvalidArgumentError, "TensorListConcat",
                              "Concat saw a scalar shape at index 0 but requires at least "
                              "vectors.", "concat joins elements along their first axis.")
    return x.reshape((-1,) + x.shape[2:])


def _merge_shape(x):
    if x.rank is None:
        return TensorShape(None)
    first = None if x[0] is None or x[1] is None else x[0] * x[1]
    return TensorShape([first]).concatenate(x[2:])


TensorArrayConcat = Op("TensorListConcat", _merge_forward, shape=_merge_shape)
ReshapeLike = Op("ReshapeLike", lambda x, like: x.reshape(like.shape), typed=(0,),
                 shape=lambda x, like: like)


@TensorArrayConcat.def_grad
def _merge_grad(op, dy):
    return apply(ReshapeLike, [dy, op.inputs[0]])


@ReshapeLike.def_grad
def _reshape_like_grad(op, dd):
    return [apply(ReshapeLike, [dd, op.inputs[0]]), None]
