"""Losses of `tf.nn`: softmax / sparse / sigmoid / weighted cross-entropy, and l2_loss.

>>> import minitf as tf
>>> logits = tf.constant([[4.0, 2.0, 1.0], [0.0, 5.0, 1.0]])
>>> labels = tf.constant([[1.0, 0.0, 0.0], [0.0, 0.8, 0.2]])
>>> tf.nn.softmax_cross_entropy_with_logits(labels=labels, logits=logits).numpy()
array([0.16984603, 0.82474494], dtype=float32)

The softmax cross-entropies are fused ops, as in TF: one pass computes
log_softmax by shifting with the row maximum, so logits of +-1000 give finite
losses and gradients. Like TF's kernels they have two outputs, the loss and
`backprop` = softmax(logits) - labels, which *is* the gradient of the loss; the
gradient function reuses it, and differentiating through it gives second
derivatives. The sigmoid cross-entropies are compositions of tf.math ops.
"""
import numpy as np

from ..framework import dtypes, errors
from ..framework.op import Op, apply, type_name
from ..framework.tensor import convert_to_tensor
from ..framework.tensor_shape import TensorShape
from ..framework.tf_export import tf_export
from .array_ops import _dims_for_reshape, expand_dims, reshape, transpose
from .shape_ops import dim_of
from .creation_ops import zeros_like
from .math_ops import abs as abs_
from .math_ops import cast, log, logical_and, where
from .nn_ops import LogSoftmax, Softmax, relu
from .reduction_ops import reduce_sum
from .shape_rules import dims_text
from .unary_ops import exp, log1p
from .unbroadcast import unbroadcast


# --- shared by both softmax cross-entropies ------------------------------------------------
def _shift_and_log_sum_exp(logits):
    """Row-wise (x - max, log(sum(exp(x - max)))): log_softmax = shifted - log_sum_exp."""
    shifted = logits - np.max(logits, axis=1, keepdims=True)  # the max becomes 0: no overflow
    return shifted, np.log(np.sum(np.exp(shifted), axis=1, keepdims=True))


def _through_backprop(logits, d_backprop):
    """The gradient that reaches logits through `backprop = softmax(logits) - labels`.

    Only second derivatives use it (first-order losses never consume `backprop`);
    it is softmax's own gradient: (g - sum(g * p)) * p with p = softmax(logits).
    """
    probs = apply(Softmax, [logits], {"axis": 1})
    return (d_backprop - reduce_sum(d_backprop * probs, 1, keepdims=True)) * probs


# --- softmax_cross_entropy_with_logits -------------------------------------------------------
def _softmax_xent_forward(logits, labels):
    # (np.maximum.reduce and np.add.reduce are what np.max and np.sum call, without the
    # Python wrapper: a few µs less per call, which a small training step notices)
    shifted = logits - np.maximum.reduce(logits, axis=1, keepdims=True)  # max -> 0: no overflow
    exps = np.exp(shifted)
    sums = np.add.reduce(exps, axis=1, keepdims=True)
    loss = np.add.reduce(labels * (np.log(sums) - shifted), axis=1)  # -sum labels log softmax
    return loss, exps / sums - labels  # backprop = softmax - labels, reusing exp


def _softmax_xent_shape(logits, labels):
    if logits.rank is None or labels.rank is None:
        return TensorShape([None]), TensorShape([None, None])
    sizes = []
    for a, b in zip(logits.dims, labels.dims):
        if a is not None and b is not None and a != b and 1 not in (a, b):
            raise errors.op_error(
                errors.InvalidArgumentError, "SoftmaxCrossEntropyWithLogits",
                f"logits and labels must be broadcastable: logits_size={dims_text(logits)} "
                f"labels_size={dims_text(labels)}",
                "Each row of labels is a distribution over the same classes as the logits: "
                "give both the same number of classes (use one_hot for class indices, or "
                "sparse_softmax_cross_entropy_with_logits).")
        sizes.append(b if a == 1 else a)
    return TensorShape(sizes[:1]), TensorShape(sizes)


# Inputs (logits, labels), 2-D [batch, classes]; outputs (loss [batch], backprop [batch, classes]).
SoftmaxCrossEntropyWithLogits = Op(
    "SoftmaxCrossEntropyWithLogits", _softmax_xent_forward, dtypes=dtypes.FLOATING,
    shape=_softmax_xent_shape, num_outputs=2)


