"""Accuracy metrics: the functions (one 0/1 per example) and their running-mean classes.

* `accuracy`: y_pred == y_true exactly (for already-decided labels);
* `binary_accuracy`: (y_pred > threshold) == y_true per element, threshold 0.5;
* `categorical_accuracy`: argmax(y_pred) == argmax(y_true) (one-hot labels);
* `sparse_categorical_accuracy`: argmax(y_pred) == y_true (integer labels);
* `top_k_categorical_accuracy` / sparse: the true class is among the k best.

>>> import minitf as tf
>>> tf.keras.metrics.sparse_categorical_accuracy([2, 1], [[0.1, 0.3, 0.6], [0.5, 0.4, 0.1]])
<tf.Tensor: shape=(2,), dtype=float32, numpy=array([1., 0.], dtype=float32)>
"""
from ...framework import dtypes
from ...framework.tensor import convert_to_tensor
from ...framework.tf_export import tf_export
from ...ops.array_ops import expand_dims, one_hot, reshape, shape, squeeze
from ...ops.math_ops import cast, equal, greater, less, logical_and, where
from ...ops.reduction_ops import reduce_max, reduce_sum
from ...ops.sort_ops import argmax
from ...ops.unary_ops import is_finite
from ..loss_functions import squeeze_or_expand_to_same_rank
from .reduction_metrics import MeanMetricWrapper

FLOATX = dtypes.float32


def _float_pred(y_pred):
    y_pred = convert_to_tensor(y_pred)
    return y_pred if y_pred.dtype.is_floating else cast(y_pred, FLOATX)


@tf_export("keras.metrics.accuracy")
def accuracy(y_true, y_pred):
    """1.0 where y_pred equals y_true exactly, else 0.0.

    >>> tf.keras.metrics.accuracy([1, 2, 3], [1, 2, 4]).numpy()
    array([1., 1., 0.], dtype=float32)
    """
    y_pred = convert_to_tensor(y_pred)
    y_true = cast(convert_to_tensor(y_true), y_pred.dtype)
    y_true, y_pred = squeeze_or_expand_to_same_rank(y_true, y_pred)
    return cast(equal(y_true, y_pred), FLOATX)


@tf_export("keras.metrics.binary_accuracy", "metrics.binary_accuracy")
def binary_accuracy(y_true, y_pred, threshold=0.5):
    """1.0 where (y_pred > threshold) == y_true, element by element (`Mean` averages later).

    >>> tf.keras.metrics.binary_accuracy([[1.0, 0.0]], [[0.6, 0.7]]).numpy()
    array([[1., 0.]], dtype=float32)
    """
    y_pred = _float_pred(y_pred)
    y_true = convert_to_tensor(y_true)
    y_true, y_pred = squeeze_or_expand_to_same_rank(y_true, y_pred)
    y_pred = cast(greater(y_pred, cast(threshold, y_pred.dtype)), y_true.dtype)
    return cast(equal(y_true, y_pred), FLOATX)


@tf_export("keras.metrics.categorical_accuracy", "metrics.categorical_accuracy")
def categorical_accuracy(y_true, y_pred):
    """1.0 where argmax(y_pred) == argmax(y_true) (one-hot labels).

    >>> tf.keras.metrics.categorical_accuracy([[0, 0, 1], [0, 1, 0]],
    ...                                       [[0.1, 0.9, 0.8], [0.05, 0.95, 0]]).numpy()
    array([0., 1.], dtype=float32)
    """
    y_true = argmax(convert_to_tensor(y_true), axis=-1)
    y_pred = _float_pred(y_pred)
    y_pred = cast(argmax(y_pred, axis=-1), y_true.dtype)
    return cast(equal(y_true, y_pred), FLOATX)


