"""`FBetaScore` and `F1Score`: the harmonic mean of precision and recall, per class.

Predictions become 0/1 first: `y_pred > threshold`, or, with `threshold=None`,
the arg-max of each row (ties all count; an all-zero row stays all zero).
Per class the metric counts TP, FP, FN and the support (sum of `y_true`);
`result()` is `(1 + b2) * P * R / (b2 * P + R)` with `b2 = beta ** 2`,
each division padded by `epsilon` (1e-7) as Keras does, then averaged:

* `average=None`: one score per class;
* `"micro"`: counts summed over classes first, one score;
* `"macro"`: the plain mean of the per-class scores;
* `"weighted"`: their mean weighted by each class's support.

>>> import minitf as tf
>>> m = tf.keras.metrics.F1Score(threshold=0.5)
>>> y_true = [[1, 1, 1], [1, 0, 0], [1, 1, 0]]
>>> y_pred = [[0.2, 0.6, 0.7], [0.2, 0.6, 0.6], [0.6, 0.8, 0.0]]
>>> m(y_true, y_pred).numpy()
array([0.49999997, 0.79999995, 0.66666657], dtype=float32)
>>> print(tf.keras.metrics.F1Score(average="macro", threshold=0.5)(y_true, y_pred).numpy())
0.6555555
"""
from ...framework.tensor import convert_to_tensor
from ...framework.tf_export import tf_export
from ...ops.array_ops import expand_dims
from ...ops.math_ops import abs as abs_
from ...ops.math_ops import cast, greater, greater_equal, logical_and
from ...ops.reduction_ops import reduce_max, reduce_mean, reduce_sum
from ..loss_functions import EPSILON
from .metric import Metric


def _check_args(average, beta, threshold):
    if average not in (None, "micro", "macro", "weighted"):
        raise ValueError("Invalid `average` argument value. Expected one of: "
                         "{None, 'micro', 'macro', 'weighted'}. "
                         f"Received: average={average}")
    if not isinstance(beta, float):
        raise ValueError("Invalid `beta` argument value. It should be a Python float. "
                         f"Received: beta={beta} of type '{type(beta)}'")
    if beta <= 0.0:
        raise ValueError(f"Invalid `beta` argument value. It should be > 0. Received: beta={beta}")
    if threshold is not None:
        if not isinstance(threshold, float):
            raise ValueError("Invalid `threshold` argument value. It should be a Python float. "
                             f"Received: threshold={threshold} of type '{type(threshold)}'")
        if threshold > 1.0 or threshold <= 0.0:
            raise ValueError("Invalid `threshold` argument value. It should verify "
                             f"0 < threshold <= 1. Received: threshold={threshold}")


@tf_export("keras.metrics.FBetaScore", "metrics.FBetaScore")
class FBetaScore(Metric):
    """F-beta score of 2D (batch, classes) labels and predictions; beta > 1 favours recall.

    The state is built at the first batch (its last dimension gives the classes).

    >>> m = tf.keras.metrics.FBetaScore(beta=2.0, threshold=0.5)
    >>> m([[1, 1, 1], [1, 0, 0], [1, 1, 0]],
    ...   [[0.2, 0.6, 0.7], [0.2, 0.6, 0.6], [0.6, 0.8, 0.0]]).numpy()
    array([0.3846154 , 0.90909094, 0.8333332 ], dtype=float32)
    """

    def __init__(self, average=None, beta=1.0, threshold=None, name="fbeta_score", dtype=None):
        super().__init__(name=name, dtype=dtype)
        _check_args(average, beta, threshold)
        self.average = average
        self.beta = beta
        self.threshold = threshold
        self.axis = None if average == "micro" else 0
        self._built = False

    def _build(self, y_true_shape, y_pred_shape):
        if len(y_pred_shape) != 2 or len(y_true_shape) != 2:
            raise ValueError(
                f"{type(self).__name__} expects 2D inputs with shape (batch_size, output_dim). "
                f"Received input shapes: y_pred.shape={y_pred_shape} and "
                f"y_true.shape={y_true_shape}.")
        if y_pred_shape[-1] is None or y_true_shape[-1] is None:
            raise ValueError(
                f"{type(self).__name__} expects 2D inputs with shape (batch_size, output_dim), "
                "with output_dim fully defined (not None). Received input shapes: "
                f"y_pred.shape={y_pred_shape} and y_true.shape={y_true_shape}.")
        init_shape = () if self.average == "micro" else (y_pred_shape[-1],)
        for name in ("true_positives", "false_positives", "false_negatives",
                     "intermediate_weights"):
            setattr(self, name, self.add_variable(shape=init_shape, initializer="zeros",
                                                  name=name))
        self._built = True

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_true = cast(convert_to_tensor(y_true), self._dtype)
        y_pred = cast(convert_to_tensor(y_pred), self._dtype)
        if not self._built:
            self._build(tuple(y_true.shape.as_list()), tuple(y_pred.shape.as_list()))
        if self.threshold is None:
            top = reduce_max(y_pred, axis=-1, keepdims=True)
            y_pred = logical_and(greater_equal(y_pred, top), greater(abs_(y_pred), 1e-9))
        else:
            y_pred = greater(y_pred, self.threshold)
        y_pred = cast(y_pred, self._dtype)
        weight = None if sample_weight is None else \
            expand_dims(cast(convert_to_tensor(sample_weight), self._dtype), 1)

        def weighted_sum(value):
            return reduce_sum(value if weight is None else value * weight, axis=self.axis)

        self.true_positives.assign_add(weighted_sum(y_pred * y_true))
        self.false_positives.assign_add(weighted_sum(y_pred * (1 - y_true)))
        self.false_negatives.assign_add(weighted_sum((1 - y_pred) * y_true))
        self.intermediate_weights.assign_add(weighted_sum(y_true))

    def result(self):
        if not self._built:
            raise ValueError(f"{type(self).__name__} has seen no data yet: call "
                             "update_state(y_true, y_pred) before result().")
        tp = convert_to_tensor(self.true_positives)
        precision = tp / (tp + self.false_positives + EPSILON)
        recall = tp / (tp + self.false_negatives + EPSILON)
        b2 = self.beta ** 2
        score = precision * recall / (b2 * precision + recall + EPSILON) * (1 + b2)
        if self.average == "weighted":
            support = convert_to_tensor(self.intermediate_weights)
            return reduce_sum(score * (support / (reduce_sum(support) + EPSILON)))
        if self.average is not None:
            return reduce_mean(score)
        return score

    def reset_state(self):
        if self._built:
            super().reset_state()

    def get_config(self):
        return {**super().get_config(), "average": self.average, "beta": self.beta,
                "threshold": self.threshold}


@tf_export("keras.metrics.F1Score", "metrics.F1Score")
class F1Score(FBetaScore):
    """F1 score: `2 * P * R / (P + R)`, the FBetaScore with beta = 1.

    >>> m = tf.keras.metrics.F1Score(average="micro")      # arg-max of each row
    >>> print(m([[0, 1], [1, 0]], [[0.3, 0.7], [0.6, 0.4]]).numpy())
    1.0
    """

    def __init__(self, average=None, threshold=None, name="f1_score", dtype=None):
        super().__init__(average=average, beta=1.0, threshold=threshold, name=name,
                         dtype=dtype)

    def get_config(self):
        config = super().get_config()
        del config["beta"]
        return config
