"""`PearsonCorrelation`, `ConcordanceCorrelation` and `R2Score`: how well predictions track targets.

The two correlations are computed per example along `axis` (the features of one
row) and averaged over the batches seen, like any `MeanMetricWrapper`.
Keras's concordance formula centres `y_true` on the *prediction* mean in its
covariance term; minitf keeps that so the numbers stay equal to Keras's.

`R2Score` is the coefficient of determination over everything seen, per output
column: `1 - sum((y - y_hat)^2) / sum((y - mean(y))^2)`.

>>> import minitf as tf
>>> print(tf.keras.metrics.pearson_correlation([[1.0, 2.0, 3.0]], [[2.0, 4.0, 7.0]]).numpy())
[0.99339914]
>>> m = tf.keras.metrics.R2Score()
>>> print(m([[1.0], [2.0], [3.0]], [[1.0], [2.0], [4.0]]).numpy())
0.5
"""
import warnings

from ...framework.tensor import convert_to_tensor
from ...framework.tf_export import tf_export
from ...ops.array_ops import broadcast_to, expand_dims, shape
from ...ops.math_ops import cast, where
from ...ops.reduction_ops import reduce_mean, reduce_std, reduce_sum, reduce_variance
from ...ops.shape_ops import size
from ...ops.unary_ops import is_inf, square
from ..loss_functions import EPSILON, squeeze_or_expand_to_same_rank
from .metric import Metric
from .reduction_metrics import MeanMetricWrapper


def _pair(y_true, y_pred):
    y_pred = convert_to_tensor(y_pred)
    y_true = cast(convert_to_tensor(y_true), y_pred.dtype)
    return squeeze_or_expand_to_same_rank(y_true, y_pred)


@tf_export("keras.metrics.pearson_correlation", "metrics.pearson_correlation")
def pearson_correlation(y_true, y_pred, axis=-1):
    """Pearson's r along `axis`: the mean product of the two standardised signals.

    >>> print(tf.keras.metrics.pearson_correlation([[1.0, 2.0], [1.0, 0.0]],
    ...                                            [[3.0, 5.0], [0.0, 2.0]]).numpy())
    [ 1. -1.]
    """
    y_true, y_pred = _pair(y_true, y_pred)
    t = y_true - reduce_mean(y_true, axis=axis, keepdims=True)
    p = y_pred - reduce_mean(y_pred, axis=axis, keepdims=True)
    t = t / reduce_std(t, axis=axis, keepdims=True)
    p = p / reduce_std(p, axis=axis, keepdims=True)
    return reduce_mean(t * p, axis=axis)


@tf_export("keras.metrics.concordance_correlation", "metrics.concordance_correlation")
def concordance_correlation(y_true, y_pred, axis=-1):
    """Lin's concordance along `axis`: like Pearson's r, but also penalises bias and scale.

    >>> print(tf.keras.metrics.concordance_correlation([[1.0, 2.0, 3.0]],
    ...                                                [[1.0, 2.0, 3.0]]).numpy())
    [0.99999994]
    """
    y_true, y_pred = _pair(y_true, y_pred)
    true_mean = reduce_mean(y_true, axis=axis, keepdims=True)
    pred_mean = reduce_mean(y_pred, axis=axis, keepdims=True)
    true_var = reduce_variance(y_true - true_mean, axis=axis, keepdims=True)
    pred_var = reduce_variance(y_pred - pred_mean, axis=axis, keepdims=True)
    covar = (y_true - pred_mean) * (y_pred - pred_mean)  # Keras's formula, kept as is
    norm = true_var + pred_var + square(true_mean - pred_mean)
    return reduce_mean(2 * covar / (norm + EPSILON), axis=axis)


class _CorrelationMetric(MeanMetricWrapper):
    _fn = None

    def __init__(self, name=None, dtype=None, axis=-1):
        super().__init__(type(self)._fn, name=name, dtype=dtype, axis=axis)
        self.axis = axis

    def get_config(self):
        return {"name": self.name, "dtype": self.dtype, "axis": self.axis}


@tf_export("keras.metrics.PearsonCorrelation", "metrics.PearsonCorrelation")
class PearsonCorrelation(_CorrelationMetric):
    """The running mean of `pearson_correlation` over the examples seen.

    >>> m = tf.keras.metrics.PearsonCorrelation()
    >>> print(m([[1.0, 2.0, 3.0]], [[2.0, 4.0, 7.0]]).numpy())
    0.99339914
    """

    _fn = staticmethod(pearson_correlation)

    def __init__(self, name="pearson_correlation", dtype=None, axis=-1):
        super().__init__(name=name, dtype=dtype, axis=axis)


@tf_export("keras.metrics.ConcordanceCorrelation", "metrics.ConcordanceCorrelation")
class ConcordanceCorrelation(_CorrelationMetric):
    """The running mean of `concordance_correlation` over the examples seen.

    >>> m = tf.keras.metrics.ConcordanceCorrelation()
    >>> print(m([[1.0, 2.0, 3.0]], [[2.0, 4.0, 7.0]]).numpy())
    0.32258072
    """

    _fn = staticmethod(concordance_correlation)

    def __init__(self, name="concordance_correlation", dtype=None, axis=-1):
        super().__init__(name=name, dtype=dtype, axis=axis)


