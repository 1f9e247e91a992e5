"""Cross-entropy, KL, Poisson and hinge metrics: running means of the matching losses.

A metric's `from_logits`/`label_smoothing` mean what they mean for the loss.

>>> import minitf as tf
>>> m = tf.keras.metrics.SparseCategoricalCrossentropy(from_logits=True)
>>> print(m([0, 1], [[0.0, 0.0], [0.0, 0.0]]).numpy())
0.6931472
"""
from ...framework.tf_export import tf_export
from .. import loss_functions as F
from .reduction_metrics import MeanMetricWrapper
from .regression_metrics import _loss_metric

KLDivergence = tf_export("keras.metrics.KLDivergence", "metrics.KLDivergence")(
    _loss_metric("KLDivergence", F.kl_divergence, "kl_divergence", """
    The running mean of the KL divergence.

    >>> print(tf.keras.metrics.KLDivergence()([[0.5, 0.5]], [[0.5, 0.5]]).numpy())
    0.0
    """))
Poisson = tf_export("keras.metrics.Poisson", "metrics.Poisson")(
    _loss_metric("Poisson", F.poisson, "poisson", """
    The running mean of the Poisson loss.

    >>> print(tf.keras.metrics.Poisson()([[0.0]], [[2.0]]).numpy())
    2.0
    """))
Hinge = tf_export("keras.metrics.Hinge", "metrics.Hinge")(
    _loss_metric("Hinge", F.hinge, "hinge", """
    The running mean of the hinge loss.

    >>> print(tf.keras.metrics.Hinge()([[1.0, 0.0]], [[0.5, -2.0]]).numpy())
    0.25
    """))
SquaredHinge = tf_export("keras.metrics.SquaredHinge", "metrics.SquaredHinge")(
    _loss_metric("SquaredHinge", F.squared_hinge, "squared_hinge", """
    The running mean of the squared hinge loss.

    >>> print(tf.keras.metrics.SquaredHinge()([[1.0, 0.0]], [[0.5, -2.0]]).numpy())
    0.125
    """))
CategoricalHinge = tf_export("keras.metrics.CategoricalHinge", "metrics.CategoricalHinge")(
    _loss_metric("CategoricalHinge", F.categorical_hinge, "categorical_hinge", """
    The running mean of the categorical hinge loss.

    >>> print(tf.keras.metrics.CategoricalHinge()([[0.0, 1.0]], [[0.5, 2.0]]).numpy())
    0.0
    """))


@tf_export("keras.metrics.BinaryCrossentropy", "metrics.BinaryCrossentropy")
class BinaryCrossentropy(MeanMetricWrapper):
    """The running mean of the binary cross-entropy.

    >>> print(tf.keras.metrics.BinaryCrossentropy()([[1.0], [0.0]], [[0.5], [0.5]]).numpy())
    0.6931472
    """

    def __init__(self, name="binary_crossentropy", dtype=None, from_logits=False,
                 label_smoothing=0):
        super().__init__(F.binary_crossentropy, name, dtype=dtype, from_logits=from_logits,
                         label_smoothing=label_smoothing)
        self.from_logits = from_logits
        self.label_smoothing = label_smoothing

    def get_config(self):
        return {"name": self.name, "dtype": self.dtype, "from_logits": self.from_logits,
                "label_smoothing": self.label_smoothing}


@tf_export("keras.metrics.CategoricalCrossentropy", "metrics.CategoricalCrossentropy")
class CategoricalCrossentropy(MeanMetricWrapper):
    """The running mean of the categorical cross-entropy (one-hot labels).

    >>> print(tf.keras.metrics.CategoricalCrossentropy()([[0.0, 1.0]], [[0.5, 0.5]]).numpy())
    0.6931472
    """

    def __init__(self, name="categorical_crossentropy", dtype=None, from_logits=False,
                 label_smoothing=0, axis=-1):
        super().__init__(F.categorical_crossentropy, name, dtype=dtype,
                         from_logits=from_logits, label_smoothing=label_smoothing, axis=axis)
        self.from_logits = from_logits
        self.label_smoothing = label_smoothing
        self.axis = axis

    def get_config(self):
        return {"name": self.name, "dtype": self.dtype, "from_logits": self.from_logits,
                "label_smoothing": self.label_smoothing, "axis": self.axis}


@tf_export("keras.metrics.SparseCategoricalCrossentropy",
           "metrics.SparseCategoricalCrossentropy")
class SparseCategoricalCrossentropy(MeanMetricWrapper):
    """The running mean of the sparse categorical cross-entropy (integer labels).

    >>> m = tf.keras.metrics.SparseCategoricalCrossentropy()
    >>> print(m([1], [[0.5, 0.5]]).numpy())
    0.6931472
    """

    def __init__(self, name="sparse_categorical_crossentropy", dtype=None, from_logits=False,
                 ignore_class=None, axis=-1):
        super().__init__(F.sparse_categorical_crossentropy, name=name, dtype=dtype,
                         from_logits=from_logits, ignore_class=ignore_class, axis=axis)
        self.from_logits = from_logits
        self.ignore_class = ignore_class
        self.axis = axis

    def get_config(self):
        return {"name": self.name, "dtype": self.dtype, "from_logits": self.from_logits,
                "ignore_class": self.ignore_class, "axis": self.axis}
