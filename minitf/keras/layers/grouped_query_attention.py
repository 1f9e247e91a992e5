"""`GroupedQueryAttention` (tf.keras.layers.GroupQueryAttention): attention in which several
query heads share one key/value head (Ainslie et al., 2023).

With `num_query_heads` = 4 and `num_key_value_heads` = 2, query heads 0 and 1 read
key/value head 0, heads 2 and 3 read head 1: fewer key/value projections (and a
smaller key/value cache when generating text), nearly the quality of full
multi-head attention. num_key_value_heads = 1 is multi-query attention,
num_key_value_heads = num_query_heads is ordinary multi-head attention.

    q = query @ Wq  (b, Tq, Hq, d)    k, v = key @ Wk, value @ Wv  (b, Tk, Hkv, d)
    k, v = each kv head repeated Hq / Hkv times                   (b, Tk, Hq, d)
    output = concat_h(softmax(q_h k_h^T / sqrt(d)) v_h) @ Wo      (b, Tq, features)

>>> import minitf as tf
>>> gqa = tf.keras.layers.GroupQueryAttention(head_dim=2, num_query_heads=4,
...                                           num_key_value_heads=2)
>>> out, scores = gqa(tf.ones([1, 3, 5]), tf.ones([1, 6, 5]), return_attention_scores=True)
>>> out.shape, scores.shape                      # scores: (batch, query heads, Tq, Tk)
(TensorShape([1, 3, 5]), TensorShape([1, 4, 3, 6]))
>>> [w.path for w in gqa.weights][:2]
['grouped_query_attention/query/kernel', 'grouped_query_attention/query/bias']

The projections are `EinsumDense` sublayers named query, key, (gate,) value and
attention_output, as in Keras, so `.keras` files are interchangeable. In Keras this
is `keras/src/layers/attention/grouped_query_attention.py` (minitf has no flash
attention: `flash_attention=True` is refused).
"""
import contextlib
import math

import minitf as tf

from ...framework.tf_export import tf_export
from .. import constraints, initializers, regularizers
from ..engine import call_context
from ..engine.base_layer import Layer
from ..engine.keras_tensor import KerasTensor
from ..engine.masking import get_mask
from ..ops.numpy_array import repeat
from .activation_layers import Softmax
from .core import _serialize, deserialize_weight_options
from .einsum_dense import EinsumDense
from .regularization import Dropout


