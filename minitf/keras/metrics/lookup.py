"""`tf.keras.metrics.get` and the rule that decides what "accuracy" means.

`get("mse")` or `get("AUC")` returns a new metric object. The string
"accuracy" (or "acc") is special in `model.compile(metrics=["accuracy"])`:
Keras picks the accuracy that fits the targets and predictions, and
`get_metric(identifier, y_true, y_pred)` below is that rule, for `compile`
to call once it has seen the first batch:

* predictions with last dimension 1            -> BinaryAccuracy;
* labels of lower rank than the predictions, or a
  last dimension of 1 against several classes  -> SparseCategoricalAccuracy;
* otherwise (one-hot labels)                   -> CategoricalAccuracy.

>>> import minitf as tf
>>> from minitf.keras.metrics.lookup import get_metric
>>> type(get_metric("accuracy", tf.zeros([8]), tf.zeros([8, 10]))).__name__
'SparseCategoricalAccuracy'
>>> type(get_metric("acc", tf.zeros([8, 1]), tf.zeros([8, 1]))).__name__
'BinaryAccuracy'
>>> get_metric("accuracy", tf.zeros([8, 10]), tf.zeros([8, 10])).name
'accuracy'
"""
import inspect
import re

from ...framework.tf_export import tf_export
from . import accuracy_metrics as A
from . import auc as U
from . import confusion_metrics as C
from . import correlation_metrics as K
from . import f_score_metrics as F
from . import iou_metrics as I
from . import probabilistic_metrics as P
from . import reduction_metrics as R
from . import regression_metrics as G
from . import sensitivity_metrics as S
from .metric import Metric

ALL_OBJECTS = [
    Metric, R.Mean, R.Sum, R.MeanMetricWrapper, G.MeanSquaredError, G.RootMeanSquaredError,
    G.MeanAbsoluteError, G.MeanAbsolutePercentageError, G.MeanSquaredLogarithmicError,
    G.CosineSimilarity, G.LogCoshError, U.AUC, C.FalseNegatives, C.FalsePositives,
    C.Precision, C.Recall, C.TrueNegatives, C.TruePositives, P.Hinge, P.SquaredHinge,
    P.CategoricalHinge, P.KLDivergence, P.Poisson, P.BinaryCrossentropy,
    P.CategoricalCrossentropy, P.SparseCategoricalCrossentropy, A.Accuracy, A.BinaryAccuracy,
    A.CategoricalAccuracy, A.SparseCategoricalAccuracy, A.TopKCategoricalAccuracy,
    A.SparseTopKCategoricalAccuracy, I.IoU, I.BinaryIoU, I.MeanIoU, I.OneHotIoU,
    I.OneHotMeanIoU, K.R2Score, K.PearsonCorrelation, K.ConcordanceCorrelation,
    S.PrecisionAtRecall, S.RecallAtPrecision, S.SensitivityAtSpecificity,
    S.SpecificityAtSensitivity, F.F1Score, F.FBetaScore]


def _snake_case(name):
    name = re.sub(r"(.)([A-Z][a-z]+)", r"\1_\2", name)
    return re.sub(r"([a-z])([A-Z])", r"\1_\2", name).lower()


ALL_OBJECTS_DICT = {cls.__name__: cls for cls in ALL_OBJECTS}
ALL_OBJECTS_DICT.update({_snake_case(cls.__name__): cls for cls in ALL_OBJECTS})
ALL_OBJECTS_DICT.update({
    "bce": P.BinaryCrossentropy, "BCE": P.BinaryCrossentropy, "mse": G.MeanSquaredError,
    "MSE": G.MeanSquaredError, "mae": G.MeanAbsoluteError, "MAE": G.MeanAbsoluteError,
    "mape": G.MeanAbsolutePercentageError, "MAPE": G.MeanAbsolutePercentageError,
    "msle": G.MeanSquaredLogarithmicError, "MSLE": G.MeanSquaredLogarithmicError})


@tf_export("keras.metrics.serialize", "metrics.serialize")
def serialize(metric):
    """A metric as `{"class_name": ..., "config": ...}`.

    >>> tf.keras.metrics.serialize(tf.keras.metrics.AUC())["class_name"]
    'AUC'
    """
    return {"module": "keras.metrics", "class_name": type(metric).__name__,
            "config": metric.get_config(), "registered_name": None}


@tf_export("keras.metrics.deserialize", "metrics.deserialize")
def deserialize(config, custom_objects=None):
    """The metric a `serialize` dict describes.

    >>> recall = tf.keras.metrics.deserialize({"class_name": "Recall",
    ...                                        "config": {"name": "recall", "thresholds": 0.7}})
    >>> recall.name, recall.thresholds
    ('recall', [0.7])
    """
    known = dict(ALL_OBJECTS_DICT, **(custom_objects or {}))
    name = config["class_name"] if isinstance(config, dict) else config
    if name not in known:
        raise ValueError(f"Could not interpret metric identifier: {name}")
    cls = known[name]
    return cls.from_config(config.get("config", {})) if isinstance(config, dict) else cls


@tf_export("keras.metrics.get", "metrics.get")
def get(identifier):
    """A metric from a name ("mse", "AUC", "binary_accuracy"), a dict, a class or itself.

    >>> tf.keras.metrics.get("mse").name
    'mean_squared_error'
    """
    if identifier is None:
        return None
    if isinstance(identifier, dict):
        obj = deserialize(identifier)
    elif isinstance(identifier, str):
        obj = ALL_OBJECTS_DICT.get(identifier)
    else:
        obj = identifier
    if callable(obj):
        return obj() if inspect.isclass(obj) else obj
    raise ValueError(f"Could not interpret metric identifier: {identifier} Use a metric "
                     "class or function, or a name such as 'accuracy', 'mse' or 'AUC'.")


def is_binary_or_sparse_categorical(y_true, y_pred):
    """Keras's shape test behind "accuracy" (and the "crossentropy" loss)."""
    y_t_rank, y_p_rank = len(y_true.shape), len(y_pred.shape)
    y_t_last, y_p_last = y_true.shape[-1], y_pred.shape[-1]
    is_binary = y_p_last == 1
    is_sparse_categorical = y_t_rank < y_p_rank or y_t_last == 1 and y_p_last > 1
    return is_binary, is_sparse_categorical


def get_metric(identifier, y_true, y_pred):
    """The metric object `compile(metrics=[identifier])` uses, named `identifier`.

    "accuracy"/"acc" resolve by shapes (see the module docstring); anything else
    goes through `get`; plain functions are wrapped in `MeanMetricWrapper`.
    """
    if identifier is None:
        raise ValueError("Expected metric, received `None`")
    if str(identifier).lower() not in ("accuracy", "acc"):
        metric = get(identifier)
    else:
        is_binary, is_sparse = is_binary_or_sparse_categorical(y_true, y_pred)
        cls = A.BinaryAccuracy if is_binary else \
            A.SparseCategoricalAccuracy if is_sparse else A.CategoricalAccuracy
        metric = cls(name=str(identifier))
    name = identifier if isinstance(identifier, str) else \
        getattr(metric, "name", None) or getattr(metric, "__name__", None)
    if not isinstance(metric, Metric):
        metric = R.MeanMetricWrapper(metric)
    metric.name = name
    return metric
