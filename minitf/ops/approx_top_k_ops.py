"""tf.approx_top_k: the k largest entries, "approximately" (exactly, on the CPU).

>>> import minitf as tf
>>> tf.approx_top_k(tf.constant([[1.0, 5.0, 3.0, 2.0]]), 2).values
<tf.Tensor: shape=(1, 2), dtype=float32, numpy=array([[5., 3.]], dtype=float32)>

approx_top_k is TPU-friendly approximate top-k; TF's CPU kernel computes the exact answer
(only for the last axis and the largest entries, of half or float32 tensors), so here it
is tf.math.top_k.
"""
import collections

from ..framework import dtypes, errors
from ..framework.tensor import convert_to_tensor
from ..framework.tf_export import tf_export
from .sort_ops import top_k

ApproxTopKResult = collections.namedtuple("ApproxTopK", ["values", "indices"])


@tf_export("approx_top_k")
def approx_top_k(input, k, reduction_dimension=-1, recall_target=0.95, is_max_k=True,  # noqa: A002
                 reduction_input_size_override=-1, aggregate_to_topk=True, name=None):
    """The `k` largest entries of the last axis and their indices (exact on the CPU, as in
    TF); the gradient is top_k's.

    >>> tf.approx_top_k(tf.constant([4.0, 0.0, 9.0, 1.0]), 2).indices
    <tf.Tensor: shape=(2,), dtype=int32, numpy=array([2, 0], dtype=int32)>
    """
    x = convert_to_tensor(input)
    if x.dtype not in (dtypes.float16, dtypes.float32):
        raise errors.op_error(
            errors.InvalidArgumentError, "ApproxTopK", f"Value for attr 'T' of "
            f"{dtypes.tf_type_name(x.dtype)} is not in the list of allowed values: half, "
            "bfloat16, float", "tf.cast the input to float32 (or use tf.math.top_k).")
    if reduction_dimension not in (-1, (x.shape.rank or 0) - 1) or not is_max_k:
        raise errors.op_error(
            errors.NotFoundError, "ApproxTopK",
            "Could not find device for node: {{node ApproxTopK}} = ApproxTopK[is_max_k="
            f"{str(bool(is_max_k)).lower()}, k={k}, reduction_dimension={reduction_dimension}]",
            "TF's CPU kernel handles only reduction_dimension=-1 and is_max_k=True: transpose "
            "the axis last, or negate the input for the smallest entries.")
    values, indices = top_k(x, k)
    return ApproxTopKResult(values, indices)
