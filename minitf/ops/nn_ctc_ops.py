"""Connectionist Temporal Classification (Graves et al., 2006) in `tf.nn`: ctc_loss and
its helpers collapse_repeated and ctc_unique_labels. The decoders are in nn_ctc_decoders.py.

CTC scores a label sequence ("cat") against per-step class scores without saying
which step spells which symbol: every path through the steps that, once repeats
are merged and blanks dropped, spells the label counts, and the loss is
-log of their total probability.

>>> import minitf as tf
>>> logits = tf.zeros([2, 1, 2])     # time-major: 2 steps, 1 example, classes {blank, 1}
>>> print(tf.nn.ctc_loss([[1]], logits, label_length=[1], logit_length=[2]).numpy())
[0.2876821]

(paths "1-", "-1", "11" out of four: -log(3/4).) The sum over paths is the forward
(alpha) recursion over the label with blanks between and around its symbols, in log
space, written with tensor ops: the gradient comes from the tape. In TensorFlow the
dense-label loss has a hand-written forward-backward gradient (the same numbers to
first order) and SparseTensor labels go to the CTCLoss kernel. tf.keras.losses.ctc
uses this recursion too.
"""
import numpy as np

from ..framework import dtypes, errors
from ..framework.op import Op, apply
from ..framework.tensor import EagerTensor, convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export
from .array_ops import concat, one_hot, reshape, stack, transpose
from .creation_ops import range as range_
from .linalg_ops import matmul
from .math_ops import (cast, equal, greater, logical_and, maximum, not_equal, where)
from .nn_ops import log_softmax
from .reduction_ops import reduce_logsumexp, reduce_sum
from .shape_ops import shape as shape_of
from .sparse_tensor import SparseTensor, to_dense

_NEG = -1e30  # log(0) in the recursion: finite, so no gradient becomes NaN
_IMPOSSIBLE = 1e29  # a loss above this means "no path spells the label"


# --- the forward recursion ----------------------------------------------------------------
def _extended_labels(labels, blank):
    """Blank, l1, blank, l2, ..., blank per row, and where a path may skip a blank (onto
    a symbol that differs from the one two places back)."""
    blanks = 0 * labels + blank
    ext = concat([reshape(stack([blanks, labels], -1), [-1, 2 * labels.shape[1]]),
                  blanks[:, :1]], 1)
    skip = logical_and(not_equal(ext[:, 2:], blank), not_equal(ext[:, 2:], ext[:, :-2]))
    return ext, concat([equal(ext[:, :2], -(2**30)), skip], 1)      # the first two: never


def _shift(alpha, k):
    return concat([_NEG + 0 * alpha[:, :k], alpha[:, :-k]], 1)


def ctc_neg_log_likelihood(log_probs, labels, label_length, logit_length=None, blank=0):
    """-log p(label | log_probs) per example.

    log_probs [batch, steps, classes] (normalized), labels [batch, max_label] int32,
    label_length [batch], logit_length [batch] or None (all steps). A label no path can
    spell costs about 1e30.
    """
    ext, skip = _extended_labels(labels, blank)
    # [batch, steps, 2L+1]: the log-probability of each extended symbol at each step
    picked = matmul(log_probs, one_hot(ext, log_probs.shape[-1], dtype=log_probs.dtype),
                    transpose_b=True)
    width = ext.shape[1]
    start = np.full([width], _NEG, log_probs.dtype.as_numpy_dtype)
    start[:2] = 0.0                       # a path starts on the first blank or symbol
    alpha = picked[:, 0] + start
    if logit_length is not None:          # no step at all: only the empty label fits
        nothing = np.full([width], _NEG, log_probs.dtype.as_numpy_dtype)
        nothing[0] = 0.0
        alpha = where(greater(logit_length, 0)[:, None], alpha, nothing + 0 * alpha)
    for t in range(1, log_probs.shape[1]):
        jump = where(skip, _shift(alpha, 2), _NEG + 0 * alpha)
        paths = stack([alpha, _shift(alpha, 1), jump], -1)
        advanced = reduce_logsumexp(paths, axis=-1) + picked[:, t]
        alpha = advanced if logit_length is None else \
            where(greater(logit_length, t)[:, None], advanced, alpha)
    # a path ends on the last symbol or on the blank after it
    end = greater(one_hot(2 * label_length, width) +
                  one_hot(maximum(2 * label_length - 1, 0), width), 0.0)
    return -reduce_logsumexp(where(end, alpha, _NEG + 0 * alpha), axis=-1)


