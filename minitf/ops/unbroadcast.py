"""The gradient of broadcasting, in one place.

When `x` of shape [3, 1] is added to `y` of shape [4], each x[i, 0] was used
4 times, so its gradient is the sum of the 4 upstream gradients; y[j] was used 3
times. `unbroadcast` sums a gradient down to its source's shape and checks
the result. (HIPS/autograd calls this `unbroadcast`; TensorFlow computes the
axes with `BroadcastGradientArgs`.)

>>> import minitf as tf
>>> unbroadcast(tf.ones([3, 4]), tf.TensorShape([3, 1]))
<tf.Tensor: shape=(3, 1), dtype=float32, numpy=
array([[4.],
       [4.],
       [4.]], dtype=float32)>
"""
from .array_ops import reshape
from .reduction_ops import reduce_sum
from .shape_rules import broadcast_gradient_axes


def unbroadcast(grad, shape):
    """Sum `grad` over the axes broadcasting stretched so that it has `shape`."""
    target = shape.as_list()
    if grad.shape.as_list() == target:
        return grad
    axes = broadcast_gradient_axes(grad.shape.as_list(), target)
    summed = reduce_sum(grad, axis=axes)
    if summed.shape.as_list() != target:  # summing dropped axes that were size 1
        summed = reshape(summed, target)
    assert summed.shape.as_list() == target, (summed.shape, target)
    return summed
