"""`SpectralNormalization` (a Wrapper) and `ReversibleEmbedding` (an Embedding that can also
turn vectors back into token logits).

SpectralNormalization divides the wrapped layer's kernel by its largest singular
value sigma (its spectral norm), so the layer stretches no input by more than a
factor 1 -- a steadier discriminator in GANs (Miyato et al., 2018). sigma is
estimated by power iteration: u and v are unit vectors with

    v = normalize(u W^T),   u = normalize(v W),   sigma = v W u^T

(W is the kernel reshaped to (-1, out)); u is kept between steps (the
non-trainable weight `vector_u`), so one iteration per training step is enough.
As in Keras, the kernel is rescaled in place while training (`training=True`) and
used as it is at inference.

>>> import minitf as tf
>>> layer = tf.keras.layers.SpectralNormalization(
...     tf.keras.layers.Dense(2, kernel_initializer="ones"), power_iterations=3)
>>> _ = layer(tf.ones([1, 2]), training=True)
>>> layer.layer.kernel.numpy().round(6)      # ones(2, 2) has sigma 2: every entry 1 / 2
array([[0.5, 0.5],
       [0.5, 0.5]], dtype=float32)

ReversibleEmbedding(input_dim, output_dim) is an Embedding; called with
reverse=True on vectors it multiplies by the transposed table (or by its own
`reverse_embeddings` when tie_weights=False), giving one logit per token, as
language models with tied input and output embeddings do.

In Keras these are `keras/src/layers/normalization/spectral_normalization.py` and
`keras/src/layers/core/reversible_embedding.py`.
"""
import minitf as tf

from ...framework.tf_export import tf_export
from .. import initializers
from ..engine.input_spec import InputSpec
from ..engine.keras_tensor import KerasTensor
from .core import Embedding
from .wrappers import Wrapper


def _normalize(x):
    """x / ||x|| over all entries (Keras's ops.normalize with axis=None, epsilon 1e-7)."""
    return x * tf.minimum(tf.math.rsqrt(tf.reduce_sum(tf.square(x))), 1e7)


@tf_export("keras.layers.SpectralNormalization")
class SpectralNormalization(Wrapper):
    """Keep the wrapped layer's `kernel` (or `embeddings`) at spectral norm 1."""

    def __init__(self, layer, power_iterations=1, **kwargs):
        super().__init__(layer, **kwargs)
        if power_iterations <= 0:
            raise ValueError("`power_iterations` should be greater than zero. Received: "
                             f"`power_iterations={power_iterations}`")
        self.power_iterations = power_iterations

    def build(self, input_shape):
        super().build(input_shape)
        self.input_spec = InputSpec(min_ndim=1, axes={-1: input_shape[-1]})
        if hasattr(self.layer, "kernel"):
            self.kernel = self.layer.kernel
        elif hasattr(self.layer, "embeddings"):
            self.kernel = self.layer.embeddings
        else:
            raise ValueError(f"{type(self.layer).__name__} object has no attribute 'kernel' "
                             "nor 'embeddings'. SpectralNormalization rescales a layer's "
                             "weight matrix; wrap a Dense, Conv or Embedding layer.")
        self.kernel_shape = tuple(self.kernel.shape)  # (the kernel is also this layer's own
        # variable, as in Keras: a .keras file stores it under both layers)
        self.vector_u = self.add_weight(
            shape=(1, self.kernel_shape[-1]), name="vector_u", trainable=False,
            initializer=initializers.TruncatedNormal(stddev=0.02), dtype=self.kernel.dtype)

    def normalized_weights(self):
        """(new u, kernel / sigma) after `power_iterations` steps of power iteration."""
        weights = tf.reshape(self.kernel, [-1, self.kernel_shape[-1]])
        u = tf.convert_to_tensor(self.vector_u)
        for _ in range(self.power_iterations):
            v = _normalize(tf.matmul(u, weights, transpose_b=True))
            u = _normalize(tf.matmul(v, weights))
        u, v = tf.stop_gradient(u), tf.stop_gradient(v)
        sigma = tf.matmul(tf.matmul(v, weights), u, transpose_b=True)   # (1, 1)
        kernel = tf.reshape(tf.convert_to_tensor(self.kernel) / sigma, self.kernel_shape)
        return tf.cast(u, self.vector_u.dtype), tf.cast(kernel, self.kernel.dtype)

    def call(self, inputs, training=False):
        if training:  # (an all-zero kernel has no direction to normalize: left alone)
            u, kernel = tf.cond(tf.reduce_all(tf.equal(self.kernel, 0)),
                                lambda: (tf.identity(self.vector_u), tf.identity(self.kernel)),
                                self.normalized_weights)
            self.vector_u.assign(u)
            self.kernel.assign(kernel)
        return tf.cast(self.layer(inputs), inputs.dtype)

    def compute_output_shape(self, input_shape):
        return self.layer.compute_output_shape(input_shape)

    def get_config(self):
        config = super().get_config()
        config["power_iterations"] = self.power_iterations
        return config


