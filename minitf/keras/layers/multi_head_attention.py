"""`MultiHeadAttention`: scaled dot-product attention in several learned subspaces.

For each of `num_heads` heads, query/key/value are projected to `key_dim`
(values to `value_dim`) numbers per position; each head attends on its own,
and one output projection mixes the heads back to the query's size:

    q_h = query @ Wq_h + bq_h    k_h = key @ Wk_h + bk_h    v_h = value @ Wv_h + bv_h
    head_h = softmax(q_h k_h^T / sqrt(key_dim)) v_h
    output = sum_h head_h @ Wo_h + bo

>>> import minitf as tf
>>> mha = tf.keras.layers.MultiHeadAttention(num_heads=2, key_dim=3)
>>> out, scores = mha(tf.ones([2, 3, 4]), tf.ones([2, 5, 4]), return_attention_scores=True)
>>> out.shape, scores.shape                        # scores: (batch, heads, Tq, Tv)
(TensorShape([2, 3, 4]), TensorShape([2, 2, 3, 5]))
>>> mha.count_params()              # 3 * (4*2*3 + 2*3) for q, k, v + (2*3*4 + 4) for output
118

The weights are kept as plain kernels of shape (dim, heads, key_dim) and
(heads, value_dim, out); in TensorFlow they sit in four `EinsumDense`
sublayers named query, key, value and attention_output, in this order.
Only rank-3 inputs (batch, time, features) with attention over axis 1 are
supported (`attention_axes=None`). Masked positions get weight exactly 0, as
Keras's masked Softmax gives. As in TF 2.21, an explicit `query_mask`
argument has no effect (Keras reads query masks from the tensor; minitf
warns instead); `use_gate` and `sliding_window` (newest Keras) are not here.

In TensorFlow this is `keras/src/layers/attention/multi_head_attention.py`.
"""
import math
import warnings

import minitf as tf

from ...framework.tf_export import tf_export
from .. import constraints, initializers, regularizers
from ..engine.base_layer import Layer
from ..engine.keras_tensor import KerasTensor
from ..engine.masking import get_mask
from .conv_utils import KerasNamed
from .convolutional import deserialize_config, serialize_or_none


