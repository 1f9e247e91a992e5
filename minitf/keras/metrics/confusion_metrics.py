"""Confusion-matrix metrics: counts of TP/FP/TN/FN at thresholds, Precision, Recall, AUC.

A prediction counts as positive at threshold t when y_pred > t (default
t = 0.5); labels are positive when non-zero. Each metric keeps one counter
per threshold, so `thresholds=[0.3, 0.5, 0.7]` gives three results at once.

>>> import minitf as tf
>>> m = tf.keras.metrics.Precision()
>>> print(m([0, 1, 1, 1], [1, 0, 1, 1]).numpy())       # 2 of the 3 predicted 1s are right
0.6666667
>>> r = tf.keras.metrics.Recall(thresholds=[0.3, 0.7])
>>> r([0, 1, 1, 1], [0.9, 0.2, 0.5, 0.8]).numpy()
array([0.6666667 , 0.33333334], dtype=float32)
"""
import numpy as np

from ...framework import dtypes
from ...framework.tensor import convert_to_tensor
from ...framework.tf_export import tf_export
from ...ops.array_ops import broadcast_to, expand_dims, one_hot, reshape, shape
from ...ops.clip_ops import clip_by_value, divide_no_nan
from ...ops.math_ops import cast, greater, logical_and, logical_not
from ...ops.nn_ops import relu
from ...ops.reduction_ops import reduce_sum
from ...ops.scan_ops import cumsum
from ...ops.scatter_ops import unsorted_segment_sum
from ...ops.sort_ops import top_k as top_k_op
from ...ops.unary_ops import ceil
from ..loss_functions import EPSILON, squeeze_or_expand_to_same_rank
from .metric import Metric

NEG_INF = -1e10
KINDS = ("tp", "fp", "tn", "fn")


def parse_init_thresholds(thresholds, default_threshold=0.5):
    thresholds = default_threshold if thresholds is None else thresholds
    thresholds = list(thresholds) if isinstance(thresholds, (list, tuple)) else [thresholds]
    bad = [t for t in thresholds if t is None or t < 0 or t > 1]
    if bad and thresholds != [NEG_INF]:
        raise ValueError(f"Threshold values must be in [0, 1]. Received: {bad}")
    return thresholds


def is_evenly_distributed_thresholds(thresholds):
    n = len(thresholds)
    if n < 3:
        return False
    even = np.arange(n, dtype=np.float32) / (n - 1)
    return np.allclose(thresholds, even, atol=EPSILON)


def _filter_top_k(x, k):
    """Keep the k largest predictions per row; push the others to -1e10 (never positive)."""
    _, indices = top_k_op(x, k)
    mask = reduce_sum(one_hot(indices, x.shape[-1]), axis=-2)
    return x * mask + NEG_INF * (1 - mask)


def _prepare(y_true, y_pred, sample_weight, top_k, class_id, dtype):
    """Labels, predictions and weights as flat vectors, Keras's shape rules applied."""
    y_true = cast(convert_to_tensor(y_true), dtype)
    y_pred = cast(convert_to_tensor(y_pred), dtype)
    y_pred, y_true = squeeze_or_expand_to_same_rank(y_pred, y_true)
    if top_k is not None:
        y_pred = _filter_top_k(y_pred, top_k)
    if class_id is not None:
        if y_pred.shape.rank == 1:
            raise ValueError(
                "When class_id is provided, y_pred must be a 2D array with shape "
                f"(num_samples, num_classes), found shape: {y_pred.shape}")
        y_true = y_true[..., class_id]
        y_pred = y_pred[..., class_id]
    if sample_weight is not None:
        weights = cast(convert_to_tensor(sample_weight), dtype)
        weights = expand_dims(weights, -1) if weights.shape.rank else weights
        _, weights = squeeze_or_expand_to_same_rank(y_true, weights, expand_rank_1=False)
        weights = reshape(broadcast_to(weights, shape(y_pred)), [-1])
    else:
        weights = None
    return reshape(y_true, [-1]), reshape(y_pred, [-1]), weights


