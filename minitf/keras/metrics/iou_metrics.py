"""Intersection-over-union metrics: `IoU`, `MeanIoU`, `BinaryIoU`, `OneHotIoU`, `OneHotMeanIoU`.

For each class, IoU = TP / (TP + FP + FN): the overlap of "labelled c" and
"predicted c" over their union. The state is one confusion matrix
(`total_confusion_matrix`, rows = labels, columns = predictions) summed over
batches with `tf.math.confusion_matrix`; `result()` reads the IoUs off it and
averages those of the target classes. As in Keras 3, a class that never
occurs (denominator 0) is left out of the average, and both divisions add
`epsilon` (1e-7) to their denominator.

>>> import minitf as tf
>>> m = tf.keras.metrics.MeanIoU(num_classes=2)
>>> m.update_state([0, 0, 1, 1], [0, 1, 0, 1])   # cm = [[1, 1], [1, 1]]: IoU 1/3 each
>>> print(m.result().numpy())
0.33333334
"""
from ...framework.tensor import convert_to_tensor
from ...framework.tf_export import tf_export
from ...ops.array_ops import broadcast_to, reshape, shape
from ...ops.confusion_ops import confusion_matrix
from ...ops.gather_ops import gather
from ...ops.math_ops import cast, greater, not_equal
from ...ops.matrix_diag_ops import diag_part
from ...ops.reduction_ops import reduce_sum
from ...ops.sort_ops import argmax
from ..loss_functions import EPSILON
from .metric import Metric


class _IoUBase(Metric):
    """The confusion matrix the IoU metrics share."""

    def __init__(self, num_classes, name=None, dtype=None, ignore_class=None,
                 sparse_y_true=True, sparse_y_pred=True, axis=-1):
        super().__init__(name=name, dtype=dtype or "float32")
        self.num_classes = int(num_classes)
        self.ignore_class = ignore_class
        self.sparse_y_true, self.sparse_y_pred = sparse_y_true, sparse_y_pred
        self.axis = axis
        self.total_cm = self.add_variable(shape=(self.num_classes, self.num_classes),
                                          initializer="zeros", name="total_confusion_matrix")

    def update_state(self, y_true, y_pred, sample_weight=None):
        """Add this batch's (label, prediction) pairs, weighted, to the confusion matrix."""
        if not self.sparse_y_true:
            y_true = argmax(y_true, axis=self.axis)
        if not self.sparse_y_pred:
            y_pred = argmax(y_pred, axis=self.axis)
        y_true = reshape(cast(convert_to_tensor(y_true), self._dtype), [-1])
        y_pred = reshape(cast(convert_to_tensor(y_pred), self._dtype), [-1])
        weight = cast(convert_to_tensor(1.0 if sample_weight is None else sample_weight),
                      self._dtype)
        if weight.shape.rank and weight.shape.rank > 1:
            weight = reshape(weight, [-1])
        weight = broadcast_to(weight, shape(y_true))
        if self.ignore_class is not None:
            # the ignored pixels become (0, 0) pairs of weight 0: counted nowhere
            valid = cast(not_equal(y_true, cast(self.ignore_class, self._dtype)), self._dtype)
            y_true, y_pred, weight = y_true * valid, y_pred * valid, weight * valid
        self.total_cm.assign_add(confusion_matrix(
            y_true, y_pred, self.num_classes, weights=weight, dtype=self._dtype))


@tf_export("keras.metrics.IoU", "metrics.IoU")
class IoU(_IoUBase):
    """The mean IoU of the classes in `target_class_ids` (one id: that class's IoU).

    ignore_class: a label id (a "void" class, often -1 or 255) left out entirely.
    sparse_y_true / sparse_y_pred: False for one-hot or score vectors (argmax along axis).

    >>> m = tf.keras.metrics.IoU(num_classes=3, target_class_ids=[0])
    >>> m.update_state([0, 0, 1, 2], [0, 1, 1, 2])   # class 0: TP 1, FN 1, FP 0
    >>> print(round(float(m.result()), 4))
    0.5
    """

    def __init__(self, num_classes, target_class_ids, name=None, dtype=None,
                 ignore_class=None, sparse_y_true=True, sparse_y_pred=True, axis=-1):
        super().__init__(num_classes, name=name, dtype=dtype, ignore_class=ignore_class,
                         sparse_y_true=sparse_y_true, sparse_y_pred=sparse_y_pred, axis=axis)
        if max(target_class_ids) >= num_classes:
            raise ValueError(f"Target class id {max(target_class_ids)} is out of range, "
                             f"which is [0, {num_classes}).")
        self.target_class_ids = list(target_class_ids)

    def result(self):
        """Σ IoU over the target classes / the number of them that occurred."""
        cm = self.total_cm
        predicted, labelled = reduce_sum(cm, axis=0), reduce_sum(cm, axis=1)
        true_positives = diag_part(cm)
        union = predicted + labelled - true_positives  # TP + FP + FN
        true_positives = gather(true_positives, self.target_class_ids)
        union = gather(union, self.target_class_ids)
        occurred = reduce_sum(cast(greater(union, 1e-9), self._dtype))
        iou = true_positives / (union + EPSILON)
        return reduce_sum(iou, axis=self.axis) / (occurred + EPSILON)

    def get_config(self):
        return {**super().get_config(), "num_classes": self.num_classes,
                "target_class_ids": self.target_class_ids, "ignore_class": self.ignore_class,
                "sparse_y_true": self.sparse_y_true, "sparse_y_pred": self.sparse_y_pred,
                "axis": self.axis}


