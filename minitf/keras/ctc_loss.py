"""`CTC` loss (Graves et al., 2006): sequence labels without an alignment.

y_true: (batch, max_length) integer labels, padded with 0; y_pred: (batch, steps,
num_classes) *logits*, class 0 being the blank. The loss is -log of the total
probability of every path through the steps that, once repeats are merged and blanks
dropped, spells the label. It is computed by tf.nn.ctc_loss's forward (alpha)
recursion over the label with blanks between and around its symbols, in log space
(minitf/ops/nn_ctc_ops.py); the gradient comes from the tape. As in Keras, each
label's length is its number of non-zero entries.
A label that cannot fit in the steps (e.g. "11" needs a blank between, so 3 steps)
costs about 1e30 here; TF's kernel gives a different large number (707 for [[1, 1, 1]]
over 3 steps): read either as "impossible", not as a value to compare.

>>> import minitf as tf
>>> logits = tf.zeros([1, 2, 2])          # two steps, classes {blank, 1}, all equally likely
>>> print(tf.keras.losses.ctc([[1]], logits).numpy())   # paths "1-", "-1", "11": -log(3/4)
[0.2876821]
"""
from ..framework.tensor import convert_to_tensor
from ..framework.tf_export import tf_export
from ..ops.math_ops import cast
from ..ops.nn_ctc_ops import ctc_neg_log_likelihood, per_example_length
from ..ops.nn_ops import log_softmax
from .losses import _ALL_OBJECTS, Loss, _LossFunctionWrapper


@tf_export("keras.losses.ctc", "losses.ctc")
def ctc(y_true, y_pred):
    """One CTC loss per example (see the module docstring).

    >>> print(tf.keras.losses.ctc([[1, 0]], tf.zeros([1, 3, 2])).numpy())  # 6 of 8 paths
    [0.28768206]
    """
    labels = cast(convert_to_tensor(y_true), "int32")
    y_pred = convert_to_tensor(y_pred)
    if labels.shape.rank != 2:
        raise ValueError("Targets `y_true` are expected to be a tensor of shape "
                         "`(batch_size, max_length)` in integer format. "
                         f"Received: y_true.shape={tuple(labels.shape.as_list())}")
    if y_pred.shape.rank != 3:
        raise ValueError("Logits `y_pred` are expected to be a tensor of shape "
                         "`(batch_size, max_length, num_classes)`. "
                         f"Received: y_pred.shape={tuple(y_pred.shape.as_list())}")
    # the recursion of tf.nn.ctc_loss (minitf/ops/nn_ctc_ops.py), blank 0, every step used
    return ctc_neg_log_likelihood(log_softmax(y_pred, axis=-1), labels,
                                  per_example_length(labels), None, blank=0)


@tf_export("keras.losses.CTC", "losses.CTC")
class CTC(_LossFunctionWrapper):
    """The CTC loss as a `Loss` (labels padded with 0, logits with the blank at class 0).

    >>> tf.keras.losses.CTC().get_config()
    {'name': 'ctc', 'reduction': 'sum_over_batch_size'}
    """

    def __init__(self, reduction="sum_over_batch_size", name="ctc", dtype=None):
        super().__init__(ctc, name=name, reduction=reduction, dtype=dtype)

    def call(self, y_true, y_pred):
        return self.fn(y_true, y_pred)  # (batch, length) labels, (batch, steps, classes) logits

    def get_config(self):
        return Loss.get_config(self)


_ALL_OBJECTS.update({"CTC": CTC, "ctc": ctc})
