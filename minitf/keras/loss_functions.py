"""Keras loss *functions*: `loss(y_true, y_pred)` -> one loss per example.

Each function reduces only the last axis (the features or classes of one
example), so a batch of shape [batch, d] gives losses of shape [batch]; the
`Loss` classes in `losses.py` then weight and reduce those to one number.
The formulas are Keras 3's, in minitf ops, so gradients flow and they trace
into `tf.function` graphs. Probabilities are clipped to [1e-7, 1 - 1e-7]
before their log is taken (Keras's `epsilon()`), so a confident wrong answer
costs about 16.1, not infinity:

>>> import minitf as tf
>>> print(tf.keras.losses.binary_crossentropy([1.0], [0.0]).numpy())
16.118095
>>> tf.keras.losses.mean_squared_error([[0.0, 1.0], [1.0, 1.0]], [[1.0, 1.0], [1.0, 0.0]])
<tf.Tensor: shape=(2,), dtype=float32, numpy=array([0.5, 0.5], dtype=float32)>
"""
import math
import warnings

from ..framework import dtypes
from ..framework.tensor import convert_to_tensor
from ..framework.tf_export import tf_export
from ..ops.array_ops import expand_dims, squeeze
from ..ops.clip_ops import clip_by_value
from ..ops.cond_ops import cond
from ..ops.math_ops import abs as abs_
from ..ops.math_ops import (cast, equal, log, logical_or, maximum, minimum, not_equal,
                            where)
from ..ops.nn_losses import (sigmoid_cross_entropy_with_logits,
                             softmax_cross_entropy_with_logits,
                             sparse_softmax_cross_entropy_with_logits)
from ..ops.nn_ops import softplus
from ..ops.reduction_ops import reduce_all, reduce_max, reduce_mean, reduce_sum
from ..ops.unary_ops import rsqrt, square

EPSILON = 1e-7  # Keras's backend.epsilon(): the fuzz factor that keeps logs finite


def _float_tensor(x):
    """`x` as a tensor; integers become float32 (Keras computes losses in floats)."""
    x = convert_to_tensor(x)
    return x if x.dtype.is_floating else cast(x, dtypes.float32)


def _pair(y_true, y_pred):
    """y_pred as a float tensor and y_true cast to its dtype."""
    y_pred = _float_tensor(y_pred)
    return cast(convert_to_tensor(y_true), y_pred.dtype), y_pred


def squeeze_or_expand_to_same_rank(x1, x2, expand_rank_1=True):
    """Make ranks equal when they differ by a trailing axis of size 1 (labels [b] vs [b, 1])."""
    r1, r2 = x1.shape.rank, x2.shape.rank
    if r1 == r2:
        return x1, x2
    if r1 == r2 + 1 and x1.shape[-1] == 1:
        if r2 == 1 and expand_rank_1:
            x2 = expand_dims(x2, -1)
        else:
            x1 = squeeze(x1, -1)
    if r2 == r1 + 1 and x2.shape[-1] == 1:
        if r1 == 1 and expand_rank_1:
            x1 = expand_dims(x1, -1)
        else:
            x2 = squeeze(x2, -1)
    return x1, x2


def _aligned(y_true, y_pred):
    y_true, y_pred = _pair(y_true, y_pred)
    return squeeze_or_expand_to_same_rank(y_true, y_pred)


# --- regression -----------------------------------------------------------------------------
@tf_export("keras.losses.mean_squared_error", "keras.losses.mse", "keras.losses.MSE",
           "keras.metrics.mean_squared_error", "keras.metrics.mse", "keras.metrics.MSE",
           "losses.mean_squared_error", "losses.mse", "losses.MSE", "metrics.mse",
           "metrics.MSE", "metrics.mean_squared_error")
def mean_squared_error(y_true, y_pred):
    """mean((y_true - y_pred) ** 2, axis=-1).

    >>> tf.keras.losses.mse([1.0, 2.0], [1.0, 4.0]).numpy()
    np.float32(2.0)
    """
    y_true, y_pred = _aligned(y_true, y_pred)
    return reduce_mean(square(y_true - y_pred), axis=-1)


