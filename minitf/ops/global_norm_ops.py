"""Clipping a whole list of gradients together: tf.clip_by_global_norm and
tf.linalg.global_norm, composed of ordinary ops as TensorFlow writes them.

>>> import minitf as tf
>>> grads = [tf.constant([3.0, 4.0]), None, tf.constant(12.0)]
>>> tf.linalg.global_norm(grads)          # sqrt(9 + 16 + 144); None entries are skipped
<tf.Tensor: shape=(), dtype=float32, numpy=13.0>
>>> clipped, norm = tf.clip_by_global_norm(grads, 6.5)
>>> [None if g is None else g.numpy().tolist() for g in clipped]   # all scaled by 6.5 / 13
[[1.5, 2.0], None, 6.0]

Unlike clipping each tensor by its own norm, the global version keeps the direction of
the whole update: every tensor is scaled by the same factor clip_norm / global_norm
(when the global norm exceeds clip_norm). A non-finite global norm makes every
result NaN, so a broken step cannot go unnoticed.
"""
import collections.abc

from ..framework import dtypes
from ..framework.tensor import convert_to_tensor
from ..framework.tf_export import tf_export
from .array_ops import stack
from .creation_ops import identity
from .indexed_slices import IndexedSlices
from .math_ops import cast, minimum
from .nn_losses import l2_loss
from .reduction_ops import reduce_sum
from .unary_ops import sqrt


def _check_list(t_list):
    if not isinstance(t_list, collections.abc.Sequence) or isinstance(t_list, str):
        raise TypeError(f"`t_list` should be a sequence of tensors. Received {type(t_list)}.")
    return list(t_list)


def _values(t, dtype_hint=None):
    if isinstance(t, IndexedSlices):
        return t.values
    return convert_to_tensor(t, dtype_hint=dtype_hint)


@tf_export("linalg.global_norm")
def global_norm(t_list, name=None):
    """sqrt(sum of every entry squared, over all tensors of `t_list`); None entries are
    skipped, IndexedSlices count their values. (TF sums 2 * l2_loss of each tensor.)

    >>> tf.linalg.global_norm([tf.constant([[3.0]]), tf.constant([4.0])])
    <tf.Tensor: shape=(), dtype=float32, numpy=5.0>
    """
    t_list = _check_list(t_list)
    half_squared_norms = [l2_loss(_values(t)) for t in t_list if t is not None]
    half_squared_norm = reduce_sum(stack(half_squared_norms))
    two = convert_to_tensor(2.0, dtype=half_squared_norm.dtype)
    return sqrt(half_squared_norm * two)


@tf_export("clip_by_global_norm")
def clip_by_global_norm(t_list, clip_norm, use_norm=None, name=None):
    """Scale every tensor of `t_list` by clip_norm / max(global_norm, clip_norm); return
    (the scaled list, the global norm). use_norm: a norm computed already.

    >>> clipped, norm = tf.clip_by_global_norm([tf.constant([3.0, 4.0])], 10.0)
    >>> clipped[0].numpy().tolist(), float(norm)   # the norm 5 is within 10: unchanged
    ([3.0, 4.0], 5.0)
    """
    t_list = _check_list(t_list)
    if use_norm is None:
        use_norm = global_norm(t_list, name)
    use_norm = convert_to_tensor(use_norm)
    clip_norm = convert_to_tensor(clip_norm, dtype_hint=use_norm.dtype)
    one = convert_to_tensor(1.0, dtype=use_norm.dtype)
    scale_for_finite = clip_norm * minimum(one / use_norm, one / clip_norm)
    scale = scale_for_finite + (use_norm - use_norm)  # inf or NaN norm: NaN scale
    clipped = []
    for t in t_list:
        if t is None:
            clipped.append(None)
            continue
        v = _values(t, dtype_hint=dtypes.float32)
        scaled = identity(v * cast(scale, v.dtype))
        clipped.append(IndexedSlices(scaled, t.indices, t.dense_shape)
                       if isinstance(t, IndexedSlices) else scaled)
    return clipped, use_norm
