"""`Normalization`: `(x - mean) / sqrt(variance)`, with the mean and variance measured by `adapt`.

Unlike `BatchNormalization`, nothing here is trained: `adapt(data)` reads
the data once and stores the mean and variance of each feature as
non-trainable weights (`mean`, `variance`, and a `count` Keras keeps for old
files). `axis` names the axes that keep their own statistics (default: the
last, one mean per feature); every other axis is averaged over. `axis=None`
gives one mean and one variance for everything.

>>> import numpy as np, minitf as tf
>>> layer = tf.keras.layers.Normalization()
>>> layer.adapt(np.array([[0., 7.], [2., 9.]]))        # means 1 and 8, variances 1 and 1
>>> layer(np.array([[0., 7.], [3., 8.]])).numpy()
array([[-1., -1.],
       [ 2.,  0.]], dtype=float32)
>>> [(w.name, tuple(w.shape)) for w in layer.weights], layer.count_params()
([('mean', (2,)), ('variance', (2,)), ('count', ())], 5)

A dataset (or any iterable of batches) is read batch by batch, merging the
running statistics as Keras does (the "lack-of-fit" formula)::

    new_mean = mean * (1 - w) + batch_mean * w            w = batch_count / total_count
    new_var  = (var + (mean - new_mean)**2) * (1 - w) + (batch_var + (batch_mean - new_mean)**2) * w

In TensorFlow this is `keras/src/layers/preprocessing/normalization.py`.
Calling the layer before `adapt` is allowed there too: it then divides by
sqrt(1) and subtracts 0, so the inputs come back unchanged.
"""
import itertools
import math

import numpy as np

import minitf as tf

from ....framework.tensor import Tensor
from ....framework.tf_export import tf_export
from .data_layer import DataLayer

EPSILON = 1e-7  # keras.backend.epsilon(): the smallest standard deviation divided by


def _first_of(batch):
    """The features of an (x, y) or (x, y, sample_weight) batch."""
    return batch[0] if isinstance(batch, tuple) else batch


