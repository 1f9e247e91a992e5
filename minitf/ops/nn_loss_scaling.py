"""Loss scaling for custom training loops: `tf.nn.compute_average_loss` and
`tf.nn.scale_regularization_loss`.

Under a distribution strategy each replica sees 1/N of the global batch, and the
gradients of the replicas are *summed*. So each replica divides its loss by the
global batch size (not its own), and a regularization loss by the number of
replicas; the sum over replicas then equals the single-device loss.

>>> import minitf as tf
>>> float(tf.nn.compute_average_loss([1.0, 2.0, 3.0], global_batch_size=6))
1.0

Outside any strategy there is one replica, and the global batch is this batch.
(minitf's strategies live in `minitf/distribute`, imported on first use of
`tf.distribute`: no strategy can be active before that import.)
"""
import sys

from ..framework import dtypes, errors
from ..framework.tensor import convert_to_tensor
from ..framework.tf_export import tf_export
from .clip_ops import divide_no_nan
from .math_ops import cast, multiply
from .reduction_ops import reduce_sum
from .shape_ops import shape as shape_of


def _replicas(function_name):
    """The number of replicas in sync; TF's RuntimeError in cross-replica context."""
    lib = sys.modules.get("minitf.distribute.distribute_lib")
    if lib is None:
        return 1
    if lib.has_strategy() and lib.in_cross_replica_context():
        raise RuntimeError(f"You are calling `{function_name}` in cross replica context, "
                           "while it was expected to be called in replica context.")
    return lib.get_strategy().num_replicas_in_sync


def _scale_by_sample_weight(losses, sample_weight):
    """losses * sample_weight in float32, as TF's losses_util (a weight of rank one less
    than the losses gets a trailing axis)."""
    losses = cast(losses, dtypes.float32)
    sample_weight = cast(convert_to_tensor(sample_weight), dtypes.float32)
    rank, weight_rank = losses.shape.rank, sample_weight.shape.rank
    if rank is not None and weight_rank is not None and weight_rank == rank - 1 \
            and weight_rank > 0:
        sample_weight = sample_weight[..., None]
    elif rank is not None and weight_rank is not None and weight_rank == rank + 1 \
            and sample_weight.shape[-1] == 1:
        sample_weight = sample_weight[..., 0]
    return multiply(losses, sample_weight)


def _check_batch_size(global_batch_size):
    size = convert_to_tensor(global_batch_size)
    if size.shape.rank != 0:
        raise ValueError(f"Expected scalar shape, saw shape: {size.shape}.")
    if not size.dtype.is_integer:
        raise TypeError("global_batch_size must be an integer..  Expected \"x\" to be integer "
                        f"type.  Found: tensor of dtype <dtype: '{size.dtype.name}'>")
    if hasattr(size, "numpy") and size.numpy() < 0:
        raise errors.InvalidArgumentError(
            None, None, "global_batch_size must be non-negative..  \nCondition x >= 0 did not "
            f"hold element-wise:\nx (shape=() dtype={size.dtype.name}) = \n{size.numpy()}")
    return size


@tf_export("nn.compute_average_loss")
def compute_average_loss(per_example_loss, sample_weight=None, global_batch_size=None):
    """sum(per_example_loss * sample_weight) / global_batch_size (0 if that is 0).

    global_batch_size defaults to this batch's size times the number of replicas.
    With a sample_weight the losses are computed in float32 and cast back, as in TF.

    >>> print(tf.nn.compute_average_loss([1.0, 2.0, 3.0], sample_weight=[1.0, 0.0, 2.0]).numpy())
    2.3333333
    """
    per_example_loss = convert_to_tensor(per_example_loss)
    input_dtype = per_example_loss.dtype
    rank = per_example_loss.shape.rank
    if rank == 0:
        raise ValueError("Invalid value passed for `per_example_loss`. Expected a tensor with "
                         f"at least rank 1. Received per_example_loss={per_example_loss} with "
                         f"rank {rank}")
    if sample_weight is not None:
        per_example_loss = _scale_by_sample_weight(per_example_loss, sample_weight)
    per_example_loss = cast(per_example_loss, input_dtype)
    if global_batch_size is None:
        replicas = _replicas("compute_average_loss")
        global_batch_size = shape_of(per_example_loss)[0] * replicas
    size = _check_batch_size(global_batch_size)
    return divide_no_nan(reduce_sum(per_example_loss), cast(size, input_dtype))


@tf_export("nn.scale_regularization_loss")
def scale_regularization_loss(regularization_loss):
    """sum(regularization_loss) / number of replicas (a list of losses is summed).

    >>> float(tf.nn.scale_regularization_loss([tf.constant(3.0), tf.constant(1.0)]))
    4.0
    """
    replicas = _replicas("scale_regularization_loss")
    return reduce_sum(regularization_loss) / replicas