@tf_export("keras.losses.mean_absolute_error", "keras.losses.mae", "keras.losses.MAE",
           "keras.metrics.mean_absolute_error", "keras.metrics.mae", "keras.metrics.MAE",
           "losses.mean_absolute_error", "losses.mae", "losses.MAE", "metrics.mae",
           "metrics.MAE", "metrics.mean_absolute_error")
def mean_absolute_error(y_true, y_pred):
    """mean(|y_true - y_pred|, axis=-1).

    >>> tf.keras.losses.mae([1.0, 2.0], [1.0, 4.0]).numpy()
    np.float32(1.0)
    """
    y_true, y_pred = _aligned(y_true, y_pred)
    return reduce_mean(abs_(y_true - y_pred), axis=-1)


@tf_export("keras.losses.mean_absolute_percentage_error", "keras.losses.mape",
           "keras.losses.MAPE", "keras.metrics.mean_absolute_percentage_error",
           "keras.metrics.mape", "keras.metrics.MAPE", "losses.mean_absolute_percentage_error",
           "losses.mape", "losses.MAPE", "metrics.mape", "metrics.MAPE",
           "metrics.mean_absolute_percentage_error")
def mean_absolute_percentage_error(y_true, y_pred):
    """100 * mean(|(y_true - y_pred) / max(|y_true|, 1e-7)|, axis=-1).

    >>> tf.keras.losses.mape([2.0, 4.0], [1.0, 4.0]).numpy()
    np.float32(25.0)
    """
    y_true, y_pred = _aligned(y_true, y_pred)
    diff = abs_((y_true - y_pred) / maximum(abs_(y_true), EPSILON))
    return 100.0 * reduce_mean(diff, axis=-1)


@tf_export("keras.losses.mean_squared_logarithmic_error", "keras.losses.msle",
           "keras.losses.MSLE", "keras.metrics.mean_squared_logarithmic_error",
           "keras.metrics.msle", "keras.metrics.MSLE",
           "losses.mean_squared_logarithmic_error", "losses.msle", "losses.MSLE",
           "metrics.msle", "metrics.MSLE", "metrics.mean_squared_logarithmic_error")
def mean_squared_logarithmic_error(y_true, y_pred):
    """mean((log(max(y_pred, eps) + 1) - log(max(y_true, eps) + 1)) ** 2, axis=-1).

    >>> round(float(tf.keras.losses.msle([0.0], [math.e - 1])), 5)
    1.0
    """
    y_true, y_pred = _aligned(y_true, y_pred)
    first_log = log(maximum(y_pred, EPSILON) + 1.0)
    second_log = log(maximum(y_true, EPSILON) + 1.0)
    return reduce_mean(square(first_log - second_log), axis=-1)


def _l2_normalize(x, axis):
    """x * min(1 / ||x||, 1 / eps): Keras's `normalize` (zero vectors stay zero)."""
    if x.shape.rank == 0:
        x = expand_dims(x, 0)
    inv_norm = minimum(rsqrt(reduce_sum(square(x), axis=axis, keepdims=True)), 1.0 / EPSILON)
    return x * inv_norm


@tf_export("keras.losses.cosine_similarity", "losses.cosine_similarity")
def cosine_similarity(y_true, y_pred, axis=-1):
    """-sum(l2_normalize(y_true) * l2_normalize(y_pred), axis): the *negative* similarity.

    So that minimizing it aligns the vectors, the loss is -1 for vectors pointing the
    same way, 0 for orthogonal ones and +1 for opposite ones (TF's sign convention).

    >>> tf.keras.losses.cosine_similarity([[0.0, 2.0], [1.0, 0.0]], [[0.0, 3.0], [0.0, 1.0]])
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([-1., -0.], dtype=float32)>
    """
    y_true, y_pred = _aligned(y_true, y_pred)
    return -reduce_sum(_l2_normalize(y_true, axis) * _l2_normalize(y_pred, axis), axis=axis)


@tf_export("keras.losses.huber", "keras.metrics.huber", "losses.huber", "metrics.huber")
def huber(y_true, y_pred, delta=1.0):
    """Quadratic for small errors, linear for large: mean of 0.5 e^2 (|e| <= delta),
    else delta * |e| - 0.5 * delta^2.

    >>> tf.keras.losses.huber([0.0, 0.0], [0.5, 3.0]).numpy()
    np.float32(1.3125)
    """
    y_true, y_pred = _aligned(y_true, y_pred)
    delta = cast(delta, y_pred.dtype)
    error = y_pred - y_true
    abs_error = abs_(error)
    half = cast(0.5, abs_error.dtype)
    return reduce_mean(where(abs_error <= delta, half * square(error),
                             delta * abs_error - half * square(delta)), axis=-1)