@tf_export("keras.layers.MultiHeadAttention")
class MultiHeadAttention(KerasNamed, Layer):
    """Multi-head attention (Vaswani et al., 2017), called as `mha(query, value, key=None)`."""

    _weight_keys = ("kernel_initializer", "bias_initializer", "kernel_regularizer",
                    "bias_regularizer", "kernel_constraint", "bias_constraint")

    def __init__(self, num_heads, key_dim, value_dim=None, dropout=0.0, use_bias=True,
                 output_shape=None, attention_axes=None, kernel_initializer="glorot_uniform",
                 bias_initializer="zeros", kernel_regularizer=None, bias_regularizer=None,
                 activity_regularizer=None, kernel_constraint=None, bias_constraint=None,
                 seed=None, **kwargs):
        super().__init__(activity_regularizer=activity_regularizer, **kwargs)
        self.supports_masking = True  # the output takes the query's mask
        if attention_axes not in (None, 1, (1,), [1]):
            raise NotImplementedError(
                f"attention_axes={attention_axes} is not supported by minitf: attention runs "
                "over axis 1 of (batch, time, features) inputs. Reshape to that layout.")
        self.num_heads = num_heads
        self.key_dim = key_dim
        self.value_dim = value_dim if value_dim is not None else key_dim
        self.dropout = dropout
        self.use_bias = use_bias
        self._output_shape = output_shape
        self.attention_axes = attention_axes
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.kernel_constraint = constraints.get(kernel_constraint)
        self.bias_constraint = constraints.get(bias_constraint)
        self.seed = seed
        self._projections_built = False

    # --- weights ------------------------------------------------------------------------
    def _dense(self, name, kernel_shape, bias_shape):
        kernel = self.add_weight(name="kernel", shape=kernel_shape,
                                 initializer=self.kernel_initializer,
                                 regularizer=self.kernel_regularizer,
                                 constraint=self.kernel_constraint)
        bias = self.add_weight(name="bias", shape=bias_shape, initializer=self.bias_initializer,
                               regularizer=self.bias_regularizer,
                               constraint=self.bias_constraint) if self.use_bias else None
        setattr(self, f"{name}_kernel", kernel)
        setattr(self, f"{name}_bias", bias)

    def _output_dims(self, query_shape):
        if self._output_shape is None:
            return query_shape[-1]
        dims = self._output_shape if isinstance(self._output_shape, (list, tuple)) else (
            self._output_shape,)
        if len(dims) != 1:
            raise NotImplementedError("minitf's MultiHeadAttention supports an int "
                                      f"output_shape. Received: {self._output_shape}")
        return dims[0]

    def build(self, query_shape, value_shape=None, key_shape=None):
        """Create the four projections (when the value's shape is known: at the first call)."""
        if value_shape is None or self._projections_built:
            return
        key_shape = value_shape if key_shape is None else key_shape
        heads = self.num_heads
        self._dense("query", (query_shape[-1], heads, self.key_dim), (heads, self.key_dim))
        self._dense("key", (key_shape[-1], heads, self.key_dim), (heads, self.key_dim))
        self._dense("value", (value_shape[-1], heads, self.value_dim), (heads, self.value_dim))
        out = self._output_dims(query_shape)
        self._dense("output", (heads, self.value_dim, out), (out,))
        self._projections_built = True
        self.built = True

    def _check_and_build(self, query, value, key):
        for name, t in (("query", query), ("value", value), ("key", key)):
            if t is not None and len(t.shape) != 3:
                raise ValueError(f"minitf's MultiHeadAttention takes rank-3 inputs (batch, "
                                 f"time, features); {name} has shape {tuple(t.shape)}.")
        if value is None:
            raise ValueError("MultiHeadAttention needs `value`: call it as "
                             "mha(query, value) (value is also the key unless `key` is given).")
        self.build(tuple(query.shape), tuple(value.shape),
                   None if key is None else tuple(key.shape))

    # --- computation --------------------------------------------------------------------
    def _project(self, x, name, spec):
        y = tf.einsum(spec, x, getattr(self, f"{name}_kernel"))
        bias = getattr(self, f"{name}_bias")
        return y if bias is None else y + bias

    def _attention_mask(self, query, value, key, query_mask, value_mask, key_mask,
                        attention_mask):
        """Combine the masks into one (batch, Tq, Tv) keep-mask (None: keep all).

        As in Keras 3, the padding masks the tensors carry (`_keras_mask`, from an
        `Embedding(mask_zero=True)`, say) count: a masked query step attends to
        nothing, a masked value/key step is attended by no one."""
        mask = None if attention_mask is None else tf.cast(attention_mask, query.dtype)
        if query_mask is not None:
            warnings.warn("MultiHeadAttention ignores the `query_mask` argument, as TF 2.21 "
                          "(Keras 3) does: Keras reads the query's mask from the tensor itself "
                          "(`_keras_mask`). Pass `attention_mask` of shape (batch, Tq, Tv) to "
                          "mask query rows.", stacklevel=3)
        query_mask = get_mask(query)
        if query_mask is not None:
            q = tf.expand_dims(tf.cast(query_mask, query.dtype), -1)  # (batch, Tq, 1)
            mask = q if mask is None else mask * q
        value_mask = get_mask(value) if value_mask is None else value_mask
        key_mask = get_mask(key) if key_mask is None else key_mask
        for m in (value_mask, key_mask):
            if m is not None:
                v = tf.expand_dims(tf.cast(m, query.dtype), -2)  # (batch, 1, Tv)
                mask = v if mask is None else mask * v
        return mask

    def call(self, query, value=None, key=None, query_mask=None, value_mask=None,
             key_mask=None, attention_mask=None, return_attention_scores=False, training=None,
             use_causal_mask=False):
        self._check_and_build(query, value, key)
        key = value if key is None else key
        q = self._project(query, "query", "abc,cde->abde") / math.sqrt(float(self.key_dim))
        k = self._project(key, "key", "abc,cde->abde")
        v = self._project(value, "value", "abc,cde->abde")
        scores = tf.einsum("aecd,abcd->acbe", k, q)                     # (b, heads, Tq, Tk)
        mask = self._attention_mask(query, value, key, query_mask, value_mask, key_mask,
                                    attention_mask)
        if use_causal_mask:  # query i sees keys 0..i
            causal = tf.linalg.band_part(tf.ones(tf.shape(scores)[-2:], query.dtype), -1, 0)
            causal = tf.expand_dims(causal, 0)                            # (1, Tq, Tk)
            mask = causal if mask is None else mask * causal
        if mask is not None:  # as Keras's Softmax(mask): masked weights are exactly 0
            mask = tf.expand_dims(mask, 1)                               # over the heads
            weights = tf.nn.softmax(scores - 1.0e9 * (1.0 - mask), axis=-1) * mask
        else:
            weights = tf.nn.softmax(scores, axis=-1)
        if training and self.dropout > 0:
            weights = tf.nn.dropout(weights, rate=self.dropout)
        heads = tf.einsum("acbe,aecd->acbd", weights, v)                 # (b, heads, Tq, dv)
        output = self._project(tf.transpose(heads, [0, 2, 1, 3]), "output", "abcd,cde->abe")
        return (output, weights) if return_attention_scores else output

    def compute_output_spec(self, query, value=None, key=None, return_attention_scores=False,
                            **kwargs):
        self._check_and_build(query, value, key)
        output = KerasTensor(tuple(query.shape[:-1]) + (self._output_dims(query.shape),),
                             self.compute_dtype)
        if not return_attention_scores:
            return output
        scores = (query.shape[0], self.num_heads, query.shape[1], value.shape[1])
        return output, KerasTensor(scores, self.compute_dtype)

    def compute_output_shape(self, query_shape, value_shape=None, key_shape=None):
        return tuple(query_shape[:-1]) + (self._output_dims(query_shape),)

    def get_config(self):
        config = {k: v for k, v in super().get_config().items() if k != "activity_regularizer"}
        config.update({
            "num_heads": self.num_heads, "key_dim": self.key_dim, "value_dim": self.value_dim,
            "dropout": self.dropout, "use_bias": self.use_bias,
            "output_shape": self._output_shape, "attention_axes": self.attention_axes,
            "kernel_initializer": initializers.serialize(self.kernel_initializer),
            "bias_initializer": initializers.serialize(self.bias_initializer),
            "kernel_regularizer": serialize_or_none(regularizers, self.kernel_regularizer),
            "bias_regularizer": serialize_or_none(regularizers, self.bias_regularizer),
            "activity_regularizer": serialize_or_none(regularizers, self.activity_regularizer),
            "kernel_constraint": serialize_or_none(constraints, self.kernel_constraint),
            "bias_constraint": serialize_or_none(constraints, self.bias_constraint),
            "seed": self.seed})
        return config

    @classmethod
    def from_config(cls, config):
        return cls(**deserialize_config(config, cls._weight_keys))
