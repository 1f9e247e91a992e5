"""Reshaping layers without weights: Cropping, ZeroPadding and UpSampling (1-3 D),
Permute and RepeatVector.

They move numbers around and compute nothing, so their gradient just routes
each output's gradient back to the input value it came from (cropped-away
inputs get zero gradient; an up-sampled input gets the sum over its copies).
Spatial axes are those between the batch axis and the channels (the
`data_format` says where the channels are):

>>> import minitf as tf
>>> x = tf.reshape(tf.range(6.0), [1, 2, 3, 1])                  # one 2x3 image
>>> tf.keras.layers.ZeroPadding2D(1)(x).shape                     # 1 zero all round
TensorShape([1, 4, 5, 1])
>>> tf.keras.layers.Cropping2D(((0, 1), (1, 0)))(x)[0, :, :, 0].numpy()
array([[1., 2.]], dtype=float32)
>>> tf.keras.layers.UpSampling2D(2)(x)[0, :, :, 0].numpy()        # each pixel 2x2 times
array([[0., 0., 1., 1., 2., 2.],
       [0., 0., 1., 1., 2., 2.],
       [3., 3., 4., 4., 5., 5.],
       [3., 3., 4., 4., 5., 5.]], dtype=float32)
>>> tf.keras.layers.RepeatVector(3)(tf.ones([2, 4])).shape        # (batch, n, features)
TensorShape([2, 3, 4])
>>> tf.keras.layers.Permute((2, 1))(tf.ones([2, 5, 4])).shape     # swap the two axes
TensorShape([2, 4, 5])

In Keras these are `keras/src/layers/reshaping/*.py`.
"""
import minitf as tf

from ...framework.tf_export import tf_export
from ..engine.base_layer import Layer
from ..engine.input_spec import InputSpec
from ..ops.numpy_array import repeat as _repeat
from .conv_utils import standardize_data_format, standardize_tuple

_ORDINALS = ("1st", "2nd", "3rd")


def _pairs(value, rank, name):
    """An int, `rank` ints, or `rank` pairs -> `rank` (before, after) pairs (Keras's checks)."""
    if isinstance(value, int) and not isinstance(value, bool):
        if value < 0:
            raise ValueError(f"`{name}` cannot be negative. Received: {name}={value}.")
        return ((value, value),) * rank
    if not hasattr(value, "__len__"):
        raise ValueError(f"`{name}` should be either an int, a tuple of {rank} ints, or a tuple "
                         f"of {rank} tuples of 2 ints (before, after) per spatial axis. "
                         f"Received: {name}={value}.")
    if len(value) != rank:
        count = "two" if rank == 2 else rank
        raise ValueError(f"`{name}` should have {count} elements (one per spatial axis). "
                         f"Received: {name}={value}.")
    return tuple(standardize_tuple(v, 2, f"{_ORDINALS[i]} entry of {name}", allow_zero=True)
                 for i, v in enumerate(value))


class _Spatial(Layer):
    """Shared by the layers below: which axes are spatial, given data_format."""
    rank = None

    def __init__(self, data_format=None, **kwargs):
        super().__init__(**kwargs)
        self.data_format = standardize_data_format(data_format)
        self.input_spec = InputSpec(ndim=self.rank + 2)
        self.built = True  # no weights: built from the start, as in Keras 3

    def _first_spatial_axis(self):
        return 2 if self.data_format == "channels_first" else 1