@tf_export("keras.losses.log_cosh", "keras.losses.logcosh", "keras.metrics.log_cosh",
           "keras.metrics.logcosh", "losses.log_cosh", "losses.logcosh", "metrics.logcosh")
def log_cosh(y_true, y_pred):
    """mean(log(cosh(y_pred - y_true)), axis=-1), computed as x + softplus(-2x) - log 2.

    >>> round(float(tf.keras.losses.log_cosh([0.0], [1.0])), 6)
    0.433781
    """
    y_true, y_pred = _aligned(y_true, y_pred)
    log2 = cast(math.log(2.0), y_pred.dtype)
    x = y_pred - y_true
    return reduce_mean(x + softplus(x * -2.0) - log2, axis=-1)


# --- hinge ----------------------------------------------------------------------------------
def convert_binary_labels_to_hinge(y_true):
    """Labels that are all 0/1 become -1/+1; other labels are left alone (Keras's rule)."""
    is_binary = reduce_all(logical_or(equal(y_true, 0.0), equal(y_true, 1.0)))
    return cond(is_binary, lambda: 2.0 * y_true - 1.0, lambda: y_true)


@tf_export("keras.losses.hinge", "keras.metrics.hinge", "losses.hinge", "metrics.hinge")
def hinge(y_true, y_pred):
    """mean(max(1 - y_true * y_pred, 0), axis=-1); 0/1 labels are turned into -1/+1.

    >>> tf.keras.losses.hinge([[0.0, 1.0]], [[-0.5, 0.25]]).numpy()
    array([0.625], dtype=float32)
    """
    y_true, y_pred = _pair(y_true, y_pred)
    y_true = convert_binary_labels_to_hinge(y_true)
    return reduce_mean(maximum(1.0 - y_true * y_pred, 0.0), axis=-1)


@tf_export("keras.losses.squared_hinge", "keras.metrics.squared_hinge",
           "losses.squared_hinge", "metrics.squared_hinge")
def squared_hinge(y_true, y_pred):
    """mean(max(1 - y_true * y_pred, 0) ** 2, axis=-1); 0/1 labels become -1/+1.

    >>> tf.keras.losses.squared_hinge([[0.0, 1.0]], [[-0.5, 0.25]]).numpy()
    array([0.40625], dtype=float32)
    """
    y_true, y_pred = _pair(y_true, y_pred)
    y_true = convert_binary_labels_to_hinge(y_true)
    return reduce_mean(square(maximum(1.0 - y_true * y_pred, 0.0)), axis=-1)


@tf_export("keras.losses.categorical_hinge", "keras.metrics.categorical_hinge",
           "losses.categorical_hinge", "metrics.categorical_hinge")
def categorical_hinge(y_true, y_pred):
    """max(max_wrong - correct + 1, 0): the best wrong score must trail the right one by 1.

    >>> tf.keras.losses.categorical_hinge([[0.0, 1.0, 0.0]], [[0.5, 0.2, 0.1]]).numpy()
    array([1.3], dtype=float32)
    """
    y_true, y_pred = _pair(y_true, y_pred)
    pos = reduce_sum(y_true * y_pred, axis=-1)
    neg = reduce_max((1.0 - y_true) * y_pred, axis=-1)
    return maximum(neg - pos + 1.0, cast(0.0, y_pred.dtype))


# --- probabilistic --------------------------------------------------------------------------
@tf_export("keras.losses.kl_divergence", "keras.losses.kld", "keras.losses.KLD",
           "keras.losses.kullback_leibler_divergence", "keras.metrics.kl_divergence",
           "keras.metrics.kld", "keras.metrics.KLD",
           "keras.metrics.kullback_leibler_divergence", "losses.kld", "losses.KLD",
           "losses.kullback_leibler_divergence", "losses.kl_divergence", "metrics.kld",
           "metrics.KLD", "metrics.kullback_leibler_divergence")