@tf_export("keras.metrics.R2Score", "metrics.R2Score")
class R2Score(Metric):
    """R^2 of 2D (batch, outputs) targets; `num_regressors` > 0 gives the adjusted R^2.

    class_aggregation: "uniform_average" (mean over outputs, the default),
    "variance_weighted_average" (weighted by each output's variance) or None
    (one score per output).

    >>> m = tf.keras.metrics.R2Score(class_aggregation=None)
    >>> m([[1.0, 0.0], [3.0, 2.0]], [[1.0, 1.0], [2.0, 2.0]]).numpy()
    array([0.5, 0.5], dtype=float32)
    """

    def __init__(self, class_aggregation="uniform_average", num_regressors=0, name="r2_score",
                 dtype=None):
        super().__init__(name=name, dtype=dtype)
        valid = (None, "uniform_average", "variance_weighted_average")
        if class_aggregation not in valid:
            raise ValueError("Invalid value for argument `class_aggregation`. Expected one of "
                             f"{valid}. Received: class_aggregation={class_aggregation}")
        if num_regressors < 0:
            raise ValueError("Invalid value for argument `num_regressors`. Expected a value "
                             f">= 0. Received: num_regressors={num_regressors}")
        self.class_aggregation = class_aggregation
        self.num_regressors = num_regressors
        self.num_samples = self.add_variable(shape=(), initializer="zeros", name="num_samples")
        self._built = False

    def _build(self, y_true_shape, y_pred_shape):
        if len(y_pred_shape) != 2 or len(y_true_shape) != 2:
            raise ValueError("R2Score expects 2D inputs with shape (batch_size, output_dim). "
                             f"Received input shapes: y_pred.shape={y_pred_shape} and "
                             f"y_true.shape={y_true_shape}.")
        if y_pred_shape[-1] is None or y_true_shape[-1] is None:
            raise ValueError("R2Score expects 2D inputs with shape (batch_size, output_dim), "
                             "with output_dim fully defined (not None). Received input "
                             f"shapes: y_pred.shape={y_pred_shape} and "
                             f"y_true.shape={y_true_shape}.")
        n = y_pred_shape[-1]
        self.squared_sum = self.add_variable(shape=[n], initializer="zeros", name="squared_sum")
        self.sum = self.add_variable(shape=[n], initializer="zeros", name="sum")
        self.total_mse = self.add_variable(shape=[n], initializer="zeros", name="residual")
        self.count = self.add_variable(shape=[n], initializer="zeros", name="count")
        self._built = True

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_true = cast(convert_to_tensor(y_true), self._dtype)
        y_pred = cast(convert_to_tensor(y_pred), self._dtype)
        y_true, y_pred = squeeze_or_expand_to_same_rank(y_true, y_pred)
        if not self._built:
            self._build(tuple(y_true.shape.as_list()), tuple(y_pred.shape.as_list()))
        weight = cast(convert_to_tensor(1 if sample_weight is None else sample_weight),
                      self._dtype)
        if weight.shape.rank == 1:
            weight = expand_dims(weight, 1)
        weight = broadcast_to(weight, shape(y_true))
        weighted = y_true * weight
        self.sum.assign_add(reduce_sum(weighted, axis=0))
        self.squared_sum.assign_add(reduce_sum(y_true * weighted, axis=0))
        self.total_mse.assign_add(reduce_sum(square(y_true - y_pred) * weight, axis=0))
        self.count.assign_add(reduce_sum(weight, axis=0))
        self.num_samples.assign_add(cast(size(y_true), self._dtype))  # elements, as Keras

    def result(self):
        if not self._built:
            raise ValueError("R2Score has seen no data yet: call update_state(y_true, y_pred) "
                             "before result().")
        mean = self.sum / self.count
        total = self.squared_sum - self.sum * mean
        raw = 1 - self.total_mse / total
        raw = where(is_inf(raw), 0.0 * raw, raw)
        if self.class_aggregation == "uniform_average":
            score = reduce_mean(raw)
        elif self.class_aggregation == "variance_weighted_average":
            score = reduce_sum(total * raw) / reduce_sum(total)
        else:
            score = raw
        return self._adjusted(score) if self.num_regressors else score

    def _adjusted(self, score):
        n, p = float(self.num_samples.numpy()), float(self.num_regressors)
        if p > n - 1:
            warnings.warn("More independent predictors than datapoints in adjusted R2 "
                          "score. Falling back to standard R2 score.", stacklevel=3)
            return score
        if p == n - 1:
            warnings.warn("Division by zero in Adjusted R2 score. Falling back to standard "
                          "R2 score.", stacklevel=3)
            return score
        return 1.0 - (1.0 - score) * (n - 1.0) / (n - p - 1.0)

    def get_config(self):
        return {**super().get_config(), "class_aggregation": self.class_aggregation,
                "num_regressors": self.num_regressors}
