"""`CategoryEncoding`: integer ids -> one-hot, multi-hot or count vectors of length `num_tokens`.

* `"one_hot"`: each id becomes its own vector (a trailing axis of size 1 is
  replaced by the vector, as for a column of ids);
* `"multi_hot"` (default): one vector per example (per row), 1 where one of
  its ids is;
* `"count"`: the same vector, counting how often each id appears (or summing
  `count_weights`, one weight per id).

>>> import numpy as np, minitf as tf
>>> tf.keras.layers.CategoryEncoding(4, output_mode="one_hot")([3, 1]).numpy()
array([[0., 0., 0., 1.],
       [0., 1., 0., 0.]], dtype=float32)
>>> tf.keras.layers.CategoryEncoding(4)(np.array([[0, 1], [2, 2]])).numpy()
array([[1., 1., 0., 0.],
       [0., 0., 1., 0.]], dtype=float32)
>>> counts = tf.keras.layers.CategoryEncoding(4, output_mode="count")
>>> counts(np.array([[0, 0]]), count_weights=np.array([[0.5, 2.0]])).numpy()
array([[2.5, 0. , 0. , 0. ]], dtype=float32)

A 1-D input is a single example for multi_hot and count (one vector out) but
a batch of ids for one_hot (one vector per id). Ids >= num_tokens are dropped
without a word, as Keras 3 does (its bincount stops at `num_tokens`); a
negative id is TF's `InvalidArgumentError` for multi_hot/count (one_hot gives
a row of zeros). In TensorFlow this is
`keras/src/layers/preprocessing/category_encoding.py`, with `tf.math.bincount`
doing the counting for inputs of rank 1 or 2.
"""
import numpy as np

import minitf as tf

from ....framework import errors
from ....framework.op import Op, apply
from ....framework.tensor_shape import TensorShape
from ....framework.tf_export import tf_export
from ...engine.keras_tensor import KerasTensor
from .data_layer import DataLayer

OUTPUT_MODES = ("count", "one_hot", "multi_hot")


# --- the op: counts of each id along the last axis (TF's DenseBincount, rank 1 or 2) ----------
def _dense_bincount(ids, weights, size, binary_output):
    if ids.size and ids.min() < 0:
        raise errors.op_error(
            errors.InvalidArgumentError, "DenseBincount", "Input arr must be non-negative!",
            "Category ids count from 0: map negative codes (e.g. a -1 'missing') to an id "
            "first, for example with IntegerLookup.")
    rows = ids.reshape(1, -1) if ids.ndim <= 1 else ids  # (only ranks 0, 1 and 2 come here)
    row_of = np.repeat(np.arange(rows.shape[0]), rows.shape[1])
    flat = rows.reshape(-1)
    keep = flat < size  # ids past the end are dropped (bincount's maxlength)
    out = np.zeros((rows.shape[0], size), weights.dtype)  # (empty weights: just the dtype)
    values = 1 if weights.size == 0 else weights.reshape(-1)[keep]
    np.add.at(out, (row_of[keep], flat[keep]), values)
    if binary_output:
        out = (out > 0).astype(out.dtype)
    return out.reshape((size,) if ids.ndim <= 1 else (ids.shape[0], size))


def _bincount_shape(ids, weights, size, binary_output):
    if ids.rank is None:
        return TensorShape(None)
    return TensorShape([size] if ids.rank <= 1 else [ids.as_list()[0], size])


DenseBincount = Op("DenseBincount", _dense_bincount, typed=(1,), shape=_bincount_shape,
                   dtype=lambda ids, weights, **_: weights)


def dense_bincount(ids, size, binary_output, count_weights=None, dtype="float32"):
    """How often each id in [0, size) appears in each row (1 or 0 with `binary_output`)."""
    ids = tf.cast(ids, "int64")
    weights = tf.zeros([0], dtype) if count_weights is None else count_weights
    return apply(DenseBincount, [ids, weights], {"size": int(size),
                                                 "binary_output": bool(binary_output)})