class _Cropping(_Spatial):
    """Remove `cropping[i] = (before, after)` entries from each spatial axis i."""

    def __init__(self, cropping, data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        if self.rank == 1:
            self.cropping = standardize_tuple(cropping, 2, "cropping", allow_zero=True)
        else:
            self.cropping = _pairs(cropping, self.rank, "cropping")

    def _check(self, shape, what):
        first = self._first_spatial_axis()
        for i, (before, after) in enumerate(self.cropping):
            n = shape[first + i]
            if n is not None and before + after >= n:
                raise ValueError(
                    "Values in `cropping` argument should be smaller than the corresponding "
                    f"spatial dimension of the input. Received: {what}={tuple(shape)}, "
                    f"cropping={self.cropping}. At least one entry must remain on each axis.")

    def compute_output_shape(self, input_shape):
        self._check(input_shape, "input_shape")
        output, first = list(input_shape), self._first_spatial_axis()
        for i, (before, after) in enumerate(self.cropping):
            if output[first + i] is not None:
                output[first + i] -= before + after
        return tuple(output)

    def call(self, inputs):
        self._check(inputs.shape, "inputs.shape")
        index = [slice(None)] * len(inputs.shape)
        for i, (before, after) in enumerate(self.cropping):
            index[self._first_spatial_axis() + i] = slice(before, -after if after else None)
        return inputs[tuple(index)]

    def get_config(self):
        config = super().get_config()
        config.update({"cropping": self.cropping, "data_format": self.data_format})
        return config


@tf_export("keras.layers.Cropping1D")
class Cropping1D(_Cropping):
    """Crop (batch, steps, features) along steps: `cropping=(before, after)` (an int: both)."""
    rank = 1

    def __init__(self, cropping=(1, 1), **kwargs):
        super().__init__(cropping, **kwargs)

    def _check(self, shape, what):
        if shape[1] is not None and sum(self.cropping) >= shape[1]:
            raise ValueError("`cropping` parameter of `Cropping1D` layer must be smaller than "
                             f"the input length. Received: {what}={tuple(shape)}, "
                             f"cropping={self.cropping}")

    def compute_output_shape(self, input_shape):
        self._check(input_shape, "input_shape")
        steps = input_shape[1]
        return (input_shape[0], None if steps is None else steps - sum(self.cropping),
                input_shape[2])

    def call(self, inputs):
        self._check(inputs.shape, "inputs.shape")
        before, after = self.cropping
        return inputs[:, before:(-after if after else None), :]

    def get_config(self):
        config = super().get_config()
        del config["data_format"]
        return config


@tf_export("keras.layers.Cropping2D")
class Cropping2D(_Cropping):
    """Crop images: `cropping=((top, bottom), (left, right))`, or (rows, cols), or an int."""
    rank = 2

    def __init__(self, cropping=((0, 0), (0, 0)), data_format=None, **kwargs):
        super().__init__(cropping, data_format=data_format, **kwargs)


@tf_export("keras.layers.Cropping3D")
class Cropping3D(_Cropping):
    """Crop volumes: `cropping` has one (before, after) pair per spatial axis."""
    rank = 3

    def __init__(self, cropping=((1, 1), (1, 1), (1, 1)), data_format=None, **kwargs):
        super().__init__(cropping, data_format=data_format, **kwargs)


class _ZeroPadding(_Spatial):
    """Add `padding[i] = (before, after)` zeros on each spatial axis i."""

    def __init__(self, padding, data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        if self.rank == 1:
            self.padding = standardize_tuple(padding, 2, "padding", allow_zero=True)
        else:
            self.padding = _pairs(padding, self.rank, "padding")

    def _pads(self):
        return (self.padding,) if self.rank == 1 else self.padding

    def compute_output_shape(self, input_shape):
        output, first = list(input_shape), self._first_spatial_axis()
        for i, (before, after) in enumerate(self._pads()):
            if output[first + i] is not None:
                output[first + i] += before + after
        return tuple(output)

    def call(self, inputs):
        spatial = [list(p) for p in self._pads()]
        if self.data_format == "channels_first":
            return tf.pad(inputs, [[0, 0], [0, 0]] + spatial)
        return tf.pad(inputs, [[0, 0]] + spatial + [[0, 0]])

    def get_config(self):
        config = super().get_config()
        config.update({"padding": self.padding, "data_format": self.data_format})
        return config


@tf_export("keras.layers.ZeroPadding1D")
class ZeroPadding1D(_ZeroPadding):
    """Zeros before and after the steps of (batch, steps, features): `padding=(before, after)`."""
    rank = 1

    def __init__(self, padding=1, data_format=None, **kwargs):
        super().__init__(padding, data_format=data_format, **kwargs)


@tf_export("keras.layers.ZeroPadding2D")
class ZeroPadding2D(_ZeroPadding):
    """Zero rows/columns round images: `padding=((top, bottom), (left, right))` or an int."""
    rank = 2

    def __init__(self, padding=(1, 1), data_format=None, **kwargs):
        super().__init__(padding, data_format=data_format, **kwargs)


@tf_export("keras.layers.ZeroPadding3D")
class ZeroPadding3D(_ZeroPadding):
    """Zeros round volumes: one (before, after) pair per spatial axis, or an int."""
    rank = 3

    def __init__(self, padding=((1, 1), (1, 1), (1, 1)), data_format=None, **kwargs):
        super().__init__(padding, data_format=data_format, **kwargs)


class _UpSampling(_Spatial):
    """Repeat each entry `size[i]` times along spatial axis i (nearest neighbour)."""

    def __init__(self, size, data_format=None, **kwargs):
        super().__init__(data_format=data_format, **kwargs)
        self.size = standardize_tuple(size, self.rank, "size")

    def compute_output_shape(self, input_shape):
        output, first = list(input_shape), self._first_spatial_axis()
        for i, factor in enumerate(self.size):
            if output[first + i] is not None:
                output[first + i] *= factor
        return tuple(output)

    def call(self, inputs):
        for i, factor in enumerate(self.size):
            inputs = _repeat(inputs, factor, axis=self._first_spatial_axis() + i)
        return inputs

    def get_config(self):
        config = super().get_config()
        config.update({"size": self.size, "data_format": self.data_format})
        return config


@tf_export("keras.layers.UpSampling1D")
class UpSampling1D(_UpSampling):
    """Repeat each step of (batch, steps, features) `size` times."""
    rank = 1

    def __init__(self, size=2, **kwargs):
        if not isinstance(size, int) or isinstance(size, bool):
            raise TypeError(f"Expected an integer value for `size`, got {type(size)}.")
        if size <= 0:
            raise ValueError(f"Argument `size` should be a positive integer. Received: "
                             f"size={size}")
        super().__init__(size, **kwargs)
        self.size = size

    def compute_output_shape(self, input_shape):
        steps = input_shape[1]
        return [input_shape[0], None if steps is None else steps * self.size, input_shape[2]]

    def call(self, inputs):
        return _repeat(inputs, self.size, axis=1)

    def get_config(self):
        config = super().get_config()
        del config["data_format"]
        return config


@tf_export("keras.layers.UpSampling2D")
class UpSampling2D(_UpSampling):
    """Enlarge images by `size=(rows, cols)`: copies ("nearest") or `tf.image.resize`'s
    interpolation ("bilinear", "bicubic", ...; half-pixel centres, as in Keras 3)."""
    rank = 2

    def __init__(self, size=(2, 2), data_format=None, interpolation="nearest", **kwargs):
        super().__init__(size, data_format=data_format, **kwargs)
        self.interpolation = interpolation.lower()

    def call(self, inputs):
        if self.interpolation == "nearest":
            return super().call(inputs)
        x = inputs
        if self.data_format == "channels_first":
            x = tf.transpose(x, [0, 2, 3, 1])
        shape = tf.shape(x)
        x = tf.image.resize(x, tf.stack([shape[1] * self.size[0], shape[2] * self.size[1]]),
                            method=self.interpolation)
        x = tf.cast(x, inputs.dtype)
        return tf.transpose(x, [0, 3, 1, 2]) if self.data_format == "channels_first" else x

    def get_config(self):
        config = super().get_config()
        config["interpolation"] = self.interpolation
        return config


@tf_export("keras.layers.UpSampling3D")
class UpSampling3D(_UpSampling):
    """Enlarge volumes by repeating entries `size=(d1, d2, d3)` times (nearest neighbour)."""
    rank = 3

    def __init__(self, size=(2, 2, 2), data_format=None, **kwargs):
        super().__init__(size, data_format=data_format, **kwargs)


@tf_export("keras.layers.Permute")
class Permute(Layer):
    """Reorder the non-batch axes: `dims` is a permutation of 1..rank-1 (the batch stays 0)."""

    def __init__(self, dims, **kwargs):
        super().__init__(**kwargs)
        self.dims = tuple(dims)
        if sorted(dims) != list(range(1, len(dims) + 1)):
            raise ValueError("Invalid permutation argument `dims` for Permute Layer. The set of "
                             "indices in `dims` must be consecutive and start from 1. Received "
                             f"dims={dims}. Axis 0 (the batch) never moves, so count from 1.")
        self.input_spec = InputSpec(ndim=len(self.dims) + 1)
        self.built = True

    def compute_output_shape(self, input_shape):
        return (input_shape[0],) + tuple(input_shape[d] for d in self.dims)

    def call(self, inputs):
        return tf.transpose(inputs, (0,) + self.dims)

    def get_config(self):
        config = super().get_config()
        config["dims"] = self.dims
        return config


@tf_export("keras.layers.RepeatVector")
class RepeatVector(Layer):
    """(batch, features) -> (batch, n, features): the same vector n times (e.g. to feed
    an encoder's summary to every step of a decoder RNN)."""

    def __init__(self, n, **kwargs):
        super().__init__(**kwargs)
        if not isinstance(n, int) or isinstance(n, bool):
            raise TypeError(f"Expected an integer value for `n`, got {type(n)}.")
        if n <= 0:
            raise ValueError(f"Argument `n` should be a positive integer. Received: n={n}")
        self.n = n
        self.input_spec = InputSpec(ndim=2)
        self.built = True

    def compute_output_shape(self, input_shape):
        return (input_shape[0], self.n, input_shape[1])

    def call(self, inputs):
        return _repeat(tf.expand_dims(inputs, 1), self.n, axis=1)

    def get_config(self):
        config = super().get_config()
        config["n"] = self.n
        return config