@tf_export("keras.metrics.sparse_categorical_accuracy", "metrics.sparse_categorical_accuracy")
def sparse_categorical_accuracy(y_true, y_pred):
    """1.0 where argmax(y_pred) == y_true (integer labels, shape [batch] or [batch, 1]).

    >>> tf.keras.metrics.sparse_categorical_accuracy([[2], [1]], [[0.1, 0.6, 0.3],
    ...                                                          [0.05, 0.95, 0]]).numpy()
    array([0., 1.], dtype=float32)
    """
    y_pred = _float_pred(y_pred)
    y_true = cast(convert_to_tensor(y_true), y_pred.dtype)
    reshape_matches = False
    y_true_shape = shape(y_true)
    if y_true.shape.rank == y_pred.shape.rank and y_true.shape[-1] == 1:
        y_true = squeeze(y_true, -1)
        reshape_matches = True
    y_pred = cast(argmax(y_pred, axis=-1), y_true.dtype)
    matches = cast(equal(y_true, y_pred), FLOATX)
    if reshape_matches:
        matches = reshape(matches, y_true_shape)
    if matches.shape.rank > 1 and matches.shape[-1] == 1:
        matches = squeeze(matches, -1)
    return matches


def in_top_k(targets, predictions, k):
    """True where predictions[i, targets[i]] is among the k largest of row i (TF's
    tf.math.in_top_k: ties at the boundary count as in; non-finite scores never do)."""
    num_classes = predictions.shape[-1]
    is_target = cast(one_hot(targets, num_classes), dtypes.bool)
    target_score = reduce_max(where(is_target, predictions,
                                    cast(float("-inf"), predictions.dtype)), axis=-1)
    better = reduce_sum(cast(greater(predictions, expand_dims(target_score, -1)),
                             dtypes.int32), axis=-1)
    return logical_and(less(better, k), is_finite(target_score))


def _top_k_matches(y_true, y_pred, k):
    y_true_shape = shape(y_true)
    reshape_matches = y_true.shape.rank > 1
    if y_pred.shape.rank > 2:
        y_pred = reshape(y_pred, [-1, y_pred.shape[-1]])
    if reshape_matches:
        y_true = reshape(y_true, [-1])
    matches = cast(in_top_k(cast(y_true, dtypes.int32), y_pred, k), FLOATX)
    return reshape(matches, y_true_shape) if reshape_matches else matches


@tf_export("keras.metrics.top_k_categorical_accuracy", "metrics.top_k_categorical_accuracy")
def top_k_categorical_accuracy(y_true, y_pred, k=5):
    """1.0 where the one-hot label's class is among the k highest predictions.

    >>> tf.keras.metrics.top_k_categorical_accuracy([[0, 0, 1], [0, 1, 0]],
    ...                                             [[0.1, 0.9, 0.8], [0.05, 0.95, 0]], k=2)
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([1., 1.], dtype=float32)>
    """
    y_pred = _float_pred(y_pred)
    y_true = argmax(cast(convert_to_tensor(y_true), y_pred.dtype), axis=-1)
    return _top_k_matches(y_true, y_pred, k)


@tf_export("keras.metrics.sparse_top_k_categorical_accuracy",
           "metrics.sparse_top_k_categorical_accuracy")
def sparse_top_k_categorical_accuracy(y_true, y_pred, k=5, from_sorted_ids=False):
    """1.0 where the integer label is among the k highest predictions.

    >>> tf.keras.metrics.sparse_top_k_categorical_accuracy([0, 2], [[0.1, 0.9, 0.8],
    ...                                                            [0.05, 0.95, 0]], k=2)
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([0., 0.], dtype=float32)>
    """
    y_pred = convert_to_tensor(y_pred)
    if from_sorted_ids:  # y_pred holds class ids, best first
        y_true = cast(convert_to_tensor(y_true), y_pred.dtype)
        hits = equal(expand_dims(reshape(y_true, [-1]), 1), y_pred[:, :k])
        return reshape(cast(reduce_max(cast(hits, FLOATX), axis=1), FLOATX), shape(y_true))
    y_true = cast(convert_to_tensor(y_true), dtypes.int32)
    return _top_k_matches(y_true, _float_pred(y_pred), k)