@SoftmaxCrossEntropyWithLogits.def_grad
def _softmax_xent_grad(op, d_loss, d_backprop):
    logits, labels = op.inputs
    d_loss = expand_dims(d_loss, -1)
    want_logits, want_labels = op.wanted  # labels are usually constants: skip their work
    d_logits = d_loss * op.outputs[1]  # d loss / d logits = softmax - labels: the saved backprop
    d_labels = d_loss * -apply(LogSoftmax, [logits], {"axis": 1}) if want_labels else None
    if op.received[1]:  # second order: backprop depends on logits and labels
        d_logits += _through_backprop(logits, d_backprop)
        if want_labels:
            d_labels -= d_backprop  # TF omits this term; d backprop / d labels = -1
    return (unbroadcast(d_logits, logits) if want_logits else None,
            unbroadcast(d_labels, labels) if want_labels else None)


def _move_axis_to_end(tensor, axis, rank):
    if axis == rank - 1:
        return tensor
    return transpose(tensor, [i for i in range(rank) if i != axis] + [axis])


@tf_export("nn.softmax_cross_entropy_with_logits")
def softmax_cross_entropy_with_logits(labels, logits, axis=-1, name=None):
    """-sum(labels * log_softmax(logits)) along `axis`; one loss per example.

    Each row of labels should be a probability distribution. Gradients flow
    into both logits (softmax - labels) and labels (-log_softmax(logits)); use
    tf.stop_gradient(labels) to stop the latter.

    >>> float(tf.nn.softmax_cross_entropy_with_logits(labels=[0.0, 1.0], logits=[1000.0, 0.0]))
    1000.0
    """
    logits = convert_to_tensor(logits)
    labels = convert_to_tensor(labels)
    precise = cast(logits, dtypes.float32) if logits.dtype is dtypes.float16 else logits
    labels = cast(labels, precise.dtype)  # TF casts labels to the logits' dtype
    rank = logits.shape.rank
    if rank == 0:
        raise errors.op_error(
            errors.InvalidArgumentError, "SoftmaxCrossEntropyWithLogits",
            "logits must have >= 1 dimension, got []", "Give one logit per class.")
    if not -rank <= axis < rank:
        raise errors.op_error(
            errors.InvalidArgumentError, "SoftmaxCrossEntropyWithLogits",
            f"Expected axis in the range [{-rank}, {rank}), but got {axis}",
            f"axis names the class axis of the rank-{rank} logits.")
    axis %= rank
    precise = _move_axis_to_end(precise, axis, rank)
    labels = _move_axis_to_end(labels, axis, rank)
    # Like TF: flatten both to [rows, classes], run the 2-D op, give the loss the outer shape.
    loss, _ = apply(SoftmaxCrossEntropyWithLogits, [_rows(precise), _rows(labels)])
    if rank != 2:
        loss = reshape(loss, _dims_for_reshape(precise)[:-1])
    return cast(loss, logits.dtype)


def _rows(tensor):
    """[d0, ..., dn, classes] -> [d0 * ... * dn, classes]."""
    if tensor.shape.rank == 2:
        return tensor
    return reshape(tensor, [-1, dim_of(tensor, -1)])


# --- sparse_softmax_cross_entropy_with_logits -------------------------------------------------
def _sparse_xent_forward(logits, labels):
    classes = logits.shape[1]
    if labels.size and (labels.min() < 0 or labels.max() >= classes):
        bad = labels.min() if labels.min() < 0 else labels.max()  # TF reports the min or the max
        raise errors.op_error(
            errors.InvalidArgumentError, "SparseSoftmaxCrossEntropyWithLogits",
            f"Received a label value of {bad} which is outside the valid range of "
            f"[0, {classes}).  Label values: {' '.join(str(v) for v in labels.tolist())}",
            f"Sparse labels are class indices 0..{classes - 1}, one per example.")
    shifted, log_sum_exp = _shift_and_log_sum_exp(logits)
    rows = np.arange(labels.shape[0])
    backprop = np.exp(shifted - log_sum_exp)
    backprop[rows, labels] -= 1  # softmax - one_hot(labels)
    return log_sum_exp[:, 0] - shifted[rows, labels], backprop


