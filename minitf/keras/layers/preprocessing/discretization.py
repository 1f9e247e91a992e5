"""`Discretization`: numbers -> the index of the bin they fall in (bucketizing).

With `bin_boundaries=[b0, b1, ...]` the bins are `(-inf, b0)`, `[b0, b1)`,
..., `[b_last, inf)`, numbered 0, 1, ...; `output_mode` then encodes those
ids as CategoryEncoding does ("int" keeps them, as int32).

>>> import numpy as np, minitf as tf
>>> layer = tf.keras.layers.Discretization(bin_boundaries=[0., 1., 2.])
>>> layer(np.array([[-1.5, 1.0, 3.4, 0.5]])).numpy()
array([[0, 2, 3, 1]], dtype=int32)

`adapt(data)` with `num_bins=n` finds `n - 1` boundaries that split the data
into `n` bins of about equal counts (quantiles). Keras estimates them with a
small summary that can be merged batch by batch: each batch is sorted and
thinned to about `1 / epsilon` values with weights (`summarize`), merged with
the summary so far (`merge_summaries`), and the boundaries are read off the
cumulative weights by linear interpolation (`compress_summary`). This file
runs the same steps, so the boundaries are Keras's to the last bit:

>>> quartiles = tf.keras.layers.Discretization(num_bins=4)
>>> quartiles.adapt(np.arange(1., 9.))     # 1..8: a quarter of the data is <= 2, a half <= 4
>>> quartiles.bin_boundaries
[2.0, 4.0, 6.0]

The boundaries are part of the layer's config (it has no weights), so a saved
model keeps them. In TensorFlow this is
`keras/src/layers/preprocessing/discretization.py`, calling the `Bucketize` op.
"""
import numpy as np

import minitf as tf

from ....framework import dtypes
from ....framework.op import Op, apply
from ....framework.tensor import Tensor
from ....framework.tf_export import tf_export
from ...engine.keras_tensor import KerasTensor
from .category_encoding import encode_categorical_inputs
from .data_layer import DataLayer

OUTPUT_MODES = ("int", "one_hot", "multi_hot", "count")


# --- the op: bin index of each value --------------------------------------------------------------
def _bucketize(x, boundaries):
    edges = np.asarray(boundaries, dtype=np.float32)  # TF keeps the attribute as float32
    return np.searchsorted(edges, x, side="right").astype(np.int32)


Bucketize = Op("Bucketize", _bucketize, shape=lambda s, **_: s, dtype=dtypes.int32)


def bucketize(x, boundaries):
    """The bin of each value: `i` with `boundaries[i-1] <= x < boundaries[i]` (int32)."""
    return apply(Bucketize, [x], {"boundaries": tuple(float(b) for b in boundaries)})


# --- the quantile summary (Keras's, step by step) --------------------------------------------------
def summarize(values, epsilon):
    """Sort the values and keep about 1/epsilon of them, each weighing the values it stands for."""
    values = np.sort(np.reshape(values, [-1]))
    step = max(values.size / (1.0 / epsilon), 1)
    boundaries = values[int(step - 1)::int(step)]
    return np.stack([boundaries, np.ones_like(boundaries) * step])


def merge_summaries(prev_summary, next_summary, epsilon):
    """Put two summaries' values together in order, then compress."""
    merged = np.concatenate((prev_summary, next_summary), axis=1)
    merged = np.take(merged, np.argsort(merged[0]), axis=1)
    return compress_summary(merged, epsilon)


def compress_summary(summary, epsilon):
    """Resample a summary at cumulative-weight fractions epsilon, 2*epsilon, ..., 1."""
    if summary.shape[1] * epsilon < 1:
        return summary
    percents = epsilon + np.arange(0.0, 1.0, epsilon)
    cum_weights = summary[1].cumsum()
    cum_weight_percents = cum_weights / cum_weights[-1]
    new_bins = np.interp(percents, cum_weight_percents, summary[0])
    cum_weights = np.interp(percents, cum_weight_percents, cum_weights)
    new_weights = cum_weights - np.concatenate((np.array([0]), cum_weights[:-1]))
    return np.stack((new_bins, new_weights)).astype("float32")


def get_bin_boundaries(summary, num_bins):
    return compress_summary(summary, 1.0 / num_bins)[0, :-1]


