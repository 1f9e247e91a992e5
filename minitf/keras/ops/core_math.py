"""`keras.ops` math outside the NumPy names: erf, rsqrt, segment reductions, cdist, frames.

Segment reductions combine the rows of `data` that share a segment id:
`segment_sum(data, [0, 0, 1])` adds rows 0 and 1 into segment 0. They are
written with a (segments x rows) mask, so the gradient of each is the gradient
of `where` and a reduction.

>>> import minitf as tf
>>> from minitf.keras import ops
>>> ops.segment_max(tf.constant([1.0, 5.0, 2.0]), tf.constant([0, 0, 1]))
<tf.Tensor: shape=(2,), dtype=float32, numpy=array([5., 2.], dtype=float32)>
"""
import numpy as np

import minitf as tf

from ._export import keras_ops_export
from .. import ops  # noqa: F401 - the examples below call ops.*
from .dtype_rules import concrete, convert


@keras_ops_export()
def erf(x):
    """The error function 2/sqrt(pi) * integral_0^x exp(-t^2) dt."""
    return tf.math.erf(convert(x))


@keras_ops_export()
def erfc(x):
    """1 - erf(x)."""
    return tf.math.erfc(convert(x))


@keras_ops_export()
def erfinv(x):
    """The inverse error function (`tf.math.erfinv`): erfinv(erf(y)) = y."""
    return tf.math.erfinv(convert(x))


@keras_ops_export()
def rsqrt(x):
    """1 / sqrt(x).

    >>> ops.rsqrt(tf.constant([4.0]))
    <tf.Tensor: shape=(1,), dtype=float32, numpy=array([0.5], dtype=float32)>
    """
    return tf.math.rsqrt(convert(x))


def _segments(data, segment_ids, num_segments, sorted, count_unique):
    data, ids = convert(data), tf.cast(convert(segment_ids), "int32")
    if sorted and num_segments is not None:
        raise ValueError("Argument `num_segments` cannot be set when sorted is True when using "
                         f"the tensorflow backend.Received: num_segments={num_segments}, "
                         f"sorted={sorted}.")
    if num_segments is None:
        values = concrete(ids, "segment_*", "(Without `num_segments` the output's length "
                          "comes from the ids.) Inside tf.function pass `num_segments`.")
        num_segments = (len(np.unique(values)) if count_unique and not sorted
                        else int(values.max()) + 1 if values.size else 0)
    mask = tf.equal(tf.reshape(tf.range(num_segments), [-1, 1]), tf.reshape(ids, [1, -1]))
    mask = tf.reshape(mask, mask.shape.as_list() + [1] * (data.shape.rank - 1))
    return data, mask


def _segment(name, reduce, empty_fill):
    def op(data, segment_ids, num_segments=None, sorted=False):  # noqa: A002 - Keras's name
        data, mask = _segments(data, segment_ids, num_segments, sorted, name == "segment_sum")
        fill = empty_fill(data.dtype.name)
        rows = tf.where(mask, tf.expand_dims(data, 0), tf.constant(fill, data.dtype))
        out = reduce(rows, axis=1)
        if sorted and name in ("segment_max", "segment_min"):  # empty sorted segments give 0
            present = tf.reduce_any(mask, axis=1)
            out = tf.where(present, out, tf.zeros_like(out))
        return out

    op.__name__ = op.__qualname__ = name
    op.__doc__ = f"`{name}`: {reduce.__name__} of the rows of `data` in each segment."
    globals()[name] = keras_ops_export()(op)


def _lowest(dtype):
    return np.finfo(dtype).min if "float" in dtype else np.iinfo(dtype).min


def _highest(dtype):
    return np.finfo(dtype).max if "float" in dtype else np.iinfo(dtype).max


_segment("segment_sum", tf.reduce_sum, lambda dtype: 0)
_segment("segment_max", tf.reduce_max, _lowest)
_segment("segment_min", tf.reduce_min, _highest)
_segment("segment_prod", tf.reduce_prod, lambda dtype: 1)


@keras_ops_export()
def cdist(x, y):
    """Euclidean distances between every row of x and every row of y.

    >>> ops.cdist(tf.constant([[0.0, 0.0]]), tf.constant([[3.0, 4.0], [0.0, 1.0]]))
    <tf.Tensor: shape=(1, 2), dtype=float32, numpy=array([[5., 1.]], dtype=float32)>
    """
    x, y = convert(x), convert(y)
    if x.shape.rank < 2 or y.shape.rank < 2:
        raise ValueError("`cdist` inputs must have rank >= 2")
    if x.shape[-1] != y.shape[-1]:
        raise ValueError("Last dimension of inputs to `cdist` must match")
    return tf.sqrt(tf.reduce_sum(tf.square(tf.expand_dims(x, -2) - tf.expand_dims(y, -3)), -1))


@keras_ops_export()
def extract_sequences(x, sequence_length, sequence_stride):
    """Frames of `sequence_length` along the last axis, every `sequence_stride` steps.

    >>> ops.extract_sequences(tf.range(5), 2, 2)
    <tf.Tensor: shape=(2, 2), dtype=int32, numpy=
    array([[0, 1],
           [2, 3]], dtype=int32)>
    """
    x = convert(x)
    n = x.shape[-1]
    count = 1 + (n - sequence_length) // sequence_stride if n >= sequence_length else 0
    starts = np.arange(count) * sequence_stride
    index = starts[:, None] + np.arange(sequence_length)[None, :]
    return tf.gather(x, tf.constant(index, "int32"), axis=x.shape.rank - 1)
