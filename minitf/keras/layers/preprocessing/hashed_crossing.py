"""`HashedCrossing`: a pair (or more) of categorical features -> one hashed "cross" id.

Crossing makes one category per *combination*: ("paris", 2) and ("paris", 3)
get different ids, so a linear model can learn that the combination matters.
Each row's values are combined with FarmHash as TF's `tf.sparse.cross_hashed`
does: `h = FingerprintCat64(h, hash(value))` for each feature in turn (a
string's hash is `Fingerprint64`, an integer is its own hash), then
`h % num_bins`.

>>> import numpy as np, minitf as tf
>>> cross = tf.keras.layers.HashedCrossing(num_bins=5)
>>> cross((np.array([1, 2, 3]), np.array(["A", "B", "C"]))).numpy()
array([2, 3, 3])

Inputs are integer or string tensors of equal shape `()`, `(batch,)` or
`(batch, 1)`; `output_mode="one_hot"` one-hot encodes the ids. In TensorFlow
this is `keras/src/layers/preprocessing/hashed_crossing.py`.
"""
import minitf as tf

from ....feature_column import feature_ops
from ....framework.tensor import Tensor
from ....framework.tf_export import tf_export
from ...engine.base_layer import Layer
from ...engine.keras_tensor import KerasTensor
from .category_encoding import encode_categorical_inputs

OUTPUT_MODES = ("int", "one_hot")


@tf_export("keras.layers.HashedCrossing")
class HashedCrossing(Layer):
    """Hash the combination of two or more categorical features into `num_bins` buckets."""

    _allow_non_tensor_positional_args = True  # raw data (lists, strings) in, as Keras 3

    def __init__(self, num_bins, output_mode="int", sparse=False, name=None, dtype=None,
                 **kwargs):
        if output_mode == "int" and dtype is None:
            dtype = "int64"
        kwargs.pop("trainable", None)  # (Keras's config has none; accepted from other files)
        super().__init__(name=name, dtype=dtype, **kwargs)
        if output_mode not in OUTPUT_MODES:
            raise ValueError("Unknown value for `output_mode` argument of HashedCrossing. "
                             f"Allowed values are: {OUTPUT_MODES}. Received: "
                             f"output_mode={output_mode}")
        if sparse:
            raise NotImplementedError("HashedCrossing(sparse=True) returns a tf.SparseTensor "
                                      "in Keras; minitf supports sparse=False only.")
        self.num_bins, self.output_mode, self.sparse = num_bins, output_mode, sparse

    def _convert_input(self, x):
        if x is None or isinstance(x, (KerasTensor, Tensor)):
            return x
        return tf.convert_to_tensor(x)

    def __call__(self, inputs, **kwargs):
        if not isinstance(inputs, (list, tuple)):
            raise ValueError("`HashedCrossing` should be called on a list or tuple of inputs. "
                             f"Received: inputs={inputs}")
        return super().__call__(tuple(inputs), **kwargs)

    def call(self, inputs):
        if len(inputs) < 2:
            raise ValueError("`HashedCrossing` should be called on at least two inputs. "
                             f"Received: inputs={inputs}")
        inputs = [tf.convert_to_tensor(x) for x in inputs]
        _check_input_shape_and_type(inputs)
        rank = inputs[0].shape.rank
        columns = [tf.reshape(x, [-1, 1]) for x in inputs]  # cross_hashed works on rows
        crossed = feature_ops.cross_hashed(columns, self.num_bins)
        shape = {0: [], 1: [-1], 2: [-1, 1]}[rank]
        outputs = tf.reshape(crossed, shape)
        return encode_categorical_inputs(outputs, self.output_mode, self.num_bins,
                                         self.compute_dtype)

    def compute_output_shape(self, input_shape):
        first = tuple(input_shape[0])
        if self.output_mode == "int":
            return first
        if first and first[-1] != 1:
            return first + (self.num_bins,)
        return first[:-1] + (self.num_bins,)

    def compute_output_spec(self, inputs):
        first = inputs[0]
        if len(inputs) < 2 or any(tuple(x.shape) != tuple(first.shape) for x in inputs):
            raise ValueError("Expected the input tensors to have identical shapes. Received "
                             f"input_shape={[tuple(x.shape) for x in inputs]}")
        return KerasTensor(self.compute_output_shape([x.shape for x in inputs]),
                           self.compute_dtype)

    def get_config(self):
        return {"num_bins": self.num_bins, "output_mode": self.output_mode,
                "sparse": self.sparse, "name": self.name, "dtype": self.dtype}


def _check_input_shape_and_type(inputs):
    first_shape = tuple(inputs[0].shape)
    rank = len(first_shape)
    if rank > 2 or (rank == 2 and first_shape[-1] != 1):
        raise ValueError("All `HashedCrossing` inputs should have shape `()`, `(batch_size)` "
                         f"or `(batch_size, 1)`. Received: inputs={inputs}")
    if not all(tuple(x.shape) == first_shape for x in inputs[1:]):
        raise ValueError("All `HashedCrossing` inputs should have equal shape. Received: "
                         f"inputs={inputs}")
    if not all(x.dtype.is_integer or x.dtype == tf.string for x in inputs):
        raise ValueError("All `HashedCrossing` inputs should have an integer or string dtype. "
                         f"Received: inputs={inputs}")
