"""Adaptive pooling: Adaptive{Average,Max}Pooling{1,2,3}D choose their windows so the
output has exactly `output_size` entries per spatial axis, whatever the input's size.

Along an axis of length n pooled to m outputs, output i covers the input entries
[floor(i n / m), ceil((i + 1) n / m)) -- PyTorch's rule, which Keras 3 follows --
so neighbouring windows may overlap by one and differ in size by at most one.
Axes are pooled one after the other (a rectangle's mean is the mean of its
columns' means; its max the max of their maxima).

>>> import minitf as tf
>>> x = tf.reshape(tf.range(5.0), [1, 5, 1])                    # 0 1 2 3 4
>>> tf.keras.layers.AdaptiveAveragePooling1D(3)(x)[0, :, 0].numpy()  # [0,2) [1,4) [3,5)
array([0.5, 2. , 3.5], dtype=float32)
>>> tf.keras.layers.AdaptiveMaxPooling2D((2, 1))(tf.ones([2, 7, 5, 3])).shape
TensorShape([2, 2, 1, 3])

In Keras these are `keras/src/layers/pooling/adaptive_*.py` and
`keras/src/backend/tensorflow/nn.py` (`_adaptive_*_pool*d`).
"""
import minitf as tf

from ...framework.tf_export import tf_export
from .. import backend
from ..engine.base_layer import Layer


def adaptive_windows(length, size):
    """[(start, end)] of the `size` windows that cover an axis of `length` entries."""
    return [(min(i * length // size, length - 1), min(-(-(i + 1) * length // size), length))
            for i in range(size)]


def adaptive_pool(x, output_size, first_axis, reduce):
    """Pool each spatial axis (from `first_axis` on) to its output size with `reduce`."""
    for i, size in enumerate(output_size):
        axis = first_axis + i
        length = x.shape[axis]
        if length is None:
            raise ValueError("Input length must be statically known for adaptive pooling. "
                             f"Received: axis {axis} of shape {tuple(x.shape)}; give the "
                             "spatial sizes in the Input shape.")
        pieces = []
        for start, end in adaptive_windows(length, size):
            index = [slice(None)] * len(x.shape)
            index[axis] = slice(start, end)
            pieces.append(reduce(x[tuple(index)], axis=axis, keepdims=True))
        x = tf.concat(pieces, axis=axis)
    return x


def _output_size(value, rank):
    if isinstance(value, int) and not isinstance(value, bool):
        return (value,) * rank
    if isinstance(value, (tuple, list)):
        if len(value) != rank and rank == 1:
            raise ValueError(f"For 1D input, `output_size` tuple must have length 1. "
                             f"Received: {value}")
        if len(value) == rank:
            return tuple(value)
    shapes = {1: "tuple of 1 integer", 2: "(height, width) tuple",
              3: "(depth, height, width) tuple"}
    raise TypeError(f"`output_size` must be an integer or {shapes[rank]}. Received: {value} "
                    f"of type {type(value)}")


class _AdaptivePooling(Layer):
    rank = None
    reduce = None

    def __init__(self, output_size, data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.output_size = _output_size(output_size, self.rank)
        self.data_format = data_format or backend.image_data_format()
        if self.data_format not in {"channels_first", "channels_last"}:
            raise ValueError(f"Invalid data_format: {self.data_format}. Expected "
                             "'channels_first' or 'channels_last'.")
        self.built = True

    def compute_output_shape(self, input_shape):
        if self.data_format == "channels_last":
            return (input_shape[0], *self.output_size, input_shape[-1])
        return (input_shape[0], input_shape[1], *self.output_size)

    def call(self, inputs):
        first = 1 if self.data_format == "channels_last" else 2
        return adaptive_pool(inputs, self.output_size, first, type(self).reduce)

    def get_config(self):
        config = super().get_config()
        config.update({"output_size": self.output_size, "data_format": self.data_format})
        return config


def _mean(x, axis, keepdims):
    return tf.reduce_mean(x, axis=axis, keepdims=keepdims)


def _max(x, axis, keepdims):
    return tf.reduce_max(x, axis=axis, keepdims=keepdims)


@tf_export("keras.layers.AdaptiveAveragePooling1D")
class AdaptiveAveragePooling1D(_AdaptivePooling):
    """The mean over each of `output_size` windows per spatial axis (1-D)."""
    rank = 1
    reduce = staticmethod(_mean)


@tf_export("keras.layers.AdaptiveAveragePooling2D")
class AdaptiveAveragePooling2D(_AdaptivePooling):
    """The mean over each of `output_size` windows per spatial axis (2-D)."""
    rank = 2
    reduce = staticmethod(_mean)


@tf_export("keras.layers.AdaptiveAveragePooling3D")
class AdaptiveAveragePooling3D(_AdaptivePooling):
    """The mean over each of `output_size` windows per spatial axis (3-D)."""
    rank = 3
    reduce = staticmethod(_mean)


@tf_export("keras.layers.AdaptiveMaxPooling1D")
class AdaptiveMaxPooling1D(_AdaptivePooling):
    """The maximum over each of `output_size` windows per spatial axis (1-D)."""
    rank = 1
    reduce = staticmethod(_max)


@tf_export("keras.layers.AdaptiveMaxPooling2D")
class AdaptiveMaxPooling2D(_AdaptivePooling):
    """The maximum over each of `output_size` windows per spatial axis (2-D)."""
    rank = 2
    reduce = staticmethod(_max)


@tf_export("keras.layers.AdaptiveMaxPooling3D")
class AdaptiveMaxPooling3D(_AdaptivePooling):
    """The maximum over each of `output_size` windows per spatial axis (3-D)."""
    rank = 3
    reduce = staticmethod(_max)