def encode_categorical_inputs(inputs, output_mode, depth, dtype, count_weights=None):
    """Ids -> "int" (cast), "one_hot", "multi_hot" or "count" vectors of length `depth`.

    Shared by CategoryEncoding, Discretization, Hashing and HashedCrossing, as
    Keras's `numerical_utils.encode_categorical_inputs` is.
    """
    inputs = tf.convert_to_tensor(inputs)
    if output_mode == "int":
        return tf.cast(inputs, dtype)
    if inputs.shape.rank == 0:
        inputs = tf.expand_dims(inputs, -1)
    rank = inputs.shape.rank
    if output_mode == "one_hot":
        if rank > 1 and inputs.shape[-1] == 1:
            inputs = tf.squeeze(inputs, -1)
        return tf.one_hot(tf.cast(inputs, "int64"), depth, dtype=dtype)
    if rank <= 2:
        return dense_bincount(inputs, depth, output_mode == "multi_hot", count_weights, dtype)
    # rank 3 and more: one-hot, then reduce over axis 1 (as Keras's fallback does)
    hot = tf.one_hot(tf.cast(inputs, "int64"), depth, dtype=dtype)
    if output_mode == "multi_hot":
        return tf.reduce_max(hot, axis=1)
    if count_weights is not None:
        hot = hot * tf.expand_dims(count_weights, -1)
    return tf.reduce_sum(hot, axis=1)


# --- the layer --------------------------------------------------------------------------------
@tf_export("keras.layers.CategoryEncoding")
class CategoryEncoding(DataLayer):
    """Encode integer ids as one-hot, multi-hot or count vectors of length `num_tokens`."""

    def __init__(self, num_tokens=None, output_mode="multi_hot", sparse=False, **kwargs):
        super().__init__(**kwargs)
        if output_mode == "binary":  # Keras's old name
            output_mode = "multi_hot"
        if output_mode not in OUTPUT_MODES:
            raise ValueError(f"Unknown arg for output_mode: {output_mode}")
        if num_tokens is None:
            raise ValueError("num_tokens must be set to use this layer. If the number of tokens "
                             "is not known beforehand, use the IntegerLookup layer instead.")
        if num_tokens < 1:
            raise ValueError(f"`num_tokens` must be >= 1. Received: num_tokens={num_tokens}.")
        self.num_tokens = num_tokens
        self.output_mode = output_mode
        self.sparse = sparse
        if sparse:
            raise NotImplementedError(
                "CategoryEncoding(sparse=True) returns a tf.SparseTensor in Keras; minitf's "
                "SparseTensor cannot leave a model or Dataset.map yet, so only sparse=False "
                "is supported. The dense output holds the same numbers.")

    def call(self, inputs, count_weights=None):
        if count_weights is not None:
            if self.output_mode != "count":
                raise ValueError("`count_weights` is not used when `output_mode` is not "
                                 f"`'count'`. Received `count_weights={count_weights}`.")
            count_weights = tf.cast(count_weights, self.compute_dtype)
        return encode_categorical_inputs(inputs, self.output_mode, self.num_tokens,
                                         self.compute_dtype, count_weights)

    def compute_output_shape(self, input_shape):
        input_shape = tuple(input_shape)
        if len(input_shape) == 0:
            return (self.num_tokens,)
        if self.output_mode == "one_hot" and (input_shape[-1] != 1 or len(input_shape) == 1):
            return input_shape + (self.num_tokens,)
        return input_shape[:-1] + (self.num_tokens,)

    def compute_output_spec(self, inputs, count_weights=None):
        return KerasTensor(self.compute_output_shape(inputs.shape), self.compute_dtype)

    def get_config(self):
        config = super().get_config()
        config.update({"num_tokens": self.num_tokens, "output_mode": self.output_mode})
        return config