def _accuracy_class(class_name, fn, default_name, doc, extra=()):
    """A MeanMetricWrapper subclass with Keras's signature; `extra` = (arg, default) pairs."""

    def __init__(self, name=default_name, dtype=None, **kwargs):
        options = {arg: kwargs.pop(arg, default) for arg, default in extra}
        if kwargs:
            raise TypeError(f"{class_name}.__init__() got unexpected keyword arguments "
                            f"{sorted(kwargs)}")
        MeanMetricWrapper.__init__(self, fn, name=name, dtype=dtype, **options)
        for arg, value in options.items():
            setattr(self, arg, value)

    def get_config(self):
        config = {"name": self.name, "dtype": self.dtype}
        config.update({arg: getattr(self, arg) for arg, _ in extra})
        return config

    return type(class_name, (MeanMetricWrapper,),
                {"__init__": __init__, "get_config": get_config, "__doc__": doc,
                 "__module__": __name__})


Accuracy = tf_export("keras.metrics.Accuracy", "metrics.Accuracy")(_accuracy_class(
    "Accuracy", accuracy, "accuracy", """How often y_pred equals y_true exactly.

    >>> m = tf.keras.metrics.Accuracy()
    >>> print(m([[1], [2], [3], [4]], [[0], [2], [3], [4]]).numpy())
    0.75
    """))
BinaryAccuracy = tf_export("keras.metrics.BinaryAccuracy", "metrics.BinaryAccuracy")(
    _accuracy_class("BinaryAccuracy", binary_accuracy, "binary_accuracy", """
    How often (y_pred > threshold) matches the 0/1 label; `threshold=0.5`.

    >>> m = tf.keras.metrics.BinaryAccuracy()
    >>> print(m([[1], [1], [0], [0]], [[0.98], [1], [0], [0.6]]).numpy())
    0.75
    """, extra=[("threshold", 0.5)]))
CategoricalAccuracy = tf_export("keras.metrics.CategoricalAccuracy",
                                "metrics.CategoricalAccuracy")(_accuracy_class(
    "CategoricalAccuracy", categorical_accuracy, "categorical_accuracy", """
    How often argmax(y_pred) matches the one-hot label.

    >>> m = tf.keras.metrics.CategoricalAccuracy()
    >>> print(m([[0, 0, 1], [0, 1, 0]], [[0.1, 0.9, 0.8], [0.05, 0.95, 0]]).numpy())
    0.5
    """))
SparseCategoricalAccuracy = tf_export("keras.metrics.SparseCategoricalAccuracy",
                                      "metrics.SparseCategoricalAccuracy")(_accuracy_class(
    "SparseCategoricalAccuracy", sparse_categorical_accuracy, "sparse_categorical_accuracy",
    """How often argmax(y_pred) matches the integer label.

    >>> m = tf.keras.metrics.SparseCategoricalAccuracy()
    >>> print(m([[2], [1]], [[0.1, 0.6, 0.3], [0.05, 0.95, 0]]).numpy())
    0.5
    """))
TopKCategoricalAccuracy = tf_export("keras.metrics.TopKCategoricalAccuracy",
                                    "metrics.TopKCategoricalAccuracy")(_accuracy_class(
    "TopKCategoricalAccuracy", top_k_categorical_accuracy, "top_k_categorical_accuracy", """
    How often the one-hot label is among the `k` (default 5) best predictions.

    >>> m = tf.keras.metrics.TopKCategoricalAccuracy(k=1)
    >>> print(m([[0, 0, 1], [0, 1, 0]], [[0.1, 0.9, 0.8], [0.05, 0.95, 0]]).numpy())
    0.5
    """, extra=[("k", 5)]))
SparseTopKCategoricalAccuracy = tf_export(
    "keras.metrics.SparseTopKCategoricalAccuracy", "metrics.SparseTopKCategoricalAccuracy")(
    _accuracy_class("SparseTopKCategoricalAccuracy", sparse_top_k_categorical_accuracy,
                    "sparse_top_k_categorical_accuracy", """
    How often the integer label is among the `k` (default 5) best predictions.

    >>> m = tf.keras.metrics.SparseTopKCategoricalAccuracy(k=1)
    >>> print(m([2, 1], [[0.1, 0.9, 0.8], [0.05, 0.95, 0]]).numpy())
    0.5
    """, extra=[("k", 5), ("from_sorted_ids", False)]))