# --- tf.nn.ctc_loss ---------------------------------------------------------------------------
def _class_count(logits):
    count = logits.shape[-1] if logits.shape.rank else None
    if count is None:
        raise ValueError("ctc_loss needs the number of classes (the last axis of logits) "
                         "to be known.")
    return count


def _sparse_labels(labels, batch):
    """A SparseTensor of labels as dense [batch, max_len] int32 and each row's length."""
    dense = cast(to_dense(labels), dtypes.int32)
    rows = cast(labels.indices[:, 0], dtypes.int32)
    every_row = range_(batch, dtype=dtypes.int32)
    lengths = reduce_sum(cast(equal(every_row[:, None], rows[None, :]), dtypes.int32), 1)
    return dense, lengths


def _check_times(label_length, logit_length):
    """The CTCLoss kernel's check (eager): a label longer than its input cannot fit."""
    if not (isinstance(label_length, EagerTensor) and isinstance(logit_length, EagerTensor)):
        return  # inside tf.function the lengths are known only when the graph runs
    for b, (need, have) in enumerate(zip(label_length.numpy(), logit_length.numpy())):
        if need > have:
            raise errors.op_error(
                errors.InvalidArgumentError, "CTCLoss",
                f"Not enough time for target transition sequence (required: {need}, "
                f"available: {have}){b}You can turn this error into a warning by using the "
                "flag ignore_longer_outputs_than_inputs",
                "Each label needs at least one step per symbol: give more steps or "
                "shorter labels.")


def _move_blank(logits, labels, blank, num_classes, sparse):
    """TF's renumbering: the blank class moves first (dense labels) or last (sparse
    labels, the CTCLoss kernel's convention) and the labels follow."""
    if sparse:  # TF renumbers even when the blank is already last: a label equal to the
        # blank then means the class before it
        logits = concat([logits[:, :, :blank], logits[:, :, blank + 1:],
                         logits[:, :, blank:blank + 1]], 2)
        labels = where(labels < blank, labels, labels - 1)
        return logits, labels, num_classes - 1
    if not sparse and blank != 0:
        logits = concat([logits[:, :, blank:blank + 1], logits[:, :, :blank],
                         logits[:, :, blank + 1:]], 2)
        labels = where(labels < blank, labels + 1, labels)
        return logits, labels, 0
    return logits, labels, blank


@tf_export("nn.ctc_loss")
def ctc_loss(labels, logits, label_length, logit_length, logits_time_major=True, unique=None,
             blank_index=None, name=None):
    """The CTC loss, one value per example: -log p(labels | logits).

    logits: [steps, batch, classes] (or [batch, steps, classes] if not
    logits_time_major), unnormalized. labels: [batch, max_label] int with
    label_length [batch], or a SparseTensor (then label_length is None and
    blank_index must be given). logit_length [batch]: the steps of each example.
    blank_index: the class of the blank, 0 by default for dense labels; negative
    counts from the end (-1: the last class, TF 1's convention). `unique`
    (from ctc_unique_labels) only speeds TF up on TPUs; the loss is the same.
    A label that cannot fit gives inf with SparseTensor labels and a huge number
    (TF's kernel prints ~700; minitf ~1e30) with dense ones.

    >>> logits = tf.zeros([3, 1, 2])
    >>> print(tf.nn.ctc_loss([[1, 0]], logits, [1], [3]).numpy())   # 6 of 8 paths
    [0.28768206]
    """
    logits = convert_to_tensor(logits)
    sparse = isinstance(labels, SparseTensor)
    if sparse and blank_index is None:
        raise ValueError("Argument `blank_index` must be provided when `labels` is a "
                         "`SparseTensor`.")
    if not logits_time_major:
        logits = transpose(logits, [1, 0, 2])
    num_classes = _class_count(logits)
    blank = 0 if blank_index is None else int(blank_index)
    blank = blank + num_classes if blank < 0 else blank
    logit_length = cast(convert_to_tensor(logit_length), dtypes.int32)
    if sparse:
        labels, label_length = _sparse_labels(labels, shape_of(logits)[1])
        _check_times(label_length, logit_length)
    else:
        labels = cast(convert_to_tensor(labels), dtypes.int32)
        label_length = cast(convert_to_tensor(label_length), dtypes.int32)
        if logits.dtype is dtypes.float64:  # TF's dense loss mixes in float32 constants
            raise errors.op_error(
                errors.InvalidArgumentError, "Mul",
                "cannot compute Mul as input #1(zero-based) was expected to be a double "
                "tensor but is a float tensor",
                "TF's ctc_loss with dense labels runs in float32: tf.cast the logits.")
    orig_dtype = logits.dtype
    if orig_dtype is dtypes.float16:
        logits = cast(logits, dtypes.float32)
    logits, labels, blank = _move_blank(logits, labels, blank, num_classes, sparse)
    log_probs = log_softmax(transpose(logits, [1, 0, 2]), axis=-1)   # batch-major
    loss = ctc_neg_log_likelihood(log_probs, labels, label_length, logit_length, blank)
    if sparse:  # the CTCLoss kernel: probability 0 is an infinite loss
        loss = where(greater(loss, _IMPOSSIBLE), np.inf + 0 * loss, loss)
    return cast(loss, orig_dtype)