@tf_export("keras.layers.ReversibleEmbedding")
class ReversibleEmbedding(Embedding):
    """An Embedding that also maps vectors back to logits: `layer(x, reverse=True)`."""

    def __init__(self, input_dim, output_dim, tie_weights=True,
                 embeddings_initializer="uniform", embeddings_regularizer=None,
                 embeddings_constraint=None, mask_zero=False, reverse_dtype=None,
                 logit_soft_cap=None, **kwargs):
        super().__init__(input_dim, output_dim, embeddings_initializer=embeddings_initializer,
                         embeddings_regularizer=embeddings_regularizer,
                         embeddings_constraint=embeddings_constraint, mask_zero=mask_zero,
                         **kwargs)
        self.tie_weights, self.reverse_dtype = tie_weights, reverse_dtype
        self.logit_soft_cap = logit_soft_cap

    def build(self, input_shape=None):
        super().build(input_shape)
        if not self.tie_weights:
            self.reverse_embeddings = self.add_weight(
                shape=(self.output_dim, self.input_dim), initializer=self.embeddings_initializer,
                name="reverse_embeddings", trainable=True)

    def call(self, inputs, reverse=False):
        if not reverse:
            return super().call(inputs)
        kernel = tf.transpose(self.embeddings) if self.tie_weights else self.reverse_embeddings
        kernel = tf.convert_to_tensor(kernel)
        if self.reverse_dtype is not None:
            inputs, kernel = tf.cast(inputs, self.reverse_dtype), tf.cast(kernel,
                                                                          self.reverse_dtype)
        logits = tf.matmul(inputs, kernel) if len(inputs.shape) == 2 else \
            tf.einsum("...d,dv->...v", inputs, kernel)
        if self.logit_soft_cap is not None:  # cap * tanh(logits / cap): |logits| < cap
            logits = tf.tanh(logits / self.logit_soft_cap) * self.logit_soft_cap
        return logits

    def compute_mask(self, inputs, mask=None):
        """Ids that are 0 masked (mask_zero=True); vectors (reverse=True) carry no mask."""
        return None if inputs.dtype.is_floating else super().compute_mask(inputs, mask)

    def compute_output_shape(self, input_shape, reverse=False):
        shape = list(input_shape)
        if reverse:
            shape[-1] = self.input_dim
        else:
            shape.append(self.output_dim)
        return shape

    def compute_output_spec(self, inputs, reverse=False):
        return KerasTensor(tuple(self.compute_output_shape(inputs.shape, reverse)),
                           self.compute_dtype)

    def get_config(self):
        config = super().get_config()
        config.update({"quantization_config": None, "tie_weights": self.tie_weights,
                       "reverse_dtype": self.reverse_dtype,
                       "logit_soft_cap": self.logit_soft_cap})
        return config
