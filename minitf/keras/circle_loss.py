"""`Circle` loss (Sun et al., 2020, arXiv:2002.10857) for metric learning, as Keras 3.15 has it.

y_true holds integer labels, y_pred L2-normalised embeddings (one row per example).
Every pair of rows gets a cosine distance `d = max(1 - a.b, 0)`. Pairs with the same
label (positives; a row with itself is left out when `remove_diagonal`) should be close,
the others far. Each distance is re-weighted by how far it is from its optimum
(`margin` for positives, `1 + margin` for negatives), scaled by `gamma`, and each row's
loss is `softplus(logsumexp(positive terms) + logsumexp(negative terms))`.
As in Keras, the reduction averages over the rows whose loss is > 0 only.

>>> import minitf as tf
>>> emb = tf.math.l2_normalize([[1.0, 0.0], [0.9, 0.1], [0.0, 1.0], [0.1, 0.9]], axis=1)
>>> print(tf.keras.losses.Circle(gamma=2.0)([0, 1, 0, 1], emb).numpy())   # mixed classes
3.1259243
>>> print(tf.keras.losses.Circle()([0, 0, 1, 1], emb).numpy() < 1e-9)      # well separated
True
"""
from ..framework.tensor import convert_to_tensor
from ..framework.tf_export import tf_export
from ..ops.array_ops import reshape, shape, transpose
from ..ops.creation_ops import eye, fill
from ..ops.linalg_ops import matmul
from ..ops.math_ops import cast, equal, greater, logical_and, logical_not, maximum, where
from ..ops.nn_ops import softplus
from ..ops.reduction_ops import reduce_logsumexp
from .losses import _ALL_OBJECTS, Loss, _LossFunctionWrapper, reduce_weighted_values


def build_pos_neg_masks(query_labels, key_labels, remove_diagonal=True):
    """Same-label (positive) and different-label (negative) masks of every pair."""
    query_labels = reshape(query_labels, [-1, 1])
    key_labels = reshape(key_labels, [-1, 1])
    positive = equal(query_labels, transpose(key_labels))
    negative = logical_not(positive)
    if remove_diagonal:
        n, m = query_labels.shape[0], key_labels.shape[0]
        positive = logical_and(positive, logical_not(cast(eye(n, m), "bool")))
    return positive, negative


@tf_export("keras.losses.circle", "losses.circle")
def circle(y_true, y_pred, ref_labels=None, ref_embeddings=None, remove_diagonal=True,
           gamma=80, margin=0.4):
    """One circle loss per row of `y_pred` against `ref_embeddings` (default: `y_pred`).

    >>> tf.keras.losses.circle([0, 1], [[1.0, 0.0], [0.0, 1.0]]).numpy()   # no positive pairs
    array([0., 0.], dtype=float32)
    """
    y_pred = convert_to_tensor(y_pred)
    y_true = cast(convert_to_tensor(y_true), "int32")
    ref_embeddings = y_pred if ref_embeddings is None else convert_to_tensor(ref_embeddings)
    ref_labels = y_true if ref_labels is None else cast(convert_to_tensor(ref_labels), "int32")
    distances = maximum(1 - matmul(y_pred, transpose(ref_embeddings)), 0.0)
    positive, negative = build_pos_neg_masks(y_true, ref_labels, remove_diagonal)
    pos_mask, neg_mask = cast(positive, distances.dtype), cast(negative, distances.dtype)
    pos_weights = maximum((margin + distances) * pos_mask, 0.0)
    neg_weights = maximum((1 + margin - distances) * neg_mask, 0.0)
    pos_terms = -1 * gamma * pos_weights * (margin - distances)
    neg_terms = gamma * neg_weights * ((1 - margin) - distances)
    minus_inf = fill(shape(distances), cast(float("-inf"), distances.dtype))  # no gradient path
    p_loss = reduce_logsumexp(where(positive, pos_terms, minus_inf), axis=1)
    n_loss = reduce_logsumexp(where(negative, neg_terms, minus_inf), axis=1)
    return softplus(p_loss + n_loss)


@tf_export("keras.losses.Circle", "losses.Circle")
class Circle(_LossFunctionWrapper):
    """The circle loss as a `Loss`: integer labels, unit-norm embeddings.

    >>> config = tf.keras.losses.Circle().get_config()
    >>> config["gamma"], config["margin"], config["remove_diagonal"], config["reduction"]
    (80.0, 0.4, True, 'sum_over_batch_size')
    """

    def __init__(self, gamma=80.0, margin=0.4, remove_diagonal=True,
                 reduction="sum_over_batch_size", name="circle", dtype=None):
        super().__init__(circle, name=name, reduction=reduction, dtype=dtype, gamma=gamma,
                         margin=margin, remove_diagonal=remove_diagonal)
        self.gamma = gamma
        self.margin = margin
        self.remove_diagonal = remove_diagonal

    def __call__(self, y_true, y_pred, sample_weight=None):
        y_pred = cast(convert_to_tensor(y_pred), self._dtype)
        losses = self.call(convert_to_tensor(y_true), y_pred)
        # Keras marks the rows with a loss > 0 and averages over those only
        return reduce_weighted_values(losses, sample_weight, greater(losses, 0.0),
                                      self.reduction, self._dtype)

    def call(self, y_true, y_pred):
        return self.fn(y_true, y_pred, **self._fn_kwargs)  # labels and rows: no rank matching

    def get_config(self):
        config = Loss.get_config(self)
        config.update({"gamma": self.gamma, "margin": self.margin,
                       "remove_diagonal": self.remove_diagonal})
        return config


_ALL_OBJECTS.update({"Circle": Circle, "circle": circle})
