"""`tf.nn.with_space_to_batch`: run an op on a dilated grid by rearranging space into batch.

An op that looks at neighbours `rate` apart (a dilated convolution, pooling) equals the
same op with neighbours 1 apart, run on `space_to_batch(input, rate)` - each batch entry
then holds every rate-th position - and followed by `batch_to_space`. This is how TF 1
computed atrous convolutions.

>>> import minitf as tf
>>> x = tf.reshape(tf.range(16.0), [1, 4, 4, 1])
>>> pool = lambda inp, num_spatial_dims, padding: tf.nn.max_pool2d(inp, 2, 1, padding)
>>> tf.nn.with_space_to_batch(x, [2, 2], "VALID", pool)[0, :, :, 0].numpy()
array([[10., 11.],
       [14., 15.]], dtype=float32)

(each output is the max of 4 entries 2 apart: a 2x2 pool dilated by 2.)
"""
import numpy as np

from ..framework.tensor import convert_to_tensor
from ..framework.tf_export import tf_export
from .space_batch_ops import batch_to_space, required_space_to_batch_paddings, space_to_batch_nd


def _base_paddings(filter_shape, rates):
    """SAME padding of a dilated filter: (filter - 1) * rate, split start-first."""
    extra = (np.asarray(filter_shape)[:len(rates)] - 1) * np.asarray(rates)
    start = extra // 2
    return np.stack([start, extra - start], axis=1).astype(np.int32)


def _adjust(values, fill, spatial_dims):
    """TF's _with_space_to_batch_adjust: one entry per axis 1..max(spatial_dims); axes
    that are not spatial get `fill` (block 1, no padding)."""
    out = [fill] * max(spatial_dims)
    for value, axis in zip(values, spatial_dims):
        out[axis - 1] = value
    return out


@tf_export("nn.with_space_to_batch")
def with_space_to_batch(input, dilation_rate, padding, op, filter_shape=None,  # noqa: A002
                        spatial_dims=None, data_format=None):
    """op(input, num_spatial_dims, padding) computed on a grid dilated by dilation_rate.

    op: a function (input, num_spatial_dims, padding) -> output that works "VALID" on
    the space-to-batch input. padding "SAME" needs filter_shape (to pad for the dilated
    filter). spatial_dims default to the axes after the batch (after the channels for an
    "NC..." data_format).

    >>> f = tf.ones([3, 1, 1])
    >>> conv = lambda inp, n, padding: tf.nn.convolution(inp, f, padding=padding)
    >>> tf.nn.with_space_to_batch(tf.ones([1, 7, 1]), [2], "SAME", conv, [3]).shape
    TensorShape([1, 7, 1])
    """
    input = convert_to_tensor(input)  # noqa: A001
    rates = [int(r) for r in np.reshape(np.asarray(
        dilation_rate.numpy() if hasattr(dilation_rate, "numpy") else dilation_rate), [-1])]
    num_spatial_dims = len(rates)
    if any(r < 1 for r in rates):
        raise ValueError(f"`dilation_rate` must be positive. Received: dilation_rate={rates}")
    if spatial_dims is None:
        start = 2 if data_format is not None and data_format.startswith("NC") else 1
        spatial_dims = list(range(start, num_spatial_dims + start))
    spatial_dims = sorted(int(d) for d in spatial_dims)
    if all(r == 1 for r in rates):
        return op(input, num_spatial_dims, padding)
    if padding == "SAME":
        if filter_shape is None:
            raise ValueError("`filter_shape` must be specified for `padding='SAME'`. "
                             f"Received: filter_shape={filter_shape} and padding={padding}")
        filter_shape = filter_shape.numpy() if hasattr(filter_shape, "numpy") else filter_shape
        base = _base_paddings(filter_shape, rates)
    elif padding == "VALID":
        base = np.zeros([num_spatial_dims, 2], np.int32)
    else:
        raise ValueError(f"Invalid padding method {padding!r}")
    sizes = [input.shape[d] for d in spatial_dims]
    paddings, crops = required_space_to_batch_paddings(sizes, rates, base)
    blocks = _adjust(rates, 1, spatial_dims)
    paddings = _adjust(paddings.numpy().tolist(), [0, 0], spatial_dims)
    crops = _adjust(crops.numpy().tolist(), [0, 0], spatial_dims)
    result = op(space_to_batch_nd(input, blocks, paddings), num_spatial_dims, "VALID")
    return batch_to_space(result, blocks, crops)