@tf_export("keras.metrics.MeanIoU", "metrics.MeanIoU")
class MeanIoU(IoU):
    """The mean of the IoUs of all `num_classes` classes (those that occurred).

    >>> m = tf.keras.metrics.MeanIoU(num_classes=2)
    >>> m.update_state([0, 0, 1, 1], [0, 1, 0, 1], sample_weight=[0.3, 0.3, 0.3, 0.1])
    >>> print(round(float(m.result()), 6))   # IoUs 0.3/0.9 and 0.1/0.7
    0.238095
    """

    def __init__(self, num_classes, name=None, dtype=None, ignore_class=None,
                 sparse_y_true=True, sparse_y_pred=True, axis=-1):
        super().__init__(num_classes, list(range(num_classes)), name=name, dtype=dtype,
                         ignore_class=ignore_class, sparse_y_true=sparse_y_true,
                         sparse_y_pred=sparse_y_pred, axis=axis)

    def get_config(self):
        config = super().get_config()
        del config["target_class_ids"]
        return config


@tf_export("keras.metrics.BinaryIoU", "metrics.BinaryIoU")
class BinaryIoU(IoU):
    """IoU for two classes from scores: a prediction ≥ `threshold` is class 1.

    >>> m = tf.keras.metrics.BinaryIoU(target_class_ids=[0, 1], threshold=0.3)
    >>> m.update_state([0, 1, 0, 1], [0.1, 0.2, 0.4, 0.7])
    >>> print(round(float(m.result()), 6))
    0.333333
    """

    def __init__(self, target_class_ids=(0, 1), threshold=0.5, name=None, dtype=None):
        super().__init__(2, target_class_ids, name=name, dtype=dtype)
        self.threshold = threshold

    def update_state(self, y_true, y_pred, sample_weight=None):
        y_pred = cast(convert_to_tensor(y_pred), self._dtype)
        y_pred = cast(y_pred >= self.threshold, self._dtype)
        super().update_state(y_true, y_pred, sample_weight)

    def get_config(self):
        return {"target_class_ids": self.target_class_ids, "threshold": self.threshold,
                "name": self.name, "dtype": self.dtype}


@tf_export("keras.metrics.OneHotIoU", "metrics.OneHotIoU")
class OneHotIoU(IoU):
    """`IoU` for one-hot labels (and score vectors as predictions): argmax first."""

    def __init__(self, num_classes, target_class_ids, name=None, dtype=None,
                 ignore_class=None, sparse_y_pred=False, axis=-1):
        super().__init__(num_classes, target_class_ids, name=name, dtype=dtype,
                         ignore_class=ignore_class, sparse_y_true=False,
                         sparse_y_pred=sparse_y_pred, axis=axis)

    def get_config(self):
        config = super().get_config()
        del config["sparse_y_true"]
        return config


@tf_export("keras.metrics.OneHotMeanIoU", "metrics.OneHotMeanIoU")
class OneHotMeanIoU(MeanIoU):
    """`MeanIoU` for one-hot labels (and score vectors as predictions): argmax first.

    >>> m = tf.keras.metrics.OneHotMeanIoU(num_classes=3)
    >>> m.update_state([[0, 0, 1], [1, 0, 0], [0, 1, 0], [1, 0, 0]],
    ...                [[0.2, 0.3, 0.5], [0.1, 0.2, 0.7], [0.5, 0.3, 0.1], [0.1, 0.4, 0.5]],
    ...                sample_weight=[0.1, 0.2, 0.3, 0.4])
    >>> print(round(float(m.result()), 3))
    0.048
    """

    def __init__(self, num_classes, name=None, dtype=None, ignore_class=None,
                 sparse_y_pred=False, axis=-1):
        super().__init__(num_classes, name=name, dtype=dtype, ignore_class=ignore_class,
                         sparse_y_true=False, sparse_y_pred=sparse_y_pred, axis=axis)

    def get_config(self):
        config = super().get_config()
        del config["sparse_y_true"]
        return config