def kl_divergence(y_true, y_pred):
    """sum(y_true * log(y_true / y_pred), axis=-1), both clipped to [1e-7, 1].

    >>> round(float(tf.keras.losses.kld([0.5, 0.5], [0.25, 0.75])), 5)
    0.14384
    """
    y_true, y_pred = _pair(y_true, y_pred)
    y_true = clip_by_value(y_true, EPSILON, 1.0)
    y_pred = clip_by_value(y_pred, EPSILON, 1.0)
    return reduce_sum(y_true * log(y_true / y_pred), axis=-1)


@tf_export("keras.losses.poisson", "keras.metrics.poisson", "losses.poisson",
           "metrics.poisson")
def poisson(y_true, y_pred):
    """mean(y_pred - y_true * log(y_pred + 1e-7), axis=-1).

    >>> round(float(tf.keras.losses.poisson([1.0], [1.0])), 6)
    1.0
    """
    y_true, y_pred = _pair(y_true, y_pred)
    return reduce_mean(y_pred - y_true * log(y_pred + EPSILON), axis=-1)


def _same_shape(target, output, rank_only=False):
    if target.shape.rank != output.shape.rank:
        hint = ("Integer class labels need the sparse_categorical_crossentropy loss (or "
                "one-hot labels: tf.keras.utils.to_categorical(y))."
                if target.shape.rank == output.shape.rank - 1 and output.shape[-1] != 1 else
                "Give the labels the shape of the predictions (e.g. reshape [batch] labels "
                "to [batch, 1]).")
        raise ValueError(
            "Arguments `target` and `output` must have the same rank (ndim). Received: "
            f"target.shape={target.shape}, output.shape={output.shape} " + hint)
    if not rank_only and not target.shape.is_compatible_with(output.shape):
        raise ValueError(
            "Arguments `target` and `output` must have the same shape. Received: "
            f"target.shape={target.shape}, output.shape={output.shape} Labels and "
            "predictions need one column per class each; for class indices (one integer "
            "per example) use the sparse_categorical_crossentropy loss instead.")


@tf_export("keras.losses.binary_crossentropy", "keras.metrics.binary_crossentropy",
           "losses.binary_crossentropy", "metrics.binary_crossentropy")
def binary_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0.0, axis=-1):
    """mean(-(y log p + (1 - y) log(1 - p)), axis); p clipped to [1e-7, 1 - 1e-7].

    from_logits=True: y_pred are logits, and the stable sigmoid cross-entropy is used.
    label_smoothing: y -> y * (1 - s) + 0.5 * s.

    >>> tf.keras.losses.binary_crossentropy([[0.0, 1.0]], [[0.0, 0.0]], from_logits=True)
    <tf.Tensor: shape=(1,), dtype=float32, numpy=array([0.6931472], dtype=float32)>
    """
    y_true, y_pred = _pair(y_true, y_pred)
    if label_smoothing:
        y_true = y_true * (1.0 - label_smoothing) + 0.5 * label_smoothing
    _same_shape(y_true, y_pred)
    if from_logits:
        bce = sigmoid_cross_entropy_with_logits(labels=y_true, logits=y_pred)
    else:
        output = clip_by_value(y_pred, EPSILON, 1.0 - EPSILON)
        bce = -(y_true * log(output) + (1 - y_true) * log(1 - output))
    return reduce_mean(bce, axis=axis)


def categorical_pair(y_true, y_pred, label_smoothing, axis, loss_name):
    """The checks and label smoothing every categorical cross-entropy starts with (Keras 3
    repeats them in each loss): `axis` an int, tensors of one float dtype, a warning for a
    one-column `y_pred`, smoothed labels, equal shapes."""
    if isinstance(axis, bool):
        raise ValueError(f"`axis` must be of type `int`. Received: axis={axis} of type "
                         f"{type(axis)}")
    y_true, y_pred = _pair(y_true, y_pred)
    if y_pred.shape.rank and y_pred.shape[-1] == 1:
        warnings.warn(
            f"In loss {loss_name}, expected y_pred.shape to be (batch_size, "
            f"num_classes) with num_classes > 1. Received: y_pred.shape={y_pred.shape}. "
            "Consider using 'binary_crossentropy' if you only have 2 classes.",
            SyntaxWarning, stacklevel=3)
    if label_smoothing:
        num_classes = cast(y_true.shape[-1], y_pred.dtype)
        y_true = y_true * (1.0 - label_smoothing) + (label_smoothing / num_classes)
    _same_shape(y_true, y_pred)
    return y_true, y_pred


