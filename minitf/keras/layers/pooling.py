"""Pooling layers: MaxPooling1D/2D/3D, AveragePooling1D/2D/3D and the global poolings.

A pooling window slides like a convolution kernel but has no weights: it
keeps the largest value (max) or the mean (average) of each window. By
default `strides = pool_size`, so windows do not overlap and a 2x2 pool
halves height and width:

>>> import minitf as tf
>>> tf.keras.layers.MaxPooling2D()(tf.ones([1, 6, 6, 3])).shape
TensorShape([1, 3, 3, 3])
>>> tf.keras.layers.GlobalAveragePooling2D()(tf.ones([2, 6, 6, 3])).shape   # mean over H, W
TensorShape([2, 3])

With padding "same", average pooling divides by the number of real (not
padded) values in each window, as TensorFlow does.

In TensorFlow these are `keras/src/layers/pooling/base_pooling.py` and
`base_global_pooling.py` (Keras 3).
"""
import minitf as tf

from ...framework.tf_export import tf_export
from ..engine.base_layer import Layer
from ..engine.input_spec import InputSpec
from .conv_utils import (
    KerasNamed,
    conv_output_length,
    from_channels_last,
    spatial_dims,
    standardize_data_format,
    standardize_padding,
    standardize_tuple,
    to_channels_last,
    with_spatial,
)

_POOL_OPS = {("max", 1): "max_pool1d", ("max", 2): "max_pool2d", ("max", 3): "max_pool3d",
             ("avg", 1): "avg_pool1d", ("avg", 2): "avg_pool2d", ("avg", 3): "avg_pool3d"}


class BasePooling(KerasNamed, Layer):
    """A window of `pool_size` moved by `strides`; subclasses set `rank` and `mode`."""

    rank = 2
    mode = "max"

    def __init__(self, pool_size=2, strides=None, padding="valid", data_format=None,
                 name=None, **kwargs):
        super().__init__(name=name, **kwargs)
        self.pool_size = standardize_tuple(pool_size, self.rank, "pool_size")
        strides = pool_size if strides is None else strides
        self.strides = standardize_tuple(strides, self.rank, "strides")
        self.padding = standardize_padding(padding)
        self.data_format = standardize_data_format(data_format)
        self.input_spec = InputSpec(ndim=self.rank + 2)
        self.built = True  # no weights: built from the start, as in Keras 3

    def call(self, inputs):
        pool = getattr(tf.nn, _POOL_OPS[(self.mode, self.rank)])
        x = to_channels_last(inputs, self.data_format)
        y = pool(x, list(self.pool_size), list(self.strides), self.padding.upper())
        return from_channels_last(y, self.data_format)

    def compute_output_shape(self, input_shape):
        spatial = [conv_output_length(n, k, self.padding, s) for n, k, s in zip(
            spatial_dims(input_shape, self.data_format), self.pool_size, self.strides)]
        channels = input_shape[-1] if self.data_format == "channels_last" else input_shape[1]
        return with_spatial(input_shape, self.data_format, spatial, channels)

    def get_config(self):
        config = super().get_config()
        config.update({"pool_size": self.pool_size, "padding": self.padding,
                       "strides": self.strides, "data_format": self.data_format})
        return config


def _average_init(name):
    """Keras 3's average poolings have no default `pool_size` (the max poolings do)."""
    def __init__(self, pool_size, strides=None, padding="valid", data_format=None, name=None,
                 **kwargs):
        BasePooling.__init__(self, pool_size, strides, padding, data_format, name, **kwargs)
    __init__.__qualname__ = f"{name}.__init__"
    __init__.__code__ = __init__.__code__.replace(co_qualname=__init__.__qualname__)
    return __init__


def _pooling_class(name, rank, mode, doc, aliases=()):
    body = {"rank": rank, "mode": mode, "__doc__": doc, "__module__": __name__}
    if mode == "avg":
        body["__init__"] = _average_init(name)
    cls = type(name, (BasePooling,), body)
    return tf_export(f"keras.layers.{name}", *[f"keras.layers.{a}" for a in aliases])(cls)


MaxPooling1D = _pooling_class("MaxPooling1D", 1, "max", """Max over windows of steps.

    >>> tf.keras.layers.MaxPooling1D()(tf.constant([[[1.], [3.], [2.], [0.]]]))[0, :, 0]
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([3., 2.], dtype=float32)>
    """, ["MaxPool1D"])
MaxPooling2D = _pooling_class("MaxPooling2D", 2, "max", """Max over 2-D windows.

    >>> tf.keras.layers.MaxPooling2D(3, strides=2, padding="same")(tf.ones([1, 5, 5, 2])).shape
    TensorShape([1, 3, 3, 2])
    """, ["MaxPool2D"])
MaxPooling3D = _pooling_class("MaxPooling3D", 3, "max", """Max over 3-D windows.

    >>> tf.keras.layers.MaxPooling3D()(tf.ones([1, 4, 4, 4, 2])).shape
    TensorShape([1, 2, 2, 2, 2])
    """, ["MaxPool3D"])
AveragePooling1D = _pooling_class("AveragePooling1D", 1, "avg", """Mean over windows of steps.

    >>> tf.keras.layers.AveragePooling1D(2)(tf.constant([[[1.], [3.], [2.], [0.]]]))[0, :, 0]
    <tf.Tensor: shape=(2,), dtype=float32, numpy=array([2., 1.], dtype=float32)>
    """, ["AvgPool1D"])
