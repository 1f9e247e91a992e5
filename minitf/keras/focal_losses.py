"""Focal cross-entropy (Lin et al., 2017, arXiv:1708.02002): cross-entropy that
down-weights the examples a model already gets right.

Each example's cross-entropy is multiplied by a *focal factor* `(1 - p_t) ** gamma`,
where `p_t` is the probability given to the true answer. A confident right answer
(`p_t` near 1) keeps almost nothing of its loss; a wrong one keeps nearly all of it.
`gamma=0` gives back plain cross-entropy. The formulas are Keras 3.15's:

* binary: `mean((1 - p_t) ** gamma * bce, axis)`, with `p_t = y p + (1 - y)(1 - p)`
  and, if `apply_class_balancing`, a weight `alpha` on positives, `1 - alpha` on negatives;
* categorical: `sum(alpha * (1 - p) ** gamma * -y log p, axis)` (alpha always applied).

With `from_logits=True` the binary loss takes its cross-entropy from the logits
(the stable `sigmoid_cross_entropy_with_logits`), while the categorical loss, as in
Keras, applies the softmax and then clips the probabilities to [1e-7, 1 - 1e-7]: a
very confident wrong logit costs it at most -log(1e-7) * alpha, about 4.03.

>>> import minitf as tf
>>> y_true, y_pred = [[0.0, 1.0], [0.0, 0.0]], [[0.6, 0.4], [0.4, 0.6]]
>>> tf.keras.losses.binary_focal_crossentropy(y_true, y_pred, gamma=2.0)
<tf.Tensor: shape=(2,), dtype=float32, numpy=array([0.32986468, 0.20579839], dtype=float32)>
>>> tf.keras.losses.binary_focal_crossentropy(y_true, y_pred, gamma=0.0)  # plain BCE
<tf.Tensor: shape=(2,), dtype=float32, numpy=array([0.91629076, 0.7135582 ], dtype=float32)>
"""

from ..framework.tf_export import tf_export
from ..ops.clip_ops import clip_by_value
from ..ops.math_ops import cast, log
from ..ops.math_ops import pow as pow_
from ..ops.nn_losses import sigmoid_cross_entropy_with_logits
from ..ops.nn_ops import softmax
from ..ops.reduction_ops import reduce_mean, reduce_sum
from ..ops.unary_ops import sigmoid
from .loss_functions import EPSILON, _pair, _same_shape, categorical_pair
from .losses import _ALL_OBJECTS, Loss, _LossFunctionWrapper


@tf_export("keras.losses.binary_focal_crossentropy", "keras.metrics.binary_focal_crossentropy",
           "losses.binary_focal_crossentropy", "metrics.binary_focal_crossentropy")
def binary_focal_crossentropy(y_true, y_pred, apply_class_balancing=False, alpha=0.25,
                              gamma=2.0, from_logits=False, label_smoothing=0.0, axis=-1):
    """mean((1 - p_t) ** gamma * bce, axis): binary cross-entropy scaled by a focal factor.

    p_t = y * p + (1 - y) * (1 - p) is the probability of the true label.
    apply_class_balancing: multiply by alpha where y = 1 and by 1 - alpha where y = 0.

    >>> loss = tf.keras.losses.binary_focal_crossentropy([[1.0, 0.0]], [[0.9, 0.9]])
    >>> print(loss.numpy())  # the easy positive costs ~0, the wrong negative ~1.87
    [0.9330736]
    """
    y_true, y_pred = _pair(y_true, y_pred)
    if label_smoothing:
        y_true = y_true * (1.0 - label_smoothing) + 0.5 * label_smoothing
    _same_shape(y_true, y_pred)
    if from_logits:  # Keras's sigmoid keeps its logits, and the cross-entropy uses them
        bce = sigmoid_cross_entropy_with_logits(labels=y_true, logits=y_pred)
        y_pred = sigmoid(y_pred)
    else:
        output = clip_by_value(y_pred, EPSILON, 1.0 - EPSILON)
        bce = -(y_true * log(output) + (1.0 - y_true) * log(1.0 - output))
    p_t = y_true * y_pred + (1.0 - y_true) * (1.0 - y_pred)
    focal_bce = pow_(1.0 - p_t, cast(gamma, y_pred.dtype)) * bce
    if apply_class_balancing:
        focal_bce = (y_true * alpha + (1.0 - y_true) * (1.0 - alpha)) * focal_bce
    return reduce_mean(focal_bce, axis=axis)


@tf_export("keras.losses.categorical_focal_crossentropy",
           "keras.metrics.categorical_focal_crossentropy",
           "losses.categorical_focal_crossentropy", "metrics.categorical_focal_crossentropy")
