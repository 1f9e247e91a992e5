"""`Hashing`: strings or integers -> bucket ids in `[0, num_bins)`, without a vocabulary.

Each value is written as text (an integer 42 as "42"; a float is truncated to
an integer first) and hashed: FarmHash `Fingerprint64(text) % num_bins`
(`tf.strings.to_hash_bucket_fast`), or with `salt`, keyed SipHash
(`tf.strings.to_hash_bucket_strong`, key `[salt, salt]` for one integer).
The same value always gets the same bucket; different values may share one.

>>> import numpy as np, minitf as tf
>>> tf.keras.layers.Hashing(num_bins=3)([["A"], ["B"], ["C"], ["D"], ["E"]]).numpy().ravel()
array([1, 0, 1, 1, 2])

With `mask_value`, that value gets bucket 0 and the others share buckets
1 .. num_bins-1:

>>> tf.keras.layers.Hashing(3, mask_value="")([["A"], [""], ["C"]]).numpy().ravel()
array([1, 0, 2])

`output_mode` "one_hot", "multi_hot" or "count" encodes the bucket ids as
CategoryEncoding does (float32); "int" (default) returns them as int64. In
TensorFlow this is `keras/src/layers/preprocessing/hashing.py`.
"""
import minitf as tf

from ....framework.tf_export import tf_export
from ...engine.keras_tensor import KerasTensor
from .category_encoding import encode_categorical_inputs
from .data_layer import DataLayer

OUTPUT_MODES = ("int", "one_hot", "multi_hot", "count")


def hash_values_to_bins(values, num_bins, mask_value=None, salt=None):
    """Bucket ids (int64) for a tensor of strings or numbers, as Keras's Hashing computes."""
    mask = None
    if mask_value is not None and num_bins > 1:
        num_bins -= 1
        mask = tf.equal(values, mask_value)
    if values.dtype.is_floating:
        values = tf.cast(values, "int64")
    if values.dtype != tf.string:
        values = tf.strings.as_string(values)
    if salt is not None:
        values = tf.strings.to_hash_bucket_strong(values, num_bins, key=salt)
    else:
        values = tf.strings.to_hash_bucket_fast(values, num_bins)
    if mask is not None:
        values = tf.where(mask, tf.zeros_like(values), values + 1)
    return values


@tf_export("keras.layers.Hashing")
class Hashing(DataLayer):
    """Hash strings or integers into `num_bins` buckets."""

    def __init__(self, num_bins, mask_value=None, salt=None, output_mode="int", sparse=False,
                 **kwargs):
        if kwargs.get("dtype") is None:
            kwargs["dtype"] = "int64" if output_mode == "int" else "float32"
        super().__init__(**kwargs)
        if num_bins is None or num_bins <= 0:
            raise ValueError("The `num_bins` for `Hashing` cannot be `None` or non-positive "
                             f"values. Received: num_bins={num_bins}.")
        if output_mode == "int" and self.dtype_policy.name not in ("int32", "int64"):
            raise ValueError('When `output_mode="int"`, `dtype` should be an integer type, '
                             f"'int32' or 'in64'. Received: dtype={kwargs['dtype']}")
        if output_mode not in OUTPUT_MODES:
            raise ValueError("Invalid value for argument `output_mode`. Expected one of "
                             f"{OUTPUT_MODES}. Received: output_mode={output_mode}")
        if sparse and output_mode == "int":
            raise ValueError('`sparse` may only be true if `output_mode` is `"one_hot"`, '
                             f'`"multi_hot"`, or `"count"`. Received: sparse={sparse} and '
                             f"output_mode={output_mode}")
        if sparse:
            raise NotImplementedError("Hashing(sparse=True) returns a tf.SparseTensor in "
                                      "Keras; minitf supports sparse=False only.")
        self.num_bins, self.mask_value = num_bins, mask_value
        self.strong_hash = salt is not None
        self.output_mode, self.sparse = output_mode, sparse
        self.salt = None
        if salt is not None:
            if isinstance(salt, (tuple, list)) and len(salt) == 2:
                self.salt = list(salt)
            elif isinstance(salt, int):
                self.salt = [salt, salt]
            else:
                raise ValueError("The `salt` argument for `Hashing` can only be a tuple of size "
                                 f"2 integers, or a single integer. Received: salt={salt}.")

    def call(self, inputs):
        inputs = tf.convert_to_tensor(inputs)
        if self.output_mode == "one_hot" and inputs.shape.rank and inputs.shape[-1] == 1:
            inputs = tf.squeeze(inputs, -1)
        indices = hash_values_to_bins(inputs, self.num_bins, self.mask_value, self.salt)
        return encode_categorical_inputs(indices, self.output_mode, self.num_bins,
                                         self.compute_dtype)

    def compute_output_spec(self, inputs):
        shape = tuple(inputs.shape)
        if self.output_mode != "int":
            shape = shape[:-1] + (self.num_bins,)
        return KerasTensor(shape, self.compute_dtype)

    def compute_output_shape(self, input_shape):
        if self.output_mode == "int":
            return tuple(input_shape)
        return tuple(input_shape)[:-1] + (self.num_bins,)

    def get_config(self):
        config = super().get_config()
        config.update({"num_bins": self.num_bins, "salt": self.salt,
                       "mask_value": self.mask_value, "output_mode": self.output_mode,
                       "sparse": self.sparse})
        return config
