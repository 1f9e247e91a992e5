"""`CTC` loss (Graves et al., 2006): sequence labels without an alignment.

y_true: (batch, max_length) integer labels, padded with 0; y_pred: (batch, steps,
num_classes) *logits*, class 0 being the blank. The loss is -log of the total
probability of every path through the steps that, once repeats are merged and blanks
dropped, spells the label. It is computed by the forward (alpha) recursion over the
label with blanks between and around its symbols, in log space; the gradient comes
from the tape. As in Keras, each label's length is its number of non-zero entries.
A label that cannot fit in the steps (e.g. "11" needs a blank between, so 3 steps)
costs about 1e30 here; TF's kernel gives a different large number (707 for [[1, 1, 1]]
over 3 steps): read either as "impossible", not as a value to compare.

>>> import minitf as tf
>>> logits = tf.zeros([1, 2, 2])          # two steps, classes {blank, 1}, all equally likely
>>> print(tf.keras.losses.ctc([[1]], logits).numpy())   # paths "1-", "-1", "11": -log(3/4)
[0.2876821]
"""
import numpy as np

from ..framework.tensor import convert_to_tensor
from ..framework.tf_export import tf_export
from ..ops.array_ops import concat, one_hot, reshape, stack
from ..ops.linalg_ops import matmul
from ..ops.math_ops import (cast, equal, greater, logical_and, maximum, not_equal,
                             where)
from ..ops.nn_ops import log_softmax
from ..ops.reduction_ops import reduce_logsumexp, reduce_sum
from .losses import _ALL_OBJECTS, Loss, _LossFunctionWrapper

_NEG = -1e30  # log(0) for the recursion, finite so that no gradient becomes NaN


def _extended_labels(labels):
    """Blank, l1, blank, l2, ..., blank per row, and where a step may skip a blank
    (onto a symbol that differs from the one two places back). Tensor ops only, so it
    also runs in a traced `fit` step."""
    zeros = 0 * labels
    ext = concat([reshape(stack([zeros, labels], -1), [-1, 2 * labels.shape[1]]),
                  zeros[:, :1]], 1)
    skip = logical_and(not_equal(ext[:, 2:], 0), not_equal(ext[:, 2:], ext[:, :-2]))
    skip = concat([equal(ext[:, :2], -1), skip], 1)          # the first two: never
    return ext, skip


def _shift(alpha, k):
    return concat([_NEG + 0 * alpha[:, :k], alpha[:, :-k]], 1)


@tf_export("keras.losses.ctc", "losses.ctc")
def ctc(y_true, y_pred):
    """One CTC loss per example (see the module docstring).

    >>> print(tf.keras.losses.ctc([[1, 0]], tf.zeros([1, 3, 2])).numpy())  # 6 of 8 paths
    [0.28768206]
    """
    labels = cast(convert_to_tensor(y_true), "int32")
    y_pred = convert_to_tensor(y_pred)
    if labels.shape.rank != 2:
        raise ValueError("Targets `y_true` are expected to be a tensor of shape "
                         "`(batch_size, max_length)` in integer format. "
                         f"Received: y_true.shape={tuple(labels.shape.as_list())}")
    if y_pred.shape.rank != 3:
        raise ValueError("Logits `y_pred` are expected to be a tensor of shape "
                         "`(batch_size, max_length, num_classes)`. "
                         f"Received: y_pred.shape={tuple(y_pred.shape.as_list())}")
    ext, skip = _extended_labels(labels)
    log_probs = log_softmax(y_pred, axis=-1)
    # [batch, steps, 2L+1]: the log-probability of each extended symbol at each step
    picked = matmul(log_probs, one_hot(ext, y_pred.shape[-1], dtype=y_pred.dtype),
                    transpose_b=True)
    start = np.full([ext.shape[1]], _NEG, y_pred.dtype.as_numpy_dtype)
    start[:2] = 0.0                       # a path starts on the first blank or symbol
    alpha = picked[:, 0] + start
    for t in range(1, y_pred.shape[1]):
        stay, step = alpha, _shift(alpha, 1)
        jump = where(skip, _shift(alpha, 2), _NEG + 0 * alpha)
        alpha = reduce_logsumexp(concat([stay[..., None], step[..., None], jump[..., None]],
                                        -1), axis=-1) + picked[:, t]
    label_length = reduce_sum(cast(not_equal(labels, 0), "int32"), -1)
    width = ext.shape[1]      # a path ends on the last symbol or the blank after it
    end = greater(one_hot(2 * label_length, width) +
                  one_hot(maximum(2 * label_length - 1, 0), width), 0.0)
    return -reduce_logsumexp(where(end, alpha, _NEG + 0 * alpha), axis=-1)


@tf_export("keras.losses.CTC", "losses.CTC")
class CTC(_LossFunctionWrapper):
    """The CTC loss as a `Loss` (labels padded with 0, logits with the blank at class 0).

    >>> tf.keras.losses.CTC().get_config()
    {'name': 'ctc', 'reduction': 'sum_over_batch_size'}
    """

    def __init__(self, reduction="sum_over_batch_size", name="ctc", dtype=None):
        super().__init__(ctc, name=name, reduction=reduction, dtype=dtype)

    def call(self, y_true, y_pred):
        return self.fn(y_true, y_pred)  # (batch, length) labels, (batch, steps, classes) logits

    def get_config(self):
        return Loss.get_config(self)


_ALL_OBJECTS.update({"CTC": CTC, "ctc": ctc})
