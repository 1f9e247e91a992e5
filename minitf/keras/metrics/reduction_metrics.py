"""`Sum`, `Mean` and `MeanMetricWrapper`: the running totals most metrics are built on.

`Mean` keeps `total` and `count`; with `sample_weight` it is a weighted mean
(total += sum(w * v), count += sum(w)). `MeanMetricWrapper(fn)` averages a
per-example function such as a loss or `binary_accuracy`:

>>> import minitf as tf
>>> m = tf.keras.metrics.MeanMetricWrapper(tf.keras.losses.mae)
>>> m.update_state([[1.0], [2.0]], [[1.5], [2.0]])
>>> print(m.result().numpy())
0.25
"""
from ...framework.tensor import convert_to_tensor
from ...framework.tf_export import tf_export
from ...ops.array_ops import broadcast_to, shape
from ...ops.clip_ops import divide_no_nan
from ...ops.math_ops import cast
from ...ops.reduction_ops import reduce_mean, reduce_sum
from ..loss_functions import squeeze_or_expand_to_same_rank
from .metric import Metric


def reduce_to_samplewise_values(values, sample_weight, reduce_fn, dtype):
    """Per-sample values (and weights): extra axes are reduced with `reduce_fn`."""
    values = cast(convert_to_tensor(values), dtype)
    if sample_weight is not None:
        sample_weight = cast(convert_to_tensor(sample_weight), dtype)
        values, sample_weight = squeeze_or_expand_to_same_rank(values, sample_weight)
        weight_ndim, values_ndim = sample_weight.shape.rank, values.shape.rank
        if values_ndim > weight_ndim:
            values = reduce_fn(values, axis=list(range(weight_ndim, values_ndim)))
        if not (sample_weight.shape.is_fully_defined() and
                sample_weight.shape == values.shape):  # already the same shape: no op needed
            sample_weight = broadcast_to(sample_weight, shape(values))
        values = values * sample_weight
        if weight_ndim > 1:
            sample_weight = reduce_fn(sample_weight, axis=list(range(1, weight_ndim)))
    if values.shape.rank > 1:
        values = reduce_fn(values, axis=list(range(1, values.shape.rank)))
    return values, sample_weight


@tf_export("keras.metrics.Sum", "metrics.Sum")
class Sum(Metric):
    """The (weighted) sum of all values seen.

    >>> m = tf.keras.metrics.Sum()
    >>> m.update_state([1.0, 3.0, 5.0], sample_weight=[1.0, 0.0, 1.0])
    >>> print(m.result().numpy())
    6.0
    """

    def __init__(self, name="sum", dtype=None):
        super().__init__(name=name, dtype=dtype)
        self.total = self.add_variable(shape=(), initializer="zeros", dtype=self.dtype,
                                       name="total")

    def update_state(self, values, sample_weight=None):
        values, _ = reduce_to_samplewise_values(values, sample_weight, reduce_sum, self._dtype)
        self.total.assign_add(reduce_sum(values))

    def reset_state(self):
        self.total.assign(0.0)

    def result(self):
        return cast(self.total, self._dtype)


def _sum(values):
    """reduce_sum, skipped for a scalar (fit's loss tracker: one op fewer per step)."""
    return values if values.shape.rank == 0 else reduce_sum(values)


@tf_export("keras.metrics.Mean", "metrics.Mean")
class Mean(Metric):
    """The (weighted) mean of all values seen: total / count.

    >>> m = tf.keras.metrics.Mean()
    >>> m.update_state([1.0, 3.0, 5.0, 7.0], sample_weight=[1.0, 1.0, 0.0, 0.0])
    >>> print(m.result().numpy())
    2.0
    """

    def __init__(self, name="mean", dtype=None):
        super().__init__(name=name, dtype=dtype)
        self.total = self.add_variable(shape=(), initializer="zeros", dtype=self.dtype,
                                       name="total")
        self.count = self.add_variable(shape=(), initializer="zeros", dtype=self.dtype,
                                       name="count")

    def update_state(self, values, sample_weight=None):
        values, sample_weight = reduce_to_samplewise_values(values, sample_weight,
                                                            reduce_mean, self._dtype)
        self.total.assign_add(_sum(values))
        if sample_weight is not None:
            num_samples = _sum(sample_weight)
        elif values.shape.rank >= 1:
            num_samples = shape(values)[0]
        else:
            num_samples = 1
        self.count.assign_add(cast(num_samples, self._dtype))

    def reset_state(self):
        self.total.assign(0.0)
        self.count.assign(0.0)

    def result(self):
        return divide_no_nan(self.total, cast(self.count, self._dtype))


@tf_export("keras.metrics.MeanMetricWrapper", "metrics.MeanMetricWrapper")
class MeanMetricWrapper(Mean):
    """The running mean of `fn(y_true, y_pred, **kwargs)` over all examples seen.

    >>> acc = tf.keras.metrics.MeanMetricWrapper(tf.keras.metrics.binary_accuracy,
    ...                                          threshold=0.7)
    >>> print(acc([[1.0], [0.0]], [[0.6], [0.1]]).numpy())
    0.5
    """

    def __init__(self, fn, name=None, dtype=None, **kwargs):
        super().__init__(name=name, dtype=dtype)  # unnamed: 'mean_metric_wrapper' (Keras 3)
        self._fn = fn
        self._fn_kwargs = kwargs

    def update_state(self, y_true, y_pred, sample_weight=None):
        mask = getattr(y_pred, "_keras_mask", None)  # padded steps of a masked model
        values = self._fn(y_true, y_pred, **self._fn_kwargs)
        if mask is not None:  # Keras 3: the mask becomes (or multiplies) the weights
            mask = cast(mask, self._dtype)
            if sample_weight is None:
                sample_weight = mask
            else:
                mask, sample_weight = squeeze_or_expand_to_same_rank(
                    mask, cast(convert_to_tensor(sample_weight), self._dtype))
                sample_weight = sample_weight * mask
        return super().update_state(values, sample_weight=sample_weight)

    def get_config(self):
        config = super().get_config()
        config.update({"fn": getattr(self._fn, "__name__", None)}, **self._fn_kwargs)
        return config

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        if isinstance(config.get("fn"), str):
            from .lookup import get

            config["fn"] = get(config["fn"])
        return cls(**config)