# --- the layer ------------------------------------------------------------------------------------
@tf_export("keras.layers.Discretization")
class Discretization(DataLayer):
    """Bucketize numbers by `bin_boundaries`, given or found by `adapt` (quantiles)."""

    def __init__(self, bin_boundaries=None, num_bins=None, epsilon=0.01, output_mode="int",
                 sparse=False, dtype=None, name=None):
        super().__init__(name=name, dtype=dtype)
        if sparse and output_mode == "int":
            raise ValueError("`sparse=True` may only be used if `output_mode` is `'one_hot'`, "
                             f"`'multi_hot'`, or `'count'`. Received: sparse={sparse} and "
                             f"output_mode={output_mode}")
        if sparse:
            raise NotImplementedError(
                "Discretization(sparse=True) returns a tf.SparseTensor in Keras; minitf "
                "supports sparse=False only (the same numbers, dense).")
        if output_mode not in OUTPUT_MODES:
            raise ValueError("Unknown value for `output_mode` argument of Discretization. "
                             f"Allowed values are: {OUTPUT_MODES}. Received: "
                             f"output_mode={output_mode}")
        if num_bins is not None and num_bins < 0:
            raise ValueError("`num_bins` must be greater than or equal to 0. Received: "
                             f"`num_bins={num_bins}`")
        if num_bins is not None and bin_boundaries is not None:
            raise ValueError("Both `num_bins` and `bin_boundaries` should not be set. "
                             f"Received: `num_bins={num_bins}` and "
                             f"`bin_boundaries={bin_boundaries}`")
        if num_bins is None and bin_boundaries is None:
            raise ValueError("You need to set either `num_bins` or `bin_boundaries`.")
        self.bin_boundaries = bin_boundaries
        self.num_bins, self.epsilon = num_bins, epsilon
        self.output_mode, self.sparse = output_mode, sparse
        self.summary = None if bin_boundaries else np.array([[], []], dtype="float32")

    @property
    def output_dtype(self):
        return self.compute_dtype if self.output_mode != "int" else "int32"

    def adapt(self, data, steps=None):
        """Estimate `num_bins` quantile bins from `data` (an array, a tensor, a batched
        `tf.data.Dataset` or an iterable of batches; `steps` batches at most)."""
        if self.num_bins is None:
            raise ValueError("Cannot adapt a Discretization layer that has been initialized "
                             "with `bin_boundaries`, use `num_bins` instead.")
        self.summary = np.array([[], []], dtype="float32")
        if isinstance(data, tf.data.Dataset):
            batches = data.take(steps) if steps is not None else data
        elif hasattr(data, "__iter__") and not isinstance(data, np.ndarray) \
                and not isinstance(data, Tensor):
            batches = data
        else:
            batches = [data]
        for i, batch in enumerate(batches):
            if steps is not None and i >= steps:
                break
            self.update_state(batch)
        self.bin_boundaries = get_bin_boundaries(self.summary, self.num_bins).tolist()

    def update_state(self, data):
        data = np.array(data.numpy() if hasattr(data, "numpy") else data).astype("float32")
        self.summary = merge_summaries(summarize(data, self.epsilon), self.summary,
                                       self.epsilon)

    def call(self, inputs):
        if self.bin_boundaries is None:
            raise ValueError("You need to either pass the `bin_boundaries` argument at "
                             "construction time or call `adapt(dataset)` before you can start "
                             "using the `Discretization` layer.")
        inputs = tf.convert_to_tensor(inputs)
        if inputs.dtype.is_floating:  # Keras casts float inputs to the layer's dtype first
            inputs = tf.cast(inputs, self.compute_dtype)
        indices = bucketize(inputs, self.bin_boundaries)
        return encode_categorical_inputs(indices, self.output_mode,
                                         len(self.bin_boundaries) + 1, self.output_dtype)

    def _depth(self):
        if self.bin_boundaries is not None:
            return len(self.bin_boundaries) + 1
        return self.num_bins

    def compute_output_shape(self, input_shape):
        input_shape = tuple(input_shape)
        if self.output_mode == "int":
            return input_shape
        if self.output_mode == "one_hot":
            if input_shape and input_shape[-1] == 1 and len(input_shape) > 1:
                return input_shape[:-1] + (self._depth(),)
            return input_shape + (self._depth(),)
        if len(input_shape) >= 2:
            return (input_shape[0],) + input_shape[2:] + (self._depth(),)
        return (self._depth(),)

    def compute_output_spec(self, inputs):
        return KerasTensor(self.compute_output_shape(inputs.shape), self.output_dtype)

    def get_config(self):
        return {"bin_boundaries": self.bin_boundaries, "num_bins": self.num_bins,
                "epsilon": self.epsilon, "output_mode": self.output_mode,
                "sparse": self.sparse, "name": self.name, "dtype": self.dtype}

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        config.pop("trainable", None)
        if config.get("bin_boundaries") is not None and config.get("num_bins") is not None:
            # an adapted layer: both are set, which the constructor refuses
            boundaries = config.pop("bin_boundaries")
            layer = cls(**config)
            layer.bin_boundaries = boundaries
            return layer
        return cls(**config)
