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
from ..framework.tensor import Tensor
from ..framework.tensor_shape import TensorShape
from .array_ops import reshape
from .reduction_ops import reduce_sum
from .shape_rules import broadcast_gradient_axes


def unbroadcast(grad, source):
    """Sum `grad` over the axes broadcasting stretched so that it has the shape of
    `source` (a tensor, or a TensorShape).

    When the static shapes say which axes were stretched (the source's shape is fully
    known), the sum is planned now; inside tf.function with unknown (None) sizes,
    e.g. a batch axis, it is decided when the graph runs (TF's BroadcastGradientArgs).
    """
    shape = source.shape if isinstance(source, Tensor) else TensorShape(source)
    if not shape.is_fully_defined() or grad.shape.rank is None:
        if shape.rank is not None and grad.shape.rank is not None and \
                _surely_equal(grad.shape, shape):
            return grad
        from .shape_ops import sum_to_shape

        if not isinstance(source, Tensor):
            raise ValueError(f"unbroadcast to the partially known shape {shape} needs the "
                             "source tensor, whose size is read when the graph runs.")
        return sum_to_shape(grad, source)
    target = shape.as_list()
    if grad.shape.as_list() == target:
        return grad
    axes = broadcast_gradient_axes(grad.shape.as_list(), target)
    summed = reduce_sum(grad, axis=axes)
    if summed.shape.as_list() != target:  # summing dropped axes that were size 1
        summed = reshape(summed, target)
    assert summed.shape.as_list() == target, (summed.shape, target)
    return summed


def _surely_equal(grad_shape, shape):
    """Static proof that no axis was stretched: same rank and every size known equal
    and not 1-vs-unknown (an unknown size may be a broadcast 1)."""
    return grad_shape.rank == shape.rank and all(
        a == b and a is not None for a, b in zip(grad_shape.dims, shape.dims))
