"""Statistics in `tf.nn`: sufficient_statistics, weighted_moments, and the batch norm of TF 1
(batch_norm_with_global_normalization).

>>> import minitf as tf
>>> x = tf.constant([[1.0, 2.0], [3.0, 6.0]])
>>> count, total, total_sq, shift = tf.nn.sufficient_statistics(x, axes=[0])
>>> float(count), total.numpy(), total_sq.numpy(), shift
(2.0, array([4., 8.], dtype=float32), array([10., 40.], dtype=float32), None)
>>> mean, variance = tf.nn.normalize_moments(count, total, total_sq, shift)
>>> mean.numpy(), variance.numpy()
(array([2., 4.], dtype=float32), array([1., 4.], dtype=float32))

All three are compositions of minitf ops written as TF writes them, so their
gradients come from the ops they use.
"""
from ..framework import dtypes
from ..framework.tensor import convert_to_tensor
from ..framework.tf_export import tf_export
from .array_ops import squeeze
from .clip_ops import divide_no_nan
from .creation_ops import zeros_like
from .math_ops import cast, squared_difference, subtract
from .nn_layer_ops import batch_normalization
from .reduction_ops import reduce_prod, reduce_sum
from .shape_ops import shape as shape_of
from .gather_ops import gather
from .unary_ops import square


def _axes_list(axes):
    if hasattr(axes, "numpy"):
        axes = axes.numpy().tolist()
    return [int(a) for a in ([axes] if isinstance(axes, int) else axes)]


@tf_export("nn.sufficient_statistics")
def sufficient_statistics(x, axes, shift=None, keepdims=False, name=None):
    """(count, sum(x - shift), sum((x - shift)^2), shift) over `axes`: what
    `tf.nn.normalize_moments` turns into a mean and a variance.

    Summing shifted values (by a guess of the mean) keeps the sums small; shift=None
    sums x itself. The count has x's dtype.

    >>> c, s, ss, sh = tf.nn.sufficient_statistics(tf.constant([1.0, 2.0, 6.0]), [0], shift=2.0)
    >>> float(c), float(s), float(ss), float(sh)
    (3.0, 3.0, 17.0, 2.0)
    """
    axes = sorted(set(_axes_list(axes)))
    x = convert_to_tensor(x)
    dims = x.shape.as_list() if x.shape.rank is not None else None
    if dims is not None and all(dims[a] is not None for a in axes):
        count = 1
        for a in axes:
            count *= dims[a]
        counts = convert_to_tensor(count, dtype=x.dtype)
    else:  # a dimension known only when the graph runs: count it then
        counts = cast(reduce_prod(gather(shape_of(x), axes)), x.dtype)
    if shift is not None:
        shift = convert_to_tensor(shift, dtype=x.dtype)
        m_ss, v_ss = subtract(x, shift), squared_difference(x, shift)
    else:
        m_ss, v_ss = x, square(x)
    return (counts, reduce_sum(m_ss, axes, keepdims=keepdims),
            reduce_sum(v_ss, axes, keepdims=keepdims), shift)


@tf_export("nn.weighted_moments")
def weighted_moments(x, axes, frequency_weights, keepdims=False, name=None):
    """(mean, variance) of x over `axes`, each entry counted `frequency_weights` times.

    mean = sum(w * x) / sum(w), variance = sum(w * (x - mean)^2) / sum(w), where w
    is broadcast to x's shape; both are 0 where the weights sum to 0 (divide_no_nan).
    float16 is computed in float32, as in TF.

    >>> mean, var = tf.nn.weighted_moments(tf.constant([1.0, 4.0]), [0], [2.0, 1.0])
    >>> float(mean), float(var)
    (2.0, 2.0)
    """
    axes = _axes_list(axes)
    x = convert_to_tensor(x)
    weights = convert_to_tensor(frequency_weights)
    needs_cast = x.dtype is dtypes.float16
    if needs_cast:
        x = cast(x, dtypes.float32)
    if weights.dtype is not x.dtype:
        weights = cast(weights, x.dtype)
    weighted_sum = reduce_sum(weights * x, axes, keepdims=True)
    sum_of_weights = reduce_sum(weights + zeros_like(x), axes, keepdims=True)
    mean = divide_no_nan(weighted_sum, sum_of_weights)
    distance = reduce_sum(weights * squared_difference(x, mean), axes, keepdims=True)
    variance = divide_no_nan(distance, sum_of_weights)
    if not keepdims:
        mean, variance = squeeze(mean, axes), squeeze(variance, axes)
    if needs_cast:
        mean, variance = cast(mean, dtypes.float16), cast(variance, dtypes.float16)
    return mean, variance


@tf_export("nn.batch_norm_with_global_normalization")
def batch_norm_with_global_normalization(input, mean, variance, beta, gamma,  # noqa: A002
                                         variance_epsilon, scale_after_normalization,
                                         name=None):
    """TF 1's batch normalization: `tf.nn.batch_normalization` with offset `beta`, and
    scale `gamma` only if `scale_after_normalization`.

    >>> tf.nn.batch_norm_with_global_normalization(
    ...     tf.constant([1.0, 3.0]), 2.0, 1.0, 0.5, 2.0, 0.0, True).numpy()
    array([-1.5,  2.5], dtype=float32)
    """
    return batch_normalization(input, mean, variance, beta,
                               gamma if scale_after_normalization else None, variance_epsilon)
