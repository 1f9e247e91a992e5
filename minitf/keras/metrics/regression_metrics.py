"""Regression metrics: running means of the regression losses, and RMSE.

>>> import minitf as tf
>>> m = tf.keras.metrics.RootMeanSquaredError()
>>> m.update_state([[0.0, 1.0]], [[1.0, 1.0]])
>>> m.update_state([[0.0, 0.0]], [[1.0, 1.0]])
>>> print(round(float(m.result()), 6))      # sqrt(mean([1, 0, 1, 1]))
0.866025
"""
from ...framework.tensor import convert_to_tensor
from ...framework.tf_export import tf_export
from ...ops.math_ops import cast
from ...ops.unary_ops import sqrt, square
from .. import loss_functions as F
from ..loss_functions import squeeze_or_expand_to_same_rank
from .reduction_metrics import Mean, MeanMetricWrapper


def _loss_metric(class_name, fn, default_name, doc, **fixed):
    """A MeanMetricWrapper subclass with Keras's signature `(name, dtype)`."""

    def __init__(self, name=default_name, dtype=None):
        MeanMetricWrapper.__init__(self, fn, name=name, dtype=dtype, **fixed)

    def get_config(self):
        return {"name": self.name, "dtype": self.dtype}

    return type(class_name, (MeanMetricWrapper,),
                {"__init__": __init__, "get_config": get_config, "__doc__": doc,
                 "__module__": __name__})


MeanSquaredError = tf_export("keras.metrics.MeanSquaredError", "metrics.MeanSquaredError")(
    _loss_metric("MeanSquaredError", F.mean_squared_error, "mean_squared_error", """
    The running mean of the squared error.

    >>> print(tf.keras.metrics.MeanSquaredError()([[0.0, 1.0]], [[1.0, 1.0]]).numpy())
    0.5
    """))
MeanAbsoluteError = tf_export("keras.metrics.MeanAbsoluteError", "metrics.MeanAbsoluteError")(
    _loss_metric("MeanAbsoluteError", F.mean_absolute_error, "mean_absolute_error", """
    The running mean of the absolute error.

    >>> print(tf.keras.metrics.MeanAbsoluteError()([[0.0, 1.0]], [[2.0, 1.0]]).numpy())
    1.0
    """))
MeanAbsolutePercentageError = tf_export(
    "keras.metrics.MeanAbsolutePercentageError", "metrics.MeanAbsolutePercentageError")(
    _loss_metric("MeanAbsolutePercentageError", F.mean_absolute_percentage_error,
                 "mean_absolute_percentage_error", """
    The running mean of 100 * |error / y_true|.

    >>> print(tf.keras.metrics.MeanAbsolutePercentageError()([[2.0, 4.0]], [[1.0, 4.0]]).numpy())
    25.0
    """))
MeanSquaredLogarithmicError = tf_export(
    "keras.metrics.MeanSquaredLogarithmicError", "metrics.MeanSquaredLogarithmicError")(
    _loss_metric("MeanSquaredLogarithmicError", F.mean_squared_logarithmic_error,
                 "mean_squared_logarithmic_error", """
    The running mean of the squared error of log(1 + y).

    >>> print(tf.keras.metrics.MeanSquaredLogarithmicError()([[0.0]], [[0.0]]).numpy())
    0.0
    """))
LogCoshError = tf_export("keras.metrics.LogCoshError", "metrics.LogCoshError")(
    _loss_metric("LogCoshError", F.log_cosh, "logcosh", """
    The running mean of log(cosh(error)).

    >>> print(tf.keras.metrics.LogCoshError()([[0.0]], [[0.0]]).numpy())
    0.0
    """))


@tf_export("keras.metrics.CosineSimilarity", "metrics.CosineSimilarity")
class CosineSimilarity(MeanMetricWrapper):
    """The running mean of the cosine similarity (a *positive* number for alignment,
    unlike the loss of the same name).

    >>> print(tf.keras.metrics.CosineSimilarity()([[0.0, 1.0]], [[0.0, 3.0]]).numpy())
    1.0
    """

    def __init__(self, name="cosine_similarity", dtype=None, axis=-1):
        super().__init__(lambda y_true, y_pred, axis: -F.cosine_similarity(y_true, y_pred,
                                                                           axis),
                         name, dtype=dtype, axis=axis)
        self.axis = axis

    def get_config(self):
        return {"name": self.name, "dtype": self.dtype}


@tf_export("keras.metrics.RootMeanSquaredError", "metrics.RootMeanSquaredError")
class RootMeanSquaredError(Mean):
    """sqrt of the running mean of squared errors (over all elements seen).

    >>> print(tf.keras.metrics.RootMeanSquaredError()([[0.0, 0.0]], [[3.0, 4.0]]).numpy())
    3.535534
    """

    def __init__(self, name="root_mean_squared_error", dtype=None):
        super().__init__(name, dtype=dtype)

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_true = cast(convert_to_tensor(y_true), self._dtype)
        y_pred = cast(convert_to_tensor(y_pred), self._dtype)
        y_true, y_pred = squeeze_or_expand_to_same_rank(y_true, y_pred)
        return super().update_state(square(y_pred - y_true), sample_weight=sample_weight)

    def result(self):
        return sqrt(super().result())
