"""`keras.ops.unique`: the distinct values (or slices), with indices, inverse and counts.

>>> import minitf as tf
>>> from minitf.keras import ops
>>> ops.unique(tf.constant([3, 1, 3, 2]), return_counts=True)
(<tf.Tensor: shape=(3,), dtype=int32, numpy=array([1, 2, 3], dtype=int32)>, <tf.Tensor: shape=(3,), dtype=int32, numpy=array([1, 1, 2], dtype=int32)>)
"""
import numpy as np

import minitf as tf

from ._export import keras_ops_export
from .. import ops  # noqa: F401 - the examples below call ops.*
from .dtype_rules import concrete, convert


@keras_ops_export("numpy")
def unique(x, sorted=True, return_index=False, return_inverse=False,  # noqa: A002
           return_counts=False, axis=None, size=None, fill_value=None):
    """The distinct elements (axis=None: of flattened x), or distinct slices along `axis`.

    The returned tensors are gathered from x, so values keep x's dtype. Which
    elements are distinct is decided on the concrete values (eager mode).
    """
    x = convert(x)
    flatten = axis is None
    if flatten:
        flat, axis = tf.reshape(x, [-1]), 0
    else:
        flat, axis = x, axis % x.shape.rank
    values = concrete(flat, "unique", "(The output's length is the number of "
                      "distinct values.) Call it outside tf.function, or pass the distinct "
                      "values in as an argument.")
    rows = np.moveaxis(values, axis, 0).reshape(values.shape[axis], -1)
    _, first, inverse, counts = np.unique(rows, axis=0, return_index=True,
                                          return_inverse=True, return_counts=True)
    inverse = inverse.reshape(-1)
    if not sorted:  # order of first appearance
        order = np.argsort(first, kind="stable")
        rank = np.empty_like(order)
        rank[order] = np.arange(len(order))
        first, counts, inverse = first[order], counts[order], rank[inverse]
    if size is not None:
        first, counts = first[:size], counts[:size]
    out = tf.gather(flat, tf.constant(first.astype(np.int32)), axis=axis)
    if size is not None and len(first) < size:
        padding = [[0, 0]] * out.shape.rank
        padding[axis] = [0, size - len(first)]
        out = tf.pad(out, padding, constant_values=0 if fill_value is None else fill_value)
        counts = np.pad(counts, (0, size - len(counts)))
        first = np.pad(first, (0, size - len(first)))
    extras = [(return_index, first), (return_inverse, inverse), (return_counts, counts)]
    results = [out] + [tf.constant(v.astype(np.int32)) for wanted, v in extras if wanted]
    if flatten and return_inverse:  # the inverse of a flattened x has x's shape
        at = 1 + return_index
        results[at] = tf.reshape(results[at], tf.shape(x))
    return results[0] if len(results) == 1 else tuple(results)
