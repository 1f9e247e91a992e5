"""`AUC`: the area under the ROC or precision-recall curve, from counts at thresholds.

Like TF, AUC does not sort predictions: it keeps TP/FP/TN/FN counters at
`num_thresholds=200` evenly spaced thresholds (0 - 1e-7, 1/199, ..., 1 + 1e-7)
and sums trapezoids between neighbouring thresholds ("interpolation"). For
the PR curve the interpolation is Davis & Goadrich's, as in TF. So the
result is an approximation that gets finer with more thresholds.

>>> import minitf as tf
>>> m = tf.keras.metrics.AUC(num_thresholds=3)
>>> print(m([0, 0, 1, 1], [0.0, 0.5, 0.3, 0.9]).numpy())
0.75
"""
import numpy as np

from ...framework.tf_export import tf_export
from ...ops.clip_ops import divide_no_nan
from ...ops.math_ops import equal, log, logical_and, maximum, minimum, where
from ...ops.reduction_ops import reduce_sum
from ...ops.unary_ops import sigmoid
from ..loss_functions import EPSILON
from .confusion_metrics import is_evenly_distributed_thresholds, \
    update_confusion_matrix_variables
from .metric import Metric

CURVES = {"roc": "ROC", "pr": "PR", "prgain": "PRGAIN"}
SUMMATION_METHODS = ("interpolation", "majoring", "minoring")


@tf_export("keras.metrics.AUC", "metrics.AUC")
class AUC(Metric):
    """Area under the ROC curve (curve="ROC", default) or the PR curve (curve="PR").

    summation_method: "interpolation" (trapezoids), "majoring" or "minoring"
    (upper/lower Riemann sums). from_logits=True applies a sigmoid first.
    `thresholds` replaces the evenly spaced ones. minitf does not implement
    `multi_label=True` or `label_weights`.

    >>> m = tf.keras.metrics.AUC(curve="PR")
    >>> print(round(float(m([0, 0, 1, 1], [0.1, 0.4, 0.35, 0.8])), 4))
    0.7973
    """

    def __init__(self, num_thresholds=200, curve="ROC", summation_method="interpolation",
                 name=None, dtype=None, thresholds=None, multi_label=False, num_labels=None,
                 label_weights=None, from_logits=False):
        if multi_label or num_labels or label_weights is not None:
            raise NotImplementedError(
                "minitf's AUC supports single-label data only (multi_label=False, no "
                "label_weights); real TF 2.21 supports both.")
        self._init_from_thresholds = thresholds is not None
        if thresholds is not None:
            self.num_thresholds = len(thresholds) + 2
            thresholds = sorted(thresholds)
            self._thresholds_distributed_evenly = is_evenly_distributed_thresholds(
                np.array([0.0] + thresholds + [1.0]))
        else:
            if num_thresholds <= 1:
                raise ValueError("Argument `num_thresholds` must be an integer > 1. "
                                 f"Received: num_thresholds={num_thresholds}")
            self.num_thresholds = num_thresholds
            thresholds = [(i + 1) * 1.0 / (num_thresholds - 1)
                          for i in range(num_thresholds - 2)]
            self._thresholds_distributed_evenly = True
        self._thresholds = np.array([0.0 - EPSILON] + thresholds + [1.0 + EPSILON])
        if str(curve).lower() not in CURVES:
            raise ValueError(f'Invalid AUC curve value: "{curve}". Expected values are '
                             '["PR", "ROC", "PRGAIN"]')
        self.curve = CURVES[str(curve).lower()]
        if str(summation_method).lower() not in SUMMATION_METHODS:
            raise ValueError(f'Invalid AUC summation method value: "{summation_method}". '
                             'Expected values are ["interpolation", "majoring", "minoring"]')
        self.summation_method = str(summation_method).lower()
        super().__init__(name=name, dtype=dtype)
        self.multi_label = multi_label
        self.num_labels = num_labels
        self.label_weights = label_weights
        self._from_logits = from_logits
        for kind in ("true_positives", "false_positives", "true_negatives",
                     "false_negatives"):
            setattr(self, kind, self.add_variable(shape=(self.num_thresholds,),
                                                  initializer="zeros", name=kind))

    @property
    def thresholds(self):
        return list(self._thresholds)

    def update_state(self, y_true, y_pred, sample_weight=None):
        if self._from_logits:
            y_pred = sigmoid(y_pred)
        update_confusion_matrix_variables(
            {"tp": self.true_positives, "tn": self.true_negatives,
             "fp": self.false_positives, "fn": self.false_negatives},
            y_true, y_pred, self._thresholds, sample_weight=sample_weight,
            thresholds_distributed_evenly=self._thresholds_distributed_evenly)

    def interpolate_pr_auc(self):
        """Davis & Goadrich (2006): integrate precision over recall, interpolating TP and
        predicted-positive counts linearly between thresholds."""
        n = self.num_thresholds
        tp, fp, fn = self.true_positives, self.false_positives, self.false_negatives
        dtp = tp[:n - 1] - tp[1:]
        p = tp + fp
        dp = p[:n - 1] - p[1:]
        prec_slope = divide_no_nan(dtp, maximum(dp, 0.0))
        intercept = tp[1:] - prec_slope * p[1:]
        safe_p_ratio = where(logical_and(p[:n - 1] > 0, p[1:] > 0),
                             divide_no_nan(p[:n - 1], maximum(p[1:], 0.0)), p[1:] * 0 + 1)
        increments = divide_no_nan(prec_slope * (dtp + intercept * log(safe_p_ratio)),
                                   maximum(tp[1:] + fn[1:], 0.0))
        return reduce_sum(increments)

    def result(self):
        if self.curve == "PR" and self.summation_method == "interpolation":
            return self.interpolate_pr_auc()
        tp, fp = self.true_positives, self.false_positives
        tn, fn = self.true_negatives, self.false_negatives
        recall = divide_no_nan(tp, tp + fn)
        if self.curve == "ROC":
            x, y = divide_no_nan(fp, fp + tn), recall
        elif self.curve == "PR":
            x, y = recall, divide_no_nan(tp, tp + fp)
        else:  # PRGAIN
            scaling = divide_no_nan(tp + fn, tn + fp)
            recall_gain = 1.0 - scaling * divide_no_nan(fn, tp)
            precision_gain = 1.0 - scaling * divide_no_nan(fp, tp)
            no_tp = equal(tp, 0.0)
            x = maximum(where(no_tp, tp * 0, recall_gain), 0.0)
            y = where(no_tp, tp * 0 + 1, precision_gain)
        n = self.num_thresholds
        if self.summation_method == "interpolation":
            heights = (y[:n - 1] + y[1:]) / 2.0
        elif self.summation_method == "minoring":
            heights = minimum(y[:n - 1], y[1:])
        else:
            heights = maximum(y[:n - 1], y[1:])
        return reduce_sum((x[:n - 1] - x[1:]) * heights)

    def get_config(self):
        config = {"num_thresholds": self.num_thresholds, "curve": self.curve,
                  "summation_method": self.summation_method, "multi_label": self.multi_label,
                  "num_labels": self.num_labels, "label_weights": self.label_weights,
                  "from_logits": self._from_logits}
        if self._init_from_thresholds:
            config["thresholds"] = self.thresholds[1:-1]
        return {**super().get_config(), **config}