def categorical_focal_crossentropy(y_true, y_pred, alpha=0.25, gamma=2.0, from_logits=False,
                                   label_smoothing=0.0, axis=-1):
    """sum(alpha * (1 - p) ** gamma * -y_true * log(p), axis) for one-hot labels.

    Probabilities are rescaled to sum to 1 and clipped to [1e-7, 1 - 1e-7]; alpha may be
    a number or one weight per class.

    >>> y_true = [[0.0, 1.0, 0.0], [0.0, 0.0, 1.0]]
    >>> y_pred = [[0.05, 0.9, 0.05], [0.1, 0.85, 0.05]]
    >>> tf.keras.losses.categorical_focal_crossentropy(y_true, y_pred).numpy()
    array([2.6340148e-04, 6.7591208e-01], dtype=float32)
    """
    y_true, y_pred = categorical_pair(y_true, y_pred, label_smoothing, axis,
                                      "categorical_focal_crossentropy")
    if from_logits:
        y_pred = softmax(y_pred, axis=axis)
    output = y_pred / reduce_sum(y_pred, axis, keepdims=True)
    output = clip_by_value(output, EPSILON, 1.0 - EPSILON)
    cce = -y_true * log(output)
    factor = pow_(1.0 - output, cast(gamma, y_pred.dtype)) * cast(alpha, y_pred.dtype)
    return reduce_sum(factor * cce, axis=axis)


class _FocalLoss(_LossFunctionWrapper):
    """Shared config of the two focal classes: their arguments, in Keras's order."""

    _config_keys = ()

    def get_config(self):
        config = Loss.get_config(self)
        config.update({key: getattr(self, key) for key in self._config_keys})
        return config


@tf_export("keras.losses.BinaryFocalCrossentropy", "losses.BinaryFocalCrossentropy")
class BinaryFocalCrossentropy(_FocalLoss):
    """Binary cross-entropy times `(1 - p_t) ** gamma`: easy examples count less.

    >>> bfce = tf.keras.losses.BinaryFocalCrossentropy(gamma=2.0)
    >>> print(bfce([[0.0, 1.0], [0.0, 0.0]], [[0.6, 0.4], [0.4, 0.6]]).numpy())
    0.26783153
    >>> bfce.get_config()["alpha"], bfce.get_config()["apply_class_balancing"]
    (0.25, False)
    """

    _config_keys = ("from_logits", "label_smoothing", "axis", "apply_class_balancing",
                    "alpha", "gamma")

    def __init__(self, apply_class_balancing=False, alpha=0.25, gamma=2.0, from_logits=False,
                 label_smoothing=0.0, axis=-1, reduction="sum_over_batch_size",
                 name="binary_focal_crossentropy", dtype=None):
        super().__init__(binary_focal_crossentropy, name=name, reduction=reduction,
                         dtype=dtype, apply_class_balancing=apply_class_balancing,
                         alpha=alpha, gamma=gamma, from_logits=from_logits,
                         label_smoothing=label_smoothing, axis=axis)
        self.from_logits = from_logits
        self.label_smoothing = label_smoothing
        self.axis = axis
        self.apply_class_balancing = apply_class_balancing
        self.alpha = alpha
        self.gamma = gamma


@tf_export("keras.losses.CategoricalFocalCrossentropy", "losses.CategoricalFocalCrossentropy")
class CategoricalFocalCrossentropy(_FocalLoss):
    """Categorical cross-entropy times `alpha * (1 - p) ** gamma`, for one-hot labels.

    >>> cfce = tf.keras.losses.CategoricalFocalCrossentropy()
    >>> print(cfce([[0.0, 1.0, 0.0], [0.0, 0.0, 1.0]],
    ...            [[0.05, 0.9, 0.05], [0.1, 0.85, 0.05]]).numpy())
    0.33808774
    """

    _config_keys = ("from_logits", "label_smoothing", "axis", "alpha", "gamma")

    def __init__(self, alpha=0.25, gamma=2.0, from_logits=False, label_smoothing=0.0,
                 axis=-1, reduction="sum_over_batch_size",
                 name="categorical_focal_crossentropy", dtype=None):
        super().__init__(categorical_focal_crossentropy, name=name, reduction=reduction,
                         dtype=dtype, alpha=alpha, gamma=gamma, from_logits=from_logits,
                         label_smoothing=label_smoothing, axis=axis)
        self.from_logits = from_logits
        self.label_smoothing = label_smoothing
        self.axis = axis
        self.alpha = alpha
        self.gamma = gamma


# `get`, `deserialize` and `compile(loss="...")` find the focal losses by name too
_ALL_OBJECTS.update({obj.__name__: obj for obj in (
    BinaryFocalCrossentropy, CategoricalFocalCrossentropy, binary_focal_crossentropy,
    categorical_focal_crossentropy)})
