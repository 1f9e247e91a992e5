"""`tf.math.confusion_matrix`: counts of (true label, predicted label) pairs.

Row i, column j counts the examples whose label is i and whose prediction
is j, so the diagonal holds the correct ones. It is a composite, as in TF:
the pairs become the coordinates of a `scatter_nd`, whose repeated
coordinates add up.

>>> import minitf as tf
>>> tf.math.confusion_matrix([1, 2, 4], [2, 2, 4])
<tf.Tensor: shape=(5, 5), dtype=int32, numpy=
array([[0, 0, 0, 0, 0],
       [0, 0, 1, 0, 0],
       [0, 0, 1, 0, 0],
       [0, 0, 0, 0, 0],
       [0, 0, 0, 0, 1]], dtype=int32)>
"""
import numpy as np

from ..framework import dtypes, errors
from ..framework.graph import SymbolicTensor
from ..framework.tensor import convert_to_tensor
from ..framework.tf_export import tf_export
from .array_ops import stack
from .creation_ops import ones_like
from .math_ops import cast
from .reduction_ops import reduce_max
from .scatter_ops import scatter_nd


def _check(values, condition, message, hint):
    """TF asserts on the values; minitf checks them when they are known (eager)."""
    if isinstance(values, SymbolicTensor):
        return
    array = values.numpy()
    if not np.all(condition(array)):
        raise errors.InvalidArgumentError(None, None, f"{message} {hint}")


@tf_export("math.confusion_matrix")
def confusion_matrix(labels, predictions, num_classes=None, weights=None, dtype=dtypes.int32,
                     name=None):
    """The [num_classes, num_classes] matrix of label (row) × prediction (column) counts.

    labels, predictions: 1-D integer class ids of the same length.
    num_classes: defaults to the largest id seen + 1 (a Python int inside tf.function).
    weights: one weight per example, added instead of 1 (so the result can be float).

    >>> tf.math.confusion_matrix([0, 0, 1], [0, 1, 1], weights=[0.5, 1.0, 2.0],
    ...                          dtype=tf.float32).numpy()
    array([[0.5, 1. ],
           [0. , 2. ]], dtype=float32)
    """
    labels = cast(convert_to_tensor(labels), dtypes.int64)
    predictions = cast(convert_to_tensor(predictions), dtypes.int64)
    if labels.shape.rank not in (None, 1) or predictions.shape.rank not in (None, 1):
        raise ValueError(f"confusion_matrix expects 1-D labels and predictions, got shapes "
                         f"{labels.shape} and {predictions.shape}. Flatten them first, e.g. "
                         "with tf.reshape(labels, [-1]).")
    hint = "(Class ids count from 0.)"
    _check(labels, lambda a: a >= 0, "`labels` contains negative values.", hint)
    _check(predictions, lambda a: a >= 0, "`predictions` contains negative values.", hint)
    if num_classes is None:
        if isinstance(labels, SymbolicTensor) or isinstance(predictions, SymbolicTensor):
            raise ValueError("Inside tf.function, pass num_classes to confusion_matrix: "
                             "minitf needs the size of the matrix while tracing (TF can "
                             "leave it to the values).")
        num_classes = int(max(reduce_max(predictions).numpy(), reduce_max(labels).numpy())) + 1
    if isinstance(num_classes, SymbolicTensor):
        raise ValueError("confusion_matrix needs num_classes as a Python int in minitf, "
                         "not a tensor computed inside tf.function.")
    num_classes = int(num_classes)
    hint = f"(With num_classes={num_classes} the class ids are 0 … {num_classes - 1}.)"
    _check(labels, lambda a: a < num_classes, "`labels` out of bound.", hint)
    _check(predictions, lambda a: a < num_classes, "`predictions` out of bound.", hint)
    dtype = dtypes.as_dtype(dtype)
    values = ones_like(predictions, dtype=dtype) if weights is None else cast(
        convert_to_tensor(weights), dtype)
    indices = stack([labels, predictions], axis=1)
    return scatter_nd(indices, values, [num_classes, num_classes])