def update_confusion_matrix_variables(variables, y_true, y_pred, thresholds, top_k=None,
                                      class_id=None, sample_weight=None,
                                      thresholds_distributed_evenly=False):
    """Add this batch's (weighted) TP/FP/TN/FN counts at each threshold.

    `variables` maps "tp", "fp", "tn", "fn" to the variables to update.
    """
    dtype = list(variables.values())[0].dtype
    y_true, y_pred, weights = _prepare(y_true, y_pred, sample_weight, top_k, class_id, dtype)
    if thresholds_distributed_evenly:
        counts = _bucketed_counts(y_true, y_pred, weights, thresholds, dtype)
    else:
        counts = _compared_counts(y_true, y_pred, weights, thresholds, dtype)
    for kind, variable in variables.items():
        variable.assign_add(counts[kind])


def _compared_counts(y_true, y_pred, weights, thresholds, dtype):
    """Direct rule: compare every prediction with every threshold ([thresholds, n])."""
    thresholds = convert_to_tensor(np.asarray(thresholds, dtype=dtype.as_numpy_dtype))
    pred_is_pos = greater(expand_dims(y_pred, 0), expand_dims(thresholds, 1))
    label_is_pos = broadcast_to(expand_dims(cast(y_true, dtypes.bool), 0), shape(pred_is_pos))
    w = 1.0 if weights is None else expand_dims(weights, 0)

    def count(label, pred):
        return reduce_sum(cast(logical_and(label, pred), dtype) * w, axis=1)

    pred_is_neg, label_is_neg = logical_not(pred_is_pos), logical_not(label_is_pos)
    return {"tp": count(label_is_pos, pred_is_pos), "fp": count(label_is_neg, pred_is_pos),
            "tn": count(label_is_neg, pred_is_neg), "fn": count(label_is_pos, pred_is_neg)}


def _bucketed_counts(y_true, y_pred, weights, thresholds, dtype):
    """Keras's fast rule for evenly spaced thresholds: put each prediction in the bucket
    of the highest threshold below it, then count from the top with a reversed cumsum."""
    num_thresholds = len(thresholds)
    with_epsilon = thresholds[0] < 0.0 or thresholds[-1] > 1.0
    w = cast(1.0, dtype) if weights is None else weights
    y_pred = clip_by_value(y_pred, 0.0, 1.0)
    y_true = cast(cast(y_true, dtypes.bool), dtype)
    true_labels = y_true * w
    false_labels = (1.0 - y_true) * w
    buckets = ceil(y_pred * cast(num_thresholds - 1, dtype)) - 1
    if with_epsilon:
        buckets = relu(buckets)
    buckets = cast(buckets, dtypes.int32)
    tp = cumsum(unsorted_segment_sum(true_labels, buckets, num_thresholds), reverse=True)
    fp = cumsum(unsorted_segment_sum(false_labels, buckets, num_thresholds), reverse=True)
    return {"tp": tp, "fp": fp, "tn": reduce_sum(false_labels) - fp,
            "fn": reduce_sum(true_labels) - tp}


class _ConfusionMatrixConditionCount(Metric):
    """One counter per threshold for one cell of the confusion matrix."""

    _kind = None

    def __init__(self, thresholds=None, name=None, dtype=None):
        super().__init__(name=name, dtype=dtype)
        self.init_thresholds = thresholds
        self.thresholds = parse_init_thresholds(thresholds, default_threshold=0.5)
        self._thresholds_distributed_evenly = is_evenly_distributed_thresholds(
            self.thresholds)
        self.accumulator = self.add_variable(shape=(len(self.thresholds),),
                                             initializer="zeros", name="accumulator")

    def update_state(self, y_true, y_pred, sample_weight=None):
        update_confusion_matrix_variables(
            {self._kind: self.accumulator}, y_true, y_pred, self.thresholds,
            sample_weight=sample_weight,
            thresholds_distributed_evenly=self._thresholds_distributed_evenly)

    def result(self):
        return self.accumulator[0] if len(self.thresholds) == 1 else \
            convert_to_tensor(self.accumulator)

    def get_config(self):
        return {**super().get_config(), "thresholds": self.init_thresholds}


