"""One rate at the best threshold that keeps another rate above a floor.

`SensitivityAtSpecificity(0.9)` is the best recall reachable while specificity
(TN / (TN + FP)) stays >= 0.9; `SpecificityAtSensitivity`, `PrecisionAtRecall`
and `RecallAtPrecision` swap the roles. Each keeps TP/FP/TN/FN counters at
`num_thresholds` evenly spaced thresholds in [0, 1] (default 200) and, in
`result()`, takes the largest dependent rate among the thresholds where the
constraint holds (0 if none does). `class_id` picks one column of a
multi-class output.

>>> import minitf as tf
>>> m = tf.keras.metrics.PrecisionAtRecall(0.5)
>>> print(m([0, 0, 0, 1, 1], [0, 0.3, 0.8, 0.3, 0.8]).numpy())
0.5
"""
from ...framework.tensor import convert_to_tensor
from ...framework.tf_export import tf_export
from ...ops.array_ops import concat
from ...ops.clip_ops import divide_no_nan
from ...ops.math_ops import greater_equal, where
from ...ops.reduction_ops import reduce_max
from .confusion_metrics import update_confusion_matrix_variables
from .metric import Metric

_RATES = {"sensitivity": ("tp", "fn"), "recall": ("tp", "fn"),
          "specificity": ("tn", "fp"), "precision": ("tp", "fp")}


class SensitivitySpecificityBase(Metric):
    """Counters at evenly spaced thresholds; subclasses name the constrained rate."""

    _constrained = None  # e.g. "specificity"
    _dependent = None    # e.g. "sensitivity"

    def __init__(self, value, num_thresholds=200, class_id=None, name=None, dtype=None):
        if value < 0 or value > 1:
            raise ValueError(f"Argument `{self._constrained}` must be in the range [0, 1]. "
                             f"Received: {self._constrained}={value}")
        super().__init__(name=name, dtype=dtype)
        if num_thresholds <= 0:
            raise ValueError("Argument `num_thresholds` must be an integer > 0. "
                             f"Received: num_thresholds={num_thresholds}")
        self.value = value
        self.class_id = class_id
        self.num_thresholds = num_thresholds
        setattr(self, self._constrained, value)
        if num_thresholds == 1:
            self.thresholds, self._thresholds_distributed_evenly = [0.5], False
        else:
            inner = [(i + 1) * 1.0 / (num_thresholds - 1) for i in range(num_thresholds - 2)]
            self.thresholds, self._thresholds_distributed_evenly = [0.0] + inner + [1.0], True
        for name in ("true_positives", "false_positives", "true_negatives",
                     "false_negatives"):
            setattr(self, name, self.add_variable(shape=(len(self.thresholds),),
                                                  initializer="zeros", name=name))

    def update_state(self, y_true, y_pred, sample_weight=None):
        update_confusion_matrix_variables(
            self._counters(), y_true, y_pred, self.thresholds,
            class_id=self.class_id, sample_weight=sample_weight,
            thresholds_distributed_evenly=self._thresholds_distributed_evenly)

    def _counters(self):
        return {"tp": self.true_positives, "fp": self.false_positives,
                "tn": self.true_negatives, "fn": self.false_negatives}

    def _rate(self, which):
        counters = self._counters()
        hit, miss = (convert_to_tensor(counters[k]) for k in _RATES[which])
        return divide_no_nan(hit, hit + miss)

    def result(self):
        constrained = self._rate(self._constrained)
        dependent = self._rate(self._dependent)
        feasible = where(greater_equal(constrained, self.value), dependent, 0.0 * dependent)
        return reduce_max(concat([feasible, 0.0 * dependent[:1]], 0))  # max(..., initial=0)

    def get_config(self):
        return {**super().get_config(), "class_id": self.class_id,
                "num_thresholds": self.num_thresholds, self._constrained: self.value}


@tf_export("keras.metrics.SensitivityAtSpecificity", "metrics.SensitivityAtSpecificity")
class SensitivityAtSpecificity(SensitivitySpecificityBase):
    """The best sensitivity at a threshold where specificity >= `specificity`.

    >>> m = tf.keras.metrics.SensitivityAtSpecificity(0.5)
    >>> print(m([0, 0, 0, 1, 1], [0, 0.3, 0.8, 0.3, 0.8]).numpy())
    0.5
    """

    _constrained, _dependent = "specificity", "sensitivity"

    def __init__(self, specificity, num_thresholds=200, class_id=None, name=None, dtype=None):
        super().__init__(specificity, num_thresholds, class_id, name, dtype)


@tf_export("keras.metrics.SpecificityAtSensitivity", "metrics.SpecificityAtSensitivity")
class SpecificityAtSensitivity(SensitivitySpecificityBase):
    """The best specificity at a threshold where sensitivity >= `sensitivity`.

    >>> m = tf.keras.metrics.SpecificityAtSensitivity(0.5)
    >>> print(m([0, 0, 0, 1, 1], [0, 0.3, 0.8, 0.3, 0.8]).numpy())
    0.6666667
    """

    _constrained, _dependent = "sensitivity", "specificity"

    def __init__(self, sensitivity, num_thresholds=200, class_id=None, name=None, dtype=None):
        super().__init__(sensitivity, num_thresholds, class_id, name, dtype)


@tf_export("keras.metrics.PrecisionAtRecall", "metrics.PrecisionAtRecall")
class PrecisionAtRecall(SensitivitySpecificityBase):
    """The best precision at a threshold where recall >= `recall`.

    >>> m = tf.keras.metrics.PrecisionAtRecall(0.5)
    >>> print(m([0, 0, 0, 1, 1], [0, 0.3, 0.8, 0.3, 0.8]).numpy())
    0.5
    """

    _constrained, _dependent = "recall", "precision"

    def __init__(self, recall, num_thresholds=200, class_id=None, name=None, dtype=None):
        super().__init__(recall, num_thresholds, class_id, name, dtype)


@tf_export("keras.metrics.RecallAtPrecision", "metrics.RecallAtPrecision")
class RecallAtPrecision(SensitivitySpecificityBase):
    """The best recall at a threshold where precision >= `precision`.

    >>> m = tf.keras.metrics.RecallAtPrecision(0.5)
    >>> print(m([0, 0, 0, 1, 1], [0, 0.3, 0.8, 0.3, 0.8]).numpy())
    1.0
    """

    _constrained, _dependent = "precision", "recall"

    def __init__(self, precision, num_thresholds=200, class_id=None, name=None, dtype=None):
        super().__init__(precision, num_thresholds, class_id, name, dtype)
