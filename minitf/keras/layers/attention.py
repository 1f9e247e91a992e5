"""Attention layers: Attention (dot-product), AdditiveAttention, MultiHeadAttention.

Every attention layer computes, for each query position, a softmax-weighted
average of the values; the weights say how well the query matches each key:

    scores  = score(query, key)              (batch, Tq, Tv)
    weights = softmax(scores, axis=-1)       each row sums to 1
    output  = weights @ value                (batch, Tq, dim)

>>> import minitf as tf
>>> query, value = tf.ones([2, 3, 4]), tf.ones([2, 5, 4])
>>> out, weights = tf.keras.layers.Attention()([query, value], return_attention_scores=True)
>>> out.shape, weights.shape
(TensorShape([2, 3, 4]), TensorShape([2, 3, 5]))

Masks are given explicitly, `mask=[query_mask, value_mask]`: masked values
get a score of -1e9 (weight ~0) and masked query rows output zeros.

In TensorFlow these are `keras/src/layers/attention/attention.py`,
`additive_attention.py` and `multi_head_attention.py` (Keras 3).
"""
import minitf as tf

from ...framework.tf_export import tf_export
from ..engine.base_layer import Layer
from .conv_utils import KerasNamed


def masked_softmax_attention(scores, value, value_mask=None, query_mask=None,
                             use_causal_mask=False, dropout=0.0, training=None):
    """softmax(scores) @ value, with padding/causal masks and dropout on the weights.

    scores (..., Tq, Tv); value (..., Tv, dim); value_mask (batch, Tv) booleans.
    """
    keep = None
    if value_mask is not None:
        keep = tf.expand_dims(tf.cast(value_mask, scores.dtype), -2)       # (batch, 1, Tv)
    if use_causal_mask:  # query i may look at values 0..i only
        ones = tf.ones(tf.shape(scores)[-2:], dtype=scores.dtype)
        causal = tf.linalg.band_part(ones, -1, 0)
        keep = causal if keep is None else keep * causal
    if keep is not None:
        scores = scores - 1.0e9 * (1.0 - keep)
    weights = tf.nn.softmax(scores, axis=-1)
    if training and dropout > 0:
        weights = tf.nn.dropout(weights, rate=dropout)
    output = tf.matmul(weights, value)
    if query_mask is not None:
        output = output * tf.expand_dims(tf.cast(query_mask, output.dtype), -1)
    return output, weights