def _count_class(class_name, kind, text):
    cls = type(class_name, (_ConfusionMatrixConditionCount,), {
        "_kind": kind, "__module__": __name__,
        "__doc__": f"""The (weighted) number of {text}.

    >>> m = tf.keras.metrics.{class_name}()
    >>> print(m([0, 1, 1, 0, 1], [0.9, 0.8, 0.2, 0.1, 0.7]).numpy())
    {dict(tp=2.0, fp=1.0, tn=1.0, fn=1.0)[kind]}
    """})
    return tf_export(f"keras.metrics.{class_name}", f"metrics.{class_name}")(cls)


TruePositives = _count_class("TruePositives", "tp", "true positives (label 1, predicted 1)")
FalsePositives = _count_class("FalsePositives", "fp", "false positives (label 0, predicted 1)")
TrueNegatives = _count_class("TrueNegatives", "tn", "true negatives (label 0, predicted 0)")
FalseNegatives = _count_class("FalseNegatives", "fn", "false negatives (label 1, predicted 0)")


class _PrecisionOrRecall(Metric):
    _other = None  # "fp" for Precision, "fn" for Recall

    def __init__(self, thresholds=None, top_k=None, class_id=None, name=None, dtype=None):
        super().__init__(name=name, dtype=dtype)
        self.init_thresholds = thresholds
        self.top_k = top_k
        self.class_id = class_id
        default = 0.5 if top_k is None else NEG_INF
        self.thresholds = parse_init_thresholds(thresholds, default_threshold=default)
        self._thresholds_distributed_evenly = is_evenly_distributed_thresholds(
            self.thresholds)
        n = len(self.thresholds)
        self.true_positives = self.add_variable(shape=(n,), initializer="zeros",
                                                name="true_positives")
        other_name = {"fp": "false_positives", "fn": "false_negatives"}[self._other]
        setattr(self, other_name, self.add_variable(shape=(n,), initializer="zeros",
                                                    name=other_name))
        self._other_variable = getattr(self, other_name)

    def update_state(self, y_true, y_pred, sample_weight=None):
        update_confusion_matrix_variables(
            {"tp": self.true_positives, self._other: self._other_variable}, y_true, y_pred,
            self.thresholds, top_k=self.top_k, class_id=self.class_id,
            sample_weight=sample_weight,
            thresholds_distributed_evenly=self._thresholds_distributed_evenly)

    def result(self):
        result = divide_no_nan(self.true_positives,
                               self.true_positives + self._other_variable)
        return result[0] if len(self.thresholds) == 1 else result

    def get_config(self):
        return {**super().get_config(), "thresholds": self.init_thresholds,
                "top_k": self.top_k, "class_id": self.class_id}


@tf_export("keras.metrics.Precision", "metrics.Precision")
class Precision(_PrecisionOrRecall):
    """TP / (TP + FP): of the examples predicted positive, the fraction that are.

    top_k: only the k best-scored classes of each example count as predicted;
    class_id: the precision of one class of a multi-class output.

    >>> m = tf.keras.metrics.Precision(top_k=1)
    >>> print(m([[0, 0, 1], [0, 1, 0]], [[0.1, 0.5, 0.4], [0.2, 0.7, 0.1]]).numpy())
    0.5
    """

    _other = "fp"


@tf_export("keras.metrics.Recall", "metrics.Recall")
class Recall(_PrecisionOrRecall):
    """TP / (TP + FN): of the positive examples, the fraction predicted positive.

    >>> m = tf.keras.metrics.Recall(class_id=2)
    >>> print(m([[0, 0, 1], [0, 0, 1]], [[0.1, 0.2, 0.7], [0.5, 0.1, 0.4]]).numpy())
    0.5
    """

    _other = "fn"