# --- collapse_repeated, ctc_unique_labels ----------------------------------------------------
def _collapse_forward(labels, seq_length):
    keep = np.ones(labels.shape, bool)
    keep[:, 1:] = labels[:, 1:] != labels[:, :-1]
    keep &= np.arange(labels.shape[1])[None, :] < seq_length[:, None]
    lengths = keep.sum(1).astype(np.int32)
    out = np.zeros((labels.shape[0], lengths.max(initial=0)), labels.dtype)
    for b in range(labels.shape[0]):
        out[b, :lengths[b]] = labels[b][keep[b]]
    return out, lengths


CollapseRepeated = Op(  # minitf's name: TF composes this from mask and scatter ops
    "CollapseRepeated", _collapse_forward, dtypes=dtypes.INTEGER, typed=(0,), num_outputs=2,
    shape=lambda labels, seq_length: (TensorShape([labels.dims[0] if labels.rank else None,
                                                   None]), seq_length),
    dtype=lambda labels, seq_length: (labels, dtypes.int32))


@tf_export("nn.collapse_repeated")
def collapse_repeated(labels, seq_length, name=None):
    """Merge runs of the same label within each row's first seq_length entries.

    Returns (collapsed labels padded with 0 to the longest result, new lengths).

    >>> labels, lengths = tf.nn.collapse_repeated([[1, 1, 2, 2, 3], [4, 4, 4, 0, 0]], [5, 2])
    >>> labels.numpy(), lengths.numpy()
    (array([[1, 2, 3],
           [4, 0, 0]], dtype=int32), array([3, 1], dtype=int32))
    """
    labels = convert_to_tensor(labels)
    seq_length = convert_to_tensor(seq_length)
    return apply(CollapseRepeated, [labels, seq_length])


def _unique_labels_forward(labels):
    values = np.zeros(labels.shape, np.int64)
    indices = np.zeros(labels.shape, np.int32)
    for b, row in enumerate(labels):
        seen = {}
        for i, label in enumerate(row.tolist()):
            indices[b, i] = seen.setdefault(label, len(seen))
        values[b, :len(seen)] = list(seen)
    return values, indices


CtcUniqueLabels = Op(  # minitf's name: TF maps tf.unique over the rows
    "CtcUniqueLabels", _unique_labels_forward, dtypes=dtypes.INTEGER, num_outputs=2,
    shape=lambda labels: (labels, labels), dtype=lambda labels: (dtypes.int64, dtypes.int32))


@tf_export("nn.ctc_unique_labels")
def ctc_unique_labels(labels, name=None):
    """Per row: the distinct labels in order of first appearance (int64, padded with 0 to
    the row length) and, for each label, the position of its value among them (int32).

    >>> y, idx = tf.nn.ctc_unique_labels([[3, 4, 4, 3]])
    >>> y.numpy(), idx.numpy()
    (array([[3, 4, 0, 0]]), array([[0, 1, 1, 0]], dtype=int32))
    """
    labels = convert_to_tensor(labels)
    if labels.shape.rank is not None and labels.shape.rank != 2:
        raise ValueError(f"ctc_unique_labels expects [batch, max_label_length] labels; got "
                         f"shape {labels.shape}.")
    return list(apply(CtcUniqueLabels, [labels]))


def per_example_length(labels):
    """Keras' convention: each label's length is its number of non-zero entries."""
    return reduce_sum(cast(not_equal(labels, 0), dtypes.int32), -1)