class BaseDenseAttention(KerasNamed, Layer):
    """Shared by Attention and AdditiveAttention: inputs [query, value(, key)], masks."""

    def __init__(self, dropout=0.0, seed=None, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True
        self.dropout = dropout
        self.seed = seed

    def _validate(self, inputs, mask=None):
        if not isinstance(inputs, (list, tuple)) or not 2 <= len(inputs) <= 3:
            raise ValueError(f"{type(self).__name__} layer must be called on a list of inputs, "
                             "namely [query, value] or [query, value, key]. Received: "
                             f"inputs={inputs}.")
        if mask is not None and (not isinstance(mask, (list, tuple)) or len(mask) not in (2, 3)):
            raise ValueError(f"{type(self).__name__} layer mask must be a list of length 2, "
                             f"namely [query_mask, value_mask]. Received: mask={mask}.")

    def compute_mask(self, inputs, mask=None):
        """The output has the query's steps, so it takes the query's mask."""
        return None if mask is None or mask[0] is None else mask[0]

    def call(self, inputs, mask=None, training=None, return_attention_scores=False,
             use_causal_mask=False):
        self._validate(inputs, mask)
        query, value = inputs[0], inputs[1]
        key = inputs[2] if len(inputs) > 2 else value
        query_mask, value_mask = (mask[0], mask[1]) if mask is not None else (None, None)
        scores = self._calculate_scores(query, key)
        output, weights = masked_softmax_attention(
            scores, value, value_mask, query_mask, use_causal_mask, self.dropout, training)
        return (output, weights) if return_attention_scores else output

    def compute_output_shape(self, input_shape):
        return tuple(input_shape[0][:-1]) + (input_shape[1][-1],)

    def compute_output_spec(self, inputs, return_attention_scores=False, **kwargs):
        from ..engine.keras_tensor import KerasTensor
        query, value = inputs[0], inputs[1]
        output = KerasTensor(self.compute_output_shape([query.shape, value.shape]),
                             self.compute_dtype)
        if not return_attention_scores:
            return output
        return output, KerasTensor(tuple(query.shape[:-1]) + (value.shape[1],),
                                   self.compute_dtype)

    def get_config(self):
        config = super().get_config()
        config.update({"dropout": self.dropout, "seed": self.seed})
        return config


@tf_export("keras.layers.Attention")
class Attention(BaseDenseAttention):
    """Dot-product (Luong) attention: scores = query @ key^T (times `scale` if use_scale).

    score_mode "concat" scores with sum(tanh(query + key)) instead. Weights: a
    scalar `scale` (use_scale) and a scalar `concat_score_weight` ("concat").
    """

    def __init__(self, use_scale=False, score_mode="dot", dropout=0.0, seed=None, **kwargs):
        super().__init__(dropout=dropout, seed=seed, **kwargs)
        if score_mode not in ("dot", "concat"):
            raise ValueError("Invalid value for argument score_mode. Expected one of "
                             f"{{'dot', 'concat'}}. Received: score_mode={score_mode}")
        self.use_scale = use_scale
        self.score_mode = score_mode

    def build(self, input_shape):
        self.scale = self.add_weight(name="scale", shape=(), initializer="ones") \
            if self.use_scale else None
        self.concat_score_weight = self.add_weight(
            name="concat_score_weight", shape=(), initializer="ones") \
            if self.score_mode == "concat" else None
        self.built = True

    def _calculate_scores(self, query, key):
        if self.score_mode == "dot":
            scores = tf.matmul(query, key, transpose_b=True)
            return scores * self.scale if self.scale is not None else scores
        pairs = tf.expand_dims(query, -2) + tf.expand_dims(key, -3)   # (b, Tq, Tv, dim)
        if self.scale is not None:
            pairs = self.scale * pairs
        return self.concat_score_weight * tf.reduce_sum(tf.tanh(pairs), axis=-1)

    def get_config(self):
        config = super().get_config()
        extra = {"use_scale": self.use_scale, "score_mode": self.score_mode,
                 "dropout": config.pop("dropout"), "seed": config.pop("seed")}
        return {**config, **extra}


@tf_export("keras.layers.AdditiveAttention")
class AdditiveAttention(BaseDenseAttention):
    """Additive (Bahdanau) attention: scores = sum(scale * tanh(query + key), axis=-1).

    Weights: `scale` of shape (dim,) when use_scale (the default).

    >>> layer = tf.keras.layers.AdditiveAttention()
    >>> layer([tf.ones([2, 3, 4]), tf.ones([2, 5, 4])]).shape, layer.count_params()
    (TensorShape([2, 3, 4]), 4)
    """

    def __init__(self, use_scale=True, dropout=0.0, seed=None, **kwargs):
        super().__init__(dropout=dropout, seed=seed, **kwargs)
        self.use_scale = use_scale

    def build(self, input_shape):
        dim = input_shape[0][-1]
        self.scale = self.add_weight(name="scale", shape=(dim,),
                                     initializer="glorot_uniform") if self.use_scale else None
        self.built = True

    def _calculate_scores(self, query, key):
        pairs = tf.tanh(tf.expand_dims(query, -2) + tf.expand_dims(key, -3))
        if self.scale is not None:
            pairs = self.scale * pairs
        return tf.reduce_sum(pairs, axis=-1)

    def get_config(self):
        config = super().get_config()
        extra = {"use_scale": self.use_scale, "dropout": config.pop("dropout"),
                 "seed": config.pop("seed")}
        return {**config, **extra}
