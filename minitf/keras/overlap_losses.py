"""Overlap losses for segmentation (`Dice`, `Tversky`) and the noise-robust
`CategoricalGeneralizedCrossEntropy` (Keras 3.15).

Dice and Tversky compare a predicted mask with the true one by their overlap
`sum(y_true * y_pred)` over `axis` (default `None`: the whole batch at once, one
number). `dice = 1 - 2 |A.B| / (|A| + |B| + eps)`; Tversky weighs the two kinds of
error: `1 - TP / (TP + alpha FP + beta FN + eps)`, with Keras's naming where
`FP = sum((1 - y_pred) * y_true)` and `FN = sum(y_pred * (1 - y_true))`.
alpha = beta = 0.5 gives the Dice loss back.

>>> import minitf as tf
>>> y_true, y_pred = [[1.0, 1.0, 0.0, 0.0]], [[0.9, 0.6, 0.2, 0.0]]
>>> print(round(float(tf.keras.losses.dice(y_true, y_pred)), 5))       # 1 - 3.0 / 3.7
0.18919
>>> print(round(float(tf.keras.losses.tversky(y_true, y_pred)), 5))    # the same number
0.18919
"""
from ..framework.tensor import convert_to_tensor
from ..framework.tf_export import tf_export
from ..ops.array_ops import one_hot
from ..ops.math_ops import cast
from ..ops.math_ops import pow as pow_
from ..ops.reduction_ops import reduce_sum
from .loss_functions import EPSILON
from .losses import _ALL_OBJECTS, Loss, _LossFunctionWrapper


def _pair(y_true, y_pred):
    y_pred = convert_to_tensor(y_pred)
    return cast(convert_to_tensor(y_true), y_pred.dtype), y_pred


@tf_export("keras.losses.dice", "losses.dice")
def dice(y_true, y_pred, axis=None):
    """1 - the Dice coefficient of the two masks, summed over `axis` (None: everything).

    >>> tf.keras.losses.dice([[1.0, 0.0], [1.0, 1.0]], [[1.0, 0.0], [0.0, 1.0]], axis=1)
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([0.       , 0.3333333], dtype=float32)>
    """
    y_true, y_pred = _pair(y_true, y_pred)
    intersection = reduce_sum(y_true * y_pred, axis=axis)
    total = reduce_sum(y_true, axis=axis) + reduce_sum(y_pred, axis=axis) + EPSILON
    return 1 - 2.0 * intersection / total


@tf_export("keras.losses.tversky", "losses.tversky")
def tversky(y_true, y_pred, alpha=0.5, beta=0.5, axis=None):
    """1 - the Tversky index: alpha weighs missed positives, beta false alarms.

    >>> print(tf.keras.losses.tversky([[1.0, 0.0]], [[0.5, 0.5]], alpha=1.0, beta=0.0).numpy())
    0.50000006
    """
    y_true, y_pred = _pair(y_true, y_pred)
    intersection = reduce_sum(y_true * y_pred, axis=axis)
    fp = reduce_sum((1 - y_pred) * y_true, axis=axis)
    fn = reduce_sum(y_pred * (1 - y_true), axis=axis)
    return 1 - intersection / (intersection + fp * alpha + fn * beta + EPSILON)


@tf_export("keras.losses.categorical_generalized_cross_entropy",
           "losses.categorical_generalized_cross_entropy")
def categorical_generalized_cross_entropy(y_true, y_pred, q):
    """`(1 - p ** q) / q` for integer labels, p the probability of the true class.

    q -> 0 approaches cross-entropy; q = 1 is the mean absolute error (robust to label noise).

    >>> tf.keras.losses.categorical_generalized_cross_entropy([1, 0], [[0.2, 0.8], [0.36, 0.64]],
    ...                                                       q=0.5)
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([0.21114564, 0.79999995], dtype=float32)>
    """
    y_pred = convert_to_tensor(y_pred)
    labels = cast(convert_to_tensor(y_true), "int32")
    y_true_one_hot = cast(one_hot(labels, y_pred.shape[-1]), y_pred.dtype)
    p = reduce_sum(y_pred * y_true_one_hot, axis=-1)
    return (1 - pow_(p, cast(q, y_pred.dtype))) / q


class _ConfiguredLoss(_LossFunctionWrapper):
    """get_config: Loss's (name, reduction, dtype) plus the listed arguments."""

    _config_keys = ()

    def get_config(self):
        config = Loss.get_config(self)
        config.update({key: getattr(self, key) for key in self._config_keys})
        return config


@tf_export("keras.losses.Dice", "losses.Dice")
class Dice(_ConfiguredLoss):
    """The Dice loss as a `Loss` (see `dice`).

    >>> print(tf.keras.losses.Dice()([[1.0, 1.0, 0.0, 0.0]], [[0.9, 0.6, 0.2, 0.0]]).numpy())
    0.1891892
    """

    _config_keys = ("axis",)

    def __init__(self, reduction="sum_over_batch_size", name="dice", axis=None, dtype=None):
        super().__init__(dice, name=name, reduction=reduction, dtype=dtype, axis=axis)
        self.axis = axis


@tf_export("keras.losses.Tversky", "losses.Tversky")
class Tversky(_ConfiguredLoss):
    """The Tversky loss as a `Loss` (see `tversky`).

    >>> Tv = tf.keras.losses.Tversky(alpha=0.7, beta=0.3)
    >>> print(Tv([[1.0, 1.0, 0.0, 0.0]], [[0.9, 0.6, 0.2, 0.0]]).numpy())
    0.21465975
    """

    _config_keys = ("alpha", "beta", "axis")

    def __init__(self, alpha=0.5, beta=0.5, reduction="sum_over_batch_size", name="tversky",
                 axis=None, dtype=None):
        super().__init__(tversky, name=name, reduction=reduction, dtype=dtype, alpha=alpha,
                         beta=beta, axis=axis)
        self.alpha = alpha
        self.beta = beta
        self.axis = axis


@tf_export("keras.losses.CategoricalGeneralizedCrossEntropy",
           "losses.CategoricalGeneralizedCrossEntropy")
class CategoricalGeneralizedCrossEntropy(_ConfiguredLoss):
    """Generalized cross-entropy (Zhang & Sabuncu, 2018) for integer labels; 0 < q < 1.

    >>> gce = tf.keras.losses.CategoricalGeneralizedCrossEntropy(q=0.5)
    >>> print(gce([1, 0], [[0.2, 0.8], [0.36, 0.64]]).numpy())
    0.5055728
    """

    _config_keys = ("q",)

    def __init__(self, q=0.5, reduction="sum_over_batch_size",
                 name="categorical_generalized_cross_entropy", dtype=None):
        if not 0 < q < 1:
            raise ValueError("q must be in the interval (0, 1)")
        super().__init__(categorical_generalized_cross_entropy, name=name, reduction=reduction,
                         dtype=dtype, q=q)
        self.q = q


# `get`, `deserialize` and `compile(loss="...")` find them by name too
_ALL_OBJECTS.update({obj.__name__: obj for obj in (
    Dice, Tversky, CategoricalGeneralizedCrossEntropy, dice, tversky,
    categorical_generalized_cross_entropy)})