def _sparse_xent_shape(logits, labels):
    batch, classes = logits.dims if logits.rank is not None else (None, None)
    if labels.rank is not None and None not in (batch, labels.dims[0]) and batch != labels.dims[0]:
        raise errors.op_error(
            errors.InvalidArgumentError, "SparseSoftmaxCrossEntropyWithLogits",
            f"logits and labels must have the same first dimension, got logits shape "
            f"{dims_text(logits)} and labels shape {dims_text(labels)}",
            "Give one class index per row of logits.")
    return TensorShape([batch]), TensorShape([batch, classes])


SparseSoftmaxCrossEntropyWithLogits = Op(
    "SparseSoftmaxCrossEntropyWithLogits", _sparse_xent_forward, dtypes=dtypes.FLOATING,
    typed=(0,), shape=_sparse_xent_shape, num_outputs=2)


@SparseSoftmaxCrossEntropyWithLogits.def_grad
def _sparse_xent_grad(op, d_loss, d_backprop):
    logits = op.inputs[0]
    d_logits = expand_dims(d_loss, -1) * op.outputs[1]  # softmax - one_hot(labels)
    if op.received[1]:
        d_logits += _through_backprop(logits, d_backprop)
    return d_logits, None  # integer labels have no gradient


def _check_sparse_args(labels, logits):
    if logits.shape.rank is None or labels.shape.rank is None:
        return
    if logits.shape.rank == 0:
        raise ValueError(f"`logits` cannot be a scalar. Received logits={logits}`")
    if labels.shape.rank != logits.shape.rank - 1:
        raise ValueError(
            "`labels.shape.rank` must equal `logits.shape.rank - 1`. Received: "
            f"labels.shape={labels.shape} of rank {labels.shape.rank} and "
            f"logits.shape={logits.shape} of rank {logits.shape.rank}")
    if not labels.shape.is_compatible_with(logits.shape[:-1]):
        raise ValueError(
            "`labels.shape` must equal `logits.shape` except for the last dimension. "
            f"Received: labels.shape={labels.shape} and logits.shape={logits.shape}")
    if labels.dtype not in (dtypes.int32, dtypes.int64):
        raise errors.op_error(
            errors.InvalidArgumentError, "SparseSoftmaxCrossEntropyWithLogits",
            f"Value for attr 'Tlabels' of {type_name(labels.dtype)} is not in the list of "
            "allowed values: int32, int64",
            "Sparse labels are integer class indices; for probabilities use "
            "softmax_cross_entropy_with_logits.")


@tf_export("nn.sparse_softmax_cross_entropy_with_logits")
def sparse_softmax_cross_entropy_with_logits(labels, logits, name=None):
    """-log_softmax(logits)[label] per example; labels are class indices in [0, num_classes).

    labels has the shape of logits without its last (class) axis.

    >>> tf.nn.sparse_softmax_cross_entropy_with_logits(labels=[1], logits=[[0.0, 1000.0]]).numpy()
    array([0.], dtype=float32)
    """
    labels = convert_to_tensor(labels)
    logits = convert_to_tensor(logits)
    _check_sparse_args(labels, logits)
    precise = cast(logits, dtypes.float32) if logits.dtype is dtypes.float16 else logits
    rows = labels if labels.shape.rank == 1 else reshape(labels, [-1])
    loss, _ = apply(SparseSoftmaxCrossEntropyWithLogits, [_rows(precise), rows])
    if logits.shape.rank != 2:
        loss = reshape(loss, _dims_for_reshape(labels))
    return cast(loss, logits.dtype)


# --- sigmoid and weighted cross-entropy: compositions, as in TF ---------------------------------
def _logits_and_labels(labels, logits, function):
    if labels is None or logits is None:
        raise ValueError(f"Both `labels` and `logits` must be provided for {function}. "
                         f"Received: labels={labels} and logits={logits}")
    logits = convert_to_tensor(logits)
    labels = convert_to_tensor(labels)
    if not labels.shape.is_compatible_with(logits.shape):
        raise ValueError("`logits` and `labels` must have the same shape, "
                         f"received ({logits.shape} vs {labels.shape}).")
    return labels, logits


