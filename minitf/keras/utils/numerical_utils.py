"""`tf.keras.utils.to_categorical` and `normalize`: small label and array helpers.

>>> tf.keras.utils.to_categorical([0, 2, 1])
array([[1., 0., 0.],
       [0., 0., 1.],
       [0., 1., 0.]])
>>> tf.keras.utils.normalize(np.array([[3.0, 4.0]]))
array([[0.6, 0.8]])
"""
import numpy as np

from ...framework.tensor import Tensor
from ...framework.tf_export import tf_export


@tf_export("keras.utils.to_categorical")
def to_categorical(x, num_classes=None):
    """Integer class labels -> one-hot rows (float64 NumPy, or a float32 tensor for a
    tensor input, as Keras 3). A trailing axis of size 1 is dropped first."""
    if isinstance(x, Tensor):
        from ...ops.array_ops import one_hot
        from ...ops.math_ops import cast
        from ...ops.reduction_ops import reduce_max
        labels = cast(x, "int64")
        if labels.shape.rank > 1 and labels.shape[-1] == 1:
            from ...ops.array_ops import squeeze
            labels = squeeze(labels, axis=-1)
        if num_classes is None:
            num_classes = int(reduce_max(labels).numpy()) + 1
        return one_hot(labels, num_classes, dtype="float32")
    x = np.array(x, dtype="int64")
    input_shape = x.shape
    if input_shape and input_shape[-1] == 1 and len(input_shape) > 1:
        input_shape = tuple(input_shape[:-1])
    x = x.reshape(-1)
    if not num_classes:
        num_classes = int(np.max(x)) + 1
    if x.size and (x.min() < 0 or x.max() >= num_classes):
        raise ValueError(f"Class labels must be in [0, {num_classes}) for "
                         f"num_classes={num_classes}; got values from {x.min()} to "
                         f"{x.max()}.")
    categorical = np.zeros((x.shape[0], num_classes))
    categorical[np.arange(x.shape[0]), x] = 1
    return np.reshape(categorical, input_shape + (num_classes,))


@tf_export("keras.utils.normalize")
def normalize(x, axis=-1, order=2):
    """Scale `x` to unit `order`-norm along `axis` (zero rows stay zero)."""
    x = np.asarray(x)
    norm = np.atleast_1d(np.linalg.norm(x, order, axis))
    norm[norm == 0] = 1
    return x / np.expand_dims(norm, axis)