@tf_export("keras.losses.categorical_crossentropy", "keras.metrics.categorical_crossentropy",
           "losses.categorical_crossentropy", "metrics.categorical_crossentropy")
def categorical_crossentropy(y_true, y_pred, from_logits=False, label_smoothing=0.0, axis=-1):
    """-sum(y_true * log(p), axis) for one-hot (or soft) labels y_true.

    Probabilities are first rescaled to sum to 1, then clipped to [1e-7, 1 - 1e-7].
    from_logits=True uses the fused, stable softmax cross-entropy on logits.
    label_smoothing: y -> y * (1 - s) + s / num_classes.

    >>> y_true = [[0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]
    >>> y_pred = [[0.05, 0.95, 0.0], [0.1, 0.8, 0.1]]
    >>> tf.keras.losses.categorical_crossentropy(y_true, y_pred).numpy()
    array([0.05129331, 2.3025851 ], dtype=float32)
    """
    y_true, y_pred = categorical_pair(y_true, y_pred, label_smoothing, axis,
                                      "categorical_crossentropy")
    if from_logits:
        return softmax_cross_entropy_with_logits(labels=y_true, logits=y_pred, axis=axis)
    output = y_pred / reduce_sum(y_pred, axis, keepdims=True)
    output = clip_by_value(output, EPSILON, 1.0 - EPSILON)
    return -reduce_sum(y_true * log(output), axis)


@tf_export("keras.losses.sparse_categorical_crossentropy",
           "keras.metrics.sparse_categorical_crossentropy",
           "losses.sparse_categorical_crossentropy", "metrics.sparse_categorical_crossentropy")
def sparse_categorical_crossentropy(y_true, y_pred, from_logits=False, ignore_class=None,
                                    axis=-1):
    """-log(p[y_true]) for integer class labels y_true (shape [batch] or [batch, 1]).

    Probabilities are clipped to [1e-7, 1 - 1e-7] (not renormalized). ignore_class:
    examples with that label get loss 0.

    >>> tf.keras.losses.sparse_categorical_crossentropy([1, 2], [[0.05, 0.95, 0.0],
    ...                                                         [0.1, 0.8, 0.1]]).numpy()
    array([0.05129344, 2.3025851 ], dtype=float32)
    """
    y_pred = _float_tensor(y_pred)
    y_true = convert_to_tensor(y_true)
    rank = y_pred.shape.rank
    if axis != -1 and axis != rank - 1:
        raise ValueError(f"Only axis=-1 is currently supported. Received: axis={axis}")
    if y_true.shape.rank == rank and y_true.shape[-1] == 1:
        y_true = squeeze(y_true, -1)
    if y_true.shape.rank != rank - 1:
        raise ValueError(
            "Argument `output` must have rank (ndim) `target.ndim - 1`. Received: "
            f"target.shape={y_true.shape}, output.shape={y_pred.shape} Sparse labels are "
            "one class index per example; for one-hot labels use categorical_crossentropy.")
    if not y_true.shape.is_compatible_with(y_pred.shape[:-1]):
        raise ValueError(
            "Arguments `target` and `output` must have the same shape up until the last "
            f"dimension: target.shape={y_true.shape}, output.shape={y_pred.shape} There must "
            "be one label per row of predictions (same batch size).")
    if ignore_class is not None:
        valid = not_equal(cast(y_true, y_pred.dtype), cast(ignore_class, y_pred.dtype))
        y_true = where(valid, y_true, cast(0, y_true.dtype))
        y_pred = where(expand_dims(valid, -1), y_pred, cast(0.0, y_pred.dtype))
    target = cast(y_true, dtypes.int64)
    output = y_pred
    if not from_logits:
        output = log(clip_by_value(y_pred, EPSILON, 1 - EPSILON))
    result = sparse_softmax_cross_entropy_with_logits(labels=target, logits=output)
    if ignore_class is not None:
        result = where(valid, result, cast(0.0, result.dtype))
    return result
