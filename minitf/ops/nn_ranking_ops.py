"""Ranking in `tf.nn`: in_top_k, approx_max_k and approx_min_k.

>>> import minitf as tf
>>> predictions = tf.constant([[0.1, 0.5, 0.4], [0.3, 0.3, 0.3]])
>>> tf.nn.in_top_k(targets=[2, 2], predictions=predictions, k=1).numpy()
array([False,  True])

`in_top_k` asks, per row, whether the target's score is among the k largest;
classes tied with it count in its favour (row 2 above: all three tie, so each
is "in the top 1"). It is tf.math.in_top_k (minitf/ops/counting_ops.py), one op
(InTopKV2) without a gradient, as in TF. approx_max_k / approx_min_k are exact top-k
along any axis.
"""
import collections

import numpy as np

from ..framework import dtypes, errors
from ..framework.op import type_name
from ..framework.tensor import convert_to_tensor
from ..framework.tf_export import tf_export
from .array_ops import transpose
from .counting_ops import in_top_k
from .sort_ops import top_k


# --- in_top_k: the InTopKV2 op of tf.math (counting_ops.py), also at tf.nn as in TF -------------
tf_export("nn.in_top_k")(in_top_k)


# --- approx_max_k, approx_min_k ---------------------------------------------------------------
ApproxTopK = collections.namedtuple("ApproxTopK", ["values", "indices"])
_APPROX_DTYPES = (dtypes.float16, dtypes.float32)


def _approx_top_k(operand, k, reduction_dimension, is_max_k):
    operand = convert_to_tensor(operand)
    if operand.dtype not in _APPROX_DTYPES:
        raise errors.op_error(
            errors.InvalidArgumentError, "ApproxTopK",
            f"Value for attr 'T' of {type_name(operand.dtype)} is not in the list of allowed "
            "values: half, bfloat16, float", "tf.cast the operand to tf.float32 first.")
    return _top_k_along(operand, k, reduction_dimension, is_max_k)


def _top_k_along(operand, k, reduction_dimension, is_max_k):
    """Exact top (or bottom) k along any axis: top_k on the axis moved last."""
    if int(k) < 0:
        raise errors.op_error(errors.InvalidArgumentError, "ApproxTopK",
                              f"Value for attr 'k' of {int(k)} must be at least minimum 0",
                              "k counts the values to keep: 0 or more.")
    rank = operand.shape.rank
    axis = reduction_dimension + rank if reduction_dimension < 0 else reduction_dimension
    if not 0 <= axis < rank:
        raise errors.op_error(errors.InvalidArgumentError, "ApproxTopK",
                              f"reduction_dimension {reduction_dimension} is out of range for "
                              f"an operand of rank {rank}", "Pick an axis of the operand.")
    size = operand.shape[axis]
    if size is not None and size < int(k):
        raise errors.op_error(errors.InvalidArgumentError, "ApproxTopK",
                              f"input must have at least k columns. Had {size}, needed {int(k)}",
                              "k cannot exceed the length of the reduced axis.")
    perm = [i for i in range(rank) if i != axis] + [axis]     # top_k works on the last axis
    back = list(np.argsort(perm))
    moved = transpose(operand, perm)
    values, indices = top_k(moved if is_max_k else -moved, int(k))
    if not is_max_k:
        values = -values
    return ApproxTopK(transpose(values, back), transpose(indices, back))


@tf_export("nn.approx_max_k", "math.approx_max_k")
def approx_max_k(operand, k, reduction_dimension=-1, recall_target=0.95,
                 reduction_input_size_override=-1, aggregate_to_topk=True, name=None):
    """The k largest values along `reduction_dimension` and their int32 indices.

    On TPUs TF trades exactness for speed (recall_target); on a CPU the answer is exact,
    and so it is here: top_k along the axis, largest first, ties lower index first.
    The gradient goes back to the chosen positions. float16 and float32 only.

    >>> tf.nn.approx_max_k(tf.constant([[1.0, 5.0, 3.0]]), 2).values.numpy()
    array([[5., 3.]], dtype=float32)
    """
    return _approx_top_k(operand, k, reduction_dimension, True)


@tf_export("nn.approx_min_k", "math.approx_min_k")
def approx_min_k(operand, k, reduction_dimension=-1, recall_target=0.95,
                 reduction_input_size_override=-1, aggregate_to_topk=True, name=None):
    """The k smallest values along `reduction_dimension` and their int32 indices
    (exact, smallest first, ties lower index first; see approx_max_k).

    Real TF 2.21 runs this one on a CPU only inside `tf.function(jit_compile=True)`
    (XLA); minitf runs it anywhere, with XLA's answers.

    >>> tf.nn.approx_min_k(tf.constant([[1.0, 5.0, 3.0]]), 2).indices.numpy()
    array([[0, 2]], dtype=int32)
    """
    return _approx_top_k(operand, k, reduction_dimension, False)