@tf_export("keras.layers.GroupQueryAttention")  # (tf.keras has no GroupedQueryAttention name)
class GroupedQueryAttention(Layer):
    """Grouped-query attention, called as `gqa(query, value, key=None)`."""

    _keras_class_name = "GroupQueryAttention"  # the name Keras exports and serializes

    def __init__(self, head_dim, num_query_heads, num_key_value_heads, dropout=0.0,
                 use_bias=True, sliding_window=None, flash_attention=None,
                 kernel_initializer="glorot_uniform", bias_initializer="zeros",
                 kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, use_gate=False, seed=None,
                 **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True
        self.head_dim, self.num_query_heads = head_dim, num_query_heads
        self.num_key_value_heads = num_key_value_heads
        if num_query_heads % num_key_value_heads != 0:
            raise ValueError("`num_query_heads` must be divisible by `num_key_value_heads`. "
                             "Each key/value head serves the same number of query heads.")
        self.num_repeats = num_query_heads // num_key_value_heads
        self.dropout, self.use_bias, self.use_gate = dropout, use_bias, use_gate
        if sliding_window is not None and (not isinstance(sliding_window, int) or
                                           sliding_window <= 0):
            raise ValueError("`sliding_window` must be `None` or a positive integer. "
                             f"Received: sliding_window={sliding_window}")
        if flash_attention:
            raise NotImplementedError("minitf has no flash attention; leave flash_attention "
                                      "unset (the numbers are the same without it).")
        self.sliding_window = sliding_window
        self.kernel_initializer = initializers.get(kernel_initializer)
        self.bias_initializer = initializers.get(bias_initializer)
        self.kernel_regularizer = regularizers.get(kernel_regularizer)
        self.bias_regularizer = regularizers.get(bias_regularizer)
        self.activity_regularizer = regularizers.get(activity_regularizer)
        self.kernel_constraint = constraints.get(kernel_constraint)
        self.bias_constraint = constraints.get(bias_constraint)
        self.seed = seed
        self._inverse_sqrt_head_dim = 1.0 / math.sqrt(float(head_dim))
        self._projections_built = False

    def _dense(self, equation, heads, bias_axes, name, activation=None):
        return EinsumDense(
            equation, output_shape=(None, self.feature_dim) if heads is None else
            (None, heads, self.head_dim),
            bias_axes=bias_axes if self.use_bias else None, activation=activation, name=name,
            kernel_initializer=type(self.kernel_initializer).from_config(
                self.kernel_initializer.get_config()),
            bias_initializer=type(self.bias_initializer).from_config(
                self.bias_initializer.get_config()),
            kernel_regularizer=self.kernel_regularizer, bias_regularizer=self.bias_regularizer,
            activity_regularizer=self.activity_regularizer,
            kernel_constraint=self.kernel_constraint, bias_constraint=self.bias_constraint,
            dtype=self.dtype_policy)

    def build(self, query_shape, value_shape=None, key_shape=None):
        """The projections, once the value's shape is known (at the first call)."""
        if value_shape is None or self._projections_built:
            return
        key_shape = value_shape if key_shape is None else key_shape
        self.feature_dim = query_shape[-1]
        self._query_dense = self._dense("bqm,muh->bquh", self.num_query_heads, "uh", "query")
        self._key_dense = self._dense("bkm,mvh->bkvh", self.num_key_value_heads, "vh", "key")
        if self.use_gate:
            self._gate_dense = self._dense("bqm,muh->bquh", self.num_query_heads, "uh", "gate",
                                           activation="sigmoid")
        self._value_dense = self._dense("bkm,mvh->bkvh", self.num_key_value_heads, "vh",
                                        "value")
        self._softmax = Softmax(axis=-1, dtype=self.dtype_policy)
        self._dropout_layer = Dropout(rate=self.dropout, dtype=self.dtype_policy,
                                      seed=self.seed)
        self._output_dense = self._dense("bquh,uhm->bqm", None, "m", "attention_output")
        builds = [(self._query_dense, query_shape), (self._key_dense, key_shape),
                  (self._value_dense, value_shape),
                  (self._output_dense, (None, None, self.num_query_heads, self.head_dim))]
        if self.use_gate:
            builds.insert(2, (self._gate_dense, query_shape))
        with contextlib.ExitStack() as scopes:  # weight paths 'this_layer/query/kernel'
            if call_context.innermost_scope_name() != self.name:
                scopes.enter_context(call_context.name_scope(self.name))
            for layer, shape in builds:
                with call_context.name_scope(layer.name):
                    layer.build(shape)
                layer.built = True
        self._projections_built = self.built = True

    def _attention_mask(self, query, value, key, query_mask, value_mask, key_mask,
                        attention_mask, use_causal_mask):
        """One boolean (batch or 1, Tq, Tk) keep-mask from every mask given (None: all)."""
        masks = [None if attention_mask is None else tf.cast(attention_mask, tf.bool)]
        if query_mask is not None:
            masks.append(tf.expand_dims(tf.cast(query_mask, tf.bool), -1))
        for m in (value_mask, key_mask):
            if m is not None:
                masks.append(tf.expand_dims(tf.cast(m, tf.bool), -2))
        rows = tf.reshape(tf.range(tf.shape(query)[1]), [1, -1, 1])
        cols = tf.reshape(tf.range(tf.shape(value)[1]), [1, 1, -1])
        if use_causal_mask:  # query i sees keys 0..i
            masks.append(rows >= cols)
        if self.sliding_window is not None:  # and only keys within the window
            masks.append(tf.abs(rows - cols) < self.sliding_window)
        masks = [m for m in masks if m is not None]
        if not masks:
            return None
        mask = masks[0]
        for m in masks[1:]:
            mask = tf.logical_and(mask, m)
        return mask

    def call(self, query, value, key=None, query_mask=None, value_mask=None, key_mask=None,
             attention_mask=None, return_attention_scores=False, training=None,
             use_causal_mask=False):
        key = value if key is None else key
        self.build(tuple(query.shape), tuple(value.shape), tuple(key.shape))
        query_mask = get_mask(query) if query_mask is None else query_mask
        value_mask = get_mask(value) if value_mask is None else value_mask
        key_mask = get_mask(key) if key_mask is None else key_mask
        mask = self._attention_mask(query, value, key, query_mask, value_mask, key_mask,
                                    attention_mask, use_causal_mask)
        gate = self._gate_dense(query) if self.use_gate else None
        q = self._query_dense(query) * self._inverse_sqrt_head_dim      # (b, Tq, Hq, d)
        k = repeat(self._key_dense(key), self.num_repeats, axis=2)    # (b, Tk, Hq, d)
        v = repeat(self._value_dense(value), self.num_repeats, axis=2)
        scores = tf.einsum("bquh,bkuh->buqk", q, k)                      # (b, Hq, Tq, Tk)
        if mask is not None:
            mask = tf.expand_dims(mask, 1)                               # over the heads
        scores = self._softmax(scores, mask=mask)
        dropped = self._dropout_layer(scores, training=training) if self.dropout > 0 \
            else scores
        output = tf.einsum("buqk,bkuh->bquh", dropped, v)
        output = self._output_dense(output * gate if self.use_gate else output)
        return (output, scores) if return_attention_scores else output

    def compute_output_shape(self, query_shape, value_shape, key_shape=None):
        key_shape = value_shape if key_shape is None else key_shape
        if query_shape[-1] != value_shape[-1]:
            raise ValueError("The last dimension of `query_shape` and `value_shape` must be "
                             f"equal, but are {query_shape[-1]}, {value_shape[-1]}. Received: "
                             f"query_shape={query_shape}, value_shape={value_shape}")
        if tuple(value_shape[1:-1]) != tuple(key_shape[1:-1]):
            raise ValueError("All dimensions of `value` and `key`, except the last one, must "
                             f"be equal. Received: value_shape={value_shape} and "
                             f"key_shape={key_shape}")
        return tuple(query_shape)

    def compute_output_spec(self, query, value, key=None, return_attention_scores=False,
                            **kwargs):
        self.build(tuple(query.shape), tuple(value.shape),
                   None if key is None else tuple(key.shape))
        shape = self.compute_output_shape(tuple(query.shape), tuple(value.shape),
                                          None if key is None else tuple(key.shape))
        output = KerasTensor(shape, self.compute_dtype)
        if not return_attention_scores:
            return output
        length = (value if key is None else key).shape[1]
        scores = (query.shape[0], self.num_query_heads, query.shape[1], length)
        return output, KerasTensor(scores, self.compute_dtype)

    def get_config(self):
        config = {k: v for k, v in super().get_config().items() if k != "activity_regularizer"}
        config.update({
            "head_dim": self.head_dim, "num_query_heads": self.num_query_heads,
            "num_key_value_heads": self.num_key_value_heads, "use_bias": self.use_bias,
            "use_gate": self.use_gate, "sliding_window": self.sliding_window,
            "dropout": self.dropout,
            "kernel_initializer": initializers.serialize(self.kernel_initializer),
            "bias_initializer": initializers.serialize(self.bias_initializer),
            "kernel_regularizer": _serialize(regularizers, self.kernel_regularizer),
            "bias_regularizer": _serialize(regularizers, self.bias_regularizer),
            "activity_regularizer": _serialize(regularizers, self.activity_regularizer),
            "kernel_constraint": _serialize(constraints, self.kernel_constraint),
            "bias_constraint": _serialize(constraints, self.bias_constraint),
            "seed": self.seed})
        return config

    @classmethod
    def from_config(cls, config):
        return cls(**deserialize_weight_options(config))