@tf_export("nn.sigmoid_cross_entropy_with_logits")
def sigmoid_cross_entropy_with_logits(labels=None, logits=None, name=None):
    """Element-wise -z log(sigmoid(x)) - (1 - z) log(1 - sigmoid(x)) for labels z, logits x.

    Computed as TF does, max(x, 0) - x z + log(1 + exp(-|x|)), which never overflows.

    >>> tf.nn.sigmoid_cross_entropy_with_logits(labels=[1.0, 0.0], logits=[1000.0, 0.0]).numpy()
    array([0.       , 0.6931472], dtype=float32)
    """
    labels, logits = _logits_and_labels(labels, logits, "sigmoid_cross_entropy_with_logits")
    zeros = zeros_like(logits)
    cond = logits >= zeros
    relu_logits = where(cond, logits, zeros)  # max(x, 0) and -|x| via where: gradients at 0
    neg_abs_logits = where(cond, -logits, logits)  # are those of the x > 0 side, as in TF
    return relu_logits - logits * labels + log1p(exp(neg_abs_logits))


@tf_export("nn.weighted_cross_entropy_with_logits")
def weighted_cross_entropy_with_logits(labels, logits, pos_weight, name=None):
    """Sigmoid cross-entropy whose positive term is weighted by pos_weight:
    -pos_weight z log(sigmoid(x)) - (1 - z) log(1 - sigmoid(x)).

    Computed as (1 - z) x + (1 + (pos_weight - 1) z) (log(1 + exp(-|x|)) + max(-x, 0)).

    >>> tf.nn.weighted_cross_entropy_with_logits(labels=[1.0], logits=[0.0], pos_weight=2.0).numpy()
    array([1.3862944], dtype=float32)
    """
    labels, logits = _logits_and_labels(labels, logits, "weighted_cross_entropy_with_logits")
    log_weight = 1 + (pos_weight - 1) * labels
    return (1 - labels) * logits + log_weight * (log1p(exp(-abs_(logits))) + relu(-logits))


# --- l2_loss -----------------------------------------------------------------------------------
L2Loss = Op("L2Loss", lambda t: np.sum(np.square(t) * t.dtype.type(0.5), dtype=t.dtype),
            dtypes=dtypes.FLOATING, shape=lambda t: TensorShape([]))


@L2Loss.def_grad
def _l2_loss_grad(op, dy):
    return op.inputs[0] * dy  # d (sum t^2 / 2) / dt = t


@tf_export("nn.l2_loss")
def l2_loss(t, name=None):
    """sum(t ** 2) / 2, a scalar: the usual weight-decay penalty (without its factor).

    >>> float(tf.nn.l2_loss([1.0, 2.0]))
    2.5
    """
    return apply(L2Loss, [convert_to_tensor(t)])


# --- log_poisson_loss --------------------------------------------------------------------------
@tf_export("nn.log_poisson_loss")
def log_poisson_loss(targets, log_input, compute_full_loss=False, name=None):
    """The Poisson negative log-likelihood from a log-rate c: exp(c) - c * z.

    compute_full_loss adds Stirling's approximation of log(z!),
    z log z - z + 0.5 log(2 pi z), for targets z > 1 (0 where 0 <= z <= 1).

    >>> tf.nn.log_poisson_loss([0.0, 3.0], [0.0, 1.0]).numpy()
    array([ 1.        , -0.28171802], dtype=float32)
    """
    log_input = convert_to_tensor(log_input)
    targets = convert_to_tensor(targets)
    if not targets.shape.is_compatible_with(log_input.shape):
        raise ValueError("`log_input` and `targets` must have the same shape, received "
                         f"({log_input.shape} vs {targets.shape}).")
    result = exp(log_input) - log_input * targets
    if compute_full_loss:
        point_five = convert_to_tensor(0.5, dtype=targets.dtype)
        two_pi = convert_to_tensor(2 * np.pi, dtype=targets.dtype)
        stirling = targets * log(targets) - targets + point_five * log(two_pi * targets)
        zeros = zeros_like(targets)
        small = logical_and(targets >= zeros, targets <= zeros + 1)
        result += where(small, zeros, stirling)
    return result