@tf_export("keras.layers.Normalization")
class Normalization(DataLayer):
    """Shift and scale each feature to mean 0 and variance 1 (statistics from `adapt`)."""

    def __init__(self, axis=-1, mean=None, variance=None, invert=False, **kwargs):
        super().__init__(**kwargs)
        if axis is None:
            axis = ()
        elif isinstance(axis, int):
            axis = (axis,)
        else:
            axis = tuple(axis)
        self.axis = axis
        self.input_mean, self.input_variance = mean, variance
        self.invert = invert
        self.supports_masking = True
        self._build_input_shape = None
        self._fixed = None  # (mean, variance) broadcast tensors when given to the constructor
        if (mean is not None) != (variance is not None):
            raise ValueError("When setting values directly, both `mean` and `variance` must "
                             f"be set. Received: mean={mean} and variance={variance}")
        if mean is not None:
            if np.shape(mean) != np.shape(variance):
                raise ValueError(
                    "When setting values directly, `mean` and `variance` must have the same "
                    f"shape. Received: mean shape {np.shape(mean)} and variance shape "
                    f"{np.shape(variance)}")
            if len(np.shape(mean)) > len(self.axis):
                raise ValueError(
                    "The rank of `mean` must be less than or equal to the number of axes "
                    f"({len(self.axis)}). Received: mean shape {np.shape(mean)} for axis "
                    f"{self.axis}")

    # --- building: which axes keep statistics ------------------------------------------------
    def build(self, input_shape):
        input_shape = tuple(input_shape)
        ndim = len(input_shape)
        self._build_input_shape = input_shape
        self._build_shapes_dict = {"input_shape": input_shape}
        if any(a < -ndim or a >= ndim for a in self.axis):
            raise ValueError("All `axis` values must be in the range [-ndim, ndim). Received "
                             f"inputs with ndim={ndim}, while axis={self.axis}")
        self._keep_axis = tuple(sorted(a % ndim for a in self.axis))
        for d in self._keep_axis:
            if input_shape[d] is None:
                raise ValueError(
                    "All `axis` values to be kept must have a known shape. Received "
                    f"axis={self.axis}, inputs.shape={input_shape}, with unknown axis at "
                    f"index {d}")
        self._reduce_axis = tuple(d for d in range(ndim) if d not in self._keep_axis)
        self._broadcast_shape = [input_shape[d] if d in self._keep_axis else 1
                                 for d in range(ndim)]
        self._mean_and_var_shape = tuple(input_shape[d] for d in self._keep_axis)
        if self.input_mean is None:
            self.adapt_mean = self.add_weight(name="mean", shape=self._mean_and_var_shape,
                                              initializer="zeros", trainable=False)
            self.adapt_variance = self.add_weight(name="variance",
                                                  shape=self._mean_and_var_shape,
                                                  initializer="ones", trainable=False)
            self.count = self.add_weight(name="count", shape=(), dtype="int64",
                                         initializer="zeros", trainable=False)
        else:
            self._fixed = (self._broadcast_given(self.input_mean),
                           self._broadcast_given(self.input_variance))
        self.built = True

    def _broadcast_given(self, value):
        """A constructor's mean/variance lined up with the kept axes (from the right)."""
        value = np.asarray(value, dtype=np.float64)
        expanded = [1] * len(self._broadcast_shape)
        for i in range(1, value.ndim + 1):
            expanded[self._keep_axis[-i]] = value.shape[-i]
        value = np.broadcast_to(value.reshape(expanded), self._broadcast_shape)
        return tf.constant(value.astype(self.compute_dtype))

    @property
    def mean(self):
        """The mean as the layer uses it: shaped to broadcast against the inputs."""
        if not self.built:
            return None
        if self._fixed is not None:
            return self._fixed[0]
        return tf.cast(tf.reshape(self.adapt_mean, self._broadcast_shape), self.compute_dtype)

    @property
    def variance(self):
        """The variance, shaped like `mean`."""
        if not self.built:
            return None
        if self._fixed is not None:
            return self._fixed[1]
        return tf.cast(tf.reshape(self.adapt_variance, self._broadcast_shape),
                       self.compute_dtype)

    # --- adapt: measure the data ----------------------------------------------------------------
    def adapt(self, data):
        """Compute the mean and variance of `data` (an array, a tensor, a `tf.data.Dataset`
        or an iterable of batches) and store them in the layer's weights."""
        data, input_shape, streamed = self._adapt_source(data)
        if not self.built:
            self.build(input_shape)
        else:
            for d in self._keep_axis:
                if input_shape[d] != self._build_input_shape[d]:
                    raise ValueError(
                        f"The layer was built with input_shape={self._build_input_shape}, but "
                        "adapt() is being called with data with an incompatible shape, "
                        f"data.shape={input_shape}")
        if self.input_mean is not None:
            raise ValueError("adapt() measures the mean and variance, but this layer was given "
                             "`mean` and `variance` in its constructor. Create it without "
                             "them to adapt it to data.")
        if streamed:
            mean, variance = self._streamed_moments(data)
        else:
            values = np.asarray(data.numpy() if hasattr(data, "numpy") else data)
            mean = np.mean(values, axis=self._reduce_axis)
            variance = np.var(values, axis=self._reduce_axis)
        self.adapt_mean.assign(np.asarray(mean, dtype=np.float32))
        self.adapt_variance.assign(np.asarray(variance, dtype=np.float32))

    def _adapt_source(self, data):
        """(data, input shape, whether it comes in batches) for the kinds adapt accepts."""
        if isinstance(data, (np.ndarray, Tensor)):
            return data, tuple(data.shape), False
        if isinstance(data, tf.data.Dataset):
            spec = _first_of(data.element_spec)
            if len(spec.shape) == 1:  # a dataset of single values: Keras batches it by 128
                data = data.batch(128)
                spec = _first_of(data.element_spec)
            return data, tuple(spec.shape), True
        if hasattr(data, "__iter__"):
            iterator = iter(data)
            first = next(iterator, None)
            if first is None:
                raise ValueError(
                    "adapt() received an empty iterable (no batches). Expected at least one "
                    "batch. Pass a non-empty iterable of arrays or tensors, e.g. "
                    "layer.adapt([x]) or layer.adapt(list_of_batches).")
            first = _first_of(first)
            if getattr(first, "shape", None) is None:
                raise TypeError(
                    "adapt() expects an iterable that yields arrays or tensors with a `.shape` "
                    "attribute (e.g. numpy arrays or backend tensors). Got an element of type "
                    f"{type(first).__name__}. Ensure each yielded element is array-like with "
                    "a `.shape` attribute.")
            return itertools.chain([first], iterator), tuple(first.shape), True
        raise TypeError(f"Unsupported data type: {type(data)}. `adapt` supports `np.ndarray`, "
                        "backend tensors, `tf.data.Dataset`, `keras.utils.PyDataset`, and "
                        "iterables of batches (e.g. list, generator).")

    def _streamed_moments(self, batches):
        """Merge each batch's mean and variance into running totals (Keras's formula)."""
        total_mean = np.zeros(self._mean_and_var_shape, np.float32)
        total_var = np.zeros(self._mean_and_var_shape, np.float32)
        total_count = 0
        for batch in batches:
            batch = _first_of(batch)
            batch = np.asarray(batch.numpy() if hasattr(batch, "numpy") else batch, np.float32)
            for d in self._keep_axis:
                if batch.shape[d] != self._build_input_shape[d]:
                    raise ValueError("adapt() yielded a batch with incompatible shape. "
                                     f"Expected {self._build_input_shape}, got "
                                     f"{tuple(batch.shape)}.")
            batch_mean = np.mean(batch, axis=self._reduce_axis)
            batch_var = np.var(batch, axis=self._reduce_axis)
            batch_count = math.prod(batch.shape[d] for d in self._reduce_axis)
            total_count += batch_count
            weight = np.float32(batch_count / total_count)
            new_mean = total_mean * (1 - weight) + batch_mean * weight
            total_var = ((total_var + (total_mean - new_mean) ** 2) * (1 - weight)
                         + (batch_var + (batch_mean - new_mean) ** 2) * weight)
            total_mean = new_mean
        return total_mean, total_var

    # --- call -----------------------------------------------------------------------------
    def call(self, inputs):
        inputs = tf.cast(inputs, self.compute_dtype)
        std = tf.maximum(tf.sqrt(self.variance), tf.constant(EPSILON, self.compute_dtype))
        if self.invert:
            return self.mean + inputs * std
        return (inputs - self.mean) / std

    def compute_output_shape(self, input_shape):
        return tuple(input_shape)

    def get_config(self):
        config = super().get_config()
        config.update({"axis": self.axis, "invert": self.invert,
                       "mean": np.array(self.input_mean).tolist(),
                       "variance": np.array(self.input_variance).tolist()})
        return config