AveragePooling2D = _pooling_class("AveragePooling2D", 2, "avg", """Mean over 2-D windows.

    >>> tf.keras.layers.AveragePooling2D((2, 1))(tf.ones([1, 4, 4, 2])).shape
    TensorShape([1, 2, 4, 2])
    """, ["AvgPool2D"])
AveragePooling3D = _pooling_class("AveragePooling3D", 3, "avg", """Mean over 3-D windows.

    >>> tf.keras.layers.AveragePooling3D(2)(tf.ones([1, 2, 2, 2, 1])).shape
    TensorShape([1, 1, 1, 1, 1])
    """, ["AvgPool3D"])


class BaseGlobalPooling(KerasNamed, Layer):
    """Reduce (max or mean) over every spatial axis; `keepdims=True` keeps them as size 1."""

    rank = 2
    mode = "max"

    def __init__(self, data_format=None, keepdims=False, **kwargs):
        super().__init__(**kwargs)
        self.data_format = standardize_data_format(data_format)
        self.keepdims = keepdims
        self.input_spec = InputSpec(ndim=self.rank + 2)
        self.supports_masking = True  # (Keras 3: the 1-D average reads the mask)
        self.built = True  # no weights: built from the start, as in Keras 3

    def _axes(self):
        first = 1 if self.data_format == "channels_last" else 2
        return list(range(first, first + self.rank))

    def call(self, inputs, mask=None):
        if mask is not None and self.mode == "avg" and self.rank == 1:
            return self._masked_mean(inputs, mask)
        reduce = tf.reduce_max if self.mode == "max" else tf.reduce_mean
        return reduce(inputs, axis=self._axes(), keepdims=self.keepdims)

    def _masked_mean(self, inputs, mask):
        """GlobalAveragePooling1D of padded sequences: the mean of the real steps only."""
        weights = tf.expand_dims(tf.cast(mask, inputs.dtype),
                                 2 if self.data_format == "channels_last" else 1)
        axis = self._axes()
        return (tf.reduce_sum(inputs * weights, axis=axis, keepdims=self.keepdims)
                / tf.reduce_sum(weights, axis=axis, keepdims=self.keepdims))

    def compute_mask(self, inputs, mask=None):
        return None  # the steps are gone: nothing left to mask

    def compute_output_shape(self, input_shape):
        axes = self._axes()
        if self.keepdims:
            return tuple(1 if i in axes else d for i, d in enumerate(input_shape))
        return tuple(d for i, d in enumerate(input_shape) if i not in axes)

    def get_config(self):
        config = super().get_config()
        config.update({"data_format": self.data_format, "keepdims": self.keepdims})
        return config


def _global_class(name, rank, mode, alias, doc):
    cls = type(name, (BaseGlobalPooling,), {"rank": rank, "mode": mode, "__doc__": doc,
                                            "__module__": __name__})
    return tf_export(f"keras.layers.{name}", f"keras.layers.{alias}")(cls)


GlobalMaxPooling1D = _global_class("GlobalMaxPooling1D", 1, "max", "GlobalMaxPool1D", """
    Max over all steps: (batch, steps, channels) -> (batch, channels).

    >>> tf.keras.layers.GlobalMaxPooling1D()(tf.constant([[[1., 5.], [3., 2.]]]))
    <tf.Tensor: shape=(1, 2), dtype=float32, numpy=array([[3., 5.]], dtype=float32)>
    """)
GlobalMaxPooling2D = _global_class("GlobalMaxPooling2D", 2, "max", "GlobalMaxPool2D", """
    Max over height and width: (batch, h, w, channels) -> (batch, channels).

    >>> tf.keras.layers.GlobalMaxPooling2D(keepdims=True)(tf.ones([2, 4, 4, 3])).shape
    TensorShape([2, 1, 1, 3])
    """)
GlobalMaxPooling3D = _global_class("GlobalMaxPooling3D", 3, "max", "GlobalMaxPool3D", """
    Max over depth, height and width.

    >>> tf.keras.layers.GlobalMaxPooling3D()(tf.ones([2, 2, 2, 2, 3])).shape
    TensorShape([2, 3])
    """)
GlobalAveragePooling1D = _global_class("GlobalAveragePooling1D", 1, "avg", "GlobalAvgPool1D",
                                       """
    Mean over all steps: (batch, steps, channels) -> (batch, channels).

    >>> tf.keras.layers.GlobalAveragePooling1D()(tf.constant([[[1., 5.], [3., 2.]]]))
    <tf.Tensor: shape=(1, 2), dtype=float32, numpy=array([[2. , 3.5]], dtype=float32)>
    """)
GlobalAveragePooling2D = _global_class("GlobalAveragePooling2D", 2, "avg", "GlobalAvgPool2D",
                                       """
    Mean over height and width: the usual head of a CNN before the classifier.

    >>> tf.keras.layers.GlobalAveragePooling2D()(tf.ones([2, 4, 4, 3])).shape
    TensorShape([2, 3])
    """)
GlobalAveragePooling3D = _global_class("GlobalAveragePooling3D", 3, "avg", "GlobalAvgPool3D",
                                       """
    Mean over depth, height and width.

    >>> tf.keras.layers.GlobalAveragePooling3D()(tf.ones([2, 2, 2, 2, 3])).shape
    TensorShape([2, 3])
    """)
