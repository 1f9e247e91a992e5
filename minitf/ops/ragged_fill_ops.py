"""`tf.ragged_fill_empty_rows`: give every empty row of a ragged partition one default value.

The raw op behind `tf.sparse.fill_empty_rows` for ragged data. The inputs are
a row partition as value row ids (`value_rowids[j]` is the row of value j),
the values, the number of rows and a default value. The outputs list the
values again, row by row, with `default_value` inserted once in every row
that had none:

>>> import minitf as tf
>>> out = tf.ragged_fill_empty_rows(
...     value_rowids=tf.constant([0, 0, 2], tf.int64), values=tf.constant([1.0, 2.0, 3.0]),
...     nrows=tf.constant(4, tf.int64), default_value=tf.constant(9.0))
>>> out.output_values.numpy(), out.output_value_rowids.numpy()
(array([1., 2., 9., 3., 9.], dtype=float32), array([0, 0, 1, 2, 3]))
>>> out.empty_row_indicator.numpy(), out.reverse_index_map.numpy()
(array([False,  True, False,  True]), array([0, 1, 3]))

`reverse_index_map[j]` is where value j landed, which is all the gradient
needs: value j receives the output gradient at that position, and the
default value receives the sum of the gradients at the filled positions
(`tf.ragged_fill_empty_rows_grad`).
"""
import collections

import numpy as np

from ..framework import dtypes, errors
from ..framework.op import Op, apply
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export

FillResult = collections.namedtuple(
    "RaggedFillEmptyRows",
    ["output_value_rowids", "output_values", "empty_row_indicator", "reverse_index_map"])
GradResult = collections.namedtuple("RaggedFillEmptyRowsGrad", ["d_values", "d_default_value"])


def _invalid(op, message, teach):
    return errors.InvalidArgumentError(None, op, f"{message} [Op:{op}] {teach}")


def _check(rowids, values, nrows, default):
    if values.ndim != 1:
        raise _invalid("RaggedFillEmptyRows", f"values must be a vector, saw: "
                       f"[{','.join(map(str, values.shape))}]", "The values are one list.")
    if np.ndim(default) != 0:
        raise _invalid("RaggedFillEmptyRows", f"default_value must be a scalar, saw: "
                       f"[{','.join(map(str, np.shape(default)))}]",
                       "One value fills each empty row.")
    if rowids.shape[0] != values.shape[0]:
        raise _invalid("RaggedFillEmptyRows", f"The length of `values` ({values.shape[0]}) "
                       "must match the first dimension of `value_rowids` "
                       f"({rowids.shape[0]}).", "Each value needs its row id.")
    bad = np.flatnonzero((rowids < 0) | (rowids >= nrows))
    if bad.size:
        j = int(bad[0])
        raise _invalid("RaggedFillEmptyRows", f"indices({j}, 0) is invalid: {rowids[j]} >= "
                       f"{nrows}", f"Row ids run from 0 to nrows - 1 = {nrows - 1}.")


def _fill_forward(rowids, values, nrows, default):
    nrows = int(nrows)
    _check(rowids, values, nrows, default)
    counts = np.bincount(rowids, minlength=nrows)[:nrows] if rowids.size else np.zeros(
        nrows, np.int64)
    empty = counts == 0
    empty_before = np.cumsum(empty) - empty  # empty rows ahead of each row
    starts = np.concatenate([[0], np.cumsum(counts)[:-1]]) if nrows else np.zeros(0, np.int64)
    order = np.argsort(rowids, kind="stable")  # values move to row order, stably
    sorted_position = np.empty(len(rowids), np.int64)
    sorted_position[order] = np.arange(len(rowids))
    reverse = sorted_position + empty_before[rowids] if rowids.size else sorted_position
    filled = np.flatnonzero(empty)
    filled_at = starts[filled] + empty_before[filled]
    total = len(rowids) + len(filled)
    out_values = np.empty(total, values.dtype)
    out_rowids = np.empty(total, np.int64)
    out_values[reverse], out_rowids[reverse] = values, rowids
    out_values[filled_at], out_rowids[filled_at] = default, filled
    return out_rowids, out_values, empty, reverse.astype(np.int64)


RaggedFillEmptyRows = Op(
    "RaggedFillEmptyRows", _fill_forward, typed=(1, 3), num_outputs=4,
    shape=lambda r, v, n, d: (TensorShape([None]), TensorShape([None]), TensorShape([None]),
                              r),
    dtype=lambda r, v, n, d: (dtypes.int64, v, dtypes.bool, dtypes.int64))


def _grad_forward(reverse_index_map, grad_values):
    d_values = grad_values[reverse_index_map]
    return d_values, grad_values.sum(dtype=grad_values.dtype) - d_values.sum(
        dtype=grad_values.dtype)


RaggedFillEmptyRowsGrad = Op(
    "RaggedFillEmptyRowsGrad", _grad_forward, typed=(1,), num_outputs=2,
    shape=lambda r, g: (r, TensorShape([])))


@RaggedFillEmptyRows.def_grad
def _fill_grad(op, d_rowids, d_values, d_empty, d_reverse):
    if d_values is None:
        return None, None, None, None
    values_grad, default_grad = ragged_fill_empty_rows_grad(op.outputs[3], d_values)
    return None, values_grad, None, default_grad


@tf_export("ragged_fill_empty_rows")
def ragged_fill_empty_rows(value_rowids, values, nrows, default_value, name=None):
    """Values row by row, `default_value` once in each empty row (see the module)."""
    rowids = convert_to_tensor(value_rowids, dtype=dtypes.int64)
    values = convert_to_tensor(values)
    nrows = convert_to_tensor(nrows, dtype=dtypes.int64)
    default = convert_to_tensor(default_value, dtype_hint=values.dtype)
    return FillResult(*apply(RaggedFillEmptyRows, [rowids, values, nrows, default]))


@tf_export("ragged_fill_empty_rows_grad")
def ragged_fill_empty_rows_grad(reverse_index_map, grad_values, name=None):
    """The gradient of ragged_fill_empty_rows: each value's, and the default value's.

    >>> g = tf.ragged_fill_empty_rows_grad(tf.constant([0, 1, 3], tf.int64),
    ...                                    tf.constant([1.0, 2.0, 3.0, 4.0, 5.0]))
    >>> g.d_values.numpy(), g.d_default_value.numpy()
    (array([1., 2., 4.], dtype=float32), np.float32(8.0))
    """
    reverse = convert_to_tensor(reverse_index_map, dtype=dtypes.int64)
    grad_values = convert_to_tensor(grad_values)
    return GradResult(*apply(RaggedFillEmptyRowsGrad, [reverse, grad_values]))
