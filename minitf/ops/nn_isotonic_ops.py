"""`tf.nn.isotonic_regression`: the closest monotone sequence, by pool adjacent violators.

For each row y (along `axis`), the non-increasing x minimizing sum((x - y)^2). The
solution is piecewise constant: runs of y that break the order are pooled into one
segment whose value is their mean.

>>> import minitf as tf
>>> out, segments = tf.nn.isotonic_regression([[1.0, 3.0, 2.0, 0.5]])
>>> out.numpy(), segments.numpy()
(array([[2. , 2. , 2. , 0.5]], dtype=float32), array([[0, 0, 1, 2]], dtype=int32))

(1 < 3 breaks "non-increasing": pooled to 2; then 2 is not above 2, so it starts a
new segment.) Each output is a mean of its segment's inputs, so the gradient hands
each input the mean of its segment's upstream gradients, as TF's does.
"""
import collections

import numpy as np

from ..framework import dtypes, errors
from ..framework.op import Op, apply
from ..framework.tensor import convert_to_tensor
from ..framework.tf_export import tf_export
from .array_ops import reshape, transpose
from .gather_ops import gather
from .scatter_ops import unsorted_segment_sum

IsotonicRegressionResult = collections.namedtuple("IsotonicRegression", ["output", "segments"])
_PROMOTIONS = {dtypes.float32: dtypes.float32, dtypes.float16: dtypes.float16,
               dtypes.int8: dtypes.float32, dtypes.int16: dtypes.float32}


def _pool_row(row):
    """Pool adjacent violators on one row: (block means per entry, segment id per entry)."""
    sums, counts = [], []
    for value in row.tolist():
        sums.append(value)
        counts.append(1)
        while len(sums) > 1 and sums[-2] / counts[-2] < sums[-1] / counts[-1]:
            total, count = sums.pop(), counts.pop()
            sums[-1] += total
            counts[-1] += count
    means = np.repeat([s / c for s, c in zip(sums, counts)], counts)
    return means, np.repeat(np.arange(len(counts)), counts)


def _isotonic_forward(x, output_dtype):
    rows = x.reshape(-1, x.shape[-1]) if x.size else x.reshape(-1, max(x.shape[-1], 0))
    out = np.zeros(rows.shape, output_dtype.as_numpy_dtype)
    segments = np.zeros(rows.shape, np.int32)
    for i, row in enumerate(rows.astype(np.float64)):
        out[i], segments[i] = _pool_row(row)
    return out.reshape(x.shape), segments.reshape(x.shape)


IsotonicRegression = Op("IsotonicRegression", _isotonic_forward, dtypes=dtypes.REAL,
                        num_outputs=2, shape=lambda x, output_dtype: (x, x),
                        dtype=lambda x, output_dtype: (output_dtype, dtypes.int32))


@IsotonicRegression.def_grad
def _isotonic_grad(op, d_output, d_segments):
    """Each input gets the mean upstream gradient of its segment (TF's _MeanAggregator)."""
    segments = op.outputs[1]
    width = segments.shape[-1]
    rows = int(np.prod(segments.shape.as_list()[:-1]))
    ids = reshape(segments + reshape(np.arange(rows, dtype=np.int32) * width,
                                     segments.shape.as_list()[:-1] + [1]), [-1])
    flat = reshape(d_output, [-1])
    sums = unsorted_segment_sum(flat, ids, rows * width)
    counts = unsorted_segment_sum(0 * flat + 1, ids, rows * width)
    return reshape(gather(sums / counts, ids), segments.shape), None


@tf_export("nn.isotonic_regression")
def isotonic_regression(inputs, decreasing=True, axis=-1):
    """(output, segments): the least-squares non-increasing (or, with decreasing=False,
    non-decreasing) fit of each row along `axis`, and each entry's segment number.

    float16/float32 stay; int8/int16 give float32; other dtypes float64. As in TF the
    result is a namedtuple IsotonicRegression only for the plain case (decreasing
    along the last axis), else a tuple.

    >>> tf.nn.isotonic_regression([1.0, 3.0, 2.0], decreasing=False)[0].numpy()
    array([1. , 2.5, 2.5], dtype=float32)
    """
    inputs = convert_to_tensor(inputs)
    output_dtype = _PROMOTIONS.get(inputs.dtype, dtypes.float64)
    rank = inputs.shape.rank
    if not -rank <= axis < rank:
        raise errors.InvalidArgumentError(
            None, None, f"`dim` must be in the range [{-rank}, {rank}) where {rank} is the "
            f"number of dimensions in the input. Received: dim={axis}")
    last = axis % rank == rank - 1
    perm = list(range(rank))
    perm[axis % rank], perm[-1] = perm[-1], perm[axis % rank]
    x = inputs if last else transpose(inputs, perm)
    if decreasing:
        result = IsotonicRegressionResult(*apply(IsotonicRegression, [x],
                                                 {"output_dtype": output_dtype}))
    else:
        output, segments = apply(IsotonicRegression, [-x], {"output_dtype": output_dtype})
        result = (-output, segments)
    if last:
        return result
    return tuple(transpose(t, perm) for t in result)
